"""What ex05's ``zero_grad(leaves, set_to_none)`` left in the gradients it was given, and in
those it was not: the probes' facts of one clearing, called on new leaves each time.

Every probe gives zero_grad three leaves p, q, r where a backward pass wrote p's and r's
gradients and left q's None, so that a loop that stops at the first leaf without a gradient,
or skips the last one, leaves a gradient behind.  The numbers are the test module's.
"""

from __future__ import annotations

import functools
from types import ModuleType
from typing import Any

from micrograph import Value, enable_grad
from micrograph.i18n import N_

from grader.spec.caller_grads import flags_kept
from grader.spec.defaults import Earlier, default_after, default_kept
from grader.spec.equal_skipped import skipped_as_equal
from grader.spec.facts import CONTEXT, Check
from grader.spec.mode_restored import called
from grader.spec.provenance import check, grad_of, list_kept, same_object, watching
from grader.spec.repeat import fresh_copy

Leaves = tuple[float, float, float]
"""The numbers of the leaves p, q and r."""


def _backward_into(leaves: list[Value]) -> None:
    """A backward pass that gives the first and the last of the three leaves a gradient and the
    middle one none: a loop that skips the last leaf, or stops at the first without a
    gradient, leaves a gradient behind.  Recorded with grad mode on, whatever mode an earlier
    call of the student's zero_grad left: that call's own fact tells a mode left off."""
    p, _q, r = leaves
    if p.requires_grad and r.requires_grad:  # a leaf the student's zero_grad detached gets no pass: told by its flag
        with enable_grad():
            (p * r + p).backward()


def _with_grads(values: Leaves) -> tuple[list[Value], Value]:
    leaves = [Value(v, requires_grad=True) for v in values]
    _backward_into(leaves)  # p and r get gradients, q none
    return leaves, leaves[0].grad


def zero_grad_left(sub: ModuleType, values: Leaves, set_to_none: bool, note: str = "") -> dict[str, Any]:
    """zero_grad on three new leaves p, q, r holding ``values`` (p and r with a gradient), each
    .grad labelled with the case's ``note``, if any ("p.grad (p, q and r of one value)").  Whether
    p.grad is still the Value it was is judged where it is zeroed in place: set_to_none=True
    leaves None, and a .grad kept there is told as the gradient backward wrote, not as an object;
    where it set p.grad to None, the Value p.grad held is left as it was (a caller may still hold
    it), not zeroed first."""
    leaves, before = _with_grads(values)
    given = list(leaves)  # the list passed: only read
    number, held = before.item(), [v.grad is not None for v in leaves]
    with watching(sub, "zero_grad", grad_mode=None) as call:  # grad mode switched off and left off is judged
        called("zero_grad", sub.zero_grad, given, set_to_none=set_to_none)
    distinct = (-0.5, 3.0, 1.0)  # numbers that all differ: a leaf skipped as == to another is told apart
    skipped = skipped_as_equal(sub, leaves, held, lambda: _with_grads(distinct)[0], set_to_none)
    dropped = before.item() == number if leaves[0].grad is None else None  # judged where it set p.grad to None
    same = ({"dropped": check(Check.DROPPED_KEPT, dropped, "zero_grad(leaves, set_to_none=True)")}
            if set_to_none else {"same_value": same_object(leaves[0].grad, before, "p.grad after zero_grad",
                                                           "p.grad before zero_grad")})
    return {"grads": [{**grad_of(v, f"{n}.grad ({note})" if note else f"{n}.grad"),
                       **skipped.get(n, {})} for v, n in zip(leaves, "pqr")],
            **same, "backward": call.fact, "list": list_kept(given, leaves, "zero_grad", "leaves"),
            "flags": flags_kept(dict(zip("pqr", leaves)), "zero_grad")}


def set_to_none_read(sub: ModuleType, values: Leaves) -> dict[str, Any]:
    """The CHECK fact: zero_grad with set_to_none=True and with False, each on new leaves
    holding gradients, does not clear them as the other value of the flag asks (zeros left in
    place by True and None left by False: the flag read the other way round)."""
    left = {}
    for set_to_none in (True, False):
        leaves, _ = _with_grads(values)
        called("zero_grad", sub.zero_grad, list(leaves), set_to_none=set_to_none)
        left[set_to_none] = [_cleared_as(leaf.grad) for leaf in leaves[::2]]  # q holds no gradient
    swapped = left[True] == ["zero", "zero"] and left[False] == ["none", "none"]
    return check(Check.SET_TO_NONE_READ, not swapped, "zero_grad")


def past_no_grad(sub: ModuleType, values: Leaves) -> dict[str, Any]:
    """The PAST_NO_GRAD fact: zero_grad(set_to_none=False) on p, q, r (q without a gradient)
    given in three orders, q in the middle, first and last, does not zero exactly the leaves
    before q every time: a loop that stops at q (``break`` where ``continue`` is meant) does, and
    no other slip (the last leaf skipped, the first zeroed only) does in all three orders."""
    stopped = []
    for order in ((0, 1, 2), (1, 0, 2), (0, 2, 1)):
        leaves, _ = _with_grads(values)
        called("zero_grad", sub.zero_grad, [leaves[i] for i in order], set_to_none=False)
        left = [_cleared_as(leaves[i].grad) for i in order]
        at = order.index(1)  # where q, the leaf without a gradient, was given
        stopped.append(all(c == "zero" for c in left[:at]) and all(c == "kept" for c in left[at + 1:]))
    return check(Check.PAST_NO_GRAD, not all(stopped), "zero_grad(leaves, set_to_none=False)")


def cleared_twice(sub: ModuleType, values: Leaves, set_to_none: bool) -> list[dict[str, Any]]:
    """zero_grad called twice on new leaves, a backward before each, in the student's module
    and in a fresh import of their file: whether the second call leaves each .grad as the first
    did (None, zero, or kept), and whether both calls do what they do in the fresh import (a
    file that cannot be imported again, or a second call told already, is not held against it).  A
    record of the leaves cleared before, kept between calls, shows in one or the other: by
    object, the second call skips; by id or by value, a new leaf that shares either with an
    earlier one is skipped."""
    left = _twice(sub, values, set_to_none)
    fresh = fresh_copy(sub)
    alone = None if fresh is None else _twice(fresh, values, set_to_none)
    second_alike = left[0] == left[1]  # told first: the fresh import is asked only then
    return [check(Check.SAME_SECOND_TIME, second_alike, "zero_grad"),
            check(Check.SAME_FRESH_EFFECT, alone is None or not second_alike or left == alone, "zero_grad")]


def _twice(module: ModuleType, values: Leaves, set_to_none: bool) -> list[list[str]]:
    leaves = [Value(v, requires_grad=True) for v in values]
    left = []
    for _ in range(2):
        _backward_into(leaves)
        called("zero_grad", module.zero_grad, list(leaves), set_to_none=set_to_none)
        left.append([_cleared_as(leaf.grad) for leaf in leaves])
    return left


def earlier_left_alone(sub: ModuleType, values: Leaves, set_to_none: bool) -> dict[str, Any]:
    """zero_grad called on leaves p, q, r, then, once p and r hold new gradients, on three new
    leaves: whether the second call left p's, q's and r's .grad as they were (the same object
    holding the same number).  A record of every leaf ever given, kept between calls and
    cleared whole, reaches the first call's leaves."""
    first = [Value(v, requires_grad=True) for v in values]
    second = [Value(v + 0.5, requires_grad=True) for v in values]
    for leaves in (first, second):
        _backward_into(leaves)
    called("zero_grad", sub.zero_grad, list(first), set_to_none=set_to_none)
    _backward_into(first)
    held = [(leaf.grad, None if leaf.grad is None else leaf.grad.item()) for leaf in first]
    called("zero_grad", sub.zero_grad, list(second), set_to_none=set_to_none)
    alone = all(leaf.grad is grad and (grad is None or grad.item() == number)
                for leaf, (grad, number) in zip(first, held))
    return {**check(Check.EARLIER_KEPT, alone, "zero_grad"), CONTEXT + "leaves": True}


def set_to_none_default(sub: ModuleType, values: Leaves) -> dict[str, Any]:
    """The DEFAULT_KEPT fact of zero_grad's set_to_none: left out, it drops the gradients, as
    the stub's ``set_to_none=True`` (and PyTorch's optimizer.zero_grad()) does."""
    def run(module: Any, **flag: bool) -> list[str]:
        leaves, _ = _with_grads(values)
        called("zero_grad", module.zero_grad, list(leaves), **flag)
        return [_cleared_as(leaf.grad) for leaf in leaves]
    return default_kept(sub, run, lambda module: run(module, set_to_none=True), list,
                        f"zero_grad(leaves) ({N_('set_to_none left out')})")


def set_to_none_after(sub: ModuleType, values: Leaves) -> dict[str, Any]:
    """The DEFAULT_KEPT fact of zero_grad with set_to_none left out after a call that passed False
    (``defaults.default_after``): a mode kept from the last call zeroes where the default drops."""
    def run(module: Any, **flag: bool) -> list[str]:
        leaves, _ = _with_grads(values)
        called("zero_grad", module.zero_grad, list(leaves), **flag)
        return [_cleared_as(leaf.grad) for leaf in leaves]
    return default_after(sub, run, list, f"zero_grad(leaves) ({N_('set_to_none left out')})",
                         [Earlier("zero_grad", "set_to_none", functools.partial(run, set_to_none=False),
                                  functools.partial(run, set_to_none=True))])


def _cleared_as(grad: object) -> str:
    """What a clearing left in a .grad: nothing, a zero, or another number (kept)."""
    if grad is None:
        return "none"
    return "zero" if type(grad) is Value and grad.item() == 0.0 else "kept"
