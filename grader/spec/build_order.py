"""The order in which a build-track engine runs its nodes, observed while backward runs.

Gradients alone show a wrong order only where a floating-point sum happens to depend on it.
So a probe watches each node of a program's graph run: on the student's engine it puts a
recording wrapper in front of each node class's ``apply`` while backward runs (the method the
stage's statement has the engine call, ``node.apply(grad)``), on PyTorch's a node pre-hook (``grad_fn.register_prehook``),
which runs just before the node does.  Each node is named as the student reads it
(``"b.grad_fn"``, ``"AccumulateGrad(w)"``: code, the same in every language), from the names the probe gives its program's
values, so the facts hold no number:

* ``runs_once``: no node ran twice (a recursive walk runs a shared node once per path);
* ``after_feeders``: no node ran before a node that sends it a gradient; the student's side
  names the first such pair (context, told with the difference);
* the whole order, compared with PyTorch's (the newest ready node first).  Ready
  ``AccumulateGrad`` nodes all have the highest sequence number, so the statement leaves their
  order among themselves open (a ready list sorted then popped from its end runs them last
  pushed first, a heap first pushed first): a run of them is compared as a set, in name order.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable

from grader.spec.build import fact
from grader.spec.facts import CONTEXT, Check
from grader.spec.provenance import check

UNNAMED = "a node the program does not name"
ACCUMULATE = "AccumulateGrad("
_MAX_RUNS = 64  # a runaway engine's runs are not all worth reporting


def _nodes(root: Any) -> list[Any]:
    """Every node reachable from ``root`` through ``next_functions``, each once."""
    found: list[Any] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node is None or any(node is seen for seen in found):
            continue
        found.append(node)
        pairs = getattr(node, "next_functions", ())
        stack.extend(pair[0] for pair in list(pairs) if type(pair) in (tuple, list) and len(pair) == 2)
    return found


def _label(node: Any, names: dict[str, Any]) -> str:
    for name, v in names.items():
        if getattr(v, "grad_fn", None) is node:
            return f"{name}.grad_fn"
        if getattr(node, "variable", None) is v:
            return f"{ACCUMULATE}{name})"
    return UNNAMED


def _watch_class(cls: type, ran: Callable[[Any], None]) -> Callable[[], None]:
    """Call ``ran(node)`` each time a node whose class is exactly ``cls`` runs, before its
    ``apply``, however the engine calls it (``node.apply(grad)``, ``type(node).apply(node, grad)``,
    a class with ``__slots__``); the function that puts ``cls`` back as it was.  A subclass's own
    wrapper notes its nodes, so a node inherited ``apply`` is noted once."""
    own = "apply" in vars(cls)
    original = getattr(cls, "apply")

    def watched(self: Any, *args: Any, **kwargs: Any) -> Any:
        if type(self) is cls:
            ran(self)
        return original(self, *args, **kwargs)

    setattr(cls, "apply", watched)
    return (lambda: setattr(cls, "apply", original)) if own else (lambda: delattr(cls, "apply"))


def run_order(root: Any, names: dict[str, Any], start: Callable[[], None]) -> tuple[list[str], dict[str, list[str]]]:
    """The labels of the nodes ``start()`` (a backward from ``root``, a Value) ran, in order, and
    each node's label with the labels of the nodes that send it a gradient."""
    nodes = _nodes(getattr(root, "grad_fn", None))
    labels = {id(n): _label(n, names) for n in nodes}
    feeders: dict[str, list[str]] = {labels[id(n)]: [] for n in nodes}
    for n in nodes:
        for pair in list(getattr(n, "next_functions", ())):
            if pair[0] is not None:
                feeders[labels[id(pair[0])]].append(labels[id(n)])
    order: list[str] = []

    def ran(node: Any) -> None:  # ``nodes`` holds the graph's nodes alive: their ids are theirs
        if len(order) < _MAX_RUNS and id(node) in labels:
            order.append(labels[id(node)])

    python = [n for n in nodes if inspect.isfunction(getattr(type(n), "apply", None))]
    restores = [_watch_class(cls, ran) for cls in dict.fromkeys(type(n) for n in python)]
    for n in nodes:  # PyTorch's nodes have no Python apply: a pre-hook runs just before each
        if not any(n is p for p in python):
            n.register_prehook(lambda grads, n=n: ran(n))
    try:
        start()
    finally:
        for restore in restores:
            restore()
    return order, feeders


def _too_early(order: list[str], feeders: dict[str, list[str]]) -> tuple[str, str] | None:
    """The first node that ran before one of the nodes that feed it, and that node."""
    for i, node in enumerate(order):
        later = next((f for f in feeders.get(node, []) if f in order[i + 1:] or f not in order), None)
        if later is not None:
            return node, later
    return None


def ties_in_name_order(order: list[str]) -> list[str]:
    """``order`` with each run of consecutive AccumulateGrad nodes (ready together, all with
    the highest sequence_nr) sorted by name."""
    out: list[str] = []
    run: list[str] = []
    for label in [*order, ""]:
        if label.startswith(ACCUMULATE):
            run.append(label)
            continue
        out += sorted(run)
        run = []
        if label:
            out.append(label)
    return out


def order_facts(root: Any, names: dict[str, Any], program: str) -> list[dict[str, Any]]:
    """Run ``root.backward()`` watched; the facts about the order its nodes ran in."""
    order, feeders = run_order(root, names, root.backward)
    label = f"backward through {program}"
    early = _too_early(order, feeders)
    after = check(Check.AFTER_FEEDERS, early is None, label)
    if early is not None:  # context: told beside the difference, never compared
        after.update({CONTEXT + "ran": early[0], CONTEXT + "feeder": early[1]})
    return [check(Check.RUNS_ONCE, len(order) == len(set(order)), label), after,
            fact(ties_in_name_order(order), f"the nodes of {program}, in the order backward ran them")]
