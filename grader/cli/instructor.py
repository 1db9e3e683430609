"""The instructor's commands: ``grade check`` and ``grade expected`` (on the course folder),
``grade batch``, ``grade gradescope`` and ``grade release`` (for a class).

Argument handling and printing only; the work is in ``grader.course``, ``grader.judge`` and
``grader.publish``.
"""

from __future__ import annotations

import contextlib
import functools
import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import click

import grader
from grader.cli.completion import complete_selection, complete_targets
from grader.cli.translated import command, option
from grader.cli.shared import (
    EXIT_FULL,
    EXIT_NOT_FULL,
    FOLDER,
    GRADES,
    OUTPUT_FILE,
    course_folder,
    course_here,
    file_in,
    grade_all,
    lang_option,
    load_exercise,
    target_ids,
)
from grader.course.catalog import LoadedExercise
from grader.course.folder import Course, NamedCourse
from grader.i18n import N_, _, status_word, test_name
from grader.judge.grading import ExerciseResult
from grader.judge.reference import NoExpected, write_shipped
from grader.judge.status import PASSED, TIMEOUT
from grader.report import terminal
from grader.report.width import pad
from grader.sandbox.launcher import Launcher, LaunchError, for_this_process

if TYPE_CHECKING:  # imported when the command runs: `grade ex03` need not load the batch
    from grader.course.batch import Batch, Summary

EXIT_INTERRUPTED = 130


def _selection(course: Course, exercises: str | None) -> list[LoadedExercise]:
    """``--exercises ex01,3``: those exercises, in order; every exercise when absent."""
    targets = tuple(t.strip() for t in (exercises or "").split(",") if t.strip())
    return [load_exercise(course, i) for i in target_ids(course, targets)]


EXERCISES_HELP = N_("Comma-separated exercises (ex01,ex03 or 1,3); all of them by default.")


def _launcher() -> Launcher:
    """A launcher for the batch's children (forked from a fork server), once their isolation
    is known to work here."""
    try:
        return for_this_process(forking=True)
    except LaunchError as exc:
        raise click.UsageError(str(exc)) from None


@command("check", help=N_("Instructor's self-test: solutions score full marks, untouched stubs score zero."))
@click.argument("targets", nargs=-1, shell_complete=complete_targets)
@lang_option
@option("--out", type=FOLDER, default=None,
        help=N_("Where the solutions' diagrams go (default: the course's grades/check/)."))
def check(targets: tuple[str, ...], out: Path | None) -> int:
    course = _course_folder("check")
    out = out or course_folder(course, GRADES, "check")
    exercises = [load_exercise(course, i) for i in target_ids(course, targets)]
    graded = grade_all(
        course,
        [(ex, file_in(course.solutions_dir, ex), out / ex.spec.id) for ex in exercises]
        + [(ex, file_in(course.exercises_dir, ex), None) for ex in exercises],
    )
    by_solution, by_stub = graded[: len(exercises)], graded[len(exercises):]
    problems = 0
    for ex, sol, stub in zip(exercises, by_solution, by_stub):
        issues = _check_issues(course, ex, sol, stub)
        problems += len(issues)
        click.echo(_check_line(ex, sol, stub, bool(issues)))
        for issue in issues + _check_warnings(ex):
            click.echo(f"      {issue}")
    click.echo(_("{count} exercises, {problems} problems", count=len(exercises), problems=problems))
    return EXIT_FULL if problems == 0 else EXIT_NOT_FULL


def _course_folder(command: str) -> Course:
    """The course here, refused in one line naming the folders it needs when it lacks them
    (``grade check``, ``release`` or ``gradescope`` run from another folder)."""
    course = course_here()
    missing = [f"{d.name}/" for d in (course.exercises_dir, course.solutions_dir) if not d.is_dir()]
    if missing:
        raise click.UsageError(_("no {folders} folder in {root}: run grade {command} from the course folder",
                                 folders=_(" or ").join(missing), root=course.root, command=command))
    return course


def _check_line(ex: LoadedExercise, sol: ExerciseResult, stub: ExerciseResult, failed: bool) -> str:
    """One exercise's line of ``grade check``: verdict, the solution's and the stub's scores, title."""
    verdict = _.p("check", "FAIL") if failed else _.p("check", "ok")
    return "  ".join([ex.spec.id, pad(verdict, 4), _("solution"), pad(terminal.points(sol.score, sol.max_score), 7),
                      _("stub"), pad(terminal.points(stub.score, stub.max_score), 7), _(ex.spec.title)])


def _check_warnings(ex: LoadedExercise) -> list[str]:
    hidden = sum(1 for t in ex.spec.tests if not t.public)
    if hidden >= 4 and hidden != len(ex.spec.tests):
        return []
    return [_("warning: {hidden} hidden and {public} public tests (want at least 4 hidden and 1 public)",
              hidden=hidden, public=len(ex.spec.tests) - hidden)]


def _check_issues(course: Course, ex: LoadedExercise, sol: ExerciseResult,
                  stub: ExerciseResult) -> list[str]:
    """What ``grade check`` finds wrong with one exercise: the solution short of full marks or
    of its whole diagram, the untouched stub earning points (or timing out)."""
    issues = []
    if not sol.full_marks:
        bad = _("; ").join(f"{test_name(t.name)}: {t.feedback}" for t in sol.tests if t.status != PASSED)
        issues.append(_("solution scores {points} ({failures})",
                        points=terminal.points(sol.score, sol.max_score), failures=bad))
    stub_file = file_in(course.exercises_dir, ex)
    if not stub_file.is_file():
        issues.append(_("no stub {path}", path=course.display(stub_file)))
    elif stub.score != 0 or any(t.status == TIMEOUT for t in stub.tests):
        issues.append(_("untouched stub scores {points}", points=terminal.points(stub.score, stub.max_score)))
    elif copied := _copied(course, ex, stub_file):
        issues.append(_.n("the stub holds {count} line of its solution, such as {line}: a release would be refused",
                          "the stub holds {count} lines of its solution, such as {line}: a release would be refused",
                          len(copied), count=len(copied), line=repr(copied[0])))
    if sol.diagram_problem:
        issues.append(_("the solution's diagram: {problem}", problem=sol.diagram_problem))
    return issues


def _copied(course: Course, ex: LoadedExercise, stub_file: Path) -> list[str]:
    """Lines of the solution's answer the stub already holds (``grader.publish.leaks``)."""
    from grader.publish.leaks import copied_lines
    from grader.publish.shipping import project_texts

    solution = file_in(course.solutions_dir, ex)
    if not solution.is_file():
        return []
    return copied_lines(stub_file.read_text(encoding="utf-8", errors="replace"),
                        solution.read_text(encoding="utf-8", errors="replace"), project_texts())


@command("expected", help=N_("""Write the expected observations from solutions/, for grading without them.

With --public-only (a release's) into the grader's expected/ folder; the hidden tests'
only into a folder outside the course, given with --to."""))
@click.argument("targets", nargs=-1, shell_complete=complete_targets)
@lang_option
@option("--public-only", is_flag=True, help=N_("Keep only the public tests (a release)."))
@option("--to", "to", type=FOLDER, default=None,
              help=N_("Folder for exNN.json (default with --public-only: the grader's expected/ folder)."))
def expected(targets: tuple[str, ...], public_only: bool, to: Path | None) -> int:
    course = course_here()
    if not public_only:
        to = _secret_folder(course, to)
    for exercise_id in target_ids(course, targets):
        ex = load_exercise(course, exercise_id)
        try:
            answers = course.expected(ex)
        except NoExpected as exc:
            raise click.UsageError(str(exc)) from None
        path = write_shipped(ex, answers, to or course.shipped_dir, public_only)
        click.echo(_.n("{id}: {count} test -> {path}", "{id}: {count} tests -> {path}",
                       len(answers.observations), id=ex.spec.id, count=len(answers.observations), path=path))
    return EXIT_FULL


def _secret_folder(course: Course, to: Path | None) -> Path:
    """Where the hidden tests' expected answers may go: a folder the instructor names, outside
    the course folder and the grader's package, so that neither a release, a bundle, a commit
    of the course nor a child reading the course's files finds them; made readable to its owner
    only (``docs/grader.md``: expected answers never come from anything a child can read)."""
    if to is None:
        raise click.UsageError(_("the hidden tests' expected answers go only where --to says, in a "
                                 "folder outside the course: add --to FOLDER, or --public-only "
                                 "for a release's"))
    inside = [folder for folder in (course.root, Path(grader.__file__).parent)
              if to.resolve().is_relative_to(folder.resolve())]
    if inside:
        raise click.UsageError(_("{path} is inside {folder}, which a release or a commit of the "
                                 "course could carry: give --to a folder outside it for the "
                                 "hidden tests' expected answers", path=to, folder=inside[0]))
    to.mkdir(mode=SECRET_MODE, parents=True, exist_ok=True)
    return to


SECRET_MODE = 0o700  # the hidden tests' answers: their owner's only


@command("batch", help=N_("""Grade a class: SUBMISSIONS holds one folder, .py or .zip per student.

A rerun grades only the students that are new or whose submission changed."""))
@click.argument("submissions", type=click.Path(exists=True, file_okay=False, path_type=Path))
@lang_option
@option("--out", "out", required=True, type=FOLDER,
              help=N_("Where grades.csv, report.html and one folder per student go."))
@option("--jobs", type=click.IntRange(1, 512), default=None,
              help=N_("Children at a time (default: two per core)."))
@option("--exercises", default=None, help=EXERCISES_HELP, shell_complete=complete_selection)
def batch(submissions: Path, out: Path, jobs: int | None, exercises: str | None) -> int:
    from grader.course.batch import CSV_NAME, REPORT_NAME, Batch
    from grader.report.html import write_report

    here = _course_folder("batch")
    course = NamedCourse(here.root, here.tests_dir, here.shipped_dir, here.cache_dir)
    selected = _selection(course, exercises)
    if not submissions.is_dir():
        raise click.UsageError(_("{path} is not a folder of submissions", path=submissions))
    _check_out(submissions, out)
    summary = _run_with_progress(Batch(course, selected, submissions, out, jobs=jobs,
                                       launcher=_launcher()))
    _tell_counts(summary, submissions, out / CSV_NAME)
    if summary.interrupted:
        click.echo(_("interrupted: run the same command again to grade the rest"), err=True)
        return EXIT_INTERRUPTED
    write_report(out / REPORT_NAME, summary.rows, selected, out)
    click.echo(_("report: {path}", path=out / REPORT_NAME))
    if exercises is None:
        _tell_unsubmitted(summary, selected)
    return EXIT_FULL


def _tell_unsubmitted(summary: Summary, selected: list[LoadedExercise]) -> None:
    """Without ``--exercises`` every exercise is graded: a course that handed out some of them
    gets a column of zeros for each of the others, which is said once, with what to do."""
    nobody = summary.handed_in_by_nobody([ex.spec.id for ex in selected])
    if nobody:
        click.echo(_("no submission holds a file for {ids}, which count 0 for everyone: "
                     "--exercises names the exercises your course handed out (ex01,ex03 or 1,3)",
                     ids=_(", ").join(nobody)), err=True)


def _run_with_progress(job: Batch) -> Summary:
    """Run the batch with a progress bar on stderr (students done, failures so far, time left)."""
    from grader.course.batch import run_batch
    from grader.course.entries import BatchError
    from grader.course.records import ROW_ERROR, ROW_TIMEOUT, Row

    counts: Counter[str] = Counter()

    def show(row: Row | None) -> str:
        failed = counts[ROW_ERROR] + counts[ROW_TIMEOUT]
        return (_("{failed} failed ({errors} error, {timeouts} timeout)", failed=failed,
                  errors=counts[ROW_ERROR], timeouts=counts[ROW_TIMEOUT]) if failed else "")

    with contextlib.ExitStack() as stack:
        bars = []

        def on_start(todo: int, reused: int) -> None:
            click.echo(_("{todo} to grade, {reused} unchanged since the last run", todo=todo, reused=reused),
                       err=True)
            bars.append(stack.enter_context(click.progressbar(
                length=todo, label=_("grading"), file=sys.stderr, show_pos=True, show_eta=True,
                item_show_func=show)))

        def on_done(row: Row) -> None:
            counts[row.status] += 1
            bars[0].update(1, current_item=row)

        try:
            return run_batch(job, on_start, on_done)
        except BatchError as exc:
            raise click.ClickException(str(exc)) from None


def _tell_counts(summary: Summary, submissions: Path, grades: Path) -> None:
    """What a batch did: graded and unchanged entries, moved results, where the grades are."""
    from grader.course.records import ROW_STATUSES

    statuses = Counter(row.status for row in summary.rows)
    click.echo(_("graded {graded}, unchanged {reused}: ", graded=summary.graded, reused=summary.reused)
               + _(", ").join(f"{statuses[s]} {status_word(s)}" for s in ROW_STATUSES))
    if summary.stale:
        click.echo(_("moved {count} result(s) of entries no longer in {folder} to {stale}",
                     count=len(summary.stale), folder=submissions, stale=grades.parent / ".stale"))
    click.echo(_("grades: {path}", path=grades))


def _check_out(submissions: Path, out: Path) -> None:
    """OUT may sit beside SUBMISSIONS or directly in it (the batch skips it there); it may not
    be SUBMISSIONS itself nor lie inside a student's entry (every run would change it)."""
    folder, target = submissions.resolve(), out.resolve()
    if target == folder:
        raise click.UsageError(_("--out {out} is the submissions folder: write the grades beside it",
                                 out=out))
    if target.is_relative_to(folder) and len(target.relative_to(folder).parts) > 1:
        raise click.UsageError(_("--out {out} is inside a student's entry in {folder}: write the "
                                 "grades beside the submissions", out=out, folder=submissions))


@command("gradescope", help=N_("Build the Gradescope autograder bundle (setup.sh, run_autograder, tests, solutions)."))
@lang_option
@option("-o", "--output", "output", type=OUTPUT_FILE,
              default=Path("autograder.zip"), show_default=True, help=N_("The bundle to write."))
@option("--exercises", default=None, help=EXERCISES_HELP, shell_complete=complete_selection)
@option("--diagrams", "diagram_format", type=click.Choice(["svg", "png"]), default="svg",
              show_default=True, help=N_("How each submission's diagram reaches students: inline "
              "SVG, or a PNG image where Gradescope strips SVG."))
def gradescope(output: Path, exercises: str | None, diagram_format: str) -> int:
    from grader.publish.gradescope import BundleError, build_bundle
    from grader.publish.public_tests import StripError
    from grader.publish.shipping import ShippingError

    builder = functools.partial(build_bundle, diagram_format=diagram_format)
    return _build(builder, (BundleError, StripError, ShippingError), output, exercises,
                  N_("upload it as the assignment's autograder (zip file upload)"), "gradescope")


@command("release", help=N_("""Build the students' folder: engine, grader, stubs, public tests; no solutions and no
hidden tests.  Refused (exit status 1) when a stub scores points or holds a line of its
solution."""))
@lang_option
@option("-o", "--output", "output", type=FOLDER, required=True,
              help=N_("The folder to create for students."))
@option("--exercises", default=None, help=EXERCISES_HELP, shell_complete=complete_selection)
@option("--notebooks", is_flag=True,
              help=N_("Also write notebooks/exNN_<topic>.ipynb (statement, stub, grader.check)."))
def release(output: Path, exercises: str | None, notebooks: bool) -> int:
    from grader.publish.public_tests import StripError
    from grader.publish.release import ReleaseError, UnsafeStubs, build_release
    from grader.publish.shipping import ShippingError

    try:
        builder = functools.partial(build_release, notebooks=notebooks)
        return _build(builder, (ReleaseError, StripError, ShippingError), output,
                      exercises, N_("hand it to students (every stub scores zero and holds no "
                                    "line of its solution; no solutions, no hidden tests)"), "release")
    except UnsafeStubs as exc:
        for sentence in exc.sentences:
            click.echo("grade: " + _("not releasing: {why}", why=sentence), err=True)
        return EXIT_NOT_FULL


def _build(builder: Callable[..., list[str]], errors: tuple[type[Exception], ...], output: Path,
           exercises: str | None, done: str, command: str) -> int:
    """Run a bundle builder on the course, turning its known errors into one-line messages."""
    course = _course_folder(command)
    try:
        lines = builder(course, _selection(course, exercises), output)
    except errors as exc:
        raise click.ClickException(str(exc)) from None
    for line in lines:
        click.echo(line)
    click.echo(_("wrote {path}: {next}", path=output, next=_(done)))
    return EXIT_FULL
