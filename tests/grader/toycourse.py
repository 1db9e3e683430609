"""A toy course for the grader's own tests: two tiny exercises, their solutions, a fresh cache.

ex41 ("fine") is always submitted correctly, so it shows that grading carries on; ex42
("hostile") receives the attacks.  Both ask for ``double(x)``; ex42 has a short time limit and a
small memory limit so that loops and bombs stay cheap (3 s: each of its three probes gets 1 s,
the least a probe gets, and the limit leaves room to report them all).  A second toy course
(``stopping_toy``) is the same but for ex42's limit, 1.5 s: for the attacks that nothing but
the limit stops (the import's share of it, or the grader's kill when it is reached), so a
shorter one shows the same.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from grader.course.folder import Course
from grader.judge.grading import ExerciseResult
from grader.sandbox.run import run_child
from grader.spec import Limits

GOOD = "def double(x):\n    return 2 * x\n"
WRONG = "def double(x):\n    return x + 2\n"
STUB = 'def double(x):\n    # TODO\n    raise NotImplementedError("ex42: double")\n'
HOSTILE_TIME_LIMIT = 3
STOPPING_TIME_LIMIT = 1.5  # above a probe's 1 s: the kill's message still differs from a probe's
HOSTILE_WALL_FACTOR = 2  # the attacks' wall clock: twice their CPU time, so the kills come soon
HOSTILE_MEMORY = 256 << 20

_TESTS = '''
from micrograph import Value

from grader.spec import Exercise, Limits
from grader.spec.probe import num

EXERCISE = Exercise({id!r}, {title!r}, module={module!r}, limits=Limits(time={time}, memory={mem}, wall_factor={wall}))


@EXERCISE.test("positives", points=1, public=True, feedback="double means times two")
def positives(sub):
    return [num(sub.double(x)) for x in (1.5, 2.0)]


@EXERCISE.test("negatives", points=1, feedback="negative numbers double too")
def negatives(sub):
    return [num(sub.double(x)) for x in (-3.0, -0.5)]


@EXERCISE.test("larger", points=1, feedback="check larger numbers",
               key_feedback={{"ten": "double(10) is not special"}})
def larger(sub):
    return {{"ten": num(sub.double(10.0)), "other": num(sub.double(7.25))}}


@EXERCISE.diagram
def draw(sub):
    (Value(1.5, requires_grad=True) * 2).grad  # the engine warns at this line: the test's, not the submission's
    return sub.double(Value(1.5, requires_grad=True))
'''


@dataclass
class ToyCourse:
    course: Course
    submissions: Path

    def write(self, name: str, source: str) -> Path:
        path = self.submissions / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(source))
        return path

    def grade(self, exercise_id: str, path: Path, diagram_dir: Path | None = None
              ) -> ExerciseResult:
        return self.course.grade(self.course.load(exercise_id), path, diagram_dir=diagram_dir)


def _toy(factory: pytest.TempPathFactory, hostile_time: float) -> ToyCourse:
    root = factory.mktemp("course")
    tests_dir = root / "tests"
    tests_dir.mkdir()
    exercises = [
        ("ex41", "ex41_fine", "Doubling, graded normally", 10, 1 << 30, Limits().wall_factor),
        ("ex42", "ex42_hostile", "Doubling, under attack", hostile_time, HOSTILE_MEMORY, HOSTILE_WALL_FACTOR),
    ]
    for ex_id, module, title, time, mem, wall in exercises:
        for folder, text in (("solutions", GOOD), ("exercises", STUB.replace("ex42", ex_id))):
            (root / folder).mkdir(exist_ok=True)
            (root / folder / f"{module}.py").write_text(text)
    course = Course(root, tests_dir=tests_dir, shipped_dir=root / "expected",
                    cache_dir=root / "cache")
    # ex42's answers come from its own solution, computed under ex41's 10 s: the attacks' limit
    # stays short while the reference cannot time out on a loaded machine (at 1.5 s the
    # solution's own run did, and every attack was told that its tests were broken).
    ex_id, module, title, _, mem, _ = exercises[1]
    (tests_dir / f"{ex_id}.py").write_text(_TESTS.format(id=ex_id, title=title, module=module, time=10, mem=mem,
                                                         wall=Limits().wall_factor))
    course.settled[ex_id] = course.expected(course.load(ex_id))
    for ex_id, module, title, time, mem, wall in exercises:
        (tests_dir / f"{ex_id}.py").write_text(
            _TESTS.format(id=ex_id, title=title, module=module, time=time, mem=mem, wall=wall))
    # ex41's answers too, now: a test that counts the children a grade starts must not meet the
    # one that computes them, which only the first test of a session to grade ex41 would
    course.settled["ex41"] = course.expected(course.load("ex41"))
    return ToyCourse(course, factory.mktemp("submissions"))


@pytest.fixture(scope="session")
def toy(tmp_path_factory: pytest.TempPathFactory) -> ToyCourse:
    return _toy(tmp_path_factory, HOSTILE_TIME_LIMIT)


@pytest.fixture(scope="session")
def stopping_toy(tmp_path_factory: pytest.TempPathFactory) -> ToyCourse:
    return _toy(tmp_path_factory, STOPPING_TIME_LIMIT)


@pytest.fixture(scope="session")
def layers(toy: ToyCourse) -> list[str]:
    """The confinement layers this machine applies (some attacks are only safe to try with
    them)."""
    ex = toy.course.load("ex41")
    report = run_child(submission=toy.course.solutions_dir / "ex41_fine.py", module="ex41_fine",
                       tests_module=ex.module_name, tests_source=ex.source, tests=[],
                       limits=Limits(), diagram=False)
    return report.layers


def has_layer(layers: list[str], prefix: str) -> bool:
    return any(layer.startswith(prefix) for layer in layers)
