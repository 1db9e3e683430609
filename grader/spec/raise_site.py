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

The engine's sources are read, and the engine's code found in its loaded modules, by
``remember``: the child calls it before it imports the submission (``preload``), while the files
are readable and the modules as the engine made them; the grader's own process, which judges
no engine error itself, reads nothing (``grade ex03`` does not pay for it).  A source is parsed
only when an engine error or warning is judged: only the lines of the function the frame runs,
when its code is one of the engine's own (``_engine_codes``), else the whole file.  A child forks a process per exercise, so a file
parsed whole would be parsed again in each (about 30 ms for ``value.py``).
"""

from __future__ import annotations

import ast
import functools
import os
import sys
from types import CodeType, FrameType, FunctionType, TracebackType

import micrograph

ENGINE_DIR = os.path.dirname(micrograph.__file__) + os.sep
_MODULES = sys.modules  # the dict itself, bound now: a submission may rebind sys's names (``seal.SYS_REBOUND``)
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


def _engine_codes() -> dict[int, CodeType]:
    """The code of every function and method of the engine's loaded modules, and the code nested
    in it, by id (held here, so an id is never reused)."""
    found: dict[int, CodeType] = {}
    seen: set[int] = set()  # classes met already (two classes may name each other)
    objects = [v for m in list(_MODULES.values()) if (getattr(m, "__file__", None) or "").startswith(ENGINE_DIR)
               for v in vars(m).values()]
    while objects:
        item = objects.pop()
        if isinstance(item, type) and item.__module__.startswith("micrograph") and id(item) not in seen:
            seen.add(id(item))
            objects += vars(item).values()
        elif isinstance(item, (staticmethod, classmethod)):
            objects.append(item.__func__)
        elif isinstance(item, property):
            objects += [item.fget, item.fset, item.fdel]
        elif isinstance(item, FunctionType):
            objects.append(item.__code__)
        elif isinstance(item, CodeType) and item.co_filename.startswith(ENGINE_DIR) and id(item) not in found:
            found[id(item)] = item
            objects += [c for c in item.co_consts if isinstance(c, CodeType)]
    return found


@functools.cache
def remember() -> tuple[dict[str, str], dict[int, CodeType]]:
    """The engine's sources and its code (``_sources``, ``_engine_codes``), read on the first
    call and kept: the child makes it before any submitted code runs (see the module doc)."""
    return _sources(), _engine_codes()


def _lines(code: CodeType) -> tuple[int, int]:
    """The first and last line of the engine's function whose code is ``code``; (0, 0), the
    whole file, for code that is not one of the engine's own."""
    if remember()[1].get(id(code)) is not code:
        return 0, 0
    return code.co_firstlineno, max(_line_ends(code), default=code.co_firstlineno)


def _line_ends(code: CodeType) -> list[int]:
    """The lines ``code``'s instructions end at: their positions (Python 3.11 on), or on 3.10,
    which has none, the lines they start at, and the end of the statement there is found by
    ``_parsed``, which widens a cut statement to the whole file."""
    if hasattr(code, "co_positions"):
        return [end for _, end, _, _ in code.co_positions() if end is not None]
    return [line for _, _, line in code.co_lines() if line is not None]


def _parsed(filename: str, first: int, last: int) -> ast.AST | None:
    """Lines ``first`` to ``last`` of an engine file parsed at their own line numbers (the whole
    file when ``first`` is 0, or when those lines are no whole statements)."""
    source = remember()[0].get(filename)
    if source is None:
        return None
    lines = source.splitlines(keepends=True)[first - 1:last] if first > 1 else []
    if lines:
        head = "if True:\n" if lines[0][:1] in (" ", "\t") else "\n"  # a method's lines, indented
        try:
            return ast.parse("\n" * (first - 2) + head + "".join(lines))
        except SyntaxError:
            pass
    return ast.parse(source)


@functools.lru_cache(maxsize=None)
def _raises(filename: str, first: int, last: int) -> tuple[tuple[int, int, CodeType], ...]:
    """The ``raise <expression>`` statements of an engine file's lines ``first`` to ``last``
    (``_parsed``): their first and last lines and their expression compiled (a bare ``raise``
    re-raises: the innermost entry of a traceback stays where the error was first raised, so it
    never ends at one)."""
    tree = _parsed(filename, first, last)
    return () if tree is None else tuple(
        (node.lineno, node.end_lineno or node.lineno, compile(ast.Expression(node.exc), SITE_NAME, "eval"))
        for node in ast.walk(tree) if isinstance(node, ast.Raise) and node.exc is not None)


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
    sites = [code for first, last, code in _raises(frame.f_code.co_filename, *_lines(frame.f_code))
             if first <= tb.tb_lineno <= last]
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
def _warns(filename: str, first: int, last: int) -> tuple[tuple[int, int, CodeType, CodeType | None], ...]:
    """The ``warnings.warn(<message>, <category>...)`` calls of an engine file's lines ``first``
    to ``last`` (``_parsed``): their first and last lines, their message and category (None:
    ``UserWarning``) compiled."""
    tree = _parsed(filename, first, last)
    found = []
    for node in ast.walk(tree) if tree is not None else ():
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
    sites = [(text, kind) for first, last, text, kind in _warns(frame.f_code.co_filename, *_lines(frame.f_code))
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
