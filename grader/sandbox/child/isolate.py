"""The child's first step: isolate itself in the mode the grader announced, or say why not.

``isolate(plan)`` runs before the submission is imported (after the trusted modules are
loaded) and returns the names of the layers it applied.  In the ``namespaces`` and
``uid+seccomp`` modes each promised layer must take effect: if one fails it raises
``IsolationError`` and the child reports it (the ``refused`` record) instead of running the
submission with less than the grader announced.  ``limits only`` applies the isolation filter
when it can; started as root (``Plan.uid`` set) it drops to its own uid and every capability
exactly as ``uid+seccomp`` does, checked the same way: no child keeps root.  ``self_test`` is the same path on an empty submission, run
once by the grader to decide which mode this machine gives.
"""

from __future__ import annotations

import json
import os
import sys
from typing import NoReturn

from grader.sandbox.child import seccomp
from grader.sandbox.child.plan import IsolationError, Plan

NAMESPACES, UID_SECCOMP, LIMITS_ONLY = "namespaces", "uid+seccomp", "limits only"


def isolate(plan: Plan) -> list[str]:
    """Apply ``plan`` to this process (see the module doc); the layers applied."""
    return enter(plan) + filter_self(plan)


def enter(plan: Plan) -> list[str]:
    """The mode's kernel layers (namespaces, own uid, no capabilities): everything ``isolate``
    does but the seccomp filter, which names this process and so is applied by each process
    that runs submitted code (``filter_self``)."""
    if plan.mode in (NAMESPACES, UID_SECCOMP) or plan.uid is not None:
        from grader.sandbox.child import namespaces  # Linux only
    if plan.mode == NAMESPACES:
        sources = {}
        for name in plan.submissions:
            with open(os.path.join(plan.scratch, name), "rb") as handle:
                sources[name] = handle.read()
        namespaces.enter_namespaces(plan, sources)
        return ["namespaces:user,pid,ipc,net,mount", f"uid:{os.getuid()}", "caps:none"]
    if plan.mode == UID_SECCOMP or (plan.mode == LIMITS_ONLY and plan.uid is not None):
        namespaces.enter_uid(plan)
        return [f"uid:{os.getuid()}", "caps:none"]
    if plan.mode == LIMITS_ONLY:
        return []
    raise IsolationError(f"unknown isolation mode {plan.mode!r}")


def filter_self(plan: Plan) -> list[str]:
    """The isolation filter on this process (signals only to itself); required in the
    ``namespaces`` and ``uid+seccomp`` modes, where it is part of what the grader announced."""
    applied = seccomp.isolate()
    if not applied and plan.mode in (NAMESPACES, UID_SECCOMP):
        raise IsolationError("the seccomp isolation filter could not be installed")
    return applied


def self_test() -> NoReturn:
    """Isolate and confine as the plan on stdin says, then import a module of the standard
    library that was not loaded yet (what a submission may do); prints the layers applied
    (a JSON list) and ``ok`` when all of it worked, and ends the process at once: the grader
    waits for it to end, and an interpreter's shutdown would cost it 18 million instructions
    more, about a tenth of the probe."""
    from grader.sandbox.child.confine import confine
    from grader.spec.limits import Limits

    data = json.loads(sys.stdin.buffer.read())
    data["readable"] = [os.path.dirname(os.__file__)]
    plan = Plan.from_request(data)
    for name in plan.submissions:
        with open(os.path.join(plan.scratch, name), "wb"):
            pass
    try:
        layers = isolate(plan)
        layers += confine(Limits(), read=plan.readable, read_write=[plan.scratch, os.devnull],
                          landlock=plan.landlock)
        __import__("colorsys")  # reading the standard library after isolation
    except (IsolationError, OSError, ImportError) as exc:
        print(f"{type(exc).__name__}: {exc}", flush=True)
        sys.exit(1)
    print(json.dumps(layers), flush=True)
    print("ok", flush=True)
    os._exit(0)
