"""What a custom Function's forward marked on its ctx, told by what ``apply`` did with it.

``ctx.mark_dirty(x)`` (forward changed x in place and returns it) and
``ctx.mark_non_differentiable(out)`` change what ``Function.apply`` does after forward returns:
on a leaf that requires grad, a dirty mark makes apply itself raise the engine's in-place error,
with no line of the student's file in the traceback; a non-differentiable mark leaves the output
without a grad_fn, and the error comes later, from a backward the probe runs.  Either way the
feedback would name no function of the student's.  While a probe runs ``apply_told(sub,
classes)``, each class's ``apply`` is watched: the in-place error raised by apply itself is
raised again as ``DirtyLeaf``, and an output with no grad_fn where grad mode is on and an input
requires grad (which only the non-differentiable mark gives) as ``NotDifferentiable``; each is
told with what forward marked (``grader.judge.caused_errors``).

Every Value handed to a watched ``apply`` is held until the child ends (``grader.spec.held``): a
Function that keeps an answer by ``id(x)`` then meets a freed input's id only where a probe puts a
new leaf there on purpose, on a fresh copy of the module (``custom_graphs.at_a_freed_leaf``),
never where the allocator happened to, after whatever ran before in the process.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import micrograph
from micrograph import Function

from grader.spec.held import held
from grader.spec.probe import error_text

LEAF_IN_PLACE = "a leaf Variable that requires grad has been used in an in-place operation."
"""The engine's (and torch's) error when a dirty-marked output is a leaf that requires grad."""

_APPLY_CODE = Function.apply.__func__.__code__  # the engine's apply, whose own raise is told


class DirtyLeaf(Exception):
    """``<Class>.apply`` itself raised the in-place error: forward marked a leaf that requires
    grad dirty.  Its message is ``"<Class> <error's text>"``."""


class NotDifferentiable(Exception):
    """``<Class>.apply`` returned a Value with no grad_fn though grad mode was on and an input
    requires grad: forward marked its output non-differentiable.  Its message is ``"<Class>"``."""


def _raised_by_apply(exc: BaseException) -> bool:
    """Whether the innermost frame of ``exc``'s traceback is the engine's ``Function.apply``."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and tb.tb_frame.f_code is _APPLY_CODE


def _watched(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
    def apply(*args: Any, **kwargs: Any) -> Any:
        held(*(a for a in (*args, *kwargs.values()) if isinstance(a, micrograph.Value)))  # no id freed by chance
        try:
            out = original(*args, **kwargs)
        except RuntimeError as exc:
            if str(exc) == LEAF_IN_PLACE and _raised_by_apply(exc):
                raise DirtyLeaf(f"{name} {error_text(exc)}").with_traceback(exc.__traceback__) from None
            raise
        wanted = micrograph.is_grad_enabled() and any(
            isinstance(a, micrograph.Value) and a.requires_grad for a in (*args, *kwargs.values()))
        if wanted and isinstance(out, micrograph.Value) and out.grad_fn is None:
            raise NotDifferentiable(name)
        return out
    return apply


@contextlib.contextmanager
def apply_in_place_of(cls: type, wrap: Callable[[Callable[..., Any]], Callable[..., Any]]) -> Iterator[None]:
    """``cls.apply`` replaced by ``wrap`` of it while the block runs; afterwards the class is as
    it was (an apply it inherited from Function is inherited again).  The class itself stays in
    the student's module: its forward and backward may name it."""
    own = cls.__dict__.get("apply")  # None: inherited from Function
    setattr(cls, "apply", staticmethod(wrap(cls.apply)))
    try:
        yield
    finally:
        if own is None:
            delattr(cls, "apply")
        else:
            setattr(cls, "apply", own)


def own_function(sub: ModuleType, name: str) -> type | None:
    """The student's Function class ``name``, or None where the module binds no such class."""
    found = getattr(sub, name, None)
    return found if isinstance(found, type) and issubclass(found, Function) else None


@contextlib.contextmanager
def apply_told(sub: ModuleType, classes: tuple[str, ...]) -> Iterator[None]:
    """While the block runs, the ``apply`` of each of the student's Function classes ``classes``
    (those the module defines) is watched (see the module doc); afterwards each class is as it was."""
    with contextlib.ExitStack() as watched:
        for name in classes:
            cls = own_function(sub, name)
            if cls is not None:
                watched.enter_context(apply_in_place_of(cls, functools.partial(_watched, name)))
        yield


def apply_told_in(classes: tuple[str, ...]) -> Callable[[Callable[[ModuleType], Any]], Callable[[ModuleType], Any]]:
    """A probe run inside ``apply_told(sub, classes)``."""
    def wrap(probe: Callable[[ModuleType], Any]) -> Callable[[ModuleType], Any]:
        @functools.wraps(probe)
        def observed(sub: ModuleType) -> Any:
            with apply_told(sub, classes):
                return probe(sub)
        return observed
    return wrap
