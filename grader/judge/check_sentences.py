"""The sentences of a property a probe judged (CHECK facts, ``grader.judge.checks``): what the
student's code did where the statement's does otherwise, told by the fact the probe observed.
They follow the rules of ``grader.judge.sentences``: placeholders carry only what the student's
run shows or the probe named, never a number.
"""

from __future__ import annotations

from micrograph.i18n import N_

from grader.judge.sentences import Sentence


class SayCheck(Sentence):
    """One property of a call the probe judged, and the sentence that tells how the student's
    code broke it."""

    RAN_BEFORE_FEEDER = N_("{label}: your engine ran {ran} before {feeder}, although {feeder} sends it a gradient.")
    NOT_APPLIED = N_("{label}: your engine never called {name}'s apply, so the order it ran the nodes in "
                     "could not be watched.")
    NOT_DETACHED = N_("{label}'s constant input (the one no gradient flows to) is not a detach() of"
                      " the leaf beside it: it does not share both that leaf's number and its "
                      "version counter, as detach() does.")
    INPUT_HOOKED = N_("{label} registered a hook on {leaf}, a leaf of the input it made, that changes the gradient "
                      "backward gives it: a gradient computed for {leaf} after the call is not the one the pass sent "
                      "it, where the statement's input leaves get their gradients from backward as any leaf does.")
    # a chain written with + (``~by_hand``)
    HAND_SUM = N_("{label} is a chain of additions written with +, one node for each entry of output after the "
                  "first, where the statement makes loss with micrograph.sum, one node for every entry.")
    BUILTIN_SUM = N_("{label} is a chain of additions, one node per entry of output, the first of them "
                     "adding an entry to a constant: the graph Python's built-in sum() makes (it starts from zero), "
                     "where the statement makes loss with micrograph.sum, one node for every entry.")
    NOT_READ_FROM_GRAD = N_("a number returned for {label} is not one the engine produced during the call (a "
                            ".grad, or what grad() returned): it was computed, not read from the engine.")
    OTHER_LEAF_GRAD = N_("{label} was read from {name}.grad, where the statement records {leaf}.grad.")
    LEAF_NOT_GRAD = N_("a Value returned for {label} is a leaf backward wrote into, itself, not that leaf's .grad.")
    LIST_REORDERED = N_("{label} changed the order of the list {name} it was given (every item is still there, in "
                        "another order), where the statement's code only reads it.")
    LIST_CHANGED = N_("{label} changed the list {name} it was given: after the call it no longer holds the items "
                      "it was given, where the statement's code only reads it.")
    NOT_MADE_FROM = N_("{label} was returned by an operation of the engine, but that operation was not "
                       "computed from the Values it is asked to be computed from: an operation on a new Value "
                       "made of a number (Value(...) times one) still passes on a number computed in Python.")
    NOT_BY_OP = N_("{label} was not returned by an operation of the engine that your code called (+, *, "
                   "micrograph.mul ...): it was made another way, such as Value(...) of a number computed in Python.")
    COPY_NOT_BY_OP = N_("{label} is not the Value an operation of the engine returned to your code (+, *, "
                        "micrograph.mul ...) but a copy of it (copy.copy(...), for instance): another object "
                        "that shares that Value's number.")
    UPDATED_FIRST = N_("{label} changed w in place before its backward pass started, where the statement's step "
                       "moves w after backward, by the gradient that pass wrote.")
    DETACHED_ONE = N_("{label} called detach() or detach_() on a Value that requires grad: what your code computed "
                      "from the detached Value is recorded by no graph.")
    NEVER_DETACHED = N_("{label} never called detach() or detach_() on a Value that requires grad: "
                        "the Value without a graph was made another way.")
    DETACHED_FROM_PLAIN_LEAF = N_("{label} never called detach() on a Value that requires grad: it detached a Value "
                                  "computed from a leaf that does not require grad (made without requires_grad=True), "
                                  "which had no graph to cut; the statement's leaf w requires grad.")
    NOT_THE_DETACHED = N_("{label} ran backward on a Value that still has its grad_fn: the Value it "
                          "detached is not the one backward ran on (detach() returns a new Value and "
                          "leaves the one it is called on as it was).")
    DETACH_ON_ONE_PATH = N_("{label} ran backward on a Value that still has its grad_fn: it was computed from a "
                            "detach() and also from a Value that requires grad, so the detach() cut one path to w, not all.")
    ENGINE_PASS = N_("{label} started the engine's own backward pass (backward, grad or another "
                     "name for them), where the exercise is to write that pass yourself.")
    GRADS_TOUCHED = N_("{label} changed a leaf's .grad, where the statement leaves every .grad "
                       "alone and returns the gradients.")
    NOT_SHARED = N_("{label} does not share its number with the Value it was meant to be detached from: it "
                    "is another Value, not a detach() of it, so nothing written into {label} reaches that Value.")
    DETACHED_OTHER = N_("{label} is a detach() of {name}, not of the Value it was meant to be detached from: it shares "
                        "{name}'s number and version counter, so what is written into {label} reaches {name}, not that Value.")
    NUMBER_REPLACED = N_("{label} shares its version counter with the Value it was meant to be detached from, as a "
                         "detach() does, but no longer its number: a .data assignment gave one of them a number of its "
                         "own, so nothing written into {label} reaches that Value.")
    CHANGED_THROUGH_OWN_DATA = N_("{label} reached w's own .data and never wrote into w_detach: "
                                  "the statement changes w only through w_detach, in place.")
    NOTHING_WRITTEN = N_("{label} was given a new equal to w's number and wrote nothing into w_detach: the "
                         "statement sets w_detach to new in place (fill_ or copy_) whatever number it holds.")
    CHANGED_ITSELF = N_("{label} changed w itself in place and never wrote into w_detach: the statement "
                        "changes w only through w_detach, in place.")
    CHANGED_ITSELF_TOO_BY = N_("{label} wrote into w_detach, which shares w's number, and also called {op} on w "
                               "itself: the statement changes w only through w_detach, in place, and writes nothing "
                               "into w itself.")
    CHANGED_ITSELF_TOO = N_("{label} wrote into w_detach, which shares w's number, and also changed w itself in place: "
                            "the statement changes w only through w_detach, in place, and writes nothing into w itself.")
    CHANGED_DATA_TOO_BY = N_("{label} wrote into w_detach, which shares w's number, and also called {op} on w.data, "
                             "w's own number: the statement changes w only through w_detach, in place, and writes "
                             "nothing into w itself.")
    CHANGED_DATA_TOO = N_("{label} wrote into w_detach, which shares w's number, and also wrote into w.data, w's own "
                          "number, in place: the statement changes w only through w_detach, in place, and writes "
                          "nothing into w itself.")
    NOT_SHARED_VERSION = N_("{label} does not share its version counter with the Value it was "
                            "meant to be detached from: an in-place change of {label} is not "
                            "counted there, as it is for a detach() (.data shares the number only).")
    COMBINE_IGNORED = N_("{label} never called the combine it was given: y is not combine(a, b).")
    LOSS_FN_IGNORED = N_("{label} never called the loss_fn it was given: the loss it returned was not computed by that "
                         "loss_fn.")
    LOSS_FN_UNCALLED = N_("{label} never called the loss_fn it was given, where the statement's computes the loss it "
                          "backpropagates with that loss_fn.")
    LOSS_FN_EARLIER = N_("{label} never called the loss_fn it was given, and called the loss_fn an earlier call of "
                         "{label} was given: a loss_fn kept between calls, where the statement computes each step's "
                         "loss with the loss_fn that step is given.")
    COPY_OF_LEAF = N_("{label} is a detach() of the leaf backward wrote into (a new Value sharing its number "
                      "and its version counter), not that leaf: no graph reaches {label}.")
    DATA_OF_LEAF = N_("{label} is the .data of the leaf backward wrote into (a new Value sharing its number, "
                      "not its version counter), not that leaf: no graph reaches {label}.")
    NOT_ROWS = N_("{label} is not a list of rows, one list of Values for each input row.")
    ROWS_OTHER_ORDER = N_("{name} holds the numbers of {leaf}: your code put the rows of {label} in another order "
                          "than the rows it was given.")
    ROWS_REPEATED = N_("{name} holds the numbers of {leaf}, as another row of {label} does: your code repeated a row, "
                       "where the statement's {label} has a row of its own for each row it is made from.")
    ROWS_ONE_LIST = N_("the rows {name} are one and the same list object: your code put one list in more than one "
                       "row of {label} (repeated with [...] * m or appended again, for instance), where the "
                       "statement's {label} has a list of its own for each row.")
    ROWS_NOT_AS_NET = N_("{name} holds the numbers of {leaf}: your code put the rows of {label} in another order "
                         "than net(input) returns them.")
    ENTRIES_ONE_LEAF = N_("{name} is the very Value {leaf} is: your code made one leaf for two entries of {label}, "
                          "where each entry is a new leaf of its own.")
    FLAT_ROWS = N_("{label} is one flat list of Values: the entries of every row are in a single "
                   "list, not in one list per input row.")
    SEEDED_AFTER = N_("{label} seeded the generator (manual_seed) after it built the model: the "
                      "weights were drawn before the seed was set, so the seed does not decide them.")
    GIVEN_EDITED = N_("{label} was edited: called by your code in this test, it built a graph that "
                      "differs at {where} from the one the {label} given with the exercise builds.")
    GIVEN_NAMES = N_("{label} was edited: called by your code in this test, it built the graph the {label} given "
                     "with the exercise builds, but returned another Value of that graph as {where}.")
    GIVEN_KEPT_LEAF = N_("{label} was edited: called by your code in this test, it returned a leaf "
                         "{where} that already held a gradient, where the {label} given with the "
                         "exercise makes new leaves at each call, which hold none.")
    GRAD_CHANGED_BY_GIVEN = N_("{label} was changed after backward wrote it, by {function}, which your code called: "
                               "your {function} changes the .grad it reads, where the {function} given with the "
                               "exercise only reads it.")
    GIVEN_RETURNED = N_("{label} was edited: called by your code in this test, it returned a result that "
                        "differs from what the {label} given with the exercise returns on the same arguments.")
    ROWS_READ_LATE = N_("the earlier rows of {label} hold the very numbers x's .grad hold after the "
                        "last backward pass: they were read after it (the .grad Values kept in the "
                        "rows and read at the end, for instance), not after the pass each records.")
    NOT_V = N_("{label} started its backward pass from a gradient other than the v it was given "
               "(passed in loss's shape, [v]).")
    NOT_SEEDED_Y = N_("{label} started its backward pass from a gradient other than one, the gradient "
                      "y.backward() starts from when it is given none (d y / d y).")
    NOT_ONE_HOT = N_("{label} gave a backward pass a gradient that is not one-hot (a one among zeros).")
    ONES_OUT_OF_TURN = N_("{label} gave its backward passes one-hot gradients whose ones are not at the entries in "
                          "turn (pass j's one at entry j): its passes ran in another order than the statement's.")
    ONES_REPEATED = N_("{label} gave two of its backward passes one-hot gradients with their one at the same entry of "
                       "loss, and no pass one with its one at another entry: one row of the Jacobian was computed "
                       "twice, another never.")
    ONES_BY_NUMBER = N_("{label} gave two of its backward passes one-hot gradients with their one at the same entry "
                        "of loss, and none at another entry holding the same number: your code found an entry's "
                        "place by comparing numbers (==, as list.index() and in do), not by its position.")
    SEVERAL_HOT = N_("{label} gave a backward pass a gradient with more than one nonzero entry, "
                     "where the statement gives each pass a one-hot gradient (a one among zeros).")
    NOT_ONE = N_("{label} gave a backward pass a gradient whose one nonzero entry is not one, where "
                 "the statement gives each pass a one-hot gradient (a one among zeros).")
    SECOND_READ_EARLY = N_("the second entry of {label} is the very number w.grad held before the second backward "
                           "pass: it was read before that pass, not after it, which is the pass it records.")
    FIRST_READ_LATE = N_("{label} is the very number a .grad holds after the second backward: it was "
                         "read after that pass (from a .grad Value kept, for instance), not right after "
                         "the first pass, which it records.")
    READ_LATE = N_("{label} holds the very numbers the parameters' .grad hold after the last backward: "
                   "it was read after that pass (from the .grad Values kept, or their .data, which shares their "
                   "numbers, or by a map() or generator that ran only then, for instance), not after the pass it "
                   "records.")
    SET_TO_NONE_SWAPPED = N_("{label} reads set_to_none the other way round: with set_to_none=True it zeroed "
                             "each .grad in place, which set_to_none=False asks for, and with "
                             "set_to_none=False it set each .grad to None, which set_to_none=True asks for.")
    ZERO_ALWAYS = N_("{label} zeroed x's gradients with zero_between=False too, as it does with "
                     "zero_between=True.")
    ZERO_NEVER = N_("{label} left x's gradients as backward wrote them with zero_between=True too, as it does with "
                    "zero_between=False.")
    ZERO_BETWEEN_SWAPPED = N_("{label} reads zero_between the other way round: with zero_between=True it left "
                              "x's gradients as backward wrote them, and with zero_between=False it zeroed them.")
    GRADIENT_CUT = N_("{label} is None: under create_graph=True, Softplus.backward returned the statement's "
                      "number in no graph back to x, computed from a Value that does not reach x (x.detach(), "
                      "x.data, a number such as x.item(), or a Value kept from an earlier call).")
    GRADIENT_CUT_WHOLE = N_("{label} is None: under create_graph=True, Softplus.backward returned the statement's "
                            "number in no graph at all, neither back to x nor back to the grad it receives: the "
                            "gradient it returns was cut from its graph (detach() or detach_()) or made from numbers "
                            "only (such as x.item() and grad.item()).")
    GRAD_TAKEN_AS_NUMBER = N_("{label} is a different number from the statement's: under create_graph=True, the "
                              "gradient {function} returns has no graph back to the grad it receives (grad read "
                              "as a number, grad.item(), or cut from its graph), so the part of the second derivative "
                              "that comes through grad is left out.")
    GRADIENT_CUT_SAVED = N_("{label} is None: under create_graph=True, Softplus.backward returned the statement's "
                            "number in no graph back to x, and {name} is a Value other than x with no graph back to x "
                            "(forward runs under no_grad, so a Value it computes has none, nor has a detach() of x): a "
                            "gradient computed from it cannot be differentiated again.")
    GRAD_OFF_IN_BACKWARD = N_("{label} turned grad mode off itself (no_grad(), set_grad_enabled(False)) under "
                              "create_graph=True: the gradient it returned has no graph back to x to differentiate again.")
    RETURNED_INPUT = N_("{label} returned its input (or a view of it), not a new Value: apply's result changed "
                        "when the input was changed in place (PyTorch then refuses the backward).")
    SAVED_UNREAD = N_("{label} never read ctx.saved_tensors: a saved Value that a backward freed, or that was "
                      "changed in place after forward, is refused only when backward reads it back there, so "
                      "nothing refused this backward.")
    FORWARD_CHANGED_INPUT = N_("{label} changed the number of the x it was given: once apply returned, x no longer "
                               "held the number it was called with, where the statement's forward leaves x as it was "
                               "and returns a new Value.")
    CHANGED_INPUT = N_("{label} changed x in place: after a backward through it, x._version has moved, where the "
                       "statement's backward leaves x as it was.")
    GRAD_IN_CHANGED = N_("{label} changed the gradient it was handed (grad) in place: where a gradient flows on "
                         "unchanged, as through an addition to both its inputs, PyTorch hands every node it reaches "
                         "that very object, so the change reaches them too; the statement's backward leaves grad as it "
                         "was and returns a new Value.")
    DECIDED_IN_FORWARD = N_("{label} passed the gradient on for an x moved through .data from inside the interval "
                            "to outside it after forward, where it passes nothing for an x outside it from the start: "
                            "whether it passes the gradient on follows what x was when forward ran (a note forward "
                            "left), where the statement's backward decides from x read back from "
                            "ctx.saved_tensors when it runs, as torch.clamp's does.")
    # x moved the other way (``~outside_in``)
    DECIDED_OUTSIDE_IN = N_("{label} passed nothing on for an x moved through .data from outside the interval to "
                            "inside it after forward, where it passes the gradient on for an x inside it from the "
                            "start: whether it passes the gradient on follows what x was when forward ran (a note "
                            "forward left), where the statement's backward decides from x read back from "
                            "ctx.saved_tensors when it runs, as torch.clamp's does.")
    NOT_SCALED = N_("{label} passed on to x a gradient that does not grow in proportion to the gradient "
                    "reaching its node: with the output seeded with a larger gradient "
                    "(y.backward(gradient)), x's gradient grew by another factor.")
    GATED_BY_GRAD = N_("{label} passed a gradient on to x with the output seeded with one gradient and none (zero) "
                       "with it seeded with another (y.backward(gradient)), at the same x: whether it passes the "
                       "gradient on follows the incoming gradient, where the statement decides it by x.")
    IGNORES_GRAD = N_("{label} passed on the same gradient to x whatever gradient reached its node (the output "
                      "seeded with two different gradients, y.backward(gradient)): backward's grad argument is "
                      "the gradient of the output, and what it returns is grad times the local derivative.")
    OTHER_ROOT = N_("{label} returned a y other than the one its backward pass started from: what follows "
                    "is about the Values it returned, not the graph backward ran on.")
    ROOT_BELOW = N_("{label} started its backward pass from a Value your code computed from the y it returned, "
                    "not from that y itself: the pass's root is another node than y's.")
    HOOKS_APPEND = N_("{label} returned a list that grew when a backward pass ran through {leaf} after the "
                      "call: hooks your code registered on {leaf} append to it whenever a pass reaches them, in "
                      "that pass's order.")
    OTHER_VALUES_GRADS = N_("{label} holds {leaf}.grad: your code read the gradients of Values that are not in {of}.")
    HOOK_RECORDS = N_("{label} holds numbers a hook your code registered on {leaf} was handed during backward, "
                      "not {leaf}.grad after each pass: a hook sees the gradient one pass sends to {leaf}, before "
                      "the engine adds it to what {leaf}.grad holds.")
    HOOK_CHOSE = N_("{label} ran a backward pass in which a hook of yours replaced a gradient on its way to the "
                    "parameters: their .grad then held numbers the hook chose, not the gradients of the loss.")
    STEP_NOT_LR_GRAD = N_("{label} moved w by another amount than lr * w.grad on at least one step.")
    STEP_OF_NOTHING = N_("{label} changed w in place on a step where w.grad was not 0, but left its number as it "
                         "was: that step moved w by nothing, not by -lr * w.grad.")
    ASCENDS = N_("{label} moved w in the direction of its gradient (w.grad), not against it: a descent "
                 "step subtracts lr * w.grad.")
    FLAGS_IGNORED = N_("{label}'s backward pass wrote .grad into more or fewer leaves than its flags ask for.")
    FLAGS_CHANGED_AFTER = N_("{label}'s graph reaches {leaf}, whose requires_grad is False: the graph recorded "
                             "{leaf} while it required grad, and its flag was changed afterwards.")
    CHANGED_B_NOT_A = N_("{label} changed b in place, the Value it passed to combine as b, and never a: the "
                         "statement changes a in place and leaves b as it was.")
    FLAGS_SET_LATE = N_("{label} computed {name} from {leaf} while {leaf} did not require grad yet, so no graph "
                        "recorded {name}: {leaf}'s requires_grad was turned on only after that.")
    DETACH_DROPPED = N_("{label} called {leaf}.detach() and left the new Value it returned out: none of the Values "
                        "{label} returned is that Value or was computed from it, and detach() leaves {leaf} itself as "
                        "it was, still requiring grad.")
    FLAGS_AGAINST = N_("{label}'s backward pass went through a graph recorded with {leaf}.requires_grad="
                       "{flag}, against the flag it was given for {leaf}.")
    PARTS_OTHER_ORDER = N_("{label} returned its parts in another order: ({name}), by what the statement calls each, "
                           "where the statement returns (input, output, loss).")
    START_ELSEWHERE = N_("{label} returned the statement's Values in another order: the Value a named at the start is "
                         "the one returned as {name}, not as {of}, and the Value the addition made from it (then "
                         "changed in place) is returned under the two other names.")
    UNRECORDED_AFTER_RAISE = N_("{label} holds only what w.grad held after the first call: nothing was recorded after "
                                "the second call, which raised, where the statement records w.grad after that call too.")
    GRAD_CHANGED_AFTER = N_("{label} is the .grad Value backward wrote, which your code then changed in place: it holds "
                            "what your code left there, not what backward wrote.")
    READ_AFTER_CHANGE = N_("{label} was read from {leaf}.grad after your code had changed that .grad in place: it "
                           "is what your code left there, not the number backward wrote.")
    BY_IDENTITY = N_("{label} did otherwise when {name} was a str equal to the same option but another object "
                     "than the literal: your code tells {name} apart by which object it is (is), not by its text (==).")
    FLAGS_OTHER_LEAF = N_("{label}'s backward pass wrote .grad into another leaf than the {leaf} your build_graph "
                          "returned: that {leaf} is not in the graph the pass went through.")
    FLAGS_SWAPPED = N_("{label} made w with the requires_grad that x is meant to have, and x "
                       "with the one w is meant to have.")
    ARGS_SWAPPED = N_("{label} called {function} with w and x exchanged: the w it was given went "
                      "in as x, and the x as w.")
    ONE_FOR_BOTH = N_("{label} called {function} with the {leaf} it was given for both w and x: the other "
                      "number it was given never went in.")
    PRODUCT_OWN_FACTOR = N_("{label} is the sum over the paths with, at each {op}, the data of the input "
                            "the path goes through as the local factor, not the node's local derivative.")
    PRODUCT_RESULT_FACTOR = N_("{label} is the sum over the paths with, at each {op}, the data of the node's own result "
                               "(the product of its inputs' data) as the local factor, not the node's local derivative.")
    PRODUCT_FACTOR_ONE = N_("{label} is the sum over the paths with, at each {op}, one as the local factor "
                            "(as at an addition), not the node's local derivative.")
    LEAF_EDGE_ONE = N_("{label} is the sum over the paths with one as the local factor on each edge from a {op} "
                       "straight into a leaf's node, not the node's local derivative: the last step of such a path is "
                       "left out of its product.")
    LAST_INPUT_LEFT_OUT = N_("{label} leaves out every path that enters a node through its last input "
                             "(the last entry of its next_functions): it sums the other paths only.")
    LEAF_BY_NUMBER = N_("{label} also counts the paths that end at the other leaf, which holds the same number: "
                        "a path ended at a leaf equal (==) to the one asked about, not only at that leaf itself (is).")
    ANY_LEAF = N_("{label} also counts the paths that end at the other leaves: a path counted wherever it ended at "
                  "a leaf, not only at the leaf asked about.")
    SUM_AS_PRODUCT = N_("{label} is the sum over the paths with, at each {op} of two Values, the other input's data "
                        "as the local factor, as at a product, not the node's local derivative.")
    ADDED_ALONG = N_("{label} is the sum over the paths of each path's local derivatives added together, not "
                     "multiplied.")
    DATA_BY_NAME = N_("{label} is the sum over the paths with, at a {op}, another Value's data as the local "
                      "factor: the Value a node made was found by its node's name (the first Value whose "
                      "grad_fn has that name), not by the node itself (v.grad_fn is node).")
    DATA_BY_LAST_NAME = N_("{label} is the sum over the paths with, at a {op}, another Value's data as the local "
                           "factor: the Value a node made was found by its node's name (the last Value whose "
                           "grad_fn has that name, as a dict keyed by name keeps), not by the node itself "
                           "(v.grad_fn is node).")
    KEPT_PER_NAME = N_("{label} is the sum over the paths with one derivative kept per node name (node.name()): "
                       "different nodes of one name, such as the AccumulateGrad nodes of two leaves, were given the "
                       "same derivative, where each node has its own.")
    OTHER_DEFAULT = N_("{label} did not do what the stub's default asks: your signature has another default.")
    CALLER_MODE = N_("{label} is recorded as the grad mode around the call decides, not as training asks: forward "
                     "computed y under the caller's grad mode, where no set_grad_enabled(training) was in force.")
    RECORDED_ON_THE_WAY = N_("{label} was computed from a result the graph recorded ({op}): that operation ran "
                             "with grad mode on, where the statement computes all of y under no_grad.")
    OTHER_UNDER_FILTERS = N_("{label} returned another answer under the caller's "
                             "warnings.simplefilter('ignore') than without it.")
    NONE_UNDER_FILTERS = N_("{label} returned None under the caller's warnings.simplefilter('ignore'), and "
                            "a text without it: your code recorded no warning under that filter.")
