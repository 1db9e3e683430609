"""Where in the submission's file an exception went through, for the error record's
``function``, ``caller`` and ``line``, and the test's line of code that called into it
(``step``)."""

from __future__ import annotations

import os
import traceback
import types
from collections import Counter

from grader.sandbox.child.wire import MAX_NAME
from micrograph.function import BackwardCFunction

TOP_LEVEL = "<module>"  # the name of a file's top-level code, its frame's function
CLIPPED = "…"  # ends a name or step longer than the wire carries
_NODE_APPLY = BackwardCFunction.apply.__code__  # a custom Function's node, calling its backward
_NODE_SUFFIX = "Backward"  # Softplus's node class is SoftplusBackward
GRADER_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))) + os.sep  # the grader package

_KEPT: dict[str, list[str]] = {}  # a test module's lines, by its file name: its file is not readable


def keep_source(filename: str, source: str) -> None:
    """Keep a test module's source, run from a string, to name its lines in ``probe_step``."""
    _KEPT[filename] = source.splitlines()


def probe_step(exc: BaseException, submission: str) -> str | None:
    """The test module's line of code last run on the way into the submission, when ``exc``
    went through the submission: the step of the test's program that failed (a helper of the
    grader's in between is skipped: the test's own line says what the program did)."""
    step: str | None = None
    for frame, lineno in traceback.walk_tb(exc.__traceback__):
        filename = frame.f_code.co_filename
        if filename == submission:
            return None if step is None else clip(step)
        lines = _KEPT.get(filename)
        if lines is not None and 0 < lineno <= len(lines):
            step = lines[lineno - 1].strip()
    return None


def clip(text: str) -> str:
    """``text`` cut to what the wire takes for a name: a release's public test module is written
    by ``ast.unparse``, whose lines are as long as their statement, and a record the wire refuses
    is told as tampering (a student's function names are theirs, and may be long too)."""
    return text if len(text) <= MAX_NAME else text[: MAX_NAME - len(CLIPPED)] + CLIPPED


def located(exc: BaseException, submission: str) -> tuple[str | None, str | None, int | None]:
    """The deepest frame of ``submission`` in ``exc``'s traceback, as (function, caller, line):
    ``caller`` is the submission's function in the frame right above it, when that frame is one
    and not the same function (a recursion names no caller).  So an error raised in a helper
    the student's code called (a build-track stub's ``unpack``, from their
    ``MulBackward0.apply``) names the student's function too; a probe's wrapper in between
    (ex13's ``local_grads`` watched while ``backprop`` calls it) is no frame of its own."""
    function = caller = line = None
    above: str | None = None
    frames: list[tuple[str, int]] = []
    for frame, lineno in traceback.walk_tb(exc.__traceback__):
        filename = frame.f_code.co_filename
        here = clip(qualified(frame)) if filename == submission else None
        if here is not None:
            function, line = here, lineno
            caller = above if above != here else None
            frames.append((here, lineno))
        if not filename.startswith(GRADER_DIR):  # a probe's wrapper of a student's function is not seen
            above = here
    if function is None:
        function = _refused_backward(exc)
    if isinstance(exc, RecursionError) and frames:
        return _recursing(frames)
    return function, caller, line


def _recursing(frames: list[tuple[str, int]]) -> tuple[str, None, int]:
    """The submission's function a RecursionError's traceback repeats most, at its deepest
    frame: the limit is hit wherever the recursion happens to be (a one-line helper it calls),
    and the function that recurses is the one to rewrite as a loop."""
    name = Counter(here for here, _ in frames).most_common(1)[0][0]
    return name, None, [lineno for here, lineno in frames if here == name][-1]


def _refused_backward(exc: BaseException) -> str | None:
    """``Softplus.backward`` when a custom Function's node raised ``exc`` itself on what the
    student's backward returned (a float, too many gradients): that backward has returned, so
    no frame of the submission is left to name it, and the node's class names its Function."""
    frames = [frame for frame, _ in traceback.walk_tb(exc.__traceback__)]
    if not frames or frames[-1].f_code is not _NODE_APPLY:
        return None
    node = type(frames[-1].f_locals.get("self"))
    return clip(f"{node.__name__.removesuffix(_NODE_SUFFIX)}.backward") if issubclass(node, BackwardCFunction) else None


def qualified(frame: types.FrameType) -> str:
    """The name of the function ``frame`` runs as its file spells it (``MulBackward0.apply``),
    without a nested function's ``<locals>`` path: what feedback names a function by."""
    name = _defined_name(frame)
    return frame.f_code.co_name if "<" in name else name


def _defined_name(frame: types.FrameType) -> str:
    """The qualified name of ``frame``'s code (Python 3.11 on), or on 3.10, whose code has
    none, a method's found on the class of its ``self`` that defines it (``Node.unpack`` run
    for a MulBackward0; a property's getter by the property's name), so feedback names it alike
    on every Python."""
    code = frame.f_code
    name = getattr(code, "co_qualname", None)
    if name is not None:
        return str(name)
    owner = frame.f_locals.get("self")
    for cls in () if owner is None else type(owner).__mro__:
        found = vars(cls).get(code.co_name)
        if any(getattr(f, "__code__", None) is code for f in (found, getattr(found, "fget", None),
                                                               getattr(found, "fset", None))):
            return f"{cls.__name__}.{code.co_name}"
    return code.co_name
