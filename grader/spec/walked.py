"""What a walk written by hand (ex13's backprop) did that is told before how it summed: where it went on.

``unscaled``: every call of local_grads handed the gradient one, what reached a node never multiplied
in; ``scaled_twice``: what local_grads returned multiplied by the node's gradient again.  ``left_out``: a node the walk's calls sent a gradient to never went on, and the order backprop's
topological_order call returned leaves it out: what the walk then did elsewhere follows from that
order, and no reading of its calls as another kind of walk (gradients handed to mirrored inputs, the
first edges dropped) is true of it.  ``leaves_left_out``: those nodes are leaves' AccumulateGrad nodes
only, and the order holds none, the one slip of an order that skips them.  ``order_explains``: a node
sent a gradient never went on because the order put it before a node that sent it one.  ``last_left_out``: the
walk went on at every node of its order but the last, a leaf's node sent a gradient (``order[:-1]``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import micrograph

from grader.spec.probe import close, num


def unscaled(calls: list[tuple[Any, Any, Any]], answer: object) -> bool:
    """Whether every call passed local_grads the gradient one and each leaf's answer is the plain sum of what the
    calls sent its node, where the chain rule along those calls (each sent gradient times what reached its sender)
    gives some leaf another number, every node run after the first sent a gradient: what reached a node never scaled
    what it passed on (not ``local_grads(node, 1.0) * g``, whose answers are scaled; where scaling changes no leaf,
    nothing is told)."""
    reached: dict[Any, list[float]] = {}
    scaled: dict[Any, float] = {}  # what reached each node, each sent gradient times what reached its sender
    for k, (node, grad, out) in enumerate(calls):
        if type(grad) not in (int, float) or grad != 1.0 or not isinstance(out, (tuple, list)) or (k and node not in reached):
            return False  # a node run that no call sent a gradient to: some other walk (by name, say)
        for (child, _), sent in zip(node.next_functions, out):
            if child is not None and type(sent) in (int, float):
                reached.setdefault(child, []).append(float(sent))
                scaled[child] = scaled.get(child, 0.0) + float(sent) * (1.0 if k == 0 else scaled.get(node, 0.0))
    items = list(dict.items(answer)) if isinstance(answer, dict) else []
    leaves = [(node, [num(g) for k, g in items if k is node.variable]) for node in reached if isinstance(node, micrograph.AccumulateGrad)]
    return (any(not close(math.fsum(reached[node]), scaled[node]) for node, _ in leaves)
            and bool(leaves) and all(given and type(given[0]) is float and close(given[0], math.fsum(reached[node])) for node, given in leaves))


def scaled_twice(wrong: list[Any], senders: dict[Any, list[tuple[Any, float]]], went_on: dict[Any, float]) -> bool:
    """Whether some node went on with no sum of what reached it (``wrong``) and every node a gradient reached that
    went on did so with the sum of each gradient sent to it times what its sender went on with: the walk multiplied
    what local_grads returned by the node's gradient, which local_grads had multiplied in already."""
    return bool(wrong) and all(close(went_on[node], math.fsum(sent * went_on.get(sender, 0.0) for sender, sent in sent_by))
                               for node, sent_by in senders.items() if node in went_on)


def left_out(reached: dict[Any, list[float]], went_on: dict[Any, float], orders: Sequence[Any]) -> bool:
    """Whether some node the walk's calls sent a gradient to (``reached``) never went on (no call of local_grads
    on it, or for a leaf's node no entry in the answer: ``went_on``), and the one order backprop's
    topological_order call returned leaves it out."""
    if len(orders) != 1:
        return False
    listed = {id(node) for node in orders[0]}
    return any(id(node) not in listed and node not in went_on for node in reached)


def leaves_left_out(reached: dict[Any, list[float]], went_on: dict[Any, float], orders: Sequence[Any]) -> bool:
    """Whether ``left_out`` holds and every node it finds is a leaf's AccumulateGrad node, the one order holding
    no AccumulateGrad node at all: the answer lacks those leaves because the order skipped every leaf's node,
    which is what the sentence of the walk names (an entry missing follows from it)."""
    if not left_out(reached, went_on, orders):
        return False
    listed = {id(node) for node in orders[0]}
    missed = [node for node in reached if id(node) not in listed and node not in went_on]
    return (all(isinstance(node, micrograph.AccumulateGrad) for node in missed)
            and not any(isinstance(node, micrograph.AccumulateGrad) for node in orders[0]))


def order_explains(reached: dict[Any, list[float]], went_on: dict[Any, float], senders: dict[Any, list[tuple[Any, float]]],
                   orders: Sequence[Any]) -> bool:
    """Whether some node sent a gradient that never went on comes, in the order backprop walked, before a node that
    sent it one: it was passed over before anything reached it, which the order tells, not a pairing of the gradients."""
    return any(node not in went_on and math.fsum(grads) != 0 and not after_senders(node, senders[node], orders)
               for node, grads in reached.items()) and bool(orders)


def after_senders(node: Any, sent: list[tuple[Any, float]], orders: Sequence[Any]) -> bool:
    """Whether some order puts ``node`` after every node that sent it a gradient."""
    for order in orders:
        at = {id(n): i for i, n in enumerate(order)}
        if id(node) in at and all(id(sender) in at and at[id(sender)] < at[id(node)] for sender, _ in sent):
            return True
    return False


def last_left_out(calls: list[tuple[Any, Any, Any]], answer: object, orders: Sequence[Any]) -> bool:
    """Whether the last node of the one order backprop's topological_order call returned is an AccumulateGrad node
    that the walk's calls sent a gradient to, whose leaf has no entry in the answer, while every other node of that
    order sent a gradient went on (an op node's call of local_grads, a leaf's entry, one at least): the walk left out
    the last node of its order, and only it.  The walk must be seen to go past its first leaf (that leaf is the last node, or
    a node after it went on): a walk that stopped at its first leaf leaves out every later node, here the last."""
    if len(orders) != 1 or not orders[0] or not isinstance(answer, dict):
        return False
    order = list(orders[0])
    if not isinstance(order[-1], micrograph.AccumulateGrad):
        return False
    ran, keys = {id(node) for node, _, _ in calls}, {id(key) for key in dict.keys(answer)}
    sent = {id(child) for node, _, out in calls
            for (child, _), g in zip(getattr(node, "next_functions", ()), out if isinstance(out, (tuple, list)) else ())
            if child is not None and g is not None}

    def went_on(node: Any) -> bool:
        return id(node.variable) in keys if isinstance(node, micrograph.AccumulateGrad) else id(node) in ran
    first = next(k for k, node in enumerate(order) if isinstance(node, micrograph.AccumulateGrad))
    past_first = first == len(order) - 1 or any(went_on(n) for n in order[first + 1:-1] if id(n) in sent)
    return (id(order[-1]) in sent and not went_on(order[-1]) and past_first and bool(keys)  # some leaf answered
            and all(went_on(n) for n in order[:-1] if id(n) in sent))
