"""The student's commands: ``grade run`` (``grade ex03``) and ``grade list``."""

from __future__ import annotations

import json
from pathlib import Path

import click

from grader.cli.shared import (
    EXIT_FULL,
    EXIT_NOT_FULL,
    course_here,
    grade_all,
    infer_target,
    load_exercise,
    submissions,
    target_ids,
)
from grader.report import terminal
from grader.sandbox import isolation


@click.command("run")
@click.argument("targets", nargs=-1)
@click.option("--submission", type=click.Path(path_type=Path),
              help="A file, or a folder of exNN_*.py files, instead of exercises/.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout, nothing else.")
@click.option("--out", type=click.Path(path_type=Path), default=Path("grades"),
              show_default=True, help="Where diagrams go (DIR/ex03/graph.svg).")
def run(targets: tuple[str, ...], submission: Path | None, as_json: bool, out: Path) -> int:
    """Grade exercises (all of them by default): grade run ex03 = grade ex03."""
    course = course_here()
    mode = isolation.current().mode  # before any child: a root grader that cannot drop says so
    targets = infer_target(submission, targets)
    ids = target_ids(course, targets)
    single = len(targets) == 1 and targets != ("all",)
    exercises = [load_exercise(course, i) for i in ids]
    files = submissions(course, exercises, submission, explicit=bool(targets))
    results = grade_all(course, [(ex, f, out / ex.spec.id) for ex, f in zip(exercises, files)])
    if as_json:
        if single:
            payload = results[0].to_json()
        else:
            payload = {"score": sum(r.score for r in results),
                       "max_score": sum(r.max_score for r in results),
                       "exercises": [r.to_json() for r in results]}
        payload["isolation"] = mode
        click.echo(json.dumps(payload, indent=1, allow_nan=False))
    else:
        for result, path in zip(results, files):
            click.echo(terminal.exercise(result, course.display(path)) + "\n")
        if not single:
            click.echo(terminal.summary(results))
    return EXIT_FULL if all(r.full_marks for r in results) else EXIT_NOT_FULL


@click.command("list")
def list_() -> int:
    """The exercises with titles and points."""
    course = course_here()
    for exercise_id in course.ids():
        ex = load_exercise(course, exercise_id).spec
        public = sum(1 for t in ex.tests if t.public)
        click.echo(f"{ex.id}  {terminal.points(ex.max_score, ex.max_score).split('/')[0]:>3} pts  "
                   f"{len(ex.tests)} tests ({public} public)  {ex.module}.py  {ex.title}")
    return EXIT_FULL
