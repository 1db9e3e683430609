"""Wrong ex13: a recursive depth-first order (right on small graphs, RecursionError on deep ones)."""

import micrograph


def local_grads(node, grad):
    with micrograph.no_grad():
        return tuple(node.apply(grad, create_graph=False))


def topological_order(root):
    done, post = set(), []

    def visit(node):
        done.add(node)
        for child, _ in node.next_functions:
            if child is not None and child not in done:
                visit(child)
        post.append(node)

    visit(root.grad_fn)
    return post[::-1]


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

