"""Lists of the nodes a build-track backward ran, by their labels (``grader.spec.build_order``):
which ran before a node that sends it a gradient, which ran while a newer node was ready, and the
order with the ready AccumulateGrad nodes' ties put in name order.  Kept apart from the watching itself, which reads the engine."""

from __future__ import annotations

from typing import Any

from grader.spec.facts import CONTEXT

ACCUMULATE = "AccumulateGrad("  # the label of a leaf's node begins so: AccumulateGrad(w)


def too_early(order: list[str], feeders: dict[str, list[str]]) -> tuple[str, str] | None:
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


def passed_over(order: list[str], feeders: dict[str, list[str]], names: dict[str, Any]) -> dict[str, list[str]]:
    """Context ``~passed_over``: the first node that ran while another, every feeder of which had run
    (ready), had a higher sequence_nr (an AccumulateGrad's is infinite, as the given class sets it),
    and that node; nothing where each node ran was the newest ready, or a sequence_nr is unknown."""
    def sequence(label: str) -> float | None:
        if label.startswith(ACCUMULATE):
            return float("inf")
        nr = getattr(getattr(names.get(label.removesuffix(".grad_fn")), "grad_fn", None), "sequence_nr", None)
        return float(nr) if type(nr) in (int, float) else None

    ran: set[str] = set()
    for label in order:
        ready = [other for other in feeders if other not in ran and other != label
                 and all(f in ran for f in feeders[other])]
        numbers = [sequence(other) for other in [label, *ready]]
        if None in numbers or label in ran:
            return {}
        newer = next((other for other, nr in zip(ready, numbers[1:]) if nr > numbers[0]), None)  # type: ignore[operator]
        if newer is not None:
            return {CONTEXT + "passed_over": [label, newer]}
        ran.add(label)
    return {}
