"""Gradients that meet at a node, in a backward pass written by hand (ex13's backprop).

The student's backprop calls their module's ``local_grads(node, grad)`` with the gradient that
reached a node and gets one gradient back per ``next_functions`` entry.  ``recorded`` wraps it
and keeps every call.  From those calls alone the probe knows what the student's own walk sent
to each node (the gradients returned along the edges into it) and what it went on with there
(the gradients it passed to local_grads for that node, summed over its calls, or the number it
returned for a leaf, at the leaf's AccumulateGrad node).  So ``summed`` tells, without the
reference's numbers, whether the walk added up the gradients that met at a node: overwriting
one with the next keeps only one of them, and running a node before a gradient sent to it
arrived (the walk's order) leaves that one out.  ``grader.spec.leaf_entries`` tells an answer that
gave two leaves of one number a single entry.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any

import micrograph

from grader.spec.facts import CONTEXT, Check
from grader.spec.probe import close, num, rounded_to
from grader.spec.provenance import check
from grader.spec.walked import after_senders, last_left_out, leaves_left_out, left_out, order_explains, scaled_twice, unscaled

Call = tuple[Any, Any, Any]
"""One call of local_grads: the node, the gradient passed in, what it returned."""


@contextlib.contextmanager
def recorded(sub: ModuleType) -> Iterator[list[Call]]:
    """Every call of the submission's local_grads made in the block, in order."""
    calls: list[Call] = []
    original = sub.local_grads

    def recording(node: Any, grad: Any) -> Any:
        out = original(node, grad)
        calls.append((node, grad, out))
        return out

    sub.local_grads = recording
    try:
        yield calls
    finally:
        sub.local_grads = original


@contextlib.contextmanager
def orders_returned(sub: ModuleType) -> Iterator[list[Any]]:
    """Every list the submission's topological_order returned in the block (backprop's own calls)."""
    orders: list[Any] = []
    original = getattr(sub, "topological_order", None)
    if not callable(original):
        yield orders
        return

    def returning(*args: Any, **kwargs: Any) -> Any:
        order = original(*args, **kwargs)
        if type(order) in (list, tuple):
            orders.append(order)
        return order

    sub.topological_order = returning
    try:
        yield orders
    finally:
        sub.topological_order = original


def summed(calls: list[Call], answer: object, label: str, orders: Sequence[Any] = (), names: Sequence[tuple[Any, str]] = (),
           by_name: str | None = None, held: tuple[Any, float] | None = None) -> dict[str, Any]:
    """The ARRIVALS_SUMMED fact of one backprop call: at every node that gradients reached along more than one edge, the walk went on with
    their sum. Where it did not, context says why: ``~late``, local_grads ran on such a node before a gradient sent to it (the walk's
    order); ``~leaf_early``, a leaf's answer is the sum of the gradients sent to its node by the nodes before it in an order backprop's
    topological_order call returned (``orders``), which puts a node that sends it one after it (``~leaf``, that leaf's name in
    ``names``, pairs of a leaf and its name); ``~kept_one``, it went on with one of them (not where that one is their product too, the
    other 0: ``*`` for ``+`` is no sum); ``~listed_twice``, an order it got lists a node more than once; ``~shifted``, it paired each
    call's gradients with the node's inputs left once its None entries were dropped (``_shifted``); ``~first_only``, every node went on
    with what arrived along the first edge of its senders only (``_first_only``), or ``~first_dropped``, with all but that, where the
    walk is seen not to stop at its order's first leaf (``first_dropped``); ``~rounded``, a leaf's answer is that sum rounded
    (``_rounded_leaves``); ``~by_name``, it kept what reached the nodes under their names (``by_name``, as ``~op``: the caller judged
    it, ``kept_by_name``); ``~order_left_out``, before all these, a node sent a gradient never went on, left out of its order
    (``walked.left_out``; ``~leaves_left_out``, every such node a leaf's). It holds where nothing tells otherwise: no node reached twice, a gradient no number (other facts tell that),
    or 1.0 passed to every call (``local_grads(node, 1.0) * g``) unless kept by name, mirrored (``~reversed``) or never scaled
    (``~unscaled``, ``walked.unscaled``), or (``_plus_held``) at a leaf whose answer adds the .grad it held (``held``), which
    ``held_not_added`` tells."""
    ones = len(calls) > 1 and all(type(grad) in (int, float) and grad == 1.0 for _, grad, _ in calls)
    reached: dict[Any, list[float]] = {}
    along_first: dict[Any, list[float]] = {}  # the gradients sent to a node as its sender's next_functions[0]
    senders: dict[Any, list[tuple[Any, float]]] = {}  # each gradient sent to a node, with its sender
    sent_at: dict[Any, int] = {}  # the last call that sent each node a gradient
    first_run: dict[Any, int] = {}
    went_on: dict[Any, float] = {}
    try:
        for i, (node, grad, out) in enumerate(calls):
            went_on[node] = went_on.get(node, 0.0) + float(grad)
            first_run.setdefault(node, i)
            for k, ((child, _), sent) in enumerate(zip(node.next_functions, out)):
                if child is not None and sent is not None:
                    reached.setdefault(child, []).append(float(sent))
                    along_first.setdefault(child, []).extend([float(sent)] if k == 0 else [])
                    senders.setdefault(child, []).append((node, float(sent)))
                    sent_at[child] = i
    except (TypeError, ValueError):  # a node's gradient that is no number: other facts tell it
        return check(Check.ARRIVALS_SUMMED, True, label)
    _leaves_went_on(reached, went_on, answer)
    turned = _reversed(calls, reached, went_on, answer) and not order_explains(reached, went_on, senders, orders)
    if left_out(reached, went_on, orders) or (ones and not turned and by_name is None):  # the order leaves a node out
        return _told_first(calls, answer, label, left_out(reached, went_on, orders), leaves_left_out(reached, went_on, orders))
    wrong = [node for node, arrived in reached.items() if len(arrived) > 1 and node in went_on
             and not close(went_on[node], math.fsum(arrived)) and not _plus_held(node, went_on[node], arrived, held)]
    first_only = _first_only(reached, along_first, went_on, senders, orders)
    dropped = len(calls) > 1 and first_dropped(reached, along_first, went_on) and _past_first_leaf(calls, orders) and not _last_kept(reached, went_on)
    fact = {**check(Check.ARRIVALS_SUMMED, not wrong and not first_only and not dropped and not turned and by_name is None,
                    label), CONTEXT + "first_only": first_only, CONTEXT + "first_dropped": dropped, CONTEXT + "reversed": turned,
            **({} if by_name is None else {CONTEXT + "by_name": True, CONTEXT + "op": by_name})}
    if wrong:
        fact[CONTEXT + "late"] = any(first_run.get(node, len(calls)) < sent_at[node] for node in wrong)
        early = [node.variable for node in wrong if isinstance(node, micrograph.AccumulateGrad)
                 and _taken_early(node, went_on[node], senders[node], orders)]
        fact[CONTEXT + "leaf_early"] = bool(early)
        fact[CONTEXT + "leaf"] = next((name for leaf, name in names if early and leaf is early[0]), None)
        fact[CONTEXT + "rounded"], fact[CONTEXT + "scaled_twice"] = _rounded_leaves(wrong, reached, went_on), scaled_twice(wrong, senders, went_on)
        fact[CONTEXT + "kept_one"] = (all(any(close(went_on[node], a) for a in reached[node]) for node in wrong)
                                      and not all(close(went_on[node], math.prod(reached[node])) for node in wrong))
    if wrong or first_only:  # an order that lists a node twice: the walk used it at each place
        fact[CONTEXT + "listed_twice"] = lists_twice(orders)
        fact[CONTEXT + "shifted"] = _shifted(calls, went_on)
    return fact


def _told_first(calls: list[Call], answer: object, label: str, order_left_out: bool, leaves: bool) -> dict[str, Any]:
    """The ARRIVALS_SUMMED fact where no reading of the calls as another kind of walk is told: a node sent a gradient
    never went on, left out of the walk's order (``~order_left_out``; ``~leaves_left_out``, ``leaves``: those are the
    leaves' nodes, the order holding none); or 1.0 was passed to every call, which holds unless what reached a node
    never scaled what it passed on (``~unscaled``)."""
    if order_left_out:
        return {**check(Check.ARRIVALS_SUMMED, False, label), CONTEXT + "order_left_out": True, CONTEXT + "leaves_left_out": leaves}
    return {**check(Check.ARRIVALS_SUMMED, not unscaled(calls, answer), label), CONTEXT + "unscaled": True}


def _plus_held(node: Any, went_on: float, arrived: list[float], held: tuple[Any, float] | None) -> bool:
    """Whether ``node`` is the AccumulateGrad of the leaf that held a .grad (``held``) and went on with the sum of
    what ``arrived`` there plus that .grad's number."""
    return (held is not None and isinstance(node, micrograph.AccumulateGrad) and node.variable is held[0]
            and close(went_on, math.fsum([*arrived, held[1]])))


def held_not_added(calls: list[Call], answer: object, leaf: Any, held: float, label: str) -> dict[str, Any]:
    """The HELD_NOT_ADDED fact of one backprop call: the number returned for ``leaf``, whose .grad held ``held`` as
    the call began, is not the sum of the gradients the walk's local_grads calls sent to its node plus ``held``
    (a walk that adds what .grad held into its answer, as backward adds into .grad; the statement's reads no .grad).
    It holds where no call sent that node a gradient, where the sum alone is the answer, or where the answer is one
    of several gradients sent (a walk that kept one of them, ``ONE_KEPT``'s; their sum plus ``held`` giving it too is
    a coincidence of the numbers: the one left out is ``-held``)."""
    sent: list[float] = []
    try:
        for node, _, out in calls:
            sent += [float(g) for (child, _), g in zip(node.next_functions, out)
                     if g is not None and isinstance(child, micrograph.AccumulateGrad) and child.variable is leaf]
    except (TypeError, ValueError):  # a gradient that is no number: other facts tell it
        return check(Check.HELD_NOT_ADDED, True, label)
    items = list(dict.items(answer)) if isinstance(answer, dict) else []
    given = [number for key, g in items if key is leaf and type(number := num(g)) is float]
    one_kept = len(sent) > 1 and bool(given) and any(close(given[0], g) for g in sent)
    added = bool(sent and given) and not close(given[0], math.fsum(sent)) and close(given[0], math.fsum([*sent, held])) \
        and not one_kept
    return check(Check.HELD_NOT_ADDED, not added, label)


def _rounded_leaves(wrong: list[Any], reached: dict[Any, list[float]], went_on: dict[Any, float]) -> bool:
    """Whether every node that went on with no sum of what reached it is a leaf's, whose answer is that sum
    rounded to fewer digits: the sum was right, the number returned for the leaf rounded."""
    return all(isinstance(node, micrograph.AccumulateGrad) and rounded_to(went_on[node], math.fsum(reached[node]))
               for node in wrong)


def _leaves_went_on(reached: dict[Any, list[float]], went_on: dict[Any, float], answer: object) -> None:
    """A leaf's node "went on" with the number the answer gives that leaf: its gradient, as backprop told it
    (a Value's number too: its type, no float, is told by its own fact, not as a sum gone wrong)."""
    items = list(dict.items(answer)) if isinstance(answer, dict) else []
    for node in reached:
        if isinstance(node, micrograph.AccumulateGrad):
            given = [number for leaf, g in items if leaf is node.variable and type(number := num(g)) is float]
            if given:
                went_on[node] = given[0]


def _shifted(calls: list[Call], went_on: dict[Any, float]) -> bool:
    """Whether every node the walk went on at (but the root) went on with the sum of what it was
    sent where each call's gradients are paired with its node's next_functions without their None
    entries (``zip([c for c, _ in next_functions if c is not None], local_grads(...))``), and that
    pairing is not the right one for some call (a None entry before a node): the gradients after
    a None went to the wrong nodes."""
    paired: dict[Any, list[float]] = {}
    moved = False
    for node, _, out in calls:
        kept = [child for child, _ in node.next_functions if child is not None]
        moved = moved or [child for child, _ in node.next_functions][:len(kept)] != kept
        for child, sent in zip(kept, out):
            if sent is not None:
                paired.setdefault(child, []).append(float(sent))
    return moved and all(close(went_on[node], math.fsum(paired[node])) for node in went_on if node in paired)


def _reversed(calls: list[Call], reached: dict[Any, list[float]], went_on: dict[Any, float], answer: object) -> bool:
    """Whether the gradients local_grads returned do not fit what the walk did (``_fits``) where each
    goes to the input at its own entry of next_functions, and do where each call's gradients are
    paired with its node's next_functions in reverse order (``zip(next_functions[::-1], ...)``):
    each gradient went to the input at the mirrored position, not to the one at its own, each call
    passed what the calls before it so sent its node (not a walk in another order).  Where
    every key of the answer is a leaf of the graph, a leaf left out of it is seen too."""
    leaves = isinstance(answer, dict) and all(any(isinstance(n, micrograph.AccumulateGrad) and key is n.variable
                                                  for n in reached) for key in dict.keys(answer))
    if not calls or _fits(reached, went_on, calls[0][0], leaves):
        return False
    paired: dict[Any, list[float]] = {}
    for k, (node, grad, out) in enumerate(calls):
        if k and not close(float(grad), math.fsum(paired.get(node, []))):  # not what the mirrored calls before it sent
            return False
        for child, sent in zip([child for child, _ in node.next_functions][::-1], out):
            if child is not None and sent is not None:
                paired.setdefault(child, []).append(float(sent))
    return _fits(paired, went_on, calls[0][0], leaves) and all(node in paired for node in went_on if node is not calls[0][0])


def _fits(sent: dict[Any, list[float]], went_on: dict[Any, float], root: Any, leaves: bool = False) -> bool:
    """Whether every node the walk went on at went on with the sum of what ``sent`` gives it, and
    every op node (and, ``leaves``, every leaf's node) sent a sum other than 0 ran (has an answer)."""
    return (all(close(went_on[node], math.fsum(sent[node])) for node in went_on if node in sent and node is not root)
            and all(node in went_on for node, grads in sent.items()
                    if (leaves or not isinstance(node, micrograph.AccumulateGrad)) and math.fsum(grads) != 0))


def lists_twice(orders: Sequence[Any]) -> bool:
    """Whether an order backprop's topological_order call returned lists some node twice."""
    return any(len({id(n) for n in order}) < len(order) for order in orders)


def first_dropped(reached: dict[Any, list[float]], along_first: dict[Any, list[float]],
                  went_on: dict[Any, float]) -> bool:
    """Whether the walk went on, at every node a gradient reached, with what arrived along edges
    other than the first of its senders (``next_functions[0]``), while a gradient other than 0 was
    sent along a first edge: ``zip(next_functions[1:], local_grads(...)[1:])``, every node's first
    input left out.  A leaf whose answer the walk returned under no key of that leaf is not judged."""
    known = [node for node in reached if node in went_on or not isinstance(node, micrograph.AccumulateGrad)]
    lost = [node for node in known if any(g != 0 for g in along_first.get(node, []))]
    return bool(lost) and all(close(went_on.get(node, 0.0), math.fsum(reached[node]) - math.fsum(along_first.get(node, [])))
                              for node in known)


def _last_kept(reached: dict[Any, list[float]], went_on: dict[Any, float]) -> bool:
    """Whether every node a gradient reached went on with the last gradient sent to it (an
    overwrite, ``=`` for ``+=``): where each node is reached along the edges of one sender only
    (``b = a + a``), that is what leaving out every first edge gives as well, so no sign of it."""
    known = [node for node in reached if node in went_on or not isinstance(node, micrograph.AccumulateGrad)]
    return all(close(went_on.get(node, 0.0), reached[node][-1]) for node in known)


def _past_first_leaf(calls: list[Call], orders: Sequence[Any]) -> bool:
    """Whether the walk is seen not to have stopped at the first AccumulateGrad node of the one
    order backprop's topological_order call returned: local_grads ran on a node after it, or no
    gradient other than 0 was sent to one (nothing was left there to run)."""
    order = list(orders[0]) if len(orders) == 1 else []
    first = next((k for k, node in enumerate(order) if isinstance(node, micrograph.AccumulateGrad)), None)
    after = set() if first is None else {id(node) for node in order[first + 1:]}
    sent = any(id(child) in after for node, _, out in calls
               for (child, _), g in zip(node.next_functions, out if isinstance(out, (tuple, list)) else ())
               if child is not None and type(g) in (int, float) and g != 0)
    return not sent or any(id(node) in after for node, _, _ in calls)


def _first_only(reached: dict[Any, list[float]], along_first: dict[Any, list[float]], went_on: dict[Any, float],
                senders: dict[Any, list[tuple[Any, float]]], orders: Sequence[Any]) -> bool:
    """Whether the walk went on, at every node a gradient reached, with the sum of what arrived
    along the first edge of its senders only (nothing where none did), while a gradient other
    than zero was sent to some node along another edge, which an order backprop's
    topological_order call returned puts after every node that sent it one: the walk passed on
    ``local_grads(...)[0]`` alone, and every other input of a node got nothing (not a node run
    before its gradients arrived).  Some node reached along other edges only must have never run
    (``starved``): where every node reached ran, what it went on with may be the last gradient to
    arrive as well (an overwrite, ``b = a + a`` sending equal ones).  A leaf whose answer the walk
    returned under no key of that leaf (a dict keyed by its node) is not judged: what it went on
    with is not seen."""
    known = [node for node in reached if node in went_on or not isinstance(node, micrograph.AccumulateGrad)]
    lost = [node for node in known if not close(math.fsum(reached[node]), math.fsum(along_first.get(node, [])))]
    starved = [node for node in lost if not along_first.get(node) and node not in went_on]  # sent to, never run
    return (bool(starved) and all(after_senders(node, senders[node], orders) for node in lost)
            and all(close(went_on.get(node, 0.0), math.fsum(along_first.get(node, []))) for node in known))


def _taken_early(node: Any, answer: float, sent: list[tuple[Any, float]], orders: Sequence[Any]) -> bool:
    """Whether some order puts a node that sent ``node`` a gradient after it, and ``answer`` is
    the sum of what the nodes before it sent: the leaf's gradient taken where the order reached it."""
    for order in orders:
        at = {id(n): i for i, n in enumerate(order)}
        if id(node) not in at or any(id(sender) not in at for sender, _ in sent):
            continue
        before = [g for sender, g in sent if at[id(sender)] < at[id(node)]]
        if 0 < len(before) < len(sent) and close(answer, math.fsum(before)):
            return True
    return False


def seeded(calls: list[Call], root: Any, label: str) -> dict[str, Any]:
    """The SEEDED_ONE fact of one backprop call: the first gradient its walk passed to
    local_grads for ``root.grad_fn`` is one, d root / d root.  It holds where nothing tells
    otherwise: local_grads never ran on that node, or the gradient is not a number."""
    first = next((grad for node, grad, _ in calls if node is getattr(root, "grad_fn", None)), None)
    try:
        return check(Check.SEEDED_ONE, first is None or close(float(first), 1.0), label)
    except (TypeError, ValueError):  # no number: other facts tell it
        return check(Check.SEEDED_ONE, True, label)


def past_the_first_leaf(calls: list[Call], answer: object, label: str, orders: Sequence[Any]) -> dict[str, Any]:
    """The PAST_FIRST_LEAF fact of one backprop call: it fails where the answer holds the first
    leaf of the one order backprop's topological_order call returned (its first AccumulateGrad
    node) and no other, all that was sent to it, local_grads ran on no node after that one in the
    order, a gradient other than 0 was sent to one of them, and every op node before it that was
    sent one ran: the walk
    stopped at its first leaf (a ``break`` for a ``continue``), not one that drops gradients (a node
    passed over before that leaf, or only zeros sent past it, is another slip); where that leaf is the last node
    but one, a walk that left out the last node of its order too (``~or_last``); where the walk is seen past its first
    leaf and left out only the last node, that (``~last_left_out``, ``walked.last_left_out``)."""
    if last_left_out(calls, answer, orders):  # the order walked to its end but for its last node (``~last_left_out``)
        return {**check(Check.PAST_FIRST_LEAF, False, label), CONTEXT + "last_left_out": True}
    if len(orders) != 1 or not isinstance(answer, dict):
        return check(Check.PAST_FIRST_LEAF, True, label)
    order = list(orders[0])
    first = next((k for k, node in enumerate(order) if isinstance(node, micrograph.AccumulateGrad)), None)
    if first is None:
        return check(Check.PAST_FIRST_LEAF, True, label)
    after = {id(node) for node in order[first + 1:]}  # the order keeps its nodes alive: ids stand for them
    ran = {id(node) for node, _, _ in calls}
    sent = {id(child) for node, _, out in calls
            for (child, _), g in zip(getattr(node, "next_functions", ()), out if isinstance(out, (tuple, list)) else ())
            if child is not None and type(g) in (int, float) and g != 0}
    skipped_before = any(id(node) in sent and id(node) not in ran for node in order[:first])
    items = list(dict.items(answer))
    only_first = len(items) == 1 and items[0][0] is order[first].variable
    to_first = [g for node, _, out in calls for (child, _), g in zip(getattr(node, "next_functions", ()),
                                                                     out if isinstance(out, (tuple, list)) else ())
                if child is order[first] and type(g) in (int, float)]
    whole = only_first and type(items[0][1]) in (int, float) and close(float(items[0][1]), math.fsum(to_first))
    stopped = whole and bool(sent & after) and not ran & after and not skipped_before
    return {**check(Check.PAST_FIRST_LEAF, not stopped or _drops_first(calls, items), label),
            CONTEXT + "or_last": first == len(order) - 2}  # that leaf the last but one: the last node left out, as well


def _drops_first(calls: list[Call], items: list[tuple[Any, Any]]) -> bool:
    """Whether what the walk went on with fits ``first_dropped`` too (every first edge's gradient
    left out): then the nodes past the first leaf got nothing to run with, and the walk may have
    gone on to the end of its order (a graph of another test tells the two apart)."""
    reached: dict[Any, list[float]] = {}
    along_first: dict[Any, list[float]] = {}
    went_on: dict[Any, float] = {}
    try:
        for node, grad, out in calls:
            went_on[node] = went_on.get(node, 0.0) + float(grad)
            for k, ((child, _), sent) in enumerate(zip(node.next_functions, out)):
                if child is not None and sent is not None:
                    reached.setdefault(child, []).append(float(sent))
                    along_first.setdefault(child, []).extend([float(sent)] if k == 0 else [])
    except (TypeError, ValueError):
        return False
    for node in reached:
        given = [g for leaf, g in items if isinstance(node, micrograph.AccumulateGrad) and leaf is node.variable]
        if given and type(given[0]) in (int, float):
            went_on[node] = float(given[0])
    return first_dropped(reached, along_first, went_on)
