"""More of ex16's gate (``grader.spec.build_checks``): what an operation records that no later
stage's programs look at again (the type of next_functions, a number's (None, 0), what + and
w * 3 save (a Value), 3 * w's edge order, a constant's node and is_leaf), so that a slip of ex16's that
passes every one of them is still told, naming ex16, in each later stage's file.

Each returns None or the finding (a msgid) that names what ex16's part got wrong; ``FAULT_IN``
names the function each finding is in, so that no later stage's rewrite is suspected.
"""

from __future__ import annotations

from typing import Any

from micrograph.i18n import N_  # a check's finding, translated where told

from grader.spec.build_reads import edge_node, flag
from grader.spec.saved import saved_as, saved_operands

EDGES_NOT_TUPLES = N_("(w * x).grad_fn.next_functions is not a tuple of (node, 0) tuples, where PyTorch's is a tuple "
                      "holding one (node, 0) tuple per input")
EDGE_NOT_ZERO = N_("an entry of (w * x).grad_fn.next_functions has a second item other than 0, where each of PyTorch's "
                   "entries is (node, 0)")
NUMBER_EDGES = (N_("(w * 2).grad_fn.next_functions[1][0], the entry of the number 2, is a node, where a Python number in "
                   "an operation is a constant that requires no grad, whose entry is (None, 0)"),
                N_("(w * 2 + 1).grad_fn.next_functions[1][0], the entry of the number 1, is a node, where a Python "
                   "number in an operation is a constant that requires no grad, whose entry is (None, 0)"))
ADD_SAVES = N_("the AddBackward0 node of w * 2 + 1 saves operands, where AddBackward0 saves nothing: its backward "
               "needs neither")
SAVES_SELF_TOO = N_("w * 3 saves w as \"self\" as well, where a product saves self only when the other factor requires "
                    "grad: MulBackward0 saves only what its backward needs")
SAVES_PYTHON_NUMBER = N_("w * 3 saves the number 3 as \"other\" as a Python number, not as a Value, where a product saves "
                         "each factor as a Value, a Python number made one (PyTorch's (w * 3).grad_fn._saved_other is a "
                         "tensor): apply reads it with item()")
SAVED_SHARED = N_("the nodes of w * x and w * 3 hold one dict of saved values (their .saved is one object), where each "
                  "node keeps a dict of its own: what one node saves, the other holds too")
NO_REFLECTED = (N_("2 + w raises TypeError: your Value has no __radd__ that takes a Python number on the left of +"),
                N_("3 * w raises TypeError: your Value has no __rmul__ that takes a Python number on the left of *"))
NUMBER_FIRST = N_("3 * w has the entry of the number 3 first in its next_functions, where PyTorch's 3 * w is w * 3 "
                  "(its __rmul__ is __mul__): the entry of w first, then (None, 0)")
LEAF_ITSELF = N_("(w * x).grad_fn.next_functions[0][0] is the leaf w itself, where a leaf that requires grad has the "
                 "entry (its AccumulateGrad, 0) in every operation: gradient_edge gives a leaf its AccumulateGrad node, "
                 "not the leaf")
LEAF_ITSELF_RECORDED = N_("(w * x).grad_fn.next_functions[0][0] is the leaf w itself, though gradient_edge(w) gives "
                          "w's AccumulateGrad node: record makes each entry with gradient_edge, not from the input "
                          "itself")
NUMBER_FIRST_ADD = N_("2 + w has the entry of the number 2 first in its next_functions, where PyTorch's 2 + w is "
                      "w + 2 (its __radd__ is __add__): the entry of w first, then (None, 0)")
CONSTANT_NOT_LEAF = N_("(c * 3).is_leaf, c = Value(2) that requires no grad, is not True, where a value is a leaf "
                       "exactly when no recorded operation made it")
CONSTANT_RECORDED = N_("c * 3, c = Value(2) that requires no grad, records a node, where an operation none of whose "
                       "inputs requires grad records nothing")
RECORDING_CONSTANT = N_("recording(c), c = Value(2) that requires no grad, is True outside no_grad, so c * 3 records a "
                        "node, where an operation none of whose inputs requires grad records nothing")


FAULT_IN = {SAVES_SELF_TOO: "Value.__mul__", SAVES_PYTHON_NUMBER: "Value.__mul__", EDGES_NOT_TUPLES: "record", ADD_SAVES: "Value.__add__",
            NUMBER_FIRST: "Value.__mul__", NUMBER_FIRST_ADD: "Value.__add__", EDGE_NOT_ZERO: "gradient_edge", LEAF_ITSELF: "gradient_edge",
            LEAF_ITSELF_RECORDED: "record", NUMBER_EDGES[0]: "Value.__mul__",
            NUMBER_EDGES[1]: "Value.__add__", NO_REFLECTED[0]: "Value.__add__", NO_REFLECTED[1]: "Value.__mul__",
            CONSTANT_NOT_LEAF: "Value.is_leaf", CONSTANT_RECORDED: "record", RECORDING_CONSTANT: "recording"}


def recorded_as_torch(sub: Any, w: Any, y: Any, product: Any, three: Any) -> str | None:
    """What w * 3's node (``three``) saved (3 alone), the edges of w * x's node (``product``: a
    tuple of (node, 0) tuples, w's a node, not w: the student's gradient_edge(w) says whether it
    or record put w there), the (None, 0) of the numbers of y = w * 2 + 1, and what its
    AddBackward0 saved (nothing): each read, none made anew."""
    saved = getattr(three, "saved", None)
    if isinstance(saved, dict) and saved is getattr(product, "saved", None):  # one dict for every node (Node.save's)
        return SAVED_SHARED
    if saved_as(three, "self") is not None:
        return SAVES_SELF_TOO
    if type(saved_as(three, "other")) in (int, float):  # the number as given, not the Value it was made
        return SAVES_PYTHON_NUMBER
    pairs = getattr(product, "next_functions", None)
    if type(pairs) is not tuple or not all(type(pair) is tuple and len(pair) == 2 for pair in pairs):
        return EDGES_NOT_TUPLES
    if any(pair[1] != 0 for pair in pairs):
        return EDGE_NOT_ZERO
    if pairs and pairs[0][0] is w:  # an edge to the leaf, not to its node: every leaf's, whenever it was made
        return LEAF_ITSELF if _edge_is_leaf(sub, w) else LEAF_ITSELF_RECORDED
    top = getattr(y, "grad_fn", None)
    for fn, finding in zip((edge_node(top, 0), top), NUMBER_EDGES):  # an AccumulateGrad of another value than w
        if getattr(edge_node(fn, 1), "variable", w) is not w:  # (edges in another order: told by their own check)
            return finding
    return None if saved_operands(top) == [] else ADD_SAVES


def reflected(w: Any, three: Any) -> str | None:
    """A number on the left, ``2 + w`` and ``3 * w``: Python calls w's ``__radd__``/``__rmul__``,
    which PyTorch's are ``__add__``/``__mul__``, so the entry of w comes first, as in ``w + 2``
    and ``w * 3`` (``three``, its node: edges in another order there too are told by their own
    check)."""
    for method, finding in zip(("__radd__", "__rmul__"), NO_REFLECTED):
        if getattr(type(w), method, None) is None:
            return finding
    if _first_is(getattr(w + 2, "grad_fn", None), w) and not _first_is(getattr(2 + w, "grad_fn", None), w):
        return NUMBER_FIRST_ADD
    if not _first_is(three, w):
        return None
    return None if _first_is(getattr(3 * w, "grad_fn", None), w) else NUMBER_FIRST


def _edge_is_leaf(sub: Any, w: Any) -> bool:
    """Whether the student's ``gradient_edge(w)`` gives the leaf itself as its node (read by
    identity: a pair of the student's may be any object); a file with no such function is
    told so too, gradient_edge being the part that gives a leaf's entry."""
    given = getattr(sub, "gradient_edge", None)
    if not callable(given):
        return True
    edge = given(w)
    return type(edge) not in (tuple, list) or len(edge) != 2 or edge[0] is w


def _first_is(fn: Any, leaf: Any) -> bool:
    """Whether the first edge of ``fn`` leads to ``leaf``'s AccumulateGrad (its ``variable``)."""
    return getattr(edge_node(fn, 0), "variable", None) is leaf


def _requires_grad_without_node(v: Any) -> bool:
    """Whether an operation's result requires grad with no grad_fn: recorded or not (whether grad mode counts is a
    later stage's part), an operation makes a value that requires grad only with the node it records."""
    return flag(getattr(v, "requires_grad", None)) is True and getattr(v, "grad_fn", None) is None


def constant(sub: Any) -> str | None:
    """c * 3 of a constant c = Value(2): no node recorded (by record, or because recording(c)
    said True), a leaf, requiring no grad."""
    made = sub.Value(2.0) * 3
    if getattr(made, "grad_fn", None) is not None:
        recording = getattr(sub, "recording", None)
        return RECORDING_CONSTANT if callable(recording) and recording(sub.Value(2.0)) is True else CONSTANT_RECORDED
    if flag(made.is_leaf) is not True:
        return CONSTANT_NOT_LEAF
    return None if not _requires_grad_without_node(made) else N_(
        "(c * 3).requires_grad, c = Value(2), is True while c * 3 has no grad_fn: an operation makes a value that "
        "requires grad only together with the node it records")
