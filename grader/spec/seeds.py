"""A custom Function's backward seeded with two gradients (``y.backward(gradient)``): what it
passes on to x must grow in proportion to the gradient reaching its node.  Where it does, a
gradient that differs comes from the local derivative backward multiplies by; where it does not,
from what backward does with the incoming gradient (ignores it, or decides by it whether to pass
it on) (ex14)."""

from __future__ import annotations

import math
from typing import Any, Callable

from micrograph import Value

from grader.spec.facts import CONTEXT, Check
from grader.spec.probe import close, num
from grader.spec.provenance import check

def in_proportion(make: Callable[[Value], Any], x0: float) -> bool:
    """Whether x's gradient from make(x) grows with the gradient backward is seeded with
    (``SEEDS``): then a gradient that differs comes from the local derivative backward multiplies
    the incoming gradient by, not from what it does with that gradient."""
    try:
        found = seeded(make, x0)
    except Exception:  # noqa: BLE001 - context only: the first call's own error is the test's
        return False
    return (found is not None and all(type(g) is float for g in found) and found[0] != 0.0  # zero grows by nothing
            and close(found[1], found[0] * SEEDS[1] / SEEDS[0]))


SEEDS = (1.0, 3.0)  # two gradients for the Function's output: what it passes on must scale with them


def seeded(op: Callable[[Value], Any], x0: float) -> list[float | None] | None:
    """x's gradient from op(x).backward(seed) for each of ``SEEDS``, a new x each time (None:
    no gradient); None when op(x) is no Value that requires grad."""
    found = []
    for seed in SEEDS:
        x = Value(x0, requires_grad=True)
        y = op(x)
        if not isinstance(y, Value) or not y.requires_grad:
            return None
        y.backward(Value(seed))
        found.append(num(x.grad) if isinstance(x.grad, Value) else None)
    return found


def scales(op: Callable[[Value], Any], x0: float, name: str) -> dict[str, Any]:
    """The SCALES_WITH_GRAD fact of ``op`` at ``x0``: backward from op(x) seeded with each of
    ``SEEDS`` (y.backward(gradient)), x's gradient grows in proportion.  ``~same``: where it
    does not, x got the same gradient both times (backward's grad argument ignored); ``~gated``:
    x got a gradient at one seed and zero at the other (whether backward passes the gradient on
    follows the gradient, not x).  It holds where it cannot be judged (no Value, no gradient, or
    zero at both seeds: other facts tell those)."""
    found = seeded(op, x0)
    if found is None or any(type(g) is not float for g in found) or all(g == 0.0 for g in found):
        return check(Check.SCALES_WITH_GRAD, True, f"{name}.backward")
    first, second = found
    if first == 0.0 or second == 0.0:
        return {**check(Check.SCALES_WITH_GRAD, False, f"{name}.backward"), CONTEXT + "gated": True}
    fact = check(Check.SCALES_WITH_GRAD, math.isclose(second, first * SEEDS[1] / SEEDS[0], rel_tol=1e-9),
                 f"{name}.backward")
    fact[CONTEXT + "same"] = math.isclose(first, second, rel_tol=1e-12)
    return fact
