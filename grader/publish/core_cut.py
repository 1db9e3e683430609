"""micrograph's core without its answers, for a release of the build track alone.

The build track's stubs and solutions are cut from ``solutions/build/engine.py``, itself a cut of
micrograph's core modules (``CUT_FROM``).  A release of the track alone must not hand those
modules' code to the student who is writing it, yet the release's grader imports micrograph:
its sandbox, probes and diagrams name micrograph's classes, though on a build-track stage they
never run micrograph's engine (the child runs the student's; the expected answers and the
replayed backward, ``grader.judge.replayed``, are computed when the release is built and
shipped).  So the release ships these modules with every function's body replaced by a
``raise``: their classes, signatures and docstrings stay, so everything that imports them still
does, and none of the code a stage asks the student to write is there.

A few functions run while the modules are imported (a class hook, method factories, a
decorator's ``__call__``): they keep their own lines, while the functions they define inside are
cut like any other.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Final

CUT_FROM: Final = ("grad_mode", "node", "ops", "value", "engine", "hooks")
RUN_AT_IMPORT: Final = frozenset({
    "node.Node.__init_subclass__", "node.ReadOnly.__init__", "node.ReadOnly.__set_name__", "ops.Op.__init_subclass__",
    "value._unary", "value._in_place", "value._bitwise", "value._comparison", "value._logical",
    "grad_mode._GradModeSwitch.__call__", "grad_mode._wrap_generator", "grad_mode._BareDecorator.__new__",
})
CUT = "raise NotImplementedError('{where}: not shipped with the build track, whose stages you write')"

Span = tuple[int, int, int, str]  # first line, last line, indentation, qualified name


def _is_docstring(statement: ast.stmt) -> bool:
    return (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
            and isinstance(statement.value.value, str))


def _first_line(statement: ast.stmt) -> int:
    decorators = getattr(statement, "decorator_list", [])
    return min([statement.lineno, *(d.lineno for d in decorators)])


def _bodies(statements: list[ast.stmt], prefix: str) -> list[Span]:
    """The line spans of the function bodies to cut under ``statements`` (docstrings kept)."""
    spans: list[Span] = []
    for node in statements:
        if isinstance(node, ast.ClassDef):
            spans += _bodies(node.body, f"{prefix}.{node.name}")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            name = f"{prefix}.{node.name}"
            if name in RUN_AT_IMPORT:
                spans += _bodies(node.body, name)
                continue
            body = node.body[1:] if _is_docstring(node.body[0]) else node.body
            if body:
                spans.append((_first_line(body[0]), body[-1].end_lineno or body[-1].lineno,
                              body[0].col_offset, name))
        elif isinstance(node, (ast.If, ast.Try, ast.With)):
            spans += _bodies(node.body, prefix)
    return spans


def cut(source: str, module: str) -> str:
    """``source`` of micrograph's ``module`` with every function body replaced by a raise."""
    lines = source.splitlines(keepends=True)
    for first, last, indent, name in sorted(_bodies(ast.parse(source).body, module), reverse=True):
        lines[first - 1:last] = [" " * indent + CUT.format(where=f"micrograph.{name}") + "\n"]
    return "".join(lines)


def cut_core(package: Path) -> list[Path]:
    """Cut the modules of ``CUT_FROM`` in the copy of micrograph at ``package``; the paths cut."""
    paths = [package / f"{module}.py" for module in CUT_FROM]
    for path, module in zip(paths, CUT_FROM):
        path.write_text(cut(path.read_text(encoding="utf-8"), module), encoding="utf-8")
    return paths
