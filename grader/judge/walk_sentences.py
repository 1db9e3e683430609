"""The sentences about a walk of the graph written by hand (ex10's ``grad_fn_chain``, ex13's
``topological_order`` and ``backprop``): which edge a chain of names went down, which property of
a topological order a list breaks, and how the gradients that met at a node were passed on.  They
follow the rules of ``grader.judge.sentences``: placeholders carry only what the student's run
shows or the probe named, never a number.
"""

from __future__ import annotations

from micrograph.i18n import N_

from grader.judge.sentences import Sentence


class SayWalk(Sentence):
    """One way a hand-written order or backward pass differs, and the sentence that explains it."""

    NOT_NODES = N_("{label} is not a list of the graph's nodes.")
    HOLDS_NONE = N_("{label} holds None, where the order holds the graph's nodes only: an entry (None, 0) of "
                    "next_functions leads to no node, and the order leaves it out.")
    HOLDS_VALUE = N_("{label} holds a Value, where the order holds the graph's nodes only: a leaf's place in it is its "
                     "AccumulateGrad node, the node of its edge in next_functions, not the leaf itself.")
    NOT_FROM_ROOT = N_("{label} does not start at root.grad_fn.")
    TWICE = N_("{label} lists a node more than once.")
    INCOMPLETE = N_("{label} leaves out a node that is reachable from root.grad_fn.")
    INCOMPLETE_ROOT = N_("{label} leaves out root.grad_fn, the node of the root itself, where the statement's order "
                         "starts with it: every other node is reached from it.")
    INCOMPLETE_NAMESAKE = N_("{label} leaves out a node that is reachable from root.grad_fn, while another node "
                             "of the same name() is in it.")
    INCOMPLETE_LEAVES = N_("{label} leaves out every AccumulateGrad node (where a leaf's gradient arrives), and "
                           "only those, where the statement's order holds every node reachable from root.grad_fn, "
                           "AccumulateGrad nodes included.")
    INCOMPLETE_FED = N_("{label} leaves out a node that is reachable from root.grad_fn, though every node that feeds "
                        "gradient into it is in it; one of those, {op}, is reached by more than one edge: a walk that "
                        "expands {op} once for each edge reaching it, not once, counts the edges below it twice, and "
                        "a node whose count never comes down to zero is left out.")
    TAKEN_PER_NODE = N_("{label} leaves out a node that is reachable from root.grad_fn: the count of incoming edges "
                        "of {op} counted both entries of next_functions through which a {feeder} feeds it, but came "
                        "down by one for that {feeder}, not one per entry, so it never reached zero.")
    CHILD_FIRST = N_("{label} puts a node before a node that feeds gradient into it.")
    COUNTED_ONCE = N_("{label} puts a {op} before a node that feeds gradient into it: its count of incoming edges "
                      "counted the {feeder} that feeds it through two entries of next_functions once, but came down "
                      "by one for each entry, so it reached zero before every node feeding it had come.")
    COUNTED_ONCE_NAMESAKE = N_("{label} puts a {op} before a node that feeds gradient into it: its count of incoming "
                               "edges counted another {op}, one that feeds it through two entries of next_functions, "
                               "once, but came down by one for each entry, so it reached zero before every node "
                               "feeding it had come.")
    NOT_LEAF_KEYS = N_("{label} has keys that are not leaf Values of the graph.")
    LEAVES_MERGED = N_("{label} has no entry for {name}, but one for {leaf}, another leaf of the same number: "
                       "the two got one entry (tell leaves apart by identity, is, not by == or number).")
    LEAVES_SHARED = N_("{label} gives {name} and {leaf}, two leaves of the same number, one gradient, the sum of "
                       "the gradients sent to both: the two were added up as one leaf (tell leaves apart by "
                       "identity, is, not by == or number).")
    NO_LOCAL_GRADS = N_("{label} never called local_grads, which the statement asks it to pass each node's gradient "
                        "on with: the tests follow the walk through its calls, and see no node run any other way.")
    RAN_FEWER = N_("{label} is smaller than the statement's: your backprop never ran some node that the "
                   "statement's runs (one a gradient reaches).")
    RAN_MORE = N_("{label} is larger than the statement's: your backprop ran some node that the statement's never "
                  "runs (one no gradient reaches in its walk).")
    RAN_TWICE = N_("{label} ran some node more than once (once per path, not once per node).")
    RAN_AS_LISTED = N_("{label} ran local_grads on a node once for each time the order your topological_order "
                       "returned lists it: that order lists a node more than once.")
    SHIFTED = N_("{label} gave a node the gradient local_grads returned for another entry of its sender's "
                 "next_functions: local_grads returns one gradient per entry, None entries included, so pairing "
                 "its gradients with the nodes left once the None entries are dropped hands each gradient after a "
                 "None to the wrong node.")
    REVERSED = N_("{label} gave each node's inputs the gradients local_grads returned for them in reverse order: "
                  "local_grads returns one gradient per entry of next_functions, in the same order, but your code "
                  "handed each one to the input at the mirrored position (next_functions read from its end), not to "
                  "the input at its own position.")
    AS_LISTED = N_("{label} used a node once for each time the order your topological_order returned lists it, "
                   "each time with the gradients that had reached it by then, not once with their sum: that order "
                   "lists a node more than once.")
    RECURSIVE = N_("{label} walked the graph recursively: {function} called itself deeper and deeper along the "
                   "chain, one call inside another, where the statement asks for a walk without recursion (an "
                   "explicit stack or queue you push to and pop from).")
    ROOT_ALONE = N_("{label} ran local_grads on root.grad_fn alone: none of the nodes it sent gradients to ran "
                    "after it, and no leaf got an entry. A walk does that when it returns after its first node (a "
                    "return inside its loop), or when it walks the order from its end (reversed), where every other "
                    "node comes before root.grad_fn and so before any gradient has reached it.")
    # an engine that leaves out a node every gradient sent to which was 0 (``build_order.order_facts``)
    SKIPPED_ZERO = N_("{label}: your engine never ran {name}: every gradient sent to it was 0, and backward left it "
                      "out, where PyTorch runs every node its graph reaches, whatever gradient reached it, 0 too.")
    # a node left waiting for a second gradient through an edge its feeder already sent through (``order_facts``)
    TWO_EDGES_WAITING = N_("{label}: your engine never ran {name} (never called its apply), although every node that "
                           "sends it a gradient ran, {feeder} through two edges: a node's dependency count is one for "
                           "each edge that reaches it, two for {feeder}'s, and backward takes one off it for each "
                           "gradient that arrives through an edge, so that the node runs once the count is down to 0.")
    # a node one of whose feeders' apply raised an error that backward caught and went on (``order_facts``)
    SWALLOWED = N_("{label}: your engine never ran {name} (never called its apply): the apply of {feeder}, a node "
                   "that sends it a gradient, raised {error}, and backward went on without it, where PyTorch's "
                   "backward stops there and raises that error to its caller.")
    # a node one of whose feeders' apply returned no tuple (a generator) (``order_facts``)
    NOT_A_TUPLE = N_("{label}: your engine never ran {name} (never called its apply), and {feeder}, a node that sends "
                     "it a gradient, returned a {type} from its apply, where an apply returns a tuple of one gradient "
                     "per edge.")
    # a node one of whose feeders' apply returned no gradient for its edge into it (``order_facts``)
    FEWER_SENT = N_("{label}: your engine never ran {name} (never called its apply): {feeder}'s apply returned "
                    "fewer gradients than {feeder} has edges, so an edge of it into {name} got none, and a node "
                    "runs only once a gradient has come through each edge that reaches it.")
    RAN_TWICE_IN_A_ROW = N_("{label} called the apply of {name} twice in a row: backward calls each node's apply "
                            "once, when every gradient for it has arrived, with their sum.")
    # the walk stopped there (``~stopped``)
    STOPPED_AT_UNREACHED = N_("{label} ran local_grads on no node after the first node of its order that no "
                              "gradient reached, and gave no leaf after it an answer, though your local_grads calls "
                              "returned gradients for them: the statement's walk passes over such a node and goes on "
                              "with the nodes after it.")
    RAN_UNREACHED = N_("{label} called local_grads on a node that none of your local_grads calls sent a gradient to.")
    NOT_SEEDED_ONE = N_("{label} called local_grads on root.grad_fn with a gradient other than one, which d root / d root is.")
    ORDER_LEFT_OUT = N_("{label} never went on from a node that your local_grads calls sent a gradient to (no call "
                        "of local_grads on it, or for a leaf's node no entry in the answer), and the order your "
                        "topological_order returned leaves that node out.")
    ORDER_ROOT_LEFT_OUT = N_("{label} never called local_grads and gave no leaf an entry, and the order your "
                             "topological_order returned leaves out root.grad_fn, the node the statement's walk seeds "
                             "with the gradient one: a walk along that order never meets the one node a gradient has "
                             "reached.")
    ROOT_UNRUN = N_("{label} never called local_grads and gave no leaf an entry, though the order your "
                    "topological_order returned holds root.grad_fn: the walk never ran root.grad_fn, the node the "
                    "statement's walk seeds with the gradient one, so no gradient went on from it.")
    ROOT_SKIPPED = N_("{label} never called local_grads on root.grad_fn, and the nodes root.grad_fn feeds went on with "
                      "one more than your local_grads calls sent them: the walk gave the inputs of root.grad_fn the "
                      "gradient one each, where the statement's walk seeds root.grad_fn itself with one and passes on "
                      "what local_grads returns for it.")
    LAST_LEFT_OUT = N_("{label} has no entry for the leaf of the last node of the order your topological_order "
                       "returned, an AccumulateGrad node your local_grads calls sent a gradient to, while every other "
                       "node of that order sent one went on: the walk left out the last node of the order, where it "
                       "goes on to the end of the order.")
    FIRST_OR_LAST = N_("{label} ran no node after the first AccumulateGrad node of the order its topological_order "
                       "returned, the last node but one, and has no entry for the leaf of the last node: the walk "
                       "stopped at the first leaf it answered, or left out the last node of the order, where it goes "
                       "on to the end of the order.")
    ORDER_LEAVES_LEFT_OUT = N_("{label} never went on from the AccumulateGrad nodes (where a leaf's gradient arrives) "
                               "that your local_grads calls sent a gradient to, so their leaves have no entry in the "
                               "answer: the order your topological_order returned holds no AccumulateGrad node.")
    SCALED_TWICE = N_("{label} multiplied each gradient local_grads returned by the gradient that had reached its node "
                      "before passing it on, where local_grads(node, grad) has already multiplied grad in.")
    UNSCALED = N_("{label} called local_grads with the gradient one at every node, not with the gradient that had "
                  "reached that node, and returned for each leaf the plain sum of what those calls sent it: what reached "
                  "a node never multiplied what local_grads returned for it.")
    NOT_SUMMED = N_("{label} used, at a node that your local_grads calls sent more than one gradient to, a "
                    "gradient that is not their sum (as the gradient passed on, or returned for a leaf).")
    HELD_ADDED = N_("{label} is the sum of the gradients your local_grads calls sent to that leaf's node plus the "
                    "number the leaf's .grad already held when the call began, as backward adds into a .grad: the "
                    "statement's walk reads no .grad, and returns that sum.")
    ONE_KEPT = N_("{label} used, at a node that your local_grads calls sent more than one gradient to, one of "
                  "those gradients instead of their sum (as the gradient passed on, or returned for a leaf): "
                  "where paths meet, their gradients add up, and a node is used once all of them have arrived.")
    LEAF_ROUNDED = N_("{label} returned, for a leaf whose node your local_grads calls sent more than one gradient to, "
                      "their sum rounded to fewer digits: the statement returns that sum as it is.")
    BY_NAME = N_("{label} kept the gradients reaching the nodes under each node's name (node.name()), not under "
                 "the node itself: nodes of one name, such as two {op} nodes, shared one entry, and a node went on "
                 "with what had reached any node of that name.")
    FIRST_DROPPED = N_("{label} passed on none of the gradients local_grads returned for the first entry of a "
                       "node's next_functions, only the others: the node at each node's first edge got nothing from "
                       "it.")
    FIRST_ONLY = N_("{label} passed on only the first of the gradients local_grads returned for a node, the one for "
                    "the first entry of its next_functions: the nodes at its other edges got nothing from it.")
    ARRIVED_LATE = N_("{label} ran local_grads on a node before every gradient your local_grads calls sent to it "
                      "had arrived: where paths meet, a node runs once every node that feeds it has run.")
    LEAF_TAKEN_EARLY = N_("{label} returned for {leaf} only the gradients sent by the nodes before its node in the "
                          "order your topological_order returned, which puts a node feeding it after it.")
    NAME_UNCALLED = N_("{label} holds the method node.name itself where the statement's holds the str that "
                       "node.name() returns: the call is missing.")
    NAME_LETTERS = N_("{label} holds single characters where the statement's holds node names: your code added each "
                      "name to the list character by character (a list += a str extends it by the str's characters), "
                      "not as one entry.")
    LATER_ENTRY = N_("{label} goes on from {op} through a later entry of its next_functions than the first one "
                     "that is not None.")
    NAME_ONCE = N_("{label} holds {op} once, where the statement's holds it for each node of that name the walk "
                   "meets, and it meets more than one.")
    NAME_ONCE_AT_NONE = N_("{label} holds {op} once and ends at {name}, whose first entry of next_functions is None "
                           "(an input that needs no gradient): the statement's walk goes on from there through the "
                           "first entry that is not None, and meets {op} more than once.")
    STOPPED_AT_NONE = N_("{label} ends at {op}, whose first entry of next_functions is None (an input that needs "
                         "no gradient): the walk stopped there instead of going on through the first entry that "
                         "is not None.")
    FIRST_INPUT_OWN = N_("{label} is the sum over the paths with, at a {op}, the data of its first input as the local "
                         "factor on both of its edges: the path through the first input got that input's own data, "
                         "where a product passes each factor the other factor's data.")
    LAST_INPUT_OWN = N_("{label} is the sum over the paths with, at a {op}, the data of its last input as the local "
                        "factor on both of its edges: the path through the last input got that input's own data, "
                        "where a product passes each factor the other factor's data.")
    # a sum over paths some of whose paths were left out (a running total replaced, not added to)
    ONE_PATH_ALONE = N_("{label} is the product of the local derivatives along one path alone: the other paths "
                        "from y to that leaf were not added to it.")
    NO_PATH_COUNTED = N_("{label} is zero, though paths from y reach that leaf: the product along none of them "
                         "was added to it.")
    LEAF_DATA_AT_END = N_("{label} is the sum over the paths with each path's product also multiplied by the leaf's "
                          "own data where the path reaches it: a path stops at the leaf's node, which adds no factor "
                          "to its product.")
    PATHS_MULTIPLIED = N_("{label} is the product of the paths' products, not their sum: the chain rule adds the "
                          "products along the paths from y to that leaf, where they were multiplied together.")
    SOME_PATHS_ONLY = N_("{label} is the sum over some of the paths from y to that leaf only: the products along "
                         "the others were not added to it.")
    EMPTY_ANSWER = N_("{label} returned an empty dict: no leaf has an entry.")
    STOPPED_AT_FIRST_LEAF = N_("{label} ran no node after the first AccumulateGrad node of the order its "
                               "topological_order returned: the walk stopped at the first leaf it answered, where it "
                               "goes on to the end of the order.")

