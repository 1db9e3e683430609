"""Correct ex10, written differently: a conditional expression for the branch, a recursive
walk for grad_fn_chain (the chains here are short), and a for loop with break."""

import itertools

from micrograph import AccumulateGrad, Value


def branch(x, w):
    data = Value(x)
    return data * w if x > 0 else (data - w).exp()


def grad_fn_chain(y):
    def walk(node):
        if node is None or isinstance(node, AccumulateGrad):
            return []
        following = [child for child, _ in node.next_functions if child is not None]
        return [node.name()] + walk(following[0] if following else None)

    return walk(y.grad_fn)


def double_until(w, limit):
    y = w
    for count in itertools.count():
        if y >= limit:
            return y, count
        y = y * 2
