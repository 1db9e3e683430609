"""The tables of ``grader.judge.checks``: the sentence for each failed CHECK fact, and the closer
sentences its recorded context picks (first match first).  Kept apart from the rules that read
them, so that a new check or cause is one more row here, not one more line in a full module.
"""

from __future__ import annotations

from grader.judge.check_sentences import SayCheck
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
from grader.judge.shape_sentences import SayShape
from grader.judge.step_sentences import SayStep
from grader.spec.facts import Check

CHECKS = {Check.LIST_OF_NODES.value: SayWalk.NOT_NODES, Check.STARTS_AT_ROOT.value: SayWalk.NOT_FROM_ROOT,
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
          Check.GRAD_LEFT.value: SayCheck.GRAD_CHANGED_AFTER, Check.READ_AS_WRITTEN.value: SayCheck.READ_AFTER_CHANGE,
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
          Check.READ_ANEW.value: SayState.FREED_GRAPH_KEPT, Check.ENGINE_SUM.value: SayCheck.BUILTIN_SUM,
          Check.INPUT_UNHOOKED.value: SayCheck.INPUT_HOOKED,
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
          Check.FLAGS_BEFORE_OPS.value: SayCheck.FLAGS_SET_LATE, Check.CHANGED_A.value: SayCheck.CHANGED_B_NOT_A,
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
WHY: dict[Sentence, tuple[tuple[str, Sentence], ...]] = {
    SayStep.STEPPED_ON_NOTHING: (("never_called", SayStep.NEVER_STEPPED), ("unchanged", SayStep.NOTHING_APPLIED), ("other_model", SayStep.STEPPED_OTHER_MODEL), ("zero_written", SayStep.STEPPED_ON_ZEROS),
                                 ("cleared", SayStep.STEPPED_ON_CLEARED),
                                 ("before_backward", SayStep.STEPPED_BEFORE_BACKWARD)),
    SayCheck.BUILTIN_SUM: (("by_hand", SayCheck.HAND_SUM),),  # e0 + e1 + ..., no constant
    SayCheck.DECIDED_IN_FORWARD: (("outside_in", SayCheck.DECIDED_OUTSIDE_IN),),  # x moved into the interval
    SayCheck.NOT_SCALED: (("same", SayCheck.IGNORES_GRAD), ("gated", SayCheck.GATED_BY_GRAD)), SayCheck.ARGS_SWAPPED: (("one_for_both", SayCheck.ONE_FOR_BOTH),),
    SayCheck.OTHER_ROOT: (("computed_again", SayStep.LOSS_COMPUTED_AGAIN), ("computed_twice", SayStep.LOSS_NOT_BACKPROPAGATED),
                          ("below_root", SayCheck.ROOT_BELOW)), SayCheck.NOT_THE_DETACHED: (("detach_read", SayCheck.DETACH_ON_ONE_PATH),),  # a step's loss computed after its update; a root computed from a detach() too
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
    SayWalk.NAME_ONCE: (("none_first", SayWalk.NAME_ONCE_AT_NONE),),  # a walk that stopped at a first entry None, or dropped names
    SayWalk.RAN_UNREACHED: (("stopped", SayWalk.STOPPED_AT_UNREACHED),),  # a break where the walk goes on
    SayWalk.NAME_UNCALLED: (("letters", SayWalk.NAME_LETTERS),),  # a name added letter by letter
    SayCheck.READ_LATE: (("swapped", SayRead.LISTS_SWAPPED), ("one_list", SayRead.ONE_LIST), ("rows_one_list", SayRead.ROWS_ONE_LIST),
                    ("rows", SayCheck.ROWS_READ_LATE), ("first", SayCheck.FIRST_READ_LATE), ("second", SayCheck.SECOND_READ_EARLY),
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
    SayState.FREED_GRAPH_KEPT: (("changed", SayState.KEPT_PAST_CHANGE), ("graph", SayState.FREED_ANSWER_KEPT),
                                  ("model", SayState.FREED_MODEL_KEPT)),  # the same y, changed in place since
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
    SayState.EARLIER_CHANGED: (("leaves", SayState.EARLIER_LEAVES_CHANGED), ("freed_id", SayState.EARLIER_FREED_CHANGED)),
    SayCheck.OTHER_DEFAULT: (("earlier_passed", SayState.DEFAULT_AFTER_CALL),),  # the default from what a call passed
    # a list given, changed by the first call: the later calls got other inputs, no state was kept
    SayState.NOT_SAME_AGAIN: (("changed_raised", SayState.INPUT_CHANGED_RAISED), ("emptied", SayState.INPUT_EMPTIED),
                              ("changed_input", SayState.INPUT_CHANGED),
                              ("raised", SayState.RAISED_AGAIN), ("same_object", SayState.KEPT_RESULT),
                              ("error_inside", SayState.ERROR_KEPT_AGAIN), ("values_inside", SayState.VALUES_KEPT_AGAIN),
                              ("effect_only", SayState.EFFECT_AGAIN)),
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
    SayStep.OTHER_LOSS: (("reversed", SayStep.LOSSES_REVERSED), ("summed", SayStep.LOSS_SUMMED), ("after_update", SayStep.LOSS_AFTER_UPDATE),
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
                             ("some_paths", SayWalk.SOME_PATHS_ONLY),
                             ("leaf_data", SayWalk.LEAF_DATA_AT_END), ("paths_multiplied", SayWalk.PATHS_MULTIPLIED)),
    SayCheck.OTHER_UNDER_FILTERS: (("none", SayCheck.NONE_UNDER_FILTERS),),
    SayCheck.FLAGS_IGNORED: (("other", SayLeaf.WRITTEN),),  # a leaf the student's build made, beside w and x
    SayCheck.OTHER_LEAF_GRAD: (("rows_by_leaf", SayRead.ROWS_BY_LEAF), ("equal", SayRead.EQUAL_LEAF_GRAD)),  # two leaves of one number: found by ==
    SayRead.GIVEN_GRAD_UNREAD: (("data", SayRead.DATA_GRAD_READ), ("copy", SayRead.COPY_GRAD_READ)),  # v.data.grad, v.detach().grad
    SayCheck.NOT_READ_FROM_GRAD: (("leaf_itself", SayCheck.LEAF_NOT_GRAD), ("leaf_data", SayRead.LEAF_DATA_NOT_GRAD),
                             ("rounded", SayRead.ROUNDED_GRAD),  # round(w.grad.item(), 2)
                             ("equal", SayRead.EQUAL_AFTER_READ),  # a formula of the number read, or item() + 0.0
                             ("changed", SayRead.CHANGED_AFTER_READ),  # -w.grad.item()
                             ("hooked", SayRead.HOOK_CHOSEN_READ), ("seeded", SayRead.SEEDED_READ)),  # a clipping hook; w.grad = Value(1.0)
    SayCheck.NOT_BY_OP: (("copy", SayCheck.COPY_NOT_BY_OP),),  # shares the number of a Value an operation returned
    # no version counter shared: .data read, or a copy made otherwise (copy.copy), not detach()
    SayCheck.COPY_OF_LEAF: (("data", SayCheck.DATA_OF_LEAF), ("copy", SayLeaf.SHARED_COPY)),
    SayPass.OTHER_PASS_ROOT: (("inside", SayPass.INSIDE_FIRST_GRAPH),),  # a node of the first graph, not a new one
    Say.NOT_AS_PASSED: (("as_b", Say.PASSED_AS_B), ("as_data", Say.PASSED_DATA), ("as_detached", Say.PASSED_DETACHED)),  # b, a.data, a.detach()
    SayCheck.COMBINE_IGNORED: (("a_twice", SayInPlace.COMBINE_A_TWICE),), SayCheck.LOSS_FN_IGNORED: (("earlier", SayCheck.LOSS_FN_EARLIER), ("returns_error", SayCheck.LOSS_FN_UNCALLED)),  # called, on a as both operands; an earlier call's loss_fn called instead; no loss returned to tell by
    SayCheck.CHANGED_THROUGH_OWN_DATA: (("data_named", SayCheck.CHANGED_DATA_TOO_BY), ("data_too", SayCheck.CHANGED_DATA_TOO),
                                        ("named", SayCheck.CHANGED_ITSELF_TOO_BY), ("as_well", SayCheck.CHANGED_ITSELF_TOO), ("in_place", SayCheck.CHANGED_ITSELF)),  # w.copy_(w_detach) after the fill; w.fill_ under no_grad, not .data
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
                             ("detached", SayState.GIVEN_DETACHED), ("renumbered", SayState.GIVEN_NUMBER_CHANGED), ("hooked", SayState.GIVEN_HOOKED),
                             ("retained", SayState.GIVEN_RETAINED)),
    SayLeaf.ONE_FOR_TWO: (("returned_twice", Say.NAME_ALIAS),),  # a leaf made for each, one returned under both  # a detach() whose .data was assigned since
}
