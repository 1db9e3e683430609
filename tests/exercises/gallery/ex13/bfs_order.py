"""Wrong ex13: breadth-first order (each node at its first discovery), which is not topological."""

import micrograph


def local_grads(node, grad):
    with micrograph.no_grad():
        return tuple(node.apply(grad, create_graph=False))


def topological_order(root):
    order, seen, i = [root.grad_fn], {root.grad_fn}, 0
    while i < len(order):
        for child, _ in order[i].next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                order.append(child)
        i += 1
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
                arrived[child] = arrived[child] + cg if child in arrived else cg
    return leaves

