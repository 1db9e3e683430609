"""Wrong ex13: gradients meeting at a node overwrite each other (= for +=), with a topological order
from a LIFO ready list: on b = a + a, c = b * b the last gradient kept looks like every first edge
dropped, which it is not (every entry is passed on)."""
# names: one of those gradients instead of their sum
from __future__ import annotations
import micrograph
from micrograph import Node, Value


def local_grads(node, grad):
    with micrograph.no_grad():
        return tuple(node.apply([grad]))


def topological_order(root):
    start = root.grad_fn
    deps = {start: 0}
    stack = [start]
    seen = {start}
    while stack:
        n = stack.pop()
        for nxt, _ in n.next_functions:
            if nxt is None:
                continue
            deps[nxt] = deps.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    ready = [start]
    order = []
    while ready:
        n = ready.pop()
        order.append(n)
        for nxt, _ in n.next_functions:
            if nxt is None:
                continue
            deps[nxt] -= 1
            if deps[nxt] == 0:
                ready.append(nxt)
    return order


def backprop(root):
    g = {root.grad_fn: 1.0}
    out = {}
    for node in topological_order(root):
        if node not in g:
            continue
        if isinstance(node, micrograph.AccumulateGrad):
            out[node.variable] = g[node]
            continue
        for (nxt, _), gi in zip(node.next_functions, local_grads(node, g[node])):
            if nxt is not None and gi is not None:
                g[nxt] = gi
    return out
