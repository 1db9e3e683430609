"""The student's commands: ``grade run`` (``grade ex03``) and ``grade list``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from grader.cli import probing
from grader.cli.completion import complete_targets
from grader.cli.shared import (
    EXIT_FULL,
    EXIT_NOT_FULL,
    FOLDER,
    GRADES,
    course_folder,
    course_here,
    grade_all,
    infer_target,
    lang_option,
    load_exercise,
    submissions,
    target_ids,
)
from grader.cli.translated import command, option
from grader.i18n import N_, _
from grader.judge.grading import ExerciseResult
from grader.report import terminal
from grader.report.width import column_width, pad, width
from grader.sandbox import renderer


@command("run", help=N_("Grade exercises (all of them by default): grade run ex03 = grade ex03."))
@click.argument("targets", nargs=-1, shell_complete=complete_targets)
@lang_option
@option("--submission", type=click.Path(path_type=Path),
              help=N_("A file, or a folder handed in (each exercise's file chosen as the course's autograder chooses it), instead of exercises/."))
@option("--json", "as_json", is_flag=True, help=N_("One JSON object on stdout, nothing else."))
@option("--out", type=FOLDER, default=None,
              help=N_("Where diagrams go: FOLDER/ex03/graph.svg (default: the course's grades/)."))
def run(targets: tuple[str, ...], submission: Path | None, as_json: bool, out: Path | None) -> int:
    course = course_here()
    out = out or course_folder(course, GRADES)
    with probing.probing() as probe:
        # The isolation probe's child runs while the exercises load and the renderer starts;
        # its answer is awaited before any child: a root grader that cannot drop says so.
        targets = infer_target(submission, targets)
        ids = target_ids(course, targets)
        single = len(targets) == 1 and targets != ("all",)
        exercises = [load_exercise(course, i) for i in ids]
        files, refused = submissions(course, exercises, submission, explicit=bool(targets))
        out.mkdir(parents=True, exist_ok=True)  # a folder that cannot be made is one line, now
        if any(ex.spec.diagram_probe is not None and f.is_file() for ex, f in zip(exercises, files)):
            renderer.start()  # its start-up overlaps with the submission's child
        chosen = probe.result()
    mode = chosen.mode
    results = grade_all(course, [(ex, f, out / ex.spec.id) for ex, f in zip(exercises, files)], refused)
    if as_json:
        click.echo(json.dumps(json_payload(results, mode), indent=1, allow_nan=False))
    else:
        for result, path in zip(results, files):
            if single or not terminal.not_started(result):  # else one row of the summary
                click.echo(terminal.exercise(result, course.display(path)) + "\n")
        if not single:
            click.echo(terminal.summary(results))
            if any(map(terminal.not_started, results)):
                click.echo("  " + _("not started: {why}", why=_(terminal.UNTOUCHED_SENTENCE)))
        note = terminal.isolation_note(chosen.describe(), mode)
        if note:
            click.echo(note)
    return EXIT_FULL if all(r.full_marks for r in results) else EXIT_NOT_FULL


JSON_FORMAT = 2  # bump when a field changes meaning or goes away


def json_payload(results: list[ExerciseResult], isolation_mode: str) -> dict[str, Any]:
    """``--json``: one shape whether one exercise was graded or several."""
    here = [t for r in results for t in r.graded_here]
    return {"format_version": JSON_FORMAT, "isolation": isolation_mode,
            "score": sum(r.score for r in results),
            "max_score": sum(r.max_score for r in results),
            "graded_here": {"score": sum(t.score for t in here),
                            "max_score": sum(t.max_score for t in here),
                            "all_passed": all(r.full_marks for r in results)},
            # every point, hidden tests included: a release's public tests alone are not full marks
            "full_marks": all(r.score == r.max_score for r in results),
            "exercises": [r.to_json() for r in results]}


@command("list", help=N_("The exercises with titles, points, and how many tests are public and hidden."))
@lang_option
def list_() -> int:
    course = course_here()
    rows = [[_("exercise"), _("points"), _("public"), _("hidden"), _("file"), _("title")]]
    for exercise_id in course.ids():
        ex = load_exercise(course, exercise_id).spec
        worth = ex.max_score + (ex.elsewhere.points if ex.elsewhere else 0)
        rows.append([ex.id, f"{worth:g}", f"{ex.public_count}", f"{ex.hidden_count}",
                     f"{ex.module}.py", _(ex.title)])
    widths = [column_width([r[i] for r in rows]) for i in range(len(rows[0]) - 1)]
    for row in rows:
        click.echo("  ".join(" " * (w - width(c)) + c if c.isdigit() else pad(c, w)
                             for c, w in zip(row, widths)) + "  " + row[-1])
    return EXIT_FULL
