"""Which part of a build-track engine wrote a leaf's ``.grad`` during a backward call.

From ex19 on, ``store_grad`` is where a leaf's gradient is added into ``.grad``, and the stub's
``AccumulateGrad.apply`` writes through it.  An ``apply`` kept from ex17 that sets ``.grad``
itself (``self.variable._grad = Value(grad)``: right there, where store_grad overwrote) never
reaches this stage's ``store_grad``, whose sum the student then looks for in vain.  So, while a
probe's backward runs, a wrapper in front of ``AccumulateGrad.apply`` notes the leaves whose
``.grad`` an ``apply`` call changed without calling ``store_grad`` (the module's function, as
the stub's ``apply`` looks it up), the way ``grader.spec.build_order`` watches ``apply``.  On
PyTorch's side (no such class) nothing is watched and nothing is noted.
"""

from __future__ import annotations

import contextlib
import warnings
from typing import Any, Iterator

STORE = "store_grad"


def _grad(leaf: Any) -> object:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return leaf.grad
        except Exception:  # noqa: BLE001 - the student's getter: a failure is told elsewhere
            return None


def _number(grad: object) -> object:
    try:
        return grad.item()  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - None, or the student's object: compared by identity then
        return None


@contextlib.contextmanager
def writes_beside_store(sub: Any) -> Iterator[list[Any]]:
    """While the block runs, the leaves whose ``.grad`` an ``AccumulateGrad.apply`` call changed
    (another object, or another number) without calling the module's ``store_grad``, in the
    list yielded; an empty list where the module has no such class or function (PyTorch's)."""
    found: list[Any] = []
    cls, store = getattr(sub, "AccumulateGrad", None), getattr(sub, STORE, None)
    original = vars(cls).get("apply") if isinstance(cls, type) else None
    if not callable(original) or not callable(store):
        yield found
        return
    stored: list[Any] = []

    def watched_store(v: Any, *args: Any, **kwargs: Any) -> Any:
        stored.append(v)
        return store(v, *args, **kwargs)

    def watched_apply(self: Any, *args: Any, **kwargs: Any) -> Any:
        leaf = getattr(self, "variable", None)
        before, calls = _grad(leaf), len(stored)
        try:
            return original(self, *args, **kwargs)
        finally:
            after = _grad(leaf)
            changed = after is not before or _number(after) != _number(before)
            if changed and not any(v is leaf for v in stored[calls:]) and not any(v is leaf for v in found):
                found.append(leaf)

    setattr(sub, STORE, watched_store)
    setattr(cls, "apply", watched_apply)
    try:
        yield found
    finally:
        setattr(sub, STORE, store)
        setattr(cls, "apply", original)
