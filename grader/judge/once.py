"""Sentences told once in a test's feedback, for the first label they are true of."""

from __future__ import annotations

from grader.judge.cause_groups import GRAD_ROWS, NOT_FLOATS
from grader.judge.check_sentences import SayCheck
from grader.judge.clear_sentences import SayClear
from grader.judge.entry_sentences import SayEntries
from grader.judge.inplace_sentences import SayInPlace
from grader.judge.leaf_sentences import SayLeaf
from grader.judge.read_sentences import SayRead
from grader.judge.sentences import Say, Sentence
from grader.judge.shape_sentences import SayShape
from grader.judge.state_sentences import SayState
from grader.judge.step_sentences import SayStep
from grader.judge.torch_sentences import SayTorch
from grader.judge.walk_sentences import SayWalk

# Sentences that explain at length what a call did: told for its first label only (the same
# explanation for diamond_a, diamond_b and diamond_c says nothing new), where a short sentence
# about a number is told for each label it is true of.  So is the type of the numbers a
# function returns: a Value where a float is asked for comes from one line of its code, whichever
# call or entry shows it; and a .grad set to None by the student's code (the line that does it
# sets every leaf's, in every call), or zeroed in place; so is a Value handed to a call changed by it.
_ONCE = {SayWalk.RECURSIVE, SayWalk.UNSCALED, SayWalk.SCALED_TWICE, SayWalk.ORDER_LEFT_OUT, SayWalk.ORDER_LEAVES_LEFT_OUT, SayWalk.ORDER_ROOT_LEFT_OUT, SayWalk.ROOT_UNRUN, SayWalk.ROOT_SKIPPED, SayWalk.LAST_LEFT_OUT, SayWalk.FIRST_OR_LAST, SayWalk.BY_NAME, SayWalk.REVERSED, SayWalk.FIRST_DROPPED, SayWalk.ONE_KEPT, SayWalk.SHIFTED, SayWalk.COUNTED_ONCE, SayWalk.COUNTED_ONCE_NAMESAKE, SayWalk.ROOT_ALONE, SayWalk.AS_LISTED, SayWalk.RAN_AS_LISTED, SayWalk.INCOMPLETE_LEAVES, SayWalk.NOT_SUMMED, SayWalk.LEAF_ROUNDED, SayWalk.HELD_ADDED, SayWalk.ARRIVED_LATE, SayWalk.LEAF_TAKEN_EARLY, SayCheck.NOT_READ_FROM_GRAD, SayRead.ROUNDED_GRAD, SayRead.HOOK_CHOSEN_READ, SayRead.SEEDED_READ, SayState.FROM_EARLIER_CALL,
         SayCheck.NOT_MADE_FROM, SayCheck.NOT_BY_OP, SayCheck.IGNORES_GRAD, SayCheck.NOT_SCALED, SayStep.OTHER_LOSS, SayStep.LOSS_SUMMED, SayStep.LOSS_AFTER_UPDATE, SayStep.LOSSES_REVERSED,
         SayStep.LOSS_ROUNDED, SayStep.LOSS_OF_ONE_ROW, SayStep.STEPS_ON_ONE_ROW, SayCheck.ROWS_READ_LATE, SayCheck.FIRST_READ_LATE, *NOT_FLOATS, SayClear.CLEARED_BEFORE_ONLY, SayClear.CLEARED_SOME_ONLY,
         Say.NEW_LEAF_WRITTEN, SayState.EARLIER_LEAF_WRITTEN, SayCheck.NOT_ONE_HOT, SayCheck.SEVERAL_HOT, SayCheck.NOT_ONE,
         *GRAD_ROWS, SayCheck.NOT_V,
         SayCheck.PRODUCT_OWN_FACTOR, SayCheck.PRODUCT_FACTOR_ONE, SayCheck.LEAF_EDGE_ONE, SayCheck.LAST_INPUT_LEFT_OUT,
         SayCheck.LEAF_BY_NUMBER, SayCheck.ANY_LEAF,
         SayCheck.SUM_AS_PRODUCT, SayCheck.ADDED_ALONG, SayCheck.KEPT_PER_NAME, SayCheck.DATA_BY_NAME, SayCheck.DATA_BY_LAST_NAME, SayWalk.FIRST_INPUT_OWN, SayWalk.LAST_INPUT_OWN, SayWalk.ONE_PATH_ALONE,
         SayWalk.NO_PATH_COUNTED, SayWalk.SOME_PATHS_ONLY, SayWalk.LEAF_DATA_AT_END, SayWalk.PATHS_MULTIPLIED, Say.RESULT_SWAPPED, SayCheck.NOT_SEEDED_Y,
         SayCheck.OTHER_UNDER_FILTERS, SayCheck.NONE_UNDER_FILTERS, SayRead.GIVEN_GRAD_UNREAD, SayRead.DATA_GRAD_READ, SayRead.COPY_GRAD_READ, SayLeaf.WRITTEN,
         Say.GRAD_NONE_BY_HAND, SayClear.NONE_WHERE_WRITTEN, Say.GRAD_ZEROED, SayCheck.CALLER_MODE, SayCheck.LIST_CHANGED, SayInPlace.DATA_ADDED, SayInPlace.DATA_TRUNCATED, SayInPlace.DATA_SHIFTED_MORE, SayCheck.LIST_REORDERED, SayCheck.UPDATED_FIRST, SayCheck.ONES_OUT_OF_TURN, SayCheck.ONES_REPEATED, SayCheck.ONES_BY_NUMBER,
         SayInPlace.COMBINE_A_TWICE, SayEntries.ROWS_FEWER, SayCheck.ROWS_ONE_LIST, SayCheck.ROWS_REPEATED, SayCheck.ROWS_OTHER_ORDER, SayCheck.ROWS_NOT_AS_NET,
         SayWalk.NAME_LETTERS,
         SayShape.KEYS, SayShape.EMPTY, SayTorch.ONE_BUFFER, SayTorch.KEYED_BUFFER, SayTorch.BOTH_BUFFER, SayTorch.PASSED_ON, SayTorch.ZERO_DROPPED, SayState.GIVEN_NUMBER_CHANGED,
         SayState.GIVEN_GRAD_CLEARED, SayState.GIVEN_GRAD_ZEROED, SayState.GIVEN_GRAD_WRITTEN, SayState.GIVEN_FLAG_CHANGED, SayState.GIVEN_DETACHED,
         SayState.GIVEN_HOOKED, SayState.GIVEN_RETAINED}


def told_once(say: Sentence) -> bool:
    """Whether ``say`` is told once in a test's feedback, for the first label it is true of."""
    return say in _ONCE
