"""Wrong ex13: `from micrograph import *` binds micrograph's abs, which raises on the floats sorted(key=abs) hands it."""
# names: abs backprop calls is micrograph's abs, from micrograph import *
from __future__ import annotations
import micrograph
from micrograph import *
from micrograph import Node, Value


def local_grads(node: Node, grad: float) -> tuple[float | None, ...]:
    with micrograph.no_grad():
        return tuple(node.apply([grad]))


def topological_order(root: Value) -> list[Node]:
    start = root.grad_fn
    deps = {start: 0}
    stack = [start]
    seen = {start}
    while stack:
        node = stack.pop()
        for nxt, _ in node.next_functions:
            if nxt is None:
                continue
            deps[nxt] = deps.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    order = []
    ready = [start]
    while ready:
        node = ready.pop()
        order.append(node)
        for nxt, _ in node.next_functions:
            if nxt is None:
                continue
            deps[nxt] -= 1
            if deps[nxt] == 0:
                ready.append(nxt)
    return order


def backprop(root: Value) -> dict[Value, float]:
    grads = {root.grad_fn: [1.0]}
    result = {}
    for node in topological_order(root):
        if node not in grads:
            continue
        g = sum(sorted(grads[node], key=abs))
        if isinstance(node, micrograph.AccumulateGrad):
            result[node.variable] = g
            continue
        outs = local_grads(node, g)
        for (nxt, _), og in zip(node.next_functions, outs):
            if nxt is None or og is None:
                continue
            grads.setdefault(nxt, []).append(og)
    return result
