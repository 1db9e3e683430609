"""The programs of ex21's test of in-place ops on non-leaves (``rebased``): what zero_ and add_
record on a non-leaf, a constant and a detached Value, whether a node's edges stay its own and
lead nowhere back to itself, a retained gradient kept through the change (and a .grad written
before it, and the old node writing it no more), and a constant's is_leaf and .grad warning read before and after it is rebased.  Each step is
raised on its own, so a refused op is told as that step's."""

from __future__ import annotations

import functools
from typing import Any

from micrograph.i18n import N_

from grader.spec.build import claim, described, fact
from grader.spec.build_reads import edge_node, flag, grad_quiet
from grader.spec.raised import error, raised
from grader.spec.warned import grad_read


OWN_EDGES = ("p.grad_fn.next_functions[0][0] is e0 after p = w * 2; p.add_(1); e0 = p.grad_fn.next_functions[0][0]; "
             "q = v * 3; q.add_(v)")
OWN_ZERO_EDGE = ("z.grad_fn.next_functions[0][0] is e0 after z = w * 3; z.zero_(); e0 = z.grad_fn.next_functions[0][0]; "
                 "q = v * 3; q.zero_()")


def edges_kept(sub: Any) -> list[dict[str, Any]]:
    """In-place ops on values of two graphs: the first op's node keeps its edges whatever the
    second records; edges kept in state shared between ops (a module-level list each op
    refills) change under it, which every later program's graph then shows."""
    w, v = sub.Value(0.5, requires_grad=True), sub.Value(-1.0, requires_grad=True)
    p = w * 2
    error(p.add_, 1.0)  # an op refused is told by the rest of the test: the node p has keeps its edges all the same
    fn = getattr(p, "grad_fn", None)
    made = edge_node(fn, 0)
    q = v * 3
    error(q.add_, v)
    added = claim(edge_node(fn, 0) is made, OWN_EDGES)
    z = w * 3
    error(z.zero_)
    fn = getattr(z, "grad_fn", None)
    made = edge_node(fn, 0)
    error((v * 3).zero_)
    return [added, claim(edge_node(fn, 0) is made, OWN_ZERO_EDGE)]


def zero_recorded(sub: Any) -> dict[str, Any]:
    """zero_ on a non-leaf is recorded (ZeroBackward0, over the old history); on a value that
    requires no grad it is not, nor is add_ of a number there, or through w.detach().  Each op is
    a step of its own, so a refused one is told as that step's."""
    w = sub.Value(-1.5, requires_grad=True)
    z = w * 3
    steps = [raised(z.zero_, "z.zero_(), z = w * 3")]
    c, v, d = sub.Value(4.0), sub.Value(2.0), w.detach()
    steps += [raised(c.zero_, "c.zero_(), c = Value(4)"), raised(v.add_, "v.add_(1), v = Value(2)", 1.0),
              raised(d.add_, "d.add_(1), d = w.detach()", 1.0)]
    cycle = _no_cycle(z, f"{N_('after z = w * 3; z.zero_()')}: {TO_ITSELF['z']}")  # its one edge taken after rebase
    return {"errors": steps, "cycle": cycle, "graph": described(z, "z", N_("after z = w * 3; z.zero_()")),
            "unrecorded": [described(c, "c", N_("after c = Value(4); c.zero_()")),
                           described(v, "v", N_("after v = Value(2); v.add_(1)")),
                           described(d, "d", N_("after d = w.detach(); d.add_(1)"))]}


def constant_added(sub: Any) -> dict[str, Any]:
    """A leaf that requires no grad changed by one that does is recorded, but its old history is
    no edge ((None, 0), taken before the op): backward sends it nothing, and its .grad stays None."""
    w = sub.Value(2.5, requires_grad=True)
    c = sub.Value(-4.0)
    step = raised(c.add_, "c.add_(w), c = Value(-4)", w, other=("w", w))
    seen = described(c, "c", N_("after c = Value(-4); c.add_(w)"))
    cycle = _no_cycle(c, f"{N_('after c = Value(-4); c.add_(w)')}: {TO_ITSELF['c']}")
    ran = raised((c * 3).backward, "(c * 3).backward() after c = Value(-4); c.add_(w)")
    return {"errors": [step], "cycle": cycle, "graph": seen, "modified": [ran],
            "grads": [fact(grad_quiet(c), "c.grad after c = Value(-4); c.add_(w); (c * 3).backward()"),
                      fact(grad_quiet(w), "w.grad after c = Value(-4); c.add_(w); (c * 3).backward()")]}


TO_ITSELF = {"c": N_("no edge of c.grad_fn leads to c.grad_fn itself"),
             "y": N_("no edge of y.grad_fn leads to y.grad_fn itself"),
             "z": N_("no edge of z.grad_fn leads to z.grad_fn itself")}


def _no_cycle(v: Any, label: str) -> dict[str, Any]:
    """Whether the node an in-place op recorded has an edge to itself (its edges taken after
    rebase made it the value's history): a cycle, told as that, not as an edge of another kind."""
    fn = getattr(v, "grad_fn", None)
    return claim(fn is None or all(edge_node(fn, i) is not fn for i in range(2)), label)


def added_into_itself(sub: Any) -> dict[str, Any]:
    """A value added into itself in place: both edges of the AddBackward0 recorded are its old
    history, taken before the op (an edge taken after it is the new node itself, which backward
    would wait on forever), and backward sends w the gradient along both."""
    w = sub.Value(1.5, requires_grad=True)
    y = w * 3
    step = raised(y.add_, "y.add_(y), y = w * 3", y)
    seen = described(y, "y", N_("after y = w * 3; y.add_(y)"))
    cycle = _no_cycle(y, f"{N_('after y = w * 3; y.add_(y)')}: {TO_ITSELF['y']}")
    ran = raised(y.backward, "y.backward() after y = w * 3; y.add_(y)")
    return {"errors": [step], "cycle": cycle, "graph": seen, "modified": [ran],
            "grads": [fact(grad_quiet(w), "w.grad after y = w * 3; y.add_(y); y.backward()")]}


def retained_through(sub: Any) -> dict[str, list[Any]]:
    """A retained non-leaf changed in place keeps its grad: that of its new value (and the
    backward, whose nodes saved z only after it changed, raises nothing: ``modified``)."""
    out: list[Any] = []
    ran: list[Any] = []
    steps: list[Any] = []
    for method, args, label in (("zero_", (), "z.zero_()"), ("add_", (2.0,), "z.add_(2)")):
        u, x = sub.Value(1.25, requires_grad=True), sub.Value(-2.5, requires_grad=True)
        z = u * 3
        z.retain_grad()
        steps.append(raised(getattr(z, method), f"{label} after z.retain_grad(), z = u * 3", *args))
        ran.append(raised((z * x + u).backward, f"(z * x + u).backward() after z.retain_grad(); {label}, z = u * 3"))
        out += [fact(grad_quiet(z), f"z.grad after z.retain_grad(); {label}; (z * x + u).backward(), z = u * 3"),
                fact(grad_quiet(u), f"u.grad after z.retain_grad(); {label}; (z * x + u).backward(), z = u * 3")]
    return {"errors": steps, "modified": ran, "retained": out}


LEAF_READ = "c = Value(-4); c.is_leaf; c.add_(w)"


def leaf_followed(sub: Any) -> dict[str, Any]:
    """A constant whose is_leaf was read before an in-place op records a node on it: from then on
    it is a non-leaf (is_leaf False, its .grad read warns), as its grad_fn now says; a flag
    decided once (when the Value was made, or when is_leaf was first read) stays a leaf's."""
    w = sub.Value(2.5, requires_grad=True)
    c = sub.Value(-4.0)
    flag(c.is_leaf)  # read before the op, as a student's check would: a cached answer keeps it
    step = raised(c.add_, "c.add_(w) after c = Value(-4); c.is_leaf", w, other=("w", w))
    leaf = fact(flag(c.is_leaf), f"c.is_leaf after {LEAF_READ}")
    ran = raised((c * 3).backward, f"(c * 3).backward() after {LEAF_READ}")
    warned = claim(grad_read(c)["warned"], f"reading c.grad after {LEAF_READ}; (c * 3).backward() warns")
    return {"errors": [step], "modified": [ran], "leaf_now": leaf, "warn_now": warned}


def grad_kept(sub: Any) -> dict[str, Any]:
    """A retained non-leaf that holds a .grad, changed in place: the .grad stays as it was (the
    op moves only which node writes it), so the next backward adds to it."""
    w = sub.Value(1.0, requires_grad=True)
    a = w * 3
    a.retain_grad()
    program = "a = w * 3; a.retain_grad(); (a * 2).backward(retain_graph=True); a.add_(1)"
    ran = [raised(functools.partial((a * 2).backward, retain_graph=True),
                  "(a * 2).backward(retain_graph=True) after a = w * 3; a.retain_grad()"),
           raised(a.add_, "a.add_(1) after a = w * 3; a.retain_grad(); (a * 2).backward(retain_graph=True)", 1.0)]
    kept = [fact(grad_quiet(a), f"a.grad after {program}")]
    ran.append(raised((a * 3).backward, f"(a * 3).backward() after {program}"))
    kept.append(fact(grad_quiet(a), f"a.grad after {program}; (a * 3).backward()"))
    return {"errors": ran[1:2], "modified": [ran[0], ran[2]], "grad_kept": kept}


MOVED = "a.grad after a = w * 3; a.retain_grad(); b = a * 2; a.add_(1); b.backward()"


def retained_moved(sub: Any) -> dict[str, Any]:
    """A retained non-leaf changed in place after a graph was built on it: a backward through that
    graph runs the node the value had before the op, which PyTorch no longer lets write the
    value's .grad (its new node writes it from then on); a rebase that leaves the value retained
    on the old node writes it there too, which the sums of the other programs show only as
    numbers."""
    w = sub.Value(1.5, requires_grad=True)
    a = w * 3
    a.retain_grad()
    b = a * 2
    ran = [raised(a.add_, "a.add_(1) after a = w * 3; a.retain_grad(); b = a * 2", 1.0),
           raised(b.backward, "b.backward() after a = w * 3; a.retain_grad(); b = a * 2; a.add_(1)")]
    return {"errors": ran[:1], "modified": ran[1:], "retained_moved": fact(grad_quiet(a), MOVED)}
