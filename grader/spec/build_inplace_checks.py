"""ex21's gate (``grader.spec.build_checks``): in-place operations, as PyTorch records them and
refuses them.  Each program returns None, or the finding (a msgid) that names what the
engine's in-place part got wrong.
"""

from __future__ import annotations

from typing import Any

from micrograph.i18n import N_  # a check's finding, translated where told

from grader.spec.build_reads import edge_node, node_name, number
from grader.spec.held import held
from grader.spec.raised import IN_PLACE, error

DETACH_FLAGGED = N_("w.detach() requires grad, where PyTorch's detach() gives a Value that requires no grad, so a change "
                    "through it is not refused")
DATA_FLAGGED = N_("w.data requires grad, where PyTorch's .data gives a Value that requires no grad, so a change through "
                  "it is not refused")


def in_place_checks(sub: Any) -> str | None:
    """ex21's gate: an in-place change of a leaf that requires grad is refused and changes
    nothing; one through detach() or .data counts in the version; one of a non-leaf rebases it
    onto a node of its own, leaving other nodes' edges as they were; a backward through a value
    changed since it was saved raises PyTorch's error."""
    w = sub.Value(1.5, requires_grad=True)
    if error(w.add_, 1.0) != "RuntimeError: leaf in place":
        return N_("w.add_(1) on a leaf that requires grad does not raise PyTorch's error")
    if number(w) != 1.5:
        return N_("w.add_(1) on a leaf that requires grad, refused, changed w's number")
    if type(w._version) is not int or w._version != 0:
        return N_("w.add_(1) on a leaf that requires grad, refused, changed w's version")
    # told as what detach() or .data gave, not as the leaf check (a later stage's rewrite) refusing the change
    if getattr(w.detach(), "requires_grad", None) is True:
        return DETACH_FLAGGED
    if getattr(w.data, "requires_grad", None) is True:
        return DATA_FLAGGED
    changed = _through_aliases(w)
    if changed is not None:
        return changed
    b = w * 2
    b.add_(1.0)
    if node_name(getattr(b, "grad_fn", None)) != "AddBackward0":
        return N_("b.add_(1) on b = w * 2 does not rebase b onto an AddBackward0")
    made = _edge_nodes(getattr(b, "grad_fn", None))
    c = sub.Value(1.0)
    c.add_(w)
    if node_name(getattr(c, "grad_fn", None)) != "AddBackward0":
        return N_("c.add_(w) on a constant c = Value(1) records no AddBackward0, where the in-place op records one as "
                  "soon as an input requires grad")
    if not _same_nodes(_edge_nodes(getattr(b, "grad_fn", None)), made):
        return EDGES_CHANGED
    q, r = w + 2, w + 3
    z, t = q * r, r * q  # q saved as "self" by z's node, as "other" by t's: every saved value's version is checked
    held(z, t)
    q.add_(1.0)
    if not (error(z.backward) or "").startswith(f"RuntimeError: {IN_PLACE}"):
        return N_("z.backward() after q.add_(1), z = q * r, q = w + 2, r = w + 3, does not raise PyTorch's error about "
                  "a value modified by an inplace operation")
    if not (error(t.backward) or "").startswith(f"RuntimeError: {IN_PLACE}"):
        return N_("t.backward() after q.add_(1), t = r * q, q = w + 2, r = w + 3, does not raise PyTorch's error about "
                  "a value modified by an inplace operation")
    return _zeroed_edges(sub)


def _zeroed_edges(sub: Any) -> str | None:
    """z.zero_() on a non-leaf records a ZeroBackward0 whose one edge is z's old history; a zero_
    of a value of another graph leaves that edge as it was, where a list of edges that every
    zero_ refills, shared by the nodes, changes under it."""
    w, v = sub.Value(1.5, requires_grad=True), sub.Value(-0.5, requires_grad=True)
    z = w * 3
    z.zero_()
    made = _edge_nodes(getattr(z, "grad_fn", None))
    (v * 3).zero_()
    return None if _same_nodes(_edge_nodes(getattr(z, "grad_fn", None)), made) else ZERO_EDGES_CHANGED


DETACH_NUMBER = N_("w.item() after w.detach().add_(1) is a different number from PyTorch's: the Value detach() gives "
                   "shares w's number")
DETACH_VERSION = N_("w.detach().add_(1) bumps the version of the Value detach() gave, not w._version: detach() gives a "
                    "Value sharing w's version counter")
DETACH_BUMPED = N_("w._version after w.detach().add_(1) is a different number from PyTorch's")
DATA_NUMBER = N_("w.item() after w.data.add_(1) is a different number from PyTorch's: the Value .data gives shares w's "
                 "number")
DATA_VERSION = N_("w._version after w.data.add_(1) is a different number from PyTorch's: .data gives a Value with a "
                  "version counter of its own, so a change through it leaves w's version as it was")

# A finding that names the one function at fault (``build_checks.FAULT_IN``).
FAULT_IN = {DETACH_FLAGGED: "Value.detach", DATA_FLAGGED: "Value.data", DETACH_NUMBER: "Value.detach",
            DETACH_VERSION: "Value.detach", DATA_NUMBER: "Value.data", DATA_VERSION: "Value.data"}


def _through_aliases(w: Any) -> str | None:
    """A change through w.detach(), then one through w.data, each judged on its own: the finding
    names the alias whose change gave w another number or version than PyTorch's.  A detached
    Value whose own version was bumped while w's was not holds a counter of its own (detach()'s
    fault); one bumped neither way is told by the version alone, add_ being asked too."""
    detached = w.detach()
    detached.add_(1.0)
    version = w._version
    if type(version) is not int:  # a float counter's 1.0 counts right: its type is all that differs
        return N_("w._version after a change through w.detach() is not an int, where PyTorch's version counter is one")
    if number(w) != 2.5:
        return DETACH_NUMBER
    if version != 1:
        own = getattr(detached, "_version", None)
        return DETACH_VERSION if version == 0 and type(own) is int and own == 1 else DETACH_BUMPED
    w.data.add_(1.0)
    if number(w) != 3.5:
        return DATA_NUMBER
    return None if w._version == 1 else DATA_VERSION


EDGES_CHANGED = N_("c.add_(w), c = Value(1), changes the edges of the AddBackward0 that b.add_(1) recorded before, "
                   "b = w * 2: a node's edges are its own, and an in-place op on another value leaves them as they "
                   "were")


ZERO_EDGES_CHANGED = N_("q.zero_(), q = v * 3, changes the edge of the ZeroBackward0 that z.zero_() recorded before, "
                        "z = w * 3: a node's edges are its own, and an in-place op on another value leaves them as "
                        "they were")


def _edge_nodes(fn: object) -> list[object]:
    """The nodes ``fn``'s edges lead to, in order (as many as it has, up to 8)."""
    pairs = getattr(fn, "next_functions", None)
    count = len(pairs) if type(pairs) in (tuple, list) else 0
    return [edge_node(fn, i) for i in range(min(count, 8))]


def _same_nodes(now: list[object], made: list[object]) -> bool:
    """Whether two lists of nodes hold the same objects, in order (compared by identity: an
    object of the student's may equal anything)."""
    return len(now) == len(made) and all(a is b for a, b in zip(now, made))
