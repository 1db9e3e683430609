"""The gallery: every plausible wrong answer loses points with feedback that names its mistake;
every correct variant scores full marks (tables in ``gallery/exNN/cases.py``).

An exercise's cases are graded together, a few at a time (each grading waits on its own
sandboxed child), when the first of them is tested; the parametrised tests read their case's
result.  The wrong answers of ex14 and ex15 are also judged in Chinese, from the same child's
report (the child never sees the grader's language): no number an exercise's tests expect in
that feedback either.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from exercise_grading import (at_once, expected_numbers, group, judged, mentions, observe,
                              solution_path)
from gallery_case import Case, Correct, Wrong, load_cases, names_of, write_case
from grader.course.folder import in_parallel
from grader.judge.grading import ExerciseResult
from micrograph.i18n import using

CASES = load_cases()
QUOTED = re.compile(r'"[^"]*"')
IN_CHINESE = [(ex, case) for ex, case in CASES if ex in ("ex14", "ex15") and isinstance(case, Wrong)]


def _params(cases: list[tuple[str, Case]]) -> list:
    return [pytest.param(ex, case, id=f"{ex}-{case.name}", marks=group(ex)) for ex, case in cases]


def _grade_cases(exercise_id: str, factory: pytest.TempPathFactory
                 ) -> dict[tuple[str, str], ExerciseResult]:
    """Every case of the exercise, by (case name, language): one child per case."""
    cases = [case for ex, case in CASES if ex == exercise_id]
    expected_numbers(exercise_id)  # the reference's observations, before the threads start
    paths = [write_case(exercise_id, case, solution_path(exercise_id),
                        factory.mktemp(f"{exercise_id}-{case.name}")) for case in cases]
    reports = in_parallel([lambda path=path: observe(exercise_id, path) for path in paths],
                          at_once())
    results = {}
    for case, path, report in zip(cases, paths, reports):
        results[case.name, "en"] = judged(exercise_id, path, report)
        if (exercise_id, case) in IN_CHINESE:
            with using("zh"):
                results[case.name, "zh"] = judged(exercise_id, path, report)
    return results


@pytest.fixture(scope="session")
def graded(tmp_path_factory: pytest.TempPathFactory
           ) -> Callable[[str, Case, str], ExerciseResult]:
    """``graded(exercise_id, case, language)``: the case's result, its exercise graded when
    first asked for."""
    done: dict[str, dict[tuple[str, str], ExerciseResult]] = {}

    def result(exercise_id: str, case: Case, language: str) -> ExerciseResult:
        if exercise_id not in done:
            done[exercise_id] = _grade_cases(exercise_id, tmp_path_factory)
        return done[exercise_id][case.name, language]
    return result


@pytest.mark.parametrize("exercise_id, case", _params(CASES))
def test_gallery(exercise_id, case, graded):
    result = graded(exercise_id, case, "en")
    failed = {t.name: t for t in result.tests if t.status != "passed"}
    if isinstance(case, Correct):
        assert not failed, {name: t.feedback for name, t in failed.items()}
        return
    assert result.score < result.max_score
    for name, fragment in case.fails.items():
        assert name in failed, f"{case.name} passed {name!r}"
        assert fragment in failed[name].feedback, f"{name}: {failed[name].feedback!r}"
    told = " ".join(test.feedback for test in failed.values())
    names = names_of(exercise_id, case)
    assert names, f"{case.name}: no names (the words its feedback must use)"
    missing = [word for word in names if word not in told]
    assert not missing, f"{case.name}: the feedback never says {missing}: {told!r}"
    numbers = expected_numbers(exercise_id)
    for name, test in failed.items():
        assert test.feedback.strip(), f"{name}: no feedback"
        if test.status == "error":  # the student's own exception, told as it was raised
            continue
        leaked = mentions(QUOTED.sub('""', test.feedback), numbers)  # a quoted text is the student's own
        assert not leaked, f"{name}: feedback gives away {leaked}: {test.feedback!r}"


@pytest.mark.parametrize("exercise_id, case", _params(IN_CHINESE))
def test_chinese_feedback_gives_no_number_away(exercise_id, case, graded):
    """The same wrong answers in Chinese: the feedback is Chinese (sentences and advice come
    from the catalogue) and spells out no number a test of the exercise expects."""
    result = graded(exercise_id, case, "zh")
    numbers = expected_numbers(exercise_id)
    failed = [t for t in result.tests if t.status == "failed"]
    assert failed or any(t.status == "error" for t in result.tests), case.name
    for test in failed:
        assert re.search("[\u4e00-\u9fff]", test.feedback), f"{test.name}: {test.feedback!r}"
        leaked = mentions(test.feedback, numbers)
        assert not leaked, f"{test.name}: feedback gives away {leaked}: {test.feedback!r}"
