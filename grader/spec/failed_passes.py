"""ex20's probes of what a backward frees beside the nodes it runs: a pass that fails midway
has freed the nodes it ran and no other, and a pass frees its own graph and no other.  Each
program is worded so that the label translations (``grader.judge.labels``) read it as code."""

from __future__ import annotations

import functools
from typing import Any

from micrograph.i18n import N_

from grader.spec.build import claim, fact
from grader.spec.build_fresh_nodes import refused_again
from grader.spec.build_reads import grad_quiet
from grader.spec.held import held
from grader.spec.raised import error, raised
from grader.spec.repeat import fresh_copy
from grader.spec.saved import released

GRAPH_Z = "z = y * v, u = y * 2, y = w * x"
SECOND_Z = f"a second z.backward() after u.backward(); z.backward(), {GRAPH_Z}"


def released_when_failed(sub: Any) -> list[Any]:
    """A pass that fails midway: z's node runs, then y's, freed by u's backward, refuses.  z's node ran, so it is
    released: a second z.backward() refuses at once and adds nothing to v.grad.  An engine that releases the
    nodes it ran only once the whole pass is over never releases z's node here, and runs it again."""
    w, x, v = (sub.Value(n, requires_grad=True) for n in (1.5, -0.5, 2.0))
    y = w * x
    z, u = y * v, y * 2
    held(z, u)
    u.backward()
    first = raised(z.backward, f"z.backward() after u.backward(), {GRAPH_Z}")
    return [first, claim(released(z.grad_fn), f"z.grad_fn is released by z.backward(), {GRAPH_Z}"),
            raised(z.backward, SECOND_Z), fact(grad_quiet(v), f"v.grad after {SECOND_Z}")]


GRAPH_C = "z = y * v + c, c = v * 3, u = y * 2, y = w * x"
AFTER_FAILED = f"c.backward() after u.backward(); z.backward(), {GRAPH_C}"


def unrun_kept(sub: Any) -> list[Any]:
    """A pass that fails midway leaves the nodes it never ran as they were: z's sum and y * v run, y's node
    (freed by u's backward, newer than c's) refuses, and c's node, made first, never runs, so it keeps what it
    saved and c.backward() runs.  An engine that frees its whole graph when a pass raises refuses it."""
    w, x, v = (sub.Value(n, requires_grad=True) for n in (0.5, -1.5, 1.25))
    c = v * 3
    y = w * x
    u = y * 2
    z = y * v + c
    held(z, u, c)
    u.backward()
    error(z.backward)  # y's node refuses: the other programs tell that error
    return [raised(c.backward, AFTER_FAILED)]  # v.grad also holds what a pass that raised nothing sent it


KEPT_BESIDE = "a.backward() after a.backward(retain_graph=True); b.backward(), a = w * x, b = w * 3"


def kept_beside(sub: Any) -> dict[str, Any]:
    """A graph kept with retain_graph=True stays kept when a backward through another graph frees its own:
    an engine that keeps every node any backward ran and frees them all at the next backward without
    retain_graph frees a's too.  Where a's own backward freed its node, that is the rule of retain_graph=True
    (``kept``), not this one: no error is then claimed."""
    w, x = sub.Value(-0.75, requires_grad=True), sub.Value(2.5, requires_grad=True)
    a = w * x
    held(a)
    error(functools.partial(a.backward, retain_graph=True))
    if released(a.grad_fn) is not False:
        return raised(lambda: None, KEPT_BESIDE)
    b = w * 3
    held(b)
    error(b.backward)
    return raised(a.backward, KEPT_BESIDE)


FREED_AFTER_ERROR = N_("a.grad_fn is released by a.backward(), v a new leaf, a = v * v, after a second y.backward() "
                       "raised, y = w * w")


def freed_after_error(sub: Any) -> dict[str, Any]:
    """Whether a backward after one that raised still frees its graph, on a fresh copy of the student's module
    (where it can be made), whose first backward freed its own: a counter or flag that backward sets as it starts
    and puts back only when it returns (its depth, "busy") stays set once a backward raised, and every later one
    frees nothing.  Holds where the copy never freed, or no second y.backward() raised after a first that wrote
    w.grad (``refused_again``): other rules."""
    engine = fresh_copy(sub) or sub
    v0 = engine.Value(0.5, requires_grad=True)
    first = v0 * v0
    held(first)
    error(first.backward)
    w = engine.Value(-1.25, requires_grad=True)
    if not refused_again(w * w, w) or released(first.grad_fn) is not True:
        return claim(True, FREED_AFTER_ERROR)
    v = engine.Value(1.75, requires_grad=True)
    a = v * v
    held(a)
    error(a.backward)
    return claim(released(a.grad_fn), FREED_AFTER_ERROR)
