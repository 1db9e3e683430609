"""The sentences about changing a Value in place: its version counter, and when the change came
against the graph and the backward pass that used it.

An in-place change (``a.add_(1)``, ``w_detach.fill_(new)``) moves the version counter a node checks
before it uses what it saved; a change through ``.data`` moves none.  Whether backward refuses a
change, and which number a result holds, depends on when the change came: before the graph saved
the Value, between the forward and backward, or after backward ran.  They follow the rules of
``grader.judge.sentences``: placeholders carry only what the student's run shows, never a number.
"""

from __future__ import annotations

from micrograph.i18n import N_

from grader.judge.sentences import Sentence


class SayInPlace(Sentence):
    """One kind of difference in what an in-place change did, and the sentence that explains it."""

    # the version counter (VALUE facts)
    NEVER_IN_PLACE = N_("{label} has a version counter still at 0: no in-place operation of the engine changed it.")
    NEVER_IN_PLACE_DATA = N_("{label} has a version counter still at 0: no in-place operation of the engine changed "
                             "it; your code reached it through .data, and a change through .data is not counted.")
    IN_PLACE = N_("{label} was changed in place (its version counter moved), where the statement's is not.")
    IN_PLACE_DETACHED = N_("{label} was changed in place through a detach() of it, which shares its version counter, "
                           "so the counter moved, where the statement's does not move (a change through .data is not "
                           "counted).")
    IN_PLACE_MORE = N_("{label} was changed in place more times than the statement asks.")
    IN_PLACE_FEWER = N_("{label} was changed in place fewer times than the statement asks.")
    INFERENCE_VALUE = N_("{label} was made under inference_mode, not no_grad: it is an inference value "
                         "(is_inference() is True), which has no version counter and, outside that block, may "
                         "not be changed in place, made to require grad or saved for backward; the statement's, "
                         "made under no_grad, is an ordinary Value.")
    INFERENCE_VALUE_RECORDED = N_("{label} was made under inference_mode: it is an inference value (is_inference() "
                                  "is True), which has no version counter and, outside that block, may not be "
                                  "changed in place, made to require grad or saved for backward; the statement's is "
                                  "an ordinary Value that its graph records.")
    DATA_THROUGH_DATA = N_("{label} holds a different number from the statement's: your code changed it "
                           "through .data, which moves no version counter and which the engine never refuses.")
    DATA_UNCHANGED = N_("{label} still holds the number it came with, where the statement's call changes it.")
    DATA_FROM_INPUT = N_("{label} holds the number the statement's change gives when made from {name}: your code "
                         "changed it using {name}, where the statement uses the number {label} held.")
    DATA_TRUNCATED = N_("{label} holds new cut to a whole number, where the statement's holds new as it is: your "
                        "code wrote a whole number made from new (int(new), for instance).")
    DATA_SHIFTED_MORE = N_("{label} holds the number the statement's change gives it, moved once more by as much: "
                           "your code changed it through .data twice (or by twice as much once), where the statement "
                           "changes it once.")
    DATA_ADDED = N_("{label} holds the number it came with plus new: your code added new to {name}, where the "
                    "statement sets {name} to new.")
    DATA_BEFORE_CHANGE = N_("{label} was computed from {name} before your code changed {name} through "
                            ".data: {label} holds the number for the unchanged {name}.")
    DATA_AFTER_CHANGE = N_("{label} was computed from {name} after your code changed {name}: {label} holds the "
                           "number for the changed {name}, where the statement computes {label} before the change.")
    BACKWARD_FIRST = N_("{label} is None: your code ran backward before changing a in place (the Value it passed "
                        "to combine as a was changed only after the backward pass had started), so backward found "
                        "no change to refuse.")
    NEVER_CHANGED = N_("{label} is None: your code never changed the leaf w in place (its version counter did not "
                       "move), so the engine had no in-place change of a leaf that requires grad to refuse.")
    CHANGED_BEFORE_SAVED = N_("{label} is None: your code changed a in place before passing it to combine, so "
                              "y's node saved a as already changed, and backward found no change to refuse.")
    LEAF_UNDER_SET_GRAD = N_("{label} is None: your code changed the leaf w in place with grad mode off "
                             "(set_grad_enabled(False)), where the engine lets a leaf that requires grad change and "
                             "raises nothing; the statement's change runs with grad mode on, and the engine refuses it.")
    LEAF_UNDER_INFERENCE = N_("{label} is None: your code changed the leaf w in place inside inference_mode(), "
                              "with grad mode off, where the engine lets a leaf that requires grad change and raises "
                              "nothing; the statement's change runs with grad mode on, and the engine refuses it.")
    LEAF_IN_DECORATED = N_("{label} is None: your code changed the leaf w in place inside {function}, a function of "
                           "yours decorated to run with grad mode off, where the engine lets a leaf that requires grad "
                           "change and raises nothing; the statement's change runs with grad mode on, and the engine "
                           "refuses it.")
    LEAF_UNDER_NO_GRAD = N_("{label} is None: your code changed the leaf w in place with grad mode off (no_grad), "
                            "where the engine lets a leaf that requires grad change and raises nothing; the "
                            "statement's change runs with grad mode on, and the engine refuses it.")
    LEAF_NOT_YET_REQUIRING = N_("{label} is None: your code changed w in place while w did not require grad (its "
                                "requires_grad was off as the in-place operation ran, and was set on after it), so "
                                "the engine had no change of a leaf that requires grad to refuse; the statement's w "
                                "requires grad when it is changed in place, and the engine refuses it.")
    LEAF_THROUGH_DETACHED = N_("{label} is None: your code changed w's number in place through a detach() of w, "
                               "which requires no grad, so the engine refused nothing; the statement changes w "
                               "itself in place, and the engine refuses that.")
    COMBINE_A_TWICE = N_("{label} passed the same Value to combine as a and as b: y is combine(a, a), where the "
                         "statement's is combine(a, b), its b made from w.")
    RETURNED_OTHER = N_("{label} returned as w another Value than the leaf your code tried the in-place operation "
                        "on (a new Value made after it), where the statement returns that leaf, left unchanged.")
    RETURNED_DETACHED = N_("{label} returned as w a detach() of the leaf your code tried the in-place operation on, "
                           "in place of that leaf: a new Value that requires no grad, where the statement returns the "
                           "leaf itself, left unchanged.")
    REFUSED_OTHER_LEAF = N_("{label} returned the error the engine raised for an in-place change of another leaf "
                            "than the w it was given: the update of that w is not what raised it.")
    REFUSED_ELSEWHERE = N_("{label} returned the error of a backward your code called on a Value that neither "
                           "detach() returned nor was computed from one: not the error of z.backward() for "
                           "the detached z.")
    ERROR_ON_DETACHED = N_("{label} is the error the engine raised for a backward your code tried on a detached "
                           "Value (what detach() returned, a Value computed from it, or one detach_() cut from its "
                           "graph), which requires no grad: \"{error}\".")
    ALIAS_CHANGED = N_("{label} is not {of}: your code took {of} as a copy sharing this Value's number (a detach() "
                       "or its .data), not this Value itself, which the in-place addition then changed.")
    CHANGED_BEFORE_BACKWARD = N_("{label} changed w in place before y.backward() ran, where the statement changes "
                                 "it only after backward, when the graph is done with it.")
    DETACHED_RETURNED = N_("{label} returned what detach() returned for a Value that requires grad, in place of "
                           "that Value: a new Value that records no graph.")
    # a step's update (CHECK facts)
    CHANGE_DROPPED = N_("{label} caught the error that the engine's {function}() raised when your code called it, "
                        "and went on.")
