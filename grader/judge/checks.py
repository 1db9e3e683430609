"""The sentence for a failed CHECK fact: a property the probe judged on what the student's
code did (``grader.spec.facts.Check``), told when the statement's run has it and the student's
has not; context recorded beside it picks a sentence that says why, where it can.
"""

from __future__ import annotations

from typing import Any

from grader.judge.check_sentences import SayCheck
from grader.judge.check_table import CHECKS, WHY
from grader.judge.explained import Difference
from grader.judge.inplace_sentences import SayInPlace
from grader.judge.leaf_sentences import SayLeaf
from grader.judge.read_sentences import SayRead
from grader.judge.sentences import Say
from grader.judge.loop_sentences import SayLoop
from grader.judge.walk_sentences import SayWalk
from grader.judge.state_sentences import SayState
from grader.judge.clear_sentences import SayClear
from grader.judge.entry_sentences import SayEntries
from grader.judge.given_sentences import SayGiven
from grader.judge.shape_sentences import SayShape
from grader.judge.step_sentences import SayStep
from grader.judge.explained import difference as _diff
from grader.spec.facts import CONTEXT, KEPT_BY


JUDGED = frozenset({*CHECKS.values(), *(closer for closers in WHY.values() for _, closer in closers),
                    SayWalk.CHILD_FIRST, SayWalk.COUNTED_ONCE, SayCheck.GIVEN_KEPT_LEAF, SayCheck.GIVEN_NAMES,
                    SayCheck.FLAGS_AGAINST, SayCheck.FLAGS_OTHER_LEAF,
                    Say.NAME_ALIAS, Say.NAME_PLACED, SayState.NOTES_ON_CLASS}) - {SayCheck.NOT_READ_FROM_GRAD}
"""The sentences of a failed CHECK that say how a result came about, so that a result's own
bare sentence (a different number) adds nothing; not that a number was computed or kept rather
than read, which says where it came from, not how it differs."""

PRODUCT = "MulBackward0"  # the engine's node of a product, named in the sentences of a sum over paths
SUM = "AddBackward0"  # and of an addition
_AT_A_PRODUCT = {SayCheck.PRODUCT_OWN_FACTOR, SayCheck.PRODUCT_FACTOR_ONE, SayCheck.DATA_BY_NAME, SayCheck.DATA_BY_LAST_NAME,
SayWalk.FIRST_INPUT_OWN, SayWalk.LAST_INPUT_OWN, SayCheck.PRODUCT_RESULT_FACTOR, SayCheck.LEAF_EDGE_ONE}
_LEAVES = ("w", "x")  # the leaves a FLAGS_KEPT fact may name
_NAMED = {  # a sentence that names one thing the probe recorded as context: (its key, the field it fills)
    SayCheck.NOT_APPLIED: ("node", "name"),  # the first node whose apply backward never called
    SayCheck.RECORDED_ON_THE_WAY: ("op", "op"),  # the node of the nearest recorded Value the result was made from
    SayCheck.ARGS_SWAPPED: ("helper", "function"),  # the helper the function tested called
    SayCheck.LIST_CHANGED: ("name", "name"), SayClear.RESET_AS_FLAG: ("passed", "name"),  # the argument's name; the text passed as a flag
    SayCheck.FLAGS_CHANGED_AFTER: ("leaf", "leaf"),  # the leaf whose flag was turned off after the graph recorded it
    SayCheck.DETACH_DROPPED: ("leaf", "leaf"), SayCheck.INPUT_HOOKED: ("leaf", "leaf"),  # the leaf whose detach() the call left unused
    SayCheck.READ_AFTER_CHANGE: ("leaf", "leaf"),  # the leaf whose .grad was read once the code had changed it
    SayCheck.LIST_REORDERED: ("name", "name"), SayCheck.DETACHED_OTHER: ("other", "name"), SayCheck.CHANGED_ITSELF_TOO_BY: ("op", "op"), SayCheck.CHANGED_DATA_TOO_BY: ("op", "op"), SayCheck.PARTS_OTHER_ORDER: ("order", "name"),  # the Value detach() was taken of; the method called on w; the parts' order
    SayWalk.BY_NAME: ("op", "op"),  # a name two nodes the walk met share
    SayWalk.LEAF_TAKEN_EARLY: ("leaf", "leaf"),  # the leaf whose answer was read where the order reached its node
    SayCheck.HOOKS_APPEND: ("leaf", "leaf"), SayState.HOOKS_REWRITE: ("leaf", "leaf"),  # the leaves the probe's later backward ran through
    SayState.LEFT_ON_GRAPH: ("after", "function"),  # the earlier call on the same graph
    SayLoop.COUNT_BELOW_ZERO: ("case", "where"),  # the case of the loop's start against its limit
    SayWalk.LATER_ENTRY: ("op", "op"), SayWalk.STOPPED_AT_NONE: ("op", "op"), SayWalk.NAME_ONCE: ("op", "op"),  # the node a walk left by another entry; a name met twice
    SayWalk.SKIPPED_ZERO: ("node", "name"),  # the node backward left out, every gradient sent to it 0
    SayWalk.RAN_TWICE_IN_A_ROW: ("node", "name"),  # the node whose apply backward called twice in a row
    SayInPlace.CHANGE_DROPPED: ("function", "function"),  # the engine function that raised into the student's code
    SayState.ANSWER_KEPT_ON_VALUE: ("function", "function"),  # the change made to the Value between the calls
    SayLeaf.DETACHED_LEAVES_RETURNED: ("of", "name"),  # the result whose graph holds the leaves detached
    SayLeaf.BUILD_GIVEN_MADE: ("op", "op"),  # the operation that made what build was handed
    SayLeaf.BUILT_UNUSED: ("op", "op"), SayLeaf.BUILD_UNCALLED: ("op", "op"),  # the node the second pass failed at
    SayStep.IMPORT_LEFT_OFF_AT: ("line", "where"),  # the line of the file's own code after which the mode stayed off
    SayRead.IMPORT_SILENCED_AT: ("line", "where"), SayRead.IMPORT_RAISES_AT: ("line", "where"),  # ... the filters last changed
    SayRead.FILTERS_LEFT_AT: ("line", "where"),  # the line of the function's code after which the filters stayed changed
    SayRead.HELPER_CAUGHT: ("helper", "function"),  # the student's function that caught a pass's error
    SayStep.LOSSES_ALIKE_CAUGHT: ("engine_function", "name"),  # the engine function whose error the loop caught
    SayState.SAME_ON_OBJECT: ("object", "name"), SayState.LR_OF_EARLIER_CALL: ("object", "name"),  # what both calls were given: the net, the model
    SayStep.PARAMETER_LEFT: ("left", "name"), SayStep.LAYER_LEFT: ("layer", "name"), SayStep.LEFT_AT_ZERO: ("left", "name"),  # the first parameter a training loop never changed, by its place
}


_RECORDED_AS = {  # a sentence that names what the probe recorded as context: (key, field) for each
    SayCheck.START_ELSEWHERE: (("name", "name"), ("of", "of")),  # the name the start Value was returned as, and its own
    SayCheck.BY_IDENTITY: (("option", "name"),), SayCheck.ONE_FOR_BOTH: (("helper", "function"), ("repeated", "leaf")),  # the parameter whose str was told apart by identity; the helper and the number it got twice
    SayWalk.COUNTED_ONCE: (("op", "op"), ("feeder", "feeder")), SayWalk.COUNTED_ONCE_NAMESAKE: (("op", "op"),),
    SayState.VALUE_CHANGED: (("attribute", "name"), ("value", "leaf")),  # the first call that changed its Value, and what
    **dict.fromkeys((SayState.GIVEN_GRAD_CLEARED, SayState.GIVEN_GRAD_ZEROED, SayState.GIVEN_GRAD_WRITTEN,
                     SayState.GIVEN_FLAG_CHANGED, SayState.GIVEN_DETACHED, SayState.GIVEN_NUMBER_CHANGED, SayState.GIVEN_HOOKED,
                     SayState.GIVEN_RETAINED),
                    (("value", "leaf"),)),  # the Value handed to the call it changed
    SayCheck.FLAGS_SET_LATE: (("name", "name"), ("leaf", "leaf")),  # the Value computed, the leaf whose flag came after
    SayWalk.NAME_ONCE_AT_NONE: (("op", "op"), ("name", "name")),  # the name met twice, the node the chain ends at
    SayWalk.TWO_EDGES_WAITING: (("node", "name"), ("feeder", "feeder")),  # the node left waiting, its feeder of two edges
    SayWalk.FEWER_SENT: (("node", "name"), ("feeder", "feeder")),  # the node never run, the feeder whose apply was short
    SayWalk.NOT_A_TUPLE: (("node", "name"), ("feeder", "feeder"), ("type", "type")),  # ... and the type it returned
    SayWalk.SWALLOWED: (("node", "name"), ("feeder", "feeder"), ("error", "error")),  # ... and the error it raised
    SayWalk.RECURSIVE: (("function", "function"),),  # the function of the student's that called itself  # the node placed early, and its double feeder
    SayShape.KEYS: (("keys", "text"), ("asked", "name")),  # the dict's own keys, and the statement's
    SayShape.EMPTY: (("asked", "name"),),
    SayState.DEFAULT_AFTER_CALL: (("after", "function"), ("param", "name")),  # the earlier call, the parameter it passed
    **dict.fromkeys(SayEntries, (("of", "of"), ("missing", "name"))),  # the matrix, the row or entry left out
}


def _text(recorded: object) -> str:
    return recorded if type(recorded) is str else "?"


def _left_out(got: dict[str, Any], label: str) -> list[Difference]:
    """Why an order left out a node, where its placed nodes show it: a node fed twice by one node
    and taken once per node, or a feeder reached twice (``grader.spec.topological``)."""
    if type(got.get(CONTEXT + "feeder")) is str:
        return [_diff(SayWalk.TAKEN_PER_NODE, label=label, op=got[CONTEXT + "op"], feeder=got[CONTEXT + "feeder"])]
    if type(got.get(CONTEXT + "fed_by")) is str:
        return [_diff(SayWalk.INCOMPLETE_FED, label=label, op=got[CONTEXT + "fed_by"])]
    return []


def _given_retained(got: dict[str, Any], label: str) -> list[Difference]:
    """A given function the student edited that still builds the given graph (its GIVEN_KEPT
    holds): the node it called retain_grad() on (``~retained``), as context."""
    retained = got.get(CONTEXT + "retained")
    return [_diff(SayGiven.RETAINED, label=label, where=retained, context=True)] if type(retained) is str else []


def _given_edited(got: dict[str, Any], label: str) -> list[Difference]:
    """The sentence of a given function the student edited: the result it returned differs
    (``~returned``), or the first named Value where its graph differs."""
    if got.get(CONTEXT + "returned") is True:  # numbers, no graph: other ones, or floats the copy made
        return [_diff(SayGiven.REMADE if got.get(CONTEXT + "remade") is True else SayCheck.GIVEN_RETURNED, label=label)]
    where = got.get(CONTEXT + "where")
    say = (SayCheck.GIVEN_KEPT_LEAF if got.get(CONTEXT + "held_grad") is True
           else SayCheck.GIVEN_NAMES if got.get(CONTEXT + "only_names") is True else SayCheck.GIVEN_EDITED)
    return [_diff(say, label=label, where=where if type(where) is str else "y")]


_EQUAL_KEPT = {"first": SayClear.ONE_LEAF_EQUAL_BY_ZERO_GRAD, "last": SayClear.ONE_LEAF_EQUAL_LAST_BY_ZERO_GRAD}
"""A loop's zero_grad that skipped a leaf as equal (==) to the other: by which of equal leaves it keeps."""


def _after_later(got: dict[str, Any], label: str) -> list[Difference]:
    """The sentence of a Function node whose backward, run once a later call ran, passed on another gradient: with
    the later call, and what made it differ (a hook of the student's on a, or the class attribute its forward set)."""
    later, on_class = got.get(CONTEXT + "later"), got.get(CONTEXT + "on_class")
    later = later if type(later) is str else "?"
    if got.get(CONTEXT + "hooked") is True:
        return [_diff(SayState.HOOKED_AFTER_LATER, label=label, function=later)]
    if type(on_class) is str:
        return [_diff(SayState.NOTES_ON_CLASS, label=label, function=later, name=on_class)]
    return [_diff(SayState.OTHER_AFTER_LATER, label=label, function=later)]


def check_differences(want: dict[str, Any], got: dict[str, Any], label: str) -> list[Difference]:
    """The sentence of a CHECK fact the statement's run holds and the student's does not."""
    say = CHECKS.get(str(want.get("check")))
    if say is SayCheck.GIVEN_EDITED and want.get("holds") is True and got.get("holds") is True:
        return _given_retained(got, label)
    if say is None or want.get("holds") is not True or got.get("holds") is not False:
        return []
    if got.get(CONTEXT + "earlier_call") is True:
        say = SayState.FROM_EARLIER_CALL
    say = next((closer for key, closer in WHY.get(say, ()) if got.get(CONTEXT + key) is True), say)
    if type(got.get(KEPT_BY)) is str:  # the state is a helper's: with it fresh, the calls agree
        return [_diff(say, label=label), _diff(SayState.STATE_IN_HELPER, label=label, function=got[KEPT_BY])]
    if say is SayWalk.INCOMPLETE and (left_out := _left_out(got, label)):
        return left_out
    if say is SayCheck.RAN_BEFORE_FEEDER:  # the student's first node that ran too early, and its feeder
        ran, feeder = got.get(CONTEXT + "ran"), got.get(CONTEXT + "feeder")
        if type(ran) is str and type(feeder) is str:
            return [_diff(say, label=label, ran=ran, feeder=feeder)]
        say = SayWalk.CHILD_FIRST
    if say in (SayWalk.LEAVES_MERGED, SayWalk.LEAVES_SHARED, SayCheck.ENTRIES_ONE_LEAF, SayLeaf.ONE_FOR_TWO, SayCheck.ROWS_OTHER_ORDER, Say.NAME_ALIAS,
               # what has no entry (or leaf) of its own, and what got it
               SayCheck.ROWS_NOT_AS_NET, SayCheck.ROWS_REPEATED, SayCheck.ROWS_ONE_LIST, SayEntries.ROWS_FEWER):
        missing, kept = got.get(CONTEXT + "missing"), got.get(CONTEXT + "kept")
        if type(missing) is str and say is SayCheck.ROWS_ONE_LIST:  # the rows that are one list, by their places
            return [_diff(say, label=label, name=missing)]
        if type(missing) is str and type(kept) is str and say is Say.NAME_ALIAS:
            return [_diff(say, label=missing, name=kept)]
        if type(missing) is str and type(kept) is str:
            return [_diff(say, label=label, name=missing, leaf=kept)]
        return []
    if say is SayCheck.GIVEN_EDITED:
        return _given_edited(got, label)
    if say is SayState.OTHER_AFTER_LATER:
        return _after_later(got, label)
    if say is SayCheck.FLAGS_IGNORED:  # the leaf whose .grad went against its flag, where it is told
        if got.get(CONTEXT + "apart") in _LEAVES:  # written in another leaf: the one returned is not the graph's
            return [_diff(SayCheck.FLAGS_OTHER_LEAF, label=label, leaf=got[CONTEXT + "apart"])]
        for key, recorded in (("wrote", True), ("missed", False)):
            if got.get(CONTEXT + key) in _LEAVES:
                return [_diff(SayCheck.FLAGS_AGAINST, label=label, leaf=got[CONTEXT + key], flag=recorded)]
    if say is SayClear.ONE_LEAF_CLEARED:  # the leaf the loop cleared, and the one it never cleared
        cleared, never = got.get(CONTEXT + "cleared"), got.get(CONTEXT + "never")
        if got.get(CONTEXT + "by_zero_grad") is True:  # given both; one skipped as equal (==) to the other
            say = _EQUAL_KEPT.get(str(got.get(CONTEXT + "equal")), SayClear.ONE_LEAF_BY_ZERO_GRAD)
        return [_diff(say, label=label, name=cleared, leaf=never)] if cleared in _LEAVES and never in _LEAVES else []
    if say in (SayCheck.OTHER_LEAF_GRAD, SayRead.EQUAL_LEAF_GRAD, SayRead.ROWS_BY_LEAF):  # the first entry read from another leaf's .grad
        entry, other, leaf = (got.get(CONTEXT + key) for key in ("entry", "other", "leaf"))  # (or its place in a
        at = f"[{entry}]" if type(entry) is int else got.get(CONTEXT + "at")  # list of rows), and the two leaves
        return [_diff(say, label=f"{label}{at}", name=other, leaf=leaf)] if all(type(t) is str for t in (at, other, leaf)) else []
    if say in _RECORDED_AS:  # names recorded beside the failure
        return [_diff(say, label=label, **{f: _text(got.get(CONTEXT + k)) for k, f in _RECORDED_AS[say]})]
    if say in _NAMED:  # one name recorded beside the failure
        key, field = _NAMED[say]
        named = got.get(CONTEXT + key)
        return [_diff(say, label=label, **{field: named if type(named) is str else "?"})]
    if say in _AT_A_PRODUCT or say is SayCheck.SUM_AS_PRODUCT:  # the engine's name of the node the paths go through
        return [_diff(say, label=label, op=SUM if say is SayCheck.SUM_AS_PRODUCT else PRODUCT)]
    return [_diff(say, label=label)]
