"""``grader.check("ex03")``: grade an exercise from a notebook (or a script), in the same
sandbox as ``grade ex03``, and show the result where the student works.

Which code is graded, first found wins:
1. inside an IPython kernel (Jupyter, Colab, VS Code), the code cells this kernel has run, in
   the order they ran (IPython's raw input history, ``In[1:]``, without the cell calling
   ``check``), when they define one of the exercise's functions.  Why the history and not the
   ``.ipynb`` file: it is what the student ran, saved or not, and it exists in every front end
   (Colab has no notebook file the kernel can read).  A cell that raised when it ran raises
   again when graded: "Restart & Run All" first;
2. else ``exercises/exNN_*.py`` of the course folder (the nearest folder, from the current one
   upwards, that holds ``exercises/``), as ``grade exNN`` does.

The history is graded like a handed-in ``.ipynb`` (``grader.course.notebook``): magics and shell
lines are dropped and said, and feedback names lines as ``In [N], line L``: ``In [N]`` is the
number Jupyter and Colab showed beside the cell when it ran.  The tests are those the installed grader holds: in a student release, the public
tests only.  Every problem (no such exercise, no code, no sandbox) is one sentence, never a
traceback.
"""

from __future__ import annotations

import ast
import json
import re
import sys
import tempfile
from dataclasses import fields
from pathlib import Path

from grader.course import notebook
from grader.i18n import _, choose
from grader.notebook_view import Checked

def _ipython() -> object | None:
    """The running IPython shell, without importing IPython when it is not loaded."""
    module = sys.modules.get("IPython")
    get = getattr(module, "get_ipython", None) if module else None
    return get() if get else None


def _functions(stub: Path | None) -> set[str]:
    """The top-level functions the stub asks for (empty when there is no stub)."""
    if stub is None or not stub.is_file():
        return set()
    try:
        tree = ast.parse(stub.read_text(encoding="utf-8"))
    except (SyntaxError, ValueError, OSError):
        return set()
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}


def _session_notebook(functions: set[str], folder: Path) -> Path | None:
    """The kernel's history as a ``.ipynb`` in ``folder``, when it holds the exercise."""
    shell = _ipython()
    history = getattr(getattr(shell, "history_manager", None), "input_hist_raw", None)
    if not isinstance(history, list) or len(history) < 2:
        return None
    cells = [c if isinstance(c, str) else "" for c in history[1:-1]]
    code = "\n".join(cells)
    names = functions or {r"\w+"}
    if not any(re.search(rf"^\s*def {name}\s*\(", code, re.MULTILINE) for name in names):
        return None
    path = folder / "session.ipynb"
    path.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5,
                                "metadata": {"micrograph": notebook.HISTORY}, "cells": [
        {"cell_type": "code", "metadata": {}, "source": c, "outputs": [],
         "execution_count": number} for number, c in enumerate(cells, start=1)]}),
        encoding="utf-8")
    return path


def _grade(exercise: str) -> Checked:
    from grader.cli.shared import GRADES, course_folder, course_here  # as the CLI: $GRADE_TESTS_DIR
    from grader.course.catalog import CatalogError, find_submission, parse_id
    from grader.course.folder import NamedCourse
    from grader.report import terminal
    from grader.sandbox import isolation, renderer

    course = course_here()
    try:
        ex = course.load(parse_id(exercise))
    except CatalogError as exc:
        return Checked(str(exc), problem=str(exc))
    stub = course.exercises_dir / f"{ex.spec.module}.py"
    if ex.spec.diagram_probe is not None:
        renderer.start()  # its start-up overlaps with the probe's child and the submission's
    chosen = isolation.current()
    with tempfile.TemporaryDirectory(prefix="grade-check-") as folder:
        file = _session_notebook(_functions(stub), Path(folder))
        display = _("this notebook")
        if file is None:
            file = find_submission(course.exercises_dir, ex.spec)
            if file is None:
                sentence = _("found no code for {id}: define its functions in this notebook, or write {path}",
                             id=ex.spec.id, path=course.display(stub))
                return Checked(sentence, problem=sentence)
            display = course.display(file)
        out = course_folder(course, GRADES, ex.spec.id)  # ../grades/ex03 beside a notebook, as grade says it
        out.mkdir(parents=True, exist_ok=True)
        named = NamedCourse(**{f.name: getattr(course, f.name) for f in fields(course)},
                            shown={file: display})  # not the temporary file's path
        result = named.grade(ex, file, diagram_dir=out)
    svgs = [p for p in result.diagrams if p.endswith(".svg") and p not in result.redrawn]  # one graph shown once
    pages = [p for p in result.diagrams if p.endswith(".html")]
    note = terminal.isolation_note(chosen.describe(), chosen.mode)
    text = terminal.exercise(result, display) + "\n" + (f"\n{note}" if note else "")
    return Checked(text, svgs=svgs, pages=pages, result=result, isolation=note or "")


def check(exercise: str, lang: str | None = None) -> Checked:
    """Grade ``exercise`` (``"ex03"``, ``"3"``) and return what to show; in a script the text is
    also printed, exactly as ``grade ex03`` prints it (at a prompt the shell shows it once).  ``lang`` ("zh" or "en") is
    ``grade --lang``: it stays the kernel's language for the next checks."""
    try:
        choose(lang)
    except ValueError as exc:  # an unknown language: one sentence, as every other problem
        return Checked(str(exc), problem=str(exc))
    try:
        checked = _grade(exercise)
    except Exception as exc:  # noqa: BLE001 - the student sees one sentence, never a traceback
        sentence = _("grader.check could not grade {exercise}: {error}", exercise=repr(exercise),
                     error=f"{type(exc).__name__}: {exc}")
        checked = Checked(sentence, problem=sentence)
    if not _shown_by_the_shell():
        print(checked.text)
    return checked


def _shown_by_the_shell() -> bool:
    """Whether what ``check`` returns is shown anyway: by IPython's display, or by Python's
    interactive prompt (``sys.ps1`` exists there), which prints the returned value's text; a
    script shows only what ``check`` prints."""
    return _ipython() is not None or hasattr(sys, "ps1")
