"""``grade release --notebooks``: one Jupyter notebook per exercise, made from its released stub.

``notebooks/ex03_retain_grad.ipynb`` holds the stub's docstring (the statement) as Markdown, the
stub's code as code cells (the imports, then one cell per top-level function, each still raising
``NotImplementedError`` where the student writes), and a last cell calling ``grader.check``,
which grades the cells the kernel ran (``grader.notebook_check``).  Written as plain JSON in the
notebook format 4.4 (no cell ids), which Jupyter, Colab and VS Code open: no nbformat needed to
build a release.  Run top to bottom, nothing raises: the stubs raise only when called.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from grader.course.catalog import LoadedExercise
from grader.i18n import _

FOLDER = "notebooks"


def _cell(kind: str, text: str) -> dict[str, object]:
    lines = text.strip("\n").splitlines(keepends=True)
    cell: dict[str, object] = {"cell_type": kind, "metadata": {}, "source": lines}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def _chunks(source: str) -> tuple[str, list[str]]:
    """(the module docstring, the code cut before each top-level function or class)."""
    tree = ast.parse(source)
    lines = source.splitlines()
    body = list(tree.body)
    docstring = ast.get_docstring(tree) or ""
    start = 0
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        start = body[0].end_lineno or 0
        body = body[1:]
    cuts = [min([n.lineno, *(d.lineno for d in getattr(n, "decorator_list", []))]) - 1
            for n in body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    bounds = [start, *[c for c in cuts if c > start], len(lines)]
    chunks = ["\n".join(lines[a:b]) for a, b in zip(bounds, bounds[1:])]
    return docstring, [c for c in chunks if c.strip()]


# A line of a paragraph that ends in Chinese (a character or its punctuation), and the next
# line, which goes on with text (not a code block, list item, heading rule or blank line).
_WIDE_BREAK = re.compile(r"(?<=[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef])\n(?=[^\s\-*+#>|=0-9])")


def _unbroken(statement: str) -> str:
    """The statement with its wrapped Chinese lines joined: Markdown shows a line break inside
    a paragraph as a space, a stray gap in the middle of a Chinese sentence."""
    return _WIDE_BREAK.sub("", statement)


# reST's literal-block marker ending a paragraph ("in a script::"): Markdown would show it as
# text; the indented block after it is a code block in Markdown already.  After a Chinese
# character the colon is the wide one.
_LITERAL_MARKER = re.compile(r"(?m)(?:(?<=([\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]))|(?<=\S)|\s+)::$")


def _markdown(statement: str) -> str:
    """The statement as Markdown: "text::" ends in one colon, and a wrapped Chinese line is
    joined (``_unbroken``)."""
    marked = _LITERAL_MARKER.sub(lambda m: "：" if m.group(1) else (":" if not m.group(0).strip(":") else ""),
                                 statement)
    return _unbroken(marked)


# The statement's "Watch it run" sentence for the terminal, in English and Chinese: in a notebook
# ``grader.check`` shows the page under its diagram, and no file needs opening.
_WRITES_THE_PAGE = re.compile(
    r"``grade (ex\d\d)`` writes ``grades/\1/backward\.html`` beside ``graph\.svg``: open it in a"
    r"\s+browser\s+and press"
    r"|``grade (ex\d\d)`` 会在 ``graph\.svg`` 旁边写出 ``grades/\2/backward\.html``：用浏览器打开它，\s*按")


def _for_a_notebook(statement: str) -> str:
    """The statement with its sentence about ``grades/exNN/backward.html`` told as a notebook
    reader finds the page: under ``grader.check``'s diagram."""
    return _WRITES_THE_PAGE.sub(lambda _m: _(
        "``grader.check`` (the last cell) shows the backward page under its diagram: open *watch this "
        "backward run, step by step* and press"), statement)


def notebook_for(ex: LoadedExercise, stub_source: str) -> dict[str, object]:
    """The notebook of one exercise, as the JSON document."""
    statement, code = _chunks(stub_source)
    spec = ex.spec
    cells = [_cell("markdown", _("# {id}: {title}", id=spec.id, title=_(spec.title))
                   + f"\n\n{_markdown(_for_a_notebook(statement))}"),
             *[_cell("code", chunk) for chunk in code],
             _cell("markdown", _("Fill in every function that raises `NotImplementedError`, run the cells "
                                 "above, then check your work (public tests here, the hidden ones on the "
                                 "course autograder):")),
             _cell("code", f'import grader\ngrader.check("{spec.id}")')]
    return {"nbformat": 4, "nbformat_minor": 4, "cells": cells, "metadata": {
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"}}}


def write_notebooks(out: Path, exercises: list[LoadedExercise]) -> list[str]:
    """One notebook per exercise in ``out/notebooks``, from the stubs in ``out/exercises``."""
    folder = out / FOLDER
    folder.mkdir(exist_ok=True)
    written = []
    for ex in exercises:
        stub = out / "exercises" / f"{ex.spec.module}.py"
        document = notebook_for(ex, stub.read_text(encoding="utf-8"))
        target = folder / f"{ex.spec.module}.ipynb"
        target.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n",
                          encoding="utf-8")
        written.append(f"{FOLDER}/{target.name}")
    return written
