"""ex10 dynamic_graph: the graph is built while the code runs (动态图, a dynamic graph).

The idea
--------
Computational graphs (计算图) come in two kinds, by how they are built:

* a static graph (静态图) is built first and run afterwards, many times (TensorFlow 1):
  efficient, but a branch or a loop has to be written as a special graph operation;
* a dynamic graph (动态图) is built *as the operations run* (PyTorch, micrograph): every
  forward pass records a new graph, so ordinary Python ``if`` and ``while`` on the values decide
  which operations get recorded.  Flexible and easy to debug.

Nothing is planned ahead: the graph is exactly the operations that happened to run this time.
With the same leaf p = Value(2.0, requires_grad=True)::

    r = p * p if p > 1 else p.sin()     # p > 1: r.grad_fn is MulBackward0, dr/dp = 2p = 4
    p.data.fill_(0.5)                   # same code, new value ...
    r = p * p if p > 1 else p.sin()     # ... new graph: SinBackward0, dr/dp = cos(0.5)

You can see which graph was built through ``grad_fn`` and its ``next_functions``, and through
the gradients backward computes along it.  A loop whose length depends on the data records
one node per iteration that actually ran.

(Comparisons such as ``p > 1`` read the Value's number and are never recorded.)

What to write
-------------
``branch`` and ``double_until`` build graphs with Python control flow; ``grad_fn_chain`` reads a
graph back, so you can look at what was built.
"""

from __future__ import annotations

from micrograph import Value



def branch(x: float, w: Value) -> Value:
    """A graph chosen by an ``if``: w is a leaf that requires grad (given to you)."""
    x_value = Value(x)
    if x_value > 0:  # a plain Python if: only the branch that runs is recorded
        return x_value * w
    return (x_value - w).exp()


def grad_fn_chain(y: Value) -> list[str]:
    """The names of the nodes met walking down from y.grad_fn."""
    names: list[str] = []
    node = y.grad_fn
    while node is not None and not hasattr(node, "variable"):  # a leaf's AccumulateGrad ends it
        names.append(node.name())
        node = next((child for child, _ in node.next_functions if child is not None), None)
    return names


def double_until(w: Value, limit: float) -> tuple[Value, int]:
    """A graph built by a ``while`` loop: w is a leaf that requires grad, w > 0 (given to you)."""
    y = w
    steps = 0
    while y < limit:  # the data decides how many nodes get recorded
        y = y * 2
        steps += 1
    return y, steps
