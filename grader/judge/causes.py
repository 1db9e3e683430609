"""Which sentences follow from another one told, and are left out.

One cause is told, not each of its consequences: a sentence follows from another about the same
label (``_FOLLOWS_FROM``), or from one that accounts for every label (``WHOLE_CAUSES``); where
each comes among a test's is ``grader.judge.told_order``'s, what a context sentence explains is
``grader.judge.context_causes``'.
"""

from __future__ import annotations

import re

from grader.judge.cause_groups import OTHER_LEAVES, RESULTS_ALIKE, RESULTS_FEWER, RESULTS_MORE
from grader.judge.check_sentences import SayCheck
from grader.judge.loop_sentences import SayLoop
from grader.judge.read_sentences import SayRead
from grader.judge.sentences import Say, Sentence
from grader.judge.state_sentences import SayState
from grader.judge.step_sentences import SayStep
from grader.judge.told_order import list_of
from grader.judge.walk_sentences import SayWalk
from grader.judge.whole_causes import WHOLE_CAUSES

# State sentences that follow from another of the same call: a first result that a second call
# changed makes the call on the first inputs again differ too, and either makes the call differ
# from a fresh import's; one sentence tells the state kept, not three ways of seeing it.
_FOLLOWS_FROM: dict[Sentence, set[Sentence]] = {
    SayState.NOT_SAME_AGAIN: {SayState.FIRST_CHANGED},
    # a first result's node, backpropagated once a later call ran, reads what that call left: told at length
    SayState.FIRST_CHANGED: {SayState.OTHER_AFTER_LATER, SayState.NOTES_ON_CLASS, SayState.HOOKED_AFTER_LATER},
    SayWalk.NOT_FROM_ROOT: {SayWalk.INCOMPLETE_ROOT},  # an order without root.grad_fn starts elsewhere
    Say.NOT_A_VALUE: {Say.NOT_THAT_VALUE},  # the type told with the Value it is asked to be
    # the same y's chain from before an in-place change of y: it lacks the node the change put on top;
    # a chain a fresh import's first call does not return: an earlier call's, kept between calls
    **dict.fromkeys((Say.RESULT_TEXT, *RESULTS_FEWER, *RESULTS_MORE, Say.RESULT_FIRST_LEFT_OUT),
                    {SayState.KEPT_PAST_CHANGE, SayState.NOT_SAME_FRESH}),
    SayState.NOT_SAME_FRESH: {SayState.FIRST_CHANGED, SayState.NOT_SAME_AGAIN, SayState.RAISED_AGAIN, SayState.EFFECT_AGAIN},
    SayState.NOT_SAME_GROWN: {SayState.FIRST_CHANGED, SayState.NOT_SAME_AGAIN, SayState.RAISED_AGAIN, SayState.NOT_SAME_FRESH,
                              SayState.EFFECT_AGAIN},
    # that sentence says the call read no .grad; an answer kept tied to the Value is returned without a read
    SayRead.NEVER_READ: {SayState.KEPT_WARNING_TEXT, SayState.ANSWER_KEPT_ON_VALUE},
    **dict.fromkeys(RESULTS_ALIKE, {SayCheck.ROWS_READ_LATE, SayCheck.FIRST_READ_LATE, SayCheck.SECOND_READ_EARLY}),  # records all read at the end are all alike
    Say.BACKWARD: {SayCheck.ENGINE_PASS},
    SayCheck.HOOK_RECORDS: {SayState.HOOKS_REWRITE},  # hooks left registered, run again by every later pass: told once
    # a case whose data the probe could not name by its number: the same leaf
    **dict.fromkeys(OTHER_LEAVES, {Say.DATA_LEAF}),
    # the given leaf returned itself: a leaf, its graph its own AccumulateGrad, its number the leaf's; a
    # Value made by an op where a leaf is asked for has that op at its root; a y doubled once more than
    # the limit allows, or left below it, holds another number than the statement's
    Say.IS_LEAF: {Say.SAME_OBJECT}, Say.ROOT_OP: {Say.SAME_OBJECT, Say.NOT_LEAF}, Say.ROOT_RSUB: {Say.SAME_OBJECT, Say.NOT_LEAF},
    Say.DATA: {Say.SAME_OBJECT, SayLoop.DOUBLED_AT_THE_LIMIT, SayLoop.SHORT_OF_THE_LIMIT, SayStep.LOSS_COMPUTED_AGAIN},
    # y computed under the caller's grad mode: recorded, or not, as that mode decided
    **dict.fromkeys((Say.UNTRACKED, Say.NOT_LEAF, Say.EXTRA_LEAF), {SayCheck.CALLER_MODE}),
    # ... or a Value that is still another one the statement's is apart from: its flag is that Value's
    Say.REQUIRES_GRAD: {SayCheck.CALLER_MODE, Say.SAME_OBJECT},
    Say.NO_GRAPH: {Say.UNTRACKED, Say.DETACHED_COPY, Say.DATA_COPY, SayCheck.CALLER_MODE},  # a Value recorded by no graph has none  # the pass started is the engine's own: told once, with what it is
    # two leaves given one entry: the gradient met there is both leaves' (no sum of a node's arrivals)
    **dict.fromkeys((SayWalk.NOT_SUMMED, SayWalk.ONE_KEPT, SayWalk.ARRIVED_LATE, SayWalk.LEAF_TAKEN_EARLY),
                    {SayWalk.LEAVES_MERGED, SayWalk.LEAVES_SHARED}),
}


def follows(say: Sentence, label: str, said: set[tuple[Sentence, str]]) -> bool:
    """Whether the sentence ``say`` about ``label`` follows from another sentence about the same
    label among ``said`` (pairs of sentence and label), or from one that accounts for every
    label (``WHOLE_CAUSES``); the text of a Value's grad_fn, from its graph's root op told; an
    entry's, from state that made the whole result another call's (``_KEPT_RESULT``)."""
    return (any((cause, label) in said or cause in _KEPT_RESULT and (cause, list_of(label)) in said
                for cause in _FOLLOWS_FROM.get(say, ()))
            or say is Say.NOT_A_VALUE and any(s is Say.NOT_THAT_VALUE and _named(told) == _named(label) for s, told in said)
            or any(say in told and cause in {s for s, _ in said} for cause, told in WHOLE_CAUSES.items())
            or say is Say.RESULT_TEXT and label.endswith(_GRAD_FN)
            and any((root, label[:-len(_GRAD_FN)]) in said for root in (Say.ROOT_OP, Say.ROOT_RSUB, Say.NOT_A_VALUE)))


_NAMED = re.compile(r"the (?P<returned>\S+) \w+ returned|(?P<after>\S+) \(after [^()]*\)")


def _named(label: str) -> str:
    """The name of a Value a label tells with the step that made it or the call that returned it:
    ``a2`` of ``a2 (after a += 1)``, ``a0`` of ``the a0 rebind_then_inplace returned`` (its type, told
    once with what the statement's is, is not told again under another of its labels)."""
    found = _NAMED.fullmatch(label)
    return label if found is None else found["returned"] or found["after"]


_KEPT_RESULT = {SayState.KEPT_PAST_CHANGE, SayState.NOT_SAME_FRESH}
"""State that makes a whole result another call's: what differs in each of its entries follows from it."""

_GRAD_FN = ".grad_fn"
"""The op at a graph's root, named by its label: "loss.grad_fn is DivBackward0" says what "loss's graph
differs at its root: your graph has DivBackward0 there" does; and a loss that is no Value has no grad_fn
to tell ("loss is of type float")."""

