"""Lists of the nodes a build-track backward ran, by their labels (``grader.spec.build_order``):
which ran before a node that sends it a gradient, and the order with the ready AccumulateGrad
nodes' ties put in name order.  Kept apart from the watching itself, which reads the engine."""

from __future__ import annotations

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
