"""Correct ex13: the order is a reversed depth-first post-order (no recursion)."""
import micrograph


def local_grads(node, grad):
    with micrograph.no_grad():
        return tuple(node.apply([grad]))


def topological_order(root):
    post, done, stack = [], set(), [(root.grad_fn, False)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            post.append(node)
        elif node not in done:
            done.add(node)
            stack.append((node, True))
            stack.extend((c, False) for c, _ in node.next_functions if c is not None and c not in done)
    return post[::-1]


def backprop(root):
    grads, leaves = {root.grad_fn: 1.0}, {}
    for node in topological_order(root):
        g = grads.pop(node, None)
        if g is None:
            continue
        if isinstance(node, micrograph.AccumulateGrad):
            leaves[node.variable] = g
        else:
            for (c, _), cg in zip(node.next_functions, local_grads(node, g)):
                if c is not None and cg is not None:
                    grads[c] = grads.get(c, 0.0) + cg
    return leaves
