"""Programs of ex21's tests where a shortcut in detach(), .data or unpack gives PyTorch's answers
to every other program: .data read twice, detach() of a Value that requires no grad, a detached
Value made a leaf that requires grad, a value changed in place after a backward freed the
node that saved it, a changed value saved again by a second graph, and one .data saved while another
is changed.  Each is what one such engine alone gets wrong."""

from __future__ import annotations

from typing import Any

from micrograph.i18n import N_

from grader.spec.build import claim, fact
from grader.spec.build_reads import edges, grad_quiet
from grader.spec.held import held
from grader.spec.raised import error, raised

DATA_EACH_CALL = N_("w.data gives a new Value at each call")
CONSTANT_DETACHED = "c.detach() is c, c = Value(2)"
DETACHED_LEAF = "w * w; d = w.detach(); d.requires_grad = True"
DETACHED_LEAF_RULE = ("detach() gives a leaf with no node of its own: made to require grad, it gets an AccumulateGrad "
                      "of its own, so its gradients go to it, never to the Value it was detached from")
FREED_CHANGED = "a second y.backward() after y.backward(); a.add_(1), y = a * a, a = w * 2"


def data_each_call(sub: Any, data: Any) -> dict[str, Any]:
    """Whether two reads of .data give two Values (``data`` reads it, as the test does): one
    kept on the Value and handed out again carries a change through one read to every later one."""
    w = sub.Value(0.5, requires_grad=True)
    return claim(data(w) is not data(w), DATA_EACH_CALL)


def constant_detached(sub: Any) -> dict[str, Any]:
    """Whether detach() of a Value that requires no grad gives a new Value, as it does of any
    other: the Value itself handed back shares its flags, so d.requires_grad = True changes c."""
    c = sub.Value(2.0)
    return claim(c.detach() is c, CONSTANT_DETACHED)


def detached_leaf(sub: Any) -> list[dict[str, Any]]:
    """A detached Value made a leaf that requires grad, backpropagated: its gradient is its own,
    and the leaf it was detached from (whose AccumulateGrad exists, w * w made it) gets none.  A
    detach() that copies the Value with the leaf's AccumulateGrad sends the gradient to w."""
    w = sub.Value(1.25, requires_grad=True)
    held(w * w)
    d = w.detach()
    d.requires_grad = True
    ran = raised((d * d).backward, f"(d * d).backward() after {DETACHED_LEAF}")
    after = f"after {DETACHED_LEAF}; (d * d).backward()"
    return [ran, fact(grad_quiet(d), f"d.grad {after}"), fact(grad_quiet(w), f"w.grad {after}")]


def freed_then_changed(sub: Any) -> dict[str, Any]:
    """A second backward through a node a first one freed, whose saved value was changed in place
    in between: PyTorch's unpack checks "freed" first, so it raises SECOND_BACKWARD, not
    MODIFIED; an unpack that checks the version first tells the other error."""
    w = sub.Value(0.75, requires_grad=True)
    a = w * 2
    y = a * a
    held(y)
    error(y.backward)  # the first backward's own errors are told by the other programs
    error(a.add_, 1.0)
    return raised(y.backward, FREED_CHANGED)


OLD_NODE = "e.next_functions after e = c.grad_fn; c.add_(1), c = w + 1"


def old_node_kept(sub: Any) -> dict[str, Any]:
    """The node a value had before an in-place op, its edges read after the op: PyTorch leaves it
    as it was (graphs recorded before the op run through it); a rebase that cuts the old node's
    edges leaves those graphs' leaves without a gradient, which no rule of numbers explains."""
    w = sub.Value(0.5, requires_grad=True)
    c = w + 1
    old = getattr(c, "grad_fn", None)
    error(c.add_, 1.0)  # a refused op is told by the test's other programs
    return fact(None if old is None else edges(old), OLD_NODE)


SAVED_AGAIN = "y1.backward() after y1 = w * b; b.add_(1); y2 = w * b, b = Value(2)"
SAVED_LATER = "y2.backward() after y1 = w * b; b.add_(1); y2 = w * b, b = Value(2)"


def saved_again(sub: Any) -> list[dict[str, Any]]:
    """A value changed in place after one graph saved it, then saved again by a second graph
    (under the same name): each node checks the version it saved itself, so the second graph's
    backward runs and the first graph's raises MODIFIED; versions kept apart from the node that
    saved them take another save's: by name, for every node, the later one's (the change is
    missed); in a list searched for the value, the first one's (the second graph is refused)."""
    w, b = sub.Value(0.5, requires_grad=True), sub.Value(2.0)
    y1 = w * b
    error(b.add_, 1.0)  # a refused op is told by the test's other programs
    y2 = w * b
    held(y1, y2)
    return [raised(y2.backward, SAVED_LATER), raised(y1.backward, SAVED_AGAIN)]


DATA_VIEWS = "y.backward() after y = x * w.data; w.data.add_(1)"


def data_views_apart(sub: Any, data: Any) -> dict[str, Any]:
    """Two reads of .data, one saved by a product, the other changed in place: each .data has a
    counter of its own, so the saved one's version is as it was and backward runs (with the
    number changed, which they share); one counter shared by every .data of a Value raises."""
    w, x = sub.Value(1.5, requires_grad=True), sub.Value(2.0, requires_grad=True)
    y = x * data(w)
    error(data(w).add_, 1.0)  # refused, it is told by the test's other programs
    return raised(y.backward, DATA_VIEWS)
