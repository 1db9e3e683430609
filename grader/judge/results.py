"""How a RESULT fact's difference is told: by its shape (None on one side, another type, another
number, fewer or more entries, another order, the first differing entry), never its numbers;
against the statement's answer, or PyTorch's where the expected answer was recorded from torch
(the build track), where a call's error is told by the student's own message."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from grader.i18n import _
from grader.judge.check_sentences import SayCheck
from grader.judge.compare import not_plain, same
from grader.judge.entry_relations import alike, reordered_numbers, repeats_left_out, sorted_reprs, swapped_keys
from grader.judge.explained import MAX_FIELD, Difference
from grader.judge.clear_sentences import SayClear
from grader.judge.read_sentences import SayRead
from grader.judge.result_kinds import not_none, reversed_names
from grader.judge.sentences import Say, Sentence
from grader.judge.shape_sentences import SayShape
from grader.judge.torch_sentences import TOLD_BY_FLAG, SayTorch, told_by_field
from grader.judge.walk_sentences import SayWalk
from grader.judge.explained import difference as _diff
from grader.spec.warned import LOGGED, OTHER_TEXT, OTHER_WARNING, PRINTED
from grader.spec.facts import CONTEXT
from grader.spec.probe import MAX_TEXT
from grader.spec.raised import RAISED_IN, REFUSED, SAID, other_versions, own_text
from grader.spec.facts import (A_CLASS, ABSENT, CLAIM, COUNTER_KIND, NAME_NOT_TEXT, NOT_PLAIN, PYTORCH, RAISES, REFERENCE,
                                SHARED)

_EXCLUDED_LAST = "AccumulateGrad"
"""The one name a list may end in one too many of and be told so: a leaf's node, which the
statements leave out of every chain of names. Any other name told as one too many would tell
the statement's list (the student's without it)."""


QUOTE_BEFORE = 40  # characters of the student's message kept before the first one that differs


def from_difference(want: object, got: str) -> str:
    """The student's message, shown so that its first character that differs from the engine's
    is inside what is printed: a long message that agrees at first is shown from a word a little
    before that place, after "…" (the text quoted is the student's own, never the engine's); a
    message the child cut at ``MAX_TEXT`` then ends at a word, with "…", not as if it ended there."""
    if type(want) is not str or len(got) <= MAX_FIELD:
        return got
    agree = _agreed(want, got)
    start = got.rfind(" ", 0, max(0, agree - QUOTE_BEFORE)) + 1
    cut = len(got.partition(": ")[2]) >= MAX_TEXT  # the child's cut: its last word may be part of one
    return got if start <= 0 else "… " + (got[start:].rsplit(" ", 1)[0] + " …" if cut else got[start:])


PLACE_SHOWN = 36  # characters at least of the shared text told as where two messages part


def parted_after(want: object, got: str) -> str | None:
    """The last words the student's message shares with the engine's before the first character
    that differs, where they share more than ``QUOTE_BEFORE`` characters; else None.  A message
    that lacks a clause the engine's has (", which is output 0 of …", absent where the Value
    saved has no grad_fn) reads, quoted alone, as the one expected: where it parts tells the
    difference without quoting the engine's text."""
    if type(want) is not str or _agreed(want, got) < QUOTE_BEFORE:
        return None
    agree = _agreed(want, got)
    return got[got.rfind(" ", 0, agree - PLACE_SHOWN) + 1:agree].rstrip()


def _agreed(want: str, got: str) -> int:
    """How many first characters the two messages share."""
    return next((i for i, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))


_JSON_TYPES = {bool: "bool", int: "number", float: "number", str: "str", list: "list",
               dict: "dict", type(None): "None"}


@dataclass(frozen=True)
class Shapes:
    """The sentences that tell a plain result's kind of difference, naming its reference: the
    statement's, or PyTorch's where the expected answer was recorded from torch (the build
    track)."""

    none: Sentence
    not_none: Sentence
    type: Sentence
    number: Sentence
    flag: Sentence
    text: Sentence
    fewer: Sentence
    more: Sentence
    order: Sentence
    keys: Sentence
    alike: Sentence


STATEMENT_SHAPES = Shapes(Say.RESULT_NONE, Say.RESULT_NOT_NONE, Say.RESULT_TYPE, Say.RESULT_NUMBER,
                          Say.RESULT_FLAG, Say.RESULT_TEXT, Say.RESULT_FEWER, Say.RESULT_MORE,
                          Say.RESULT_ORDER, Say.RESULT_KEYS, Say.RESULT_ALIKE)
PYTORCH_SHAPES = Shapes(SayTorch.TORCH_NONE, SayTorch.TORCH_NOT_NONE, SayTorch.TORCH_TYPE, SayTorch.TORCH_NUMBER,
                        SayTorch.TORCH_FLAG, SayTorch.TORCH_TEXT, SayTorch.TORCH_FEWER, SayTorch.TORCH_MORE,
                        SayTorch.TORCH_ORDER, SayTorch.TORCH_KEYS, SayTorch.TORCH_ALIKE)


# a claim that a backward added to a retained .grad, told by how the sum went missing (``store_watched``):
# dropped before store_grad, left alone by store_grad, or written without it
_NOT_ADDED = (("cleared", SayTorch.CLEARED_NOT_ADDED), ("replaced", SayTorch.REPLACED_NOT_ADDED),
              ("retained_beside", SayTorch.BESIDE_NOT_ADDED))


def result_differences(want: dict[str, Any], got: dict[str, Any], label: str) -> list[Difference]:
    against_torch = want.get(REFERENCE) == PYTORCH
    if against_torch and want.get(RAISES) is True:
        return _raised(want.get("value"), got, label)
    if against_torch and want.get(CLAIM) is True and type(got.get("value")) is bool \
            and type(want.get("value")) is bool and want["value"] != got["value"]:
        why = next((say for key, say in _NOT_ADDED if got.get(CONTEXT + key) is True), None) if want["value"] else None
        return [_diff(why or (SayTorch.TORCH_HOLDS if want["value"] else SayTorch.TORCH_HOLDS_NOT), label=label)]
    if against_torch and want.get(CLAIM) is True and type(got.get("value")) is str \
            and got["value"].startswith((OTHER_WARNING, OTHER_TEXT, PRINTED, LOGGED)):  # it warned, not as PyTorch does
        return [_warned_otherwise(want.get("value"), got["value"], label)]
    found = _shape(want.get("value"), got.get("value"), label,
                   PYTORCH_SHAPES if against_torch else STATEMENT_SHAPES)
    absent = _absent(found, want, got)
    if found is not None and absent is not None:  # no such key, not an entry that holds None
        return [_diff(Say.NO_ENTRY if found.say is Say.RESULT_NONE else Say.EXTRA_ENTRY, label=label,
                      of=absent[0], name=absent[1])]
    more = found is not None and found.say is Say.RESULT_MORE and dict(found.fields).get("label") == label
    if found is not None and not more and _shared_more(want, got):  # one list appended again and again, changed
        # since (grown inside an entry too); among more entries than the statement's, the extra entries (a list kept
        # between calls, which an earlier call filled) are the difference, a list appended twice maybe right there
        return [_diff(Say.ENTRIES_ONE_LIST, label=label)]
    held = got.get(CONTEXT + "held")
    if found is not None and found.say is Say.RESULT_NONE and type(held) is list and \
            any(dict(found.fields).get("label") == f"{label}[{k!r}]" for k in held if type(k) is str):
        name = next(k for k in held if dict(found.fields).get("label") == f"{label}[{k!r}]")
        other = got.get(CONTEXT + "other_build")  # the leaf read is another build's: no None was put in its place
        say = Say.NONE_OTHER_BUILD if type(other) is list and name in other else Say.NONE_THOUGH_HELD
        return [_diff(say, label=dict(found.fields)["label"], name=name)]
    if found is not None and found.say is Say.RESULT_NONE and got.get(CONTEXT + "cut_from_x") is True:
        saved = got.get(CONTEXT + "saved_apart")  # a Value saved beside x (or for it) that has no graph
        if type(saved) is str:
            return [_diff(SayCheck.GRADIENT_CUT_SAVED, label=label, name=saved)]
        if got.get(CONTEXT + "cut_whole") is True:  # no graph back to grad either: the result itself cut
            return [_diff(SayCheck.GRADIENT_CUT_WHOLE, label=label)]
        return [_diff(SayCheck.GRADIENT_CUT, label=label)]  # a gradient of the right number, in no graph to x
    if found is not None and found.say in _OF_NUMBERS and type(got.get(CONTEXT + "hook_cleared")) is str:
        # a hook of theirs cleared the .grad the records read while a pass ran: the passes never added up
        return [_diff(SayClear.HOOK_CLEARED, label=label, leaf=got[CONTEXT + "hook_cleared"])]
    if found is not None and found.say in _OF_NUMBERS and got.get(CONTEXT + "rows_one_list") is True:
        return [_diff(SayRead.ROWS_ONE_LIST, label=label)]  # rows that are one list show its last numbers, zeroed or not
    if found is not None and found.say in _OF_NUMBERS and type(got.get(CONTEXT + "hooked")) is str:
        # as many records as the statement's, of numbers a hook of theirs was handed: that is why they differ
        return [_diff(SayCheck.HOOK_RECORDS, label=label, leaf=got[CONTEXT + "hooked"])]
    if found is not None and type(got.get(CONTEXT + "grads_of")) is str and type(got.get(CONTEXT + "asked")) is str:
        return [_diff(SayCheck.OTHER_VALUES_GRADS, label=label, leaf=got[CONTEXT + "grads_of"],
                      of=got[CONTEXT + "asked"])]
    if found is not None and found.say in _NUMBER and type(got.get(CONTEXT + "grad_cut")) is str:
        return [_diff(SayCheck.GRAD_TAKEN_AS_NUMBER, label=label, function=got[CONTEXT + "grad_cut"])]  # what comes through grad is lost
    if found is not None and found.say is Say.RESULT_NUMBER and type(got.get(CONTEXT + "summed")) is str:
        return [_diff(Say.ROW_SUMMED, label=label, name=got[CONTEXT + "summed"])]  # the row added up into one entry
    beside = _torch_context(found, got, label) if found is not None else None
    if beside is not None:
        return [beside]
    if found is not None and found.say is Say.RESULT_NUMBER and got.get(CONTEXT + "nodes_run") is True \
            and type(want.get("value")) is int and type(got.get("value")) is int:  # a count of nodes run: fewer or more
        return [_diff(SayWalk.RAN_FEWER if got["value"] < want["value"] else SayWalk.RAN_MORE, label=label)]
    if found is not None and found.say in _NUMBER and got.get(CONTEXT + "gradient_agrees") is True:
        return [_diff(Say.DERIVATIVE_OTHER, label=label)]  # a derivative of a gradient that has the right number
    return [found] if found is not None else []


def _torch_context(found: Difference, got: dict[str, Any], label: str) -> Difference | None:
    """A build-track difference told by what the probe saw beside it (its context), else None."""
    flagged = next((said for say, key, said in TOLD_BY_FLAG if found.say is say and got.get(CONTEXT + key) is True), None)
    if flagged is not None:
        return _diff(flagged, label=label)
    if found.say is SayTorch.TORCH_ORDER and type(over := got.get(CONTEXT + "passed_over")) is list and len(over) == 2:
        return _diff(SayTorch.PASSED_OVER, label=label, name=over[0], feeder=over[1])  # run while a newer node was ready
    made, at = got.get(CONTEXT + "made_accumulator"), str(dict(found.fields).get("label", label))  # the entry told
    if found.say is SayTorch.TORCH_TEXT and type(made) is list and any(at.endswith(f"[{i}][0]") for i in made):
        return _diff(SayTorch.MADE_ACCUMULATOR, label=at)  # entries that are a non-leaf's AccumulateGrad, by index
    if found.say is SayTorch.TORCH_ORDER and got.get(CONTEXT + "reflected") in ("__radd__", "__rmul__"):
        return _diff(SayTorch.REFLECTED_ORDER, label=label, name=got[CONTEXT + "reflected"])  # 2 + w: its __radd__
    by_field = told_by_field(found.say, got)  # a 0 never written, a buffer two nodes share: by the function
    return _diff(by_field[0], label=label, **by_field[1]) if by_field is not None else None


def _shared_more(want: dict[str, Any], got: dict[str, Any]) -> bool:
    """Whether the student's result holds, as two or more of its entries, one list object that
    the statement's does not (``provenance.lists_of``'s groups of indices), and that list is
    none of the statement's entries: the statement's own code may append one list twice where
    two paths are one (both inputs of w * w), and a list shared but right is no mistake."""
    def groups(side: object) -> list[set[int]]:
        return [{i for i in g if type(i) is int} for g in side if type(g) is list] if type(side) is list else []
    entries, wanted = got.get("value"), want.get("value")
    if type(entries) is not list or type(wanted) is not list:
        return False
    return any(not any(g <= w for w in groups(want.get(SHARED))) and min(g) < len(entries)
               and not any(same(entries[min(g)], item) for item in wanted) for g in groups(got.get(SHARED)) if g)


_NUMBER = {Say.RESULT_NUMBER, SayShape.NAN}  # a number that differs from the statement's, or nan
_OF_NUMBERS = {*_NUMBER, Say.RESULT_ALIKE, Say.RESULT_BOTH_ALIKE, Say.RESULT_ORDER}
"""The shapes of a result of as many numbers as the statement's, whose numbers differ."""


def _absent(found: Difference | None, want: dict[str, Any], got: dict[str, Any]) -> tuple[str, str] | None:
    """The dict and the key of an entry told as None on one side (``found``) where that side's
    dict has no such key at all (``ABSENT``), else None."""
    side = {Say.RESULT_NONE: got, Say.RESULT_NOT_NONE: want, Say.RESULT_TEXT_NOT_NONE: want,
            Say.RESULT_TYPED_NOT_NONE: want}.get(found.say) if found is not None else None
    absent = side.get(ABSENT) if side is not None else None
    if type(absent) is list and len(absent) == 2 and all(type(part) is str for part in absent):
        return absent[0], absent[1]
    return None


def _warned_otherwise(want: Any, got: str, label: str) -> Difference:
    """A warning that is not PyTorch's (``warned.grad_read``): where PyTorch warns too, its
    category or its own text, quoted; where PyTorch does not, that it warned at all.  A text
    printed or logged is no warning: told as printed or logged, either way."""
    if got == PRINTED:  # no warning at all: the text printed
        return _diff(SayTorch.TORCH_WARNS_PRINTED if want is True else SayTorch.PRINTED_NOT_WARNED, label=label)
    if got == LOGGED:  # no warning either: the text handed to logging
        return _diff(SayTorch.TORCH_WARNS_LOGGED if want is True else SayTorch.LOGGED_NOT_WARNED, label=label)
    if want is not True:
        return _diff(SayTorch.TORCH_HOLDS_NOT, label=label)
    if got.startswith(OTHER_TEXT):
        return _diff(SayTorch.TORCH_WARNS_OTHER_TEXT, label=label, text=got[len(OTHER_TEXT):])
    return _diff(SayTorch.TORCH_WARNS_OTHER, label=label, type=got)


def _raised(want: Any, fact: dict[str, Any], label: str) -> list[Difference]:
    """A call's error (None: it raised nothing) against the one PyTorch raised there, compared by
    kind and told by the student's own message, quoted in the child (``build.raised``), with
    the function of their engine it came from."""
    got, said, where = fact.get("value"), fact.get(SAID), fact.get(RAISED_IN)
    if same(want, got):
        return []
    if got is None:
        return [_diff(SayTorch.TORCH_NO_ERROR, label=label)]
    shown = said if type(said) is str else got
    constant = own_text(want, got)
    if constant is not None:  # the text alone differs: the statement's constant named, not PyTorch's text
        kind = got.partition(": ")[0]
        if type(where) is str:
            return [_diff(SayTorch.TORCH_OWN_TEXT_IN, label=label, error=shown, name=where, type=kind, constant=constant)]
        return [_diff(SayTorch.TORCH_OWN_TEXT, label=label, error=shown, type=kind, constant=constant)]
    versions = other_versions(want, got)
    if want is None and type(where) is str and type(fact.get(REFUSED)) is str:  # the leaf check asked of the other operand
        return [_diff(SayTorch.OTHER_REFUSED, label=label, error=shown, name=where, leaf=fact[REFUSED])]
    if type(where) is str:
        say = SayTorch.TORCH_AN_ERROR_IN if want is None else \
            SayTorch.TORCH_OTHER_VERSIONS_IN if versions else SayTorch.TORCH_OTHER_ERROR_IN
        return [_diff(say, label=label, error=shown, name=where)]
    say = SayTorch.TORCH_AN_ERROR if want is None else SayTorch.TORCH_OTHER_VERSIONS if versions else SayTorch.TORCH_OTHER_ERROR
    return [_diff(say, label=label, error=shown)]


def _shape(want: Any, got: Any, label: str, says: Shapes = STATEMENT_SHAPES) -> Difference | None:
    """The first difference between two plain results, by kind: None on one side, another
    type, another number, fewer or more entries, the same entries in another order, entries all
    alike where the reference's differ (each read at one moment: a .grad Value kept, which a
    later backward changed in place, reads the same everywhere), or the first differing entry
    (told with its own label)."""
    if same(want, got):
        return None
    if want is None and type(got) is str and says is STATEMENT_SHAPES:
        return not_none(got, label)  # the student's own text, quoted, or the type of what it returned
    if got is None or want is None:
        return _diff(says.none if got is None else says.not_none, label=label)
    if type(got) is str and got.startswith(A_CLASS):  # a node's class where its node belongs: the build track's
        return _diff(SayTorch.TORCH_CLASS, label=label, name=got[len(A_CLASS):])
    if type(got) is str and got.startswith(COUNTER_KIND):  # a _version of another type than int (build_reads.version)
        return _diff(SayTorch.COUNTER_KIND, label=label, type=got[len(COUNTER_KIND):])
    if type(got) is str and got.startswith(NAME_NOT_TEXT):  # a node whose name() gave no str: the type it gave
        return _diff(SayTorch.NAME_NOT_TEXT, label=label, type=got[len(NAME_NOT_TEXT):])
    if type(got) is str and got.startswith(NOT_PLAIN):  # a generator, a node: the student's type
        return _diff(says.type, label=label, type=_("of type {type}", type=got[len(NOT_PLAIN):]))
    wtype, gtype = _JSON_TYPES.get(type(want)), _JSON_TYPES.get(type(got))
    if wtype != gtype:
        text = got if type(got) is str and got.startswith("not ") else _("a {type}", type=gtype)
        return _diff(says.type, label=label, type=text)
    if gtype == "number":  # nan is no number: told as what it is (the statement's is not nan: ``same``)
        nan = says is STATEMENT_SHAPES and type(got) is float and math.isnan(got)
        return _diff(SayShape.NAN if nan else says.number, label=label)
    if gtype == "bool":
        return _diff(says.flag, label=label, flag=got)
    if gtype == "str":
        return _diff(says.text, label=label, text=from_difference(want, got))
    if gtype == "dict":
        if set(want) != set(got):
            return _diff(says.keys, label=label)
        swapped = swapped_keys(want, got) if says is STATEMENT_SHAPES else None
        if swapped is not None:
            return _diff(Say.RESULT_SWAPPED, label=label, name=repr(swapped[0]), leaf=repr(swapped[1]))
        key = next(k for k in want if not same(want[k], got[k]))
        return _shape(want[key], got[key], _entry(label, repr(key)), says)
    if (says is STATEMENT_SHAPES and len(got) == len(want) + 1 and type(got[-1]) is str
            and got[-1].endswith(_EXCLUDED_LAST) and same(want, got[:-1])):
        return _diff(Say.RESULT_MORE_LAST, label=label, text=got[-1])  # one name too many, at the end
    if (says is STATEMENT_SHAPES and len(got) == len(want) - 1 and len(want) > 1 and same(want[1:], got)
            and not same(want[:-1], got)):
        return _diff(Say.RESULT_FIRST_LEFT_OUT, label=label)  # the statement's entries but its first
    if says is STATEMENT_SHAPES and len(got) < len(want) and repeats_left_out(want, got):
        return _diff(Say.RESULT_REPEATS_LEFT_OUT, label=label)
    if says is STATEMENT_SHAPES and not got and want:  # none at all: a generator read to its end before, say
        return _diff(Say.RESULT_EMPTY, label=label)
    if len(want) != len(got):
        return _diff(says.fewer if len(got) < len(want) else says.more, label=label)
    ordered = sorted_reprs(want)
    if (ordered is not None and ordered == sorted_reprs(got)) or reordered_numbers(want, got):
        return _diff(Say.RESULT_REVERSED if says is STATEMENT_SHAPES and reversed_names(want, got) else says.order,
                     label=label)
    if len(got) > 1 and alike(got) and not alike(want) and not not_plain(got[0]) and not _node_kinds(got, says):
        both = says is STATEMENT_SHAPES and len(got) == 2 and all(type(e) is list for e in got)  # two lists equal
        return _diff(Say.RESULT_BOTH_ALIKE if both else says.alike, label=label)  # a Value kept?
    i = next(i for i, (w, g) in enumerate(zip(want, got)) if not same(w, g))
    return _shape(want[i], got[i], _entry(label, str(i)), says)


def _node_kinds(items: list[Any], says: Shapes) -> bool:
    """Whether a build-track result's entries are edges told by their node's kind
    (``["AccumulateGrad", 0]``): alike entries are then nodes of one kind, perhaps two objects,
    never "all the same", so the first differing entry is told instead."""
    return says is PYTORCH_SHAPES and type(items[0]) is list


_PROSE = re.compile(r"[A-Za-z_]\w* [A-Za-z_]|=")  # two words in a row, or a program: not one expression


def _entry(label: str, index: str) -> str:
    """The label of one entry: ``paths(y, w)[0]``, ``((c * 3) * w).grad_fn.next_functions[0]``,
    ``y.grad_fn.apply(grad)[0] for y = w * x``, ``after c.add_(w): c.grad_fn.next_functions[0]``
    (code after the words saying when), or ``[0] of`` a label that is prose."""
    code = label.endswith((")", "]")) or _PROSE.search(label) is None
    head, said, graph = label.partition(" for ")
    if not code and said and " " not in head:
        return f"{head}[{index}]{said}{graph}"
    code = code or _PROSE.search(label.rpartition(": ")[2]) is None  # "after c.add_(w): c.grad_fn.next_functions"
    return f"{label}[{index}]" if code else f"[{index}] of {label}"
