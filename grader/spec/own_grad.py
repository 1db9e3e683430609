"""Whether each leaf of a build-track engine holds a ``.grad`` of its own, whatever number it or
its gradient holds: a Value kept between calls by a number (a dict keyed by the leaf's ``item()``
or by the gradient, in ``store_grad`` or in the grad property) is one object for two leaves of one
number, or for two leaves given one gradient.  The stage
that writes ``.grad`` (ex18) and the one that adds into it (ex19) ask the same question, since a
slip made at the first is carried into the second's file."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from micrograph.i18n import N_

from grader.spec.build import claim
from grader.spec.build_reads import fact, grad_quiet
from grader.spec.held import kept

OWN_GRAD = ("each leaf's .grad is a Value of its own, whatever number the leaf or its gradient holds: a Value kept "
            "between calls by a number (such as a dict keyed by the leaf's .item() or by the gradient, in store_grad or in "
            "the grad property) gives two leaves one .grad, and a write for one changes what the other reads")
EQUAL = "y.backward(), y = u * v + v, v = Value(u.item(), requires_grad=True)"  # code: labels are shown as written


def _two_grads(sub: Any, y_of: Callable[[Any, Any], Any]) -> tuple[Any, Any, tuple[Any, Any]]:
    """u and v, two leaves holding one number, and their .grad objects after a backward through
    ``y_of(u, v)``, kept alive (no later root takes its node's id, ``grader.spec.held``), read
    with the engine's warnings silenced."""
    u, v = sub.Value(2.5, requires_grad=True), sub.Value(2.5, requires_grad=True)
    kept(y_of(u, v)).backward()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return u, v, (u.grad, v.grad)


def equal_leaves(sub: Any) -> list[Any]:
    """Two leaves holding one number, with other gradients: a .grad kept by the leaf's number is
    one object for both, and both read the gradient written into it; the stages' other programs
    give leaves of one number one gradient (w and x both 0), or leaves of other numbers.  Last,
    two leaves given one gradient (``_one_gradient``): both stages ask both questions."""
    u, v, held = _two_grads(sub, lambda u, v: u * v + v)
    return [fact(grad_quiet(u), f"u.grad after {EQUAL}"), fact(grad_quiet(v), f"v.grad after {EQUAL}"),
            claim(None in held or held[0] is not held[1], N_("after y.backward(), y = u * v + v, u and v two leaves "
                                                            "holding one number, u.grad and v.grad are two Values")),
            _one_gradient(sub)]


def _one_gradient(sub: Any) -> dict[str, Any]:
    """Two leaves given one gradient: a .grad kept by the gradient's number (a dict keyed by it, in
    store_grad) is one object for both, which an in-place add into one changes for the other."""
    _, _, held = _two_grads(sub, lambda u, v: u * v)
    return claim(None in held or held[0] is not held[1], N_("after y.backward(), y = u * v, u and v two leaves of one "
                                                           "number, u.grad and v.grad are two Values"))
