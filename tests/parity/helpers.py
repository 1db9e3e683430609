"""What several parity programs share, so each program keeps only what it observes.

Programs import it as ``parity.helpers`` (``tests/`` is on the path both under
pytest and in ``record.py``).  Nothing here observes anything by itself: it only
shapes how a program records (``echo``, ``attempt``) or builds the custom
Functions it then observes (``function``, ``saving_square``).
"""

from __future__ import annotations

from typing import Any, Callable

Rec = Callable[[str, Any], Any]


def echo(rec0: Rec) -> Rec:
    """``rec`` that also records what a guarded call returned, under ``"<key> ="``.

    A callable that is neither a value nor a node is called by the recorder; when it
    returned something (not None), that result is recorded too.
    """

    def rec(k: str, v: Any) -> Any:
        r = rec0(k, v)
        if callable(v) and not hasattr(v, "item") and not hasattr(v, "next_functions") and r is not None:
            rec0(k + " =", r)
        return r

    return rec


def attempt(f: Callable[[], Any]) -> Any:
    """What ``f()`` returns, or its error as ``error: <type>: <first line>`` (the error is the observation)."""
    try:
        return f()
    except Exception as exc:  # noqa: BLE001 - every error is an observation
        return f"error: {type(exc).__name__}: {str(exc).splitlines()[0]}"


def attempt_statement(stmt: str, names: dict[str, Any]) -> Any:
    """``attempt`` of one statement run with ``names`` as its locals: "ok", or its error."""
    return attempt(lambda: exec(stmt, {}, names) or "ok")  # noqa: S102 - the statement is the observation


def function(A: Any, name: str, forward: Callable[..., Any], backward: Callable[..., Any]) -> type:
    """A custom ``A.Function`` class called ``name`` (torch names its node ``<name>Backward``)."""
    return type(name, (A.Function,), {"forward": staticmethod(forward), "backward": staticmethod(backward)})


def saving_square(A: Any, name: str, derivative: Callable[[Any, Any], Any]) -> type:
    """``x * x`` that saves ``x``; its backward returns ``derivative(x, grad)`` (right or deliberately wrong)."""

    def forward(ctx: Any, x: Any) -> Any:
        ctx.save_for_backward(x)
        return x * x

    def backward(ctx: Any, g: Any) -> Any:
        (x,) = ctx.saved_tensors
        return derivative(x, g)

    return function(A, name, forward, backward)


def plain_then_hooked(B: Any, rec: Rec, observe: Callable[[Any, Rec, str], None]) -> None:
    """``observe(B, rec, label)`` twice: as it is (micrograph's short backward loop), then with a
    tensor hook alive in the process (its full loop), the second time under ``"hook alive, "`` keys."""
    observe(B, rec, "")
    kept = B.value(1.0, requires_grad=True)
    kept.register_hook(lambda g: None)
    observe(B, rec, "hook alive, ")


Op = Callable[[Any, Any], Any]


def random_op(rng: Any, first: list[Any], second: list[Any], table: tuple[tuple[float | None, Op], ...]) -> Any:
    """One random op of a generated graph: ``k``, then ``x`` from ``first`` and ``y`` from ``second``
    are drawn (always these three draws, in this order, so a program keeps its recording), and the
    first ``op(x, y)`` of ``table`` whose bound ``k`` is under (``None``: any) gives the value."""
    k = rng.random()
    x, y = rng.choice(first), rng.choice(second)
    return next(op for upto, op in table if upto is None or k < upto)(x, y)
