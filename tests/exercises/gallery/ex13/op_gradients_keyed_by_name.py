"""Wrong ex13: backprop keeps the gradients of op nodes under node.name() (leaves' nodes under their id), and
never pops an entry: two AddBackward0 nodes of one graph share one entry, each running with all it holds."""
# names: under each node's name (node.name())
import micrograph


def local_grads(node, grad):
    with micrograph.no_grad():
        return tuple(node.apply([grad]))


def topological_order(root):
    start = root.grad_fn
    incoming, seen, stack = {start: 0}, {start}, [start]
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is None:
                continue
            incoming[child] = incoming.get(child, 0) + 1
            if child not in seen:
                seen.add(child)
                stack.append(child)
    ready, order = [start], []
    while ready:
        node = ready.pop()
        order.append(node)
        for child, _ in node.next_functions:
            if child is None:
                continue
            incoming[child] -= 1
            if incoming[child] == 0:
                ready.append(child)
    return order


def _key(node):
    return id(node) if isinstance(node, micrograph.AccumulateGrad) else node.name()


def backprop(root):
    arrived = {_key(root.grad_fn): 1.0}
    leaves = {}
    for node in topological_order(root):
        if _key(node) not in arrived:
            continue
        g = arrived[_key(node)]
        if isinstance(node, micrograph.AccumulateGrad):
            leaves[node.variable] = g
            continue
        for (child, _), child_grad in zip(node.next_functions, local_grads(node, g)):
            if child is None or child_grad is None:
                continue
            arrived[_key(child)] = arrived.get(_key(child), 0.0) + child_grad
    return leaves
