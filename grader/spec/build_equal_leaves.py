"""Two leaves holding one number, where only one is the leaf a rule is about: a build-track engine
that finds a leaf's node, or decides whether a value is a leaf that requires grad, by ``==`` (a
Value comparing numbers) takes the other leaf for it.  Every other program uses leaves of
numbers apart, so the lookup's mistake shows only after other programs made a leaf of the same
number, told then as state kept between calls; these programs run on a fresh copy of the
student's module (where it can be made), so the one other leaf is this program's own.

The same rule is asked of one Value over time: a leaf changed in place while it required no grad, then made
to require grad, is refused; a check that remembers the values it allowed once (their ids in a set kept
between calls) lets it through."""

from __future__ import annotations

from typing import Any

from micrograph.i18n import N_

from grader.spec.build import claim
from grader.spec.build_edges import apart
from grader.spec.build_fresh_nodes import equal_product
from grader.spec.held import held
from grader.spec.raised import error, raised
from grader.spec.repeat import fresh_copy

OWN_ACCUMULATOR = N_("each leaf has an AccumulateGrad of its own: another leaf holding the same number is another "
                     "value, which a lookup by == (a Value comparing numbers) takes for it, so its edge leads to "
                     "the first leaf's node")
EQUAL_EDGES = N_("x * w, x and w two leaves holding one number: (x * w).grad_fn.next_functions[0][0] and [1][0] "
                 "are two nodes, x's AccumulateGrad and w's")


def equal_accumulators(sub: Any) -> dict[str, Any]:
    """Whether ``x * w``, x and w new leaves of one number, reaches two AccumulateGrad nodes: a
    node kept per leaf in a list searched with ``==`` hands w x's node, and w's gradient goes to x."""
    return claim(apart(equal_product(fresh_copy(sub) or sub)), EQUAL_EDGES)


NOT_THE_LEAF = N_("check_in_place refuses a leaf that requires grad, and only that Value: another value holding its "
                  "number (a leaf that requires no grad) is another value, which a lookup by == (a Value comparing "
                  "numbers; a list's `in` compares with ==) takes for it")
EQUAL_CHANGED = N_("c.add_(1) runs without an error, c a leaf that requires no grad holding the number of w, "
                   "a leaf that requires grad")


def equal_leaf_changed(sub: Any) -> dict[str, Any]:
    """Whether an in-place op on a leaf that requires no grad runs beside a leaf that requires grad
    holding its number: leaves that require grad kept in a list and found with ``in`` (``==``)
    refuse it.  Where an in-place op on a leaf of another number is refused too, that is another
    rule's (``errors``): this one holds."""
    engine = fresh_copy(sub) or sub
    w, c, d = engine.Value(1.5, requires_grad=True), engine.Value(1.5), engine.Value(-0.25)
    held(w, c, d)
    if error(d.add_, 1.0) is not None:
        return claim(True, EQUAL_CHANGED)
    return claim(error(c.add_, 1.0) is None, EQUAL_CHANGED)


CHECKED_NOW = N_("check_in_place asks at each op what the value is then: a leaf changed in place while it required no "
                 "grad is refused once it requires grad, whatever an earlier check allowed")


def flag_followed(sub: Any) -> list[Any]:
    """``c.add_(1)`` on a constant, then ``c.requires_grad = True`` and ``c.add_(1)`` again: PyTorch
    refuses the second, c now a leaf that requires grad."""
    c = sub.Value(2.0)
    allowed = raised(c.add_, "c.add_(1), c = Value(2)", 1.0)
    c.requires_grad = True
    return [allowed, raised(c.add_, "c.add_(1) after c.add_(1); c.requires_grad = True, c = Value(2)", 1.0)]
