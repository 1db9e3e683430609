"""ex16 programs on a leaf's flags: a leaf no operation has used yet (it has no AccumulateGrad,
and is a leaf all the same), an input an operation leaves as it was (a record that marks its
inputs makes a constant require grad), and leaves whose requires_grad was set after they were made
(PyTorch's edge follows the flag as it is when the operation runs)."""

from __future__ import annotations

from typing import Any

from micrograph.i18n import N_

from grader.spec.build import claim, described, fact
from grader.spec.build_reads import flag
from grader.spec.held import held

FRESH_LEAF = N_("for a leaf w that requires grad and that no operation has used yet, w.is_leaf")
INPUTS_KEPT = "c.requires_grad is False after c * w, c = Value(-2)"
SET_ON = N_("after c = Value(2); c.requires_grad = True")
SET_OFF = N_("after w * 3; w.requires_grad = False")


def fresh_leaf(sub: Any) -> dict[str, Any]:
    """``is_leaf`` of a leaf that requires grad, read before any operation used it: True, as for
    every leaf, where an is_leaf asked of the leaf's AccumulateGrad (made by the first operation)
    is not."""
    return fact(flag(sub.Value(0.5, requires_grad=True).is_leaf), FRESH_LEAF)


def inputs_kept(sub: Any) -> dict[str, Any]:
    """Whether an operation left its input's requires_grad as it was: a record that marks the
    inputs of what it records makes a constant require grad, and every later operation gives it an
    AccumulateGrad.  Holds where the flag was not False to begin with (Value(...) ignoring it)."""
    c = sub.Value(-2.0)
    before = flag(c.requires_grad)
    held(c * sub.Value(0.75, requires_grad=True))
    return claim(before is not False or flag(c.requires_grad) is False, INPUTS_KEPT)


def flag_set(sub: Any) -> list[Any]:
    """The edges of products of leaves whose requires_grad was set after they were made, either
    way: an AccumulateGrad made only by ``Value(..., requires_grad=True)`` is missing for the
    first, and a node kept on the leaf and handed out whatever its flag is wrong for the second,
    where PyTorch's edge follows the flag as it is when the operation runs."""
    c = sub.Value(2.0)
    c.requires_grad = True
    w, x = sub.Value(0.5, requires_grad=True), sub.Value(-1.5, requires_grad=True)
    held(w * 3)  # w's AccumulateGrad made, and kept alive by that graph
    w.requires_grad = False
    return [described(c * 3, "(c * 3)", SET_ON)["next_functions"], described(w * x, "(w * x)", SET_OFF)["next_functions"]]
