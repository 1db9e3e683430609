"""report.html teaches the instructor at a glance: the tests the class failed among submissions
that ran, with their share and most common feedback; submissions that never ran counted apart;
one line for a submission that failed for one reason; only true full marks green."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from browser import chromium, dump_dom, screenshot
from coursekit import REPO, grade, solution, stub

from grader.report.histogram import FULL, bars, distribution_svg
from grader.report.misconceptions import shortened

pytestmark = pytest.mark.xdist_group("report")  # one pytest-xdist worker grades the class once

WRONG = REPO / "tests" / "exercises" / "gallery" / "ex03" / "no_retain_grad.py"


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory, cache: Path) -> Path:
    subs = tmp_path_factory.mktemp("class")
    name = solution("ex03").name
    for student, source in (("ana", solution("ex03")), ("bo", solution("ex03")),
                            ("chen", solution("ex03")), ("dara", WRONG), ("eli", WRONG),
                            ("fay", stub("ex03"))):
        (subs / student).mkdir()
        shutil.copyfile(source, subs / student / name)
    (subs / "gus").mkdir()
    (subs / "gus" / name).write_text("def broken(:\n")
    (subs / "empty").mkdir()
    out = subs.parent / f"{subs.name}-graded"
    run = grade("batch", str(subs), "--out", str(out), "--exercises", "ex03", cache=cache)
    assert run.returncode == 0, run.stderr
    return out / "report.html"


def _section(page: str, title: str) -> str:
    start = page.index(f"<h2>{title}</h2>")
    return page[start: page.index("<h2>", start + 4)]


def test_failures_are_counted_among_the_submissions_that_ran(report: Path) -> None:
    page = report.read_text(encoding="utf-8")
    wrong = _section(page, "What the class got wrong")
    rows = re.findall(r"<tr><td>ex03</td><td>(.*?) <span class=tag>.*?(\d+) of (\d+)</span>"
                      r"</td><td>(.*?)<br><span class=muted>(\d+) of the (\d+) got", wrong, re.S)
    assert rows, wrong
    for test, failed, ran, feedback, got, of in rows:
        assert ran == "5"  # three correct and two wrong: not the stub, the syntax error, the empty folder
        assert int(failed) <= 2 and int(got) <= int(of) == int(failed)
        assert "NotImplementedError" not in feedback and "SyntaxError" not in feedback
    assert any(failed == "2" for _, failed, *_ in rows)
    # the one misconception fails three tests, failed by the same two students: one row
    assert len(rows) == 1 and wrong.count("and, by the same students:") == 1
    assert "retain_grad on exactly the nodes named; retained grads on other inputs" in wrong
    not_run = _section(page, "Submissions that did not run")
    cells = re.findall(r"<td class=n>(\d*)</td>", not_run)
    # ran, full marks, syntax error, other import error, untouched stub, timed out, no file
    assert cells == ["5", "3", "1", "", "1", "", "1"]


def test_a_submission_that_failed_for_one_reason_is_one_line(report: Path) -> None:
    page = report.read_text(encoding="utf-8")
    sections = dict(re.findall(r'<section id="s-(\w+)">(.*?)</section>', page, re.S))
    assert "<table" not in sections["empty"] and "the folder is empty" in sections["empty"]
    assert sections["empty"].count("the folder is empty") == 1
    assert "<table" not in sections["fay"] and sections["fay"].count("NotImplementedError") == 1
    assert "<table" not in sections["gus"] and "SyntaxError" in sections["gus"]
    assert "<table" in sections["dara"]  # a misconception is shown test by test


def test_only_true_full_marks_are_green() -> None:
    drawn, single = bars([156, 173, 0, 172.5], 173)
    assert not single
    green = [b for b in drawn if b.full_marks]
    assert len(green) == 1 and green[0].count == 1
    assert sum(b.count for b in drawn if not b.full_marks) == 3
    svg = distribution_svg([("total", 173, [156, 173, 0, 172.5]), ("ex03", 10, [10, 9, 0])])
    greens = re.findall(rf'fill="{FULL}"><title>(.*?)</title>', svg)
    assert greens == ["full marks (173): 1", "10: 1"]


@pytest.mark.skipif(chromium() is None, reason="no chromium to render the report in")
def test_the_misconceptions_are_on_the_first_screen(report: Path, tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    measure = ("<script>window.addEventListener('load', () => {const t = document.querySelector"
               "('table.mis').getBoundingClientRect(); const p = document.createElement('pre');"
               "p.id = 'measured'; p.textContent = `${Math.round(t.top)} ${Math.round(t.height)}`;"
               "document.body.appendChild(p);});</script>")
    page.write_text(report.read_text(encoding="utf-8").replace("</body>", measure + "</body>"),
                    encoding="utf-8")
    top, height = map(int, re.search(r'<pre id="measured">(.*?)</pre>', dump_dom(page))
                      .group(1).split())
    assert 0 < top < 300 and height > 50
    assert screenshot(page, tmp_path / "report.png").stat().st_size > 20_000


def test_a_long_feedback_in_the_table_ends_at_a_sentence_outside_its_quotes() -> None:
    """The table's most common feedback, cut to its width, ends after a whole sentence and says it
    was cut: never inside a word, nor inside a quoted error before the words that differ."""
    said = "y.grad_fn is AddBackward0 here, where PyTorch's is another node. " * 2
    text = said + 'y.backward() raised RuntimeError: "Trying to backward. Saved values are freed. Specify it."'
    assert shortened(text, limit=200) == said.rstrip() + " \u2026"  # not at a full stop inside the quote
    assert shortened("word " * 80, limit=100) == "word " * 19 + "word \u2026"
    assert shortened(text, limit=len(text)) == text


@pytest.mark.skipif(chromium() is None, reason="no chromium to render the report in")
@pytest.mark.parametrize(("width", "lang"), [(1000, "en"), (1400, "en"), (1000, "zh")])
def test_a_class_of_every_exercise_fits_the_window(width: int, lang: str, tmp_path: Path) -> None:
    """The students' table with a column per exercise, the histograms and the table of submissions
    that did not run fit a window 1000 px wide (and one of 1400), in either language: nothing wider
    than the page."""
    from micrograph.i18n import using

    from grader.course import catalog
    from grader.course.records import Row
    from grader.report.html import write_report

    exercises = [catalog.load(ex) for ex in catalog.exercise_ids()]
    rows = [Row(name, name, {ex.spec.id: ex.spec.max_score * k // 3 for ex in exercises}, "ok", "")
            for k, name in enumerate(("ana_maria_lopez", "bo", "chen", "dara"))]
    page = tmp_path / "report.html"
    with using(lang):
        write_report(page, rows, exercises, tmp_path)
    measure = ("<script>window.addEventListener('load', () => {const p = document.createElement('pre');"
               "p.id = 'measured'; p.textContent = `${document.documentElement.scrollWidth} "
               "${document.querySelector('table.scores').scrollWidth} ${window.innerWidth}`;"
               "document.body.appendChild(p);});</script>")
    page.write_text(page.read_text(encoding="utf-8").replace("</body>", measure + "</body>"), encoding="utf-8")
    dom = dump_dom(page, width)
    whole, table, window = map(int, re.search(r'<pre id="measured">(.*?)</pre>', dom).group(1).split())
    assert whole <= window and table <= window - 20, (whole, table, window)
