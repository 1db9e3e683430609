"""ex22 programs where a hook, or its argument, is kept past the moment the other programs look:
a Value a hook was handed and keeps, read after the later hooks ran; a leaf's hooks after the
leaf was freed (a new leaf at its id) or after its requires_grad was switched off and on; and the
flags detach() gives a Value that retains its gradient; a hook beside another leaf holding its number.  Each is what one such engine alone gets
wrong: every other program reads a hook's argument as it is called, and uses each leaf once."""

from __future__ import annotations

from typing import Any

from micrograph.i18n import N_

from grader.spec.build import claim, fact, flag, number
from grader.spec.build_reads import grad_quiet
from grader.spec.freed import at_a_freed_id
from grader.spec.held import held
from grader.spec.probe_error import ProbeError
from grader.spec.raised import error, raised
from grader.spec.repeat import fresh_copy

KEPT_ARGUMENT = N_("the gradient w's first hook received, read after y.backward(), y = w * 3 (w's second hook doubles)")


def argument_kept(sub: Any) -> list[Any]:
    """A hook that keeps the Value it was handed, read once every hook ran: PyTorch hands each
    hook the gradient as it is then, and a later hook's result is a new Value, so the kept one
    is as it was; one Value handed to every hook and overwritten with each result changes under
    the hook that kept it."""
    w = sub.Value(1.5, requires_grad=True)
    y = w * 3
    held(y, w)
    seen: list[Any] = []
    w.register_hook(lambda g: seen.append(g))
    w.register_hook(lambda g: g * 2)
    ran = raised(y.backward, N_("y.backward(), y = w * 3, w's first hook keeping its argument, its second doubling"))
    return [ran, fact(number(seen[0]) if seen else None, KEPT_ARGUMENT)]


FREED_LEAF_RUN = N_("(w * 2).backward(), w a new leaf at a freed leaf's id")
FREED_LEAF_RAN = N_("(w * 2).backward(), w a new leaf, ran no hook: the only hooks registered were on leaves already "
                    "freed")


def freed_leaf_hooks(sub: Any) -> list[Any]:
    """Hooks kept by ``id(leaf)`` outside the leaf's AccumulateGrad run for a new leaf at a freed
    one's id: leaves with a hook are made and freed until a new leaf takes a freed leaf's id
    (``at_a_freed_id``, checked, so the score does not depend on the allocator)."""
    ran: list[str] = []

    def hooked(v: Any) -> None:
        v * 3  # used by an operation (let go of at once: the leaf is freed): not a fresh leaf's hook (leaf_hook)
        v.register_hook(lambda g: ran.append("freed"))

    w = at_a_freed_id(lambda: sub.Value(0.25, requires_grad=True), hooked)
    held(w)
    return [raised((w * 2).backward, FREED_LEAF_RUN), claim(not ran, FREED_LEAF_RAN)]


FLAG_FLIPPED = "w.requires_grad = False; c = w * x; w.requires_grad = True"
FLAG_HOOK_RAN = N_("w's hook ran during (w * 3).backward() after w.requires_grad = False; c = w * x; w.requires_grad = True")


def flag_flipped(sub: Any) -> list[Any]:
    """A hooked leaf used by an operation while its requires_grad is off, then switched on again:
    the operation records no edge to it, and PyTorch's leaf keeps its AccumulateGrad, with the
    hook on it, for its whole life; a gradient_edge that drops the node when it meets the leaf
    not requiring grad loses the hook."""
    w, x = sub.Value(1.5, requires_grad=True), sub.Value(2.0, requires_grad=True)
    y = w * 3  # w used by an operation: a hook on it is not one on a fresh leaf (leaf_hook)
    held(y, w, x)
    runs: list[int] = []
    w.register_hook(lambda g: runs.append(1) or g * 2)
    w.requires_grad = False
    held(w * x)
    w.requires_grad = True
    ran = raised((w * 3).backward, f"(w * 3).backward() after {FLAG_FLIPPED}")
    return [ran, claim(bool(runs), FLAG_HOOK_RAN),
            fact(grad_quiet(w), f"w.grad after {FLAG_FLIPPED}; (w * 3).backward()")]


def detached_retains(sub: Any) -> dict[str, Any]:
    """detach() of a non-leaf that retains its gradient: the Value it gives is a leaf, which
    retains nothing (PyTorch's ``retains_grad`` False); a detach() that copies the flags of the
    Value it is called on says True."""
    w = sub.Value(1.5, requires_grad=True)
    y = w * 2
    y.retain_grad()
    return fact(flag(getattr(y.detach(), "retains_grad", None)), "y.detach().retains_grad after y = w * 2; y.retain_grad()")


EQUAL_LEAF_RUN = N_("(x * 3).backward(), x and w two leaves holding one number, a hook registered on w")
EQUAL_LEAF_RAN = N_("(x * 3).backward() ran no hook: the only hook was registered on w, another leaf holding x's number")


def equal_leaf_hooks(sub: Any) -> list[Any]:
    """A hook belongs to the value it was registered on: a leaf holding the same number is another value.
    Hooks kept outside the leaf's AccumulateGrad and found by ``==`` (a Value comparing numbers) run for
    both.  On a fresh copy of the student's module (where it can be made), so only this program's hook
    is kept there, whatever the others registered."""
    engine = fresh_copy(sub) or sub
    w, x = engine.Value(1.5, requires_grad=True), engine.Value(1.5, requires_grad=True)
    held(w * 2, w, x)  # w used by an operation: a hook on a leaf no operation used is another rule's (leaf_hook)
    ran: list[str] = []
    if error(w.register_hook, lambda g: ran.append("w")) is not None:  # told by the other programs
        return [raised(lambda: None, EQUAL_LEAF_RUN), claim(True, EQUAL_LEAF_RAN)]
    return [raised((x * 3).backward, EQUAL_LEAF_RUN), claim(not ran, EQUAL_LEAF_RAN)]


AFTER_HOOK_ERROR = N_("(v * 2).backward() ran v's hook, v a new leaf, after a backward whose hook on w raised")
RECORDED_AFTER_HOOK_ERROR = N_("v * 2, v a new leaf, made after a backward whose hook on w raised, has a grad_fn")


def hooks_after_error(sub: Any) -> list[dict[str, Any]]:
    """Whether operations still record and hooks still run once a hook raised, on a fresh copy of the student's
    module (where it can be made) whose hooks ran before: grad mode switched off while hooks run and back on only
    when they return stays off, and no later operation records; a flag or depth counter run_hooks raises while a
    hook runs (against a hook's own backward) and lowers only when the hook returns stays up, and no later hook
    runs.  Each holds where the copy ran no hook before, or the hook's error never left backward (other rules tell
    those); the first also where the raising backward's graph was recorded no more than the later one."""
    engine = fresh_copy(sub) or sub
    runs: list[str] = []

    def hooked(start: float, hook: Any) -> Any:
        leaf = engine.Value(start, requires_grad=True)
        out = leaf * 2
        held(out, leaf)
        return None if error(leaf.register_hook, hook) is not None else out

    def refuses(g: Any) -> Any:
        raise ProbeError("raised by a hook")
    first, failing = hooked(0.5, lambda g: runs.append("u")), hooked(-1.5, refuses)
    if first is None or failing is None or error(first.backward) is not None or not runs \
            or error(failing.backward) is None:
        return [claim(True, RECORDED_AFTER_HOOK_ERROR), claim(True, AFTER_HOOK_ERROR)]
    runs.clear()
    later = hooked(2.25, lambda g: runs.append("v"))
    left_off = later is not None and getattr(failing, "grad_fn", None) is not None and getattr(later, "grad_fn", None) is None
    recorded = claim(not left_off, RECORDED_AFTER_HOOK_ERROR)  # recorded before that backward, not after: mode left off
    if later is None or error(later.backward) is not None:
        return [recorded, claim(True, AFTER_HOOK_ERROR)]
    return [recorded, claim(bool(runs), AFTER_HOOK_ERROR)]
