"""The judge's rules that read a submission's source share one parse (``grader.judge.source_tree``):
a file nested past what the parser takes gives them no tree, so the run is told by what it did
(its import error, or the parent's reading refusing it), never by a RecursionError of the judge."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from grader.judge.redefined import stub_over_own
from grader.judge.reloads import reload_line
from grader.judge.source_tree import file_tree, source_tree

STUB = "\n\ndef paths(y, leaf):\n    raise NotImplementedError('ex01: paths')\n"


def _too_deep() -> str:
    """A line nested past what ``ast.parse`` takes in this process (a sum of many terms: one
    BinOp inside the next), or a skip where the parser takes any depth (Python 3.10)."""
    line = "DEEP = " + " + ".join(["1"] * 100_000)
    try:
        ast.parse(line)
    except RecursionError:
        return line + "\n"
    pytest.skip("this Python parses any depth")


def _error(line: int) -> dict[str, object]:
    return {"type": "NotImplementedError", "message": "ex01: paths", "function": "paths", "caller": None,
            "line": line, "step": None, "fresh": False}


def test_a_stub_below_the_students_own_definition_is_found_in_the_shared_parse() -> None:
    source = "def paths(y, leaf):\n    return []\n" + STUB
    assert stub_over_own(source, _error(6)) == (1, 5)
    assert source_tree(source) is source_tree(source)  # one parse for every rule


def test_a_source_nested_past_the_parser_gives_no_rule_a_tree_and_raises_nothing(tmp_path: Path) -> None:
    source = _too_deep() + "import importlib\nimportlib.reload(importlib)\n" + STUB
    assert source_tree(source) is None
    assert stub_over_own(source, _error(source.count("\n"))) is None
    path = tmp_path / "ex01_graph.py"
    path.write_text(source, encoding="utf-8")
    assert file_tree(path) is None and reload_line(path) is None


def test_a_reload_is_found_in_the_file_the_child_ran(tmp_path: Path) -> None:
    path = tmp_path / "ex01_graph.py"
    path.write_text("import importlib as il\nimport micrograph\n\nil.reload(micrograph)\n", encoding="utf-8")
    assert reload_line(path) == 4
    assert reload_line(tmp_path / "missing.py") is None and reload_line(None) is None
