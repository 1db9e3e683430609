"""Whether a build-track backward records a graph while it runs.  PyTorch's backward, without
``create_graph``, builds no graph of the derivative (its documentation of ``create_graph``): the
gradients its nodes hand on require no grad.  An apply that computes with a saved Value itself
(``grad * self.unpack("other")``, not its number) gives the right numbers, yet records a node at
each product and hands on a Value that requires grad: seen at the leaf's AccumulateGrad, where
the gradient arrives (on PyTorch's engine through a pre-hook)."""

from __future__ import annotations

from typing import Any

from micrograph.i18n import N_

from grader.spec.build import claim
from grader.spec.build_backward_checks import handed_in_product

NO_GRAPH = ("backward records no graph as it runs, as PyTorch's does when create_graph is False: a gradient is "
            "a number, so an apply that multiplies it by a saved Value itself (not its number, item()) records "
            "a new node at each product and hands on a Value that requires grad")
HANDED = N_("y.backward(), y = w * x, hands w's AccumulateGrad a gradient that requires no grad")


def records_no_graph(sub: Any) -> dict[str, Any]:
    """Whether the gradient ``y.backward()`` hands w's AccumulateGrad, y = w * x of two leaves,
    requires no grad (a float, or a Value that requires none); holds where that apply is never
    seen to run (an engine that writes the leaves' .grad itself: the gradients tell it)."""
    got = handed_in_product(sub, at_root=False)
    return claim(not got or getattr(got[0], "requires_grad", False) is not True, HANDED)
