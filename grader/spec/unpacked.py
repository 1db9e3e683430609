"""How ex20's tests watch a build-track node's ``unpack``, the engine's SavedVariable: what it
does to what the node saved, and whether a backward through the node meets its refusal.  Read
through ``saved.read_saved``, so the same probe reads PyTorch's ``grad_fn._saved_<name>``."""

from __future__ import annotations

import functools
from typing import Any

from micrograph.i18n import N_

from grader.spec.build import claim, fact
from grader.spec.build_reads import grad_quiet
from grader.spec.held import held
from grader.spec.raised import error, raised
from grader.spec.saved import read_saved, released, saved_operands

THROUGH_UNPACK = N_("a backward through y.grad_fn raises a RuntimeError once reading what it saved (unpack) raises one")
READ_ONCE = N_("reading each of them (unpack), y = w * x")
READ_AGAIN = N_("reading a value y.grad_fn saved a second time (unpack), y = w * x, before any backward, raises no error")


def refused(seen: dict[str, Any]) -> bool:
    """Whether a backward raised a RuntimeError, as unpack refuses: another error (an apply that
    reads node.saved itself meets a freed None: AttributeError) is not that refusal met."""
    return str(seen.get("value")).startswith("RuntimeError")


def unpack_refuses(fn: Any) -> bool:
    """Whether reading a value ``fn`` saved (the engine's unpack, torch's ``_saved_<name>``)
    raises SECOND_BACKWARD now: a backward through ``fn`` must then raise it too, unless its
    apply reads what it saved some other way (``node.saved`` itself)."""
    names = saved_operands(fn)
    return type(names) is list and bool(names) and \
        error(read_saved, fn, names[0]) == "RuntimeError: second backward"


def unpack_keeps(sub: Any) -> list[dict[str, Any]]:
    """What a node saved, once each value was read as its apply reads it (``read_saved``: the
    engine's unpack, torch's ``_saved_<name>``) and before any backward: an unpack that frees
    what it returns leaves fewer names, which release would otherwise be blamed for; and a second
    read of one of them, which an unpack that refuses what was read once (not what release freed)
    refuses, where a later backward through a graph kept with retain_graph=True would be blamed."""
    w, x = sub.Value(0.5, requires_grad=True), sub.Value(-2.0, requires_grad=True)
    fn = (w * x).grad_fn
    names = saved_operands(fn)
    for name in names if type(names) is list else []:
        error(read_saved, fn, name)
    kept = fact(saved_operands(fn), f"the list of operands that y.grad_fn saved, after {READ_ONCE}")
    again = [claim(error(read_saved, fn, names[0]) is None, READ_AGAIN)] if type(names) is list and names else []
    return [kept, *again]  # a value read again before any release is still there: unpack frees nothing


REFUSES_EVERY = N_("reading each value y.grad_fn saved through its unpack, once a backward released y.grad_fn, "
                   "raises an error")
REFUSES_FREED = N_("reading what y.grad_fn saved through its unpack, once a backward released y.grad_fn, raises a "
                   "RuntimeError itself, not a subclass of it")


def refuses_freed(fn: Any) -> list[dict[str, Any]]:
    """Whether the engine's unpack refuses every value of a node backward released, as PyTorch's
    ``_saved_<name>`` raises then, and with a RuntimeError itself: an unpack that skips its check
    (for some values: a leaf's kept by release) hands apply what release left, and a backward
    through the node fails in apply instead, or runs, which alone never names unpack; one that
    raises a subclass is told that alone.  A node not released is another rule's (``released``);
    the refusal's words, too."""
    names = saved_operands(fn)
    if released(fn) is not True or type(names) is not list:
        return [claim(True, REFUSES_EVERY), claim(True, REFUSES_FREED)]
    raised_there = [error(read_saved, fn, name) for name in names]
    return [claim(all(found is not None for found in raised_there), REFUSES_EVERY),
            claim(all(found is None or found.startswith("RuntimeError") for found in raised_there), REFUSES_FREED)]


UNFREED = "y.backward(retain_graph=True) after y.backward(), y = w * w"


def retained_after_freed(sub: Any) -> list[Any]:
    """A backward given retain_graph=True after one that freed the graph: PyTorch's refuses with
    SECOND_BACKWARD, as a plain one does; an engine that reads retain_graph=True as "keep the
    graph", un-freeing a node before it runs, meets the freed values itself."""
    w = sub.Value(-1.75, requires_grad=True)
    y = w * w
    held(y)
    y.backward()
    return [raised(functools.partial(y.backward, retain_graph=True), UNFREED, whole=True),
            fact(grad_quiet(w), f"w.grad after {UNFREED}")]


def _freed_square(sub: Any) -> Any:
    """y = w * w, w a new leaf, once a y.backward() freed its node: the program the rules below
    each run further (an error of that first backward is told by the other rules)."""
    w = sub.Value(1.25, requires_grad=True)
    y = w * w
    held(y, w)  # w too: the callers no longer keep it, and no later Value may take its id
    error(y.backward)
    return y


PASSED_ON = N_("a second y.backward(), y = w * w, passes on the error backward(y) raises there")


def passed_on(sub: Any) -> dict[str, Any]:
    """Whether a second ``y.backward()`` raises where the engine's own ``backward(y)`` (the
    statement's module-level function, which Value.backward calls) raises: a Value.backward that
    catches the error on the way (turning it into a warning) tells nothing of unpack or apply,
    which did refuse.  Holds where there is no such function (PyTorch) or it raises nothing."""
    inner = getattr(sub, "backward", None)
    y = _freed_square(sub)
    outer = error(y.backward)
    return claim(not callable(inner) or outer is not None or error(inner, y) is None, PASSED_ON)


APPLY_LETS_THROUGH = N_("y.grad_fn.apply(1), y = w * w, called by hand after y.backward() freed that node, raises "
                       "the RuntimeError its unpack raises")


def apply_lets_through(sub: Any) -> dict[str, Any]:
    """Whether a node's apply, which reads what it saved through unpack (its code names unpack),
    lets unpack's refusal of a freed value reach its caller: an apply that wraps each read in
    ``try``/``except RuntimeError`` (meant for a value never saved) turns a freed node into
    gradients of 0, and the advice to read through unpack would be untrue of it.  Holds where
    apply names no unpack (the other rules tell that), raises, or there is no apply (PyTorch)."""
    y = _freed_square(sub)
    fn = getattr(y, "grad_fn", None)
    apply = getattr(type(fn), "apply", None)
    code = getattr(apply, "__code__", None)
    if code is None or "unpack" not in code.co_names or not unpack_refuses(fn):
        return claim(True, APPLY_LETS_THROUGH)
    return claim(refused({"value": error(fn.apply, 1.0)}), APPLY_LETS_THROUGH)


BACKWARD_LETS_THROUGH = N_("backward(y), y = w * w, once y.backward() freed y.grad_fn, raises the RuntimeError "
                           "y.grad_fn.apply(1) raises there")


def backward_lets_through(sub: Any) -> dict[str, Any]:
    """Whether the engine's own ``backward(y)`` (the statement's module-level function) lets the
    refusal a freed node's apply raises reach its caller: a backward that wraps apply in ``try``/
    ``except RuntimeError`` (skipping a node it takes for done) raises nothing, and the advice to
    read through unpack would be untrue of its apply, which does.  Holds where there is no such
    function or apply (PyTorch), or the apply called by hand raises no RuntimeError (the other
    rules tell that)."""
    inner = getattr(sub, "backward", None)
    y = _freed_square(sub)
    apply = getattr(getattr(y, "grad_fn", None), "apply", None)
    if not callable(inner) or not callable(apply) or not refused({"value": error(apply, 1.0)}):
        return claim(True, BACKWARD_LETS_THROUGH)
    return claim(refused({"value": error(inner, y)}), BACKWARD_LETS_THROUGH)
