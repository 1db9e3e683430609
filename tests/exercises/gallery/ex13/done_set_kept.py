"""Wrong ex13: topological_order marks nodes done in a module-level set that no call resets, so a
second walk over the same graph (backprop after topological_order) finds every node done."""
# names: topological_order, state kept between calls
import collections

import micrograph
from micrograph import Node, Value


def local_grads(node, grad):
    with micrograph.no_grad():
        return tuple(node.apply([grad]))


def _kids(node):
    return [c for c, _ in node.next_functions if c is not None]


_DONE = set()


def topological_order(root):
    post = []
    done = _DONE
    stack = [(root.grad_fn, False)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            post.append(node)
            continue
        if node in done:
            continue
        done.add(node)
        stack.append((node, True))
        for child in _kids(node):
            if child not in done:
                stack.append((child, False))
    post.reverse()
    return post


def backprop(root):
    grads = {id(root.grad_fn): 1.0}
    result = {}
    for node in topological_order(root):
        if id(node) not in grads:
            continue
        g = grads[id(node)]
        if isinstance(node, micrograph.AccumulateGrad):
            result[node.variable] = g
            continue
        for (child, _), cg in zip(node.next_functions, local_grads(node, g)):
            if child is not None and cg is not None:
                grads[id(child)] = grads.get(id(child), 0.0) + cg
    return result
