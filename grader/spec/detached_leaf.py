"""An error raised after the student's code called ``detach_()`` on a leaf that requires grad.

``w.detach()`` returns a new Value that shares w's number and leaves w as it is; ``w.detach_()``
detaches w itself, in place, and returns it: w no longer requires grad, so nothing computed from
it afterwards is recorded, and a backward pass from such a result raises the engine's "element 0
of tensors does not require grad". The error names the line that raised, not the call that made
it raise: a probe that watched the call (``watching(..., made=True)``) raises it again as
``DetachedLeaf``, with the name the student's code gave that leaf (``grader.judge.explain`` tells
it with that fact).
"""

from __future__ import annotations

import traceback
from contextlib import AbstractContextManager

from grader.spec.call import Call
from grader.spec.probe import raised_again_as


class DetachedLeaf(Exception):
    """The function a test called raised after it called detach_() on a leaf that requires grad.
    Its message is ``"<function> <name> <error's text>"`` (``name`` the student's name of that
    leaf); it is raised with the error's traceback, so the grader sees the line it came from."""


def told_if_detached(call: Call, function: str) -> AbstractContextManager[None]:
    """While the watched ``call`` of ``function`` runs: an error it raises after it detached a
    leaf in place is raised again as ``DetachedLeaf``, where the student's frame names that leaf."""
    def words(exc: Exception) -> str | None:
        name = next((n for leaf in call.detached_leaves for n in [_name_of(leaf, exc, call.filename)] if n), None)
        return None if name is None else f"{function} {name}"
    return raised_again_as(DetachedLeaf, words)


def _name_of(leaf: object, exc: BaseException, filename: str) -> str | None:
    """The first name (in the order the code bound them) that the deepest frame of the student's
    file in ``exc``'s traceback gives ``leaf``, if it is a plain identifier."""
    frames = [frame for frame, _ in traceback.walk_tb(exc.__traceback__) if frame.f_code.co_filename == filename]
    if not frames:
        return None
    names = [n for n, v in frames[-1].f_locals.items() if v is leaf and n.isidentifier()]
    return names[0] if names else None
