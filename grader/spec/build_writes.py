"""Which part of a build-track engine wrote a leaf's ``.grad`` during a backward call, and how a
retained non-leaf's ``.grad`` came to hold what it holds.

From ex19 on, ``store_grad`` is where a leaf's gradient is added into ``.grad``, and the stub's
``AccumulateGrad.apply`` writes through it.  An ``apply`` kept from ex17 that sets ``.grad``
itself (``self.variable._grad = Value(grad)``: right there, where store_grad overwrote) never
reaches this stage's ``store_grad``, whose sum the student then looks for in vain.  So, while a
probe's backward runs, a wrapper in front of ``AccumulateGrad.apply`` notes the leaves whose
``.grad`` an ``apply`` call changed without calling ``store_grad`` (the module's function, as
the stub's ``apply`` looks it up), the way ``grader.spec.build_watch`` watches ``apply``.  On
PyTorch's side (no such class) nothing is watched and nothing is noted.

A retained non-leaf's gradient is written by backward itself, through the same ``store_grad``
(ex18's part); ``store_watched`` tells the two ways its sum goes missing apart: a backward that sets
``.grad`` itself without handing the value to ``store_grad`` (ex18's ``node.retained._grad = ...``),
a ``store_grad`` that, handed the gradient while ``.grad`` held a number, leaves that gradient
alone in ``.grad`` (a sum dropped in store_grad), and a ``.grad`` dropped before ``store_grad`` was
handed the value (a backward that starts a retained gradient anew).  Either is told beside the fact it explains.
"""

from __future__ import annotations

import contextlib
import warnings
from typing import Any, Iterator

from grader.spec.facts import CONTEXT

STORE = "store_grad"
BESIDE = CONTEXT + "retained_beside"  # the value's .grad changed, and store_grad was never handed it
REPLACED = CONTEXT + "replaced"  # store_grad, handed it while .grad held a number, left the gradient alone
CLEARED = CONTEXT + "cleared"  # .grad held a number as the block began, None when store_grad was handed it


def _grad(leaf: Any) -> object:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return leaf.grad
        except Exception:  # noqa: BLE001 - the student's getter: a failure is told elsewhere
            return None


def _number(grad: object) -> object:
    if type(grad) in (int, float):
        return float(grad)  # type: ignore[arg-type]
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


@contextlib.contextmanager
def store_watched(sub: Any, value: Any) -> Iterator[dict[str, Any]]:
    """While the block runs, the module's ``store_grad`` watched for ``value`` (a retained non-leaf);
    at its end the dict yielded holds the context a fact of ``value.grad`` is told with: ``BESIDE``
    where its ``.grad`` changed and ``store_grad`` was never handed it, ``REPLACED`` where a call
    handed it a gradient while its ``.grad`` held a number other than 0 and left ``.grad`` holding
    that gradient, not the two added; ``CLEARED`` where its ``.grad`` held a number as the block began
    and None when ``store_grad`` was first handed it.  Empty where the module has no ``store_grad``
    (PyTorch's)."""
    how: dict[str, Any] = {}
    store = getattr(sub, STORE, None)
    if not callable(store):
        yield how
        return
    handed: list[tuple[object, object, object]] = []  # (the number .grad held, the gradient, the number after)

    def watched_store(v: Any, grad: Any, *args: Any, **kwargs: Any) -> Any:
        if v is not value:
            return store(v, grad, *args, **kwargs)
        before = _number(_grad(v))
        try:
            return store(v, grad, *args, **kwargs)
        finally:
            handed.append((before, _number(grad), _number(_grad(v))))

    before = _grad(value), _number(_grad(value))
    setattr(sub, STORE, watched_store)
    try:
        yield how
    finally:
        setattr(sub, STORE, store)
        after = _grad(value)
        if not handed and (after is not before[0] or _number(after) != before[1]):
            how[BESIDE] = True
        if any(type(held) is float and held != 0.0 and type(grad) is float and got == grad
               for held, grad, got in handed):
            how[REPLACED] = True
        if type(before[1]) is float and handed and handed[0][0] is None:
            how[CLEARED] = True
