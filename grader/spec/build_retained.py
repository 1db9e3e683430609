"""A retained root's ``.grad`` across a second backward through a graph the first one freed: ex20's
tests observe it, and so does ex20's check (``grader.spec.build_checks``), which every later stage
runs.  PyTorch writes a retained value's gradient as its node starts, before apply reads what the
node saved, and a released node that runs again (an addition's, which saved nothing) still writes
it: release frees the saved values only.  A retained ``.grad`` zeroed between two backward calls
(``ZEROED``) is ex19's, observed by its tests and its check alike.
"""

from __future__ import annotations

from typing import Any

from grader.spec.build_reads import grad_quiet
from grader.spec.held import held
from grader.spec.raised import error, raised

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
