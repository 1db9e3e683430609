"""ex19's probe of a second backward through a retained non-leaf: which nodes it ran, and how a.grad
came to hold what it holds.  An engine that keeps something of the first backward's walk between
calls (counts cached by the root's id, a set of the nodes run kept in a mutable default argument)
runs fewer nodes the second time, which the list of nodes run tells apart from a sum that store_grad
lost, or that backward wrote past store_grad (``grader.spec.build_writes.store_watched``)."""

from __future__ import annotations

from typing import Any

from micrograph.i18n import N_

from grader.spec.build import fact
from grader.spec.build_order import run_order
from grader.spec.build_reads import grad_quiet
from grader.spec.build_writes import store_watched
from grader.spec.freed import at_the_id
from grader.spec.repeat import fresh_copy

ROUNDS = 8  # fresh copies at most on which ``retained_rerun`` makes its program until its second root lands


def retained_rerun(sub: Any, w0: float, x0: float) -> dict[str, list[Any]]:
    """Whether a second backward through a retained non-leaf adds into its .grad, and which nodes it ran:
    an engine that keeps something of the first backward's walk between calls (counts cached by
    the root's id, which the new root may reuse) runs fewer, and that is its mistake, not how
    store_grad treats a retained gradient (``CAUSED_BY``).  The Values are a fresh copy's of the
    student's module (where it can be made), as ex19's other probes': ids an engine kept from
    earlier tests meet none of them here, so the two programs are told as they ran; the second
    root's node is put at the first's freed id (``at_the_id``), where counts cached by that id
    are met on every run, not only where the allocator happened to put it there: where an object
    the new graph holds took that block first, the program is made again on another fresh copy."""
    for _ in range(ROUNDS):
        engine = fresh_copy(sub) or sub
        w, x = engine.Value(w0, requires_grad=True), engine.Value(x0, requires_grad=True)
        a = w + x
        a.retain_grad()
        first = a * x
        freed = id(first.grad_fn)
        first.backward()
        del first
        once = fact(grad_quiet(a), "a.grad after a = w + x; a.retain_grad(); (a * x).backward()")
        y = at_the_id(lambda: a * w, freed, lambda v: v.grad_fn)
        if id(y.grad_fn) == freed or engine is sub:
            break
    with store_watched(engine, a) as how:  # the sum lost in store_grad, or a.grad written without it
        order, _, _ = run_order(y, {"w": w, "x": x, "a": a, "y": y}, y.backward)
    said = "after a = w + x; a.retain_grad(); (a * x).backward(); (a * w).backward()"
    ran = fact(sorted(set(order)), N_("the list of nodes that (a * w).backward() ran after (a * x).backward()"))
    return {"walk": ran, "rerun": [same_graph(engine, w0, x0)],  # the first gradient, then the sum of both
            "retained": [once, {**fact(grad_quiet(a), f"a.grad {said}"), **how}]}


def same_graph(engine: Any, w0: float, x0: float) -> dict[str, Any]:
    """The documents' second backward through one graph, kept for it (retain_graph=True): it
    adds the gradients again, so an engine that keeps the first walk's counts (cached on the
    root's node) and runs no node the second time leaves w.grad at the first backward's."""
    w, x = engine.Value(w0, requires_grad=True), engine.Value(x0, requires_grad=True)
    y = w * x + w
    y.backward(retain_graph=True)
    y.backward()
    return fact(grad_quiet(w), "w.grad after y.backward(retain_graph=True); y.backward(), y = w * x + w")
