"""Facts: the observations that say *how* a result was produced, shared by child and parent.

A probe that only returns numbers cannot tell a gradient written by ``backward`` from one
written down by hand.  A *fact* is a plain JSON dict tagged with its kind, made in the child by
the helpers of ``grader.spec.graph``, ``grader.spec.provenance`` and ``grader.spec.origins``,
and read in the parent by ``grader.judge.differences``, which turns the difference between the
submission's fact and the reference solution's into a sentence about what the student did.

    {"fact": "grad",  "label": "w.grad", "grad": 5.0, "by": "backward", "changed": false}
    {"fact": "value", "label": "x", "type": "Value", "data": 2.0, "requires_grad": true,
     "is_leaf": true, "grad_fn": null, "retains_grad": false, "version": 0}
    {"fact": "graph", "label": "y", "leaves": ["w", "x"], "nodes": [...]}
    {"fact": "call",  "label": "train", "passes": 1, "~kept_graph": [false],
     "~grad_mode_off": false, "grad_mode_left_off": false}
    {"fact": "identity", "label": "the x returned", "of": "the leaf x given", "same": true}
    {"fact": "error", "label": "the error returned", "error": "RuntimeError: a leaf Variable ...",
     "raised_by": "engine"}
    {"fact": "result", "label": "paths(y, w)", "value": [["MulBackward0", "AddBackward0"]]}
    {"fact": "check", "label": "your order of the diamond", "check": "parents_first",
     "holds": false}

Facts compare like any observation (equal or not); the kind only shapes the explanation.  A
key that starts with ``~`` is context: never compared, only told when something else differs
(whether grad mode was off explains a missing graph, but is no mistake by itself).
Labels are chosen by the probe and name what the student knows (``"w.grad"``, ``"y"``), never
an answer.  This module is pure data (stdlib only): the child and the parent both import it.
"""

from __future__ import annotations

import enum

FACT = "fact"  # the key that marks a dict as a fact
LABEL = "label"
OWN_NODE = "a node class of your code's: "  # a custom Function's node of a class the submission made, with its name
A_CLASS = "a class, not an object of it: "  # a class where an object of it belongs (a node's class as grad_fn), by name
NAME_NOT_TEXT = "a node whose name() is not a str: "  # a node whose name() returned another type, by its name
NOT_PLAIN = "not plain: "  # a result that is not plain JSON, observed as this and its type's name
COUNTER_KIND = "a version counter of type: "  # a _version that is no int (a float counter's 1.0), by its type's name
CONTEXT = "~"  # a key that starts with it explains a difference but is never compared
REFERENCE = "reference"  # a RESULT fact's key: whose answer it is compared with, if not the statement's
PYTORCH = "pytorch"  # REFERENCE's value: PyTorch's own answer (the build track records it from torch)
RAISES = "raises"  # a RESULT fact's key: its value is the error a call raised (None: it raised none)
CLAIM = "claim"  # a RESULT fact's key: its label is a statement, its value whether it holds
KEPT_BY = CONTEXT + "kept_by"  # beside a failed state fact: the helper whose calls keep the state
ABSENT = CONTEXT + "absent"  # beside a dict's entry it has no key for: [the dict's label, the key's name]
SHARED = CONTEXT + "shared"  # beside a list's RESULT: the groups of indices of its entries that are one list object
ALIASED = CONTEXT + "aliased"  # beside a fact of a name whose Value another name holds too: that name (VALUE_PER_NAME tells it);
# or of a Value whose difference follows only from such a name (y_cut = w_cut * w_cut_detached, that still w_cut): its identity fact tells it
FOLLOWS_CALLS = CONTEXT + "follows_calls"
"""Beside a VALUE fact whose number the test's other calls move (a model the probe gives train
after those calls ran): a number of it that differs is told only where nothing else the test
observed differs (``grader.judge.implied``), since their slip would explain it."""


class Kind(str, enum.Enum):
    """What a fact is about."""

    GRAD = "grad"  # a .grad: its number, who wrote it, whether it changed since
    VALUE = "value"  # a Value's attributes: type, data, flags, grad_fn, version
    GRAPH = "graph"  # the graph behind a Value, in a form that ignores spelling
    CALL = "call"  # one call of the student's code: backward passes, grad mode
    IDENTITY = "identity"  # whether two returned objects are the same object
    ERROR = "error"  # an exception the student caught and returned, and who raised it
    RESULT = "result"  # a plain result (numbers, names, lists of them): told by its shape
    CHECK = "check"  # a property the probe judged on a result (``Check``): holds or not


class By(str, enum.Enum):
    """Who last wrote a ``.grad``."""

    BACKWARD = "backward"  # the engine: AccumulateGrad into a leaf, or retain_grad
    HAND = "hand"  # an assignment ``v.grad = Value(...)``
    CHOSEN = "chosen"  # the engine, but a hook of the student's chose the number, or it added to theirs
    NOBODY = "nobody"  # .grad is None: never written, or set to None


class RaisedBy(str, enum.Enum):
    """Where an exception the student returned came from (its traceback tells)."""

    ENGINE = "engine"  # raised inside micrograph: the engine refused something
    SUBMISSION = "submission"  # raised by the student's own code (``raise RuntimeError(...)``)
    NOBODY = "nobody"  # never raised: an exception object made by hand, or no exception
    EARLIER = "earlier"  # raised by the engine in an earlier call's pass, returned again


class Saved(str, enum.Enum):
    """A graph node's saved values."""

    NONE = "none"  # the op saves nothing (an addition): it can run backward again
    KEPT = "kept"  # still held: backward can run through this node
    FREED = "freed"  # released by a backward without retain_graph=True


class Check(str, enum.Enum):
    """A property a probe judges on what the student returned, when the result itself cannot
    be compared (a topological order: many are right).  The parent holds one sentence per
    property, said when it fails where the reference's holds."""

    LIST_OF_NODES = "list_of_nodes"  # a list of graph nodes, nothing else
    STARTS_AT_ROOT = "starts_at_root"  # root.grad_fn comes first
    EACH_ONCE = "each_once"  # no node twice
    COMPLETE = "complete"  # every node reachable from root.grad_fn is there
    PARENTS_FIRST = "parents_first"  # each node before the nodes it feeds gradient into
    KEYED_BY_LEAVES = "keyed_by_leaves"  # a dict whose keys are the graph's leaf Values
    LEAVES_APART = "leaves_apart"  # two leaves of one number, each reached, each got an entry of its own
    RUNS_ONCE = "runs_once"  # no node's backward formula ran twice
    CALLS_LOCAL_GRADS = "calls_local_grads"  # a hand-written pass called the given local_grads on some node
    BOUNDS_USED = "bounds_used"  # a Function given an interval (ex14's Clip) gives x another number for another one
    AFTER_FEEDERS = "after_feeders"  # no node ran before a node that sends it a gradient
    APPLIED = "applied"  # backward called the apply of every node it ran (its order watched through it)
    DETACHED_FROM = "detached_from"  # a node saved a detach() of a given Value (shares data and version)
    READ_FROM_GRAD = "read_from_grad"  # every number returned is one a .grad held (not a formula)
    READ_GIVEN = "read_given"  # a call read the .grad of the Value it was given itself, not only other Values'
    READ_FROM_LEAF = "read_from_leaf"  # ... and none of them is another leaf's gradient than the one recorded
    MADE_BY_OP = "made_by_op"  # a Value an engine operation returned (not Value(...) of a number)
    MADE_FROM = "made_from"  # ... from the Values given, through such operations (not Value(formula) * 1)
    DETACHED_SOME = "detached_some"  # a call detached a Value that requires grad
    NONE_DETACHED = "none_detached"  # a call detached no Value that requires grad
    UPDATED_AFTER_BACKWARD = "updated_after_backward"  # a step changed w in place only once its backward pass began
    CHANGED_AFTER_BACKWARD = "changed_after_backward"  # a call changed w in place only once its backward pass began
    CHANGE_NOT_DROPPED = "change_not_dropped"  # a step that left w unchanged caught no error the engine raised into it
    ONES_IN_TURN = "ones_in_turn"  # pass j of a Jacobian's rows is given the one-hot gradient of entry j
    NO_ENGINE_PASS = "no_engine_pass"  # a call started no backward pass of the engine's
    GRADS_UNTOUCHED = "grads_untouched"  # a call left every leaf's .grad as it found it
    SHARES_NUMBER = "shares_number"  # writing into a Value in place changes the one it came from
    SHARES_VERSION = "shares_version"  # ... and counts in its version counter (detach(), not .data)
    LOSSES_MOVE = "losses_move"  # a training loop's losses are not one number at every step
    LOSS_PER_STEP = "loss_per_step"  # a training loop returned one loss per step it was given
    NONE_LEFT = "none_left"  # a training loop that moved some parameter of its model moved every one
    SEED_USED = "seed_used"  # a model's builder given other seeds built models of other weights
    IMPORT_KEEPS_MODE = "import_keeps_mode"  # importing the student's file left grad mode on, as it found it
    IMPORT_KEEPS_WARNINGS = "import_keeps_warnings"  # ... and reading a non-leaf's .grad still shows the warning
    CALL_KEEPS_FILTERS = "call_keeps_filters"  # a call left its caller's warnings filters as it found them
    ANEW_ON_OBJECT = "anew_on_object"  # a call given an object an earlier call was given returns a result of its own
    PAST_FIRST_LEAF = "past_first_leaf"  # a hand-written pass went on after the first leaf its order reaches
    SOME_ENTRY = "some_entry"  # a dict of answers returned holds some entry (it is not empty)
    FROM_THE_LOSS = "from_the_loss"  # a loop's backward passes start from no output of the model itself
    INPUTS_ANEW = "inputs_anew"  # a loop given a new list at a freed list's id trained on the new list's rows
    BODY_RAN = "body_ran"  # a call of train ran its body: it returned no generator of its own that nothing ran
    PASSES_RAN_THROUGH = "passes_ran_through"  # no backward pass a call started raised (into code that went on)
    STEP_SIZE = "step_size"  # one training step moved each parameter by lr times its gradient of the loss
    FIRST_LOSS = "first_loss"  # a training loop's first loss is the statement's loss of the model given
    LAST_LOSS = "last_loss"  # a loop whose first loss is right returned as its last no loss of the model it left
    SAME_AGAIN = "same_again"  # a second call with the same inputs returns what the first did
    FIRST_KEPT = "first_kept"  # a first call's result is unchanged by a later call
    SAME_FRESH = "same_fresh"  # a call returns what it returns in a fresh import of the file
    INPUT_UNHOOKED = "input_unhooked"  # no entry of forward's input carries a hook that changes its gradient
    ENGINE_SUM = "engine_sum"  # a loss summed by micrograph.sum, not by Python's sum() (a chain of + from a constant)
    READ_ANEW = "read_anew"  # a call on a graph whose node took a freed one's id is not what it returned for that one
    FLAGS_KEPT = "flags_kept"  # a call's backward wrote into as many leaves as its flags ask for
    FLAGS_PLACED = "flags_placed"  # each leaf of a built graph got its own flag, not the other's
    FLAGS_AT_RECORD = "flags_at_record"  # no leaf a built graph reaches had its requires_grad turned off since
    CHANGED_A = "changed_a"  # a call that changed the Value passed to combine as b in place changed the one passed as a too
    FLAGS_BEFORE_OPS = "flags_before_ops"  # no leaf requiring grad now did not yet when an op of the call read it
    DETACH_USED = "detach_used"  # no leaf meant to require no grad had a detach() of it dropped (w.detach() as a statement)
    PASSED_IN_ORDER = "passed_in_order"  # a function passed w and x on to the helper it calls as w and x, not exchanged
    RECORDED_UNCLEARED = "recorded_uncleared"  # a loop's records are not all read from cleared gradients
    EARLIER_KEPT = "earlier_kept"  # a call leaves the Values given to earlier calls as they were
    SAME_SECOND_TIME = "same_second_time"  # a second call on the same Values does to them what the first did
    CLEARED_ALIKE = "cleared_alike"  # a loop that cleared one leaf's .grad between its passes cleared the other's too
    RESET_AS_FLAG = "reset_as_flag"  # a loop told to zero in place gave its zero_grad no reset text as set_to_none
    LIST_KEPT = "list_kept"  # a call left a list it was given as it was: the statement's code only reads it
    LEAF_APART_FROM_FLAG = "leaf_apart_from_flag"  # is_leaf is not the opposite of requires_grad on every Value
    LEAF_APART_FROM_GRAD = "leaf_apart_from_grad"  # is_leaf is not whether the Value held a .grad, on every Value
    HELD_GRAD_UNUSED = "held_grad_unused"  # a number returned is not the .grad its leaf held before the call
    ANSWER_ANEW = "answer_anew"  # a call on a Value whose attributes changed since an earlier call is not that call's answer again
    LEFT_UNRETAINED = "left_unretained"  # a call made no retain_grad() on the Value it was given: it only reads it
    NODE_KEPT = "node_kept"  # a non-leaf the call built keeps its grad_fn: not cut off in place (detach_())
    DROPPED_KEPT = "dropped_kept"  # a .grad set to None was dropped as it was, not zeroed first
    PAST_NO_GRAD = "past_no_grad"  # a clearing loop went on past a leaf without a gradient
    SET_TO_NONE_READ = "set_to_none_read"  # a clearing call's set_to_none is not read the other way round
    SEEDED_ONE = "seeded_one"  # a hand-written pass started root.grad_fn with the gradient one
    UNREACHED_SKIPPED = "unreached_skipped"  # a hand-written pass ran no node that no gradient was sent to
    ZERO_BETWEEN_READ = "zero_between_read"  # a call's zero_between is not read the other way round
    NOT_RECURSIVE = "not_recursive"  # no function of the student's nested many calls of itself (a recursive walk)
    HELD_NOT_ADDED = "held_not_added"  # a hand-written pass's answer for a leaf is not what reached it plus the .grad it held
    PAST_THE_ROOT = "past_the_root"  # a hand-written pass went on past root.grad_fn: a node ran after it, or a leaf got an entry
    ARRIVALS_SUMMED = "arrivals_summed"  # a hand-written pass went on with the sum of the gradients met at a node
    GRAD_ON_IN_BACKWARD = "grad_on_in_backward"  # under create_graph=True a Function's backward kept grad mode on
    OUTPUT_APART = "output_apart"  # a Function's output keeps its number when its input is changed in place
    INPUT_KEPT = "input_kept"  # a Function's backward left the input it saved as it was (no in-place change)
    GRAD_IN_KEPT = "grad_in_kept"  # a Function's backward left the gradient it was handed as it was
    DECIDED_IN_BACKWARD = "decided_in_backward"  # Clip.backward decides by x as it is when backward runs
    SAVED_READ = "saved_read"  # a Function's backward read back what its forward saved (ctx.saved_tensors)
    INPUT_NUMBER_KEPT = "input_number_kept"  # a Function's forward left the number of its input as it was
    BACKWARD_AGAIN = "backward_again"  # a Function's backward run again on its node (retain_graph) passes on what it did first
    SENT_AGAIN = "sent_again"  # a later backward through one unchanged graph of additions returned what the first did at each apply
    SECOND_KEPT = "second_kept"  # a second derivative through a Function is the same number after another of its backward passes ran
    OWN_NOTES = "own_notes"  # a Function node's backward passes on what it does right after its forward, also after a later apply
    SCALES_WITH_GRAD = "scales_with_grad"  # a Function's backward passes on a gradient in proportion to the one it gets
    STEPPED_ON_GRADS = "stepped_on_grads"  # every optimizer.step() found a gradient to apply
    STEP_BY_GRAD = "step_by_grad"  # every optimizer.step() of a loop moved each parameter by -lr * the .grad it found
    CLEARED_FIRST = "cleared_first"  # a training loop cleared the gradients its model came with before its first backward
    DESCENDS = "descends"  # every gradient step moved the parameter by lr times its gradient, against it
    RETURNED_ROOT = "returned_root"  # the y a call returned is the root a backward pass of the call started from
    RETURNED_AS_PASSED = "returned_as_passed"  # a Value returned under a name is the one the code passed on under it
    ONE_ROOT = "one_root"  # every backward pass of a call started from the root its first pass started from
    UNAPPENDED = "unappended"  # a list a call returned stays as it was when a backward pass runs through its leaves later
    UNHOOKED = "unhooked"  # no hook of the student's chose the gradient a loop's backward wrote into a parameter
    SAME_FRESH_EFFECT = "same_fresh_effect"  # a call does to its Values what it does in a fresh import
    READ_IN_TURN = "read_in_turn"  # a record of one backward pass was read before a later pass changed its .grad
    GENERATOR_LEFT = "generator_left"  # a call left the generator where seeding it and building the model leave it
    SEEDED_FIRST = "seeded_first"  # a model's builder seeded the generator before drawing its weights, not after
    GIVEN_KEPT = "given_kept"  # a function given with the exercise, called by the student's code, built the given graph
    GAVE_V = "gave_v"  # a call's one backward pass started from the gradient vector it was given
    ONE_HOT = "one_hot"  # every backward pass of a call started from a one-hot gradient (a one among zeros)
    ROWS = "rows"  # a matrix returned is a list of rows (one list per input row), not one flat list
    ROWS_IN_ORDER = "rows_in_order"  # each row of a matrix made from rows given holds the numbers of the row at its place
    EVERY_ENTRY = "every_entry"  # a Value is computed from every entry of a matrix (a loss summing a layer's outputs)
    LEAF_PER_ENTRY = "leaf_per_entry"  # each entry of a matrix of new leaves is a Value no other entry is
    LEAF_PER_NAME = "leaf_per_name"  # each leaf a call returned under a name is a Value no other name holds
    READ_WRITTEN = "read_written"  # a call that read leaves' .grad read that of a leaf its backward passes wrote into
    KEYS_ASKED = "keys_asked"  # a dict a call returned has the keys the statement's docstring names, and no other
    VALUE_PER_NAME = "value_per_name"  # each Value a call returned under a name (leaf or not) is one no other name holds
    START_FIRST = "start_first"  # a list of a start Value and the one made from it, changed in place, holds the start first
    PARTS_IN_ORDER = "parts_in_order"  # a call returned its parts (input, output, loss) in the statement's order
    BY_TEXT = "by_text"  # a call given a str equal to the statement's option, another object than the literal, answers alike
    CHANGED_THROUGH_COPY = "changed_through_copy"  # a Value was changed only through its detached copy: not its own .data, nor in place itself
    WROTE_DETACHED = "wrote_detached"  # a call wrote in place into the number its detached copy holds (even that number)
    COMBINE_CALLED = "combine_called"  # a call used the combine function it was given, on two Values (a and b)
    LOSS_FN_CALLED = "loss_fn_called"  # a call computed its loss with the loss_fn it was given (context: or an earlier call's)
    RAN_ON_DETACHED = "ran_on_detached"  # a call that detached a Value ran no backward pass from an operation's node
    GRAPH_PER_PASS = "graph_per_pass"  # each backward pass of a loop started from a graph no earlier pass started from
    START_KEPT = "start_kept"  # a loop's first pass added to the gradients its leaves already held
    CLEARS_ALIKE = "clears_alike"  # gradients a net came with: cleared, or left, alike on a later call and a fresh first one
    RETURNED_UNDETACHED = "returned_undetached"  # a Value returned under a name is no detach() of the one its graph holds
    STEPS_FOLLOWED = "steps_followed"  # calls of a loop given different step counts ran different numbers of passes
    BUILD_GIVEN_LEAF = "build_given_leaf"  # a function given build handed it Values no operation made (the leaf itself)
    RAN_ON_BUILT = "ran_on_built"  # a call given build ran backward on the y build returned (no graph of its own)
    RECORDED_AFTER_RAISE = "recorded_after_raise"  # a record taken after a call that raised, as after one that worked
    GRAD_LEFT = "grad_left"  # a leaf's .grad Value returned is left as backward wrote it, not changed in place after
    HANDED_NEW = "handed_new"  # each call handed the function it was given a leaf no earlier call had handed it
    LEAVES_NEW = "leaves_new"  # a call's first pass wrote into no leaf an earlier call made that still held a gradient
    RETURNED_TRIED = "returned_tried"  # the Value a call returned is the one its in-place operation was tried on
    REFUSED_ON_DETACHED = "refused_on_detached"  # the backward an error returned was refused was tried on a detach() of the call
    REFUSED_ON_GIVEN = "refused_on_given"  # the in-place change an error returned was refused was tried on the leaf given
    LEAF_ITSELF = "leaf_itself"  # a Value returned as a leaf is no copy sharing the number of a leaf backward wrote into
    SAME_UNDER_FILTERS = "same_under_filters"  # a call answers the same under the caller's simplefilter("ignore")
    PRODUCT_FACTOR = "product_factor"  # a sum over paths is not one a slip makes (a factor, a last input left out)
    DEFAULT_KEPT = "default_kept"  # a call with an argument left out does what the stub's default asks
    STOPS_AT_LIMIT = "stops_at_limit"  # a doubling loop's count is not that of one going on at y == limit
    REACHES_LIMIT = "reaches_limit"  # a doubling loop's y is no longer below its limit when the loop stops
    DOUBLED_BELOW_LIMIT = "doubled_below_limit"  # a doubling loop doubled y only while y was below its limit
    COUNTS_RECORDED = "counts_recorded"  # a loop's count is the number of doublings the graph of its y records
    NAME_CALLED = "name_called"  # a list of node names holds no node's name method itself (node.name, not called)
    FIRST_NOT_NONE = "first_not_none"  # a chain of node names is no walk's that left a node but by its first entry not None
    NAMES_REPEATED = "names_repeated"  # ... nor the walk's names with each name it met again left out
    BRANCH_OF_X = "branch_of_x"  # a call's graph is not the one its if builds for an x on the other side of its test
    COMPUTED_RETURNED = "computed_returned"  # a call returned the Value with the statement's graph that it computed
    MODE_FROM_TRAINING = "mode_from_training"  # what a forward records follows its training flag, not the caller's grad mode
    UNRECORDED_ON_THE_WAY = "unrecorded_on_the_way"  # an unrecorded result was made from no Value the graph recorded
    VALUE_KEPT = "value_kept"  # a call that builds from or reads Values it is handed left their flags and .grad as it found them
    WARNING_RECORDED = "warning_recorded"  # a call that returned None let no warning of its .grad read reach its caller
    READ_AS_WRITTEN = "read_as_written"  # a gradient returned was not read from a .grad the code changed in place since backward wrote it


COMMUTATIVE = frozenset({"AddBackward0", "MulBackward0"})
"""Ops whose inputs may come in any order: ``x + w`` and ``w + x`` are the same graph."""

SUMS = frozenset({"AddBackward0", "SumBackward0"})
"""Ops that ``graph(..., flat=True)`` merges into one n-ary sum: Python's ``sum``, a chain of
``+`` and ``micrograph.sum`` spell the same sum."""

FLAT_SUM = "Sum"
"""The op name of a merged sum in a flat graph (not an engine name: no spelling is preferred)."""

UNNAMED = "?"
"""A leaf that is none of the Values the probe named (made inside the student's function)."""

DRAWN_AS = CONTEXT + "drawn_as"
"""An unnamed leaf's name in the drawing only (``graph.graph_below``'s ``drawn``), never compared."""


def is_fact(observation: object, kind: Kind | None = None) -> bool:
    """Whether ``observation`` is a fact (of ``kind``, if given)."""
    if type(observation) is not dict or type(observation.get(FACT)) is not str:
        return False
    return kind is None or observation[FACT] == kind.value
