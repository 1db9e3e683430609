"""The child's first step: isolate itself in the mode the grader announced, or say why not.

``isolate(plan)`` runs before the submission is imported (after the trusted modules are
loaded) and returns the names of the layers it applied.  In the ``namespaces`` and
``uid+seccomp`` modes each promised layer must take effect: if one fails it raises
``IsolationError`` and the child reports it (the ``refused`` record) instead of running the
submission with less than the grader announced.  ``limits only`` applies the isolation filter
when it can and promises nothing.  ``self_test`` is the same path on an empty submission, run
once by the grader to decide which mode this machine gives.
"""

from __future__ import annotations

import json
import os
import sys

from grader.sandbox.child import seccomp
from grader.sandbox.child.plan import IsolationError, Plan

NAMESPACES, UID_SECCOMP, LIMITS_ONLY = "namespaces", "uid+seccomp", "limits only"


def isolate(plan: Plan) -> list[str]:
    """Apply ``plan`` to this process (see the module doc); the layers applied."""
    if plan.mode in (NAMESPACES, UID_SECCOMP):
        from grader.sandbox.child import namespaces  # Linux only
    if plan.mode == NAMESPACES:
        with open(os.path.join(plan.scratch, plan.submission), "rb") as handle:
            source = handle.read()
        namespaces.enter_namespaces(plan, source)
        layers = ["namespaces:user,pid,ipc,net,mount", f"uid:{os.getuid()}", "caps:none"]
    elif plan.mode == UID_SECCOMP:
        namespaces.enter_uid(plan)
        layers = [f"uid:{os.getuid()}", "caps:none"]
    elif plan.mode == LIMITS_ONLY:
        return seccomp.isolate()
    else:
        raise IsolationError(f"unknown isolation mode {plan.mode!r}")
    applied = seccomp.isolate()
    if not applied:
        raise IsolationError("the seccomp isolation filter could not be installed")
    return layers + applied


def self_test() -> None:
    """Isolate as the plan on stdin says, then import a module of the standard library that
    was not loaded yet (what a submission may do); prints ``ok`` when all of it worked."""
    data = json.loads(sys.stdin.buffer.read())
    data["readable"] = [os.path.dirname(os.__file__)]
    plan = Plan.from_request(data)
    with open(os.path.join(plan.scratch, plan.submission), "wb"):
        pass
    try:
        isolate(plan)
        __import__("colorsys")  # reading the standard library after isolation
    except (IsolationError, OSError, ImportError) as exc:
        print(f"{type(exc).__name__}: {exc}", flush=True)
        sys.exit(1)
    print("ok", flush=True)
