"""What kind of difference lies between a submission's observation and the reference's.

Both observations are plain JSON from a child (see ``grader.spec.facts``).  ``find`` walks them
side by side; wherever the reference holds a *fact* (a GRAD, VALUE, GRAPH, CALL or IDENTITY
dict) and the submission's differs, it names the first difference that matters, as a
``Difference``: a sentence kind and the fields that fill it.  Fields come from the submission's
side or from the probe's labels, never from the reference's numbers or ops, so a sentence never
gives an answer away.  Everything from the child is untrusted: strings are cut and cleaned.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Callable

from grader.i18n import _, sentences
from grader.judge import build_feedback
from grader.judge.causes import bare_last, explains, follows, judged, order, told_once
from grader.judge.cases import cases_merged
from grader.judge.checks import JUDGED, check_differences
from grader.judge.compare import mismatched_keys, not_its_shape, same
from grader.judge.per_graph import per_graph
from grader.judge.results import from_difference, parted_after, result_differences
from grader.judge.explained import Difference, clean
from grader.judge.leaf_sentences import SayLeaf
from grader.judge.sentences import Say
from grader.judge.inplace_sentences import SayInPlace
from grader.judge.read_sentences import SayRead
from grader.judge.function_sentences import SayFunction
from grader.judge.state_sentences import SayState
from grader.judge.clear_sentences import SKIPPED_AS, SayClear
from grader.judge.torch_sentences import SayTorch
from grader.judge.walk_sentences import SayWalk
from grader.judge.explained import difference as _diff
from grader.judge.exchanged import exchanges, follows_from_exchange, graph_explained, told
from grader.judge.implied import implied
from grader.judge.placed import placed
from grader.judge.shapes import graph_differences
from grader.spec import Test
from grader.spec.facts import ALIASED, CONTEXT, FACT, LABEL, Kind


_NUMBERS = ("float", "int")


def _grad(want: dict[str, Any], got: dict[str, Any], label: str) -> list[Difference]:
    if got.get("type") in _NUMBERS:  # the .grad of a number the code returned for a Value: a number has
        return []  # none, and "w.grad is of type float" would be untrue; the number's VALUE fact tells
    if got.get("type") != "Value":
        return [_diff(Say.NOT_A_VALUE, label=label, type=got.get("type"))]
    wby, gby = want.get("by"), got.get("by")
    if got.get(CONTEXT + "new_leaf") is True and any(
            got.get(k) != v for k, v in want.items() if not k.startswith(CONTEXT)):
        return [_diff(Say.NEW_LEAF_WRITTEN, label=label)]
    if wby != "nobody" and gby == "nobody" and got.get(CONTEXT + "set_to_none"):
        kept = wby == "backward" and want.get("changed", want.get(CONTEXT + "changed")) is False  # as backward left it
        return [_diff(SayClear.NONE_WHERE_WRITTEN if kept else Say.GRAD_NONE_BY_HAND, label=label)]
    if wby == "backward" and gby == "hand":
        return [_diff(Say.GRAD_BY_HAND, label=label)]
    if wby == "backward" and gby == "nobody":
        retained = got.get(CONTEXT + "retains_grad") is True
        if type(got.get(CONTEXT + "returned_none")) is str:  # a custom Function's backward passed None to x
            return [_diff(SayFunction.RETURNED_NONE, label=label, function=got[CONTEXT + "returned_none"])]
        return [_diff(Say.RETAINED_NEVER_WRITTEN if retained else Say.GRAD_NEVER_WRITTEN, label=label)]
    if wby == "hand" and gby == "backward":
        return [_diff(Say.GRAD_STILL_BACKWARD, label=label)]
    left_as_written = got.get("changed", got.get(CONTEXT + "changed")) is False
    cleared_before = got.get(CONTEXT + "cleared_before_backward") is True and left_as_written  # not after the last
    before_only = SayClear.CLEARED_SOME_ONLY if got.get(CONTEXT + "cleared_some") is True else SayClear.CLEARED_BEFORE_ONLY
    if wby == "nobody" and gby in ("backward", "chosen"):
        zeroed = got.get("changed", got.get(CONTEXT + "changed")) is True and got.get("grad") == 0.0
        return [_diff(before_only if cleared_before else Say.GRAD_ZEROED if zeroed
                      else Say.GRAD_WRITTEN, label=label)]
    if wby != "chosen" and gby == "chosen":
        return [_diff(Say.GRAD_SEEDED if got.get(CONTEXT + "seeded") is True else Say.GRAD_CHOSEN, label=label)]
    if wby == "nobody" and gby == "hand":
        return [_diff(Say.GRAD_SET_BY_HAND, label=label)]
    if "changed" in want and "changed" in got and want["changed"] != got["changed"]:
        say = Say.GRAD_CHANGED if got["changed"] else Say.GRAD_NOT_CHANGED
        helper = got.get(CONTEXT + "changed_by")  # a given function the code called changed it
        if say is Say.GRAD_NOT_CHANGED and type(got.get(CONTEXT + "skipped_as")) is str:  # as an equal leaf, earlier or later
            return [_diff(SKIPPED_AS[got.get(CONTEXT + "skipped_later") is True], label=label, name=got[CONTEXT + "skipped_as"])]
        if say is Say.GRAD_CHANGED and type(helper) is str:
            return [_diff(Say.GRAD_CHANGED_BY_GIVEN, label=label, function=helper)]
        return [_diff(before_only if say is Say.GRAD_NOT_CHANGED and cleared_before else say, label=label)]
    if not same(want.get("grad"), got.get("grad")):
        factor = gby == "backward" and got.get(CONTEXT + "in_proportion") is True  # grad times another local derivative
        if factor and got.get(CONTEXT + "near_zero") is True:  # sigmoid(x)'s digits near 0, not far from it
            return [_diff(SayFunction.DIGITS_LOST_FAR, label=label)]
        return [_diff(Say.GRAD_FACTOR if factor else Say.GRAD_NUMBER if gby == "backward" else Say.GRAD_HAND_NUMBER,
                      label=label)]
    return []


def _version(want: dict[str, Any], got: dict[str, Any], label: str) -> list[Difference]:
    wv, gv = want.get("version"), got.get("version")
    if type(wv) is not int or type(gv) is not int or wv == gv:
        return []
    if gv == 0:  # .data named only where the student's code reached this Value's .data
        return [_diff(SayInPlace.NEVER_IN_PLACE_DATA if got.get(CONTEXT + "through_data") is True
                      else SayInPlace.NEVER_IN_PLACE, label=label)]
    if wv == 0:
        return [_diff(SayInPlace.IN_PLACE, label=label)]
    return [_diff(SayInPlace.IN_PLACE_MORE if gv > wv else SayInPlace.IN_PLACE_FEWER, label=label)]


def _value(want: dict[str, Any], got: dict[str, Any], label: str) -> list[Difference]:
    if want.get("type") == "float":  # a number asked for, not a Value
        if got.get("type") != "float":
            return [_diff(Say.NOT_A_FLOAT, label=label, type=got.get("type"))]
        return [] if same(want.get("data"), got.get("data")) else [_diff(Say.DATA, label=label)]
    if got.get("type") != "Value" and got.get(CONTEXT + "given") is True:  # the argument itself, handed back
        return [_diff(SayLeaf.GIVEN_NUMBER, label=label, type=got.get("type"))]
    if got.get("type") != "Value":
        return [_diff(Say.NOT_A_VALUE, label=label, type=got.get("type"))]
    if got.get(CONTEXT + "inference") is True and want.get(CONTEXT + "inference") is not True:
        return [_diff(SayInPlace.INFERENCE_VALUE, label=label)]
    if want.get("grad_fn") is not None and got.get("grad_fn") is None:
        return [_diff(Say.IS_LEAF if got.get("requires_grad") else Say.UNTRACKED, label=label)]
    if want.get("grad_fn") is None and got.get("grad_fn") is not None:
        return [_diff(Say.NOT_LEAF, label=label, op=got.get("grad_fn"))]
    if want.get("grad_fn") != got.get("grad_fn"):
        return [_diff(Say.OTHER_OP, label=label, op=got.get("grad_fn"))]
    if want.get("requires_grad") != got.get("requires_grad"):
        return [_diff(Say.REQUIRES_GRAD, label=label, flag=got.get("requires_grad"))]
    if want.get("retains_grad") != got.get("retains_grad"):
        equal = got.get(CONTEXT + "equal_named")  # the named node whose number it holds, where that is why
        if got.get("retains_grad") and type(equal) is str:
            return [_diff(SayRead.RETAINED_AS_EQUAL, label=label, name=equal)]
        return [_diff(Say.RETAINS if got.get("retains_grad") else Say.NOT_RETAINED, label=label)]
    found = _version(want, got, label)
    if not found and not same(want.get("data"), got.get("data")):
        changed = got.get(CONTEXT + "changed_after")  # the name of an input changed through .data after it was made
        before = got.get(CONTEXT + "made_after_change")  # ... or of one changed before it was made
        kept = got.get(CONTEXT + "unchanged") is True  # a Value given to change still holds its number
        other = got.get(CONTEXT + "from_input")  # ... or the number that change makes from another input
        added = got.get(CONTEXT + "added")  # ... or its own number plus the one it is to be set to
        found = [_diff(SayInPlace.DATA_ADDED, label=label, name=added) if type(added) is str
                 else _diff(SayInPlace.DATA_BEFORE_CHANGE, label=label, name=changed) if type(changed) is str
                 else _diff(SayInPlace.DATA_AFTER_CHANGE, label=label, name=before) if type(before) is str
                 else _diff(SayInPlace.DATA_FROM_INPUT, label=label, name=other) if type(other) is str
                 else _diff(SayInPlace.DATA_UNCHANGED if kept
                            else SayInPlace.DATA_THROUGH_DATA if _through_data(want, got)
                            else Say.DATA, label=label)]
    return found


def _pass_was(got: dict[str, Any], key: str, index: int) -> bool:
    """Whether the student's pass at ``index`` is marked in the context list ``key``: it kept its
    graph because it was asked create_graph=True (``created_graph``)."""
    marked = got.get(CONTEXT + key)
    return type(marked) is list and index < len(marked) and marked[index] is True


def _through_data(want: dict[str, Any], got: dict[str, Any]) -> bool:
    """Whether a number that differs was changed through ``.data``: the student's code reached it
    there, and the version counter stands where the statement's does (no in-place operation)."""
    version = got.get("version")
    return got.get(CONTEXT + "through_data") is True and type(version) is int and version == want.get("version")


def _call(want: dict[str, Any], got: dict[str, Any], label: str) -> list[Difference]:
    found = []
    wp, gp = want.get("passes"), got.get("passes")
    if type(wp) is int and type(gp) is int and wp != gp:
        say = (Say.NO_BACKWARD if gp == 0 else Say.BACKWARD if wp == 0
               else Say.MORE_BACKWARD if gp > wp
               else Say.FEWER_AFTER_DETACH if got.get(CONTEXT + "detached_after") is True else Say.FEWER_BACKWARD)
        found.append(_diff(say, label=label))
    wk, gk = _either(want, got, "kept_graph")
    if type(wk) is list and type(gk) is list and wp == gp:
        kept = next(((i, g) for i, (w, g) in enumerate(zip(wk, gk)) if w is not g), None)
        if kept is not None:
            say = (Say.KEPT_FEWER if kept[1] is not True else Say.KEPT_BY_CREATE if _pass_was(got, "created_graph", kept[0])
                   else Say.KEPT_MORE)
            found.append(_diff(say, label=label, context=CONTEXT + "kept_graph" in want))
    for key, say in _EVERY_PASS:
        if _some_pass_not(want.get(key), got.get(key)):
            none = say is Say.NOT_CLEARED and got.get(CONTEXT + "none_cleared") is True
            found.append(_diff(Say.NONE_CLEARED if none else say, label=label))
    for key, say in (("grads_cleared", Say.CLEARED), ("cleared_between", Say.CLEARED_BETWEEN)):
        if wp == gp and _cleared_where_kept(want.get(key), got.get(key), got.get("by_backward")):
            found.append(_diff(say, label=label))
    off, left = (_either(want, got, key) for key in ("grad_mode_off", "grad_mode_left_off"))
    if off[0] != off[1] and off[1] is not None:  # None: not observed (a call that ran no code of its own)
        found.append(_diff(Say.GRAD_MODE_OFF if off[1] else Say.GRAD_MODE_ON, label=label,
                           context=CONTEXT + "grad_mode_off" in want))
    if left[1] and not left[0]:
        found.append(_diff(Say.LEFT_OFF, label=label))
    if left[0] is True and left[1] is False:  # called with grad mode off, as the statement leaves it
        found.append(_diff(Say.LEFT_ON, label=label, context=CONTEXT + "grad_mode_left_off" in want))
    never_read = want.get("read_grad") is True and got.get("read_grad") is False
    for key, say in (("read_grad", SayRead.NEVER_READ), ("read_after_last_pass", SayRead.NOT_READ_AFTER),
                     ("from_given", Say.NEW_ROOT), ("one_graph", Say.OTHER_GRAPH)):
        if want.get(key) is True and got.get(key) is False and not (never_read and say is SayRead.NOT_READ_AFTER):
            found.append(_other_root(got, label) if say is Say.OTHER_GRAPH
                         else _diff(say, label=label))  # code that never read .grad read none after a pass either
    if want.get("engine_walk") is False and got.get("engine_walk") is True:
        found.append(_diff(Say.ENGINE_WALK, label=label))
    return found


def _other_root(got: dict[str, Any], label: str) -> Difference:
    """Passes on different graphs, or from different nodes of one graph (``output[0][0]`` after
    ``loss``): the second is told by the ops the passes started from, not as a graph built again."""
    roots = got.get(CONTEXT + "roots_of_one_graph")
    if type(roots) is list and len(roots) == 2 and all(type(r) is str for r in roots):
        return _diff(Say.ROOTS_OF_ONE_GRAPH, label=label, root=roots[0], op=roots[1])
    return _diff(Say.OTHER_GRAPH, label=label)


# Per-pass facts of the parameters a call was given (``watching(leaves=...)``): true in every
# pass of the statement's run; the sentence says what one of the student's passes did instead.
_EVERY_PASS = (("grads_cleared", Say.NOT_CLEARED), ("by_backward", Say.GRAD_CALL),
               ("reaches_leaves", Say.UNREACHED))


def _some_pass_not(want: object, got: object) -> bool:
    """Whether the statement's passes all had the property and one of the student's did not."""
    return (type(want) is list and type(got) is list and all(w is True for w in want)
            and any(g is False for g in got))


def _cleared_where_kept(want: object, got: object, backward: object = None) -> bool:
    """Whether a pass of the student's started from cleared gradients where the statement's
    pass of the same number adds to the gradients an earlier pass left.  A pass of grad()
    (``backward``: False at its number) adds to no .grad: the .grad it found says nothing."""
    passes = backward if type(backward) is list else []
    return (type(want) is list and type(got) is list
            and any(w is False and g is True and (k >= len(passes) or passes[k] is not False)
                    for k, (w, g) in enumerate(zip(want, got))))


def _either(want: dict[str, Any], got: dict[str, Any], key: str) -> tuple[Any, Any]:
    """A field compared (``key``) or context only (``~key``), on both sides."""
    name = key if key in want else CONTEXT + key
    return want.get(name), got.get(name)


def _identity(want: dict[str, Any], got: dict[str, Any], label: str) -> list[Difference]:
    if got.get("same") is None and got.get("type") is not None:
        if want.get("same") is True:  # the statement's is that very Value: named, not "a Value"
            return [_diff(Say.NOT_THAT_VALUE, label=label, type=got.get("type"), of=want.get("of"))]
        return [_diff(Say.NOT_A_VALUE, label=label, type=got.get("type"))]
    if want.get("same") == got.get("same"):
        return []
    kept = got.get(CONTEXT + "earlier_call") is True  # an object an earlier call returned, returned again
    alias = got.get(CONTEXT + "alias") is True  # {of} is a copy sharing this Value's number, which changed it
    say = ((SayState.KEPT_OBJECT if kept else Say.SAME_OBJECT) if got.get("same")
           else SayInPlace.ALIAS_CHANGED if alias else Say.NEW_OBJECT)
    return [_diff(say, label=label, of=want.get("of"))]


def _error(want: dict[str, Any], got: dict[str, Any], label: str) -> list[Difference]:
    we, ge = want.get("error"), got.get("error")
    if type(ge) is str and ge.startswith("not an exception: "):  # the statement's: an error caught, or None
        return [_diff(Say.NOT_AN_ERROR if we is not None else Say.NONE_NOR_ERROR, label=label,
                      type=ge.removeprefix("not an exception: "))]
    if type(ge) is str and ge.startswith("an exception class: "):
        return [_diff(Say.ERROR_CLASS, label=label, type=ge.removeprefix("an exception class: "))]
    if we is not None and ge is None:  # none caught: a change in place made before the graph saved it, or after backward?
        why = next((say for key, say in _NOTHING_TO_REFUSE if got.get(CONTEXT + key) is True), Say.NO_ERROR)
        dropped = got.get(CONTEXT + "caught")
        if why is Say.NO_ERROR and type(dropped) is str:
            return [_diff(Say.CAUGHT_NOT_RETURNED, label=label, function=dropped)]
        return [_diff(why, label=label)]
    if we is None and ge is not None:  # one this call's passes raised, or one kept from an earlier call
        if got.get("raised_by") == "earlier":
            return [_diff(SayState.KEPT_ERROR, label=label)]
        return [_diff(Say.AN_ERROR, label=label, error=ge)]
    if we != ge:
        place = parted_after(we, ge)
        if place is not None:
            return [_diff(Say.OTHER_ERROR_AFTER, label=label, error=from_difference(we, ge), text=place)]
        return [_diff(Say.OTHER_ERROR, label=label, error=from_difference(we, ge))]
    if want.get("raised_by") == "engine" and got.get("raised_by") == "earlier":
        return [_diff(Say.RAISED_EARLIER, label=label)]
    if want.get("raised_by") == "engine" and got.get("raised_by") != "engine":
        return [_diff(Say.NOT_RAISED, label=label)]
    return []


_NOTHING_TO_REFUSE = (("changed_first", SayInPlace.CHANGED_BEFORE_SAVED),
                      ("backward_first", SayInPlace.BACKWARD_FIRST), ("leaf_unchanged", SayInPlace.NEVER_CHANGED),
                      ("leaf_under_no_grad", SayInPlace.LEAF_UNDER_NO_GRAD))
"""Why no error was raised where the statement's call has one refused: the change came before the
node saved it, or after the pass had run, or the leaf the statement changes in place was never
changed in place, or was changed with grad mode off (context of the ERROR fact)."""


_BY_KIND: dict[str, Callable[[dict[str, Any], dict[str, Any], str], list[Difference]]] = {
    Kind.GRAD.value: _grad, Kind.VALUE.value: _value, Kind.GRAPH.value: graph_differences,
    Kind.CALL.value: _call, Kind.IDENTITY.value: _identity, Kind.ERROR.value: _error,
    Kind.RESULT.value: result_differences, Kind.CHECK.value: check_differences,
}


def find(want: Any, got: Any) -> list[Difference]:
    """Every explained difference, causes first, each sentence once; a context sentence only
    where it explains another difference."""
    found: list[tuple[int, Difference]] = []
    _walk(want, got, found)
    unique: list[Difference] = []
    for _order, d in sorted(found, key=lambda pair: bare_last(pair[0], pair[1].say)):
        if d not in unique:
            unique.append(d)
    said, labelled = {d.say for d in unique}, {(d.say, _label(d)) for d in unique}
    kept = [d for d in unique if (not d.context or explains(d.say, said)) and not implied(d, unique)
            and not follows_from_exchange(d, unique)
            and not follows(d.say, _label(d), labelled)]
    judged_labels = {_label(d) for d in kept if d.say in JUDGED}
    return cases_merged([d for d in kept if not judged(d.say, _label(d), judged_labels)], want, got)


def _label(d: Difference) -> str:
    return dict(d.fields).get("label", "")


def _walk(want: Any, got: Any, found: list[tuple[int, Difference]]) -> None:
    if want == got or type(got) is dict and type(got.get(ALIASED)) is str:  # not ``same``: context keys (``~``)
        return  # are not compared, but they explain; a name holding another's Value: VALUE_PER_NAME tells it
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
        pairs = exchanges(want.get("nodes") or [], got.get("nodes") or [])  # a built() dict's Values
        by_place, told_names = placed(want, got, {label.partition(" (")[0] for label in pairs})
        # what a name holds explains its Value's facts, as a CHECK the probe judged does
        found.extend((order({FACT: Kind.CHECK.value}), d) for d in told_names)
        for key, item in want.items():
            if key in got and not (pairs and graph_explained(item, got[key], pairs)) and not (
                    key == "graph" and by_place):
                _walk(item, got[key], found)
    elif type(want) is list and type(got) is list and len(want) == len(got):
        moved = exchanges(want, got)
        found.extend((order(want[0]), d) for d in told(moved))
        for a, b in zip(want, got):
            if type(b) is not dict or b.get(LABEL) not in moved:
                _walk(a, b, found)


# Sentences that tell all there is to their difference: PyTorch's error at other versions or
# with a constant's text where the engine's has its own, a warning's own text or category where
# PyTorch warns NON_LEAF_GRAD.  The rule of their key would only stand beside them, restating
# what the engine must do (or more than the difference implies: which nodes backward frees).
_TOLD_WHOLE = {SayTorch.TORCH_OTHER_VERSIONS, SayTorch.TORCH_OTHER_VERSIONS_IN, SayTorch.TORCH_OWN_TEXT,
               SayTorch.TORCH_OWN_TEXT_IN, SayTorch.TORCH_WARNS_OTHER_TEXT, SayTorch.TORCH_WARNS_OTHER, SayTorch.TORCH_WARNS_PRINTED, SayTorch.PRINTED_NOT_WARNED,
               SayWalk.RAN_TWICE_IN_A_ROW, SayWalk.TWO_EDGES_WAITING, SayTorch.WRITTEN_BESIDE, SayTorch.LEAF_WITH_NODE, SayTorch.ONE_BUFFER}


def _rules_left(test: Test, want: dict[str, Any], got: dict[str, Any], keys: list[str]) -> list[str]:
    """The rules a build-track test's differing ``keys`` bring (``Test.advice_for``), but those
    of keys whose every difference a ``_TOLD_WHOLE`` sentence tells, unless another key brings
    the same rule."""
    whole = {key for key in keys if key in got and (told := find(want[key], got[key]))
             and all(d.say in _TOLD_WHOLE for d in told)}
    kept = {test.key_feedback.get(key) for key in keys if key not in whole}
    dropped = {test.key_feedback.get(key) for key in whole} - kept
    return [text for text in test.advice_for(keys) if text not in dropped]


MAX_SENTENCES = 4


def chosen(found: Sequence[Difference | build_feedback.Told], most: int = MAX_SENTENCES
           ) -> list[Difference | build_feedback.Told]:
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
    for an explanation it does not follow from.  The build track's rules follow its sentences,
    but for a difference its sentence tells whole (``_rules_left``).  Keys observed on the
    strength of another that differs (``Test.presumes``) are left out, sentences and rules."""
    keys = mismatched_keys(want, got)
    unsaid = test.unsaid(keys)
    if unsaid:  # keys is [] unless both are dicts
        want, got = ({k: v for k, v in side.items() if k not in unsaid} for side in (want, got))
        keys = [key for key in keys if key not in unsaid]
    found = find(want, got)
    if test.rules:  # the build track: its rules follow, as a sentence of their own, unless said already
        said = [d.sentence() for d in chosen(build_feedback.grouped(found))]
        rules = [_(text) for text in _rules_left(test, want, got, keys)]  # spec texts are msgids
        return sentences([*said, build_feedback.advice_sentence(rules)])
    advice = [_(text) for text in test.advice_for(keys)]
    said = [d.sentence() for d in chosen(per_graph(found))]
    return sentences(said) if said else build_feedback.advice_sentence(advice)  # one sentence, its full stop
