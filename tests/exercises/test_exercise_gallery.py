"""The gallery: every plausible wrong answer loses points with feedback that names its mistake;
every correct variant scores full marks (tables in ``gallery/exNN/cases.py``).

The cases are graded in rounds: round k holds the k-th case of every exercise's table (of the
cases whose tests the run holds), and one sandboxed child grades them all, each exercise in a
process of its own (``observe``).  A round's tests share a pytest-xdist group, so that one
worker runs its child once, and the rounds spread over the workers.  The child runs the
diagram probe too, which must answer without crashing (nothing is rendered).  The wrong
answers of ex14, ex15 and the build track are also judged in Chinese, from the same child's
report (the child never sees the grader's language): no number an exercise's tests expect in
that feedback either, and on the build track, whose probes word their programs in English
around the code, no English sentence left over.
"""

from __future__ import annotations

import importlib.util
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from exercise_grading import Grading, diagram_problem, difference_said, mentions, observe, rounds, solution_path
from gallery_case import Case, Correct, Wrong, load_cases, names_of, write_case
from grader.judge.grading import ExerciseResult
from grader.sandbox.child.wire import TESTS_FILE_PREFIX
from grader.sandbox.run import ChildReport
from micrograph.i18n import using

CASES = load_cases()
QUOTED = re.compile(r'"[^"]*"')
TRACK = ("ex16", "ex17", "ex18", "ex19", "ex20", "ex21", "ex22")
IN_CHINESE = [(ex, case) for ex, case in CASES if ex in ("ex14", "ex15", *TRACK) and isinstance(case, Wrong)]
JUDGED_TWICE = {(ex, case.name) for ex, case in IN_CHINESE}  # their report is kept for the Chinese test


def _english_sentences() -> Callable[[str], list[str]]:
    """tests/i18n/leaks.py's finder of English left in Chinese output."""
    spec = importlib.util.spec_from_file_location("i18n_leaks", Path(__file__).parents[1] / "i18n" / "leaks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.english_sentences


english_sentences = _english_sentences()


ROUNDS = rounds([(ex, case.name) for ex, case in CASES])


def _params(cases: list[tuple[str, Case]]) -> list:
    return [pytest.param(ex, case, id=f"{ex}-{case.name}",
                         marks=pytest.mark.xdist_group(f"gallery-round-{ROUNDS[ex, case.name]}"))
            for ex, case in cases]


def _observe_round(number: int, wanted: set[tuple[str, str]], folder: Path
                   ) -> dict[tuple[str, str], tuple[Path, ChildReport]]:
    """The file and the child's report of every case of round ``number`` that is ``wanted``,
    each case's file in ``folder/exNN-name`` (one folder for the run's cases: pytest lists the
    run's folder to number each new one it makes, and a numbered folder a case made those
    listings grow with every case, half a second of each worker and more for its later tests)."""
    members = [(ex, case) for ex, case in CASES if ROUNDS[ex, case.name] == number and (ex, case.name) in wanted]
    paths = []
    for ex, case in members:
        own = folder / f"{ex}-{case.name}"
        own.mkdir(exist_ok=True)
        paths.append(write_case(ex, case, solution_path(ex), own))
    reports = observe([(ex, path) for (ex, _), path in zip(members, paths)], drawn=True)
    return {(ex, case.name): (path, report)
            for (ex, case), path, report in zip(members, paths, reports)}


def _selected(items: list[pytest.Item]) -> set[tuple[str, str]]:
    """The (exercise id, case name) of every gallery test this run holds (all of them, or those
    ``-k`` left)."""
    return {(item.callspec.params["exercise_id"], item.callspec.params["case"].name)
            for item in items if isinstance(item, pytest.Function) and "reported" in item.fixturenames}


@pytest.fixture(scope="session")
def reported(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
             ) -> Callable[[str, Case, bool], tuple[Path, ChildReport]]:
    """``reported(exercise_id, case, last)``: the case's file and its child's report, the diagram
    probe's record included (its round run when one of its cases is first asked for).  A round
    grades only the cases whose tests the run holds: ``-k ex10`` grades ex10's cases, not every
    exercise's of the rounds ex10's cases are in.  A report is let go once ``last`` says its last
    test took it (the English one, or the Chinese one after it): kept for the whole run, the
    gallery's 1,500 reports were walked by every full garbage collection of the worker, which
    made the tests run in its process after them (the probes of the build track's facts) two to
    three times slower.  A report asked for again (the tests in another order) runs its round
    again."""
    reports: dict[tuple[str, str], tuple[Path, ChildReport]] = {}
    wanted = _selected(request.session.items)
    folder = tmp_path_factory.mktemp("gallery")

    def report(exercise_id: str, case: Case, last: bool) -> tuple[Path, ChildReport]:
        if (exercise_id, case.name) not in reports:
            reports.update(_observe_round(ROUNDS[exercise_id, case.name], wanted | {(exercise_id, case.name)},
                                          folder))
        return reports.pop((exercise_id, case.name)) if last else reports[exercise_id, case.name]
    return report


def _judged(grading: Grading, exercise_id: str, path: Path, report: ChildReport,
            language: str) -> ExerciseResult:
    """The case's result in ``language``, judged from its child's report."""
    with using(language):
        return grading.judged(exercise_id, path, report)


def _says(feedback: str, words: str) -> bool:
    """Whether ``feedback`` holds ``words``, or holds them at a sentence's start, with a capital
    (the build track's sentences begin with one)."""
    return words in feedback or words[:1].upper() + words[1:] in feedback


def test_each_case_has_a_name_of_its_own():
    """A case is found by its exercise and its name (its round, its report, its file): two cases
    of one name were put in one round, whose files then each took a child of their own, twice,
    and both were judged from one of the two reports, the other never graded."""
    shared = [key for key, count in Counter((ex, case.name) for ex, case in CASES).items() if count > 1]
    assert not shared, f"cases of one name (merge them or name them apart): {shared}"


@pytest.mark.parametrize("exercise_id, case", _params(CASES))
def test_gallery(exercise_id, case, grading, reported):
    path, report = reported(exercise_id, case, (exercise_id, case.name) not in JUDGED_TWICE)
    result = _judged(grading, exercise_id, path, report, "en")
    problem = diagram_problem(report, " ".join(test.feedback for test in result.tests))
    assert problem is None, problem
    printed = report.stdout
    assert TESTS_FILE_PREFIX not in printed, f"{case.name}: what it printed names a test module: {printed[:2000]}"
    failed = {t.name: t for t in result.tests if t.status != "passed"}
    if isinstance(case, Correct):
        assert not failed, {name: t.feedback for name, t in failed.items()}
        return
    assert result.score < result.max_score
    charged = [name for name in case.passes if name in failed]
    assert not charged, {name: failed[name].feedback for name in charged}
    for name, fragment in case.fails.items():
        assert name in failed, f"{case.name} passed {name!r}"
        assert _says(failed[name].feedback, fragment), f"{name}: {failed[name].feedback!r}"
    told = " ".join(test.feedback for test in failed.values())
    names = names_of(exercise_id, case)
    assert names, f"{case.name}: no names (the words its feedback must use)"
    missing = [word for word in names if not _says(told, word)]
    assert not missing, f"{case.name}: the feedback never says {missing}: {told!r}"
    drawn = difference_said(exercise_id, report)  # the note beside difference.svg
    untrue = [words for words in case.unsaid if _says(f"{told} {drawn}", words)]
    assert not untrue, f"{case.name}: the feedback says {untrue}, untrue of it: {told!r} {drawn!r}"
    unshown = [words for words in case.drawn if not _says(drawn, words)]
    assert not unshown, f"{case.name}: the note beside difference.svg never says {unshown}: {drawn!r}"
    numbers = grading.expected_numbers(exercise_id)
    for name, test in failed.items():
        assert test.feedback.strip(), f"{name}: no feedback"
        if test.status == "error":  # the student's own exception, told as it was raised
            continue
        leaked = mentions(QUOTED.sub('""', test.feedback), numbers)  # a quoted text is the student's own
        assert not leaked, f"{name}: feedback gives away {leaked}: {test.feedback!r}"


@pytest.mark.parametrize("exercise_id, case", _params(IN_CHINESE))
def test_chinese_feedback_gives_no_number_away(exercise_id, case, grading, reported):
    """The same wrong answers in Chinese: the feedback is Chinese (sentences and advice come
    from the catalogue) and spells out no number a test of the exercise expects."""
    result = _judged(grading, exercise_id, *reported(exercise_id, case, True), "zh")
    numbers = grading.expected_numbers(exercise_id)
    failed = [t for t in result.tests if t.status == "failed"]
    assert failed or any(t.status == "error" for t in result.tests), case.name
    for test in failed:
        assert re.search("[\u4e00-\u9fff]", test.feedback), f"{test.name}: {test.feedback!r}"
        leaked = mentions(QUOTED.sub('""', test.feedback), numbers)  # a quoted text is the student's own
        assert not leaked, f"{test.name}: feedback gives away {leaked}: {test.feedback!r}"
    if exercise_id in TRACK:
        told = [(t.name, english_sentences(t.feedback)) for t in result.tests if t.status != "passed"]
        assert not [found for found in told if found[1]], told
