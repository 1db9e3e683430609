"""How an exercise and its tests are declared: the format every ``grader/exercises/exNN.py`` uses.

This module is imported by the grader *and* by the sandboxed child that runs the probes, so it
is stdlib-only and has no side effects.  A declaration is pure data plus probe functions; the
grader never trusts anything a probe returns beyond plain JSON values (see docs/hidden-tests.md).

    EXERCISE = Exercise("ex01", "The computational graph", module="ex01_graph")

    @EXERCISE.test("gradients", points=2, public=True,
                   feedback="Backpropagate from y, then read w.grad and x.grad.",
                   key_feedback={"x_grad": "x reaches y along one path: follow it"})
    def gradients(sub):                       # sub: the student's module
        return {"x_grad": sub.backprop(0.5, -3.0)[1]}

    @EXERCISE.diagram
    def draw(sub):                            # the Values whose graph the grader draws
        g = sub.build_graph(0.5, -3.0)
        return [g["y"]], g
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable, Mapping

from grader.spec.limits import Limits
from grader.spec.helpers import noting
from grader.spec.import_mode import imported

Probe = Callable[[ModuleType], Any]
"""Runs in the sandbox: calls the submission, returns plain observations (JSON types only)."""

_ID = re.compile(r"ex\d\d")
_MODULE = re.compile(r"(ex\d\d)_[a-z0-9_]+")  # compiled once: each worker declares its exercise again
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _,.()'=+*/<>-]{0,59}")


class SpecError(ValueError):
    """An exercise declaration breaks the format (a bug in the hidden-test file, not the student's)."""


@dataclass(frozen=True)
class Test:
    """One test: what the student sees (name, points, public/hidden, feedback) and its probe."""

    __test__ = False  # not a pytest class

    name: str
    points: int | float
    public: bool
    feedback: str
    key_feedback: Mapping[str, str]
    probe: Probe
    rules: bool = False  # the advice is the rule the student's engine breaks: told after the difference
    caused_by: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # the student's own functions the probe's call runs along with the one tested (backprop calls
    # their topological_order), each with the tests that judge it alone: a combination named
    runs_with: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # an observation key whose facts mean something only once others held (a hook taken out
    # through a handle, once register_hook returned one): not told while one of those differs
    presumes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def unsaid(self, keys: list[str]) -> set[str]:
        """The differing ``keys`` not to be told: those ``presumes`` says were observed on
        something another differing key shows never happened (no remove() ran where
        register_hook returned no handle), so their difference would tell of an act the
        submission never did."""
        return {key for key in keys if set(self.presumes.get(key, ())) & set(keys)}

    def advice_for(self, keys: list[str]) -> list[str]:
        """What to look at when the observation keys ``keys`` differ: their ``key_feedback``
        (each once), else the test's general ``feedback``.  Advice says what to do; what the
        student did differently is told by ``grader.judge.differences``.  A key that
        ``caused_by`` names as following from others gets no advice while one of those differs
        too (a wrong product rule changes a whole graph's gradients: the graph's advice, about
        the order nodes run in, would blame the wrong part)."""
        told = [key for key in keys if not set(self.caused_by.get(key, ())) & set(keys)]
        hints = [self.key_feedback[key] for key in told if key in self.key_feedback]
        return list(dict.fromkeys(hints)) or [self.feedback]


@dataclass(frozen=True)
class HiddenElsewhere:
    """Hidden tests this copy of the exercise does not hold (a student release): how many there
    are and their points, so the grade here can say what runs on the course autograder."""

    count: int
    points: int | float


@dataclass
class Exercise:
    """An exercise: its id, title, the student's module, limits, tests and diagram probe.

    ``module`` is the submission's file stem (``ex01_graph`` for ``exercises/ex01_graph.py``).
    ``limits`` bound the sandboxed child that runs *all* of this exercise's probes for one
    submission (see ``grader.spec.limits``).  ``rules``: the tests' advice states what the
    student's engine must do (the build track), so a failed test tells it after the difference
    it explains, instead of only when no difference can be said.  ``own_engine``: the
    submission is an engine of its own (the build track), so it may not import ``micrograph``,
    the course's engine, whose every behaviour is the answer (``from micrograph import Value``
    scored all of ex16).  ``drawn``: what the diagram shows, where it is no graph the student's
    code built (a note under the table, its ``{path}`` the drawing's file).
    """

    id: str
    title: str
    module: str
    limits: Limits = field(default_factory=Limits)
    tests: list[Test] = field(default_factory=list)
    diagram_probe: Probe | None = None
    elsewhere: HiddenElsewhere | None = None
    rules: bool = False
    own_engine: bool = False
    drawn: str | None = None

    def __post_init__(self) -> None:
        if not _ID.fullmatch(self.id):
            raise SpecError(f"exercise id {self.id!r} is not of the form exNN")
        module = _MODULE.fullmatch(self.module)
        if module is None or module.group(1) != self.id:
            raise SpecError(f"{self.id}: module {self.module!r} must look like {self.id}_<topic>")
        if not isinstance(self.limits, Limits):
            raise SpecError(f"{self.id}: limits must be a Limits, not {type(self.limits).__name__}")

    def test(
        self,
        name: str,
        *,
        points: int | float,
        feedback: str,
        public: bool = False,
        key_feedback: Mapping[str, str] | None = None,
        caused_by: Mapping[str, tuple[str, ...]] | None = None,
        runs_with: Mapping[str, tuple[str, ...]] | None = None,
        presumes: Mapping[str, tuple[str, ...]] | None = None,
    ) -> Callable[[Probe], Probe]:
        """Decorator declaring a probe as a test; tests are graded in declaration order.
        ``caused_by`` maps an observation key to the keys whose difference explains its own
        (its advice is then left out; see ``Test.advice_for``).  ``runs_with`` names the
        student's own functions the test runs along with the one it is about, where it cannot
        build that function's inputs itself (``backprop(root)`` calls their
        ``topological_order``), each with the tests that judge that function alone: a failure
        of the test then says so when one of those fails too."""

        def register(probe: Probe) -> Probe:
            if not _NAME.fullmatch(name):
                raise SpecError(f"{self.id}: test name {name!r} must be 1-60 plain characters")
            if any(t.name == name for t in self.tests):
                raise SpecError(f"{self.id}: two tests are named {name!r}")
            if isinstance(points, bool) or not isinstance(points, (int, float)) or not points > 0:
                raise SpecError(f"{self.id}/{name}: points must be a positive number")
            if not feedback.strip():
                raise SpecError(f"{self.id}/{name}: feedback must say what to look at")
            run = noting(probe, runs_with) if runs_with else probe
            if public and not self.own_engine and not any(t.public for t in self.tests):
                run = imported(run, self.module)  # the file's import keeps grad mode: judged once, here
            self.tests.append(
                Test(name, points, public, feedback, dict(key_feedback or {}), run, self.rules,
                     dict(caused_by or {}), dict(runs_with or {}), dict(presumes or {}))
            )
            return probe

        return register

    def diagram(self, probe: Probe) -> Probe:
        """Decorator naming the probe whose returned Values the grader draws.

        The probe returns a Value, a list of Values, or ``(roots, names)`` with ``names`` a dict
        of name -> Value used to label the drawing.
        """
        self.diagram_probe = probe
        return probe

    def hidden_elsewhere(self, *, count: int, points: int | float) -> None:
        """Declare ``count`` hidden tests worth ``points`` that only the course autograder runs
        (a release's public-only test module says this instead of holding them)."""
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise SpecError(f"{self.id}: the count of hidden tests must be a positive integer")
        if isinstance(points, bool) or not isinstance(points, (int, float)) or not points > 0:
            raise SpecError(f"{self.id}: hidden tests' points must be a positive number")
        self.elsewhere = HiddenElsewhere(count, points)

    @property
    def max_score(self) -> int | float:
        """Points of the tests declared here (a release's hidden tests are not among them)."""
        return sum(t.points for t in self.tests)

    @property
    def public_count(self) -> int:
        return sum(1 for t in self.tests if t.public)

    @property
    def hidden_count(self) -> int:
        """Hidden tests, held here or declared as run elsewhere."""
        held = len(self.tests) - self.public_count
        return held + (self.elsewhere.count if self.elsewhere else 0)

    def get(self, name: str) -> Test:
        return next(t for t in self.tests if t.name == name)
