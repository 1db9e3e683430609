"""ex14's Functions inside a bigger graph, and called apart: what one node's backward passes on
where other nodes, of the same Function or another, were made before or beside it.

``composed`` and ``two_clips`` backpropagate graphs of several nodes (the incoming gradient is
not 1 there, and two nodes of one Function hold other bounds); ``equal_inputs`` applies a
Function to two leaves of one number before either is used; ``beside_later`` backpropagates a
node once a later call of its Function ran.  ``at_a_freed_leaf`` backpropagates a Function's node
whose input is a new leaf that took the id of a freed leaf an earlier call of the Function
backpropagated through (``grader.spec.freed.at_a_freed_id``, checked, so the score does not depend
on where the allocator put it): a backward that keeps what it computed by ``id(x)`` (a sigmoid
cached per input) passes on the freed leaf's."""

from __future__ import annotations

from types import ModuleType
from typing import Any, Callable

from micrograph import Value
from micrograph.i18n import N_  # a probe's label, translated where it is shown

from grader.spec.custom import own_notes
from grader.spec.facts import CONTEXT, Check
from grader.spec.freed import at_a_freed_id
from grader.spec.probe import num
from grader.spec.provenance import check, grad_of, result_of, same_object
from grader.spec.repeat import backprop_kept, fresh_copy


def composed(sub: ModuleType, a0: float, b0: float) -> dict[str, Any]:
    """z = Softplus(a * b) * a + Clip(b - a): the gradients reach a and b through both nodes."""
    a, b = Value(a0, requires_grad=True), Value(b0, requires_grad=True)
    z = sub.Softplus.apply(a * b) * a + sub.Clip.apply(b - a, -1.0, 1.0)
    z.backward()
    program = "z = Softplus.apply(a * b) * a + Clip.apply(b - a, -1, 1)"
    return {"z": result_of(num(z), program),
            "grads": [grad_of(a, f"a.grad in {program}"), grad_of(b, f"b.grad in {program}")]}


def two_clips(sub: ModuleType, a0: float) -> dict[str, Any]:
    """z = Clip(a, -1, 1) * 2 + Clip(a, 2, 3): two nodes of one Function with other bounds, so
    notes kept on the class (or in a global) instead of each node's ctx show: the second
    forward's bounds would be read by the first node's backward."""
    a = Value(a0, requires_grad=True)
    z = sub.Clip.apply(a, -1.0, 1.0) * 2.0 + sub.Clip.apply(a, 2.0, 3.0)
    z.backward()
    return grad_of(a, "a.grad in z = Clip.apply(a, -1, 1) * 2 + Clip.apply(a, 2, 3)")


def equal_inputs(ops: dict[str, Callable[[Value], Any]], x0: float) -> list[dict[str, Any]]:
    """z = F(a) * 2 + F(b) for each Function F of ``ops`` (its name: a one-argument op), a and b
    two leaves of one number, both applied before either is used: each gets a gradient.  A
    forward that hands back a Value it made for an earlier call (cached by the input's number)
    returns that very object, whose grad_fn the later call's node then replaces, as PyTorch's
    apply does: a gets none."""
    found = []
    for name, op in ops.items():
        a, b = Value(x0, requires_grad=True), Value(x0, requires_grad=True)
        first, second = op(a), op(b)
        (first * 2.0 + second).backward()
        bounds = "" if name == "Softplus" else ", -1, 1"
        program = f"z = y1 * 2 + y2, y1 = {name}.apply(a{bounds}), y2 = {name}.apply(b{bounds}) (a.item() == b.item())"
        kept = {**same_object(second, first, f"y2 = {name}.apply(b{bounds}) (a.item() == b.item())",
                              f"y1 = {name}.apply(a{bounds})"), CONTEXT + "earlier_call": True}
        found += [kept, grad_of(a, f"a.grad in {program}"), grad_of(b, f"b.grad in {program}")]
    return found


def beside_later(sub: ModuleType) -> list[dict[str, Any]]:
    """Clip.apply(a, -1, 1) backpropagated once Clip.apply(a, 2, 3) ran, and Softplus.apply(a)
    once Softplus.apply(b) ran: each node's backward passes on what it does right after its own
    forward (its interval and its x kept on its ctx).  Softplus's is labelled as the first result
    ``applies_apart`` keeps, which backpropagated again shows the same state less precisely."""
    return [own_notes(sub.Clip, "Clip", 0.5, (-1.0, 1.0), (2.0, 3.0), "Clip.apply(a, -1, 1)"),
            own_notes(sub.Softplus, "Softplus", 0.6, (), (), "Softplus.apply", other=2.2)]


AT_A_FREED_LEAF = {"Softplus": N_("Softplus.backward (x a new leaf at the id of a freed leaf that "
                                  "Softplus.apply(x).backward() ran on)"),
                   "Clip": N_("Clip.backward (x a new leaf at the id of a freed leaf that "
                              "Clip.apply(x, -1, 1).backward() ran on)")}
BOUNDS = {"Softplus": (), "Clip": (-1.0, 1.0)}
"""The numbers each Function is applied with beside x (Clip's interval), as ``AT_A_FREED_LEAF`` says."""


LEAF_CANDIDATES = 16
"""New leaves made after each backward of an earlier one, each kept while the next is, in the
search for one at the earlier leaf's freed id (``freed.at_a_freed_id``): where the allocator
hands blocks freed after the leaf's (its output's, its node's) out first, the first new leaf
never lands on it, however many tries, and the mistake would be told or not by the heap left by
whatever ran before in the process.  A leaf costs far less than a backward."""


def at_a_freed_leaf(sub: ModuleType, name: str, x0: float, earlier0: float) -> dict[str, Any]:
    """The SAME_FRESH fact of the Function ``name``'s backward for x, a new leaf of the number
    ``x0`` that took the id of a freed leaf of the number ``earlier0`` (each earlier one
    backpropagated through ``name``.apply, then let go of), in a fresh import of the student's
    file, against the same call in another fresh import, where it is the first call.  Fresh
    imports both: what the probe leaves in the module's state reaches no other test.  It holds
    where the file cannot be imported again (nothing judged)."""
    own, fresh = fresh_copy(sub), fresh_copy(sub)
    if own is None or fresh is None:
        return check(Check.SAME_FRESH, True, AT_A_FREED_LEAF[name])

    def gradient(module: ModuleType, x: Value) -> object:
        return backprop_kept(getattr(module, name).apply(x, *BOUNDS[name]), [x])
    x = at_a_freed_id(lambda: Value(x0, requires_grad=True), lambda leaf: gradient(own, leaf),
                      earlier=lambda: Value(earlier0, requires_grad=True), candidates=LEAF_CANDIDATES)
    alike = repr(gradient(own, x)) == repr(gradient(fresh, Value(x0, requires_grad=True)))
    return check(Check.SAME_FRESH, alike, AT_A_FREED_LEAF[name])


def at_freed_leaves(sub: ModuleType) -> list[dict[str, Any]]:
    """Each Function's backward for a new leaf at a freed leaf's id (``at_a_freed_leaf``):
    Softplus's at another number than the freed leaves', Clip's inside its interval where they were
    outside it, so that a result kept by id(x) differs from the new x's."""
    return [at_a_freed_leaf(sub, "Softplus", -1.1, 2.2), at_a_freed_leaf(sub, "Clip", 0.5, 1.5)]
