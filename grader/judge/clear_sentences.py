"""The sentences about gradients cleared between backward passes: when the student's code cleared
them (before each backward instead of after each record, before some passes only, before a
loop's first pass, after a training loop's first pass only, a clearing loop stopped early), and
records read from a cleared gradient.

A clearing is observed, not guessed: the watched call (``grader.spec.call``) notes, as each pass
starts, which leaves' .grad the student's code set to None or zeroed since a pass wrote them.
These follow the rules of ``grader.judge.sentences``: placeholders carry only what the
student's run shows, never a number.
"""

from __future__ import annotations

from micrograph.i18n import N_

from grader.judge.sentences import Sentence


class SayClear(Sentence):
    """One way gradients were cleared otherwise than the statement's code clears them."""

    RESET_AS_FLAG = N_("{label} gave your zero_grad set_to_none={name}, the reset text itself, not a bool: your "
                       "zero_grad took the text as true and set w.grad to None, where reset=\"zero_\" zeroes it in place.")
    SKIPPED_AS_EQUAL = N_("{label} is still exactly what backward wrote: your zero_grad left that leaf alone, which "
                          "holds the same number as {name}, an earlier leaf of the list that it cleared, and it clears "
                          "every leaf given leaves whose numbers differ: a leaf equal (==) to an earlier one was skipped "
                          "as if it were that leaf (as a lookup by == or by number does: a list's `in` finds an equal entry, "
                          "not only the entry itself).")
    SKIPPED_AS_LATER = N_("{label} is still exactly what backward wrote: your zero_grad left that leaf alone, which "
                          "holds the same number as {name}, a later leaf of the list that it cleared, and it clears "
                          "every leaf given leaves whose numbers differ: of leaves equal (==) to one another it cleared "
                          "one only, as if they were one leaf (as a lookup by number does: a dict keyed by the number keeps the "
                          "last of them).")

    RECORDED_CLEARED = N_("{label} recorded w.grad after clearing it: each record is of a cleared "
                          "gradient, not of what that step's backward wrote.")
    RECORDED_KEPT_GRAD = N_("{label} holds numbers w.grad held only once your code had cleared it, yet your code "
                            "read w.grad only before clearing it: the records kept the .grad Value itself, which "
                            "the clearing changed in place, and its number was read after that.")
    ROWS_RECORDED_CLEARED = N_("every row of {label} holds only zeros: x's .grad was read after it "
                               "was zeroed, not right after the backward pass each row records.")
    ROWS_KEPT_GRAD = N_("every row of {label} holds only zeros, which x's .grad held only once your code had zeroed "
                        "it, yet your code read x's .grad only before zeroing it: the rows kept the .grad Values, or "
                        "Values sharing their numbers (as .grad.data does), which the zeroing changed in place, and "
                        "their numbers were read after that.")
    ROWS_ZEROED_ELSEWHERE = N_("every row of {label} holds only zeros, yet your code never zeroed x's .grad, which still "
                               "holds what the backward passes wrote: the zeros in the rows are not x's gradients.")
    CLEARED_BEFORE_ONLY = N_("{label} still holds what the last backward wrote: your code cleared the "
                             "gradients between backward passes, but not after recording what the last one wrote.")
    CLEARED_SOME_ONLY = N_("{label} still holds what the last backward wrote: your code cleared it before some of the "
                           "backward passes after the first, but not before the others, nor after the last.")
    FIRST_ADDED = N_("{label} ran its first backward pass while the parameters' .grad still held the gradients the "
                     "model came with: that step added them to its own, where the statement's loop clears the "
                     "gradients at the start of every step, the first one too.")
    CLEARED_AFTER_BACKWARD = N_("{label} ran its first backward pass while the parameters' .grad still held the "
                                "gradients the model came with, and every later pass from cleared ones: your code "
                                "clears the gradients after each step's backward, not at the start of the step as "
                                "the statement's loop does, so the first backward pass added the model's old gradients "
                                "to its own.")
    CLEARED_BUT_FIRST = N_("{label} ran its first backward pass while the parameters' .grad still held the "
                           "gradients the model came with, and every later pass from cleared ones, and it left the "
                           "last pass's gradients in .grad: your code clears the gradients at the start of every step "
                           "but the first, where the statement's loop clears them at the start of the first step too, "
                           "so the first step added the model's old gradients to its own.")
    ONE_LEAF_CLEARED = N_("{label} cleared {name}.grad between its backward passes but never {leaf}.grad: the "
                          "statement clears the gradients of both leaves after each step.")
    ONE_LEAF_BY_ZERO_GRAD = N_("{label} gave your zero_grad both leaves between its backward passes, yet "
                               "{name}.grad was cleared and {leaf}.grad never: your zero_grad left {leaf}.grad as "
                               "backward wrote it.")
    ONE_LEAF_EQUAL_BY_ZERO_GRAD = N_("{label} gave your zero_grad both leaves between its backward passes, yet "
                                     "{name}.grad was cleared and {leaf}.grad never: {leaf} holds the same number as "
                                     "{name}, and your zero_grad, which clears every leaf of a list whose numbers "
                                     "differ, skipped {leaf} as if it were {name} (as a lookup by == or by number does: `in` on a list "
                                     "compares with ==: "
                                     "it finds an equal entry, not only the entry itself).")
    ONE_LEAF_EQUAL_LAST_BY_ZERO_GRAD = N_("{label} gave your zero_grad both leaves between its backward passes, yet "
                                          "{name}.grad was cleared and {leaf}.grad never: {leaf} holds the same number "
                                          "as {name}, and your zero_grad, which clears every leaf of a list whose "
                                          "numbers differ, skipped {leaf} as if it were {name} (as a lookup by number does: a dict keyed by the "
                                          "number keeps the last of equal leaves).")
    START_CLEARED = N_("{label} cleared the gradients its leaves already held before its first backward pass, "
                       "where the statement's loop adds to them and clears only after recording a step.")
    HELD_CLEARED_FIRST = N_("On a net whose parameters already held gradients, {label} set them to None or zero "
                            "before its first backward pass as the first call of a fresh import of your code, and "
                            "left them when called after other calls: whether it clears them depends on state kept "
                            "between calls, where the statement's program adds to them on every call.")
    HELD_CLEARED_LATER = N_("On a net whose parameters already held gradients, {label} set them to None or zero "
                            "before its first backward pass when called after other calls, and left them as the "
                            "first call of a fresh import of your code: whether it clears them depends on state "
                            "kept between calls, where the statement's program adds to them on every call.")
    START_CLEARED_AGAIN = N_("{label} cleared x.grad before its backward pass: called a second time on the same leaf "
                             "x, it dropped the gradient the first call had left there, where the statement's code "
                             "adds the new gradient to it.")
    CHANGED_BEFORE_DROPPED = N_("{label} changed, in place, the gradient Value p.grad held before setting p.grad to "
                               "None: a caller that kept that Value finds it changed, where the statement's call "
                               "leaves it as it was.")
    STOPPED_AT_NO_GRAD = N_("{label} stopped at the first leaf whose .grad is None: the leaves after it still hold "
                            "what backward wrote, where the statement's call skips that leaf and zeroes the others.")
    ZERO_UNSEEN_TRUE = N_("this test also calls {label}(x, loss, True) on a graph of its own, to check that your code "
                          "zeroes x's gradients only when zero_between is True, and that call raised an error: "
                          "whether it does could not be checked.")
    ZERO_UNSEEN_FALSE = N_("this test also calls {label}(x, loss, False) on a graph of its own, to check that your "
                           "code zeroes x's gradients only when zero_between is True, and that call raised an error: "
                           "whether it does could not be checked.")
    NONE_WHERE_WRITTEN = N_("{label} is None because your code set it to None (.grad = None), where the statement "
                            "leaves it as backward wrote it.")
    HOOK_CLEARED = N_("{label} differs because a hook your code registered cleared {leaf}.grad while backward ran, "
                      "before the engine added that pass's gradient to it: such a pass leaves {leaf}.grad holding its "
                      "own gradient alone, not added to what {leaf}.grad held before.")


SKIPPED_AS = (SayClear.SKIPPED_AS_EQUAL, SayClear.SKIPPED_AS_LATER)
"""A leaf zero_grad skipped as equal (==) to another it cleared: by whether that one comes later in the list."""
