"""The difference each kind of fact can hold (``grader.spec.facts.Kind``), for
``grader.judge.differences.find``: given the reference's fact and the submission's of the same
kind, the first differences that matter, each a ``Difference`` (a sentence kind and the fields
that fill it).  Fields come from the submission's side or from the probe's labels, never from
the reference's numbers or ops, so a sentence never gives an answer away.
"""

from __future__ import annotations

from typing import Any, Callable

from grader.judge.check_sentences import SayCheck
from grader.judge.caught_sentences import caught_differences
from grader.judge.checks import check_differences
from grader.judge.clear_sentences import SKIPPED_AS, SayClear
from grader.judge.compare import same
from grader.judge.error_differences import error_differences
from grader.judge.explained import Difference
from grader.judge.explained import difference as _diff
from grader.judge.function_sentences import SayFunction
from grader.judge.inplace_sentences import SayInPlace
from grader.judge.leaf_sentences import SayLeaf
from grader.judge.read_sentences import SayRead
from grader.judge.results import result_differences
from grader.judge.sentences import Say
from grader.judge.shapes import graph_differences
from grader.judge.state_sentences import SayState
from grader.judge.step_sentences import SayStep
from grader.spec.facts import CONTEXT, Kind


_NUMBERS = ("float", "int")


def _grad(want: dict[str, Any], got: dict[str, Any], label: str) -> list[Difference]:
    if got.get("type") in _NUMBERS:  # the .grad of a number the code returned for a Value: a number has
        return []  # none, and "w.grad is of type float" would be untrue; the number's VALUE fact tells
    if got.get("type") != "Value":
        return [_diff(Say.NOT_A_VALUE, label=label, type=got.get("type"))]
    wby, gby = want.get("by"), got.get("by")
    if got.get(CONTEXT + "new_leaf") is True and any(
            got.get(k) != v for k, v in want.items() if not k.startswith(CONTEXT)):
        earlier = got.get(CONTEXT + "earlier_leaf") is True  # that leaf is no new one: an earlier call's, kept
        return [_diff(SayState.EARLIER_LEAF_WRITTEN if earlier else Say.NEW_LEAF_WRITTEN, label=label)]
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
    some_only = got.get(CONTEXT + "cleared_some") is True
    before_only = SayClear.CLEARED_SOME_ONLY if some_only else SayClear.CLEARED_BEFORE_ONLY
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
        skipped_as = got.get(CONTEXT + "skipped_as")  # as an equal leaf, earlier or later
        if say is Say.GRAD_NOT_CHANGED and type(skipped_as) is str:
            return [_diff(SKIPPED_AS[got.get(CONTEXT + "skipped_later") is True], label=label, name=skipped_as)]
        if say is Say.GRAD_CHANGED and type(helper) is str:
            return [_diff(SayCheck.GRAD_CHANGED_BY_GIVEN, label=label, function=helper)]
        return [_diff(before_only if say is Say.GRAD_NOT_CHANGED and cleared_before else say, label=label)]
    if not same(want.get("grad"), got.get("grad")):
        factor = gby == "backward" and got.get(CONTEXT + "in_proportion") is True  # grad times another local derivative
        if factor and got.get(CONTEXT + "near_zero") is True:  # sigmoid(x)'s digits near 0, not far from it
            return [_diff(SayFunction.DIGITS_LOST_FAR, label=label)]
        return [_diff(Say.GRAD_FACTOR if factor else Say.GRAD_NUMBER if gby == "backward" else Say.GRAD_HAND_NUMBER,
                      label=label)]
    return []


def _changed_more(want: dict[str, Any], got: dict[str, Any]) -> bool:
    """Whether the student's Value was changed in place more times than the statement's (its version
    counter further on): its grad_fn is then the op of that change (``y.add_(1)`` on a product)."""
    wv, gv = want.get("version"), got.get("version")
    return type(wv) is int and type(gv) is int and gv > wv


def _version(want: dict[str, Any], got: dict[str, Any], label: str) -> list[Difference]:
    wv, gv = want.get("version"), got.get("version")
    if type(wv) is not int or type(gv) is not int or wv == gv:
        return []
    if gv == 0:  # .data named only where the student's code reached this Value's .data
        return [_diff(SayInPlace.NEVER_IN_PLACE_DATA if got.get(CONTEXT + "through_data") is True
                      else SayInPlace.NEVER_IN_PLACE, label=label)]
    if wv == 0:  # a write through a detach() moves the counter it shares, where .data's would not
        return [_diff(SayInPlace.IN_PLACE_DETACHED if got.get(CONTEXT + "through_detach") is True else SayInPlace.IN_PLACE,
                      label=label)]
    return [_diff(SayInPlace.IN_PLACE_MORE if gv > wv else SayInPlace.IN_PLACE_FEWER, label=label)]


# What a probe saw of a number changed otherwise than the statement changes it: new written cut to a whole
# number (fill_(int(new))), or the statement's shift through .data made twice
_DATA_WHY = (("truncated", SayInPlace.DATA_TRUNCATED), ("shifted_more", SayInPlace.DATA_SHIFTED_MORE))


def _not_a_float(got: dict[str, Any], label: str) -> Difference:
    """A number that is no float, with what made it a Value where the probe saw it
    (``grader.spec.shadowed.value_why``): a built-in of the module's that is micrograph's, bound at
    its line by a star import (``~how`` ``*``) or by name, or a walk seeded with an int.  ``~line`` is
    already named as feedback names a line (``lines_named``: "line 4", or a notebook's cell)."""
    name, line, how, op = (got.get(CONTEXT + key) for key in ("shadowed", "line", "how", "op"))
    kind = got.get("type")
    if type(name) is str and type(line) is str:
        say = Say.NOT_A_FLOAT_STAR if how == "*" else Say.NOT_A_FLOAT_IMPORTED
        return _diff(say, label=label, type=kind, name=name, where=line)
    if got.get(CONTEXT + "int_seed") is True and type(op) is str:
        return _diff(Say.NOT_A_FLOAT_INT_SEED, label=label, type=kind, op=op)
    return _diff(Say.NOT_A_FLOAT, label=label, type=kind)


def _value(want: dict[str, Any], got: dict[str, Any], label: str) -> list[Difference]:
    if want.get("type") == "float":  # a number asked for, not a Value
        if got.get("type") != "float":
            return [_not_a_float(got, label)]
        return [] if same(want.get("data"), got.get("data")) else [_diff(Say.DATA, label=label)]
    if got.get("type") != "Value" and got.get(CONTEXT + "given") is True:  # the argument itself, handed back
        return [_diff(SayLeaf.GIVEN_NUMBER, label=label, type=got.get("type"))]
    if got.get("type") != "Value":
        return [_diff(Say.NOT_A_VALUE, label=label, type=got.get("type"))]
    if got.get(CONTEXT + "inference") is True and want.get(CONTEXT + "inference") is not True:
        recorded = want.get("grad_fn") is not None  # the statement's made with grad mode on, not under no_grad
        return [_diff(SayInPlace.INFERENCE_VALUE_RECORDED if recorded else SayInPlace.INFERENCE_VALUE, label=label)]
    if want.get("grad_fn") is not None and got.get("grad_fn") is None:
        for key, say in (("detach_of", Say.DETACHED_COPY), ("data_of", Say.DATA_COPY)):
            of = got.get(CONTEXT + key)  # the function that returned the Value it is a detach() or the .data of
            if type(of) is str:
                return [_diff(say, label=label, name=of)]
        return [_diff(Say.IS_LEAF if got.get("requires_grad") else Say.UNTRACKED, label=label)]
    if want.get("grad_fn") is None and got.get("grad_fn") is not None:
        return [_diff(Say.NOT_LEAF, label=label, op=got.get("grad_fn"))]
    if want.get("grad_fn") != got.get("grad_fn"):  # an in-place change put its op on top: told as that change
        return _version(want, got, label) if _changed_more(want, got) else [_diff(Say.OTHER_OP, label=label, op=got.get("grad_fn"))]
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
        why = next((say for key, say in _DATA_WHY if got.get(CONTEXT + key) is True), None)  # how its number came
        found = [_diff(why, label=label) if why is not None
                 else _diff(SayInPlace.DATA_ADDED, label=label, name=added) if type(added) is str
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
        say = (SayStep.GENERATOR_UNRUN if gp == 0 and got.get(CONTEXT + "unrun_generator") is True
               else Say.NO_BACKWARD if gp == 0 else Say.BACKWARD if wp == 0
               else Say.MORE_BACKWARD if gp > wp
               else Say.FEWER_AFTER_DETACH if got.get(CONTEXT + "detached_after") is True else Say.FEWER_BACKWARD)
        found.append(_diff(say, label=label))
    if got.get(CONTEXT + "inputs_given") is True and want.get(CONTEXT + "inputs_given") is not True:
        found.append(_diff(Say.INPUTS_GIVEN, label=label, context=True))  # told beside a .grad it left unwritten
    wk, gk = _either(want, got, "kept_graph")
    freed = got.get(CONTEXT + "freed_at")  # a pass that freed the graph the next one, which raised, needed
    if type(wk) is list and type(gk) is list and wp == gp:
        kept = next(((i, g) for i, (w, g) in enumerate(zip(wk, gk)) if w is not g), None)
        if kept is not None:
            given = got.get(CONTEXT + "retain_graph_given")  # the call's own argument retain_graph, where it has one
            say = (Say.FREED_AGAINST_GIVEN if kept[1] is not True and given is True
                   else Say.KEPT_FEWER if kept[1] is not True
                   else Say.KEPT_BY_CREATE if _pass_was(got, "created_graph", kept[0])
                   else Say.KEPT_AGAINST_GIVEN if given is False
                   else Say.KEPT_ON_LAST if got.get(CONTEXT + "last_pass") is True else Say.KEPT_MORE)
            found.append(_diff(say, label=label, context=CONTEXT + "kept_graph" in want))
    elif type(wk) is list and type(freed) is int and freed < len(wk) and wk[freed] is True:
        found.append(_diff(Say.KEPT_FEWER, label=label, context=CONTEXT + "kept_graph" in want))
    for key, say in _EVERY_PASS:
        if _some_pass_not(want.get(key), got.get(key)):
            none = say is Say.NOT_CLEARED and got.get(CONTEXT + "none_cleared") is True
            spent = got.get(CONTEXT + "spent_in")  # the name of a spent model.parameters() it held
            found.append(_diff(SayStep.NONE_CLEARED_SPENT, label=label, name=spent) if none and type(spent) is str
                         else _diff(Say.NONE_CLEARED if none else say, label=label))
    for key, say in (("grads_cleared", Say.CLEARED), ("cleared_between", Say.CLEARED_BETWEEN)):
        cleared = _either(want, got, key)  # context where the exercise is not about clearing: told where it explains
        if wp == gp and _cleared_where_kept(*cleared, got.get("by_backward")):
            found.append(_diff(say, label=label, context=CONTEXT + key in want))
    if wp == gp and not _found_kept(found) and _kept_where_cleared(_either(want, got, "cleared_between")[0],
                                                                  got.get(CONTEXT + "kept_earlier")):
        found.append(_diff(Say.NOT_CLEARED, label=label, context=CONTEXT + "cleared_between" in want))
    found += _grad_mode(want, got, label)
    never_read = want.get("read_grad") is True and got.get("read_grad") is False
    for key, say in (("read_grad", SayRead.NEVER_READ), ("read_after_last_pass", SayRead.NOT_READ_AFTER),
                     ("from_given", Say.NEW_ROOT), ("one_graph", Say.OTHER_GRAPH)):
        if want.get(key) is True and got.get(key) is False and not (never_read and say is SayRead.NOT_READ_AFTER):
            found.append(_other_root(got, label) if say is Say.OTHER_GRAPH
                         else _diff(say, label=label))  # code that never read .grad read none after a pass either
    found += _edges_unread(want, got, label)
    if want.get("engine_walk") is False and got.get("engine_walk") is True:
        found.append(_diff(Say.ENGINE_WALK, label=label))
    if got.get("detached_given") and not want.get("detached_given"):
        found.append(_diff(Say.DETACHED_GIVEN, label=label))
    # a pass that freed the graph against the call's own argument: the error the next raised, which
    # the statement's code catches where it frees, follows from that flag, not from the catch
    against = any(d.say is Say.FREED_AGAINST_GIVEN for d in found)
    return found + ([] if against else caught_differences(want, got, label))


def _edges_unread(want: dict[str, Any], got: dict[str, Any], label: str) -> list[Difference]:
    """A call that read no node's next_functions where the statement's walk reads them: context, told
    beside a number it explains (a formula of the leaves' numbers walks no graph)."""
    if want.get(CONTEXT + "read_edges") is True and got.get(CONTEXT + "read_edges") is False:
        return [_diff(SayRead.EDGES_UNREAD, label=label, context=True)]
    node, graph = got.get(CONTEXT + "unread_node"), got.get(CONTEXT + "graph")
    if want.get(CONTEXT + "unread_node") is None and type(node) is str and type(graph) is str:
        return [_diff(SayRead.NODE_UNREAD, label=label, op=node, root=graph, context=True)]
    return []


def _grad_mode(want: dict[str, Any], got: dict[str, Any], label: str) -> list[Difference]:
    """How a call's grad mode differs from the statement's: while it ran (off where the statement's is
    on, or never off; ``~flag_toggled``, the leaf it changed in place with its requires_grad switched
    off around the change), and as it left it."""
    found = []
    off, left = (_either(want, got, key) for key in ("grad_mode_off", "grad_mode_left_off"))
    toggled = got.get(CONTEXT + "flag_toggled")  # the name of that leaf
    if off[0] != off[1] and off[1] is not None:  # None: not observed (a call that ran no code of its own)
        context = CONTEXT + "grad_mode_off" in want
        found.append(_mode_off(got, label, context) if off[1]
                     else _diff(Say.GRAD_MODE_FLAG, label=label, name=toggled, context=context) if type(toggled) is str
                     else _diff(Say.GRAD_MODE_ON, label=label, context=context))
    if left[1] and not left[0]:
        found.append(_diff(Say.LEFT_OFF, label=label))
    if left[0] is True and left[1] is False:  # called with grad mode off, as the statement leaves it
        found.append(_diff(Say.LEFT_ON, label=label, context=CONTEXT + "grad_mode_left_off" in want))
    return found


def _mode_off(got: dict[str, Any], label: str, context: bool) -> Difference:
    """Grad mode off while the call ran, told by the spelling its code turned it off with
    (``call_fields.switched_off``): set_grad_enabled(False), inference_mode() (no no_grad block), or a
    function of its decorated so."""
    by, function = got.get(CONTEXT + "mode_off_by"), got.get(CONTEXT + "mode_off_in")
    if by == "decorated" and type(function) is str and function.isidentifier():
        return _diff(Say.GRAD_MODE_OFF_DECORATED, label=label, function=function, context=context)
    spelled = {"set_grad_enabled": Say.GRAD_MODE_OFF_SET, "inference_mode": Say.GRAD_MODE_OFF_INFERENCE}
    said = spelled.get(by, Say.GRAD_MODE_OFF) if type(by) is str else Say.GRAD_MODE_OFF  # a claim: any JSON
    return _diff(said, label=label, context=context)


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


def _kept_where_cleared(want: object, kept: object) -> bool:
    """Whether a pass of the student's added to the gradient an earlier pass wrote, left as it
    wrote it, where the statement's pass of the same number started from a cleared one: a reset
    that did not run between those two steps (run once after the loop, or one that changes nothing)."""
    return (type(want) is list and type(kept) is list
            and any(w is True and k is True for w, k in zip(want, kept)))


def _found_kept(found: list[Difference]) -> bool:
    """Whether a sentence already tells a pass that added to a gradient left uncleared."""
    return any(d.say in (Say.NOT_CLEARED, Say.NONE_CLEARED, SayStep.NONE_CLEARED_SPENT) for d in found)


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
    other = got.get(CONTEXT + "returned_as")  # the other entry returned that this very Value is: no new object
    if not got.get("same") and type(other) is str:
        return [_diff(Say.RETURNED_AS_OTHER, label=label, of=want.get("of"), name=other)]
    say = ((SayState.KEPT_OBJECT if kept else Say.SAME_OBJECT) if got.get("same")
           else SayInPlace.ALIAS_CHANGED if alias else Say.NEW_OBJECT)
    return [_diff(say, label=label, of=want.get("of"))]


# Each kind of fact, and what tells its differences (a GRAPH's, a RESULT's, a CHECK's and an ERROR's in
# modules of their own).
BY_KIND: dict[str, Callable[[dict[str, Any], dict[str, Any], str], list[Difference]]] = {
    Kind.GRAD.value: _grad, Kind.VALUE.value: _value, Kind.GRAPH.value: graph_differences,
    Kind.CALL.value: _call, Kind.IDENTITY.value: _identity, Kind.ERROR.value: error_differences,
    Kind.RESULT.value: result_differences, Kind.CHECK.value: check_differences,
}
