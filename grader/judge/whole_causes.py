"""Sentences that account for every label of a test: what they explain is not told again.

A cause told once (a zero_grad reading set_to_none the other way round, state kept between calls,
a step of another size) accounts for what it explains wherever that is found, whatever its label
(``WHOLE_CAUSES``, read by ``grader.judge.causes.follows``).
"""

from __future__ import annotations

from grader.judge.cause_groups import (GRAD_ROWS, IN_PLACE_CHANGES, NOT_FLOATS, OTHER_ERRORS, OTHER_LEAVES,
                                       RESULTS_ALIKE, RESULTS_FEWER, RESULTS_MORE, with_nan)
from grader.judge.caught_sentences import SayCaught
from grader.judge.check_sentences import SayCheck
from grader.judge.clear_sentences import SayClear
from grader.judge.entry_sentences import SayEntries
from grader.judge.function_sentences import SayFunction
from grader.judge.given_sentences import SayGiven
from grader.judge.inplace_sentences import SayInPlace
from grader.judge.leaf_sentences import SayLeaf
from grader.judge.loop_sentences import SayLoop
from grader.judge.read_sentences import SayRead
from grader.judge.sentences import Say
from grader.judge.state_sentences import SayState
from grader.judge.step_sentences import SayStep
from grader.judge.walk_sentences import SayWalk

# Sentences that account for every .grad a test looked at, whatever its label: a zero_grad that
# reads set_to_none the other way round leaves None where zeros are asked for and the other way
# round, in every call; each .grad told again would only say so once more.  A Value returned where
# a float is asked for is the gradient object itself, which later passes change in place: the
# numbers read from it at the end differ, are all alike, or are all cleared, because of it.  A
# loop that clears before each backward, not after recording, leaves every .grad as the last
# backward wrote it: "still what backward wrote" of each would only say so once more.  An object
# kept from an earlier call and returned again carries what the calls since did to it.
WHOLE_CAUSES = with_nan({
    # a call that ran no pass walked no graph, and the .grad a pass before it wrote is not told as this call's
    Say.NO_BACKWARD: {Say.NO_PASS_GRAPH, Say.GRAD_NUMBER, Say.GRAD_FACTOR, Say.GRAD_NOT_CHANGED},
    Say.GRAD_CHOSEN: {SayRead.HOOK_CHOSEN_READ},  # the .grad a hook chose, named: a number read from it says no more
    Say.GRAD_SEEDED: {SayRead.SEEDED_READ},  # the .grad a pass added to a number of the student's, named: the same
    # a generator returned unrun: no pass, no step, every parameter and the loss after it as the model came
    SayStep.GENERATOR_UNRUN: {Say.NO_PASS_GRAPH, Say.DATA, SayInPlace.NEVER_IN_PLACE, SayInPlace.IN_PLACE_FEWER},
    SayGiven.REMADE: {SayCheck.NOT_READ_FROM_GRAD},  # the given function's copy made the floats: told of it, once
    SayWalk.COUNTED_ONCE_NAMESAKE: {SayWalk.COUNTED_ONCE},  # one count kept per parent: told once, of either kind
    # w moved by another amount: w, the later steps' losses and the gradients backward wrote at them differ
    **dict.fromkeys((SayCheck.STEP_NOT_LR_GRAD, SayCheck.ASCENDS, SayCheck.STEP_OF_NOTHING, SayState.STEP_KEPT_ON_LEAF),
                    {Say.DATA, Say.GRAD_NUMBER}),
    Say.GRAD_CALL: {Say.GRAD_NEVER_WRITTEN},
    # a step that never called the loss_fn it was given: its loss, the graph behind it, and w and w.grad after it are another loss's
    **dict.fromkeys((SayCheck.LOSS_FN_IGNORED, SayCheck.LOSS_FN_EARLIER, SayCheck.LOSS_FN_UNCALLED),
                    {Say.OTHER_OP, Say.ROOT_OP, Say.ROOT_RSUB, Say.NODE_RSUB, Say.ROOT_INPUTS, Say.NODE_OP, Say.NODE_INPUTS, Say.DATA, Say.GRAD_NUMBER}),
    SayWalk.EMPTY_ANSWER: {Say.NO_ENTRY},
    # an order without the leaves' nodes: told of topological_order itself, the walk that used it has no leaf's entry
    SayWalk.INCOMPLETE_LEAVES: {SayWalk.ORDER_LEAVES_LEFT_OUT}, SayWalk.ORDER_LEAVES_LEFT_OUT: {SayWalk.EMPTY_ANSWER, Say.NO_ENTRY},
    # the statement's Values returned in another order: what each name holds follows from it
    SayCheck.START_ELSEWHERE: {SayCheck.NOT_BY_OP, SayCheck.NOT_MADE_FROM, Say.RETURNED_AS_OTHER, Say.SAME_OBJECT,
                               *IN_PLACE_CHANGES, Say.DATA},
    SayCheck.ROWS_NOT_AS_NET: {Say.DATA},  # each row of output holds another row's numbers, told by the row
    # rows of input that are one list, a row repeated, or rows in another order: their entries, the output rows net
    # made of them and the leaves loss reaches
    **dict.fromkeys((SayCheck.ROWS_ONE_LIST, SayCheck.ROWS_REPEATED, SayCheck.ROWS_OTHER_ORDER),
                    {Say.DATA, Say.NO_LEAF, Say.DATA_LEAF, *OTHER_LEAVES, SayLeaf.OTHER_LEAF_AT, SayLeaf.ROOT_OTHER_LEAF}),
    # the leaves after it, and the nodes run; a graph where the walk may have left out the last node instead
    SayWalk.STOPPED_AT_FIRST_LEAF: {Say.NO_ENTRY, Say.RESULT_NUMBER, SayWalk.RAN_FEWER, SayWalk.FIRST_OR_LAST},
    SayWalk.FIRST_OR_LAST: {Say.NO_ENTRY, Say.RESULT_NUMBER, SayWalk.RAN_FEWER},
    **dict.fromkeys((SayState.SAME_ON_OBJECT, SayState.LR_OF_EARLIER_CALL),
                    {Say.RESULT_NUMBER, *RESULTS_FEWER, Say.RESULT_MORE}),  # the earlier call's result  # an empty dict has an entry for no leaf: told once  # grad() writes no .grad: every one left None is of it
    **dict.fromkeys((SayRead.ROUNDED_GRAD, SayRead.CHANGED_AFTER_READ, SayRead.EQUAL_AFTER_READ, SayRead.HOOK_CHOSEN_READ, SayRead.SEEDED_READ), {SayCheck.NOT_READ_FROM_GRAD}),  # read and rounded: where rounding changed no number, none is told apart
    **dict.fromkeys((SayRead.PASS_ERROR_CAUGHT, SayRead.CAUGHT_THEN_PASS), {Say.GRAD_NUMBER, *SayCaught}),  # the pass that raised added nothing: every .grad is short of it
    # an engine error caught: its sentence of the function's own, told once; a pass that raised wrote nothing, so
    # records read after it repeat the last pass that did, as records all read at the end would
    **dict.fromkeys((SayRead.HELPER_CAUGHT, SayInPlace.CHANGE_DROPPED, Say.CAUGHT_NOT_RETURNED), set(SayCaught)),
    **dict.fromkeys(SayCaught, {SayCheck.READ_LATE, SayCheck.ROWS_READ_LATE, SayCheck.FIRST_READ_LATE,
                                SayRead.GRAD_VALUES_KEPT, SayCheck.SAVED_UNREAD}),  # read, and what it raised caught
    # rows of other entries, in another order: the row of the pass that ran last matches the .grad left
    # at the end without being read late
    **dict.fromkeys((SayCheck.ONES_OUT_OF_TURN, SayCheck.ONES_REPEATED, SayCheck.ONES_BY_NUMBER),
                    {Say.RESULT_NUMBER, *RESULTS_ALIKE, Say.GRAD_NUMBER, SayCheck.ROWS_READ_LATE, SayCheck.READ_LATE}),
    # w moved before the pass: the loss, w and the gradient of every step are those of another w
    SayCheck.UPDATED_FIRST: {Say.DATA, Say.GRAD_NUMBER},
    # loss summed by Python's sum(): its root's op and every node of the chain are that sum's
    **dict.fromkeys((SayCheck.BUILTIN_SUM, SayCheck.HAND_SUM), {Say.RESULT_TEXT, Say.OTHER_OP, Say.ROOT_OP, Say.NODE_OP,
                                                              Say.OP_MORE, Say.OP_FEWER, Say.ROOT_INPUTS, Say.NODE_INPUTS}),
    # the other branch's y: its op, its graph and its numbers are that branch's
    **dict.fromkeys((SayLoop.OTHER_BRANCH, SayLoop.BRANCH_DROPPED),
                    {Say.OTHER_OP, Say.ROOT_OP, Say.ROOT_RSUB, Say.NODE_RSUB, Say.NODE_OP, Say.ROOT_INPUTS, Say.NODE_INPUTS, Say.RESULT_NUMBER, Say.DATA}),
    SayLeaf.NONE_NOT_RETURNED: {Say.NOT_A_VALUE},  # None returned in place of the one computed: of type NoneType
    # another Value returned in place of the one computed: its graph, flags and number are that Value's
    **dict.fromkeys((SayLeaf.COMPUTED_NOT_RETURNED, SayLeaf.GIVEN_NOT_RETURNED),
                    {Say.UNTRACKED, Say.IS_LEAF, Say.REQUIRES_GRAD, Say.NO_GRAPH, Say.OTHER_OP, Say.ROOT_OP, Say.ROOT_RSUB, Say.NODE_RSUB, Say.NODE_OP,
                     Say.ROOT_INPUTS, Say.NODE_INPUTS, Say.RESULT_NUMBER, Say.DATA}),
    # a result kept by an id and returned for the graph that took the id over: the other results that differ
    # are earlier graphs' too (CPython hands freed ids on), and the fresh import's first call returns its own
    # a leaf kept from earlier calls, its gradient added to: every record of the call, and the call made again, differs
    SayState.LEAF_KEPT_GRAD: {Say.RESULT_NUMBER, SayState.NOT_SAME_AGAIN, SayState.NOT_SAME_FRESH},
    **dict.fromkeys((SayState.FREED_GRAPH_KEPT, SayState.FREED_ANSWER_KEPT),
                    {SayState.NOT_SAME_FRESH, Say.RESULT_TEXT, *RESULTS_FEWER, *RESULTS_MORE}),
    SayWalk.NO_LOCAL_GRADS: {Say.RESULT_NUMBER, SayWalk.RAN_FEWER},
    # an order without root.grad_fn walked: no node run, no leaf answered, every gradient missing
    **dict.fromkeys((SayWalk.ORDER_ROOT_LEFT_OUT, SayWalk.ROOT_UNRUN),
                    {SayWalk.NO_LOCAL_GRADS, SayWalk.EMPTY_ANSWER, Say.NO_ENTRY, Say.RESULT_NUMBER, SayWalk.RAN_FEWER}),
    # the root's inputs seeded with one, the root never run: every sum, node run and number after them is off by it
    # a walk stopped at a node nothing reached: the leaves after it have no answer, the nodes after it never ran;
    # on such a graph gradients paired in reverse lose the same ones (the other graphs' tests tell that apart)
    SayWalk.STOPPED_AT_UNREACHED: {SayWalk.EMPTY_ANSWER, Say.NO_ENTRY, Say.RESULT_NUMBER, SayWalk.RAN_FEWER,
                                   SayWalk.REVERSED},
    SayWalk.ROOT_SKIPPED: {SayWalk.NOT_SUMMED, SayWalk.ARRIVED_LATE, SayWalk.ONE_KEPT, SayWalk.RAN_UNREACHED, SayWalk.RAN_FEWER,
                           Say.RESULT_NUMBER, Say.NO_ENTRY},
    SayWalk.LAST_LEFT_OUT: {SayWalk.EMPTY_ANSWER, Say.NO_ENTRY, SayWalk.STOPPED_AT_FIRST_LEAF, SayWalk.FIRST_OR_LAST},  # the last leaf's entry
    SayWalk.NAME_LETTERS: {*RESULTS_MORE, Say.RESULT_TEXT},  # a name's letters: more entries
    **dict.fromkeys((SayWalk.NAME_ONCE, SayWalk.NAME_ONCE_AT_NONE), set(RESULTS_FEWER)),  # a name met again left out: fewer entries
    SayClear.RESET_AS_FLAG: {Say.GRAD_NONE_BY_HAND},  # the reset text taken as set_to_none=True: w.grad set to None
    # Softplus's gradient in no graph back to x: every second derivative through it is another number, or None
    **dict.fromkeys((SayCheck.GRADIENT_CUT, SayCheck.GRADIENT_CUT_SAVED, SayCheck.GRADIENT_CUT_WHOLE), {Say.RESULT_NUMBER, Say.RESULT_NONE}),
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
                    {SayCheck.PRODUCT_OWN_FACTOR, SayCheck.PRODUCT_FACTOR_ONE, SayCheck.LEAF_EDGE_ONE, SayCheck.LAST_INPUT_LEFT_OUT, SayCheck.KEPT_PER_NAME, SayCheck.DATA_BY_NAME,
                     SayCheck.DATA_BY_LAST_NAME, SayWalk.FIRST_INPUT_OWN, SayWalk.LAST_INPUT_OWN, SayWalk.ONE_PATH_ALONE, SayWalk.NO_PATH_COUNTED, SayWalk.SOME_PATHS_ONLY,
                     SayWalk.LEAF_DATA_AT_END, SayWalk.PATHS_MULTIPLIED, SayStep.OTHER_LOSS, SayStep.LOSS_SUMMED, SayStep.LOSS_AFTER_UPDATE, SayStep.LOSS_ROUNDED, SayStep.LOSSES_REVERSED,
                     SayStep.LOSS_OF_ONE_ROW,
                     Say.GRAD_FACTOR, SayFunction.DIGITS_LOST_FAR, SayCheck.NOT_SCALED, SayCheck.IGNORES_GRAD,
                     SayCheck.GATED_BY_GRAD,
                     SayCheck.OTHER_UNDER_FILTERS, SayCheck.NONE_UNDER_FILTERS,  # an answer of an earlier call's state: not the filter's
                     SayRead.EDGES_UNREAD, SayRead.NODE_UNREAD}),  # nor a walk's that stops short: a kept answer read no further
    # a copy of the leaf returned in its place: no graph reaches it, no gradient is written there
    **dict.fromkeys((SayCheck.COPY_OF_LEAF, SayCheck.DATA_OF_LEAF, SayLeaf.SHARED_COPY),
                    {Say.REQUIRES_GRAD, Say.GRAD_NEVER_WRITTEN, Say.NO_LEAF, *OTHER_LEAVES, Say.DATA_LEAF}),
    # y made without the combine given, or with a as both operands: its error, its op and the gradients follow
    **dict.fromkeys((SayCheck.COMBINE_IGNORED, SayInPlace.COMBINE_A_TWICE),
                    {Say.NO_ERROR, Say.AN_ERROR, *OTHER_ERRORS, Say.OTHER_OP,
                     Say.GRAD_NEVER_WRITTEN, Say.GRAD_NUMBER, Say.DATA}),
    # .grad read of leaves the pass never reached: each is None, or whatever an earlier pass left there
    **dict.fromkeys((SayRead.READ_UNWRITTEN, SayRead.READ_UNWRITTEN_BUILT_AGAIN), {Say.RESULT_NONE, Say.RESULT_NUMBER}),
    SayCheck.NOT_THE_DETACHED: {Say.NO_ERROR, Say.BACKWARD},  # the pass ran, so nothing was refused
    SayInPlace.DATA_AFTER_CHANGE: {Say.GRAD_NUMBER}, SayCheck.FORWARD_CHANGED_INPUT: {SayState.GIVEN_NUMBER_CHANGED},  # told once
    SayInPlace.RETURNED_OTHER: {Say.DATA, SayInPlace.DATA_THROUGH_DATA},  # the new Value's number is its own
    SayInPlace.RETURNED_DETACHED: {Say.REQUIRES_GRAD},  # a detach() requires no grad
    **dict.fromkeys((SayLeaf.BUILT_UNUSED, SayLeaf.BUILD_UNCALLED), {Say.AN_ERROR}),  # the second pass on that graph raised
    SayLeaf.BUILD_GIVEN_MADE: {Say.AN_ERROR},  # what the operation saved is freed: a graph of additions fails too  # backward ran on the graph of the changed number
    # new added to w where it is to be set: every number sharing w's, of every call, shows the sum (or, for
    # a new of 0, the number it came with)
    SayInPlace.DATA_ADDED: {Say.DATA, SayInPlace.DATA_UNCHANGED},
    SayCheck.FLAGS_SET_LATE: {Say.UNTRACKED},  # what the graph left unrecorded, the leaves' flags turned on late
    # the pass found no change to refuse, so it wrote the gradients
    **dict.fromkeys((SayInPlace.BACKWARD_FIRST, SayInPlace.CHANGED_BEFORE_SAVED), {Say.GRAD_WRITTEN}),
    **dict.fromkeys((SayInPlace.LEAF_UNDER_NO_GRAD, SayInPlace.LEAF_UNDER_SET_GRAD, SayInPlace.LEAF_UNDER_INFERENCE,
                     SayInPlace.LEAF_IN_DECORATED),  # what no_grad let the change do
                    {Say.GRAD_MODE_OFF, Say.GRAD_MODE_OFF_SET, Say.GRAD_MODE_OFF_INFERENCE, Say.GRAD_MODE_OFF_DECORATED,
                     *IN_PLACE_CHANGES}),
    # what a change the engine could not refuse did: w's version counter moved
    **dict.fromkeys((SayInPlace.LEAF_NOT_YET_REQUIRING, SayInPlace.LEAF_THROUGH_DETACHED), IN_PLACE_CHANGES),
    SayClear.START_CLEARED: {Say.RESULT_NUMBER, *RESULTS_ALIKE, Say.GRAD_NUMBER},  # every step starts lower
    **dict.fromkeys((SayCheck.READ_LATE, SayRead.ONE_LIST, SayRead.LISTS_SWAPPED), {Say.RESULT_NUMBER}),
    # gradients cleared where a pass adds to them: every later number read or written is of one pass
    **dict.fromkeys((Say.CLEARED, Say.CLEARED_BETWEEN), {Say.RESULT_NUMBER, Say.GRAD_NUMBER}),
    # a step of another size moves every parameter, and the model's loss, to another number
    **dict.fromkeys((SayStep.OTHER_STEP, SayStep.STEP_NOT_LR, SayStep.STEP_OTHER_LOSS, SayStep.STEP_ALONG_GRAD, SayStep.STEP_DECAYED,
                     SayStep.LOSSES_ALIKE_CAUGHT, SayStep.STEP_REPEATED, SayStep.STEP_ONCE_MORE), {Say.DATA}),
    SayStep.LOSSES_ALIKE: {Say.DATA, SayInPlace.NEVER_IN_PLACE},  # no step changed the model: nor any parameter
    SayStep.LOSS_SCALED: {Say.DATA, SayStep.OTHER_LOSS},  # the losses returned are of that loss too
    SayStep.STEPPED_ON_ZEROS: {Say.DATA, SayStep.NOTHING_APPLIED},
    # a step that found nothing to apply, watched: a run of the same loop whose steps were not watched changed nothing
    **dict.fromkeys((SayStep.STEPPED_ON_NOTHING, SayStep.STEPPED_OTHER_MODEL, SayStep.STEPPED_ON_CLEARED),
                    {SayStep.NOTHING_APPLIED}),
    # no step taken: no parameter moved, in place or otherwise, and the loss stayed where it was
    SayStep.NEVER_STEPPED: {Say.DATA, SayInPlace.NEVER_IN_PLACE, SayInPlace.IN_PLACE_FEWER, SayStep.LOSSES_ALIKE,
                            SayStep.NOTHING_APPLIED},  # the same loop, a run whose steps were not watched
    # a model at a freed one's id: the parameters kept by that id were stepped, not the new model's
    **dict.fromkeys((SayState.EARLIER_FREED_CHANGED, SayState.FREED_MODEL_KEPT),
                    {Say.DATA, SayInPlace.NEVER_IN_PLACE, SayInPlace.IN_PLACE_FEWER}),
    SayStep.NOTHING_APPLIED: {Say.DATA, SayInPlace.NEVER_IN_PLACE, SayInPlace.IN_PLACE_FEWER, SayStep.LOSSES_ALIKE},
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
    SayCheck.RETURNED_INPUT: {Say.NEW_OBJECT, *OTHER_ERRORS},
    # a backward that changed its saved x in place: the next backward refuses it, keeps the graph
    SayCheck.CHANGED_INPUT: {Say.KEPT, Say.GRAD_NUMBER},
    **dict.fromkeys(GRAD_ROWS, {Say.RESULT_NUMBER, *RESULTS_ALIKE}),  # rows of zeros: told once
    **dict.fromkeys((SayCheck.NOT_V, SayCheck.NOT_SEEDED_Y), {Say.RESULT_NUMBER, Say.GRAD_NUMBER}),  # the gradients of another vector
    SayWalk.NOT_SEEDED_ONE: {Say.RESULT_NUMBER}, SayLoop.PAST_THE_LIMIT: {SayLoop.DOUBLED_AT_THE_LIMIT},  # the doubling at y == limit, told with the count
    # the root's node ran alone: no other node ran, no leaf has an entry
    SayWalk.ROOT_ALONE: {Say.RESULT_NUMBER, Say.NO_ENTRY, SayWalk.RAN_FEWER},  # every gradient of a walk seeded otherwise differs  # a record read after the last pass holds other numbers
    **dict.fromkeys((SayCheck.NOT_ONE_HOT, SayCheck.SEVERAL_HOT, SayCheck.NOT_ONE), {Say.RESULT_NUMBER, Say.GRAD_NUMBER}),  # rows of another gradient  # the count of nodes it ran local_grads on is 0 on every graph
    # the entry's type told once: "is not the kind of result the statement's is" says it again
    **dict.fromkeys(NOT_FLOATS,
                    {Say.RESULT_NUMBER, *RESULTS_ALIKE, Say.RESULT_TYPE, *GRAD_ROWS,
                     SayClear.RECORDED_CLEARED}),
    SayClear.CLEARED_BEFORE_ONLY: {Say.GRAD_NOT_CHANGED, Say.GRAD_WRITTEN},  # the last pass's gradient, left
    SayClear.CLEARED_SOME_ONLY: {Say.GRAD_NOT_CHANGED, Say.GRAD_WRITTEN, SayClear.CLEARED_BEFORE_ONLY},  # ... in a call of two steps too
    SayState.KEPT_OBJECT: {*IN_PLACE_CHANGES, SayInPlace.IN_PLACE_MORE, SayInPlace.IN_PLACE_FEWER, Say.DATA,
                      Say.GRAD_WRITTEN, Say.GRAD_ZEROED, Say.GRAD_NUMBER,  # what earlier calls did to an object kept,
                      Say.NO_LEAF, *OTHER_LEAVES,  # not this call; its graph built on an earlier call's leaf,
                      Say.FREED,  # and freed by a backward run through it since;
                      SayState.KEPT_RESULT},  # and the object it names is what the call handed out again
    # jacobian_rows reading zero_between the other way round: the rows of every call accumulate
    # where they are asked zeroed and the other way round, and each x .grad shows it
    **dict.fromkeys((SayCheck.ZERO_BETWEEN_SWAPPED, SayCheck.ZERO_ALWAYS, SayCheck.ZERO_NEVER),
                    {Say.RESULT_NUMBER, *RESULTS_ALIKE, Say.GRAD_CHANGED, Say.GRAD_NOT_CHANGED,
                     *GRAD_ROWS}),
    # a graph recorded with other flags than the call was given reaches other leaves: told once
    **dict.fromkeys((SayCheck.FLAGS_AGAINST, SayCheck.FLAGS_OTHER_LEAF, SayCheck.FLAGS_IGNORED, SayCheck.FLAGS_SWAPPED,
                     SayLeaf.WRITTEN), {*OTHER_LEAVES, Say.DATA_LEAF}),
    # a loss that leaves entries of the layer's output out: its sum takes fewer inputs, and every
    # parameter's gradient is that of the entries it kept
    **dict.fromkeys(SayEntries, {Say.ROOT_INPUTS, Say.NODE_INPUTS, Say.GRAD_NUMBER, Say.RESULT_NUMBER}),
    # an input of fewer rows: the statement's entries of the rows left out are in no graph of its, and
    # the entries it has hold the numbers of other rows than the statement's at their place
    SayEntries.ROWS_FEWER: {Say.ROOT_INPUTS, Say.NODE_INPUTS, Say.GRAD_NUMBER, Say.RESULT_NUMBER, Say.NO_LEAF,
                            *OTHER_LEAVES, Say.DATA},
    # an input of fewer rows, not the rows given: the statement's entries of the rows it lacks are in no graph of its
    SayEntries.ROWS_FEWER_OTHER: {Say.ROOT_INPUTS, Say.NODE_INPUTS, Say.NO_LEAF, *OTHER_LEAVES},
    SayCheck.SEEDED_AFTER: {SayStep.GENERATOR_ELSEWHERE},  # seeded after the build: the generator left seeded
    # w left as it came by a call given another new: that nothing was written where new equals w's
    # number too is the same slip, told of a call the row's other sentence is not about
    SayInPlace.DATA_UNCHANGED: {SayCheck.NOTHING_WRITTEN},
    # one Value returned under two names: what the other name's Value is (its number, its gradient, a
    # detach() not of it, a graph reaching the name elsewhere) follows, and is not that name's slip
    SayLeaf.DETACHED_RETURNED: {Say.UNTRACKED, Say.IS_LEAF, Say.REQUIRES_GRAD},  # no graph: told as the detach()
    Say.NAME_ALIAS: {SayCheck.NOT_SHARED, Say.LEAF_ELSEWHERE, Say.DATA, SayInPlace.DATA_UNCHANGED, Say.GRAD_NUMBER},
    # the passes wrote into a leaf the code made in place of the one given: the graph they ran on has it
    Say.NEW_LEAF_WRITTEN: {Say.NO_LEAF, *OTHER_LEAVES},
    SayState.EARLIER_LEAF_WRITTEN: {Say.NO_LEAF, *OTHER_LEAVES},
    # a loop that runs a fixed number of steps: each call's pass count, history and gradients follow from it
    SayStep.STEPS_IGNORED: {Say.MORE_BACKWARD, Say.FEWER_BACKWARD, Say.BACKWARD, *RESULTS_FEWER, Say.RESULT_MORE,
                            Say.RESULT_NUMBER, Say.GRAD_NUMBER, Say.GRAD_WRITTEN},
    SayCheck.SET_TO_NONE_SWAPPED: {Say.GRAD_WRITTEN, Say.GRAD_ZEROED, Say.GRAD_NONE_BY_HAND,
    SayClear.NONE_WHERE_WRITTEN,
                              Say.GRAD_STILL_BACKWARD,
                              Say.GRAD_CHANGED, Say.GRAD_NOT_CHANGED, Say.SAME_OBJECT, Say.NEW_OBJECT,
                              Say.NOT_A_VALUE},
})
