"""A file that does not compile because of a character a Chinese input method types (a full-width
space indenting a line, a full-width parenthesis or colon): the feedback names the character and
its line in the student's terms, in English and Chinese, never Python's code point alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from grader.course.folder import Course
from grader.judge import explain
from grader.spec.limits import Limits
from micrograph.i18n import using

REPO = Path(__file__).resolve().parents[2]


def _said(source: str) -> str:
    """What grading says of a file that does not compile, from Python 3.11's own SyntaxError."""
    try:
        compile(source, "ex01_graph.py", "exec")
    except SyntaxError as exc:
        error = {"type": "SyntaxError", "message": exc.msg, "function": None, "caller": None,
                 "line": exc.lineno, "step": None}
        return explain.import_error(error, "ex01_graph.py", Limits())
    raise AssertionError("the source compiles")


@pytest.mark.parametrize("source, said", [
    ("def f(x):\n\u3000\u3000return x\n", "full-width space U+3000 at line 2: outside strings and comments Python "
                                          "takes only the ASCII space"),
    ("def f（x）:\n    return x\n", "full-width '（' (U+FF08) at line 1: outside strings and comments Python takes "
                                   "only the ASCII '('"),
    ("def f(x)：\n    return x\n", "full-width '：' (U+FF1A) at line 1"),
    ("def f(x, y):\n    return f(x，y)\n", "full-width '，' (U+FF0C) at line 2"),
    ("x = 1\u00a0+ 2\n", "no-break space U+00A0 at line 1: outside strings and comments Python takes only the "
                         "ASCII space"),
    ("x = “a”\n", "Chinese punctuation mark '“' (U+201C) at line 1: outside strings and comments Python takes only "
                  "the ASCII '\"'"),
])
def test_the_character_and_its_line_are_named(source: str, said: str) -> None:
    assert _said(source).startswith(said), _said(source)


def test_another_syntax_error_is_said_as_before() -> None:
    assert _said("def f(:\n") == "SyntaxError at line 1: invalid syntax"
    assert _said("x = 1 \u200b+ 2\n") == "SyntaxError at line 1: invalid non-printable character U+200B"


def test_a_full_width_space_is_said_in_chinese_when_graded(answers: Path, tmp_path: Path) -> None:
    path = tmp_path / "ex01_graph.py"
    path.write_text("import micrograph\n\n\ndef build_graph(w, x):\n\u3000\u3000return None\n", encoding="utf-8")
    course = Course(REPO, cache_dir=answers)
    with using("zh"):
        result = course.grade(course.load("ex01"), path)
    assert result.score == 0
    assert {t.feedback for t in result.tests} == {
        "第 5 行有全角空格 U+3000：在字符串和注释之外，Python 只认 ASCII 的半角空格，所以这个文件无法编译"
        "（SyntaxError：invalid non-printable character U+3000）"}
