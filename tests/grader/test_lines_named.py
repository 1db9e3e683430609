"""A line an observation names is told as feedback names a line of the graded file: in a notebook
by its cell, with the notebook's cells named where a label named the module they were made into.

A notebook that switched grad mode off in an evaluation cell was told "importing ex15_train.py
switched grad mode off at line 24": a file the student never handed in, at a line of it they
never saw."""

from __future__ import annotations

from grader.judge.checks import check_differences
from grader.judge.lines_named import lines_named
from grader.spec.facts import CONTEXT, Check

_FACT = {"fact": "check", "label": "importing ex15_train.py", "check": Check.IMPORT_KEEPS_MODE.value,
         "holds": False, CONTEXT + "at_line": True, CONTEXT + "line": "24"}
_WANT = {**_FACT, "holds": True}
del _WANT[CONTEXT + "at_line"], _WANT[CONTEXT + "line"]


def _cells(line: int) -> str:
    return f"cell 5 (In [3]), line {line - 23}"


def test_a_notebooks_import_fact_names_its_cell_and_the_notebook() -> None:
    got = lines_named({"import_mode": _FACT}, _cells)["import_mode"]
    said = [d.sentence() for d in check_differences(lines_named(_WANT, _cells), got, got["label"])]
    assert said == ["running the cells of ex15_train.ipynb switched grad mode off at cell 5 (In [3]), line 1 and "
                    "left it off: code that imports your file records no graph afterwards, until something "
                    "switches grad mode on again."]


def test_a_files_import_fact_names_its_line() -> None:
    got = lines_named([_FACT], None)[0]
    said = [d.sentence() for d in check_differences(_WANT, got, got["label"])]
    assert said == ["importing ex15_train.py switched grad mode off at line 24 and left it off: code that imports "
                    "your file records no graph afterwards, until something switches grad mode on again."]


def test_a_cause_told_with_its_line_names_a_notebooks_cell() -> None:
    """A cause the probe gives with a line of the graded file (the given function called under
    no_grad, a built-in a star import replaced) names it as any error's line is named: in a notebook,
    by its cell, not "line 24" of the module the cells were made into."""
    from grader.judge.explain import test_error
    from grader.spec.limits import Limits

    def error(kind: str, message: str) -> dict:
        return {"type": kind, "message": message, "function": "train", "caller": None, "line": 30, "step": None}

    raised = "RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn"
    told = test_error(error("GivenUnderNoGrad", f"train model 24 {raised}"), "w.ipynb", Limits(), _cells)
    assert told.startswith("train called model at cell 5 (In [3]), line 1 while grad mode was off (no_grad)"), told
    told = test_error(error("ShadowedBuiltin", "backprop sum 24 * TypeError: sum(): bad"), "w.ipynb", Limits(), _cells)
    assert "`from micrograph import *` at cell 5 (In [3]), line 1 put it in place of Python's built-in sum" in told
    assert "at line 24" in test_error(error("GivenUnderNoGrad", f"train model 24 {raised}"), "w.py", Limits())
