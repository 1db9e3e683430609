"""A flag handed to ``backward`` as its first argument: ``loss.backward(True)``.

``Value.backward(gradient=None, retain_graph=None, ...)`` takes the gradient first, as torch's
``Tensor.backward``: ``loss.backward(True)``, written for ``retain_graph=True``, hands True in as
the gradient, and the engine raises torch's own TypeError ("'bool' object is not iterable", the
same type and text as torch 2.13), which names neither backward's parameter nor the flag.  The
call is read from the traceback's frames, which the submission cannot reach: the engine's
``Value.backward`` frame holds the bool as its ``gradient`` and the error was raised in the
engine's check of the gradients (``grads_for``), below it.  A probe that watched the call raises
such an error again as ``FlagAsGradient``, with the student's function, its name of the Value
backward was called on and the flag; ``grader.judge.explain`` tells it.
"""

from __future__ import annotations

import traceback
from contextlib import AbstractContextManager
from types import FrameType

import micrograph
from micrograph import arguments

from grader.spec.call_records import is_value
from grader.spec.probe import raised_again_as

UNNAMED = "-"
"""The Value's place in the message where the student's frame gives it no name."""
_BACKWARD = micrograph.Value.backward.__code__
_CHECKED = arguments.grads_for.__code__  # the engine's check of the gradients given, where the TypeError is raised


class FlagAsGradient(Exception):
    """The function a test called raised the engine's TypeError on a bool given to
    ``Value.backward`` as its ``gradient``.  Its message is ``"<function> <name or -> <True or False>
    <error's text>"``; it is raised with the error's traceback."""


def told_if_flag_as_gradient(filename: str) -> AbstractContextManager[None]:
    """While the block runs: the engine's TypeError on a bool that the student's file
    (``filename``) gave ``Value.backward`` as its ``gradient`` is raised again as ``FlagAsGradient``."""
    def words(exc: Exception) -> str | None:
        frames = [frame for frame, _ in traceback.walk_tb(exc.__traceback__)]
        if type(exc) is not TypeError or not frames or frames[-1].f_code is not _CHECKED:
            return None
        at = next((k for k, frame in enumerate(frames) if frame.f_code is _BACKWARD), None)
        flag = None if at is None else frames[at].f_locals.get("gradient")
        own = [frame for frame in frames[:at] if frame.f_code.co_filename == filename] if at else []
        if type(flag) is not bool or not own or not own[-1].f_code.co_name.isidentifier():
            return None
        return f"{own[-1].f_code.co_name} {_name(own[-1], frames[at].f_locals.get('self'))} {flag}"
    return raised_again_as(FlagAsGradient, words)


def _name(frame: FrameType, root: object) -> str:
    """The first name (in the order the code bound them) the student's ``frame`` gives the Value
    backward was called on, if it is a plain identifier; ``UNNAMED`` otherwise."""
    if not is_value(root):
        return UNNAMED
    return next((n for n, v in frame.f_locals.items() if v is root and n.isidentifier()), UNNAMED)
