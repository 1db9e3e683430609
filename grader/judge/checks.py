"""The sentence for a failed CHECK fact: a property the probe judged on what the student's
code did (``grader.spec.facts.Check``), told when the statement's run has it and the student's
has not; context recorded beside it picks a sentence that says why, where it can.
"""

from __future__ import annotations

from typing import Any

from grader.judge.check_sentences import SayCheck
from grader.judge.explained import Difference
from grader.judge.inplace_sentences import SayInPlace
from grader.judge.leaf_sentences import SayLeaf
from grader.judge.pass_sentences import SayPass
from grader.judge.read_sentences import SayRead
from grader.judge.sentences import Say, Sentence
from grader.judge.loop_sentences import SayLoop
from grader.judge.walk_sentences import SayWalk
from grader.judge.state_sentences import SayState
from grader.judge.clear_sentences import SayClear
from grader.judge.entry_sentences import SayEntries
from grader.judge.function_sentences import SayFunction
from grader.judge.given_sentences import SayGiven
from grader.judge.shape_sentences import SayShape
from grader.judge.step_sentences import SayStep
from grader.judge.explained import difference as _diff
from grader.spec.facts import CONTEXT, KEPT_BY, Check

_CHECKS = {Check.LIST_OF_NODES.value: SayWalk.NOT_NODES, Check.STARTS_AT_ROOT.value: SayWalk.NOT_FROM_ROOT,
           Check.EACH_ONCE.value: SayWalk.TWICE, Check.COMPLETE.value: SayWalk.INCOMPLETE,
           Check.PARENTS_FIRST.value: SayWalk.CHILD_FIRST, Check.KEYED_BY_LEAVES.value: SayWalk.NOT_LEAF_KEYS,
           Check.LEAVES_APART.value: SayWalk.LEAVES_MERGED,
           Check.RUNS_ONCE.value: SayWalk.RAN_TWICE, Check.CALLS_LOCAL_GRADS.value: SayWalk.NO_LOCAL_GRADS,
           Check.BOUNDS_USED.value: SayFunction.BOUNDS_UNUSED, Check.AFTER_FEEDERS.value: SayCheck.RAN_BEFORE_FEEDER,
           Check.APPLIED.value: SayCheck.NOT_APPLIED, Check.DETACHED_FROM.value: SayCheck.NOT_DETACHED,
           Check.READ_FROM_GRAD.value: SayCheck.NOT_READ_FROM_GRAD,
           Check.READ_FROM_LEAF.value: SayCheck.OTHER_LEAF_GRAD,
           Check.MADE_BY_OP.value: SayCheck.NOT_BY_OP, Check.START_FIRST.value: SayCheck.START_ELSEWHERE,
           Check.BY_TEXT.value: SayCheck.BY_IDENTITY, Check.RECORDED_AFTER_RAISE.value: SayCheck.UNRECORDED_AFTER_RAISE,
           Check.GRAD_LEFT.value: SayCheck.GRAD_CHANGED_AFTER,
           Check.MADE_FROM.value: SayCheck.NOT_MADE_FROM,
           Check.DETACHED_SOME.value: SayCheck.NEVER_DETACHED, Check.NONE_DETACHED.value: SayCheck.DETACHED_ONE,
           Check.UPDATED_AFTER_BACKWARD.value: SayCheck.UPDATED_FIRST, Check.CHANGED_AFTER_BACKWARD.value: SayInPlace.CHANGED_BEFORE_BACKWARD,
           Check.CHANGE_NOT_DROPPED.value: SayInPlace.CHANGE_DROPPED, Check.ONES_IN_TURN.value: SayCheck.ONES_OUT_OF_TURN, Check.SHARES_NUMBER.value: SayCheck.NOT_SHARED,
           Check.SHARES_VERSION.value: SayCheck.NOT_SHARED_VERSION,
           Check.FIRST_LOSS.value: SayStep.OTHER_LOSS, Check.LAST_LOSS.value: SayStep.LAST_LOSS_AFTER, Check.STEP_SIZE.value: SayStep.OTHER_STEP,
           Check.LOSSES_MOVE.value: SayStep.LOSSES_ALIKE, Check.LOSS_PER_STEP.value: SayStep.LOSSES_FEWER,
           Check.NONE_LEFT.value: SayStep.PARAMETER_LEFT, Check.SEED_USED.value: SayStep.SEED_UNUSED,
           Check.IMPORT_KEEPS_MODE.value: SayStep.IMPORT_LEFT_OFF, Check.IMPORT_KEEPS_WARNINGS.value: SayRead.IMPORT_SILENCED,
           Check.CALL_KEEPS_FILTERS.value: SayRead.FILTERS_LEFT, Check.NODE_KEPT.value: SayRead.NODE_CUT,
           Check.PASSES_RAN_THROUGH.value: SayRead.PASS_ERROR_CAUGHT, Check.INPUTS_ANEW.value: SayStep.ROWS_BY_ID,
           Check.BODY_RAN.value: SayStep.GENERATOR_UNRUN,
           Check.FROM_THE_LOSS.value: SayStep.FROM_AN_OUTPUT, Check.SOME_ENTRY.value: SayWalk.EMPTY_ANSWER,
           Check.PAST_FIRST_LEAF.value: SayWalk.STOPPED_AT_FIRST_LEAF,
           Check.ANEW_ON_OBJECT.value: SayState.SAME_ON_OBJECT,
           Check.NO_ENGINE_PASS.value: SayCheck.ENGINE_PASS, Check.GRADS_UNTOUCHED.value: SayCheck.GRADS_TOUCHED,
           Check.SAME_AGAIN.value: SayState.NOT_SAME_AGAIN, Check.FIRST_KEPT.value: SayState.FIRST_CHANGED,
           Check.SAME_FRESH.value: SayState.NOT_SAME_FRESH,
           Check.READ_ANEW.value: SayState.FREED_GRAPH_KEPT,
           Check.SAME_SECOND_TIME.value: SayState.OTHER_SECOND_TIME,
           Check.SET_TO_NONE_READ.value: SayCheck.SET_TO_NONE_SWAPPED,
           Check.PAST_NO_GRAD.value: SayClear.STOPPED_AT_NO_GRAD,
           Check.LIST_KEPT.value: SayCheck.LIST_CHANGED, Check.LEFT_UNRETAINED.value: SayRead.RETAINED_GIVEN,
           Check.HELD_GRAD_UNUSED.value: SayRead.HELD_GRAD_RETURNED,
           Check.ANSWER_ANEW.value: SayState.ANSWER_KEPT_ON_VALUE, Check.VALUE_KEPT.value: SayState.VALUE_CHANGED,
           Check.WARNING_RECORDED.value: SayRead.WARNING_UNRECORDED,
           Check.LEAF_APART_FROM_FLAG.value: Say.LEAF_AS_NOT_FLAG, Check.LEAF_APART_FROM_GRAD.value: Say.LEAF_AS_HELD_GRAD,
           Check.CLEARED_ALIKE.value: SayClear.ONE_LEAF_CLEARED, Check.DROPPED_KEPT.value: SayClear.CHANGED_BEFORE_DROPPED, Check.RESET_AS_FLAG.value: SayClear.RESET_AS_FLAG,
           Check.ZERO_BETWEEN_READ.value: SayCheck.ZERO_BETWEEN_SWAPPED,
           Check.SAME_FRESH_EFFECT.value: SayState.OTHER_FRESH_EFFECT, Check.ARRIVALS_SUMMED.value: SayWalk.NOT_SUMMED,
           Check.HELD_NOT_ADDED.value: SayWalk.HELD_ADDED,
           Check.SEEDED_ONE.value: SayWalk.NOT_SEEDED_ONE, Check.PAST_THE_ROOT.value: SayWalk.ROOT_ALONE,
           Check.NOT_RECURSIVE.value: SayWalk.RECURSIVE, Check.UNREACHED_SKIPPED.value: SayWalk.RAN_UNREACHED,
           Check.SCALES_WITH_GRAD.value: SayCheck.NOT_SCALED, Check.BACKWARD_AGAIN.value: SayState.OTHER_BACKWARD_AGAIN,
           Check.OWN_NOTES.value: SayState.OTHER_AFTER_LATER, Check.SENT_AGAIN.value: SayState.SENT_OTHER_AGAIN, Check.SECOND_KEPT.value: SayState.SECOND_CHANGED_LATER,
           Check.OUTPUT_APART.value: SayCheck.RETURNED_INPUT, Check.INPUT_KEPT.value: SayCheck.CHANGED_INPUT, Check.GRAD_IN_KEPT.value: SayCheck.GRAD_IN_CHANGED,
           Check.INPUT_NUMBER_KEPT.value: SayCheck.FORWARD_CHANGED_INPUT, Check.SAVED_READ.value: SayCheck.SAVED_UNREAD, Check.DECIDED_IN_BACKWARD.value: SayCheck.DECIDED_IN_FORWARD,
           Check.GRAD_ON_IN_BACKWARD.value: SayCheck.GRAD_OFF_IN_BACKWARD, Check.STEPPED_ON_GRADS.value: SayStep.STEPPED_ON_NOTHING,
           Check.DESCENDS.value: SayCheck.STEP_NOT_LR_GRAD,
           Check.STEP_BY_GRAD.value: SayStep.STEP_NOT_BY_GRAD, Check.CLEARED_FIRST.value: SayClear.FIRST_ADDED,
           Check.UNHOOKED.value: SayCheck.HOOK_CHOSE, Check.UNAPPENDED.value: SayCheck.HOOKS_APPEND, Check.RETURNED_ROOT.value: SayCheck.OTHER_ROOT,
           Check.RETURNED_AS_PASSED.value: Say.NOT_AS_PASSED,
           Check.ONE_ROOT.value: SayPass.OTHER_PASS_ROOT, Check.FLAGS_KEPT.value: SayCheck.FLAGS_IGNORED,
           Check.FLAGS_PLACED.value: SayCheck.FLAGS_SWAPPED, Check.FLAGS_AT_RECORD.value: SayCheck.FLAGS_CHANGED_AFTER,
           Check.DETACH_USED.value: SayCheck.DETACH_DROPPED,
           Check.PASSED_IN_ORDER.value: SayCheck.ARGS_SWAPPED,
           Check.RECORDED_UNCLEARED.value: SayClear.RECORDED_CLEARED,
           Check.EARLIER_KEPT.value: SayState.EARLIER_CHANGED,
           Check.READ_IN_TURN.value: SayCheck.READ_LATE, Check.GIVEN_KEPT.value: SayCheck.GIVEN_EDITED,
           Check.SEEDED_FIRST.value: SayCheck.SEEDED_AFTER, Check.PARTS_IN_ORDER.value: SayCheck.PARTS_OTHER_ORDER, Check.GENERATOR_LEFT.value: SayStep.GENERATOR_ELSEWHERE, Check.CHANGED_THROUGH_COPY.value: SayCheck.CHANGED_THROUGH_OWN_DATA,
           Check.WROTE_DETACHED.value: SayCheck.NOTHING_WRITTEN,
           Check.ONE_HOT.value: SayCheck.NOT_ONE_HOT, Check.GAVE_V.value: SayCheck.NOT_V,
           Check.ROWS.value: SayCheck.NOT_ROWS,
           Check.LEAF_PER_ENTRY.value: SayCheck.ENTRIES_ONE_LEAF, Check.ROWS_IN_ORDER.value: SayCheck.ROWS_OTHER_ORDER, Check.EVERY_ENTRY.value: SayEntries.ENTRY_LEFT_OUT,
           Check.LEAF_PER_NAME.value: SayLeaf.ONE_FOR_TWO, Check.VALUE_PER_NAME.value: Say.NAME_ALIAS,
           Check.KEYS_ASKED.value: SayShape.KEYS,
           Check.READ_WRITTEN.value: SayRead.READ_UNWRITTEN,
           Check.LEAF_ITSELF.value: SayCheck.COPY_OF_LEAF, Check.RETURNED_TRIED.value: SayInPlace.RETURNED_OTHER, Check.REFUSED_ON_DETACHED.value: SayInPlace.REFUSED_ELSEWHERE,
           Check.REFUSED_ON_GIVEN.value: SayInPlace.REFUSED_OTHER_LEAF, Check.LEAVES_NEW.value: SayState.LEAF_KEPT_GRAD, Check.HANDED_NEW.value: SayState.LEAF_HANDED_AGAIN, Check.BUILD_GIVEN_LEAF.value: SayLeaf.BUILD_GIVEN_MADE,
           Check.RAN_ON_BUILT.value: SayLeaf.BUILT_UNUSED, Check.RETURNED_UNDETACHED.value: SayLeaf.DETACHED_RETURNED, Check.STEPS_FOLLOWED.value: SayStep.STEPS_IGNORED,
           Check.COMBINE_CALLED.value: SayCheck.COMBINE_IGNORED, Check.LOSS_FN_CALLED.value: SayCheck.LOSS_FN_IGNORED,
           Check.RAN_ON_DETACHED.value: SayCheck.NOT_THE_DETACHED, Check.START_KEPT.value: SayClear.START_CLEARED,
           Check.CLEARS_ALIKE.value: SayClear.HELD_CLEARED_FIRST,
           Check.GRAPH_PER_PASS.value: Say.GRAPH_REUSED,
           Check.PRODUCT_FACTOR.value: SayCheck.PRODUCT_OWN_FACTOR, Check.READ_GIVEN.value: SayRead.GIVEN_GRAD_UNREAD,
           Check.SAME_UNDER_FILTERS.value: SayCheck.OTHER_UNDER_FILTERS,
           Check.STOPS_AT_LIMIT.value: SayLoop.PAST_THE_LIMIT, Check.REACHES_LIMIT.value: SayLoop.SHORT_OF_THE_LIMIT,
           Check.DOUBLED_BELOW_LIMIT.value: SayLoop.DOUBLED_AT_THE_LIMIT,
           Check.NAME_CALLED.value: SayWalk.NAME_UNCALLED, Check.FIRST_NOT_NONE.value: SayWalk.LATER_ENTRY, Check.NAMES_REPEATED.value: SayWalk.NAME_ONCE,
           Check.COUNTS_RECORDED.value: SayLoop.COUNT_NOT_RECORDED, Check.BRANCH_OF_X.value: SayLoop.OTHER_BRANCH,
           Check.COMPUTED_RETURNED.value: SayLeaf.COMPUTED_NOT_RETURNED,
           Check.MODE_FROM_TRAINING.value: SayCheck.CALLER_MODE, Check.DEFAULT_KEPT.value: SayCheck.OTHER_DEFAULT,
           Check.UNRECORDED_ON_THE_WAY.value: SayCheck.RECORDED_ON_THE_WAY}


# Context a check records beside a failure, and the closer sentence it picks, first match first.
_WHY: dict[Sentence, tuple[tuple[str, Sentence], ...]] = {
    SayStep.STEPPED_ON_NOTHING: (("never_called", SayStep.NEVER_STEPPED), ("other_model", SayStep.STEPPED_OTHER_MODEL), ("zero_written", SayStep.STEPPED_ON_ZEROS),
                                 ("cleared", SayStep.STEPPED_ON_CLEARED),
                                 ("before_backward", SayStep.STEPPED_BEFORE_BACKWARD)),
    SayCheck.NOT_SCALED: (("same", SayCheck.IGNORES_GRAD), ("gated", SayCheck.GATED_BY_GRAD)), SayCheck.ARGS_SWAPPED: (("one_for_both", SayCheck.ONE_FOR_BOTH),),
    SayCheck.OTHER_ROOT: (("computed_again", SayStep.LOSS_COMPUTED_AGAIN),), SayCheck.NOT_THE_DETACHED: (("detach_read", SayCheck.DETACH_ON_ONE_PATH),),  # a step's loss computed after its update; a root computed from a detach() too
    SayCheck.HOOKS_APPEND: (("rewritten", SayState.HOOKS_REWRITE),),  # hooks left that write the list over, not append
    SayCheck.GRAD_OFF_IN_BACKWARD: (("once_differentiable", SayFunction.ONCE_DIFFERENTIABLE),),  # the decorator's no_grad, not the code's
    SayCheck.NOT_APPLIED: (("swallowed", SayWalk.SWALLOWED),  # a feeder's apply raised, and backward went on
                      ("not_tuple", SayWalk.NOT_A_TUPLE),  # a feeder's apply returned a generator
                      ("short", SayWalk.FEWER_SENT),  # a feeder's apply returned no gradient for its edge into it
                      ("two_edges", SayWalk.TWO_EDGES_WAITING),  # left waiting: two edges from one feeder
                      ("zero_sent", SayWalk.SKIPPED_ZERO)),  # a node left out for a 0, not run some other way
    SayWalk.NOT_SUMMED: (("leaves_left_out", SayWalk.ORDER_LEAVES_LEFT_OUT), ("order_left_out", SayWalk.ORDER_LEFT_OUT), ("unscaled", SayWalk.UNSCALED), ("scaled_twice", SayWalk.SCALED_TWICE), ("by_name", SayWalk.BY_NAME), ("reversed", SayWalk.REVERSED), ("shifted", SayWalk.SHIFTED), ("listed_twice", SayWalk.AS_LISTED), ("first_only", SayWalk.FIRST_ONLY), ("first_dropped", SayWalk.FIRST_DROPPED), ("late", SayWalk.ARRIVED_LATE), ("leaf_early", SayWalk.LEAF_TAKEN_EARLY), ("kept_one", SayWalk.ONE_KEPT),
                          ("rounded", SayWalk.LEAF_ROUNDED)),
    SayWalk.LEAVES_MERGED: (("shared", SayWalk.LEAVES_SHARED),),  # both leaves answered, each with the sum of both
    SayWalk.INCOMPLETE: (("root", SayWalk.INCOMPLETE_ROOT), ("leaves", SayWalk.INCOMPLETE_LEAVES), ("namesake", SayWalk.INCOMPLETE_NAMESAKE)), SayWalk.ROOT_ALONE: (("root_left_out", SayWalk.ORDER_ROOT_LEFT_OUT), ("root_unrun", SayWalk.ROOT_UNRUN), ("root_skipped", SayWalk.ROOT_SKIPPED)), SayWalk.STOPPED_AT_FIRST_LEAF: (("last_left_out", SayWalk.LAST_LEFT_OUT), ("or_last", SayWalk.FIRST_OR_LAST)),
    SayWalk.NOT_NODES: (("holds_none", SayWalk.HOLDS_NONE), ("holds_value", SayWalk.HOLDS_VALUE)),  # what it held
    SayWalk.LATER_ENTRY: (("none_first", SayWalk.STOPPED_AT_NONE),),
    SayWalk.NAME_UNCALLED: (("letters", SayWalk.NAME_LETTERS),),  # a name added letter by letter
    SayCheck.READ_LATE: (("swapped", SayRead.LISTS_SWAPPED), ("one_list", SayRead.ONE_LIST), ("rows_one_list", SayRead.ROWS_ONE_LIST),
                    ("rows", SayCheck.ROWS_READ_LATE), ("first", SayCheck.FIRST_READ_LATE),
                    ("grad_data", SayRead.GRAD_DATA_KEPT),  # a list of Values sharing their numbers (.grad.data)
                    ("grad_values", SayRead.GRAD_VALUES_KEPT)),  # a list of the .grad Values themselves
    SayCheck.NOT_ROWS: (("flat", SayCheck.FLAT_ROWS),),
    SayRead.PASS_ERROR_CAUGHT: (("in_helper", SayRead.HELPER_CAUGHT), ("later_pass", SayRead.CAUGHT_THEN_PASS)),  # a function it calls caught it, not itself
    SayCheck.ROWS_OTHER_ORDER: (("one_list", SayCheck.ROWS_ONE_LIST), ("fewer", SayEntries.ROWS_FEWER), ("fewer_other", SayEntries.ROWS_FEWER_OTHER),
                           ("repeated", SayCheck.ROWS_REPEATED),  # rows left out; a row twice
                           ("of_net", SayCheck.ROWS_NOT_AS_NET)),  # output
    SayEntries.ENTRY_LEFT_OUT: (("none", SayEntries.NONE_REACHED), ("row", SayEntries.ROW_LEFT_OUT)),
    SayWalk.CHILD_FIRST: (("feeder_namesake", SayWalk.COUNTED_ONCE_NAMESAKE), ("counted_once", SayWalk.COUNTED_ONCE)),
    SayWalk.RAN_TWICE: (("listed_twice", SayWalk.RAN_AS_LISTED),  # the order it walked lists the node twice  # feeders counted once each, taken per edge
                        ("in_a_row", SayWalk.RAN_TWICE_IN_A_ROW)),  # a build engine's apply called again: not once per path
    SayLeaf.COMPUTED_NOT_RETURNED: (("given", SayLeaf.GIVEN_NOT_RETURNED), ("none", SayLeaf.NONE_NOT_RETURNED)),  # the leaf w given, returned
    SayState.FREED_GRAPH_KEPT: (("changed", SayState.KEPT_PAST_CHANGE),),  # the same y, changed in place since
    SayLoop.OTHER_BRANCH: (("dropped", SayLoop.BRANCH_DROPPED),),
    SayLoop.COUNT_NOT_RECORDED: (("below_zero", SayLoop.COUNT_BELOW_ZERO),),  # a count a formula gave, not a loop's  # the statement's y for this x made, then not returned
    SayCheck.ZERO_BETWEEN_SWAPPED: (("always", SayCheck.ZERO_ALWAYS), ("never", SayCheck.ZERO_NEVER), ("raised_true", SayClear.ZERO_UNSEEN_TRUE),
                               ("raised_false", SayClear.ZERO_UNSEEN_FALSE)),  # the other call raised
    SayClear.RECORDED_CLEARED: (("rows_zeroed", SayClear.ROWS_ZEROED_ELSEWHERE), ("rows_kept", SayClear.ROWS_KEPT_GRAD), ("rows", SayClear.ROWS_RECORDED_CLEARED), ("kept", SayClear.RECORDED_KEPT_GRAD)),
    SayCheck.ONES_OUT_OF_TURN: (("by_number", SayCheck.ONES_BY_NUMBER), ("repeated", SayCheck.ONES_REPEATED)),
    SayCheck.NOT_ONE_HOT: (("several", SayCheck.SEVERAL_HOT), ("scaled", SayCheck.NOT_ONE)),
    SayClear.START_CLEARED: (("again", SayClear.START_CLEARED_AGAIN),),  # a second call on the leaf the first left a .grad in
    SayClear.HELD_CLEARED_FIRST: (("later", SayClear.HELD_CLEARED_LATER),),  # the later call cleared, the fresh first left
    SayClear.FIRST_ADDED: (("later", SayClear.CLEARED_AFTER_BACKWARD),  # the later passes found them cleared ...
                           ("but_first", SayClear.CLEARED_BUT_FIRST)),  # ... and the last pass's gradients were left
    SayState.EARLIER_CHANGED: (("leaves", SayState.EARLIER_LEAVES_CHANGED),),
    SayCheck.OTHER_DEFAULT: (("earlier_passed", SayState.DEFAULT_AFTER_CALL),),  # the default from what a call passed
    # a list given, changed by the first call: the later calls got other inputs, no state was kept
    SayState.NOT_SAME_AGAIN: (("changed_raised", SayState.INPUT_CHANGED_RAISED), ("emptied", SayState.INPUT_EMPTIED),
                              ("changed_input", SayState.INPUT_CHANGED),
                              ("raised", SayState.RAISED_AGAIN), ("same_object", SayState.KEPT_RESULT),
                              ("error_inside", SayState.ERROR_KEPT_AGAIN), ("effect_only", SayState.EFFECT_AGAIN)),
    SayState.NOT_SAME_FRESH: (("emptied", SayState.INPUT_EMPTIED), ("changed_input", SayState.INPUT_CHANGED),
                              ("grown", SayState.NOT_SAME_GROWN), ("on_inputs", SayState.LEFT_ON_GRAPH),
                              ("unread", SayState.KEPT_WARNING_TEXT)),
    SayCheck.STEP_NOT_LR_GRAD: (("along", SayCheck.ASCENDS), ("unmoved", SayCheck.STEP_OF_NOTHING),
                                ("kept_on_leaf", SayState.STEP_KEPT_ON_LEAF)),  # the sign flipped on every step, and only then
    SayStep.STEP_NOT_BY_GRAD: (("later", SayStep.LATER_STEP_NOT_BY_GRAD),),
    SayStep.OTHER_STEP: (("one_row", SayStep.STEPS_ON_ONE_ROW), ("loss_scaled", SayStep.LOSS_SCALED), ("once_more", SayStep.STEP_ONCE_MORE),
                         ("repeated", SayStep.STEP_REPEATED), ("lr_other", SayStep.STEP_NOT_LR), ("other_loss", SayStep.STEP_OTHER_LOSS), ("ascent", SayStep.STEP_ALONG_GRAD),
                     ("decay", SayStep.STEP_DECAYED)),
    SayStep.IMPORT_LEFT_OFF: (("at_line", SayStep.IMPORT_LEFT_OFF_AT),),
    SayStep.LOSSES_ALIKE: (("went_on", SayStep.LOSSES_ALIKE_CAUGHT),),  # an engine error caught: why no step moved
    SayRead.IMPORT_SILENCED: (("raised_at", SayRead.IMPORT_RAISES_AT), ("raised", SayRead.IMPORT_RAISES),
                              ("at_line", SayRead.IMPORT_SILENCED_AT)),
    SayRead.FILTERS_LEFT: (("at_line", SayRead.FILTERS_LEFT_AT),),
    SayStep.PARAMETER_LEFT: (("zero_grad", SayStep.LEFT_AT_ZERO), ("one_layer", SayStep.LAYER_LEFT)),
    SayState.SAME_ON_OBJECT: (("first_lr", SayState.LR_OF_EARLIER_CALL),),
    SayStep.OTHER_LOSS: (("summed", SayStep.LOSS_SUMMED), ("after_update", SayStep.LOSS_AFTER_UPDATE),
                         ("after_one_update", SayStep.LOSS_AFTER_ONE_UPDATE),
                         ("rounded", SayStep.LOSS_ROUNDED), ("one_row", SayStep.LOSS_OF_ONE_ROW)),
    SayStep.LOSSES_FEWER: (("converged", SayStep.STOPPED_ON_FITTED), ("one_step_fewer", SayStep.ONE_STEP_FEWER), ("one_step_more", SayStep.ONE_STEP_MORE),
                           ("more", SayStep.LOSSES_MORE)),
    # the probe names the slip it matched
    SayCheck.NOT_V: (("implicit", SayCheck.NOT_SEEDED_Y),),  # no v given: y.backward() starts from one
    SayCheck.PRODUCT_OWN_FACTOR: (("one", SayCheck.PRODUCT_FACTOR_ONE), ("last_input", SayCheck.LAST_INPUT_LEFT_OUT),
                             ("equal_leaf", SayCheck.LEAF_BY_NUMBER), ("any_leaf", SayCheck.ANY_LEAF), ("sum_as_product", SayCheck.SUM_AS_PRODUCT),
                             ("added_along", SayCheck.ADDED_ALONG), ("by_name", SayCheck.KEPT_PER_NAME),
                             ("data_by_name", SayCheck.DATA_BY_NAME), ("data_by_last_name", SayCheck.DATA_BY_LAST_NAME),
                             ("first_own", SayWalk.FIRST_INPUT_OWN), ("last_own", SayWalk.LAST_INPUT_OWN), ("result", SayCheck.PRODUCT_RESULT_FACTOR),
                             ("one_path", SayWalk.ONE_PATH_ALONE), ("no_path", SayWalk.NO_PATH_COUNTED), ("leaf_one", SayCheck.LEAF_EDGE_ONE),
                             ("some_paths", SayWalk.SOME_PATHS_ONLY)),
    SayCheck.OTHER_UNDER_FILTERS: (("none", SayCheck.NONE_UNDER_FILTERS),),
    SayCheck.FLAGS_IGNORED: (("other", SayLeaf.WRITTEN),),  # a leaf the student's build made, beside w and x
    SayCheck.OTHER_LEAF_GRAD: (("rows_by_leaf", SayRead.ROWS_BY_LEAF), ("equal", SayRead.EQUAL_LEAF_GRAD)),  # two leaves of one number: found by ==
    SayRead.GIVEN_GRAD_UNREAD: (("data", SayRead.DATA_GRAD_READ), ("copy", SayRead.COPY_GRAD_READ)),  # v.data.grad, v.detach().grad
    SayCheck.NOT_READ_FROM_GRAD: (("leaf_itself", SayCheck.LEAF_NOT_GRAD), ("leaf_data", SayRead.LEAF_DATA_NOT_GRAD),
                             ("rounded", SayRead.ROUNDED_GRAD),  # round(w.grad.item(), 2)
                             ("hooked", SayRead.HOOK_CHOSEN_READ), ("seeded", SayRead.SEEDED_READ)),  # a clipping hook; w.grad = Value(1.0)
    SayCheck.NOT_BY_OP: (("copy", SayCheck.COPY_NOT_BY_OP),),  # shares the number of a Value an operation returned
    # no version counter shared: .data read, or a copy made otherwise (copy.copy), not detach()
    SayCheck.COPY_OF_LEAF: (("data", SayCheck.DATA_OF_LEAF), ("copy", SayLeaf.SHARED_COPY)),
    SayPass.OTHER_PASS_ROOT: (("inside", SayPass.INSIDE_FIRST_GRAPH),),  # a node of the first graph, not a new one
    Say.NOT_AS_PASSED: (("as_b", Say.PASSED_AS_B), ("as_data", Say.PASSED_DATA), ("as_detached", Say.PASSED_DETACHED)),  # b, a.data, a.detach()
    SayCheck.COMBINE_IGNORED: (("a_twice", SayInPlace.COMBINE_A_TWICE),), SayCheck.LOSS_FN_IGNORED: (("earlier", SayCheck.LOSS_FN_EARLIER), ("returns_error", SayCheck.LOSS_FN_UNCALLED)),  # called, on a as both operands; an earlier call's loss_fn called instead; no loss returned to tell by
    SayCheck.CHANGED_THROUGH_OWN_DATA: (("named", SayCheck.CHANGED_ITSELF_TOO_BY), ("as_well", SayCheck.CHANGED_ITSELF_TOO), ("in_place", SayCheck.CHANGED_ITSELF)),  # w.copy_(w_detach) after the fill; w.fill_ under no_grad, not .data
    # every item there, in another order (names.sort())
    SayCheck.LIST_CHANGED: (("reordered", SayCheck.LIST_REORDERED),),
    SayCheck.NEVER_DETACHED: (("plain_leaf", SayCheck.DETACHED_FROM_PLAIN_LEAF),),  # Value(w): no graph to cut
    SayCheck.DETACHED_ONE: (("returned", SayInPlace.DETACHED_RETURNED),), SayInPlace.RETURNED_OTHER: (("detached", SayInPlace.RETURNED_DETACHED),),  # itself returned
    SayCheck.NOT_SHARED: (("number_replaced", SayCheck.NUMBER_REPLACED), ("other_detached", SayCheck.DETACHED_OTHER),),
    SayLeaf.BUILT_UNUSED: (("never", SayLeaf.BUILD_UNCALLED),),  # build not called at all
    SayLeaf.DETACHED_RETURNED: (("entries", SayLeaf.DETACHED_LEAVES_RETURNED),),  # a detach() of each leaf of a row
    SayShape.KEYS: (("empty", SayShape.EMPTY),),  # no key at all
    SayRead.READ_UNWRITTEN: (("built_again", SayRead.READ_UNWRITTEN_BUILT_AGAIN),),
    # how a call changed a Value it was handed: its .grad cleared, zeroed or written, or its flag
    SayState.VALUE_CHANGED: (("cleared", SayState.GIVEN_GRAD_CLEARED), ("zeroed", SayState.GIVEN_GRAD_ZEROED),
                             ("written", SayState.GIVEN_GRAD_WRITTEN), ("flag", SayState.GIVEN_FLAG_CHANGED),
                             ("detached", SayState.GIVEN_DETACHED), ("renumbered", SayState.GIVEN_NUMBER_CHANGED), ("hooked", SayState.GIVEN_HOOKED)),
    SayLeaf.ONE_FOR_TWO: (("returned_twice", Say.NAME_ALIAS),),  # a leaf made for each, one returned under both  # a detach() whose .data was assigned since
}


JUDGED = frozenset({*_CHECKS.values(), *(closer for closers in _WHY.values() for _, closer in closers),
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
    SayCheck.DETACH_DROPPED: ("leaf", "leaf"),  # the leaf whose detach() the call left unused
    SayCheck.LIST_REORDERED: ("name", "name"), SayCheck.DETACHED_OTHER: ("other", "name"), SayCheck.CHANGED_ITSELF_TOO_BY: ("op", "op"), SayCheck.PARTS_OTHER_ORDER: ("order", "name"),  # the Value detach() was taken of; the method called on w; the parts' order
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
                     SayState.GIVEN_FLAG_CHANGED, SayState.GIVEN_DETACHED, SayState.GIVEN_NUMBER_CHANGED, SayState.GIVEN_HOOKED),
                    (("value", "leaf"),)),  # the Value handed to the call it changed
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
    say = _CHECKS.get(str(want.get("check")))
    if say is SayCheck.GIVEN_EDITED and want.get("holds") is True and got.get("holds") is True:
        return _given_retained(got, label)
    if say is None or want.get("holds") is not True or got.get("holds") is not False:
        return []
    if got.get(CONTEXT + "earlier_call") is True:
        say = SayState.FROM_EARLIER_CALL
    say = next((closer for key, closer in _WHY.get(say, ()) if got.get(CONTEXT + key) is True), say)
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
