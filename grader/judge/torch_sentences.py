"""The build track's sentences: a result of the student's engine beside PyTorch's.

The build track's expected answers were recorded from torch 2.13 (``build_track_torch.json``), so
its sentences name PyTorch where the exercises' name the statement.  They follow the same rules as
``grader.judge.sentences``: placeholders carry only what the student's run shows, never a number.
"""

from __future__ import annotations

from typing import Any

from micrograph.i18n import N_

from grader.judge.sentences import Sentence
from grader.spec.facts import CONTEXT


class SayTorch(Sentence):
    """One kind of difference from PyTorch, and the sentence that explains it."""

    TORCH_NONE = N_("{label} is None, where PyTorch's is not.")
    TORCH_NOT_NONE = N_("{label} is not None, where PyTorch's is None.")
    TORCH_TYPE = N_("{label} is not the kind of result PyTorch's is: yours is {type}.")
    TORCH_NUMBER = N_("{label} is a different number from PyTorch's.")
    # a leaf's .grad set by a function other than store_grad (``grader.spec.build_writes``)
    WRITTEN_BESIDE = N_("{label} is a different number from PyTorch's: your AccumulateGrad.apply set that leaf's "
                        ".grad without calling store_grad, so the sum this stage's store_grad makes never reached it.")
    # a retained non-leaf's .grad changed by a backward that never handed it to store_grad, or a sum
    # store_grad was handed the parts of and left one of (``grader.spec.build_writes.store_watched``)
    RETAINED_BESIDE = N_("{label} is a different number from PyTorch's: that backward changed the retained non-leaf's "
                         ".grad without handing it to store_grad, so the sum this stage's store_grad makes never "
                         "reached it.")
    STORE_REPLACED = N_("{label} is a different number from PyTorch's: your store_grad, handed the retained non-leaf's "
                        "gradient while its .grad held a number, left .grad holding that gradient alone, not the two "
                        "added.")
    CLEARED_BEFORE_STORE = N_("{label} is a different number from PyTorch's: the retained non-leaf's .grad held a number "
                              "when that backward started, and None when it handed the value to store_grad: the "
                              "earlier gradient was dropped before the sum was made.")
    # a claim that a backward added to a retained .grad, where that .grad was dropped before store_grad
    CLEARED_NOT_ADDED = N_("{label} in PyTorch, but not in your engine: the retained non-leaf's .grad held a number "
                           "when that backward started, and None when it handed the value to store_grad: the earlier "
                           "gradient was dropped before the sum was made.")
    # ... where store_grad, handed that gradient while .grad held a number, left it alone
    REPLACED_NOT_ADDED = N_("{label} in PyTorch, but not in your engine: your store_grad, handed the retained "
                            "non-leaf's gradient while its .grad held a number, left .grad holding that gradient "
                            "alone, not the two added.")
    # ... where that backward changed the retained .grad without handing it to store_grad
    BESIDE_NOT_ADDED = N_("{label} in PyTorch, but not in your engine: that backward changed the retained non-leaf's "
                          ".grad without handing it to store_grad, so the sum this stage's store_grad makes never "
                          "reached it.")
    # a .grad left None where the engine's store_grad or AccumulateGrad.apply drops a 0 (``~zero_dropped``, ex17)
    ZERO_DROPPED = N_("{label} is None, where PyTorch's is not; your {function}, given a gradient of 0 alone, leaves "
                      ".grad None, where it writes every gradient it is given, 0 too.")
    # two leaves' gradients, one given both summed and the other 0 (``~one_buffer``, ex17's ``_one_op``)
    ONE_BUFFER = N_("Of the two leaves, one got the gradients sent to both leaves' AccumulateGrad nodes, summed, and "
                    "the other got 0: your backward put the two nodes' gradients in one buffer, as under a key both "
                    "share, such as node.name() or node.sequence_nr (every AccumulateGrad has the same name(), "
                    "\"torch::autograd::AccumulateGrad\", and the same sequence_nr), where each node has a buffer of "
                    "its own, keyed by the node itself. So {label} is a different number from PyTorch's.")
    # ... where a dict in the engine's function holds the key both nodes share (``buffer_keys``)
    KEYED_BUFFER = N_("Of the two leaves, one got the gradients sent to both leaves' AccumulateGrad nodes, summed, and "
                      "the other got 0: a dict in your {function} holds, as a key, the {name} of those two "
                      "nodes, which every AccumulateGrad shares, so under that key the two nodes' gradients went into "
                      "one buffer, where each node has a buffer of its own, keyed by the node itself. So {label} is a "
                      "different number from PyTorch's.")
    # ... each of the two given that buffer's sum (``~both_buffer``): a buffer read and left as it was
    BOTH_BUFFER = N_("Each of the two leaves got the gradients sent to both leaves' AccumulateGrad nodes, summed: a "
                     "dict in your {function} holds, as a key, the {name} of those two nodes, which every AccumulateGrad "
                     "shares, so under that key the two nodes' gradients went into one buffer, and each node was handed "
                     "its sum, where each node has a buffer of its own, keyed by the node itself. So {label} is a "
                     "different number from PyTorch's.")
    # each of two leaves got the gradient sent to the other (``~swapped``, ex17's ``_one_op``)
    SWAPPED_GRADS = N_("{label} is a different number from PyTorch's: each of the two leaves got the gradient "
                       "y.grad_fn.apply returned for the other, where the gradient apply returns first goes to the node "
                       "of the first input (the first of y.grad_fn.next_functions), and the second to the second input's.")
    # w got the gradient apply returned for c, whose entry (None, 0) comes first (``~past_constant``, ex17's rules)
    PAST_CONSTANT = N_("{label} is a different number from PyTorch's: w got the gradient (c * w).grad_fn.apply returned "
                       "first, the one for c, an input that requires no grad, whose entry in next_functions is (None, 0): "
                       "backward hands each gradient apply returns to the entry in its place, so the first goes with "
                       "c's (None, 0), to no node, and the second to w's AccumulateGrad.")
    # a retained non-leaf's .grad holding what its node's apply returned (``build_watch.written_beside``, ex18)
    PASSED_ON = N_("{label} is a different number from PyTorch's: backward wrote into that retained non-leaf's .grad "
                   "a gradient its node's apply returned, which the node passes on to an input, not the gradient "
                   "its node was handed, the one that flows into the value, which is the gradient retain_grad keeps.")
    TORCH_FLAG = N_("{label} is {flag}, unlike PyTorch's.")
    LEAF_WITH_NODE = N_("{label} is True in your engine, though that value's grad_fn is not None: is_leaf must follow "
                        "grad_fn (a value is a leaf exactly when its grad_fn is None), not what the value was when it "
                        "was made.")
    # a node's class where a node belongs (``build_reads.node_name``): its name() needs an object of it
    TORCH_CLASS = N_("{label} is the class {name} itself, not a node made from it ({name}(...)), where PyTorch's is "
                     "a node.")
    # a node whose name() returned no str (``build_reads.node_name``): the type it returned
    NAME_NOT_TEXT = N_("{label} is a node whose name() returns an object of type {type}, where PyTorch's name() "
                       "returns a str.")
    # a _version of another type (``build_reads.version``): all it tells, not how the counter counts
    COUNTER_KIND = N_("{label} is of type {type}, where PyTorch's version counter is an int.")
    TORCH_TEXT = N_("{label} is \"{text}\" here, which differs from PyTorch's.")
    TORCH_FEWER = N_("{label} has fewer entries than PyTorch's.")
    TORCH_MORE = N_("{label} has more entries than PyTorch's.")
    TORCH_ORDER = N_("{label} holds PyTorch's entries, but in another order.")
    # a node run while a newer one was ready (``~passed_over``: each node by its label)
    PASSED_OVER = N_("{label} holds PyTorch's entries, but in another order: backward ran {name} while {feeder}, "
                     "every gradient for which had arrived, waited with a higher sequence_nr.")
    # a number on the left (2 + w): the entries reversed by the student's reflected method (``~reflected``)
    REFLECTED_ORDER = N_("{label} holds PyTorch's entries, but in another order: with a number on the left, Python runs "
                         "your Value's {name}, and it put the number's entry (None, 0) first.")
    # entries alike by name in another order, one of them the AccumulateGrad of a value that requires no grad
    CONSTANT_ACCUMULATOR = N_("{label} holds an AccumulateGrad node whose .variable requires no grad, an entry PyTorch "
                              "never has: PyTorch gives an input that requires no grad the entry (None, 0), and an "
                              "AccumulateGrad only to a leaf that requires grad.")
    # an entry that is the AccumulateGrad of a value an operation made (``~made_accumulator``: the entries' indices)
    MADE_ACCUMULATOR = N_("{label} is an AccumulateGrad node whose .variable is a value an operation made (its grad_fn "
                          "is not None), where PyTorch's entry for that input is the input's grad_fn: gradient_edge "
                          "gives an AccumulateGrad only to a leaf that requires grad.")
    TORCH_KEYS = N_("{label} has other keys than PyTorch's.")
    TORCH_ALIKE = N_("the entries of {label} are all the same, where PyTorch's differ from one another.")
    TORCH_HOLDS = N_("{label} in PyTorch, but not in your engine.")
    TORCH_HOLDS_NOT = N_("{label} in your engine, but not in PyTorch.")
    TORCH_WARNS_OTHER = N_("{label} in PyTorch; in your engine the warning is {type}.")
    TORCH_WARNS_OTHER_TEXT = N_("{label} in PyTorch, with NON_LEAF_GRAD's text; your engine's warning says "
                                "\"{text}\".")
    TORCH_WARNS_PRINTED = N_("{label} in PyTorch; your engine printed NON_LEAF_GRAD's text instead (print), which "
                             "issues no warning.")
    PRINTED_NOT_WARNED = N_("{label} in neither PyTorch nor your engine, but your engine printed NON_LEAF_GRAD's "
                            "text there (print).")
    TORCH_WARNS_LOGGED = N_("{label} in PyTorch; your engine logged NON_LEAF_GRAD's text instead (logging), which "
                            "issues no Python warning.")
    LOGGED_NOT_WARNED = N_("{label} in neither PyTorch nor your engine, but your engine logged NON_LEAF_GRAD's "
                           "text there (logging).")
    TORCH_NO_ERROR = N_("{label} raised no error, where PyTorch raises one.")
    TORCH_AN_ERROR = N_("{label} raised {error}, where PyTorch's runs without an error.")
    TORCH_OTHER_ERROR = N_("{label} raised {error}, where PyTorch raises another error.")
    TORCH_AN_ERROR_IN = N_("{label} raised {error} in {name}, where PyTorch's runs without an error.")
    # the engine's check_in_place raised while handed the operand an in-place op does not change (``raised.REFUSED``)
    OTHER_REFUSED = N_("{label} raised {error} in {name}, where PyTorch's runs without an error: your check_in_place "
                       "refused {leaf}, the operand added, not the Value changed in place.")
    TORCH_OTHER_ERROR_IN = N_("{label} raised {error} in {name}, where PyTorch raises another error.")
    # PyTorch's error of that type with a constant's text, the engine's with a text of its own (``raised.own_text``)
    TORCH_OWN_TEXT = N_("{label} raised {error}; PyTorch raises a {type} there too, with {constant}'s text instead.")
    TORCH_OWN_TEXT_IN = N_("{label} raised {error} in {name}; PyTorch raises a {type} there too, with {constant}'s "
                           "text instead.")
    # MODIFIED at other versions than PyTorch's (``raised.other_versions``): PyTorch's versions unsaid
    TORCH_OTHER_VERSIONS = N_("{label} raised {error}, where PyTorch raises that error at other versions.")
    TORCH_OTHER_VERSIONS_IN = N_("{label} raised {error} in {name}, where PyTorch raises that error "
                                 "at other versions.")


# a build-track difference told, with its label alone, as the kind the probe's flag (True) names
TOLD_BY_FLAG = ((SayTorch.TORCH_ORDER, "constant_accumulator", SayTorch.CONSTANT_ACCUMULATOR),  # an entry PyTorch never has
                (SayTorch.TORCH_FLAG, "with_node", SayTorch.LEAF_WITH_NODE),  # a flag set once, grad_fn changed since
                (SayTorch.TORCH_NUMBER, "one_buffer", SayTorch.ONE_BUFFER),  # two AccumulateGrads' gradients in one buffer
                (SayTorch.TORCH_NUMBER, "swapped", SayTorch.SWAPPED_GRADS),  # each leaf the other's gradient
                (SayTorch.TORCH_NUMBER, "past_constant", SayTorch.PAST_CONSTANT),  # paired past (None, 0)
                (SayTorch.TORCH_NUMBER, "bypassed", SayTorch.WRITTEN_BESIDE),  # AccumulateGrad.apply wrote it, not store_grad
                (SayTorch.TORCH_NUMBER, "retained_beside", SayTorch.RETAINED_BESIDE),  # backward wrote it, not store_grad
                (SayTorch.TORCH_NUMBER, "replaced", SayTorch.STORE_REPLACED),  # store_grad left the new gradient alone
                (SayTorch.TORCH_NUMBER, "cleared", SayTorch.CLEARED_BEFORE_STORE),  # a retained .grad dropped first
                (SayTorch.TORCH_NUMBER, "passed_on", SayTorch.PASSED_ON))  # a retained .grad: what its node returned


_KEYS_SHARED = ("name()", "sequence_nr")  # what every AccumulateGrad has the same of (``grader.spec.buffer_keys``)


def told_by_field(say: Sentence, got: dict[str, Any]) -> tuple[Sentence, dict[str, str]] | None:
    """A build-track difference ``say`` told by what the probe's context names in a str: the function
    that leaves a gradient of 0 unwritten (``~zero_dropped``); the function and the key two leaves'
    nodes shared one buffer under (``~one_buffer``, "<function> <name() or sequence_nr>"), one each
    node was handed whole (``~both_buffer``); else None."""
    dropped = got.get(CONTEXT + "zero_dropped")
    if say is SayTorch.TORCH_NONE and type(dropped) is str:
        return SayTorch.ZERO_DROPPED, {"function": dropped}
    for context, said in (("one_buffer", SayTorch.KEYED_BUFFER), ("both_buffer", SayTorch.BOTH_BUFFER)):
        keyed = got.get(CONTEXT + context)
        function, _sep, key = keyed.partition(" ") if type(keyed) is str else ("", "", "")
        if say is SayTorch.TORCH_NUMBER and function.isidentifier() and key in _KEYS_SHARED:
            return said, {"function": function, "name": key}
    return None
