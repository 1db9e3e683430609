"""Which differences are causes, told first, and what a context sentence explains.

A test's sentences come causes first (``order``): what the call did explains the numbers it
returned.  A sentence from a context field (``~kept_graph``, ``~grad_mode_off``: a fact the
exercise is not about) is told only beside a difference it accounts for (``explains``).
"""

from __future__ import annotations

import re
from typing import Any

from grader.judge.check_sentences import SayCheck
from grader.judge.sentences import Say, Sentence
from grader.judge.loop_sentences import SayLoop
from grader.judge.walk_sentences import SayWalk
from grader.judge.inplace_sentences import SayInPlace
from grader.judge.read_sentences import SayRead
from grader.judge.leaf_sentences import SayLeaf
from grader.judge.state_sentences import SayState
from grader.judge.clear_sentences import SayClear
from grader.judge.caught_sentences import SayCaught
from grader.judge.entry_sentences import SayEntries
from grader.judge.function_sentences import SayFunction
from grader.judge.given_sentences import SayGiven
from grader.judge.shape_sentences import SayShape
from grader.judge.step_sentences import SayStep
from grader.judge.torch_sentences import SayTorch
from grader.spec.facts import FACT, Check, Kind

# The student's own error first (an exception their code caught and returned), then causes
# before consequences: what the call did (no backward, no_grad) explains a missing gradient,
# which explains a graph that is not the statement's; what the probe judged of how a result came
# about (a CHECK: flags swapped, records read late) explains the Values and numbers it shows.
_ORDER = {Kind.ERROR.value: 0, Kind.CALL.value: 0, Kind.CHECK.value: 1, Kind.VALUE.value: 2,
          Kind.IDENTITY.value: 2, Kind.RESULT.value: 3, Kind.GRAD.value: 3, Kind.GRAPH.value: 4}
# State kept between calls is a cause too: it explains every number of a later call that differs.
_STATE_CHECKS = {Check.SAME_AGAIN.value, Check.FIRST_KEPT.value, Check.SAME_FRESH.value, Check.READ_ANEW.value,
                 Check.EARLIER_KEPT.value, Check.SAME_SECOND_TIME.value,
                 Check.SAME_FRESH_EFFECT.value, Check.OWN_NOTES.value, Check.LEAVES_NEW.value, Check.ANSWER_ANEW.value,
                 Check.HANDED_NEW.value}


def order(want: dict[str, Any]) -> int:
    """Where a fact's sentences come among a test's (``_ORDER``; state kept between calls
    first, and before it a given function the student edited, which the call ran)."""
    if want[FACT] == Kind.CHECK.value and want.get("check") in (Check.GIVEN_KEPT.value, Check.OUTPUT_APART.value, Check.INPUT_KEPT.value,
                                                                         Check.INPUT_NUMBER_KEPT.value, Check.SAVED_READ.value):
        return -1  # a given function edited, a Function's input returned: what explains the rest
    if want[FACT] == Kind.CHECK.value and want.get("check") in _STATE_CHECKS:
        return 0
    return _ORDER.get(want[FACT], 5)


# What a kept or freed graph explains, when retain_graph is context only (the exercise is not
# about it): keeping a graph nobody runs again changes nothing, so the sentence is said only
# next to a difference it accounts for.  Likewise grad mode, where the exercise is not about
# no_grad: it decides what the graph records (and whether an in-place change of a leaf that
# requires grad is refused), not a version counter: ``x.add_(1)`` under no_grad, where the
# statement writes through ``.data``, is told as the in-place change it is, without no_grad.
_RECORDED = {Say.UNTRACKED, Say.IS_LEAF, Say.NOT_LEAF, Say.OTHER_OP, Say.REQUIRES_GRAD,
             Say.NO_GRAPH, Say.NODE_OP, Say.NODE_INPUTS, Say.ROOT_OP, Say.ROOT_INPUTS, Say.NODE_SWAPPED, Say.ROOT_SWAPPED,
             Say.OP_FEWER, Say.OP_MORE, Say.NO_LEAF,
             Say.EXTRA_LEAF, Say.DATA_LEAF, Say.MISSING_LEAF, Say.MISSING_LEAVES, Say.LEAF_ELSEWHERE, Say.GRAD_NEVER_WRITTEN, Say.RETAINED_NEVER_WRITTEN,
             Say.NO_ERROR, Say.AN_ERROR, Say.OTHER_ERROR, Say.OTHER_ERROR_AFTER}
_EXPLAINED_BY: dict[Sentence, set[Sentence]] = {
    Say.KEPT_FEWER: {Say.AN_ERROR, Say.OTHER_ERROR, Say.OTHER_ERROR_AFTER, Say.FREED, Say.GRAD_NUMBER},
    **dict.fromkeys((Say.KEPT_MORE, Say.KEPT_BY_CREATE), {Say.NO_ERROR, Say.KEPT, Say.GRAD_NUMBER}),
    Say.GRAD_MODE_OFF: _RECORDED,
    Say.GRAD_MODE_ON: _RECORDED,
    # a .grad cleared between passes where the statement's accumulate (zero_grad at the top of every step), or kept
    **dict.fromkeys((Say.CLEARED_BETWEEN, Say.NOT_CLEARED), {Say.RESULT_NUMBER, Say.RESULT_ALIKE, Say.GRAD_NUMBER}),
}


# Sentences that say only *that* something differs (its number, its kind, None, a flag, entries all alike,
# a .grad as backward left it): each comes after every sentence that says how (``bare_last``),
# and is left out where a sentence the probe judged on the same result, or on another entry of
# its list, says how that result came about (``judged``).
_BARE = {Say.RESULT_NUMBER, SayShape.NAN, SayTorch.TORCH_NUMBER, Say.DATA, Say.GRAD_NUMBER, Say.GRAD_HAND_NUMBER,
         Say.RESULT_TYPE, Say.RESULT_ALIKE, Say.RESULT_BOTH_ALIKE, SayTorch.TORCH_ALIKE, Say.RESULT_NONE, Say.RESULT_NOT_NONE, Say.NO_ENTRY, Say.EXTRA_ENTRY, Say.RESULT_FLAG,
         Say.REQUIRES_GRAD, Say.GRAD_NOT_CHANGED, Say.GRAD_WRITTEN}


def bare_last(order_of: int, say: Sentence) -> tuple[bool, int]:
    """A sentence's place among a test's: the bare ones after the rest, each by ``order``; a
    leaf's flag (only a leaf's can differ where the ops agree) first, as what decides the graph."""
    return say in _BARE and say is not Say.REQUIRES_GRAD, order_of


def judged(say: Sentence, label: str, judged_labels: set[str]) -> bool:
    """Whether the bare sentence ``say`` about ``label`` is said better by a judged one: about
    the same label, about another entry of the same list (``losses[0]`` for ``losses[1]``), or
    about an entry of it (``f(x)[0]`` read late, for the entries of ``f(x)`` all alike).  One
    about an entry of a judged call (``f(x)[u]`` beside ``f(x)``) still names which entry
    differs, after the judged one."""
    return say in _BARE and any(label == j or _list_of(label) == _list_of(j) != "" or j.startswith(label + "[")
                                for j in judged_labels)


_ENTRY = re.compile(r"(?P<list>.+)\[\d+\]")


def _list_of(label: str) -> str:
    """The list a label is an entry of (``losses`` for ``losses[1]``), or "" for no entry."""
    entry = _ENTRY.fullmatch(label)
    return "" if entry is None else entry.group("list")


# A given function's edit that still builds the given graph (retain_grad() on a node of it) costs
# nothing alone: it is told beside any other difference of the test, which the retained node may cause.
_BESIDE_ANY = {SayGiven.RETAINED}


def explains(context: Sentence, said: set[Sentence]) -> bool:
    """Whether the context sentence ``context`` accounts for one of the differences ``said``."""
    if context in _BESIDE_ANY:
        return bool(said - {context})
    return bool(said & _EXPLAINED_BY.get(context, set()))


# A leaf the statement's graph has not, told as it is found: anywhere, or at the op that takes it
_OTHER_LEAVES = (Say.OTHER_LEAF, SayLeaf.AT, SayLeaf.COPY, SayLeaf.FOR_NUMBER, SayLeaf.UNRECORDED)


# State sentences that follow from another of the same call: a first result that a second call
# changed makes the call on the first inputs again differ too, and either makes the call differ
# from a fresh import's; one sentence tells the state kept, not three ways of seeing it.
_FOLLOWS_FROM: dict[Sentence, set[Sentence]] = {
    SayState.NOT_SAME_AGAIN: {SayState.FIRST_CHANGED},
    # a first result's node, backpropagated once a later call ran, reads what that call left: told at length
    SayState.FIRST_CHANGED: {SayState.OTHER_AFTER_LATER, SayState.NOTES_ON_CLASS, SayState.HOOKED_AFTER_LATER},
    Say.NOT_A_VALUE: {Say.NOT_THAT_VALUE},  # the type told with the Value it is asked to be
    # the same y's chain from before an in-place change of y: it lacks the node the change put on top;
    # a chain a fresh import's first call does not return: an earlier call's, kept between calls
    **dict.fromkeys((Say.RESULT_TEXT, Say.RESULT_FEWER, Say.RESULT_MORE, Say.RESULT_MORE_LAST, Say.RESULT_FIRST_LEFT_OUT),
                    {SayState.KEPT_PAST_CHANGE, SayState.NOT_SAME_FRESH}),
    SayState.NOT_SAME_FRESH: {SayState.FIRST_CHANGED, SayState.NOT_SAME_AGAIN, SayState.RAISED_AGAIN, SayState.EFFECT_AGAIN},
    SayState.NOT_SAME_GROWN: {SayState.FIRST_CHANGED, SayState.NOT_SAME_AGAIN, SayState.RAISED_AGAIN, SayState.NOT_SAME_FRESH,
                              SayState.EFFECT_AGAIN},
    SayRead.NEVER_READ: {SayState.KEPT_WARNING_TEXT},  # that sentence says the call read no .grad
    **dict.fromkeys((Say.RESULT_ALIKE, Say.RESULT_BOTH_ALIKE), {SayCheck.ROWS_READ_LATE, SayCheck.FIRST_READ_LATE}),  # records all read at the end are all alike
    Say.BACKWARD: {SayCheck.ENGINE_PASS},
    SayCheck.HOOK_RECORDS: {SayState.HOOKS_REWRITE},  # hooks left registered, run again by every later pass: told once
    # a case whose data the probe could not name by its number: the same leaf
    **dict.fromkeys(_OTHER_LEAVES, {Say.DATA_LEAF}),
    # the given leaf returned itself: a leaf, its graph its own AccumulateGrad, its number the leaf's; a
    # Value made by an op where a leaf is asked for has that op at its root; a y doubled once more than
    # the limit allows, or left below it, holds another number than the statement's
    Say.IS_LEAF: {Say.SAME_OBJECT}, Say.ROOT_OP: {Say.SAME_OBJECT, Say.NOT_LEAF},
    Say.DATA: {Say.SAME_OBJECT, SayLoop.DOUBLED_AT_THE_LIMIT, SayLoop.SHORT_OF_THE_LIMIT},
    # y computed under the caller's grad mode: recorded, or not, as that mode decided
    **dict.fromkeys((Say.UNTRACKED, Say.NOT_LEAF, Say.EXTRA_LEAF, Say.REQUIRES_GRAD), {SayCheck.CALLER_MODE}),
    Say.NO_GRAPH: {Say.UNTRACKED, SayCheck.CALLER_MODE},  # a Value recorded by no graph has none  # the pass started is the engine's own: told once, with what it is
    # two leaves given one entry: the gradient met there is both leaves' (no sum of a node's arrivals)
    **dict.fromkeys((SayWalk.NOT_SUMMED, SayWalk.ONE_KEPT, SayWalk.ARRIVED_LATE, SayWalk.LEAF_TAKEN_EARLY),
                    {SayWalk.LEAVES_MERGED, SayWalk.LEAVES_SHARED}),
}


# Sentences that account for every .grad a test looked at, whatever its label: a zero_grad that
# reads set_to_none the other way round leaves None where zeros are asked for and the other way
# round, in every call; each .grad told again would only say so once more.  A Value returned where
# a float is asked for is the gradient object itself, which later passes change in place: the
# numbers read from it at the end differ, are all alike, or are all cleared, because of it.  A
# loop that clears before each backward, not after recording, leaves every .grad as the last
# backward wrote it: "still what backward wrote" of each would only say so once more.  An object
# kept from an earlier call and returned again carries what the calls since did to it.
_WHOLE_CAUSES: dict[Sentence, set[Sentence]] = {
    # a call that ran no pass walked no graph, and the .grad a pass before it wrote is not told as this call's
    Say.NO_BACKWARD: {Say.NO_PASS_GRAPH, Say.GRAD_NUMBER, Say.GRAD_FACTOR, Say.GRAD_NOT_CHANGED},
    Say.GRAD_CHOSEN: {SayRead.HOOK_CHOSEN_READ},  # the .grad a hook chose, named: a number read from it says no more
    # a generator returned unrun: no pass, no step, every parameter and the loss after it as the model came
    SayStep.GENERATOR_UNRUN: {Say.NO_PASS_GRAPH, Say.DATA, SayInPlace.NEVER_IN_PLACE, SayInPlace.IN_PLACE_FEWER},
    SayGiven.REMADE: {SayCheck.NOT_READ_FROM_GRAD},  # the given function's copy made the floats: told of it, once
    SayWalk.COUNTED_ONCE_NAMESAKE: {SayWalk.COUNTED_ONCE},  # one count kept per parent: told once, of either kind
    # w moved by another amount: w, the later steps' losses and the gradients backward wrote at them differ
    **dict.fromkeys((SayCheck.STEP_NOT_LR_GRAD, SayCheck.ASCENDS, SayCheck.STEP_OF_NOTHING, SayState.STEP_KEPT_ON_LEAF),
                    {Say.DATA, Say.GRAD_NUMBER}),
    Say.GRAD_CALL: {Say.GRAD_NEVER_WRITTEN},
    SayWalk.EMPTY_ANSWER: {Say.NO_ENTRY},
    # the statement's Values returned in another order: what each name holds follows from it
    SayCheck.START_ELSEWHERE: {SayCheck.NOT_BY_OP, SayCheck.NOT_MADE_FROM, Say.RETURNED_AS_OTHER, Say.SAME_OBJECT,
                               SayInPlace.IN_PLACE, SayInPlace.IN_PLACE_DETACHED, Say.DATA},
    SayCheck.ROWS_NOT_AS_NET: {Say.DATA},  # each row of output holds another row's numbers, told by the row
    # rows of input that are one list, or a row repeated: their entries, the output rows net made of them and the
    # leaves loss reaches
    **dict.fromkeys((SayCheck.ROWS_ONE_LIST, SayCheck.ROWS_REPEATED),
                    {Say.DATA, Say.NO_LEAF, Say.DATA_LEAF, *_OTHER_LEAVES, SayLeaf.OTHER_LEAF_AT, SayLeaf.ROOT_OTHER_LEAF}),
    SayWalk.STOPPED_AT_FIRST_LEAF: {Say.NO_ENTRY, Say.RESULT_NUMBER, SayWalk.RAN_FEWER},  # the leaves after it, and the nodes run
    **dict.fromkeys((SayState.SAME_ON_OBJECT, SayState.LR_OF_EARLIER_CALL),
                    {Say.RESULT_NUMBER, Say.RESULT_FEWER, Say.RESULT_MORE}),  # the earlier call's result  # an empty dict has an entry for no leaf: told once  # grad() writes no .grad: every one left None is of it
    **dict.fromkeys((SayRead.ROUNDED_GRAD, SayRead.HOOK_CHOSEN_READ), {SayCheck.NOT_READ_FROM_GRAD}),  # read and rounded: where rounding changed no number, none is told apart
    **dict.fromkeys((SayRead.PASS_ERROR_CAUGHT, SayRead.CAUGHT_THEN_PASS), {Say.GRAD_NUMBER, *SayCaught}),  # the pass that raised added nothing: every .grad is short of it
    # an engine error caught: its sentence of the function's own, told once; a pass that raised wrote nothing, so
    # records read after it repeat the last pass that did, as records all read at the end would
    **dict.fromkeys((SayRead.HELPER_CAUGHT, SayInPlace.CHANGE_DROPPED, Say.CAUGHT_NOT_RETURNED), set(SayCaught)),
    **dict.fromkeys(SayCaught, {SayCheck.READ_LATE, SayCheck.ROWS_READ_LATE, SayCheck.FIRST_READ_LATE,
                                SayRead.GRAD_VALUES_KEPT, SayCheck.SAVED_UNREAD}),  # read, and what it raised caught
    # rows of other entries, in another order: the row of the pass that ran last matches the .grad left
    # at the end without being read late
    **dict.fromkeys((SayCheck.ONES_OUT_OF_TURN, SayCheck.ONES_REPEATED, SayCheck.ONES_BY_NUMBER),
                    {Say.RESULT_NUMBER, Say.RESULT_ALIKE, Say.RESULT_BOTH_ALIKE, Say.GRAD_NUMBER, SayCheck.ROWS_READ_LATE,
                     SayCheck.READ_LATE}),
    # w moved before the pass: the loss, w and the gradient of every step are those of another w
    SayCheck.UPDATED_FIRST: {Say.DATA, Say.GRAD_NUMBER},
    # the other branch's y: its op, its graph and its numbers are that branch's
    **dict.fromkeys((SayLoop.OTHER_BRANCH, SayLoop.BRANCH_DROPPED),
                    {Say.OTHER_OP, Say.ROOT_OP, Say.NODE_OP, Say.ROOT_INPUTS, Say.NODE_INPUTS, Say.RESULT_NUMBER, Say.DATA}),
    SayLeaf.NONE_NOT_RETURNED: {Say.NOT_A_VALUE},  # None returned in place of the one computed: of type NoneType
    # another Value returned in place of the one computed: its graph, flags and number are that Value's
    **dict.fromkeys((SayLeaf.COMPUTED_NOT_RETURNED, SayLeaf.GIVEN_NOT_RETURNED),
                    {Say.UNTRACKED, Say.IS_LEAF, Say.REQUIRES_GRAD, Say.NO_GRAPH, Say.OTHER_OP, Say.ROOT_OP, Say.NODE_OP,
                     Say.ROOT_INPUTS, Say.NODE_INPUTS, Say.RESULT_NUMBER, Say.DATA}),
    # a result kept by an id and returned for the graph that took the id over: the other results that differ
    # are earlier graphs' too (CPython hands freed ids on), and the fresh import's first call returns its own
    # a leaf kept from earlier calls, its gradient added to: every record of the call, and the call made again, differs
    SayState.LEAF_KEPT_GRAD: {Say.RESULT_NUMBER, SayState.NOT_SAME_AGAIN, SayState.NOT_SAME_FRESH},
    SayState.FREED_GRAPH_KEPT: {SayState.NOT_SAME_FRESH, Say.RESULT_TEXT, Say.RESULT_FEWER, Say.RESULT_MORE, Say.RESULT_MORE_LAST},
    SayWalk.NO_LOCAL_GRADS: {Say.RESULT_NUMBER, SayWalk.RAN_FEWER},
    SayWalk.NAME_LETTERS: {Say.RESULT_MORE, Say.RESULT_MORE_LAST, Say.RESULT_TEXT},  # a name's letters: more entries
    # Softplus's gradient in no graph back to x: every second derivative through it is another number, or None
    **dict.fromkeys((SayCheck.GRADIENT_CUT, SayCheck.GRADIENT_CUT_SAVED), {Say.RESULT_NUMBER, Say.RESULT_NONE}),
    # grad mode off while it ran (its own no_grad, or @once_differentiable's): every second derivative too
    **dict.fromkeys((SayCheck.GRAD_OFF_IN_BACKWARD, SayFunction.ONCE_DIFFERENTIABLE),
                    {Say.RESULT_NUMBER, Say.RESULT_NONE, SayCheck.GRAD_TAKEN_AS_NUMBER}),
    Say.RESULT_ORDER: {SayCheck.FIRST_READ_LATE},  # records in another order: the first entry is the second pass's
    # the leaves' .grad a call left set is the state a later call on the same graph adds to
    SayCheck.GRADS_TOUCHED: {SayState.NOT_SAME_AGAIN, SayState.RAISED_AGAIN, SayState.NOT_SAME_FRESH, SayState.NOT_SAME_GROWN, SayState.FIRST_CHANGED},
    # a Value handed to the call cut off its graph there: the same Value handed again has no graph to read
    SayState.GIVEN_DETACHED: {SayState.NOT_SAME_AGAIN, SayState.RAISED_AGAIN, SayState.NOT_SAME_FRESH, SayState.NOT_SAME_GROWN,
                              SayState.FIRST_CHANGED},
    # a number that depends on an earlier call matches a slip's pattern by chance, not by a slip
    # (or a first loss of another kind: a list kept between calls starts with an earlier call's; a
    # Function's gradient kept from an earlier call scales with the seed as that call's did)
    **dict.fromkeys((SayState.NOT_SAME_AGAIN, SayState.NOT_SAME_FRESH, SayState.NOT_SAME_GROWN, SayState.FIRST_CHANGED,
                     SayState.LEFT_ON_GRAPH, SayState.EFFECT_AGAIN),
                    {SayCheck.PRODUCT_OWN_FACTOR, SayCheck.PRODUCT_FACTOR_ONE, SayCheck.LAST_INPUT_LEFT_OUT, SayCheck.KEPT_PER_NAME, SayCheck.DATA_BY_NAME,
                     SayCheck.DATA_BY_LAST_NAME, SayWalk.FIRST_INPUT_OWN, SayWalk.LAST_INPUT_OWN, SayWalk.ONE_PATH_ALONE, SayWalk.NO_PATH_COUNTED, SayWalk.SOME_PATHS_ONLY,
                     SayStep.OTHER_LOSS, SayStep.LOSS_SUMMED, SayStep.LOSS_AFTER_UPDATE, SayStep.LOSS_ROUNDED,
                     SayStep.LOSS_OF_ONE_ROW,
                     Say.GRAD_FACTOR, SayFunction.DIGITS_LOST_FAR, SayCheck.NOT_SCALED, SayCheck.IGNORES_GRAD,
                     SayCheck.GATED_BY_GRAD,
                     SayCheck.OTHER_UNDER_FILTERS, SayCheck.NONE_UNDER_FILTERS}),  # an answer of an earlier call's state: not the filter's
    # a copy of the leaf returned in its place: no graph reaches it, no gradient is written there
    **dict.fromkeys((SayCheck.COPY_OF_LEAF, SayCheck.DATA_OF_LEAF, SayLeaf.SHARED_COPY),
                    {Say.REQUIRES_GRAD, Say.GRAD_NEVER_WRITTEN, Say.NO_LEAF, *_OTHER_LEAVES, Say.DATA_LEAF}),
    # y made without the combine given, or with a as both operands: its error, its op and the gradients follow
    **dict.fromkeys((SayCheck.COMBINE_IGNORED, SayInPlace.COMBINE_A_TWICE),
                    {Say.NO_ERROR, Say.AN_ERROR, Say.OTHER_ERROR, Say.OTHER_ERROR_AFTER, Say.OTHER_OP,
                     Say.GRAD_NEVER_WRITTEN, Say.GRAD_NUMBER, Say.DATA}),
    # .grad read of leaves the pass never reached: each is None, or whatever an earlier pass left there
    **dict.fromkeys((SayRead.READ_UNWRITTEN, SayRead.READ_UNWRITTEN_BUILT_AGAIN), {Say.RESULT_NONE, Say.RESULT_NUMBER}),
    SayCheck.NOT_THE_DETACHED: {Say.NO_ERROR, Say.BACKWARD},  # the pass ran, so nothing was refused
    SayInPlace.DATA_AFTER_CHANGE: {Say.GRAD_NUMBER}, SayCheck.FORWARD_CHANGED_INPUT: {SayState.GIVEN_NUMBER_CHANGED},  # told once
    SayInPlace.RETURNED_OTHER: {Say.DATA, SayInPlace.DATA_THROUGH_DATA},  # the new Value's number is its own
    **dict.fromkeys((SayLeaf.BUILT_UNUSED, SayLeaf.BUILD_UNCALLED), {Say.AN_ERROR}),  # the second pass on that graph raised
    SayLeaf.BUILD_GIVEN_MADE: {Say.AN_ERROR},  # what the operation saved is freed: a graph of additions fails too  # backward ran on the graph of the changed number
    # new added to w where it is to be set: every number sharing w's, of every call, shows the sum (or, for
    # a new of 0, the number it came with)
    SayInPlace.DATA_ADDED: {Say.DATA, SayInPlace.DATA_UNCHANGED},
    # the pass found no change to refuse, so it wrote the gradients
    **dict.fromkeys((SayInPlace.BACKWARD_FIRST, SayInPlace.CHANGED_BEFORE_SAVED), {Say.GRAD_WRITTEN}),
    SayInPlace.LEAF_UNDER_NO_GRAD: {Say.GRAD_MODE_OFF, SayInPlace.IN_PLACE, SayInPlace.IN_PLACE_DETACHED},  # what no_grad let the change do
    SayClear.START_CLEARED: {Say.RESULT_NUMBER, Say.RESULT_ALIKE, Say.RESULT_BOTH_ALIKE, Say.GRAD_NUMBER},  # every step starts lower
    **dict.fromkeys((SayCheck.READ_LATE, SayRead.ONE_LIST, SayRead.LISTS_SWAPPED), {Say.RESULT_NUMBER}),
    # gradients cleared where a pass adds to them: every later number read or written is of one pass
    **dict.fromkeys((Say.CLEARED, Say.CLEARED_BETWEEN), {Say.RESULT_NUMBER, Say.GRAD_NUMBER}),
    # a step of another size moves every parameter, and the model's loss, to another number
    **dict.fromkeys((SayStep.OTHER_STEP, SayStep.STEP_NOT_LR, SayStep.STEP_OTHER_LOSS, SayStep.STEP_ALONG_GRAD, SayStep.STEP_DECAYED, SayStep.LOSSES_ALIKE,
                     SayStep.LOSSES_ALIKE_CAUGHT, SayStep.STEP_REPEATED, SayStep.STEP_ONCE_MORE), {Say.DATA}),
    SayStep.LOSS_SCALED: {Say.DATA, SayStep.OTHER_LOSS},  # the losses returned are of that loss too
    SayStep.STEPPED_ON_ZEROS: {Say.DATA},
    SayStep.FROM_AN_OUTPUT: {Say.DATA},  # every step followed a prediction's gradient: each parameter is elsewhere  # every step applied zeros: each parameter stays where it was
    # the loop ran one step off: one backward and one update off, and every parameter where that many steps leave it
    **dict.fromkeys((SayStep.ONE_STEP_FEWER, SayStep.ONE_STEP_MORE),
                    {Say.FEWER_BACKWARD, Say.MORE_BACKWARD, SayInPlace.IN_PLACE_FEWER, SayInPlace.IN_PLACE_MORE, Say.DATA}),
    # a parameter left out of the steps: it keeps its number and version, each step of the others is of another loss
    # (an optimizer that does not hold it: its zero_grad() leaves that .grad to add up, pass after pass)
    **dict.fromkeys((SayStep.PARAMETER_LEFT, SayStep.LAYER_LEFT, SayStep.LEFT_AT_ZERO),
                    {Say.DATA, SayInPlace.NEVER_IN_PLACE, SayStep.STEP_NOT_BY_GRAD, Say.NOT_CLEARED,
                     SayClear.FIRST_ADDED, SayClear.CLEARED_AFTER_BACKWARD}),
    # one model for every seed: its parameters are the one seed's, and so is the generator it leaves
    SayStep.SEED_UNUSED: {Say.DATA, SayStep.GENERATOR_ELSEWHERE},
    # every step taken on one row's loss: every parameter, and the losses after it, are that loss's
    SayStep.STEPS_ON_ONE_ROW: {Say.DATA, SayStep.OTHER_LOSS},
    SayStep.LOSS_SUMMED: {SayStep.LOSS_SCALED},  # the sum of the squared errors is the multiple, named
    # an input returned as the output: what was saved is that output, and the error is the engine's about it
    SayCheck.RETURNED_INPUT: {Say.NEW_OBJECT, Say.OTHER_ERROR, Say.OTHER_ERROR_AFTER},
    # a backward that changed its saved x in place: the next backward refuses it, keeps the graph
    SayCheck.CHANGED_INPUT: {Say.KEPT, Say.GRAD_NUMBER},
    **dict.fromkeys((SayClear.ROWS_RECORDED_CLEARED, SayClear.ROWS_KEPT_GRAD), {Say.RESULT_NUMBER, Say.RESULT_ALIKE, Say.RESULT_BOTH_ALIKE}),  # rows of zeros: told once
    **dict.fromkeys((SayCheck.NOT_V, SayCheck.NOT_SEEDED_Y), {Say.RESULT_NUMBER, Say.GRAD_NUMBER}),  # the gradients of another vector
    SayWalk.NOT_SEEDED_ONE: {Say.RESULT_NUMBER}, SayLoop.PAST_THE_LIMIT: {SayLoop.DOUBLED_AT_THE_LIMIT},  # the doubling at y == limit, told with the count
    # the root's node ran alone: no other node ran, no leaf has an entry
    SayWalk.ROOT_ALONE: {Say.RESULT_NUMBER, Say.NO_ENTRY, SayWalk.RAN_FEWER},  # every gradient of a walk seeded otherwise differs  # a record read after the last pass holds other numbers
    **dict.fromkeys((SayCheck.NOT_ONE_HOT, SayCheck.SEVERAL_HOT, SayCheck.NOT_ONE), {Say.RESULT_NUMBER, Say.GRAD_NUMBER}),  # rows of another gradient  # the count of nodes it ran local_grads on is 0 on every graph
    # the entry's type told once: "is not the kind of result the statement's is" says it again
    **dict.fromkeys((Say.NOT_A_FLOAT, Say.NOT_A_FLOAT_STAR, Say.NOT_A_FLOAT_IMPORTED, Say.NOT_A_FLOAT_INT_SEED),
                    {Say.RESULT_NUMBER, Say.RESULT_ALIKE, Say.RESULT_BOTH_ALIKE, Say.RESULT_TYPE, SayClear.ROWS_RECORDED_CLEARED, SayClear.ROWS_KEPT_GRAD,
                     SayClear.RECORDED_CLEARED}),
    SayClear.CLEARED_BEFORE_ONLY: {Say.GRAD_NOT_CHANGED, Say.GRAD_WRITTEN},  # the last pass's gradient, left
    SayClear.CLEARED_SOME_ONLY: {Say.GRAD_NOT_CHANGED, Say.GRAD_WRITTEN, SayClear.CLEARED_BEFORE_ONLY},  # ... in a call of two steps too
    SayState.KEPT_OBJECT: {SayInPlace.IN_PLACE, SayInPlace.IN_PLACE_DETACHED, SayInPlace.IN_PLACE_MORE, SayInPlace.IN_PLACE_FEWER, Say.DATA,
                      Say.GRAD_WRITTEN, Say.GRAD_ZEROED, Say.GRAD_NUMBER,  # what earlier calls did to an object kept,
                      Say.NO_LEAF, *_OTHER_LEAVES,  # not this call; its graph built on an earlier call's leaf,
                      Say.FREED,  # and freed by a backward run through it since;
                      SayState.KEPT_RESULT},  # and the object it names is what the call handed out again
    # jacobian_rows reading zero_between the other way round: the rows of every call accumulate
    # where they are asked zeroed and the other way round, and each x .grad shows it
    **dict.fromkeys((SayCheck.ZERO_BETWEEN_SWAPPED, SayCheck.ZERO_ALWAYS),
                    {Say.RESULT_NUMBER, Say.RESULT_ALIKE, Say.RESULT_BOTH_ALIKE, Say.GRAD_CHANGED, Say.GRAD_NOT_CHANGED,
                     SayClear.ROWS_RECORDED_CLEARED, SayClear.ROWS_KEPT_GRAD}),
    # a graph recorded with other flags than the call was given reaches other leaves: told once
    **dict.fromkeys((SayCheck.FLAGS_AGAINST, SayCheck.FLAGS_OTHER_LEAF, SayCheck.FLAGS_IGNORED, SayCheck.FLAGS_SWAPPED,
                     SayLeaf.WRITTEN), {*_OTHER_LEAVES, Say.DATA_LEAF}),
    # a loss that leaves entries of the layer's output out: its sum takes fewer inputs, and every
    # parameter's gradient is that of the entries it kept
    **dict.fromkeys(SayEntries, {Say.ROOT_INPUTS, Say.NODE_INPUTS, Say.GRAD_NUMBER, Say.RESULT_NUMBER}),
    # an input of fewer rows: the statement's entries of the rows left out are in no graph of its, and
    # the entries it has hold the numbers of other rows than the statement's at their place
    SayEntries.ROWS_FEWER: {Say.ROOT_INPUTS, Say.NODE_INPUTS, Say.GRAD_NUMBER, Say.RESULT_NUMBER, Say.NO_LEAF,
                            *_OTHER_LEAVES, Say.DATA},
    # an input of fewer rows, not the rows given: the statement's entries of the rows it lacks are in no graph of its
    SayEntries.ROWS_FEWER_OTHER: {Say.ROOT_INPUTS, Say.NODE_INPUTS, Say.NO_LEAF, *_OTHER_LEAVES},
    SayCheck.SEEDED_AFTER: {SayStep.GENERATOR_ELSEWHERE},  # seeded after the build: the generator left seeded
    # w left as it came by a call given another new: that nothing was written where new equals w's
    # number too is the same slip, told of a call the row's other sentence is not about
    SayInPlace.DATA_UNCHANGED: {SayCheck.NOTHING_WRITTEN},
    # one Value returned under two names: what the other name's Value is (its number, its gradient, a
    # detach() not of it, a graph reaching the name elsewhere) follows, and is not that name's slip
    SayLeaf.DETACHED_RETURNED: {Say.UNTRACKED, Say.IS_LEAF, Say.REQUIRES_GRAD},  # no graph: told as the detach()
    Say.NAME_ALIAS: {SayCheck.NOT_SHARED, Say.LEAF_ELSEWHERE, Say.DATA, SayInPlace.DATA_UNCHANGED, Say.GRAD_NUMBER},
    # the passes wrote into a leaf the code made in place of the one given: the graph they ran on has it
    Say.NEW_LEAF_WRITTEN: {Say.NO_LEAF, *_OTHER_LEAVES},
    SayState.EARLIER_LEAF_WRITTEN: {Say.NO_LEAF, *_OTHER_LEAVES},
    # a loop that runs a fixed number of steps: each call's pass count, history and gradients follow from it
    SayStep.STEPS_IGNORED: {Say.MORE_BACKWARD, Say.FEWER_BACKWARD, Say.BACKWARD, Say.RESULT_FEWER, Say.RESULT_MORE,
                            Say.RESULT_NUMBER, Say.GRAD_NUMBER, Say.GRAD_WRITTEN},
    SayCheck.SET_TO_NONE_SWAPPED: {Say.GRAD_WRITTEN, Say.GRAD_ZEROED, Say.GRAD_NONE_BY_HAND,
    SayClear.NONE_WHERE_WRITTEN,
                              Say.GRAD_STILL_BACKWARD,
                              Say.GRAD_CHANGED, Say.GRAD_NOT_CHANGED, Say.SAME_OBJECT, Say.NEW_OBJECT,
                              Say.NOT_A_VALUE},
}
# A nan is told as what it is where another number is told as a different one: what accounts for
# the one accounts for the other.
for _told in (*_EXPLAINED_BY.values(), *_WHOLE_CAUSES.values()):
    if Say.RESULT_NUMBER in _told:
        _told.add(SayShape.NAN)


def follows(say: Sentence, label: str, said: set[tuple[Sentence, str]]) -> bool:
    """Whether the sentence ``say`` about ``label`` follows from another sentence about the same
    label among ``said`` (pairs of sentence and label), or from one that accounts for every
    label (``_WHOLE_CAUSES``); the text of a Value's grad_fn, from its graph's root op told; an
    entry's, from state that made the whole result another call's (``_KEPT_RESULT``)."""
    return (any((cause, label) in said or cause in _KEPT_RESULT and (cause, _list_of(label)) in said
                for cause in _FOLLOWS_FROM.get(say, ()))
            or say is Say.NOT_A_VALUE and any(s is Say.NOT_THAT_VALUE and _named(told) == _named(label) for s, told in said)
            or any(say in told and cause in {s for s, _ in said} for cause, told in _WHOLE_CAUSES.items())
            or say is Say.RESULT_TEXT and label.endswith(_GRAD_FN)
            and any((root, label[:-len(_GRAD_FN)]) in said for root in (Say.ROOT_OP, Say.NOT_A_VALUE)))


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
