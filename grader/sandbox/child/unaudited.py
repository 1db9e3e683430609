"""Audit events for the calls Python makes without one that the sentinel must see.

The sentinel flags what the submission tries outside its sandbox from the audit events the
interpreter raises before each call (``grader.sandbox.child.outside``); ``os.mkfifo``,
``os.mknod``, ``os.chroot``, ``os.setpriority``, ``os.nice`` and the scheduling calls raise
none, so the kernel's refusal (the seccomp filter) was seen by the worker alone.  Nor does
``signal.signal``, whose handler the interpreter calls with the frame it interrupted: a stack
frame handed over without the audit event ``sys._getframe`` raises (its ``f_back`` leads to the
probes' frames, their locals and the test module's globals), and a handler of SIGALRM in place
of the probes' time limit.  Before any test module or submission is loaded, each of them in
``posix`` and ``os`` (one function, bound under both names), and ``_signal.signal`` and
``signal.signal`` (whose ``__wrapped__`` is the first), becomes one that raises its event
first, as ``os.chown`` does.  A submission holds no way back to the original: the module that
hands out a fresh ``posix`` or ``_signal`` (``_imp``) is one the parent's reading refuses
(``grader.sandbox.reach``), and a wrapper keeps it in a closure; the seccomp filter still
refuses the calls on the machine themselves.
"""

from __future__ import annotations

import _signal
import os
import signal
import sys
from collections.abc import Callable
from typing import Any

CALLS = ("mkfifo", "mknod", "chroot", "setpriority", "nice", "sched_setaffinity",
         "sched_setscheduler", "sched_setparam")
"""The functions of ``os`` without an audit event that no exercise needs; each raises
``os.<name>`` once wrapped."""
_audit = sys.audit  # bound now: a submission may rebind sys's names (``seal.SYS_REBOUND``)
EVENTS = frozenset(f"os.{name}" for name in CALLS)
"""Their events: raised from the wrapper's frame, one frame inside the caller's."""
SIGNAL = "signal.signal"
"""The event of ``_signal.signal`` wrapped: a handler set (the grader's own time limit sets one)."""
WRAPPED = EVENTS | {SIGNAL}
"""Every event a wrapper raises, one frame inside its caller's."""


def _audited(event: str, name: str, call: Callable[..., Any]) -> Callable[..., Any]:
    def audited(*args: Any, **kwargs: Any) -> Any:
        _audit(event, *args)
        return call(*args, **kwargs)

    audited.__name__ = audited.__qualname__ = name
    audited.__doc__ = call.__doc__
    return audited


def audit() -> None:
    """Wrap each of ``CALLS`` this platform has, in ``posix`` (or ``nt``) and ``os``, and
    ``_signal.signal``; once."""
    platform = sys.modules.get(os.name)
    if type(_signal.signal) is type(os.getpid):  # not wrapped yet
        _signal.signal = _audited(SIGNAL, "signal", _signal.signal)
        signal.signal = _audited(SIGNAL, "signal", signal.signal)  # type: ignore[assignment]
    for name in CALLS:
        call = getattr(os, name, None)
        if type(call) is not type(os.getpid):
            continue  # absent here, or wrapped already
        wrapped = _audited(f"os.{name}", name, call)
        setattr(os, name, wrapped)
        if platform is not None and getattr(platform, name, None) is call:
            setattr(platform, name, wrapped)
