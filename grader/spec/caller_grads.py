"""The caller's ``.grad`` and ``requires_grad`` on the Values a function is handed, as that function
left them: the VALUE_KEPT fact of a function the statement only builds with those Values, or reads
(ex09's and ex12's forward, ex10's branch and grad_fn_chain, ex14's Functions, ex15's train for no
step).  A forward that clears ``w.grad`` loses a gradient its caller accumulates over several
passes, one that runs a backward adds to it, and one that turns off a leaf's flag keeps every
later gradient from it.  Every Value the tests otherwise hand such a function starts with no
``.grad``, where clearing it changes nothing: ``hold`` gives each leaf a ``.grad`` of its own
before the call, and ``kept`` tells after it the first Value whose ``.grad`` is no longer that
very Value holding that number, or whose flag moved, or that lost its grad_fn (``y.detach_()``: the
caller's Value cut off its graph), or whose own number changed (``w.data *= 2``: the caller's leaf moved
where no graph records it), and how (context ``cleared``, ``zeroed``, ``written``, ``flag``,
``detached``, ``renumbered``).  The fact is the one ex02's ``node_info`` is judged by too
(``grader.spec.node_info``): a Value it was handed, changed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from micrograph import Value, enable_grad, nn

from grader.spec.facts import CONTEXT, Check
from grader.spec.provenance import check

HELD = 0.625
"""The number of the ``.grad`` ``hold`` gives the first leaf (the next one more by one each): no number a
test's statement computes, and never said."""


@dataclass(frozen=True)
class Held:
    """The Values handed to a call (by the name the feedback gives each, code such as ``w``), and
    each one's ``.grad`` object, its number and the Value's flag, as ``hold`` left them."""

    values: dict[str, Value]
    before: dict[str, tuple[Value | None, float | None, bool, bool, float]]


def hold(values: dict[str, Value], give: bool = True) -> Held:
    """Give each leaf among ``values`` that requires grad a ``.grad`` of its own, a new Value (not
    with ``give`` False: a probe that backpropagates through the call reads the gradient it writes),
    and note what each one holds before the call."""
    for i, v in enumerate(v for v in values.values() if give and v.is_leaf and v.requires_grad):
        v.grad = Value(HELD + i)
    return Held(values, {name: _seen(v) for name, v in values.items()})


def _seen(v: Value) -> tuple[Value | None, float | None, bool, bool, float]:
    """A leaf's ``.grad`` object, its number, the Value's flag, whether it has a grad_fn and the
    Value's own number, as they are now (a non-leaf's ``.grad`` is not read: reading it warns)."""
    grad = v.grad if v.is_leaf else None
    return grad, grad.item() if isinstance(grad, Value) else None, v.requires_grad, v.grad_fn is not None, v.item()


_ATTRIBUTES = {"flag": "requires_grad", "detached": "grad_fn", "renumbered": "data"}  # what each way of changing a Value changed


def kept(held: Held, label: str) -> dict[str, Any]:
    """The VALUE_KEPT fact of the call ``label``, just made with ``held``'s Values: each still holds
    the ``.grad`` object and number, and the flag, it had before; where not, the first that
    changed as context ``value``, the attribute as ``attribute`` and how as a context flag."""
    for name, v in held.values.items():
        grad, number, flag, recorded, own = held.before[name]
        now, now_number, now_flag, still, now_own = _seen(v)
        how = ("detached" if recorded and not still else "flag" if now_flag != flag else "cleared" if now is None and grad is not None
               else "zeroed" if now_number == 0.0 and number != 0.0 else "written" if now is not grad or now_number != number
               else None if now_own == own or own != own and now_own != now_own else "renumbered")  # NaN kept: not changed
        if how is not None:
            return {**check(Check.VALUE_KEPT, False, label), CONTEXT + "value": name,
                    CONTEXT + "attribute": _ATTRIBUTES.get(how, "grad"), CONTEXT + how: True}
    return check(Check.VALUE_KEPT, True, label)


def flags_kept(values: dict[str, Value], label: str) -> dict[str, Any]:
    """The VALUE_KEPT fact of a call asked to change the ``.grad`` of the leaves it was given
    (zero_grad) but not their flag: where one no longer requires grad (``leaf.detach_()`` taken
    for a clearing), that first leaf as context ``value``, told as its requires_grad changed."""
    changed = next((name for name, v in values.items() if not v.requires_grad), None)
    if changed is None:
        return check(Check.VALUE_KEPT, True, label)
    return {**check(Check.VALUE_KEPT, False, label), CONTEXT + "value": changed,
            CONTEXT + "attribute": _ATTRIBUTES["flag"], CONTEXT + "flag": True}


def kept_through(label: str, values: dict[str, Value], call: Callable[[], object]) -> dict[str, Any]:
    """``kept`` of ``call`` made with grad mode on, as a program makes it, once ``hold`` gave
    ``values`` their gradients; where it kept them all, whether a backward pass through each leaf
    after the call still adds to its ``.grad`` exactly what the pass sends it (context ``hooked``:
    a hook the call registered on the caller's leaf, ``w.register_hook(lambda g: g * 0)`` to
    "freeze" it, runs in every later pass)."""
    held = hold(values)
    with enable_grad():
        call()
    fact = kept(held, label)
    hooked = next((name for name, v in held.values.items() if fact["holds"] and _hooked(v)), None)
    if hooked is None:
        return fact
    return {**check(Check.VALUE_KEPT, False, label), CONTEXT + "value": hooked, CONTEXT + "attribute": "grad",
            CONTEXT + "hooked": True}


def _hooked(v: Value) -> bool:
    """Whether a backward pass of ``v * 1.0`` from a leaf ``v`` that requires grad, holding a
    ``.grad``, adds to it another number than one (or raises): a hook left on ``v`` chose it."""
    if not (v.is_leaf and v.requires_grad and isinstance(v.grad, Value)):
        return False
    before = v.grad.item()
    try:
        with enable_grad():
            (v * 1.0).backward()
    except Exception:  # noqa: BLE001 - a hook of the student's raised in the probe's pass: it is there
        return True
    return not isinstance(v.grad, Value) or v.grad.item() - before != 1.0


def parameters_of(model: nn.Module, name: str = "model") -> dict[str, Value]:
    """A model's parameters, each by code that names it (``list(model.parameters())[0]``)."""
    return {f"list({name}.parameters())[{i}]": p for i, p in enumerate(model.parameters())}
