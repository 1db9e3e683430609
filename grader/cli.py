"""``grade``: grade exercises in a sandbox, explain, draw the graph (the console script).

Everything here is argument handling and printing; the work is in ``grader.course`` and
``grader.grading``, which the course autograder reuses without click.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path

import click

from grader import report
from grader.catalog import CatalogError, LoadedExercise, parse_id, submission_candidates
from grader.course import Course, in_parallel
from grader.grading import ExerciseResult
from grader.reference import NoExpected, write_shipped

EXIT_FULL, EXIT_NOT_FULL, EXIT_USAGE = 0, 1, 2


class _DefaultToRun(click.Group):
    """``grade ex03 --json`` means ``grade run ex03 --json``: anything that is not a command
    name is an exercise."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in ("--help", "-h")):
            args = ["run", *args]
        return super().parse_args(ctx, args)


def _course() -> Course:
    """The course in the current folder; ``GRADE_TESTS_DIR`` / ``GRADE_EXPECTED_DIR`` point at
    other test modules / expected observations (a release, a bundle, the grader's own tests)."""
    course = Course(Path.cwd())
    if os.environ.get("GRADE_TESTS_DIR"):
        course.tests_dir = Path(os.environ["GRADE_TESTS_DIR"])
    if os.environ.get("GRADE_EXPECTED_DIR"):
        course.shipped_dir = Path(os.environ["GRADE_EXPECTED_DIR"])
    return course


def _load(course: Course, exercise_id: str) -> LoadedExercise:
    try:
        return course.load(exercise_id)
    except CatalogError as exc:
        raise click.UsageError(str(exc)) from None


def _targets(course: Course, targets: tuple[str, ...]) -> list[str]:
    """Exercise ids named on the command line; all of them for none or ``all``."""
    if not targets or targets == ("all",):
        ids = course.ids()
        if not ids:
            raise click.UsageError(f"no exercises found in {course.tests_dir}")
        return ids
    try:
        return list(dict.fromkeys(parse_id(t) for t in targets))
    except CatalogError as exc:
        raise click.UsageError(str(exc)) from None


def _submissions(course: Course, exercises: list[LoadedExercise], submission: Path | None,
                 explicit: bool) -> list[Path]:
    """The file to grade for each exercise (a missing one is graded as zero, unless it is the
    only exercise named: that is a usage error)."""
    if submission is not None and not submission.exists():
        raise click.UsageError(f"no such file or folder: {submission}")
    if submission is not None and submission.is_file():
        if len(exercises) != 1:
            raise click.UsageError("--submission FILE grades one exercise: name it, "
                                   "e.g. grade ex03 --submission FILE")
        return [submission]
    folder = submission or course.exercises_dir
    if not folder.is_dir():
        raise click.UsageError(f"no exercises/ folder in {course.root}: run grade from the "
                               "course folder, or pass --submission PATH")
    found = [_file_in(folder, ex) for ex in exercises]
    if explicit and len(exercises) == 1 and not found[0].is_file():
        raise click.UsageError(f"missing file {course.display(found[0])}")
    return found


def _file_in(folder: Path, ex: LoadedExercise) -> Path:
    """The exercise's file in ``folder``, or the path where it should be; several candidates
    are a usage error (grading one of them at random would be wrong)."""
    candidates = submission_candidates(folder, ex.spec)
    if len(candidates) > 1:
        names = ", ".join(c.name for c in candidates)
        raise click.UsageError(f"cannot tell which file in {folder} is {ex.spec.id}: {names} "
                               f"(keep one, or name it: grade {ex.spec.id} --submission FILE)")
    return candidates[0] if candidates else folder / f"{ex.spec.module}.py"


def _infer_target(submission: Path | None, targets: tuple[str, ...]) -> tuple[str, ...]:
    """``grade --submission ex03_foo.py`` names exercise 3 by the file name."""
    if targets or submission is None or not submission.is_file():
        return targets
    try:
        return (parse_id(submission.name.split("_")[0]),)
    except CatalogError:
        raise click.UsageError(f"cannot tell the exercise from {submission.name}: name it, "
                               "e.g. grade ex03 --submission FILE") from None


def _grade_all(course: Course, jobs: list[tuple[LoadedExercise, Path, Path | None]],
               ) -> list[ExerciseResult]:
    """Grade (exercise, file, diagram folder) jobs in parallel; whatever the renderer prints
    goes to stderr, keeping stdout clean."""
    calls = [
        (lambda ex=ex, path=path, out=out: course.grade(ex, path, diagram_dir=out))
        for ex, path, out in jobs
    ]
    with contextlib.redirect_stdout(sys.stderr):
        return in_parallel(calls)


HELP = """Grade exercises in a sandbox, explain each failure, draw the computation graph.

\b
  grade ex03 | grade 3 | grade ex3   grade one exercise of exercises/ here
  grade | grade all                  grade every exercise, then a summary
  grade list                         the exercises with titles and points
  grade check                        solutions score full marks, stubs zero
  grade expected --public-only       expected answers for a release
\b
Grading options (grade run --help): --submission PATH (a file or a folder
instead of exercises/), --json, --out DIR (diagrams, default grades/).
\b
Exit status: 0 full marks, 1 not full marks (or check failed), 2 usage error.
Environment: GRADE_CACHE_DIR, GRADE_TESTS_DIR, GRADE_EXPECTED_DIR.
"""


@click.group(cls=_DefaultToRun, context_settings={"help_option_names": ["-h", "--help"]},
             help=HELP)
def cli() -> None:
    pass


@cli.command("run")
@click.argument("targets", nargs=-1)
@click.option("--submission", type=click.Path(path_type=Path),
              help="A file, or a folder of exNN_*.py files, instead of exercises/.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout, nothing else.")
@click.option("--out", type=click.Path(path_type=Path), default=Path("grades"),
              show_default=True, help="Where diagrams go (DIR/ex03/graph.svg).")
def run(targets: tuple[str, ...], submission: Path | None, as_json: bool, out: Path) -> int:
    """Grade exercises (all of them by default): grade run ex03 = grade ex03."""
    course = _course()
    targets = _infer_target(submission, targets)
    ids = _targets(course, targets)
    single = len(targets) == 1 and targets != ("all",)
    exercises = [_load(course, i) for i in ids]
    files = _submissions(course, exercises, submission, explicit=bool(targets))
    results = _grade_all(course, [(ex, f, out / ex.spec.id) for ex, f in zip(exercises, files)])
    if as_json:
        if single:
            payload = results[0].to_json()
        else:
            payload = {"score": sum(r.score for r in results),
                       "max_score": sum(r.max_score for r in results),
                       "exercises": [r.to_json() for r in results]}
        click.echo(json.dumps(payload, indent=1, allow_nan=False))
    else:
        for result, path in zip(results, files):
            click.echo(report.exercise(result, course.display(path)) + "\n")
        if not single:
            click.echo(report.summary(results))
    return EXIT_FULL if all(r.full_marks for r in results) else EXIT_NOT_FULL


@cli.command("list")
def list_() -> int:
    """The exercises with titles and points."""
    course = _course()
    for exercise_id in course.ids():
        ex = _load(course, exercise_id).spec
        public = sum(1 for t in ex.tests if t.public)
        click.echo(f"{ex.id}  {report.points(ex.max_score, ex.max_score).split('/')[0]:>3} pts  "
                   f"{len(ex.tests)} tests ({public} public)  {ex.module}.py  {ex.title}")
    return EXIT_FULL


@cli.command("check")
@click.argument("targets", nargs=-1)
@click.option("--out", type=click.Path(path_type=Path), default=Path("grades") / "check",
              show_default=True, help="Where the solutions' diagrams go.")
def check(targets: tuple[str, ...], out: Path) -> int:
    """Instructor's self-test: solutions score full marks, untouched stubs score zero."""
    course = _course()
    missing = [f"{d.name}/" for d in (course.exercises_dir, course.solutions_dir) if not d.is_dir()]
    if missing:
        raise click.UsageError(f"no {' or '.join(missing)} folder in {course.root}: run grade "
                               "check from the course folder")
    exercises = [_load(course, i) for i in _targets(course, targets)]
    graded = _grade_all(
        course,
        [(ex, _file_in(course.solutions_dir, ex), out / ex.spec.id) for ex in exercises]
        + [(ex, _file_in(course.exercises_dir, ex), None) for ex in exercises],
    )
    by_solution, by_stub = graded[: len(exercises)], graded[len(exercises):]
    problems = 0
    for ex, sol, stub in zip(exercises, by_solution, by_stub):
        issues = []
        if not sol.full_marks:
            bad = [f"{t.name}: {t.feedback}" for t in sol.tests if t.status != "passed"]
            issues.append("solution scores " + report.points(sol.score, sol.max_score)
                          + " (" + "; ".join(bad) + ")")
        stub_file = _file_in(course.exercises_dir, ex)
        if not stub_file.is_file():
            issues.append(f"no stub {course.display(stub_file)}")
        elif stub.score != 0 or any(t.status == "timeout" for t in stub.tests):
            issues.append(f"untouched stub scores {report.points(stub.score, stub.max_score)}")
        issues += [f"solution's {n}" for n in sol.notes if n.startswith(("no diagram", "the diag"))]
        hidden = sum(1 for t in ex.spec.tests if not t.public)
        if hidden < 4 or hidden == len(ex.spec.tests):
            issues.append(f"warning: {hidden} hidden and {len(ex.spec.tests) - hidden} public "
                          "tests (want at least 4 hidden and 1 public)")
        problems += sum(1 for i in issues if not i.startswith("warning"))
        verdict = "ok" if not [i for i in issues if not i.startswith("warning")] else "FAIL"
        click.echo(f"{ex.spec.id}  {verdict:4}  solution "
                   f"{report.points(sol.score, sol.max_score):7}  stub "
                   f"{report.points(stub.score, stub.max_score):7}  {ex.spec.title}")
        for issue in issues:
            click.echo(f"      {issue}")
    click.echo(f"{len(exercises)} exercises, {problems} problems")
    return EXIT_FULL if problems == 0 else EXIT_NOT_FULL


@cli.command("expected")
@click.argument("targets", nargs=-1)
@click.option("--public-only", is_flag=True, help="Keep only the public tests (a release).")
@click.option("--to", "to", type=click.Path(path_type=Path), default=None,
              help="Folder for exNN.json (default: the grader's expected/ folder).")
def expected(targets: tuple[str, ...], public_only: bool, to: Path | None) -> int:
    """Write the expected observations from solutions/, for grading without them."""
    course = _course()
    for exercise_id in _targets(course, targets):
        ex = _load(course, exercise_id)
        try:
            answers = course.expected(ex)
        except NoExpected as exc:
            raise click.UsageError(str(exc)) from None
        path = write_shipped(ex, answers, to or course.shipped_dir, public_only)
        click.echo(f"{ex.spec.id}: {len(answers.observations)} tests -> {path}")
    return EXIT_FULL


def main(argv: list[str] | None = None) -> None:
    """Entry point: usage errors are one line on stderr and exit status 2."""
    try:
        code = cli.main(args=argv, prog_name="grade", standalone_mode=False)
    except click.UsageError as exc:
        click.echo(f"grade: {' '.join(exc.format_message().split())}", err=True)
        sys.exit(EXIT_USAGE)
    except click.ClickException as exc:
        click.echo(f"grade: {' '.join(exc.format_message().split())}", err=True)
        sys.exit(EXIT_USAGE)
    except click.Abort:
        click.echo("grade: interrupted", err=True)
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else EXIT_FULL)


from grader import course_cli as _course_cli  # noqa: E402 - grade batch, gradescope, release
_course_cli.register(cli)

if __name__ == "__main__":
    main()
