"""Grade one exercise of one submission: run the probes, judge in the parent, explain, draw.

``grade_exercise`` is the single entry point the CLI, ``grade check`` and the course autograder
(batch, Gradescope) share.  It returns a plain ``ExerciseResult``; it prints nothing and never
raises for anything the submission does.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

from grader.course.catalog import LoadedExercise
from grader.i18n import _, sentences
from grader.judge import diagram, differences, explain, reached, redefined, replay, replayed, stages, sys_rebound
from grader.judge.capitals import ANY_WORD, ENGLISH_WORDS, capitalized
from grader.judge.caused_errors import kept_before, student_error
from grader.judge.compare import identical, same
from grader.judge.from_source import from_source
from grader.judge.rebound import rebound_told
from grader.judge.source_tree import file_tree
from grader.judge.vjp_named import vjp_classes, vjp_named
from grader.judge.reference import Expected
from grader.judge.exercise_result import (IMPORT_ERROR, NOT_GRADED, OUTCOMES, RAN, SYNTAX_ERROR, TIMED_OUT, UNTOUCHED,
                                          ExerciseResult, TestResult)
from grader.judge.explained import Difference, difference
from grader.judge.lines_named import lines_named
from grader.judge.marking import STEM as DIFFERENCE_STEM
from grader.judge.reloads import reload_flag, reload_line, reload_refused
from grader.judge.sentences import Say
from grader.judge.status import ELSEWHERE, ERROR, FAILED, PASSED, STATUSES, TIMEOUT, Status
from grader.sandbox.child.wire import Touch
from grader.sandbox.run import ChildReport, Spawn, spawn_here
from grader.sandbox.session import Run, run_children
from grader.spec import Limits, Test
from grader.spec.helpers import HELPERS_RAN

__all__ = ["ELSEWHERE", "ERROR", "FAILED", "IMPORT_ERROR", "NOT_GRADED", "OUTCOMES", "PASSED", "RAN", "STATUSES",
           "SYNTAX_ERROR", "TIMED_OUT", "TIMEOUT", "UNTOUCHED", "ExerciseResult", "Status", "TestResult",
           "grade_exercise", "judge", "sandbox_run", "zero"]

_SYNTAX = ("SyntaxError", "IndentationError", "TabError")
_YOUR_CODE = re.compile(r"your code ")  # "your code raised ...": a sentence start once another sentence is before it


def zero(ex: LoadedExercise, status: Status, reason: str) -> ExerciseResult:
    """Every test scores zero for the same reason (no file, no expected answers, ...)."""
    tests = [TestResult(t.name, t.public, 0, t.points, status, reason) for t in ex.spec.tests]
    return ExerciseResult(ex.spec.id, ex.spec.title, tests + _elsewhere(ex), outcome=NOT_GRADED)


def _outcome(report: ChildReport, tests: list[TestResult]) -> str:
    """RAN, or why the submission's code never really ran: it did not import (a syntax error
    or another), the child ran out of time, or every test met NotImplementedError (a stub of
    this exercise, or in a build-track stage an earlier stage's part still a stub: each test's
    feedback then says which stage to paste first)."""
    if report.import_error is not None and not explain.is_timeout(report.import_error):
        kind = report.import_error.get("type")
        return SYNTAX_ERROR if kind in _SYNTAX else IMPORT_ERROR
    if any(t.status == TIMEOUT for t in tests):
        return TIMED_OUT
    errors = _errors(report, tests)
    if errors and all(e.get("type") == "NotImplementedError" for e in errors):
        return UNTOUCHED
    return RAN


def _errors(report: ChildReport, tests: list[TestResult]) -> list[Any]:
    """The error each test graded here met ({} for none)."""
    return [(report.tests.get(t.name) or {}).get("error") or {} for t in tests if t.status != ELSEWHERE]


def _untouched_why(errors: list[Any], submission: Path | None, display: str, limits: Limits,
                   exercise: str) -> tuple[str, list[str]]:
    """Why every test met NotImplementedError in a build-track stage begun (some function of its
    file no longer the stub's), where "not started" would be untrue: the sentence of an earlier
    stage's stub a test met (paste that stage first), or else of this stage's new parts still
    stubs, with their names; ("", []) for a stage not begun, or any other exercise."""
    source = None if submission is None else submission.read_text(encoding="utf-8", errors="replace")
    if source is not None and not stages.begun(source, exercise):
        return "", []
    earlier = explain.earlier_stage_stub(errors, display, limits, exercise)
    left = [] if earlier or source is None else stages.own_stubs(source, exercise)
    if earlier or not left:
        return capitalized(earlier, ANY_WORD), []
    return capitalized(stages.parts_left(display, left), ANY_WORD), left


def _stubbed_source(report: ChildReport, submission: Path | None) -> str | None:
    """The file the child ran, read where a test met NotImplementedError (a stub left below the
    student's own definition shows in it), TypeError (a function's name bound again to what is no
    function shows in it), UnboundLocalError / NameError (the handler that bound the name shows in it) or
    AttributeError (an imported name bound again shows in it), or where a name of sys changed (the line
    binding it shows in it), else None; a probe's error naming the call that raised it is read for the
    student's own error inside it."""
    read = Touch.SYS in report.touched or any(student_error(record["error"])["type"] in (
        "NotImplementedError", "TypeError", "UnboundLocalError", "NameError", "AttributeError")
        for record in [*report.tests.values(), {"error": report.import_error}] if record.get("error"))
    return submission.read_text(encoding="utf-8", errors="replace") if read and submission is not None else None


def _elsewhere(ex: LoadedExercise) -> list[TestResult]:
    """One row for the hidden tests a release does not hold, with a status of its own."""
    hidden = ex.spec.elsewhere
    if hidden is None:
        return []
    name = (f"{hidden.count} hidden tests: graded on the course autograder" if hidden.count > 1
            else "1 hidden test: graded on the course autograder")
    return [TestResult(name, False, 0, hidden.points, ELSEWHERE)]


def _judge(test: Test, report: ChildReport, expected: Expected, display: str,
           names: explain.LineNames | None = None, exercise: str | None = None,
           beside: Path | None = None, source: str | None = None, reloaded: int | None = None) -> TestResult:
    def result(status: Status, feedback: str = "") -> TestResult:
        score = test.points if status == PASSED else 0
        told = capitalized(feedback, ANY_WORD if test.rules else ENGLISH_WORDS)  # one sentence start at a time
        return TestResult(test.name, test.public, score, test.points, status, told)

    if test.name in expected.broken:
        return result(ERROR, _("this test is broken ({why}): tell the instructor",
                               why=expected.broken[test.name]))
    if test.name not in expected.observations:
        return result(ERROR, _("no expected answer for this test here "
                               "(hidden tests run only on the course autograder)"))
    if report.tampered:
        return result(ERROR, explain.silence(report)[1])
    touched = (reload_refused(report, display, reloaded, names) or sys_rebound.told(report, display, names, source)
               or reached.reached(report, display, names))
    if touched is not None:
        return result(ERROR, touched)
    if report.import_error is not None:  # a top level that ran out of time is no error
        return result(TIMEOUT if explain.is_timeout(report.import_error) else ERROR,
                      explain.import_error(report.import_error, display, report.limits, names, beside)
                      + from_source(source, report.import_error, functools.partial(explain.line_named, names=names)))
    record = report.tests.get(test.name)
    if record is None:
        return result(*explain.silence(report, test.name))
    if record["error"] is not None:
        status = TIMEOUT if explain.is_timeout(record["error"]) else ERROR
        plain = student_error(record["error"])  # the student's error, where a probe named the call that raised it
        over = redefined.stub_over_own(source, plain)
        if over is not None:  # the stub left below the student's own definition is what ran
            return result(status, redefined.told(display, record["error"]["function"],
                                                 *(explain.line_named(line, names) for line in over)))
        line_named = functools.partial(explain.line_named, names=names)
        told = (rebound_told(source, plain, line_named)
                or explain.test_error(record["error"], display, report.limits, names, exercise)
                + from_source(source, plain, line_named))
        return result(status, kept_before(record["error"], told))
    want, got = expected.observations[test.name], record["obs"]
    if identical(want, got):  # its graphs' replays are the reference's: nothing left unmade
        return result(PASSED)
    if same(want, got):
        unmade = replay.unexplained(want, got)
        if unmade:
            label, _sep, where = unmade[0].partition(": ")
            return result(FAILED, difference(Say.NOT_MADE, label=label, where=where).sentence())
        return result(PASSED)
    return result(FAILED, differences.feedback(test, lines_named(want, names), lines_named(got, names)))


def _helpers_ran(report: ChildReport, name: str) -> list[str]:
    """The student's helpers test ``name``'s probe ran (``grader.spec.helpers``), read before
    the test is judged (judging takes the context keys out of the observation)."""
    record = report.tests.get(name)
    observation = None if record is None else record.get("obs")
    return list(observation.get(HELPERS_RAN) or []) if type(observation) is dict else []


def _combinations_named(specs: list[Test], results: list[TestResult],
                        ran: dict[str, list[str]]) -> list[TestResult]:
    """The results, where a failed test ran one of the student's own helpers along with the
    function it is about (``Test.runs_with``, ``grader.spec.helpers``) while a test of that
    helper alone failed too, with a first sentence that says so: the difference, or the error the
    probe raised, may be the helper's, not the function's."""
    failed = {r.name for r in results if r.status == FAILED}  # a difference observed, not a refusal
    for test, result in zip(specs, results):
        if result.status not in (FAILED, ERROR):  # the test's own: a difference, or an error the probe raised
            continue
        said = [capitalized(_("this test runs your {helper} too, and \"{test}\", which tests {helper} "
                              "alone, fails as well.", helper=helper,
                              test=_(next(t for t in tests if t in failed))))  # as the sentences after it
                for helper, tests in test.runs_with.items()
                if helper in ran[test.name] and failed & set(tests)]
        if said:
            result.feedback = sentences([*said, capitalized(result.feedback, _YOUR_CODE)])  # now a sentence after one
    return results


def sandbox_run(ex: LoadedExercise, submission: Path, diagram_dir: Path | None) -> Run:
    """What the sandbox runs to grade ``submission``: every test, and the diagram probe when
    there is a folder to draw into."""
    spec = ex.spec
    return Run(submission, spec.module, ex.module_name, ex.source, [t.name for t in spec.tests],
               spec.limits, diagram_dir is not None and spec.diagram_probe is not None,
               own_engine=spec.own_engine)


def grade_exercise(
    ex: LoadedExercise,
    submission: Path,
    expected: Expected,
    *,
    display: str | None = None,
    diagram_dir: Path | None = None,
    formats: tuple[str, ...] = ("svg",),
    spawn: Spawn = spawn_here,
    names: explain.LineNames | None = None,
) -> ExerciseResult:
    """Grade ``submission`` (a file) against ``expected``; draw into ``diagram_dir`` if given.

    ``display`` is how the file is named in feedback (default: the path as given); ``spawn``
    starts the sandbox's child (see ``grader.sandbox.run``); ``names`` names the file's lines
    in feedback (a notebook's "cell 3, line 2").
    """
    report = run_children([sandbox_run(ex, submission, diagram_dir)], spawn)[0]
    return judge(ex, report, expected, display=display or str(submission),
                 diagram_dir=diagram_dir, formats=formats, names=names, submission=submission)


def judge(
    ex: LoadedExercise,
    report: ChildReport,
    expected: Expected,
    *,
    display: str,
    diagram_dir: Path | None = None,
    formats: tuple[str, ...] = ("svg",),
    names: explain.LineNames | None = None,
    submission: Path | None = None,
) -> ExerciseResult:
    """The grade of what the sandbox reported (``report``) against ``expected``, with its
    feedback and, when ``diagram_dir`` is given, its diagrams.  ``submission``, the file the child
    ran, tells a build-track stage not begun from one begun with an earlier stage's part left out."""
    spec = ex.spec
    beside = None if submission is None or names is not None else submission.parent
    ran = {t.name: _helpers_ran(report, t.name) for t in spec.tests if t.runs_with}
    source = _stubbed_source(report, submission)
    reloaded = reload_line(submission) if report.reached else None
    tests = _combinations_named(spec.tests, [_judge(t, report, expected, display, names, spec.id, beside, source,
                                                    reloaded) for t in spec.tests], ran)
    spelled = vjp_classes(file_tree(submission))  # a Function's backward spelled vjp is named so
    for test in tests:
        test.feedback = vjp_named(test.feedback, spelled)
    tests += _elsewhere(ex)
    for test in tests if report.ran_as else []:  # a text quoted that names the scratch copy the child ran
        test.feedback = test.feedback.replace(report.ran_as, display)  # (formatwarning): the file handed in
    printed = report.stdout.replace(report.ran_as, display) if report.ran_as else report.stdout
    result = ExerciseResult(spec.id, spec.title, tests, stdout=printed,
                            sandbox=report.layers, elapsed=report.elapsed,
                            outcome=_outcome(report, tests), stdout_lines=report.stdout_lines,
                            stdout_dropped=report.stdout_dropped,
                            stdout_limit=report.limits.output)
    if result.outcome == UNTOUCHED:
        result.untouched_why, result.untouched_parts = _untouched_why(
            _errors(report, tests), submission, display, report.limits, spec.id)
    result.flagged = reload_flag(report, reloaded, names) or reached.flagged(report, names)
    result.notes += [result.flagged] if result.flagged else []
    if diagram_dir is not None and spec.diagram_probe is not None:
        _draw(result, ex, report, expected, display=display, diagram_dir=diagram_dir, formats=formats,
              names=names, beside=beside)
    return result


def _draw(result: ExerciseResult, ex: LoadedExercise, report: ChildReport, expected: Expected, *,
          display: str, diagram_dir: Path, formats: tuple[str, ...], names: explain.LineNames | None,
          beside: Path | None) -> None:
    """Draw the diagram probe's graph, the build track's replayed page and a failed public test's
    ``difference.svg`` into ``diagram_dir``, with their notes.  The graph is drawn last: where it is
    missing and a difference.svg is drawn, its note names the file not drawn ("graph.svg not
    drawn"), not "no diagram" above the difference.svg the next line announces."""
    spec = ex.spec
    if report.import_error is not None:
        why = explain.import_error(report.import_error, display, spec.limits, names, beside)
    else:  # a run that reached for grading's internals is told so, not by how its process ended after
        why = reached.reached(report, display, names) or explain.silence(report, drawing=True)[1]
    replay_page = replayed.draw(spec.id, report.diagram["graph"], diagram_dir, formats) \
        if report.diagram is not None else diagram.Drawing()
    marked = _first_shape_difference(spec.tests, result.tests, expected, report)
    difference = diagram.Drawing() if marked is None else diagram.render_difference(*marked, diagram_dir, formats)
    drawing = diagram.render(report.diagram, diagram_dir, display=display, limits=spec.limits, why_missing=why,
                             formats=formats, names=names, drawn_elsewhere=bool(replay_page.paths + difference.paths))
    shown = [p for p in drawing.paths if p.endswith(".svg")]
    result.notes += [drawing.note] if drawing.note else []
    result.notes += [_(spec.drawn, path=shown[0])] if spec.drawn and shown else []  # not the student's graph
    result.diagram_problem = drawing.note if drawing.incomplete else None
    result.diagrams = drawing.paths + replay_page.paths + difference.paths
    result.redrawn = shown if any(p.endswith(f"{DIFFERENCE_STEM}.svg") for p in replay_page.paths) else []
    result.notes += [note for note in (replay_page.note, difference.note) if note]


def _first_shape_difference(specs: list[Test], results: list[TestResult], expected: Expected,
                            report: ChildReport) -> tuple[str, Difference] | None:
    """The first failed public test whose graph differs in shape from the reference's, and
    that difference (public only: a hidden test's graph would show what it checks)."""
    for test, outcome in zip(specs, results):
        record = report.tests.get(test.name)
        if not test.public or outcome.status != FAILED or record is None:
            continue
        found = differences.find(expected.observations[test.name], record["obs"])
        marked = next((d for d in found if d.graph is not None), None)
        if marked is not None:
            return test.name, marked
    return None
