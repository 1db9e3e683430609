"""ex22 programs of hooks and their handles on a leaf no operation has used yet: a handle's
remove() takes out the hook that handle registered, and no other; and the same hook registered
twice runs twice, once for each registration, as PyTorch runs it (a node keeps each hook under
its own handle's id, so a walk that skips a hook object it met already, or a dict keyed by the
hook itself, runs it once)."""

from __future__ import annotations

import gc
from typing import Any

from micrograph.i18n import N_

from grader.spec.build import claim, fact
from grader.spec.build_hooks import removed_with
from grader.spec.build_reads import grad_quiet
from grader.spec.held import held
from grader.spec.raised import SAID, raised

TWICE = N_("the same hook registered twice, the second handle removed")
FRESH_LEAF = N_("w.register_hook(double) on a leaf no operation has used yet")
FRESH_RAN = N_("the hooks registered on w before any operation used it ran during (w * 5).backward()")
RAN_TWICE = N_("the list of the hooks of w that ran (the same hook registered twice, the second handle removed)")
W_HANDLE = N_("w.register_hook(double), registered a second time, returned a handle with a remove() method")
TWICE_KEPT = N_("the list of the hooks of v that ran during (v * 5).backward() (the same hook registered twice, both "
                "kept)")
TWICE_KEPT_RULE = N_("a hook registered twice runs twice, once for each registration, as PyTorch runs it: each "
                     "register_hook adds an entry of its own, and run_hooks runs every entry")


def removed_by_handle(sub: Any) -> dict[str, Any]:
    """A handle removes the hook it registered: with ``double`` registered before and after
    ``plus``, removing the second handle leaves double then plus, as in PyTorch (removing the
    first equal function instead would leave plus then double).  w is a leaf no operation has
    used yet, so it has no AccumulateGrad when ``double`` is first registered: a register_hook
    that asks for that node, and does not make it, is told so, and nothing after it is."""
    calls: list[str] = []
    w = sub.Value(0.75, requires_grad=True)
    held(w)  # kept alive: a new leaf at a freed one's id is another program's case

    def double(g: Any) -> Any:
        calls.append("double")
        return g * 2

    def plus(g: Any) -> Any:
        calls.append("plus")
        return g + 1

    fresh = raised(w.register_hook, FRESH_LEAF, double)
    if fresh[SAID] is not None:
        return {"leaf_hook": fresh}
    w.register_hook(plus)
    handle = removed_with(w.register_hook(double), W_HANDLE)
    gc.collect()  # a node kept only weakly goes here, with the hooks on it
    (w * 5).backward()
    return {"leaf_hook": fresh, "fresh_hooks": claim(bool(calls), FRESH_RAN), "handle": handle, "removed": fact(calls, RAN_TWICE),
            "removed_grad": fact(grad_quiet(w), f"w.grad ({TWICE})"), "twice_kept": _twice_kept(sub)}


def _twice_kept(sub: Any) -> dict[str, Any]:
    """The hooks that ran on a leaf the same hook (``plus``, which adds 1) was registered on twice,
    both kept: PyTorch runs it once for each registration."""
    calls: list[str] = []
    v = sub.Value(-1.25, requires_grad=True)
    held(v)

    def plus(g: Any) -> Any:
        calls.append("plus")
        return g + 1

    v.register_hook(plus)
    v.register_hook(plus)
    (v * 5).backward()
    return fact(calls, TWICE_KEPT)
