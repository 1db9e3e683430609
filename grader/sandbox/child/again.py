"""A test's probe run again on fresh imports of the submission, where it raised on the module the
earlier tests ran: an error that needs what earlier calls left in this process.

A submission that keeps state between calls (its inputs turned into Values once and kept in a
module-level name, a list grown in a default argument) passes a call on its own and raises once
earlier calls have run: a later call, on other data, meets the first call's.  The error alone
names the line that raised, not why.  So the worker runs the probe once more on a fresh copy of
the submission's module (``grader.spec.repeat.fresh_copy``: the code its import ran, run again),
where no earlier call was made; and, where that raises too (the test itself calls a function on
one dataset, then on another) and the file defines no class, on a fresh copy whose every function
makes each call in a fresh copy of its own (``each_call_fresh``).  Where either run ends without
an error, the error record says so (``fresh``), and the parent says that the error depends on
state kept between calls.  It is only ever an explanation: the test's observations and points are
the first run's.

Only failing tests run again, under what their own share of the time has left, the copies' top
levels included, so neither a passing submission nor the exercise's time pays for it.
"""

from __future__ import annotations

import contextlib
import functools
import time
from collections.abc import Callable
from types import FunctionType, ModuleType
from typing import Any

from grader.sandbox.child.alarm import Share, alarm
from grader.spec import repeat
from grader.spec.copy_share import copies_under


class Started:
    """When a probe started, of this process's CPU and of the clock."""

    def __init__(self) -> None:
        self.cpu, self.wall = time.process_time(), time.monotonic()

    def left(self, share: Share) -> Share:
        """What ``share`` has left since the probe started."""
        return Share(share.cpu - (time.process_time() - self.cpu), share.wall - (time.monotonic() - self.wall),
                     share.cpu_overrun, share.wall_overrun)


def each_call_fresh(sub: ModuleType) -> ModuleType | None:
    """A fresh copy of ``sub`` in which each function its file defines makes every call in a fresh copy of
    its own: nothing one call leaves in the module reaches the next.  None where the file defines a class:
    an object one call made would meet, in the next call's copy, a class of the same name that is not its
    own (``isinstance`` false), and take another way through the code than it takes in any one module."""
    view = repeat.fresh_copy(sub)
    namespace = {} if view is None else vars(view)
    if view is None or any(isinstance(value, type) and value.__module__ == view.__name__
                           for value in namespace.values()):
        return None
    for name, value in list(namespace.items()):
        if isinstance(value, FunctionType) and value.__globals__ is namespace:
            namespace[name] = _own_import(sub, name, value)
    return view


def _own_import(sub: ModuleType, name: str, function: FunctionType) -> Callable[..., Any]:
    """``function``, each call made by the function of that ``name`` in a fresh copy of ``sub``."""
    @functools.wraps(function)
    def call(*args: Any, **kwargs: Any) -> Any:
        fresh = repeat.fresh_copy(sub)
        own = None if fresh is None else vars(fresh).get(name)
        return (own if isinstance(own, FunctionType) else function)(*args, **kwargs)
    return call


def runs_when_fresh(probe: Callable[[ModuleType], Any], sub: ModuleType, exc: BaseException, share: Share,
                    started: Started, reset: Callable[[], None]) -> bool:
    """Whether ``probe``, which raised ``exc`` on the submission's module ``sub``, runs to its end on a fresh
    copy of it, or on one whose every call is made in a fresh copy (``each_call_fresh``), under what
    ``share`` has left since the probe ``started``, the process's modes set by ``reset`` before each run.
    Only the submission's own errors are tried again: not a stub's NotImplementedError (a stub raises
    everywhere), a timeout, running out of memory or an exit; nor a RecursionError, which needs the
    recursion limit, the process's, which a copy's top level may raise before each call it makes."""
    if not isinstance(exc, Exception) or isinstance(exc, (NotImplementedError, MemoryError, RecursionError)):
        return False
    for made in (repeat.fresh_copy, each_call_fresh):
        left = started.left(share)
        if left.cpu <= 0 or left.wall <= 0:
            return False
        try:
            reset()
            with copies_under(contextlib.nullcontext), alarm(left):  # the copies' top levels in the share
                fresh = made(sub)
                if fresh is not None:
                    probe(fresh)
                    return True
        except BaseException:  # noqa: BLE001 - it raised there too, ran out of time, or was stopped
            continue
    return False
