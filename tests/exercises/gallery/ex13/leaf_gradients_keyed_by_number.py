"""Wrong ex13: leaf gradients summed in a dict keyed by the leaf's number (leaf.item()): two leaves of
one number share one sum, each given the gradients of both."""
# names: two leaves of the same number, not by == or number
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
    by_val = {}
    leaf_of = {}
    for node in topological_order(root):
        if node not in g:
            continue
        if isinstance(node, micrograph.AccumulateGrad):
            v = node.variable.item()
            by_val[v] = by_val.get(v, 0.0) + g[node]
            leaf_of.setdefault(v, []).append(node.variable)
            continue
        for (nxt, _), gi in zip(node.next_functions, local_grads(node, g[node])):
            if nxt is not None and gi is not None:
                g[nxt] = g.get(nxt, 0.0) + gi
    return {leaf: by_val[v] for v, leaves in leaf_of.items() for leaf in leaves}
