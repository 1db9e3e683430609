"""Whether a saved value's change is found by its version or by its number: a node that keeps the
number it saved and compares it with the number now misses a change in place that brings the number
back, and takes a change through ``.data`` (which bumps no version) for one.  The other programs
change a saved number once, where both ways agree, or show one of the two alone (``zero_()`` of a
0, a ``.data`` change); this one tells the comparison itself."""

from __future__ import annotations

from typing import Any

from micrograph.i18n import N_

from grader.spec.build import claim
from grader.spec.held import held
from grader.spec.raised import error
from grader.spec.repeat import fresh_copy

BY_VERSION = N_("unpack compares the version a saved value has now with the version saved with it, never its number: "
                "a check of the number misses an in-place op that brings the number back (s.add_(1); s.add_(-1), "
                "zero_() of a 0) and refuses a change through .data, which bumps no version")
BACK_AGAIN = N_("s.add_(1); s.add_(-1) (s back at the number y.grad_fn saved, at a later version), y = w * s: then "
                "y.backward() raises MODIFIED")


def _raises(engine: Any, change: Any) -> bool:
    """Whether ``y.backward()`` raises, y = w * s, once ``change(s)`` ran on the s it saved."""
    w, s = engine.Value(0.75, requires_grad=True), engine.Value(0.5)
    y = w * s
    held(y, s)
    change(s)
    return error(y.backward) is not None


def compared_by_number(sub: Any) -> dict[str, Any]:
    """Whether a change that brings a saved number back goes unseen while a change through .data
    is refused: the two together are a comparison of numbers.  Where a plain change goes unseen
    too, or either change raises on its own, other rules tell it: this one holds."""
    engine = fresh_copy(sub) or sub
    try:
        plain = _raises(engine, lambda s: s.add_(1.0))
        back = _raises(engine, lambda s: (s.add_(1.0), s.add_(-1.0)))
        through_data = _raises(engine, lambda s: s.data.add_(1.0))
    except Exception:  # noqa: BLE001 - an in-place op or .data that fails is told by the other programs
        return claim(True, BACK_AGAIN)
    return claim(not plain or back or not through_data, BACK_AGAIN)
