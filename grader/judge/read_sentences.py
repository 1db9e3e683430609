"""The sentences about which .grad a call read, and when: none at all, only before its last
backward pass, only other Values' than the one it was given, or into one list overwritten by
the last pass.

The probes watch every read of ``.grad`` the student's file makes (``grader.spec.call``): a
result that is right or wrong by chance is told by the reads that made it.  They follow the
rules of ``grader.judge.sentences``: placeholders carry only what the student's run shows or
the probe named, never a number.
"""

from __future__ import annotations

from micrograph.i18n import N_

from grader.judge.sentences import Sentence


class SayRead(Sentence):
    """One way a call read .grad otherwise than the statement's, and the sentence that says so."""

    RETAINED_AS_EQUAL = N_("retain_grad() was called on {label}, which the statement does not ask for: it holds the "
                           "same number as {name}, which is named, and on inputs where the two differ your code leaves "
                           "it alone: a node equal (==) to a named one was taken for it (as a lookup by == or by number does: a list's `in` finds an equal "
                           "entry, not only the entry itself).")

    WARNING_UNRECORDED = N_("{label} read .grad, and the warning that read raised reached its caller unrecorded, so it "
                            "returned None: the read was not inside a warnings.catch_warnings(record=True) block.")
    IMPORT_SILENCED = N_("{label} silenced the warning reading a non-leaf's .grad gives: in code that imports your "
                         "file, that read shows no warning, where the statement's reads of a.grad, b.grad and y.grad "
                         "warn.")
    IMPORT_SILENCED_AT = N_("{label} set a warnings filter at {where} that silences the warning reading a "
                            "non-leaf's .grad gives: in code that imports your file, that read shows no warning, where "
                            "the statement's reads of a.grad, b.grad and y.grad warn; set a warnings filter only "
                            "inside warnings.catch_warnings().")
    IMPORT_RAISES = N_("{label} made the warning reading a non-leaf's .grad gives an error: in code that imports "
                       "your file, that read raises, where the statement's reads of a.grad, b.grad and y.grad warn.")
    IMPORT_RAISES_AT = N_("{label} set a warnings filter at {where} that makes the warning reading a non-leaf's "
                          ".grad gives an error: in code that imports your file, that read raises, where the "
                          "statement's reads of a.grad, b.grad and y.grad warn; set a warnings filter only inside "
                          "warnings.catch_warnings().")
    FILTERS_LEFT = N_("{label} changed the warnings filters outside warnings.catch_warnings(), and they stay changed "
                      "after it returns: its caller's code goes on with a filter it did not set.")
    FILTERS_LEFT_AT = N_("{label} changed the warnings filters at {where}, outside warnings.catch_warnings(), and "
                         "they stay changed after it returns: its caller's code goes on with a filter it did not set.")
    ROWS_ONE_LIST = N_("the same list object stands in more than one row of {label}: your code put it there more "
                       "than once (repeated it with [...] * m or appended it again, for instance), not a new list per "
                       "row, so the numbers each pass wrote into it overwrote those of the passes before.")
    NODE_CUT = N_("{label} was cut off its graph in place (as detach_() does) after build_graph made it: it is a "
                  "leaf now, so reading its .grad raises no warning, where the statement's reads of a.grad, b.grad and "
                  "y.grad warn.")
    NEVER_READ = N_("{label} never read .grad: its answer was not read through the Value's .grad.")
    EDGES_UNREAD = N_("{label} returned its numbers without ever reading a node's next_functions, so it followed "
                      "none of the paths of the graph it was given.")
    NODE_UNREAD = N_("for y = {root}, {label} never read the next_functions of a node of that graph ({op}), though "
                     "that node lies on a path from y to a leaf: no path through it was followed.")
    NOT_READ_AFTER = N_("{label} read .grad only before its last backward pass, and no .grad after it: the "
                        "gradients that pass wrote were never read from .grad.")
    GIVEN_GRAD_UNREAD = N_("{label} never read the .grad of the Value it was given, only the .grad of other Values.")
    RETAINED_GIVEN = N_("{label} called retain_grad() on the Value it was given, which the statement's code only "
                        "reads: that Value's .grad no longer warns when read, so a later call on it returns None.")
    ONE_LIST = N_("{label} is the very list the call returned for its later pass too: the numbers it read after "
                  "the first pass were overwritten in place with those of the last pass.")
    LISTS_SWAPPED = N_("{label} holds what .grad held after the later backward, and the other list what it held "
                       "after the earlier one: the two lists are returned in the other order.")
    GRAD_VALUES_KEPT = N_("{label} holds the .grad Values themselves, not the numbers they held after the pass it "
                          "records: the later backward added into those very Values in place, so it shows "
                          "that pass's numbers (.item() reads the number at the time).")
    GRAD_DATA_KEPT = N_("{label} holds Values that share their numbers with the .grad Values (as .grad.data does), "
                        "not the numbers they held after the pass it records: the later backward added into those "
                        ".grad Values in place, so it shows that pass's numbers (.item() reads the number at the time).")
    PASS_ERROR_CAUGHT = N_("{label} caught an error that one of its backward passes raised and went on: that pass "
                           "added nothing to any .grad, so the gradients read after it are those of the passes before it.")
    CAUGHT_THEN_PASS = N_("{label} caught an error that one of its backward passes raised and went on: that pass "
                          "added nothing to any .grad, and a backward pass ran after it, so the gradients read after "
                          "that one hold what the other passes added.")
    HELPER_CAUGHT = N_("{function}, which {label} calls, caught an error that a backward pass it ran raised, and "
                       "went on: the backward passes {function} ran count among those {label} ran.")
    DATA_GRAD_READ = N_("{label} never read the .grad of the Value it was given: it read the .grad of that Value's "
                        ".data, another Value holding the same number, a leaf, so that read raises no warning.")
    COPY_GRAD_READ = N_("{label} never read the .grad of the Value it was given: it read the .grad of a copy of that "
                        "Value (as detach() makes), another Value holding the same number, a leaf, so that read raises no "
                        "warning.")
    HELD_GRAD_RETURNED = N_("{label} is the number its leaf's .grad already held when the call began, written by a "
                            "backward pass through another graph that shares that leaf: the call returned that "
                            "gradient, not the sum over the paths of y's graph (the statement's walk reads no .grad).")
    ROUNDED_GRAD = N_("a number returned for {label} is a gradient the engine produced during the call, rounded to "
                      "fewer digits: the statement's code returns the number it reads as it is.")
    CHANGED_AFTER_READ = N_("a number returned for {label} is not one the engine produced during the call: your code "
                            "read gradients' numbers from .grad (item(), float() or tolist()), but returned another "
                            "number than the ones it read, where the statement's code returns the number it reads as it is.")
    EQUAL_AFTER_READ = N_("a number returned for {label} is not one the engine produced during the call: your code "
                          "read gradients' numbers from .grad (item(), float() or tolist()), but returned a number it "
                          "computed, equal to one it read, where the statement's code returns the very number it reads.")
    HOOK_CHOSEN_READ = N_("a number returned for {label} was read from a .grad that backward wrote, but a hook of "
                          "yours ran in that backward pass and chose its number.")
    SEEDED_READ = N_("a number returned for {label} was read from a .grad that backward wrote by adding to a number "
                     "your code had put in that .grad before the pass.")
    LEAF_DATA_NOT_GRAD = N_("a number returned for {label} is the number a leaf backward wrote into holds itself (its "
                            "data), not that leaf's .grad.")
    EQUAL_LEAF_GRAD = N_("{label} holds {name}'s gradient, where the statement records {leaf}'s: {name} and {leaf} "
                         "hold the same number, and your code found a leaf's entry by its number (== compares "
                         "numbers, as list.index does), not by the leaf itself.")
    ROWS_BY_LEAF = N_("{label} holds {name}'s gradient, where the statement records {leaf}'s: each of your rows "
                      "holds the gradients of one leaf only, where each row of the statement's holds every leaf's "
                      "gradient after one backward pass.")
    READ_UNWRITTEN = N_("{label} read the .grad of leaves its backward pass never reached: that pass ran through "
                        "another graph than the one whose leaves it read, so backward never wrote the .grad it read.")
    READ_UNWRITTEN_BUILT_AGAIN = N_("{label} read the .grad of the leaves of one graph and ran its backward pass "
                                    "through another: build_graph was called more than once, so backward never "
                                    "wrote the .grad it read.")
