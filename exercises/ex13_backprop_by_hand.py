"""ex13 backprop_by_hand: write backward yourself: an order of the graph, then the chain rule.

The idea
--------
``y.backward()`` walks the computational graph (计算图) from ``y.grad_fn`` down to the leaves
(叶子节点).  Each node receives the gradient of its output, d y / d(output), and turns it into
one gradient per input with its local derivative: that is the chain rule.  Two things decide
whether the walk is right:

* **Order.**  A node may pass its gradient on only once it has received *all* of it.  In the
  diamond ``b = a + a; c = b * b`` the node of b gets gradient from c twice (c uses b twice),
  and must add both before it runs.  So the nodes are visited in a *topological order*: every
  node before the nodes it feeds from (its ``next_functions``).  The engine does this by first
  counting, for every node, how many edges point at it, and then running a node when that
  count drops to zero (Kahn's algorithm).

* **Accumulation.**  Where paths meet (a node used twice, a leaf used in several places) the
  incoming gradients are *added*: the sum over paths of ex01.

The graph can be deep: a training loop or an unrolled sequence easily makes a chain of a
hundred thousand operations.  A recursive walk (a function calling itself per node) stops at
Python's recursion limit (about 1000 calls, then ``RecursionError``), so walk with an explicit
stack (a list you push to and pop from) instead.

What you are given
------------------
``local_grads(node, grad)`` below runs one node's backward formula: given the gradient of the
node's output, it returns one gradient per entry of ``node.next_functions``, in the same order
(None for an input that needs no gradient).  So you need not know any op's derivative: this
exercise is about the order and the accumulation.  Leaves are reached through
``AccumulateGrad`` nodes (``isinstance(node, micrograph.AccumulateGrad)``) whose ``.variable``
is the leaf; they have no inputs, and are where a leaf's gradient arrives.  Don't call
``local_grads`` on them.

A small example on other numbers: for u = 3, v = u * u + u (nodes AddBackward0 ->
MulBackward0 -> AccumulateGrad(u), and AddBackward0 -> AccumulateGrad(u)), one topological
order is [AddBackward0, MulBackward0, AccumulateGrad(u)].  Seed the root with 1.0; the
AddBackward0 passes 1.0 to the MulBackward0 and 1.0 to u's AccumulateGrad; the MulBackward0
passes 3.0 and 3.0 to u's AccumulateGrad; u's gradient is 1 + 3 + 3 = 7 = 2u + 1.

Watch it run
------------
To compare your order with the engine's, trace the engine on a graph of your own: the page
lists the nodes in the order the engine runs them, with the ready queue, the dependency counts
and the gradient each node receives::

    from micrograph.viz import trace_backward
    trace_backward(y).save_html("engine.html")   # open it in a browser, press "next"

(The grader writes ``backward.html`` only where a submission ran the engine's backward; yours
must not, so for ex13 there is none.)

What to write
-------------
``topological_order`` and ``backprop``, both without recursion, and without calling
``backward`` or ``micrograph.grad``: leave every ``.grad`` as it is.
"""

from __future__ import annotations

import micrograph
from micrograph import Node, Value


def local_grads(node: Node, grad: float) -> tuple[float | None, ...]:
    """The gradients ``node`` passes to its inputs, given the gradient of its output (given).

    One entry per entry of ``node.next_functions``, in the same order: ``grad`` times the
    local derivative, or None where no gradient flows (an input that needs no gradient).
    Not for AccumulateGrad nodes.  You need not edit it.
    """
    with micrograph.no_grad():
        return tuple(node.apply([grad]))


def topological_order(root: Value) -> list[Node]:
    """Every node reachable from ``root.grad_fn`` (AccumulateGrad nodes included), each once,
    every node before all the nodes it feeds from (the nodes in its ``next_functions``).

    ``root`` is the result of an operation, so ``root.grad_fn`` is not None, and it comes
    first.  Skip ``next_functions`` entries whose node is None.  No recursion: a graph may be
    a chain of 100,000 operations.
    """
    # TODO: count the edges into each node with a stack-based walk, then Kahn's algorithm
    raise NotImplementedError("ex13: topological_order")


def backprop(root: Value) -> dict[Value, float]:
    """d root / d leaf for every leaf the gradient reaches, as {leaf Value: float}.

    Seed ``root.grad_fn`` with the gradient 1.0, then visit the nodes in topological order:
    a node's gradient is the sum of everything that reached it; at an AccumulateGrad node it
    is the leaf's answer (``node.variable``), elsewhere pass it on by calling ``local_grads``
    (not a copy of its body: the tests follow your walk through its calls), once per node.
    Skip a node that no gradient reached.  Values hash by identity, so a leaf can be a dict
    key.  Do not call backward or micrograph.grad: no ``.grad`` may change.
    """
    # TODO: a dict node -> gradient so far, filled in topological order
    raise NotImplementedError("ex13: backprop")
