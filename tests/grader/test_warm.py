"""``grade ex03`` starts the submission's child while the isolation probe runs
(``grader.sandbox.warm``): it is used only where the mode answered gives the interpreter and
scratch folder it was started with, and grades exactly as a child started afterwards."""

from __future__ import annotations

import sys

import pytest
from toycourse import ToyCourse

from grader.sandbox import isolation, warm
from grader.sandbox.run import ChildReport, run_child


@pytest.mark.parametrize(("args", "one"), [
    (["ex03"], True), (["run", "3", "--lang", "zh"], True), (["ex03", "--out", "figs"], True),
    (["--submission", "ex03_mine.py"], False), (["--out", "ex03"], False),
    (["ex03", "ex05"], False), ([], False), (["batch", "subs/"], False), (["all"], False),
])
def test_only_one_named_exercise_starts_a_child_early(args: list[str], one: bool) -> None:
    assert warm.one_exercise(args) is one


def _graded(toy: ToyCourse) -> ChildReport:
    ex = toy.course.load("ex41")
    return run_child(submission=toy.course.solutions_dir / "ex41_fine.py", module="ex41_fine",
                     tests_module=ex.module_name, tests_source=ex.source,
                     tests=[t.name for t in ex.spec.tests], limits=ex.spec.limits, diagram=True)


def test_a_child_started_early_grades_as_one_started_after_the_answer(toy: ToyCourse) -> None:
    cold = _graded(toy)
    warm.start()
    early = _graded(toy)
    assert warm.take(sys.executable, None) is None  # taken by the run, none left waiting
    assert early.refused is None and early.done and early.import_error is None
    assert early.layers == cold.layers and early.isolation == cold.isolation
    assert {n: r["obs"] for n, r in early.tests.items()} == {n: r["obs"] for n, r in cold.tests.items()}
    assert early.diagram == cold.diagram


def test_a_child_that_does_not_fit_the_answer_is_not_used(toy: ToyCourse,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    warm.start()
    assert warm.take("/no/such/python", None) is None  # killed: another mode's interpreter
    assert warm.take(sys.executable, None) is None
    monkeypatch.setenv(isolation.ENV, "limits-only")  # a root grader's children then drop uid
    if isolation.drops_uid(isolation.LIMITS_ONLY) and isolation.refusal(isolation.LIMITS_ONLY):
        pytest.skip(f"limits-only fails here: {isolation.refusal(isolation.LIMITS_ONLY)}")  # a private Python
    warm.start()
    report = _graded(toy)
    assert report.isolation == isolation.LIMITS_ONLY and report.refused is None and report.done
    assert len(report.tests) == 3 and all(r["error"] is None for r in report.tests.values())
