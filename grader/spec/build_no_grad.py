"""What in-place ops do under no_grad in the student's engine (ex22): a leaf that requires grad
may change there, with zero_ as with add_, and a non-leaf changed there keeps its grad_fn, each change bumping the version as outside it."""

from __future__ import annotations

from typing import Any

from micrograph.i18n import N_

from grader.spec.build import claim, fact, node_name, number
from grader.spec.raised import raised, returns_itself

ZEROED = N_("after y = w * 2; y.zero_() under no_grad")
ADDED = N_("after y = w * 2; y.add_(1) under no_grad")
ZERO_SELF = N_("zero_() changes the Value in place and returns it (self), as add_ does")


def in_place_no_grad(sub: Any) -> dict[str, list[Any]]:
    """zero_ and add_ under no_grad: a leaf that requires grad is zeroed as the SGD step adds (an
    inline "leaf that requires grad" check that skips check_in_place refuses it), and a non-leaf
    changed there keeps its grad_fn (an op that rebases when the value requires grad, not when
    recording(...) says so, records a node inside no_grad); zero_ returns the Value it changed."""
    out: dict[str, list[Any]] = {"step": [], "step_unrecorded": [], "step_version": [], "zero_self": []}
    w = sub.Value(1.25, requires_grad=True)
    with sub.no_grad():
        itself, said = returns_itself(w.zero_, w, N_("w.zero_() under no_grad on a leaf that requires grad"))
    out["step"].append(said)  # a refusal is told as the step's
    out["zero_self"].append(claim(itself, "w.zero_() is w"))
    out["step"].append(fact(number(w), N_("w.item() after w.zero_() under no_grad")))
    for method, args, call, when in (("zero_", (), N_("y.zero_() under no_grad, y = w * 2"), ZEROED),
                                     ("add_", (1.0,), N_("y.add_(1) under no_grad, y = w * 2"), ADDED)):
        y = sub.Value(-0.5, requires_grad=True) * 2
        with sub.no_grad():
            out["step"].append(raised(getattr(y, method), call, *args))
        out["step_unrecorded"].append(fact(node_name(getattr(y, "grad_fn", None)), f"{when}: y.grad_fn"))
        out["step_version"].append(fact(getattr(y, "_version", None), f"{when}: y._version"))
    return out
