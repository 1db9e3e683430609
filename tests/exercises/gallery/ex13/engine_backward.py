"""Wrong ex13: lets the engine do the work (root.backward()) and reads the leaves' .grad."""

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
    root.backward(retain_graph=True)
    leaves = [n.variable for n in topological_order(root) if isinstance(n, micrograph.AccumulateGrad)]
    return {leaf: leaf.grad.item() for leaf in leaves if leaf.grad is not None}
