"""retain_grad() on a leaf, probed at every stage after ex18, where it first shows.

PyTorch's ``retain_grad()`` changes nothing on a leaf that requires grad: ``retains_grad``
stays False and backward writes the leaf's gradient into ``.grad`` once, through its
AccumulateGrad.  An ex18 answer that tells the leaf's node to keep it as well (the node
``gradient_edge`` gives a leaf is its AccumulateGrad) stores that gradient a second time, which
ex18's replacing ``store_grad`` hides and ex19's adding one shows: so each later stage probes
it, with its own engine, in one of its tests (key ``RETAINED_LEAF``).
"""

from __future__ import annotations

from typing import Any

from micrograph.i18n import N_

from grader.spec.build import fact, flag
from grader.spec.build_reads import grad_quiet
from grader.spec.held import kept
from grader.spec.raised import raised

RETAINED_LEAF = ("retain_grad() on a leaf that requires grad changes nothing: retains_grad stays False, "
                 "and backward writes the leaf's gradient into its .grad once, through its AccumulateGrad, "
                 "as without retain_grad()")
CALLED = "w.retain_grad(); (w * x + w).backward()"


def leaf_retained(sub: Any, w0: float, x0: float) -> list[dict[str, Any]]:
    """``w.retain_grad()`` on a leaf, then one backward of w * x + w: whether either raised,
    ``w.grad`` (the gradient stored twice shows here) and ``w.retains_grad``."""
    w, x = sub.Value(w0, requires_grad=True), sub.Value(x0, requires_grad=True)
    retained = raised(w.retain_grad, "w.retain_grad() on a leaf that requires grad")
    y = kept(w * x + w)  # no later root takes its node's id (``grader.spec.held``)
    return [retained, raised(y.backward, N_("(w * x + w).backward() after w.retain_grad() on the leaf w")),
            fact(grad_quiet(w), f"w.grad after {CALLED}"),
            fact(grad_quiet(x), f"x.grad after {CALLED}"),
            fact(flag(getattr(w, "retains_grad", None)), f"w.retains_grad after {CALLED}")]
