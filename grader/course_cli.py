"""The instructor's commands: ``grade batch``, ``grade gradescope``, ``grade release``.

Argument handling and printing only; the work is in ``grader.batch``, ``grader.gradescope``
and ``grader.release``.  ``register(cli)`` adds the commands to the ``grade`` group.
"""

from __future__ import annotations

import contextlib
import sys
from collections import Counter
from pathlib import Path
from typing import Callable

import click

from grader.catalog import LoadedExercise
from grader.course import Course
from grader.intake import NamedCourse
from grader.launcher import LaunchError, Launcher, for_this_process

EXIT_DONE, EXIT_INTERRUPTED = 0, 130


def _course() -> Course:
    from grader.cli import _course as course_here  # the same course `grade ex03` sees

    return course_here()


def _selection(course: Course, exercises: str | None) -> list[LoadedExercise]:
    """``--exercises ex01,3``: those exercises, in order; every exercise when absent."""
    from grader.cli import _load, _targets

    targets = tuple(t.strip() for t in (exercises or "").split(",") if t.strip())
    return [_load(course, i) for i in _targets(course, targets)]


EXERCISES_HELP = "Comma-separated exercises (ex01,ex03 or 1,3); all of them by default."


def _launcher() -> Launcher:
    """Children as an unprivileged user when we are root; say so when that is impossible."""
    try:
        launcher = for_this_process()
    except LaunchError as exc:
        click.echo(f"grade: warning: {exc}; children run as this user, confined by the "
                   "sandbox only", err=True)
        return Launcher()
    if launcher.user is not None:
        click.echo(f"children run as {launcher.user.name} ({launcher.python})", err=True)
    return launcher


@click.command("batch")
@click.argument("submissions", type=click.Path(path_type=Path))
@click.option("--out", "out", required=True, type=click.Path(path_type=Path),
              help="Where grades.csv, report.html and one folder per student go.")
@click.option("--jobs", type=click.IntRange(1, 512), default=None,
              help="Children at a time (default: two per core).")
@click.option("--exercises", default=None, help=EXERCISES_HELP)
def batch(submissions: Path, out: Path, jobs: int | None, exercises: str | None) -> int:
    """Grade a class: SUBMISSIONS holds one folder, .py or .zip per student.

    A rerun grades only the students that are new or whose submission changed.
    """
    from grader.batch import REPORT_NAME, CSV_NAME, Batch, BatchError, Row, run_batch
    from grader.html_report import write_report

    here = _course()
    course = NamedCourse(here.root, here.tests_dir, here.shipped_dir, here.cache_dir)
    selected = _selection(course, exercises)
    if not submissions.is_dir():
        raise click.UsageError(f"{submissions} is not a folder of submissions")
    job = Batch(course, selected, submissions, out, jobs=jobs, launcher=_launcher())
    counts: Counter[str] = Counter()

    def show(row: Row | None) -> str:
        failed = counts["error"] + counts["timeout"]
        return (f"{failed} failed ({counts['error']} error, {counts['timeout']} timeout)"
                if failed else "")

    with contextlib.ExitStack() as stack:
        bars = []

        def on_start(todo: int, reused: int) -> None:
            click.echo(f"{todo} to grade, {reused} unchanged since the last run", err=True)
            bars.append(stack.enter_context(click.progressbar(
                length=todo, label="grading", file=sys.stderr, show_pos=True, show_eta=True,
                item_show_func=show)))

        def on_done(row: Row) -> None:
            counts[row.status] += 1
            bars[0].update(1, current_item=row)

        try:
            summary = run_batch(job, on_start, on_done)
        except BatchError as exc:
            raise click.ClickException(str(exc)) from None
    statuses = Counter(row.status for row in summary.rows)
    click.echo(f"graded {summary.graded}, unchanged {summary.reused}: "
               + ", ".join(f"{statuses[s]} {s}" for s in ("ok", "timeout", "error")))
    if summary.stale:
        click.echo(f"moved {len(summary.stale)} result(s) of entries no longer in "
                   f"{submissions} to {out / '.stale'}")
    click.echo(f"grades: {out / CSV_NAME}")
    if summary.interrupted:
        click.echo("interrupted: run the same command again to grade the rest", err=True)
        return EXIT_INTERRUPTED
    write_report(out / REPORT_NAME, summary.rows, selected, out)
    click.echo(f"report: {out / REPORT_NAME}")
    return EXIT_DONE


@click.command("gradescope")
@click.option("-o", "--output", "output", type=click.Path(path_type=Path),
              default=Path("autograder.zip"), show_default=True, help="The bundle to write.")
@click.option("--exercises", default=None, help=EXERCISES_HELP)
def gradescope(output: Path, exercises: str | None) -> int:
    """Build the Gradescope autograder bundle (setup.sh, run_autograder, tests, solutions)."""
    from grader.gradescope import BundleError, build_bundle
    from grader.public_tests import StripError
    from grader.shipping import ShippingError

    return _build(build_bundle, (BundleError, StripError, ShippingError), output, exercises,
                  "upload it as the assignment's autograder (zip file upload)")


@click.command("release")
@click.option("-o", "--output", "output", type=click.Path(path_type=Path), required=True,
              help="The folder to create for students.")
@click.option("--exercises", default=None, help=EXERCISES_HELP)
def release(output: Path, exercises: str | None) -> int:
    """Build the students' folder: engine, grader, stubs, public tests; no solutions and no
    hidden tests."""
    from grader.public_tests import StripError
    from grader.release import ReleaseError, build_release
    from grader.shipping import ShippingError

    return _build(build_release, (ReleaseError, StripError, ShippingError), output, exercises,
                  "hand it to students (it has no solutions, no hidden tests)")


def _build(builder: Callable[..., list[str]], errors: tuple[type[Exception], ...], output: Path,
           exercises: str | None, done: str) -> int:
    """Run a bundle builder on the course, turning its known errors into one-line messages."""
    course = _course()
    try:
        lines = builder(course, _selection(course, exercises), output)
    except errors as exc:
        raise click.ClickException(str(exc)) from None
    for line in lines:
        click.echo(line)
    click.echo(f"wrote {output}: {done}")
    return EXIT_DONE


def register(group: click.Group) -> None:
    """Add the instructor's commands to ``grade``."""
    for command in (batch, gradescope, release):
        group.add_command(command)
