"""A submission that imports a module of the student's own, lying beside it, is told that each
exercise file is graded alone; any other module not found, that only micrograph and the standard
library are there when it is graded."""

from __future__ import annotations

from pathlib import Path

from grader.judge import explain
from grader.sandbox.child.wire import ErrorRecord
from grader.spec.limits import Limits


def _missing(module: str) -> ErrorRecord:
    return ErrorRecord(type="ModuleNotFoundError", message=f"No module named '{module}'",
                       function=None, caller=None, line=3, step=None)


def test_a_helper_file_beside_the_submission_is_named(tmp_path: Path) -> None:
    (tmp_path / "myhelpers.py").write_text("def double(x):\n    return 2 * x\n")
    said = explain.import_error(_missing("myhelpers"), "ex03.py", Limits(), beside=tmp_path)
    assert said == ("ex03.py raised ModuleNotFoundError when imported (line 3): No module named "
                    "'myhelpers'. Each exercise file is graded on its own, with micrograph and the "
                    "standard library only: myhelpers.py beside it cannot be imported there, so copy "
                    "what it needs into the file itself")
    (tmp_path / "tools").mkdir()
    assert "tools/ beside it" in explain.import_error(_missing("tools.extra"), "ex03.py", Limits(),
                                                      beside=tmp_path)


def test_a_module_that_is_not_beside_it_is_told_missing_where_the_file_is_graded(tmp_path: Path) -> None:
    """numpy or torch may well be installed where the student runs the file: "No module named" alone
    would read as their own installation's fault."""
    for beside in (tmp_path, None):
        said = explain.import_error(_missing("torch"), "ex03.py", Limits(), beside=beside)
        assert said == ("ex03.py raised ModuleNotFoundError when imported (line 3): No module named 'torch'. "
                        "The file is graded with micrograph and the standard library only: torch is not there, "
                        "so the code that imports it cannot stay in the file you hand in")


def test_a_package_s_missing_module_is_told_as_python_says_it() -> None:
    """``import micrograph.extra``: micrograph is there, only the module inside it is not."""
    said = explain.import_error(_missing("micrograph.extra"), "ex03.py", Limits())
    assert said == "ex03.py raised ModuleNotFoundError when imported (line 3): No module named 'micrograph.extra'"


def test_a_thread_refused_is_told_as_the_grading_process_s_rule() -> None:
    """threading.Thread(...).start() raises "can't start new thread" where the file is graded (no new
    thread or process there), wherever it is started: at the top level or in a function a test calls."""
    refused = ErrorRecord(type="RuntimeError", message="can't start new thread", function="train", caller=None,
                          line=7, step=None)
    rule = ("can't start new thread. The file is graded in a process that may start no thread or process, so the "
            "code that starts one cannot stay in the file you hand in")
    assert explain.import_error({**refused, "function": None}, "ex15.py", Limits()) == (
        f"ex15.py raised RuntimeError when imported (line 7): {rule}")
    assert explain.test_error(refused, "ex15.py", Limits()) == f"your code raised RuntimeError at line 7 (in train): {rule}"


def test_an_imported_name_bound_again_is_told_only_where_the_global_is_looked_up() -> None:
    """``nn = make_model(0)`` at the bottom: make_model's ``nn.MLP`` is told with both lines; a
    function whose own parameter is named nn looks up its argument, not the module's global."""
    from grader.judge.shadowed import shadowed_told

    source = ("from micrograph import nn\n\n\ndef make_model():\n    return nn.MLP([2, 1])\n\n\n"
              "def shaped(nn):\n    return nn.MLP\n\n\nnn = make_model()\n")
    error = ErrorRecord(type="AttributeError", message="'MLP' object has no attribute 'MLP'", function="make_model",
                        caller=None, line=5, step=None)
    assert shadowed_told(source, error, "line {}".format) == (
        "; nn is imported at line 1, and line 12 binds the name nn again after that import, so nn.MLP looks MLP up "
        "on what that line gave")
    assert shadowed_told(source, {**error, "function": "shaped", "line": 9}, "line {}".format) == ""
    assert shadowed_told(source.replace("nn = make_model()", "import micrograph.nn as nn"), error,
                         "line {}".format) == ""  # imported again: no longer bound to what a line gave


def test_a_module_imported_in_a_function_is_told_missing_where_the_file_is_graded() -> None:
    """``import torch`` inside the function a test calls (to compare with it) meets the same absence."""
    error = ErrorRecord(type="ModuleNotFoundError", message="No module named 'torch'", function="backprop",
                        caller=None, line=4, step=None)
    assert explain.test_error(error, "ex01.py", Limits()) == (
        "your code raised ModuleNotFoundError at line 4 (in backprop): No module named 'torch'. The file is graded "
        "with micrograph and the standard library only: torch is not there, so the code that imports it cannot stay "
        "in the file you hand in")
