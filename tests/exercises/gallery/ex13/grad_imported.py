"""Wrong ex13: asks the engine for the gradients with micrograph.grad, imported by name before
grading starts; no .grad changes, but nothing was done by hand."""

import micrograph
from micrograph import grad


def local_grads(node, grad):
    with micrograph.no_grad():
        return tuple(node.apply(grad, create_graph=False))


def topological_order(root):
    start = root.grad_fn
    incoming, seen, stack = {}, {start}, [start]
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is None:
                continue
            incoming[child] = incoming.get(child, 0) + 1
            if child not in seen:
                seen.add(child)
                stack.append(child)
    order, ready = [], [start]
    while ready:
        node = ready.pop()
        order.append(node)
        for child, _ in node.next_functions:
            if child is not None:
                incoming[child] -= 1
                if incoming[child] == 0:
                    ready.append(child)
    return order


def backprop(root):
    leaves = [n.variable for n in topological_order(root) if isinstance(n, micrograph.AccumulateGrad)]
    leaves = [leaf for leaf in leaves if leaf.requires_grad]
    found = grad(root, leaves, retain_graph=True, allow_unused=True)
    return {leaf: g.item() for leaf, g in zip(leaves, found) if g is not None}
