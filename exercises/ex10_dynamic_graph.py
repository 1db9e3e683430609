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
    """A graph chosen by an ``if``: w is a leaf that requires grad (given to you).

    Make the data x_value = Value(x) (no grad).  If x > 0, y = x_value * w; otherwise
    y = exp(x_value - w).  Return y; do not call backward.
    """
    # TODO: an if/else on x that records one of two different graphs
    raise NotImplementedError("ex10: branch")


def grad_fn_chain(y: Value) -> list[str]:
    """The names of the nodes met walking down from y.grad_fn.

    At each node, go on to the first entry of ``node.next_functions`` that is not None; stop
    when you reach a leaf's AccumulateGrad node (it has a ``.variable``; do not include it) or a
    leaf y (no grad_fn: return []).  For y = exp(x_value - w) the answer is
    ["ExpBackward0", "SubBackward0"].
    """
    # TODO: follow next_functions from y.grad_fn, collecting node.name()
    raise NotImplementedError("ex10: grad_fn_chain")


def double_until(w: Value, limit: float) -> tuple[Value, int]:
    """A graph built by a ``while`` loop: w is a leaf that requires grad, w > 0 (given to you).

    Start with y = w and double it (y = y * 2) while y < limit.  Return (y, the number of
    doublings).  Do not call backward.
    """
    # TODO: a while loop on y's value
    raise NotImplementedError("ex10: double_until")
