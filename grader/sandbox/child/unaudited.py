"""Audit events for the calls on the machine that Python makes without one.

The sentinel flags what the submission tries outside its sandbox from the audit events the
interpreter raises before each call (``grader.sandbox.child.outside``); ``os.mkfifo``,
``os.mknod``, ``os.chroot``, ``os.setpriority``, ``os.nice`` and the scheduling calls raise
none, so the kernel's refusal (the seccomp filter) was seen by the worker alone.  Before any
test module or submission is loaded, each of them in ``posix`` and ``os`` (one function, bound
under both names) becomes one that raises its event first, as ``os.chown`` does.  A submission
holds no way back to the original: the module that hands out a fresh ``posix`` (``_imp``) is
one the parent's reading refuses (``grader.sandbox.reach``); the seccomp filter still refuses
the call itself.
"""

from __future__ import annotations

import os
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


def _audited(name: str, call: Callable[..., Any]) -> Callable[..., Any]:
    event = f"os.{name}"

    def audited(*args: Any, **kwargs: Any) -> Any:
        _audit(event, *args)
        return call(*args, **kwargs)

    audited.__name__ = audited.__qualname__ = name
    audited.__doc__ = call.__doc__
    return audited


def audit() -> None:
    """Wrap each of ``CALLS`` this platform has, in ``posix`` (or ``nt``) and ``os``; once."""
    platform = sys.modules.get(os.name)
    for name in CALLS:
        call = getattr(os, name, None)
        if type(call) is not type(os.getpid):
            continue  # absent here, or wrapped already
        wrapped = _audited(name, call)
        setattr(os, name, wrapped)
        if platform is not None and getattr(platform, name, None) is call:
            setattr(platform, name, wrapped)
