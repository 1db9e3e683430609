"""Every sentence the grader says about a difference between a submission and the reference.

One table, whole sentences with named placeholders, so a translation catalogue can hold each
one as it stands.  The placeholders only ever carry what the *student's* run shows or what the
probe named (``{label}`` is "w.grad", ``{op}`` is the submission's own grad_fn name): never a
number, and never what the reference computed.  Each sentence states a fact about this
student's run, so none of them can be untrue for a student they are shown to.
"""

from __future__ import annotations

import enum
from pathlib import Path

import grader
from micrograph.i18n import N_, Translator

from grader.judge.labels import shown_fields

_ = Translator("grader", Path(grader.__file__).parent / "locale")


class Sentence(str, enum.Enum):
    """A table of sentences: each member one kind of difference, and the sentence that explains
    it.  Members live in the tables below it (``Say``), in ``SayCheck`` (properties a probe
    judged), in the build track's ``SayTorch``, in
    ``SayInPlace`` (in-place changes and when they came), in ``SayState`` (state kept between
    calls), in ``SayLeaf`` (where a leaf the statement's graph has not sits), in ``SayRead`` (which
    .grad a call read, and when), in ``SayWalk`` (a walk of the graph written by hand), in
    ``SayClear`` (gradients cleared: when, and what was read of them), in ``SayStep`` (a
    training loop's loss and steps), in ``SayPass`` (where a later backward pass started) and in
    ``SayLoop`` (ex10's if and while loop); this
    base holds what they share, how a sentence is said."""

    def __call__(self, **fields: str) -> str:
        """The sentence in the student's language, its placeholders filled."""
        return _(self.value, **shown_fields(fields))


class Say(Sentence):
    """The sentences that compare a submission with the statement's reference."""

    # a .grad (GRAD facts)
    GRAD_BY_HAND = N_("{label} holds a value that backward did not write: it was assigned by hand.")
    GRAD_NEVER_WRITTEN = N_("backward never wrote {label}: it is still None.")
    GRAD_STILL_BACKWARD = N_("{label} still holds the gradient backward wrote, where the statement "
                            "assigns it by hand.")
    RETAINED_NEVER_WRITTEN = N_("backward never wrote {label}, although retain_grad() was called: no "
                                "backward pass through that node ran after the call (retain_grad() "
                                "keeps the gradients of later passes only).")
    GRAD_WRITTEN = N_("{label} holds a gradient from backward, where it is meant to be None here.")
    GRAD_ZEROED = N_("{label} was zeroed in place by your code after backward wrote it: here it is meant to be None.")
    GRAD_SET_BY_HAND = N_("{label} holds a value assigned by hand, where it is meant to be None here.")
    GRAD_CHANGED = N_("{label} was changed after backward wrote it.")
    GRAD_NOT_CHANGED = N_("{label} is still exactly what backward wrote: it was not changed in place.")
    NEW_LEAF_WRITTEN = N_("no backward pass of your code wrote {label}: they wrote into a leaf your "
                          "code made, not the leaf you were given.")
    GRAD_NUMBER = N_("backward wrote {label}, but its number differs from the statement's.")
    GRAD_FACTOR = N_("backward wrote {label}, but its number differs from the statement's: backward multiplied "
                     "the incoming gradient by a local derivative other than the statement's (the number grows "
                     "in proportion when the output is seeded with another gradient).")
    GRAD_NONE_BY_HAND = N_("{label} is None because your code set it to None (.grad = None).")
    GRAD_HAND_NUMBER = N_("{label} was assigned by hand, and its number differs from the statement's.")
    GRAD_CHOSEN = N_("backward wrote {label}, but a hook of yours ran in that backward pass and chose its number.")
    GRAD_SEEDED = N_("backward wrote {label} by adding to a number your code had put in .grad before the pass.")
    # a Value (VALUE facts)
    NOT_A_VALUE = N_("{label} is of type {type}, not a Value computed by the engine.")
    UNTRACKED = N_("{label} was not recorded by the graph: it has no grad_fn and does not require grad.")
    DETACHED_COPY = N_("{label} is a detach() of the Value {name} returned: a new Value sharing its number, "
                       "with no grad_fn, that does not require grad.")
    DATA_COPY = N_("{label} is the .data of the Value {name} returned: a new Value sharing its number, with no "
                   "grad_fn, that does not require grad.")
    IS_LEAF = N_("{label} is a leaf (no grad_fn), but here it is meant to be computed from other Values.")
    NOT_LEAF = N_("{label} is not a leaf: it was made by {op}, but here it is meant to be a leaf "
                  "(no operation recorded).")
    OTHER_OP = N_("{label} was made by {op}, which is not the operation the statement describes.")
    REQUIRES_GRAD = N_("{label} has requires_grad={flag}, unlike the statement's.")
    RETAINS = N_("retain_grad() was called on {label}, which the statement does not ask for.")
    NOT_RETAINED = N_("retain_grad() was not called on {label} before backward.")
    DATA = N_("{label} holds a different number from the statement's.")
    NOT_A_FLOAT = N_("{label} is of type {type}, not a Python float.")
    NOT_A_FLOAT_STAR = N_("{label} is of type {type}, not a Python float: the {name} your code calls is micrograph's "
                          "{name}, which returns a Value; `from micrograph import *` at {where} put it in place of "
                          "Python's built-in {name}.")
    NOT_A_FLOAT_IMPORTED = N_("{label} is of type {type}, not a Python float: the {name} your code calls is "
                              "micrograph's {name}, which returns a Value, imported at {where} in place of Python's "
                              "built-in {name}.")
    NOT_A_FLOAT_INT_SEED = N_("{label} is of type {type}, not a Python float: backprop seeded root.grad_fn with an int, "
                              "not a float, and local_grads, handed an int at {op}, returned Values.")
    # the graph (GRAPH facts)
    NO_GRAPH = N_("{label} has no graph: the engine recorded no operation that made it.")
    NO_PASS_GRAPH = N_("{label} went through no graph: no backward pass started.")
    TOO_BIG = N_("{label}'s graph is far larger than the statement's: check your loop.")
    NO_LEAF = N_("{label}'s graph never reaches {leaf}.")
    EXTRA_LEAF = N_("{label}'s graph reaches {leaf}, where the statement's does not.")
    OTHER_LEAF = N_("{label}'s graph reaches a leaf the statement's does not.")
    DATA_LEAF = N_("{label}'s graph reaches {leaf}: your {leaf} requires grad, where the statement's is data "
                   "(no grad), which no graph records.")
    LEAF_ELSEWHERE = N_("{label}'s graph reaches {leaf} as a Value an operation made, not as the leaf "
                        "the statement's graph has: the leaf yours reaches is another Value.")
    MISSING_LEAF = N_("{label} is missing a leaf that the statement's graph has.")
    MISSING_LEAVES = N_("{label} is missing several leaves that the statement's graph has.")
    NOT_FROM = N_("{label} is not computed from the {name} you returned.")
    NAMES_EXCHANGED = N_("The Values returned as {label} and {partner} are exchanged: the one returned as {label} "
                         "matches the statement's {partner} (its number, operation and flags), and the other way round.")
    NOT_AS_PASSED = N_("The Value returned as {label} is not the one your code passed to combine as a.")
    PASSED_AS_B = N_("The Value returned as {label} is the one your code passed to combine as b, not the one it "
                     "passed as a.")
    PASSED_DATA = N_("Your code passed combine as a the .data of the Value returned as {label}, not that Value "
                     "itself: .data is another Value with the same number that requires no grad and has no grad_fn, "
                     "so a graph built from it does not reach {label}.")
    PASSED_DETACHED = N_("As a, your code passed combine a detach() of the Value returned as {label}, not that Value "
                         "itself: a new Value sharing its number and its version counter, with no grad_fn, that does "
                         "not require grad, so a graph built from it does not reach {label}.")
    NAME_ALIAS = N_("The Value returned as {label} is the very one returned as {name}: one Value under two names.")
    NAME_OUTSIDE = N_("The Value returned as {label} is not in {of}'s graph, where the statement's is: {of} was "
                      "computed from another Value in its place.")
    NAME_PLACED = N_("The Value returned as {label} is not the one {of}'s graph has where the statement's has that "
                     "name: it is another Value of that graph.")
    NODE_OP = N_("{label}'s graph differs at {where}: your graph has {op} there.")
    OWN_NODE = N_("{label}'s {op} is a node of a class your code made and set as its Function's _backward_cls, "
                  "not the one Function makes: what it says it saved and freed is not the engine's.")
    NODE_INPUTS = N_("{label}'s graph differs at {where}: your {op} takes different inputs.")
    ROOT_OP = N_("{label}'s graph differs at its root: your graph has {op} there.")
    NODE_RSUB = N_("{label}'s graph differs at {where}: your graph has {op} there, the node of a plain Python number "
                   "minus a Value, where the statement's subtracts from a Value.")
    ROOT_RSUB = N_("{label}'s graph differs at its root: your graph has {op} there, the node of a plain Python number "
                   "minus a Value, where the statement's subtracts from a Value.")
    ROOT_INPUTS = N_("{label}'s graph differs at its root: your {op} there takes different inputs.")
    NODE_SWAPPED = N_("{label}'s graph differs at {where}: your {op} takes its inputs in the other order.")
    ROOT_SWAPPED = N_("{label}'s graph differs at its root: your {op} there takes its inputs in the other order.")
    OP_FEWER = N_("{label}'s graph records {op} fewer times than the statement's.")
    OP_MORE = N_("{label}'s graph records {op} more times than the statement's.")
    FREED = N_("{label}'s graph has freed its saved values: backward ran through it without retain_graph=True.")
    KEPT = N_("{label}'s graph still holds its saved values: backward has not freed them.")
    NOT_SAVED = N_("{label}'s {op} saved no value with ctx.save_for_backward: backward has "
                   "nothing to free, and no version to check for in-place changes.")
    NOT_MADE = N_("{label}'s graph holds a number its own operations do not make from its leaves "
                  "({where}): it was changed through .data afterwards, or not computed by the engine.")
    # one call of the student's code (CALL facts)
    NO_BACKWARD = N_("{label} ran no backward pass, where the statement's call does.")
    BACKWARD = N_("{label} started a backward pass, where the statement's {label} runs none.")
    MORE_BACKWARD = N_("{label} ran backward more times than the statement asks.")
    FEWER_AFTER_DETACH = N_("{label} started fewer backward passes than the statement asks; after its first pass "
                            "began, it called detach() or detach_() on a Value that requires grad.")
    FEWER_BACKWARD = N_("{label} ran backward fewer times than the statement asks.")
    GRAD_MODE_OFF = N_("grad mode was off (no_grad) while {label} ran, so the graph did not record "
                     "what it computed then.")
    GRAD_MODE_OFF_INFERENCE = N_("grad mode was off (inference_mode()) while {label} ran, so the graph did not "
                                 "record what it computed then.")
    GRAD_MODE_OFF_SET = N_("grad mode was off (set_grad_enabled(False)) while {label} ran, so the graph did not "
                           "record what it computed then.")
    GRAD_MODE_OFF_DECORATED = N_("grad mode was off while {label} ran: it called {function}, a function of yours "
                                 "decorated to run with grad mode off, so the graph did not record what {function} "
                                 "computed.")
    GRAD_MODE_ON = N_("{label} computed nothing with grad mode off: none of its operations ran under no_grad.")
    GRAD_MODE_FLAG = N_("{label} computed nothing with grad mode off: none of its operations ran under no_grad; it "
                        "changed {name} in place while {name} did not require grad, its requires_grad switched off "
                        "before that change and on again after it.")
    KEPT_FEWER = N_("{label} let backward free the graph (no retain_graph=True) in a pass where "
                    "the statement keeps it for a later pass.")
    KEPT_BY_CREATE = N_("{label} kept the graph (create_graph=True, which keeps it as retain_graph=True does) in "
                        "a pass where the statement lets backward free it.")
    KEPT_MORE = N_("{label} kept the graph (retain_graph=True) in a pass where the statement lets backward free it.")
    # the call's last pass (``~last_pass``): no pass comes after it
    KEPT_ON_LAST = N_("{label} kept the graph (retain_graph=True) in its last backward pass, where the statement "
                      "frees it: no pass comes after that one, and the operands mm saved outlive the call.")
    # the flag a pass was given is the opposite of the call's own argument retain_graph (``~retain_graph_given``)
    FREED_AGAINST_GIVEN = N_("{label} let backward free the graph (no retain_graph=True) in a pass, though its own "
                             "argument retain_graph is True: the statement keeps the graph in that pass.")
    KEPT_AGAINST_GIVEN = N_("{label} kept the graph (retain_graph=True) in a pass, though its own argument "
                            "retain_graph is False: the statement lets backward free it in that pass.")
    NEW_ROOT = N_("{label} started backward from a Value it made itself, not from the Values it was given.")
    DETACHED_GIVEN = N_("{label} cut a Value it was given off its graph, in place (as detach_() does): it had a "
                        "grad_fn when the call began and has none after it.")
    OTHER_GRAPH = N_("{label} ran its backward passes on different graphs: a later pass started "
                     "from a graph built again, not from the first pass's graph.")
    ROOTS_OF_ONE_GRAPH = N_("{label} started its backward passes from different nodes of one graph: the first pass "
                            "from {root}, a later one from {op}.")
    GRAPH_REUSED = N_("{label} started a later backward pass from the very graph an earlier pass had started "
                      "from: that y was backpropagated again, not built again for the step.")
    ENGINE_WALK = N_("{label} called the engine's own backward walk (a function of "
                     "micrograph.engine), where the exercise is to write that walk yourself.")
    LEFT_OFF = N_("{label} returned with grad mode still off: your code switched it off outside a with, which "
                  "restores it.")
    LEFT_ON = N_("{label} returned with grad mode on, where it was off when it was called: the mode "
                 "your code set outlives the call.")
    NOT_CLEARED = N_("{label} ran backward while .grad still held the gradient of an earlier "
                     "pass: backward added to it instead of starting from nothing.")
    NONE_CLEARED = N_("{label} ran backward while .grad still held the gradient of an earlier pass: no parameter's "
                      ".grad was zeroed or set to None since that pass, so backward added to it.")
    CLEARED = N_("{label} cleared .grad (None or zero) before a backward pass where the statement "
                 "lets backward add to the gradient an earlier pass left.")
    CLEARED_BETWEEN = N_("{label} cleared a leaf's .grad (set it to None or zero) between two of its backward "
                         "passes, where the statement keeps the gradient the earlier pass wrote.")
    INPUTS_GIVEN = N_("{label} gave its backward pass inputs=: that pass writes the .grad of only the Values "
                      "inputs= names, and of no other leaf.")
    GRAD_CALL = N_("{label} computed gradients with grad(), which writes no .grad, where the "
                   "statement runs backward().")
    UNREACHED = N_("{label} ran backward from a value that does not depend on every parameter "
                   "it was given: the graph never reaches some of them.")
    # an exception the student returned (ERROR facts)
    ERROR_CLASS = N_("{label} is the exception class {type} itself, not an exception object that was raised.")
    NOT_AN_ERROR = N_("{label} is of type {type}, not the exception object itself.")
    NONE_NOR_ERROR = N_("{label} is of type {type}, where the statement's call raises no error here and returns None.")
    NO_ERROR = N_("{label} is None: no error was caught, where the statement's call raises one.")
    CAUGHT_NOT_RETURNED = N_("{label} is None, but the engine's {function}() raised an error when your code called "
                             "it: your code caught that error and did not return it.")
    AN_ERROR = N_("{label} is an exception, \"{error}\", where the statement's call raises none.")
    OTHER_ERROR = N_("{label} is another error than the statement's code raises here: \"{error}\".")
    OTHER_ERROR_AFTER = N_("{label} is another error than the statement's code raises here: \"{error}\", whose "
                           "message parts from the statement's right after \"{text}\".")
    NOT_RAISED = N_("{label} was made by hand: the engine did not raise it.")
    RAISED_EARLIER = N_("{label} is an exception the engine raised during an earlier call, not "
                        "during this one: the call returned an error kept from before.")
    # a plain result (RESULT facts): its shape, never its numbers
    RESULT_NONE = N_("{label} is None, where the statement's is not.")
    LEAF_AS_NOT_FLAG = N_("{label}'s is_leaf is the opposite of its requires_grad on every Value it was given, "
                          "where the statement's is not: being a leaf is not the same as not requiring grad.")
    LEAF_AS_HELD_GRAD = N_("{label}'s is_leaf is True on every Value it was given that held a .grad, and False on "
                           "every other, where the statement's is not: a leaf need not hold a gradient, nor is a "
                           "Value that holds one a leaf.")
    NONE_THOUGH_HELD = N_("{label} is None, although {name}.grad held a gradient after backward: your code "
                          "returned None in its place.")
    NONE_OTHER_BUILD = N_("{label} is None: your code read {name}.grad from a leaf one build_graph call made, where "
                          "backward ran through another call's graph, whose {name}.grad holds a gradient.")
    RESULT_NOT_NONE = N_("{label} is not None, where the statement's is None.")
    RESULT_TEXT_NOT_NONE = N_("{label} is \"{text}\" here, where the statement's is None.")
    RESULT_TYPED_NOT_NONE = N_("{label} is {type} here, where the statement's is None.")
    NO_ENTRY = N_("{of} has no entry for {name}, where the statement's has one.")
    EXTRA_ENTRY = N_("{of} has an entry for {name}, where the statement's has none.")
    RESULT_TYPE = N_("{label} is not the kind of result the statement's is: yours is {type}.")
    RESULT_NUMBER = N_("{label} is a different number from the statement's.")
    ROW_SUMMED = N_("{label} is a different number from the statement's: {name}'s row holds a single entry, whose number is "
                    "the sum of every entry of mm(x, y): the product's entries were added up into one, where the "
                    "statement's {name} is mm(x, y) itself, an entry per column of y.")
    DERIVATIVE_OTHER = N_("{label} is a different number from the statement's, though the gradient "
                          "backward returned there has the statement's number: backward computes it "
                          "with other operations than sigmoid(x), whose derivative differs.")
    RESULT_FLAG = N_("{label} is {flag}, unlike the statement's.")
    RESULT_TEXT = N_("{label} is \"{text}\" here, which differs from the statement's.")
    RESULT_FEWER = N_("{label} has fewer entries than the statement's.")
    RESULT_EMPTY = N_("{label} is empty, where the statement's is not.")
    RESULT_MORE = N_("{label} has more entries than the statement's.")
    RESULT_MORE_LAST = N_("{label} has more entries than the statement's: its last entry, \"{text}\", is "
                          "one too many.")
    RESULT_ORDER = N_("{label} holds the statement's entries, but in another order.")
    RESULT_REVERSED = N_("{label} holds the statement's entries, but in another order: the statement's order reversed.")
    RESULT_FIRST_LEFT_OUT = N_("{label} holds the statement's entries without its first one, which yours leaves out.")
    RESULT_SWAPPED = N_("{label} holds under {name} the entry the statement's holds under {leaf}, and the other way "
                        "round.")
    RESULT_KEYS = N_("{label} has other keys than the statement's.")
    RESULT_REPEATS_LEFT_OUT = N_("{label} holds each of the statement's entries once, where the statement's holds "
                                 "some of them more than once: yours leaves out an entry that repeats an earlier one.")
    ENTRIES_ONE_LIST = N_("{label} holds one list object as several of its entries, and that list is none of the "
                          "statement's entries: your code used the same list more than once (appended it again, or "
                          "repeated it with [...] * n), not a copy of it, so those entries all show that list as it "
                          "was when the call returned.")
    RESULT_ALIKE = N_("the entries of {label} are all the same, where the statement's differ from one another.")
    RESULT_BOTH_ALIKE = N_("{label} holds two lists that are equal, where the statement's two differ from each other.")
    # identity (IDENTITY facts)
    NEW_OBJECT = N_("{label} is a new object, not {of}.")
    RETURNED_AS_OTHER = N_("{label} is the very Value returned as {name}, not {of}.")  # an older object, not a new one
    SAME_OBJECT = N_("{label} is still {of}, not a new object.")
    NOT_THAT_VALUE = N_("{label} is of type {type}, not a Value: the statement's is {of} itself.")  # that very Value
