"""Correct ex13: Kahn's algorithm with a first-in first-out queue; gradients in a defaultdict."""
import collections

import micrograph


def local_grads(node, grad):
    with micrograph.no_grad():
        return tuple(node.apply([grad]))


def topological_order(root):
    incoming, seen, stack = collections.Counter(), {root.grad_fn}, [root.grad_fn]
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is not None:
                incoming[child] += 1
                if child not in seen:
                    seen.add(child)
                    stack.append(child)
    order, queue = [], collections.deque([root.grad_fn])
    while queue:
        node = queue.popleft()
        order.append(node)
        for child, _ in node.next_functions:
            if child is not None:
                incoming[child] -= 1
                if incoming[child] == 0:
                    queue.append(child)
    return order


def backprop(root):
    arrived, leaves = collections.defaultdict(float), {}
    reached = {root.grad_fn}
    arrived[root.grad_fn] = 1.0
    for node in topological_order(root):
        if node not in reached:
            continue
        if isinstance(node, micrograph.AccumulateGrad):
            leaves[node.variable] = arrived[node]
            continue
        for (child, _), g in zip(node.next_functions, local_grads(node, arrived[node])):
            if child is not None and g is not None:
                arrived[child] += g
                reached.add(child)
    return leaves
