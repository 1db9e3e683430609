"""Wrong ex13: a gradient arriving at a node replaces what earlier paths brought (no accumulation)."""

import micrograph


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
    arrived, leaves = {root.grad_fn: 1.0}, {}
    for node in topological_order(root):
        if node not in arrived:
            continue
        g = arrived.pop(node)
        if isinstance(node, micrograph.AccumulateGrad):
            leaves[node.variable] = g
            continue
        for (child, _), cg in zip(node.next_functions, local_grads(node, g)):
            if child is not None and cg is not None:
                arrived[child] = cg
    return leaves
