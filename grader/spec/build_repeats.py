"""ex19's probes of backward calls repeated on one value: the root itself, a retained non-leaf
and a leaf whose .grad was dropped, each seen after a call that only a later one tells apart.

A second backward shows a gradient that is overwritten instead of added to; a third one shows
what the second matched by luck: a backward that seeds its root with the root's own .grad gives
1, then 1 + 1, then 2 + 2, so only the third call differs.  retain_grad() called again is
probed twice: before one backward (a node that writes a's gradient once per call) and between
two (a call that starts a's .grad again).  A Value taken from .grad before ``.grad = None``
belongs to the caller from then on: a store_grad that reuses it for the next gradient changes
a number the caller kept, which PyTorch's new tensor never does.  Two gradients zeroed keep a
number each: a zero_ that points every Value it zeroes at one place kept between calls (a module's
list, a mutable default argument) lets a later sum into one reach the other.
"""

from __future__ import annotations

from typing import Any

from micrograph.i18n import N_

from grader.spec.build import claim, fact, number
from grader.spec.build_reads import grad_quiet
from grader.spec.held import kept
from grader.spec.raised import raised
from grader.spec.repeat import fresh_copy

LEAF_ROOT = "w.backward(); w.backward()"
SEEDED = "w.backward(); w.backward(); w.backward()"
RETAINED_TWICE = "a = w * 3; a.retain_grad(); a.retain_grad(); (a * a).backward()"
AGAIN = "a = w + 1; a.retain_grad(); (a * 2).backward(); a.retain_grad()"
DROPPED = "(w * w).backward(); g = w.grad; w.grad = None; (w + w).backward()"
ZEROED_APART = N_("(w * 3).backward() after (w * x).backward(); w.grad.zero_(); x.grad.zero_() leaves x.grad as "
                  "zero_() left it")


def leaf_root(sub: Any, w0: float) -> list[Any]:
    """Two backward calls from a leaf itself (ex17's statement: backward may start at a leaf):
    the second adds into what the first wrote, as any backward does; a shortcut that writes a
    new Value holding the seed for a leaf root replaces it.  On a fresh copy (ids kept from the
    gates' programs meet none here)."""
    engine = fresh_copy(sub) or sub
    w = engine.Value(w0, requires_grad=True)
    ran = [raised(w.backward, "w.backward()"), raised(w.backward, "a second w.backward() after w.backward()")]
    return [*ran, fact(grad_quiet(w), f"w.grad after {LEAF_ROOT}")]


def seeded(sub: Any, w0: float) -> list[Any]:
    """Three backward calls from a leaf: each seeds it with 1, so w.grad counts the calls; a
    seed read from the root's .grad doubles it from the second call on, which the third shows."""
    engine = fresh_copy(sub) or sub
    w = engine.Value(w0, requires_grad=True)
    ran = [raised(w.backward, "w.backward()"), raised(w.backward, "a second w.backward() after w.backward()"),
           raised(w.backward, f"a third w.backward() after {LEAF_ROOT}")]
    return [*ran, fact(grad_quiet(w), f"w.grad after {SEEDED}")]


def retained_twice(sub: Any, w0: float) -> list[Any]:
    """retain_grad() called twice on one value, then one backward: a node that keeps a list of
    the Values to write, appended to at each call, writes a's gradient twice, which adds up
    from this stage on."""
    engine = fresh_copy(sub) or sub
    w = engine.Value(w0, requires_grad=True)
    a = w * 3
    a.retain_grad()
    a.retain_grad()
    return [raised((a * a).backward, f"(a * a).backward() after {RETAINED_TWICE[:-len('; (a * a).backward()')]}"),
            fact(grad_quiet(a), f"a.grad after {RETAINED_TWICE}")]


def retained_again(sub: Any, w0: float) -> list[Any]:
    """retain_grad() called again between two backward calls: a's .grad keeps what the first
    wrote, and the second adds to it.  a's node is an AddBackward0, which saves nothing, so the
    second backward through it runs at every stage, released or not."""
    engine = fresh_copy(sub) or sub
    w = engine.Value(w0, requires_grad=True)
    a = w + 1
    a.retain_grad()
    ran = [raised(kept(a * 2).backward, "(a * 2).backward() after a = w + 1; a.retain_grad()")]
    ran.append(raised(a.retain_grad, f"a.retain_grad() after {AGAIN[:-len('; a.retain_grad()')]}"))
    kept_grad = fact(grad_quiet(a), f"a.grad after {AGAIN}")
    ran.append(raised(kept(a * 3).backward, f"(a * 3).backward() after {AGAIN}"))
    return [*ran, kept_grad, fact(grad_quiet(a), f"a.grad after {AGAIN}; (a * 3).backward()")]


def dropped_kept(sub: Any, w0: float) -> list[Any]:
    """A Value taken from w.grad, then w.grad = None and another backward: the Value the caller
    kept holds the first gradient still (a store_grad that reused it wrote the second there)."""
    engine = fresh_copy(sub) or sub
    w = engine.Value(w0, requires_grad=True)
    ran = [raised(kept(w * w).backward, "(w * w).backward()")]
    g = w.grad
    w.grad = None
    ran.append(raised(kept(w + w).backward, f"(w + w).backward() after {DROPPED[:-len('; (w + w).backward()')]}"))
    held = number(g) if g is not None else None
    return [*ran, fact(held, f"g.item() after {DROPPED}")]


def zeroed_apart(sub: Any, w0: float, x0: float) -> list[Any]:
    """w.grad and x.grad zeroed, then a backward that adds into w.grad alone: x.grad keeps what its
    zero_() left, whatever that was (a wrong zero_ is told by its own facts).  A .grad missing or
    without zero_ is told by the other facts: nothing is asked here then.  On a fresh copy."""
    engine = fresh_copy(sub) or sub
    w, x = engine.Value(w0, requires_grad=True), engine.Value(x0, requires_grad=True)
    ran = [raised(kept(w * x).backward, "(w * x).backward()")]
    grads = [grad_quiet(v) is not None and getattr(v.grad, "zero_", None) for v in (w, x)]
    if not all(callable(zero) for zero in grads):
        return [*ran, claim(True, ZEROED_APART)]
    ran += [raised(zero, f"{name}.grad.zero_() after (w * x).backward()") for zero, name in zip(grads, "wx")]
    left = grad_quiet(x)
    ran.append(raised(kept(w * 3).backward, "(w * 3).backward() after (w * x).backward(); w.grad.zero_(); x.grad.zero_()"))
    return [*ran, claim(grad_quiet(x) == left, ZEROED_APART)]
