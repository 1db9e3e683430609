"""An error raised by a backward from a graph that a Value made with grad mode off cut off.

``with no_grad(): x = x + 1`` computes x from a leaf that requires grad, but records no graph:
the new x requires no grad, and so does everything computed from it.  A backward from such a
result raises the engine's "element 0 of tensors does not require grad and does not have a
grad_fn" at the backward line, which names neither no_grad nor x.  So does a backward from what
a function the test gave made from a detach() the student's code handed it (``DetachedGiven``).  A probe that watched the call
(``watching(..., made=True)``: the watched call notes each Value an engine operation returned to
the student's code while grad mode was off) raises it again as ``MadeUnderNoGrad``, with the
student's names of that Value and of the input that requires grad (``grader.judge.explain``
tells it with that fact).  ``x = x.data + 1`` cuts the same way with grad mode on: ``x.data`` shares
the leaf's number but requires no grad, so the new x is no part of the leaf's graph; that is raised
again as ``MadeUnderNoGrad`` too, told as made from the ``.data`` (``DATA``, where ``NO_GRAD`` tells
grad mode off).  A backward called on what ``detach()`` returned for a Value that
requires grad raises the same text: it is raised again as ``DetachedRoot``, with the student's
name of that detached Value.
"""

from __future__ import annotations

import traceback
from contextlib import AbstractContextManager
from typing import Any

from grader.spec.call import Call
from grader.spec.call_records import is_value
from grader.spec.engine_code import PASS_CHECKED
from grader.spec.probe import raised_again_as
from grader.spec.raised import NO_GRAD_FN

UNNAMED = "-"
"""The source's place in the message where the student's frame gives it no name."""
ROOT, BELOW = "root", "below"
"""The message's word before the last: the Value named is the one backward was called on, or one
it was computed from."""
NO_GRAD, SET_GRAD, INFERENCE, DATA = "no_grad", "set_grad_enabled", "inference_mode", "data"
DECORATED = "decorated"  # ``Call.offs``' word for a function of the student's decorated to run with grad mode off
"""The message's last word before the error: how that Value was cut off the graph of its input that
requires grad (computed from it with grad mode off, the student's code having turned it off last with
``set_grad_enabled(False)``, by entering ``inference_mode()`` or otherwise, or from its ``.data``)."""


class MadeUnderNoGrad(Exception):
    """The function a test called raised the engine's "does not have a grad_fn" from a backward
    whose root was computed from a Value made with grad mode off out of one that requires grad.
    Its message is ``"<function> <name> <source or -> <root or below> <no_grad, set_grad_enabled, inference_mode,
    decorated:<the decorated function's name> or data> <error's text>"``
    (the student's names of that Value and of its input that requires grad, whether that Value is the
    one backward was called on, and how it was cut); it is raised with the error's traceback."""


def told_if_made_under_no_grad(call: Call, function: str) -> AbstractContextManager[None]:
    """While the watched ``call`` of ``function`` runs (``made=True``): the engine's "does not have
    a grad_fn" whose root leads back, through the operations the call made, to a Value made with
    grad mode off from one that requires grad, or from the ``.data`` the student's code read of one,
    is raised again as ``MadeUnderNoGrad``, where the student's frame names that Value."""
    def words(exc: Exception) -> str | None:
        roots = _roots(exc) if NO_GRAD_FN in str(exc) else []
        cut = _cut_below(call, roots, _names(exc, call.filename)) if roots else None
        if cut is None:
            return None
        name, source, v, how = cut
        by = call.untracked_by.get(id(v))
        spelled = by in (SET_GRAD, INFERENCE) or (by or "").startswith(DECORATED + ":")
        how = by if how == NO_GRAD and spelled else how
        return f"{function} {name} {source} {ROOT if any(r is v for r in roots) else BELOW} {how}"
    return raised_again_as(MadeUnderNoGrad, words)


class DetachedRoot(Exception):
    """The function a test called raised the engine's "does not have a grad_fn" from a backward
    called on a Value that detach() returned for one that requires grad.  Its message is
    ``"<function> <name> <error's text>"``; it is raised with the error's traceback."""


def told_if_detached_root(call: Call, function: str) -> AbstractContextManager[None]:
    """While the watched ``call`` of ``function`` runs (``made=True``): the engine's "does not have
    a grad_fn" from a backward whose root is a detach() the call made of a Value that requires
    grad is raised again as ``DetachedRoot``, where the student's frame names that root."""
    def words(exc: Exception) -> str | None:
        roots = _roots(exc) if NO_GRAD_FN in str(exc) else []
        root = next((r for r in roots if call.detach_of(r)), None)
        name = None if root is None else _names(exc, call.filename).get(id(root))
        return None if name is None else f"{function} {name}"
    return raised_again_as(DetachedRoot, words)


class DetachedGiven(Exception):
    """The function a test called raised the engine's "does not have a grad_fn" after it handed the
    function it was given (``build``) what detach() returned for a Value that requires grad: what that
    function made from it has no graph.  Its message is ``"<function> <given> <error's text>"``."""


def told_if_detached_given(call: Call, function: str, given: str, handed: list[Any]) -> AbstractContextManager[None]:
    """While the watched ``call`` of ``function`` runs (``made=True``): the engine's "does not have
    a grad_fn", where ``handed`` (what the student's code handed the function ``given``) holds a
    detach() the call made of a Value that requires grad, is raised again as ``DetachedGiven``."""
    def words(exc: Exception) -> str | None:
        detached = NO_GRAD_FN in str(exc) and any(call.detach_of(v) for v in handed)
        return f"{function} {given}" if detached else None
    return raised_again_as(DetachedGiven, words)


def _roots(exc: BaseException) -> list[Any]:
    """The Values the failed backward pass was started from (the engine's GraphTask's outputs)."""
    for frame, _ in traceback.walk_tb(exc.__traceback__):
        if frame.f_code is PASS_CHECKED:
            outputs = frame.f_locals.get("outputs")
            return [v for v in outputs if is_value(v)] if type(outputs) is list else []
    return []


def _cut_below(call: Call, roots: list[Any], names: dict[int, str]) -> tuple[str, str, Any, str] | None:
    """The student's name of the first Value, from ``roots`` down through the Values each was made
    from, that an engine operation made with grad mode off from an input that requires grad, or
    made from the ``.data`` of one (``_data_source``), the name of that input (or ``UNNAMED``), the
    Value and how it was cut (``NO_GRAD``, ``DATA``).  Where the frame names no such Value (``(x +
    w) * (w + 1)`` computed whole under no_grad: ``x + w`` has no name), the first named Value made
    with grad mode off above it, from which the walk through Values made with grad mode off reaches
    an input that requires grad (``y``); a Value made from a ``.data`` that has no name (``x.data + w``
    inside a helper of the student's) is told by the named Value above it, computed from it."""
    seen: set[int] = set()
    stack: list[tuple[Any, Any]] = [(root, root) for root in roots]  # each Value, and the named Value above it
    above: tuple[str, str, Any, str] | None = None
    while stack:
        v, owner = stack.pop()
        if id(v) in seen:
            continue
        seen.add(id(v))
        owner = v if id(v) in names else owner
        inputs = call.inputs.get(id(v), ())
        source = next((i for i in inputs if i.requires_grad), None)
        untracked = call.made_untracked.get(id(v)) is v
        if untracked and source is not None and id(v) in names:
            return names[id(v)], names.get(id(source), UNNAMED), v, NO_GRAD
        data = _data_source(call, inputs) if id(owner) in names and not v.requires_grad else None
        if data is not None:
            return names[id(owner)], names.get(id(data), UNNAMED), owner, DATA
        reached = _reached_source(call, v) if untracked and above is None and id(v) in names else None
        if reached is not None:
            above = names[id(v)], names.get(id(reached), UNNAMED), v, NO_GRAD
        stack.extend((i, owner) for i in inputs)
    return above


def _data_source(call: Call, inputs: tuple[Any, ...]) -> Any:
    """The Value requiring grad whose ``.data`` the student's code read and one of ``inputs`` is (an
    alias of it that requires no grad, not a detach()), or None."""
    for alias in inputs:
        kept, source = call.aliased.get(id(alias), (None, None))
        if (kept is alias and source.requires_grad and not alias.requires_grad and not call.detach_of(alias)
                and call.through_data.get(id(source)) is source):
            return source
    return None


def _reached_source(call: Call, top: Any) -> Any:
    """The first input that requires grad reached from ``top`` down through Values made with grad
    mode off (``top`` included), or None."""
    seen: set[int] = set()
    stack = [top]
    while stack:
        v = stack.pop()
        if id(v) in seen or call.made_untracked.get(id(v)) is not v:
            continue
        seen.add(id(v))
        inputs = call.inputs.get(id(v), ())
        source = next((i for i in inputs if i.requires_grad), None)
        if source is not None:
            return source
        stack.extend(inputs)
    return None


def _names(exc: BaseException, filename: str) -> dict[int, str]:
    """The first name (in the order the code bound them) that the deepest frame of the student's
    file in ``exc``'s traceback gives each Value it holds, if it is a plain identifier."""
    frames = [frame for frame, _ in traceback.walk_tb(exc.__traceback__) if frame.f_code.co_filename == filename]
    names: dict[int, str] = {}
    for n, v in frames[-1].f_locals.items() if frames else ():
        if is_value(v) and n.isidentifier():
            names.setdefault(id(v), n)
    return names
