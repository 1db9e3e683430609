"""A retained root's ``.grad`` across a second backward through a graph the first one freed: ex20's
tests observe it, and so does ex20's check (``grader.spec.build_checks``), which every later stage
runs.  PyTorch writes a retained value's gradient as its node starts, before apply reads what the
node saved, and a released node that runs again (an addition's, which saved nothing) still writes
it: release frees the saved values only.  A retained ``.grad`` zeroed between two backward calls
(``ZEROED``) is ex19's, observed by its tests and its check alike.
"""

from __future__ import annotations

from typing import Any

from micrograph.i18n import N_

from grader.spec.build_reads import fact, grad_quiet
from grader.spec.facts import CLAIM
from grader.spec.held import held
from grader.spec.repeat import fresh_copy
from grader.spec.raised import SAID, error, raised

REFUSED = "y.grad after a second y.backward() after y.retain_grad(); y.backward(), y = w * w"
RELEASED = "y.grad after y.retain_grad(); y.backward(); y.backward(), y = w + 2"


def grad_after_refused(sub: Any, w0: float) -> float | str | None:
    """``REFUSED``'s y.grad: the refused pass has added its seed already, where a backward that
    writes the retained gradient after apply (right until ex20, where apply first raises) has not."""
    w = sub.Value(w0, requires_grad=True)
    y = w * w
    held(y)
    y.retain_grad()
    y.backward()
    error(y.backward)  # its error is told by the other tests
    return grad_quiet(y)


def retained_second(sub: Any, w0: float) -> dict[str, Any]:
    """Whether a second y.backward() through a retained y = w * w raises, as PyTorch's: retain_grad()
    keeps y's gradient, never its graph, so backward releases y's node as any other it ran (an
    engine that spares the node of a value that called retain_grad() runs the second pass)."""
    w = sub.Value(w0, requires_grad=True)
    y = w * w
    held(y)
    y.retain_grad()
    y.backward()
    return raised(y.backward, "a second y.backward() after y.retain_grad(); y.backward(), y = w * w", whole=True)


KEPT_PAST = N_("y.backward(retain_graph=True); y.backward() frees y's graph, as a plain y.backward() does: a third "
               "y.backward() raises")


def kept_past_its_call(sub: Any, third: dict[str, Any]) -> dict[str, Any]:
    """Whether ex20's third y.backward() after y.backward(retain_graph=True); y.backward() (``third``)
    raised, where this engine frees a graph (a plain second y.backward() raises, on a fresh copy):
    one that raises nothing there kept the graph past the call given retain_graph=True (the flag
    kept on the node).  An engine that frees nothing is told by the other rules, not this one."""
    engine = fresh_copy(sub) or sub
    w = engine.Value(2.0, requires_grad=True)
    y = w * w
    held(y)
    y.backward()
    frees = error(y.backward) is not None
    # build.claim's form: grader.spec.build imports this module
    return {**fact(not frees or third.get(SAID) is not None, KEPT_PAST), CLAIM: True}


def grad_after_released(sub: Any, w0: float) -> float | str | None:
    """``RELEASED``'s y.grad: the second pass adds into it, where a release that forgets the
    retained value with the saved ones leaves y.grad as the first backward wrote it."""
    w = sub.Value(w0, requires_grad=True)
    y = w + 2
    held(y)
    y.retain_grad()
    y.backward()
    y.backward()
    return grad_quiet(y)


ZEROED = "a.grad after a = w + w; a.retain_grad(); (a * a).backward(retain_graph=True); a.grad.zero_(); (a * w).backward()"


def grad_after_zeroed(sub: Any, w0: float) -> float | str | None:
    """``ZEROED``'s a.grad: the second backward adds into the 0 zero_() left, as into a leaf's
    .grad, where an engine that keeps a retained value's running sum apart from .grad (on its
    node or the Value) and resets it only when .grad is None adds the first gradient too.  The
    first backward keeps its graph, so a later stage's release (right or not) never meets a's
    node twice."""
    w = sub.Value(w0, requires_grad=True)
    a = w + w
    a.retain_grad()
    first, second = a * a, a * w
    held(first, second)
    first.backward(retain_graph=True)
    grad = a.grad
    if grad is not None:  # a retained gradient never written is told by the other tests
        grad.zero_()
    second.backward()
    return grad_quiet(a)


STICKY = N_("a second y.backward() raises, also after z.backward(retain_graph=True) through another graph")


def sticky_freed(sub: Any) -> dict[str, Any]:
    """Whether a backward without retain_graph frees its graph after an earlier call through
    another graph kept its own, on a fresh copy of the student's module (where it can be made):
    an engine that keeps retain_graph=True between calls (a module flag) frees nothing once any
    call was given it, which every other test of ex20 meets after the earlier ones; one that frees
    nothing even before (``y.backward()`` run twice first) is told by them instead."""
    engine = fresh_copy(sub) or sub
    w = engine.Value(1.5, requires_grad=True)
    u, z, y = w * 2, w * w, w * 3
    held(u, z, y)
    u.backward()
    if raised(u.backward, "a second u.backward()")[SAID] is None:  # never freed: not this rule's case
        return {**fact(True, STICKY), CLAIM: True}  # build.claim's form: grader.spec.build imports this module
    z.backward(retain_graph=True)
    y.backward()
    return {**fact(raised(y.backward, STICKY)[SAID] is not None, STICKY), CLAIM: True}
