"""The hidden hook programs of ex22 (the build track's stage 7) run on the student's engine:
what a hook returns, a hook that takes itself out, hooks on the value backward starts from, a
hook's error, and hooks kept outside their node by ``id(node)``.  Every value a hook is registered
on is kept alive (``grader.spec.held``): hooks kept by ``id(node)`` reach a new node only in
``freed_hooks``, which frees its values on purpose, never in a program run after these."""

from __future__ import annotations

from typing import Any

from micrograph.i18n import N_

from grader.spec.build import claim, fact, flag, number
from grader.spec.build_reads import grad_quiet
from grader.spec.freed import at_a_freed_id
from grader.spec.held import held
from grader.spec.probe_error import BUILTIN_KINDS, ProbeError
from grader.spec.raised import SAID, raised
from grader.spec.warned import grad_read


def removed_with(handle: Any, label: str) -> dict[str, Any]:
    """Whether ``register_hook`` returned a handle with a ``remove()`` (PyTorch's
    RemovableHandle), told as that, labelled ``label``; the hook is taken out through it when it
    did.  A None returned is seen here, never as an error of the test's own ``.remove()``."""
    remove = getattr(handle, "remove", None)
    if callable(remove):
        remove()
    return claim(callable(remove), label)


READDED = N_("the list of the hooks of w that ran (two registered, the first taken out with its handle, then a third "
              "registered)")
READDED_RULE = ("register_hook keeps each hook until its own handle's remove(): a hook registered after another was taken "
                "out goes in beside those still there, under a key no hook in the dict holds")


def registered_after_removal(sub: Any) -> dict[str, Any]:
    """Three hooks on w, the first taken out with its handle before the third is registered: in
    PyTorch the second and the third run, each handle's id its own; a handle keyed by how many
    hooks the dict holds (``len(hooks)``) takes the second's key, and the third replaces it.  No
    other program registers a hook after a removal."""
    calls: list[str] = []
    w = sub.Value(0.5, requires_grad=True)
    y = w * 3  # w used by an operation: a hook on it is not one on a fresh leaf (leaf_hook)
    held(y, w)
    first = w.register_hook(lambda g: calls.append("first"))
    w.register_hook(lambda g: calls.append("second"))
    if callable(getattr(first, "remove", None)):  # else told as the handle's, by the other programs
        first.remove()
    w.register_hook(lambda g: calls.append("third"))
    y.backward()
    return {"readded": fact(calls, READDED)}


FREED_RUN = N_("(w * 2).backward(), w a new leaf")
FREED_RAN = N_("(w * 2).backward(), w a new leaf, ran no hook: the only hooks registered were on values already freed")


def freed_hooks(sub: Any) -> list[Any]:
    """Hooks kept by ``id(node)`` outside the node run for a new node at a freed one's id: values
    with a hook are made and freed until a new value's node takes a freed node's id
    (``at_a_freed_id``, checked, so the score does not depend on the allocator)."""
    ran: list[str] = []

    def make() -> Any:
        return sub.Value(0.25, requires_grad=True) * 2

    y = at_a_freed_id(make, lambda v: v.register_hook(lambda g: ran.append("freed")), lambda v: (v.grad_fn,))
    held(y)
    return [raised(y.backward, FREED_RUN), claim(not ran, FREED_RAN)]


BLOCKED = N_("a's hook returning g * 0")
BLOCKED_RUN = N_("(a * w).backward(), a = w * x, a's hook returning g * 0")
RAN_IN_EACH = N_("v's hook ran once in each of the two backward calls of v * c")
KEPT_RUNS = N_("two backward calls of v * c, c a Value that requires no grad, v's hook doubling")


def hook_results(sub: Any) -> dict[str, list[Any]]:
    """What a hook returns, used as the gradient: a Value holding 0 (``g * 0``, which blocks a
    path) replaces it too, where a test of the result's truth (``result and result.item()``)
    keeps the old one; and it is handed on as a number, so a leaf's .grad, added into by a
    second backward, still holds a float (a Value handed on ends up inside the leaf's number)."""
    w, x = sub.Value(2.0, requires_grad=True), sub.Value(3.0, requires_grad=True)
    a = w * x
    held(a, w, x)
    a.register_hook(lambda g: g * 0)
    zero = [raised((a * w).backward, BLOCKED_RUN), fact(grad_quiet(x), f"x.grad ({BLOCKED})"),
            fact(grad_quiet(w), f"w.grad ({BLOCKED})")]
    v, c = sub.Value(1.5, requires_grad=True), sub.Value(-2.0)
    first = v * c  # v used by an operation: a hook on it is not one on a fresh leaf (leaf_hook)
    held(first, v)
    runs: list[int] = []
    v.register_hook(lambda g: runs.append(1) or g * 2)
    kept = [raised(first.backward, KEPT_RUNS), raised((v * c).backward, KEPT_RUNS),
            fact(grad_quiet(v), f"v.grad after {KEPT_RUNS}")]
    return {"zero_result": zero, "result_number": kept, "hooks_stay": claim(len(runs) == 2, RAN_IN_EACH)}


NONE_RULE = ("a hook that returns None leaves the gradient as it was: run_hooks replaces the gradient only with a "
             "Value a hook returns, and otherwise hands on the number it had, never None")
NONE_RUN = N_("(w * 3).backward(), w's one hook returning None")
NONE_KEPT = N_("w's one hook returns None")
SAME_RUN = N_("(w * 3).backward(), w's one hook returning its argument")


def none_result(sub: Any) -> list[Any]:
    """A hook that returns None leaves the gradient as it was: asked on its own, before the
    documents' graph, whose hooks returning None would otherwise make the earlier stages' code
    (store_grad, backward's adding) raise on the None run_hooks handed on, an error that names
    neither run_hooks nor the hook.  Nothing is told (an empty list) where a hook returning its
    argument raises as well: then the None is not what broke."""
    def run(hook: Any, label: str) -> list[Any]:
        w = sub.Value(1.5, requires_grad=True)
        y = w * 3  # w used by an operation: a hook on it is not one on a fresh leaf (leaf_hook)
        held(y, w)
        w.register_hook(hook)
        return [raised(y.backward, label), fact(grad_quiet(w), f"w.grad ({NONE_KEPT})")]
    same = run(lambda g: g, SAME_RUN)
    return [] if same[0][SAID] is not None else run(lambda g: None, NONE_RUN)


KEPT_RUN = N_("(w * 3).backward(), w's hook returning k, a Value the program holds")
KEPT_IS = N_("w.grad is k (the Value w's hook returned)")
KEPT_AGAIN = N_("a second (w * 3).backward(), w's hook returning k again")
KEPT_BOTH = N_("a second (w * 3).backward(), w's hook returning k in both")


def grad_own_value(sub: Any) -> list[Any]:
    """A leaf's first .grad is a Value of its own, which store_grad makes from the number a hook's
    Value holds: never that Value itself, which the program holds (PyTorch's ``w.grad is k`` is
    False), so the next backward, adding into .grad, leaves k as it was.  A backward that stores
    the Value a hook returned as .grad shows here and nowhere else: every other hook returns a
    Value no one keeps."""
    k = sub.Value(2.5)
    w = sub.Value(1.5, requires_grad=True)
    y = w * 3  # w used by an operation: a hook on it is not one on a fresh leaf (leaf_hook)
    held(y, w, k)
    w.register_hook(lambda g: k)
    ran = raised(y.backward, KEPT_RUN)
    aliased = claim(getattr(w, "grad", None) is k, KEPT_IS)
    return [ran, aliased, raised((w * 3).backward, KEPT_AGAIN), fact(number(k), f"k.item() after {KEPT_BOTH}")]


ONE_SHOT = N_("(w * 3).backward(), whose hook on w takes itself out with its handle and doubles the gradient")


def one_shot_hook(sub: Any) -> list[Any]:
    """A hook that removes its own handle while backward runs it (a one-shot hook), which
    PyTorch allows: run_hooks going through the node's dict itself, which remove() changes,
    raises there.  A register_hook that returned no handle is told by ``handle``: the hook then
    removes nothing."""
    w = sub.Value(1.25, requires_grad=True)
    y = w * 3
    held(y, w)
    taken: list[Any] = []

    def once(g: Any) -> Any:
        for remove in taken:
            remove()
        return g * 2

    taken += [remove for remove in [getattr(w.register_hook(once), "remove", None)] if callable(remove)]
    return [raised(y.backward, ONE_SHOT), fact(grad_quiet(w), f"w.grad after {ONE_SHOT}")]


ROOT_DOUBLES = N_("y.backward(), y = w * 3, y's hook doubling its gradient")
LEAF_ROOT = N_("u.backward(), u's hook tripling its gradient")
ROOT_NOTE, LEAF_NOTE = N_("backward from y, its hook doubling"), N_("backward from u, its hook tripling")


def root_hooks(sub: Any) -> dict[str, Any]:
    """Hooks on the value backward starts from, a non-leaf (its node's) and a leaf (its
    AccumulateGrad's), run with the seed and replace it; and a handle removed twice, the second
    time doing nothing, as PyTorch's RemovableHandle."""
    calls: list[str] = []
    w = sub.Value(0.5, requires_grad=True)
    y = w * 3
    held(y, w)
    y.register_hook(lambda g: calls.append("y") or g * 2)
    ran = [raised(y.backward, ROOT_DOUBLES)]
    u = sub.Value(-1.5, requires_grad=True)
    held(u)
    _ = u * 2  # u used by an operation: a hook on it is not one on a fresh leaf (leaf_hook)
    u.register_hook(lambda g: calls.append("u") or g * 3)
    ran.append(raised(u.backward, LEAF_ROOT))
    hooks = {"root_hooks": [*ran, fact(calls, N_("the list of the hooks that ran in y.backward() and u.backward()")),
                            fact(grad_quiet(w), f"w.grad ({ROOT_NOTE})"), fact(grad_quiet(u), f"u.grad ({LEAF_NOTE})")]}
    handle = u.register_hook(lambda g: g)
    hooks["handle"] = removed_with(handle, N_("u.register_hook(hook) returned a handle with a remove() method"))
    if callable(getattr(handle, "remove", None)):  # else told as the handle's
        hooks["removed_twice"] = raised(handle.remove, N_("handle.remove() a second time"))
    return hooks


OWN_RAISED = N_("the backward of y = w * 3 whose hook on w raises ProbeError (an error class of the test's own)")


def hook_error(sub: Any) -> dict[str, list[dict[str, Any]]]:
    """An error a hook raises goes on out of backward (PyTorch's engine lets it through), of any
    type: first one of the probes' own (``hook_error``), which only a run_hooks that swallows every
    error swallows, then each built-in error class in turn (``hook_kinds``), so one that skips
    hooks raising some types (a mistaken hook's ValueError, a missing key's KeyError) is told
    which.  The hook is registered once w * 3 used w: one on a leaf no operation used is
    ``leaf_hook``'s."""
    told = []
    for kind in (ProbeError, *BUILTIN_KINDS):
        label = OWN_RAISED if kind is ProbeError else f"the backward of y = w * 3 whose hook on w raises {kind.__name__}"
        w = sub.Value(1.25, requires_grad=True)
        y = w * 3
        held(y, w)

        def refuses(g: Any, kind: type[Exception] = kind) -> Any:
            raise kind("raised by a hook")
        w.register_hook(refuses)
        told.append(raised(y.backward, label))
    return {"hook_error": told[:1], "hook_kinds": told[1:]}


IN_PLACE_RUN = N_("(a * w).backward(), a = w * 3 with one hook registered before a.zero_() and one after")


def in_place_hooks(sub: Any) -> list[Any]:
    """A hook registered before an in-place op stays on the value's old node, where PyTorch keeps
    it: it runs after the op's node and the hooks registered since, with the gradient of the
    value as it was (0 after zero_()); a rebase that moves the hooks to the new node runs it first
    and hands it the new value's gradient."""
    calls: list[Any] = []
    w = sub.Value(2.0, requires_grad=True)
    a = w * 3
    held(a, a.grad_fn, w)  # a's node before zero_() too: the hook registered on it stays there
    a.register_hook(lambda g: calls.append(["before", number(g)]))
    a.zero_()
    a.register_hook(lambda g: calls.append(["after", number(g)]))
    ran = raised((a * w).backward, IN_PLACE_RUN)
    received = dict(calls)
    return [ran, fact([name for name, _ in calls], N_("the list of the hooks on a (one registered before a.zero_(), one after) in the order they ran")),
            fact(received.get("before"), N_("the gradient the hook on a registered before a.zero_() received"))]


UNDER_NO_GRAD = N_("w.register_hook(double) inside no_grad, w a leaf that requires grad")
HOOKED = N_("its hook registered inside no_grad, then a backward of w * 3")


def hook_under_no_grad(sub: Any) -> list[Any]:
    """A hook registered while grad mode is off (setup code under no_grad): PyTorch takes it, since
    whether a value may have hooks is its requires_grad, which no_grad leaves as it is; the hook
    runs in the next backward.  A register_hook that asks ``recording(...)`` instead refuses it, and
    the backward then runs without it."""
    w = sub.Value(1.5, requires_grad=True)
    y = w * 3  # made first: a no_grad that leaves recording off is the no_grad tests' to tell
    held(y, w)
    with sub.no_grad():
        registered = raised(w.register_hook, UNDER_NO_GRAD, lambda g: g * 2)
    ran = raised(y.backward, N_("(w * 3).backward() after that"))
    return [registered, ran, fact(grad_quiet(w), f"w.grad ({HOOKED})")]


HOOKED_NON_LEAF = N_("h.register_hook(hook); (h * w).backward()")


def hook_keeps_nothing(sub: Any, w0: float) -> list[Any]:
    """A hook on a non-leaf that never called retain_grad() does not make it keep its gradient:
    in PyTorch ``h.retains_grad`` stays False after backward, ``h.grad`` is None and reading it
    warns.  A register_hook that calls retain_grad() to reach the node shows only here: every
    other hooked non-leaf is retained already, or its .grad is never read."""
    w = sub.Value(w0, requires_grad=True)
    h = w * 3
    held(h, w)
    h.register_hook(lambda g: None)
    (h * w).backward()
    read = grad_read(h)
    return [fact(flag(getattr(h, "retains_grad", None)), f"h.retains_grad after {HOOKED_NON_LEAF}"),
            fact(read["grad"], f"h.grad after {HOOKED_NON_LEAF}"),
            claim(read["warned"], f"reading h.grad after {HOOKED_NON_LEAF} warns")]
