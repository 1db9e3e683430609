"""Facts of a student's custom Function (ex14) that its results alone do not show.

``grad_off_in``: whether the student's code turned grad mode off while a block ran: a Function's
backward run under ``create_graph=True`` (where the engine keeps grad mode on, so a gradient it
returns can be differentiated again) that turns it off itself (``with no_grad():`` around its
formula, ``set_grad_enabled(False)``, ``inference_mode()``).

A profile hook sees every call made while the block runs, and notes a call of the engine's grad
mode code (told by its module's globals: reading frames' code is audited) made from the student's
module (its caller runs under the module's globals) that returns with grad mode off.  Grad mode
off for another reason (the forward of a Function backward applies runs under no_grad, as in
torch) is not the student's.  Only around a small call: the hook sees every call.

``second_derivative``: the gradient Softplus's backward returns under ``create_graph=True``,
differentiated again (``second_through_grad``: inside a graph where the gradient reaching the node
depends on the leaf too); ``second_after_backward`` (``custom_calls_apart``) asks the same once a
plain backward ran through Softplus at that number, against a fresh import of the student's code (``repeat.calls_apart``):
a backward that keeps sigmoid(x) from an earlier call (a dict keyed by ``x.item()``) hands back
that call's Value, which has no graph to the new x.

``backward_again``: whether a node's backward, run a second time (the graph kept by
``retain_graph=True``), passed on what it did the first time (a bound kept in a module-level
stack, popped by each backward, does not).  ``returned_input``: whether forward returned the input
it was given as it is, not a new Value (the result then changes with it).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from sys import getprofile, setprofile  # bound now: a submission may rebind sys's names (seal.SYS)
from types import FrameType, ModuleType

import math
from typing import Any

import micrograph
from micrograph import Value, grad, grad_mode, inference
from micrograph.function import once_differentiable

from grader.spec.facts import CONTEXT, By, Check
from grader.spec.probe import close, num
from grader.spec.errors import error_raised
from grader.spec.provenance import check, grad_of, result_of, watching
from grader.spec.custom_calls_apart import SECOND

_SWITCHES = (vars(grad_mode), vars(inference))  # the globals the engine's grad mode switches run under


@contextlib.contextmanager
def grad_off_in(sub: ModuleType) -> Iterator[list[bool]]:
    """A list that holds True once the block is done if the student's module turned grad mode off
    while it ran (see the module doc), else stays empty."""
    seen: list[bool] = []
    namespace = vars(sub)
    previous = getprofile()

    def sample(frame: FrameType, event: str, arg: object) -> None:
        if event == "return" and not seen and any(frame.f_globals is s for s in _SWITCHES) \
                and not micrograph.is_grad_enabled():
            caller = frame.f_back
            if caller is not None and caller.f_globals is namespace:
                seen.append(True)

    setprofile(sample)
    try:
        yield seen
    finally:
        setprofile(previous)


def backward_again(name: str, first: object, x: Value, raised: bool) -> dict[str, Any]:
    """The BACKWARD_AGAIN fact of ``name``'s node: the second backward through it (the graph kept
    by retain_graph=True) added to x.grad what the first wrote (``first``).  It holds where it
    cannot be judged: the second raised (an ERROR fact tells it), or no gradient was written."""
    second = num(x.grad) if isinstance(x.grad, Value) else None
    holds = (raised or type(first) is not float or type(second) is not float
             or close(second, 2 * first))
    return check(Check.BACKWARD_AGAIN, holds, f"{name}.backward")


def own_notes(function: Any, name: str, x0: float, first: tuple[float, ...], later: tuple[float, ...],
              label: str, other: float | None = None) -> dict[str, Any]:
    """The OWN_NOTES fact of ``function`` (``name``): the node of ``function.apply(a, *first)``,
    backpropagated once a later ``function.apply(a, *later)`` ran on the same a (or on a new leaf
    b of the number ``other``: Softplus, whose only argument is its input), passes on to a what
    the same node passes on when backpropagated right after its own forward.  Notes kept on the
    class, in a global, or in a dict keyed by id(a), instead of on ctx, are the later call's by
    then.  Context ``~on_class``: the first attribute of the class the later forward set
    (``Clip.low``, ``Softplus.last_input``); ``~hooked``, the later call given a too, a hook of the
    student's on a chose a.grad's number in that pass (hooks registered on a stay on it).  It holds
    where it cannot be judged (apply returned no Value that requires grad: other facts tell that)."""
    alone, _ = _backpropagated(function, x0, first, lambda a: None)
    later_set: list[str] = []
    given = [] if other is None else [Value(other, requires_grad=True)]  # b kept alive: its id is not handed on
    beside, hooked = _backpropagated(function, x0, first, lambda a: later_set.extend(_set_by(function, (given or [a])[0], later)))
    arguments = ["a" if other is None else "b", *(f"{v:g}" for v in later)]
    fact = {**check(Check.OWN_NOTES, alone is None or beside is None or alone == beside, label),
            CONTEXT + "later": f"{name}.apply({', '.join(arguments)})"}
    if fact["holds"] is False and hooked and other is None:
        fact[CONTEXT + "hooked"] = True
    elif fact["holds"] is False and later_set:
        fact[CONTEXT + "on_class"] = f"{name}.{later_set[0]}"
    return fact


def _backpropagated(function: Any, x0: float, args: tuple[float, ...], between: Callable[[Value], None]
                    ) -> tuple[object, bool]:
    """a's gradient from ``y = function.apply(a, *args)``, ``between(a)``, then ``y.backward()``
    (its number, or "none" where none was written; None where apply returned no Value that
    requires grad: nothing to judge), and whether a hook of the student's chose it."""
    a = Value(x0, requires_grad=True)
    y = function.apply(a, *args)
    between(a)
    if not isinstance(y, Value) or not y.requires_grad:
        return None, False
    y.backward()
    return (num(a.grad) if isinstance(a.grad, Value) else "none"), grad_of(a, "a")["by"] == By.CHOSEN.value


def _set_by(function: Any, a: Value, args: tuple[float, ...]) -> list[str]:
    """The attributes of the class ``function`` (not its methods) that ``function.apply(a, *args)``
    set anew."""
    before = dict(getattr(function, "__dict__", {}))
    function.apply(a, *args)
    after = dict(getattr(function, "__dict__", {}))
    return [key for key, v in after.items() if not key.startswith("_") and not callable(v)
            and not isinstance(v, (staticmethod, classmethod)) and (key not in before or before[key] is not v)]


def returned_none(y: Value, x: Value, name: str) -> dict[str, Any]:
    """Context for x.grad left None by y.backward(), y's node ``name``'s and its first edge x's
    AccumulateGrad: the engine ran that node, so its backward returned None for x (``~returned_none``:
    that backward, named); nothing where x.grad was written or the edge leads elsewhere."""
    edges = getattr(y.grad_fn, "next_functions", ())
    reached = bool(edges) and edges[0][0] is not None and getattr(edges[0][0], "variable", None) is x
    return {CONTEXT + "returned_none": f"{name}.backward"} if reached and x.grad is None and x.requires_grad else {}


def saved_read(sub: ModuleType, name: str, y: Value, saved: int, label: str) -> list[dict[str, Any]]:
    """``y.backward()`` through ``name``'s node, run where reading back what forward saved (a
    freed or changed Value, ``saved`` of them) raises: the SAVED_READ fact (it raised, or nothing
    was saved: another fact tells that; a backward that decides from a note forward left on ctx
    raises neither), the ERROR fact ``label`` of what it raised, and the pass's CALL fact, whose
    ``~caught`` tells a backward that read ctx.saved_tensors, caught what that raised and went on."""
    with watching(sub, "y.backward()") as call:
        raised = error_raised(y.backward, label)
    return [check(Check.SAVED_READ, raised["error"] is not None or saved == 0, f"{name}.backward"), raised, call.fact]


def input_number_kept(label: str, x: Value, number: float) -> dict[str, Any]:
    """The INPUT_NUMBER_KEPT fact of a forward (``label``: ``Clip.forward (x < low)``), just run
    by apply: x, the leaf it was given, still holds ``number`` (``x.data = ...`` in forward, or an
    in-place op, changes it)."""
    return check(Check.INPUT_NUMBER_KEPT, num(x) == number, label)


def input_kept(name: str, x: Value, version: int) -> dict[str, Any]:
    """The INPUT_KEPT fact of ``name``'s backward, just run: x, the leaf forward was given, is at
    the version it had before (``x.sigmoid_()`` in backward moves it)."""
    return check(Check.INPUT_KEPT, x._version == version, f"{name}.backward")


def decided_in_backward(sub: ModuleType) -> dict[str, Any]:
    """The DECIDED_IN_BACKWARD fact of Clip.backward: with x moved from inside [-1, 1] to outside it
    through ``.data`` after forward (no version counted: nothing refuses it), it passes nothing, as
    for an x outside from the start, and with x moved from outside to inside it passes the gradient,
    as for an x inside from the start: the statement's backward decides from x read back from
    ctx.saved_tensors, as torch.clamp's does.  Fails only where a moved x got a gradient and the x where
    it was moved to from the start none, or the other way round (``~outside_in``: moved inside, it got
    none): whether it passes follows what x was when forward ran."""
    def passed(start: float, moved: float) -> bool:
        x = Value(start, requires_grad=True)
        y = sub.Clip.apply(x, -1.0, 1.0)
        x.data = Value(moved)
        if isinstance(y, Value) and y.requires_grad:
            y.backward()
        return isinstance(x.grad, Value) and num(x.grad) != 0.0
    outside_in = not passed(2.5, 0.5) and passed(0.5, 0.5)
    inside_out = passed(0.5, 2.5) and not passed(2.5, 2.5)
    return {**check(Check.DECIDED_IN_BACKWARD, not (inside_out or outside_in), "Clip.backward"),
            CONTEXT + "outside_in": outside_in and not inside_out}


def grad_in_kept(op: Callable[[Value], Any], name: str, x0: float) -> dict[str, Any]:
    """The GRAD_IN_KEPT fact of ``name``'s backward: the gradient it is handed (the seed itself under
    create_graph=True, as in PyTorch) holds its number and version after the pass.  Where a gradient
    flows on unchanged (an addition's two inputs) PyTorch hands each node that very object, so a
    backward that changes it in place changes what the others receive; the engine's plain passes
    hand a backward a Value of its own, where no such change shows.  A forward that returned no
    Value of a node holds: other facts tell it."""
    x, seed = Value(x0, requires_grad=True), Value(2.0)
    y = op(x)
    if isinstance(y, Value) and y.grad_fn is not None:
        grad(y, [x], grad_outputs=[seed], create_graph=True, allow_unused=True)
    return check(Check.GRAD_IN_KEPT, num(seed) == 2.0 and seed._version == 0, f"{name}.backward")


def returned_input(name: str, y: object, before: object) -> dict[str, Any]:
    """The OUTPUT_APART fact of ``name``'s forward, once the input it was given was changed in
    place: what apply returned still holds the number it had then (``before``)."""
    moved = isinstance(y, Value) and num(y) != before
    return check(Check.OUTPUT_APART, not moved, f"{name}.forward")


def second_derivative(sub: ModuleType, x: float) -> list[dict[str, Any]]:
    """d/dx of the gradient Softplus's backward returns under create_graph=True: None when that
    gradient has no graph back to x (computed from numbers: a formula on x.item(), or finite
    differences, which also agree with gradcheck)."""
    leaf = Value(x, requires_grad=True)
    y = sub.Softplus.apply(leaf)
    with grad_off_in(sub) as off:
        (first,) = grad(y, [leaf], create_graph=True)
    once = once_differentiable_in(sub.Softplus)  # grad mode off too, by the decorator the student put there
    mode = {**check(Check.GRAD_ON_IN_BACKWARD, not (off or once), "Softplus.backward"),
            **({CONTEXT + "once_differentiable": True} if once else {})}
    if not isinstance(first, Value) or not first.requires_grad:  # cut: the right number, grad mode on
        cut = not (off or once) and isinstance(first, Value) and math.isclose(num(first), 1 / (1 + math.exp(-x)), rel_tol=1e-12)
        apart = _saved_apart(y, leaf) if cut else None
        whole = cut and not apart and not _reaches_grad(sub.Softplus.apply, x)  # cut from grad too: detach() of it
        return [mode, {**result_of(None, SECOND), CONTEXT + "cut_from_x": cut,
                       **({CONTEXT + "saved_apart": apart} if apart else {}),
                       **({CONTEXT + "cut_whole": True} if whole else {})}]
    (second,) = grad(first, [leaf], allow_unused=True)  # context: whether the gradient has sigmoid(x)'s number
    agrees = close(num(first), 1 / (1 + math.exp(-x)))
    return [mode, {**result_of(second, SECOND), CONTEXT + "gradient_agrees": agrees}]


_ONCE = once_differentiable(lambda ctx: None).__code__  # the wrapper's code, the same for every backward decorated


def once_differentiable_in(function: Any) -> bool:
    """Whether ``function``'s backward is decorated with ``once_differentiable`` (micrograph's, as
    torch's): the decorator runs it with grad mode off, which the student asked for, though no
    line of their module switched it (``grad_off_in`` does not see it)."""
    return getattr(getattr(function, "backward", None), "__code__", None) is _ONCE


def _saved_apart(y: object, leaf: Value) -> str | None:
    """The first Value y's node saved that is not ``leaf`` and has no graph (it requires no grad:
    forward made it under no_grad, or it is a detach() of x), as ``ctx.saved_tensors[i]``; None
    where there is none, or what was saved cannot be read."""
    try:
        saved = tuple(y.grad_fn.saved_tensors)  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - freed, changed, or no node: nothing to name
        return None
    return next((f"ctx.saved_tensors[{i}]" for i, v in enumerate(saved)
                 if isinstance(v, Value) and v is not leaf and not v.requires_grad), None)


def second_through_grad(op: Callable[[Value], Any], name: str, program: str, a0: float, b0: float) -> dict[str, Any]:
    """d/da of dz/da, z = ``program`` (``op(a * b) * a``, ``op`` the Function ``name`` applied):
    the gradient reaching the Function's node is a, itself in a graph, so a backward that reads
    grad as a number (``grad.item()``) loses that part of the second derivative, where op(x) alone
    (grad one, a constant) cannot show it.  Context ``~grad_cut``: the Function's backward (named)
    where, under create_graph=True, the gradient it returns has no graph back to a grad that
    requires grad (``grad_outputs``)."""
    a, b = Value(a0, requires_grad=True), Value(b0, requires_grad=True)
    (first,) = grad(op(a * b) * a, [a], create_graph=True)
    second = grad(first, [a], allow_unused=True)[0] if isinstance(first, Value) and first.requires_grad else None
    fact = result_of(second, f"grad(grad(z, a, create_graph=True), a) in z = {program}")
    return fact if _reaches_grad(op, a0 * b0) else {**fact, CONTEXT + "grad_cut": f"{name}.backward"}


def clip_second(sub: ModuleType) -> list[dict[str, Any]]:
    """The second derivative through Clip, z = Clip.apply(a * b, -1, 1) * a (``second_through_grad``), and
    whether it stays that number where another Clip backward ran between the two grad calls (``SECOND_KEPT``):
    a backward whose returned gradient holds a Value shared between calls (a module-level Value whose .data
    each backward overwrites) has it changed by then, where the statement's gradient holds nothing another
    call reaches.  It holds where it cannot be judged (no second derivative: other facts tell that)."""
    program = "Clip.apply(a * b, -1, 1) * a"
    first = second_through_grad(lambda v: sub.Clip.apply(v, -1.0, 1.0), "Clip", program, 0.5, 0.8)
    alone, beside = (_clip_second(sub, later) for later in (False, True))
    holds = alone is None or beside is None or close(alone, beside)
    return [first, check(Check.SECOND_KEPT, holds, f"grad(grad(z, a, create_graph=True), a) in z = {program}")]


def _clip_second(sub: ModuleType, later: bool) -> float | None:
    """d/da of dz/da, z = Clip.apply(a * b, -1, 1) * a at a = 0.5, b = 0.8, with (``later``) Clip.apply(c, -1, 1)
    backpropagated in between, c = 2.5 (outside: its gradient 0); None where there is no such number."""
    a, b = Value(0.5, requires_grad=True), Value(0.8, requires_grad=True)
    (first,) = grad(sub.Clip.apply(a * b, -1.0, 1.0) * a, [a], create_graph=True)
    if later:
        sub.Clip.apply(Value(2.5, requires_grad=True), -1.0, 1.0).backward()
    if not isinstance(first, Value) or not first.requires_grad:
        return None
    second = grad(first, [a], allow_unused=True)[0]
    return num(second) if isinstance(second, Value) else None


def _reaches_grad(op: Callable[[Value], Any], x0: float) -> bool:
    """Whether, under create_graph=True, the gradient op's backward returns for x at ``x0`` is in
    a graph back to the gradient it was given (a leaf that requires grad)."""
    x, seed = Value(x0, requires_grad=True), Value(1.0, requires_grad=True)
    (found,) = grad(op(x), [x], grad_outputs=[seed], create_graph=True, allow_unused=True)
    if found is None:  # no gradient for x at all: the facts of x's gradient tell it
        return True
    return isinstance(found, Value) and found.requires_grad and grad(found, [seed], allow_unused=True)[0] is not None
