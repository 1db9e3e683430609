"""Wrong ex13: lets the engine do the work, then hides it: backward(retain_graph=True), read
the leaves' .grad, and put every .grad back as it was."""

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
    leaves = [n.variable for n in topological_order(root) if isinstance(n, micrograph.AccumulateGrad)]
    old = {leaf: leaf.grad for leaf in leaves}
    for leaf in leaves:
        leaf.grad = None
    root.backward(retain_graph=True)
    grads = {leaf: leaf.grad.item() for leaf in leaves if leaf.grad is not None}
    for leaf in leaves:
        leaf.grad = old[leaf]
    return grads
