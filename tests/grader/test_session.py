"""One sandboxed child per submission (``grader.sandbox.session``): each exercise still gets
what a child of its own gave it.

Every attack of the hostile gallery is handed in as ex42 beside a correct ex41, graded together
(``Course.grade_many``, as a batch grades a student): ex42 earns what it earned alone, and ex41,
graded after it in the same child, full marks.
"""

from __future__ import annotations

import os

import pytest
from test_hostile import CASES, course_for, says
from toycourse import GOOD, ToyCourse

from grader.course import catalog
from grader.sandbox.session import run_children
from grader.judge.grading import sandbox_run


@pytest.mark.parametrize("name", list(CASES))
def test_an_attack_costs_its_own_exercise_only(toy: ToyCourse, stopping_toy: ToyCourse,
                                               name: str) -> None:
    toy = course_for(name, toy, stopping_toy)
    source, score, statuses, phrase = CASES[name]
    folder = f"together-{abs(hash(name))}"
    hostile = toy.write(f"{folder}/ex42_hostile.py", source)
    good = toy.write(f"{folder}/ex41_fine.py", GOOD)
    course = toy.course
    attacked, fine = course.grade_many([(course.load("ex42"), hostile, None),
                                        (course.load("ex41"), good, None)])
    assert [t.status in want.split("|") for t, want in zip(attacked.tests, statuses)] == [True] * 3
    assert attacked.score == score
    assert all(says(t.feedback, phrase) for t in attacked.tests if t.status != "passed")
    assert fine.full_marks, [t.feedback for t in fine.tests]


def test_each_exercise_starts_from_a_fresh_process(toy: ToyCourse, tmp_path) -> None:
    """What one exercise changes in the engine or the interpreter is gone for the next one."""
    vandal = ("import sys, micrograph\nmicrograph.Value.__rmul__ = None\n"
              "micrograph.set_grad_enabled(False)\nsys.setrecursionlimit(60)\n" + GOOD)
    hostile = toy.write("fresh/ex42_hostile.py", vandal)
    good = toy.write("fresh/ex41_fine.py", GOOD)
    course = toy.course
    attacked, fine = course.grade_many([(course.load("ex42"), hostile, tmp_path / "ex42"),
                                        (course.load("ex41"), good, tmp_path / "ex41")])
    # its own drawing broke, nothing else; an engine class rewritten scores nothing, flagged
    assert attacked.score == 0 and not attacked.diagrams
    assert any("flagged for the instructor" in note for note in attacked.notes), attacked.notes
    assert fine.full_marks and fine.diagrams


def test_the_exercises_share_one_child(toy: ToyCourse) -> None:
    """One uid of its own per child (root): the two exercises ran under the same one."""
    if os.geteuid() != 0:
        pytest.skip("children keep the grader's uid when it is not root")
    course = toy.course
    runs = [sandbox_run(course.load(i), toy.write(f"shared/{m}.py", GOOD), None)
            for i, m in (("ex41", "ex41_fine"), ("ex42", "ex42_hostile"))]
    first, second = run_children(runs)
    uids = [[layer for layer in r.layers if layer.startswith("uid:")] for r in (first, second)]
    assert uids[0] and uids[0] == uids[1]
    assert first.tests.keys() == second.tests.keys() == {"positives", "negatives", "larger"}


def test_the_course_exercises_are_graded_alike_together(tmp_path, answers) -> None:
    """The solutions of three course exercises, graded in one child, pass as they do alone."""
    from grader.course.folder import Course
    from pathlib import Path

    root = Path(catalog.__file__).resolve().parents[2]
    course = Course(root, cache_dir=answers)
    jobs = [(course.load(i), next((root / "solutions").glob(f"{i}_*.py")), tmp_path / i)
            for i in ("ex01", "ex05", "ex09")]
    results = course.grade_many(jobs)
    assert [r.full_marks for r in results] == [True] * 3
    assert all(r.diagrams for r in results)


def test_a_spread_puts_each_module_once_in_a_group_and_keeps_every_job() -> None:
    """``grade check``'s jobs, solutions then stubs of the same modules, in two groups: each
    group one child, so no module twice in it; a module met more often than there are groups
    opens another."""
    from grader.course.folder import spread

    modules = ["ex01_graph", "ex02_leaves", "ex03_retain_grad"] * 2
    groups = spread(modules, 2)
    assert sorted(i for g in groups for i in g) == list(range(6))
    assert len(groups) == 2 and [len(g) for g in groups] == [3, 3]
    assert all(len({modules[i] for i in g}) == len(g) for g in groups)
    assert spread(["ex01_graph"] * 3, 2) == [[0], [1], [2]]
    assert spread(["ex01_graph", "ex02_leaves"], 8) == [[0], [1]]
