"""A release notebook's statement is Markdown a notebook reader can follow: no reST literal-block
marker (``::``) shows as text, and the "Watch it run" paragraph says where a notebook shows the
backward page (under ``grader.check``'s diagram), not which file ``grade exNN`` writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from micrograph.i18n import using

from grader.course.folder import Course
from grader.publish.localize import stub_source
from grader.publish.notebooks import notebook_for

REPO = Path(__file__).resolve().parents[2]
WATCHED = ("ex01", "ex04", "ex05")  # the statements whose "Watch it run" names grades/exNN/backward.html


@pytest.mark.parametrize("lang, shown", [("en", "*watch this backward run, step by step* and press"),
                                         ("zh", "点“一步一步看这次 backward() 怎么运行”打开它，按“下一步”")])
def test_a_notebook_statement_is_markdown_for_a_notebook_reader(lang: str, shown: str) -> None:
    course = Course(REPO)
    for exercise_id in [*WATCHED, "ex07", "ex09"]:
        ex = course.load(exercise_id)
        with using(lang):
            source = stub_source(course.exercises_dir / f"{ex.spec.module}.py", course.exercises_dir, lang)
            cells = notebook_for(ex, source)["cells"]
        statement = "".join(cells[0]["source"])  # type: ignore[index]
        assert "::" not in statement, exercise_id
        assert "backward.html`` beside" not in statement and "用浏览器打开它" not in statement, exercise_id
        if exercise_id in WATCHED:
            assert shown in " ".join(statement.split()).replace(" “", "“"), exercise_id
