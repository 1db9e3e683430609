"""The message an engine error (or warning) had when the engine made it, made again from its site.

An exception is a mutable object: the submission can catch a real engine error (any one, say
``Value(1.0).backward()``'s) and rewrite its message (``e.args = (...)``, ``e.__init__(...)``)
to the text another mistake would have raised. Its traceback still ends in the engine, so the
traceback alone would call the forged text the engine's. What the engine raised is fixed by
the place it raised from: the ``raise`` statement's expression, evaluated again in the very
frame it ran in (the traceback keeps that frame and its variables, which the submission cannot
reach: stack frames are refused to it), makes the message the engine made. A message that
differs from it was changed after the raise.

A warning is judged the same way as it is shown (``engine_warning``): the frame that called
``warnings.warn`` must be the engine's, at a ``warnings.warn(...)`` whose message, made again
there, is the one shown. ``warnings.warn("...")`` in the submission, or a warning shown by hand
(``warnings.showwarning(...)``), is not the engine's, whatever its text.

The engine's sources are read when this module is loaded (before any submitted code runs) and
parsed only when an engine error or warning is judged.
"""

from __future__ import annotations

import ast
import functools
import os
from types import CodeType, FrameType, TracebackType

import micrograph

ENGINE_DIR = os.path.dirname(micrograph.__file__) + os.sep
SITE_NAME = "<engine raise site>"
"""The file name the raise expressions are compiled under: none of the engine's, the grader's or
the standard library's, which no code in the child may borrow."""


def _sources() -> dict[str, str]:
    """Every engine module's source, by file name, as it is on disk now."""
    found: dict[str, str] = {}
    for folder, _, files in os.walk(ENGINE_DIR):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as handle:
                    found[path] = handle.read()
    return found


_SOURCES = _sources()


@functools.lru_cache(maxsize=None)
def _raises(filename: str) -> tuple[tuple[int, int, CodeType], ...]:
    """The ``raise <expression>`` statements of an engine file: their first and last lines and
    their expression compiled (a bare ``raise`` re-raises: the innermost entry of a traceback
    stays where the error was first raised, so it never ends at one)."""
    source = _SOURCES.get(filename)
    if source is None:
        return ()
    return tuple((node.lineno, node.end_lineno or node.lineno,
                  compile(ast.Expression(node.exc), SITE_NAME, "eval"))
                 for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Raise) and node.exc is not None)


def innermost(tb: TracebackType | None) -> TracebackType | None:
    """The traceback entry where the exception was raised."""
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb


def engine_message(error: BaseException) -> str | None:
    """``str()`` of the exception the engine's raise statement makes again in the frame it
    raised ``error`` from; None when ``error`` was not raised by a ``raise <expression>`` of the
    engine (an error of the interpreter in the engine's code, or not the engine's at all), or
    when that expression hands back ``error`` itself or cannot be made again."""
    tb = innermost(error.__traceback__)
    if tb is None:
        return None
    frame = tb.tb_frame
    sites = [code for first, last, code in _raises(frame.f_code.co_filename) if first <= tb.tb_lineno <= last]
    if len(sites) != 1:
        return None
    try:
        made = eval(sites[0], frame.f_globals, dict(frame.f_locals))  # noqa: S307 - the engine's own expression
    except Exception:  # noqa: BLE001 - a site that cannot be made again proves nothing
        return None
    if made is error or not isinstance(made, BaseException):
        return None
    return str(made)


@functools.lru_cache(maxsize=None)
def _warns(filename: str) -> tuple[tuple[int, int, CodeType, CodeType | None], ...]:
    """The ``warnings.warn(<message>, <category>...)`` calls of an engine file: their first and
    last lines, their message and category (None: ``UserWarning``) compiled."""
    source = _SOURCES.get(filename)
    if source is None:
        return ()
    found = []
    for node in ast.walk(ast.parse(source)):
        func = node.func if isinstance(node, ast.Call) else None
        if (isinstance(func, ast.Attribute) and func.attr == "warn" and isinstance(func.value, ast.Name)
                and func.value.id == "warnings" and node.args):
            category = node.args[1] if len(node.args) > 1 else None
            found.append((node.lineno, node.end_lineno or node.lineno,
                          compile(ast.Expression(node.args[0]), SITE_NAME, "eval"),
                          None if category is None else compile(ast.Expression(category), SITE_NAME, "eval")))
    return tuple(found)


def engine_warning(message: Warning | str, category: type[Warning], frame: FrameType | None) -> bool:
    """Whether ``frame``, the frame that called ``warnings.warn`` (the first outward from the
    warnings machinery), is the engine's, at a ``warnings.warn`` call that, made again in that
    frame, gives ``message`` (its text) of ``category``."""
    if frame is None:
        return False
    sites = [(text, kind) for first, last, text, kind in _warns(frame.f_code.co_filename)
             if first <= frame.f_lineno <= last]
    if len(sites) != 1:
        return False
    text, kind = sites[0]
    try:
        scope = dict(frame.f_locals)
        made = eval(text, frame.f_globals, scope)  # noqa: S307 - the engine's own expression
        made_kind = type(made) if isinstance(made, Warning) else (UserWarning if kind is None else eval(kind, frame.f_globals, scope))  # noqa: S307
    except Exception:  # noqa: BLE001 - a site that cannot be made again proves nothing
        return False
    return str(made) == str(message) and made_kind is category
