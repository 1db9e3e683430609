"""Facts of a student's custom Function (ex14) about its calls judged apart: what one call of
``apply`` or of its backward leaves behind for the next (a result kept on x, a sigmoid cached by
id(x) or by x's number, what the latest forward left on the class).  Each is judged against what
the same call does in a fresh import of the student's code, or with the first call's result kept
while another runs.  Kept apart from ``grader.spec.custom``, whose facts each read one call.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from micrograph import Value, grad, grad_mode, no_grad
from micrograph.i18n import N_  # a probe's label, translated where it is shown

from grader.spec.facts import LABEL, By, Check
from grader.spec.probe import num, type_name
from grader.spec.provenance import check, grad_of
from grader.spec.repeat import backprop_kept, calls_apart, fresh_copy

SECOND = "grad(grad(Softplus.apply(x), x, create_graph=True), x)"


def second_after_backward(sub: ModuleType, x0: float, other: float) -> list[dict[str, Any]]:
    """``calls_apart`` on the second derivative through Softplus at ``x0`` and ``other`` (a new
    leaf each call), once ``Softplus.apply(u).backward()`` ran on a leaf u of x0's number."""
    sub.Softplus.apply(Value(x0, requires_grad=True)).backward()
    return calls_apart(sub, _second_of, _as_seen, x0, other, SECOND)


def stepped_apart(sub: ModuleType, x0: float) -> list[dict[str, Any]]:
    """The SAME_FRESH facts of Softplus.apply and of its backward at a leaf x once a step changed
    x's number in place (under no_grad), after a first apply and backward at that very leaf: apply
    returns the number, and backward passes on what they do at that number in a fresh import of
    the student's code (a result kept on x, or a sigmoid kept by id(x), is the earlier number's).
    They hold where the first backward itself changed x (another fact tells that: no state kept),
    where the first apply left a hook on x that chooses its gradient (a state on x, not in
    backward: the hook's facts tell it), or where no fresh copy can be made."""
    leaf = Value(x0, requires_grad=True)
    _softplus_seen(sub, leaf)
    if leaf._version != 0 or num(leaf) != x0 or not leaf.requires_grad or _hook_chooses(leaf):
        return [check(Check.SAME_FRESH, True, STEPPED_APPLY), check(Check.SAME_FRESH, True, "Softplus.backward")]
    with no_grad():
        leaf.sub_(STEP)
    stepped = num(leaf)
    again = _softplus_seen(sub, leaf)
    fresh = fresh_copy(sub)
    first = again if fresh is None else _softplus_seen(fresh, Value(stepped, requires_grad=True))
    return [check(Check.SAME_FRESH, repr(first[0]) == repr(again[0]), STEPPED_APPLY),
            check(Check.SAME_FRESH, repr(first[1]) == repr(again[1]), "Softplus.backward")]


def _hook_chooses(leaf: Value) -> bool:
    """Whether a hook left on the leaf ``leaf`` chose the gradient a pass of ``leaf * 1.0`` wrote
    into its ``.grad`` (left None again); a hook that raises chose nothing here."""
    try:
        with grad_mode.enable_grad():
            (leaf * 1.0).backward()
    except Exception:  # the hook's error: the tests that run the student's code tell it
        return False
    chosen = grad_of(leaf, "x")["by"] == By.CHOSEN.value
    leaf.grad = None
    return chosen


STEP = 0.5
"""How far ``stepped_apart`` moves x, as a training step would."""
STEPPED_APPLY = N_("Softplus.apply(x) (x a leaf whose number a step changed in place since an earlier Softplus.apply(x))")


def _softplus_seen(module: ModuleType, x: Value) -> tuple[object, list[float | None] | str]:
    """Softplus.apply(x)'s number, and d Softplus.apply(x) / dx, the graph kept (no .grad written)."""
    y = module.Softplus.apply(x)
    return (num(y) if isinstance(y, Value) else type_name(y)), backprop_kept(y, [x])


def _second_of(module: ModuleType, x0: float) -> list[float | None] | str:
    leaf = Value(x0, requires_grad=True)
    (first,) = grad(module.Softplus.apply(leaf), [leaf], create_graph=True)
    return backprop_kept(first, [leaf])


def _as_seen(found: object) -> object:
    """A second derivative found is plain data already (a list of numbers, or what there is none)."""
    return found


def _applied(name: str, *rest: float) -> Callable[[Any, float], tuple[Any, Value]]:
    """The Function ``name`` of a module applied to a new leaf x (and ``rest``, Clip's bounds),
    for ``calls_apart``: what apply returned, and that leaf."""
    def apply(module: Any, x0: float) -> tuple[Any, Value]:
        x = Value(x0, requires_grad=True)
        return getattr(module, name).apply(x, *rest), x
    return apply


def applies_apart(sub: ModuleType, name: str, first: float, second: float, *rest: float) -> list[dict[str, Any]]:
    """``name``.apply on one input, another, then the first again, the first result kept: its
    number, told as apply's, and its gradient with respect to its x, taken keeping the graph and
    told as backward's (a sigmoid cached by id(x) returns the same number and passes on an earlier
    x's gradient).  The first result's gradient changed by the later call is told as that result
    changed, apply's (a backward reading what the latest forward left on the class)."""
    apply = _applied(name, *rest)
    returned = calls_apart(sub, apply, lambda made: num(made[0]), first, second, f"{name}.apply")
    passed = calls_apart(sub, apply, lambda made: backprop_kept(made[0], [made[1]]), first, second,
                         f"{name}.backward")
    return [*returned, {**passed[0], LABEL: f"{name}.apply"}, *passed[1:]]
