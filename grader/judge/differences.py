"""What kind of difference lies between a submission's observation and the reference's.

Both observations are plain JSON from a child (see ``grader.spec.facts``).  ``find`` walks them
side by side; wherever the reference holds a *fact* (a GRAD, VALUE, GRAPH, CALL or IDENTITY
dict) and the submission's differs, it names the first difference that matters, as a
``Difference``: a sentence kind and the fields that fill it.  Fields come from the submission's
side or from the probe's labels, never from the reference's numbers or ops, so a sentence never
gives an answer away.  Everything from the child is untrusted: strings are cut and cleaned.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from collections.abc import Sequence
from typing import Any, Callable

from grader.i18n import _, sentences
from grader.judge import build_feedback
from grader.judge.causes import explains, follows, order, told_once
from grader.judge.cases import cases_merged
from grader.judge.checks import check_differences
from grader.judge.compare import mismatched_keys, not_its_shape, not_plain, same
from grader.judge.sentences import MAX_FIELD, Difference, Say, clean
from grader.judge.sentences import difference as _diff
from grader.judge.shapes import graph_differences
from grader.spec import Test
from grader.spec.build import OTHER_WARNING, RAISED_IN, SAID
from grader.spec.facts import CLAIM, CONTEXT, FACT, LABEL, NOT_PLAIN, PYTORCH, RAISES, REFERENCE, Kind


def _grad(want: dict[str, Any], got: dict[str, Any], label: str) -> list[Difference]:
    if got.get("type") != "Value":
        return [_diff(Say.NOT_A_VALUE, label=label, type=got.get("type"))]
    wby, gby = want.get("by"), got.get("by")
    if got.get(CONTEXT + "new_leaf") is True and any(
            got.get(k) != v for k, v in want.items() if not k.startswith(CONTEXT)):
        return [_diff(Say.NEW_LEAF_WRITTEN, label=label)]
    if wby != "nobody" and gby == "nobody" and got.get(CONTEXT + "set_to_none"):
        return [_diff(Say.GRAD_NONE_BY_HAND, label=label)]
    if wby == "backward" and gby == "hand":
        return [_diff(Say.GRAD_BY_HAND, label=label)]
    if wby == "backward" and gby == "nobody":
        retained = got.get(CONTEXT + "retains_grad") is True
        return [_diff(Say.RETAINED_NEVER_WRITTEN if retained else Say.GRAD_NEVER_WRITTEN, label=label)]
    if wby == "hand" and gby == "backward":
        return [_diff(Say.GRAD_STILL_BACKWARD, label=label)]
    left_as_written = got.get("changed", got.get(CONTEXT + "changed")) is False
    cleared_before = got.get(CONTEXT + "cleared_before_backward") is True and left_as_written  # not after the last
    if wby == "nobody" and gby in ("backward", "chosen"):
        return [_diff(Say.CLEARED_BEFORE_ONLY if cleared_before else Say.GRAD_WRITTEN, label=label)]
    if wby != "chosen" and gby == "chosen":
        return [_diff(Say.GRAD_CHOSEN, label=label)]
    if wby == "nobody" and gby == "hand":
        return [_diff(Say.GRAD_SET_BY_HAND, label=label)]
    if "changed" in want and "changed" in got and want["changed"] != got["changed"]:
        say = Say.GRAD_CHANGED if got["changed"] else Say.GRAD_NOT_CHANGED
        return [_diff(Say.CLEARED_BEFORE_ONLY if say is Say.GRAD_NOT_CHANGED and cleared_before else say,
                      label=label)]
    if not same(want.get("grad"), got.get("grad")):
        return [_diff(Say.GRAD_NUMBER if gby == "backward" else Say.GRAD_HAND_NUMBER, label=label)]
    return []


def _version(want: dict[str, Any], got: dict[str, Any], label: str) -> list[Difference]:
    wv, gv = want.get("version"), got.get("version")
    if type(wv) is not int or type(gv) is not int or wv == gv:
        return []
    if gv == 0:  # .data named only where the student's code reached this Value's .data
        return [_diff(Say.NEVER_IN_PLACE_DATA if got.get(CONTEXT + "through_data") is True
                      else Say.NEVER_IN_PLACE, label=label)]
    if wv == 0:
        return [_diff(Say.IN_PLACE, label=label)]
    return [_diff(Say.IN_PLACE_MORE if gv > wv else Say.IN_PLACE_FEWER, label=label)]


def _value(want: dict[str, Any], got: dict[str, Any], label: str) -> list[Difference]:
    if want.get("type") == "float":  # a number asked for, not a Value
        if got.get("type") != "float":
            return [_diff(Say.NOT_A_FLOAT, label=label, type=got.get("type"))]
        return [] if same(want.get("data"), got.get("data")) else [_diff(Say.DATA, label=label)]
    if got.get("type") != "Value":
        return [_diff(Say.NOT_A_VALUE, label=label, type=got.get("type"))]
    if want.get("grad_fn") is not None and got.get("grad_fn") is None:
        return [_diff(Say.IS_LEAF if got.get("requires_grad") else Say.UNTRACKED, label=label)]
    if want.get("grad_fn") is None and got.get("grad_fn") is not None:
        return [_diff(Say.NOT_LEAF, label=label, op=got.get("grad_fn"))]
    if want.get("grad_fn") != got.get("grad_fn"):
        return [_diff(Say.OTHER_OP, label=label, op=got.get("grad_fn"))]
    if want.get("requires_grad") != got.get("requires_grad"):
        return [_diff(Say.REQUIRES_GRAD, label=label, flag=got.get("requires_grad"))]
    if want.get("retains_grad") != got.get("retains_grad"):
        return [_diff(Say.RETAINS if got.get("retains_grad") else Say.NOT_RETAINED, label=label)]
    found = _version(want, got, label)
    if not found and not same(want.get("data"), got.get("data")):
        changed = got.get(CONTEXT + "changed_after")  # the name of an input changed through .data after backward
        found = [_diff(Say.DATA_BEFORE_CHANGE, label=label, name=changed) if type(changed) is str
                 else _diff(Say.DATA, label=label)]
    return found


def _call(want: dict[str, Any], got: dict[str, Any], label: str) -> list[Difference]:
    found = []
    wp, gp = want.get("passes"), got.get("passes")
    if type(wp) is int and type(gp) is int and wp != gp:
        say = (Say.NO_BACKWARD if gp == 0 else Say.BACKWARD if wp == 0
               else Say.MORE_BACKWARD if gp > wp else Say.FEWER_BACKWARD)
        found.append(_diff(say, label=label))
    wk, gk = _either(want, got, "kept_graph")
    if type(wk) is list and type(gk) is list and wp == gp:
        kept = next(((w, g) for w, g in zip(wk, gk) if w is not g), None)
        if kept is not None:
            say = Say.KEPT_MORE if kept[1] is True else Say.KEPT_FEWER
            found.append(_diff(say, label=label, context=CONTEXT + "kept_graph" in want))
    for key, say in _EVERY_PASS:
        if _some_pass_not(want.get(key), got.get(key)):
            found.append(_diff(say, label=label))
    for key, say in (("grads_cleared", Say.CLEARED), ("cleared_between", Say.CLEARED_BETWEEN)):
        if wp == gp and _cleared_where_kept(want.get(key), got.get(key)):
            found.append(_diff(say, label=label))
    off, left = (_either(want, got, key) for key in ("grad_mode_off", "grad_mode_left_off"))
    if off[0] != off[1]:
        found.append(_diff(Say.GRAD_MODE_OFF if off[1] else Say.GRAD_MODE_ON, label=label,
                           context=CONTEXT + "grad_mode_off" in want))
    if left[1] and not left[0]:
        found.append(_diff(Say.LEFT_OFF, label=label))
    never_read = want.get("read_grad") is True and got.get("read_grad") is False
    for key, say in (("read_grad", Say.NEVER_READ), ("read_after_last_pass", Say.NOT_READ_AFTER),
                     ("from_given", Say.NEW_ROOT), ("one_graph", Say.OTHER_GRAPH)):
        if want.get(key) is True and got.get(key) is False and not (never_read and say is Say.NOT_READ_AFTER):
            found.append(_diff(say, label=label))  # code that never read .grad read none after a pass either
    if want.get("engine_walk") is False and got.get("engine_walk") is True:
        found.append(_diff(Say.ENGINE_WALK, label=label))
    return found


# Per-pass facts of the parameters a call was given (``watching(leaves=...)``): true in every
# pass of the statement's run; the sentence says what one of the student's passes did instead.
_EVERY_PASS = (("grads_cleared", Say.NOT_CLEARED), ("by_backward", Say.GRAD_CALL),
               ("reaches_leaves", Say.UNREACHED))


def _some_pass_not(want: object, got: object) -> bool:
    """Whether the statement's passes all had the property and one of the student's did not."""
    return (type(want) is list and type(got) is list and all(w is True for w in want)
            and any(g is False for g in got))


def _cleared_where_kept(want: object, got: object) -> bool:
    """Whether a pass of the student's started from cleared gradients where the statement's
    pass of the same number adds to the gradients an earlier pass left."""
    return (type(want) is list and type(got) is list
            and any(w is False and g is True for w, g in zip(want, got)))


def _either(want: dict[str, Any], got: dict[str, Any], key: str) -> tuple[Any, Any]:
    """A field compared (``key``) or context only (``~key``), on both sides."""
    name = key if key in want else CONTEXT + key
    return want.get(name), got.get(name)


def _identity(want: dict[str, Any], got: dict[str, Any], label: str) -> list[Difference]:
    if got.get("same") is None and got.get("type") is not None:
        return [_diff(Say.NOT_A_VALUE, label=label, type=got.get("type"))]
    if want.get("same") == got.get("same"):
        return []
    say = Say.SAME_OBJECT if got.get("same") else Say.NEW_OBJECT
    return [_diff(say, label=label, of=want.get("of"))]


def _error(want: dict[str, Any], got: dict[str, Any], label: str) -> list[Difference]:
    we, ge = want.get("error"), got.get("error")
    if type(ge) is str and ge.startswith("not an exception: "):
        return [_diff(Say.NOT_AN_ERROR, label=label, type=ge.removeprefix("not an exception: "))]
    if we is not None and ge is None:
        return [_diff(Say.NO_ERROR, label=label)]
    if we is None and ge is not None:
        return [_diff(Say.AN_ERROR, label=label, error=ge)]
    if we != ge:
        return [_diff(Say.OTHER_ERROR, label=label, error=_from_difference(we, ge))]
    if want.get("raised_by") == "engine" and got.get("raised_by") == "earlier":
        return [_diff(Say.RAISED_EARLIER, label=label)]
    if want.get("raised_by") == "engine" and got.get("raised_by") != "engine":
        return [_diff(Say.NOT_RAISED, label=label)]
    return []


QUOTE_BEFORE = 40  # characters of the student's message kept before the first one that differs


def _from_difference(want: object, got: str) -> str:
    """The student's message, shown so that its first character that differs from the engine's
    is inside what is printed: a long message that agrees at first is shown from a word a little
    before that place, after "…" (the text quoted is the student's own, never the engine's)."""
    if type(want) is not str or len(got) <= MAX_FIELD:
        return got
    agree = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))
    start = got.rfind(" ", 0, max(0, agree - QUOTE_BEFORE)) + 1
    return got if start <= 0 else "… " + got[start:]


_JSON_TYPES = {bool: "bool", int: "number", float: "number", str: "str", list: "list",
               dict: "dict", type(None): "None"}
_FLAT = (bool, int, float, str, type(None))


@dataclass(frozen=True)
class Shapes:
    """The sentences that tell a plain result's kind of difference, naming its reference: the
    statement's, or PyTorch's where the expected answer was recorded from torch (the build
    track)."""

    none: Say
    not_none: Say
    type: Say
    number: Say
    flag: Say
    text: Say
    fewer: Say
    more: Say
    order: Say
    keys: Say
    alike: Say


STATEMENT_SHAPES = Shapes(Say.RESULT_NONE, Say.RESULT_NOT_NONE, Say.RESULT_TYPE, Say.RESULT_NUMBER,
                          Say.RESULT_FLAG, Say.RESULT_TEXT, Say.RESULT_FEWER, Say.RESULT_MORE,
                          Say.RESULT_ORDER, Say.RESULT_KEYS, Say.RESULT_ALIKE)
PYTORCH_SHAPES = Shapes(Say.TORCH_NONE, Say.TORCH_NOT_NONE, Say.TORCH_TYPE, Say.TORCH_NUMBER,
                        Say.TORCH_FLAG, Say.TORCH_TEXT, Say.TORCH_FEWER, Say.TORCH_MORE,
                        Say.TORCH_ORDER, Say.TORCH_KEYS, Say.TORCH_ALIKE)


def _result(want: dict[str, Any], got: dict[str, Any], label: str) -> list[Difference]:
    against_torch = want.get(REFERENCE) == PYTORCH
    if against_torch and want.get(RAISES) is True:
        return _raised(want.get("value"), got, label)
    if against_torch and want.get(CLAIM) is True and type(got.get("value")) is bool \
            and type(want.get("value")) is bool and want["value"] != got["value"]:
        return [_diff(Say.TORCH_HOLDS if want["value"] else Say.TORCH_HOLDS_NOT, label=label)]
    if against_torch and want.get(CLAIM) is True and want.get("value") is True \
            and type(got.get("value")) is str and got["value"].startswith(OTHER_WARNING):
        return [_diff(Say.TORCH_WARNS_OTHER, label=label, type=got["value"])]
    found = _shape(want.get("value"), got.get("value"), label,
                   PYTORCH_SHAPES if against_torch else STATEMENT_SHAPES)
    return [found] if found is not None else []


def _raised(want: Any, fact: dict[str, Any], label: str) -> list[Difference]:
    """A call's error (None: it raised nothing) against the one PyTorch raised there, compared by
    kind and told by the student's own message, quoted in the child (``build.raised``), with
    the function of their engine it came from."""
    got, said, where = fact.get("value"), fact.get(SAID), fact.get(RAISED_IN)
    if same(want, got):
        return []
    if got is None:
        return [_diff(Say.TORCH_NO_ERROR, label=label)]
    shown = said if type(said) is str else got
    if type(where) is str:
        say = Say.TORCH_AN_ERROR_IN if want is None else Say.TORCH_OTHER_ERROR_IN
        return [_diff(say, label=label, error=shown, function=where)]
    return [_diff(Say.TORCH_AN_ERROR if want is None else Say.TORCH_OTHER_ERROR, label=label, error=shown)]


def _shape(want: Any, got: Any, label: str, says: Shapes = STATEMENT_SHAPES) -> Difference | None:
    """The first difference between two plain results, by kind: None on one side, another
    type, another number, fewer or more entries, the same entries in another order, entries all
    alike where the reference's differ (each read at one moment: a .grad Value kept, which a
    later backward changed in place, reads the same everywhere), or the first differing entry
    (told with its own label)."""
    if same(want, got):
        return None
    if got is None or want is None:
        return _diff(says.none if got is None else says.not_none, label=label)
    if type(got) is str and got.startswith(NOT_PLAIN):  # a generator, a node: the student's type
        return _diff(says.type, label=label, type=_("of type {type}", type=got[len(NOT_PLAIN):]))
    wtype, gtype = _JSON_TYPES.get(type(want)), _JSON_TYPES.get(type(got))
    if wtype != gtype:
        text = got if type(got) is str and got.startswith("not ") else _("a {type}", type=gtype)
        return _diff(says.type, label=label, type=text)
    if gtype == "number":
        return _diff(says.number, label=label)
    if gtype == "bool":
        return _diff(says.flag, label=label, flag=got)
    if gtype == "str":
        return _diff(says.text, label=label, text=_from_difference(want, got))
    if gtype == "dict":
        if set(want) != set(got):
            return _diff(says.keys, label=label)
        key = next(k for k in want if not same(want[k], got[k]))
        return _shape(want[key], got[key], _entry(label, repr(key)), says)
    if len(want) != len(got):
        return _diff(says.fewer if len(got) < len(want) else says.more, label=label)
    ordered = _sorted(want)
    if (ordered is not None and ordered == _sorted(got)) or _reordered_numbers(want, got):
        return _diff(says.order, label=label)
    if len(got) > 1 and _alike(got) and not _alike(want) and not not_plain(got[0]):  # a Value kept?
        return _diff(says.alike, label=label)
    i = next(i for i, (w, g) in enumerate(zip(want, got)) if not same(w, g))
    return _shape(want[i], got[i], _entry(label, str(i)), says)


def _alike(items: list[Any]) -> bool:
    """Whether every entry of a list is the same as its first."""
    return all(same(item, items[0]) for item in items[1:])


_PROSE = re.compile(r"[A-Za-z_]\w* [A-Za-z_]|=")  # two words in a row, or a program: not one expression


def _entry(label: str, index: str) -> str:
    """The label of one entry: ``paths(y, w)[0]``, ``((c * 3) * w).grad_fn.next_functions[0]``,
    ``y.grad_fn.apply(grad)[0] for y = w * x``, or ``[0] of`` a label that is prose."""
    code = label.endswith((")", "]")) or _PROSE.search(label) is None
    head, said, graph = label.partition(" for ")
    if not code and said and " " not in head:
        return f"{head}[{index}]{said}{graph}"
    return f"{label}[{index}]" if code else f"[{index}] of {label}"


def _reordered_numbers(want: list[Any], got: list[Any]) -> bool:
    """Whether ``got`` holds the numbers of ``want`` (each the same within the tolerance), in
    another order: (dy/dx, dy/dw) for (dy/dw, dy/dx).  Only short lists of numbers."""
    if not 1 < len(want) == len(got) <= MAX_REORDERED or any(type(x) not in (int, float) for x in (*want, *got)):
        return False
    free = list(want)
    for g in got:
        match = next((i for i, w in enumerate(free) if same(w, g)), None)
        if match is None:
            return False
        free.pop(match)
    return True


MAX_REORDERED = 8
"""The longest list of numbers whose entries are matched in another order."""


def _sorted(items: list[Any]) -> list[str] | None:
    """A list's entries as a sorted list of their reprs (to tell another order), or None when
    numbers are among them (compared with a tolerance, so never reordered here)."""
    if any(type(x) in (int, float) for x in items):
        return None
    return sorted(repr(x) for x in items)


_BY_KIND: dict[str, Callable[[dict[str, Any], dict[str, Any], str], list[Difference]]] = {
    Kind.GRAD.value: _grad, Kind.VALUE.value: _value, Kind.GRAPH.value: graph_differences,
    Kind.CALL.value: _call, Kind.IDENTITY.value: _identity, Kind.ERROR.value: _error,
    Kind.RESULT.value: _result, Kind.CHECK.value: check_differences,
}


def find(want: Any, got: Any) -> list[Difference]:
    """Every explained difference, causes first, each sentence once; a context sentence only
    where it explains another difference."""
    found: list[tuple[int, Difference]] = []
    _walk(want, got, found)
    unique: list[Difference] = []
    for _, d in sorted(found, key=lambda pair: pair[0]):
        if d not in unique:
            unique.append(d)
    said, labelled = {d.say for d in unique}, {(d.say, dict(d.fields).get("label")) for d in unique}
    return cases_merged([d for d in unique if (not d.context or explains(d.say, said)) and not _part_of_none(d, unique)
                         and not _number_for_none(d, unique) and not follows(d.say, dict(d.fields).get("label", ""), labelled)])



_NONE_SAYS = {Say.RESULT_NONE, Say.RESULT_NOT_NONE, Say.TORCH_NONE, Say.TORCH_NOT_NONE}


def _part_of_none(d: Difference, found: list[Difference]) -> bool:
    """Whether ``d`` says that a part of something (``y.grad_fn.next_functions``) is None or
    not, where another difference already says so of the whole (``y.grad_fn``): when y has no
    grad_fn there is no next_functions to be None."""
    if d.say not in _NONE_SAYS:
        return False
    label = dict(d.fields).get("label", "")
    return any(e.say is d.say and label.startswith(dict(e.fields).get("label", "\0") + ".")
               for e in found)


def _number_for_none(d: Difference, found: list[Difference]) -> bool:
    """Whether ``d`` says that a number a call returned was not read from the engine, where
    another difference says that an entry of that result is not None where the statement's is:
    a number standing for a missing gradient (0.0 for None) is no formula, and the entry's own
    sentence tells it."""
    if d.say is not Say.NOT_READ_FROM_GRAD:
        return False
    label = dict(d.fields).get("label", "")
    return any(e.say is Say.RESULT_NOT_NONE and dict(e.fields).get("label", "").startswith(label + "[")
               for e in found)


def _walk(want: Any, got: Any, found: list[tuple[int, Difference]]) -> None:
    if want == got:  # not ``same``: context keys (``~``) are not compared, but they explain
        return
    if not_its_shape(want, got):  # the whole result told once, by what it was instead
        found.append((order(got), _diff(Say.RESULT_TYPE, label=clean(got[LABEL]), type=clean(got["value"]))))
        return
    if type(want) is dict and type(want.get(FACT)) is str:
        explain = _BY_KIND.get(want[FACT])
        if explain is not None and type(got) is dict and got.get(FACT) == want[FACT]:
            said = explain(want, got, clean(want.get("label", "the result")))
            found.extend((order(want), d) for d in said)
        return
    if type(want) is dict and type(got) is dict:
        for key, item in want.items():
            if key in got:
                _walk(item, got[key], found)
    elif type(want) is list and type(got) is list and len(want) == len(got):
        for a, b in zip(want, got):
            _walk(a, b, found)


MAX_SENTENCES = 4


def chosen(found: Sequence[Difference | build_feedback.Alike], most: int = MAX_SENTENCES
           ) -> list[Difference | build_feedback.Alike]:
    """At most ``most`` differences, in their order (causes first), each *kind* told before
    any kind is told twice: "retain_grad() was called on b" for three nodes must not crowd
    out the one sentence about a gradient."""
    firsts = [i for i, d in enumerate(found) if all(e.say is not d.say for e in found[:i])]
    rest = [i for i in range(len(found)) if i not in firsts and not told_once(found[i].say)]
    return [found[i] for i in sorted((firsts + rest)[:most])]


def feedback(test: Test, want: Any, got: Any) -> str:
    """A failed test's feedback: what this submission did differently (at most a few
    sentences).  The test's advice for the observation keys that differ is given only when no
    sentence could say what differs: advice appended to an observed difference would stand in
    for an explanation it does not follow from."""
    found = find(want, got)
    advice = [_(text) for text in test.advice_for(mismatched_keys(want, got))]  # spec texts are msgids
    if test.rules:  # the build track: its rules always follow, as a sentence of their own
        said = [d.sentence() for d in chosen(build_feedback.grouped(found))]
        return sentences([*said, build_feedback.advice_sentence(advice)])
    said = [d.sentence() for d in chosen(found)]
    return sentences(said) if said else build_feedback.advice_sentence(advice)  # one sentence, its full stop
