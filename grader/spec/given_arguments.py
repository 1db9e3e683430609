"""What a call of a given function was handed, read by ``grader.spec.given.given_returns``: where
the student's code called it (``function:line``), its arguments' types (told where the given code
refuses them too), and the .grad of each Value among them, before and after the student's copy ran
(a copy that zeroes a .grad it should only read shows).  Kept apart from ``given``, which compares
what the copy returns with what the given function does.
"""

from __future__ import annotations

from types import FrameType, ModuleType
from typing import Any

from micrograph import Value
from micrograph.value import peek_grad

from grader.spec.probe import type_name


def call_site(frame: FrameType | None, sub: ModuleType) -> str:
    """``function:line`` of the student's code that called the given function: the first frame
    from ``frame`` outward in the submission's file (another probe may watch the same call), or
    ``-`` where there is none, or it is no function (a comprehension, the module's own code)."""
    while frame is not None and frame.f_code.co_filename != getattr(sub, "__file__", None):
        frame = frame.f_back
    if frame is None or not frame.f_code.co_name.isidentifier():
        return "-"
    return f"{frame.f_code.co_name}:{frame.f_lineno}"


def argument_types(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    """The call's arguments by their types' names, without spaces: ``(float,MulBackward0)``."""
    named = [type_name(a) for a in args] + [f"{k}={type_name(v)}" for k, v in kwargs.items()]
    return f"({','.join(named)})"


def grads_in(args: object, depth: int = 0) -> list[tuple[Any, Any, str, int | None]]:
    """Each Value among ``args`` (in lists and tuples too: x's row) with its .grad, the object
    kept with its number and version: a call that zeroes one in place or sets another shows."""
    if isinstance(args, Value):
        g = peek_grad(args)
        return [(args, g, "None" if g is None else repr(g.item()), None if g is None else g._version)]
    if type(args) in (list, tuple) and depth < GRAD_DEPTH:
        return [item for arg in args for item in grads_in(arg, depth + 1)]  # type: ignore[union-attr]
    return []


GRAD_DEPTH = 3
"""How deep in nested lists ``grads_in`` looks: the arguments, a matrix, its rows."""


def grads_changed(before: list[tuple[Any, Any, str, int | None]], after: list[tuple[Any, Any, str, int | None]]) -> list[Any]:
    """The Values whose .grad differs between two ``grads_in`` of the same arguments."""
    return [a[0] for a, b in zip(before, after) if a[1] is not b[1] or a[2:] != b[2:]]
