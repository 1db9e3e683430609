"""What the ``grade`` commands share: the course they work on, the exercises they name, the
files they grade, and the exit statuses."""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from pathlib import Path

import click

from micrograph.i18n import LANGUAGES, LanguageError

from grader.cli.translated import option
from grader.course.catalog import CatalogError, LoadedExercise, parse_id, submission_candidates
from grader.course.folder import Course, find_root
from grader.course.intake import collect, exercise_of, notepad_named
from grader.i18n import N_, _, choose
from grader.judge.grading import ExerciseResult, zero
from grader.judge.status import ERROR

EXIT_FULL, EXIT_NOT_FULL, EXIT_USAGE = 0, 1, 2


class _Folder(click.ParamType):
    """A folder to write into: absent (it is created) or a folder, never a file."""

    name = "folder"

    def convert(self, value: object, param: click.Parameter | None,
                ctx: click.Context | None) -> Path:
        path = Path(str(value))
        if path.exists() and not path.is_dir():
            self.fail(_("{path} is a file, not a folder", path=path), param, ctx)
        return path


class _OutputFile(click.ParamType):
    """A file to write: absent or a file, never a folder."""

    name = "file"

    def convert(self, value: object, param: click.Parameter | None,
                ctx: click.Context | None) -> Path:
        path = Path(str(value))
        if path.is_dir():
            self.fail(_("{path} is a folder: give the name of the file to write", path=path), param, ctx)
        return path


FOLDER, OUTPUT_FILE = _Folder(), _OutputFile()


def _set_language(ctx: click.Context, param: click.Parameter, value: str | None) -> str:
    try:
        return choose(value)
    except LanguageError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None


lang_option = option(
    "--lang", type=click.Choice(LANGUAGES), default=None, is_eager=True, expose_value=False,
    callback=_set_language,
    help=N_("Language of everything shown: zh or en (default: MICROGRAPH_LANG, the course's, the locale)."),
)


def course_here() -> Course:
    """The course the current folder lies in (``find_root``: the course folder or one inside
    it); ``GRADE_TESTS_DIR`` / ``GRADE_EXPECTED_DIR`` point at other test modules / expected
    observations (a release, a bundle, the grader's own tests)."""
    course = Course(find_root(Path.cwd()))
    if os.environ.get("GRADE_TESTS_DIR"):
        course.tests_dir = Path(os.environ["GRADE_TESTS_DIR"])
    if os.environ.get("GRADE_EXPECTED_DIR"):
        course.shipped_dir = Path(os.environ["GRADE_EXPECTED_DIR"])
    return course


GRADES = "grades"  # the course's folder for diagrams, when --out does not name one


def course_folder(course: Course, *parts: str) -> Path:
    """A folder of the course as a path from the current folder (``grades`` in the course
    folder, ``../grades`` from ``exercises/``), so the paths printed work where they are read."""
    folder = course.root.joinpath(*parts)
    try:
        return Path(os.path.relpath(folder))
    except ValueError:  # on another Windows drive: no relative path leads there
        return folder


def load_exercise(course: Course, exercise_id: str) -> LoadedExercise:
    try:
        return course.load(exercise_id)
    except CatalogError as exc:
        raise click.UsageError(str(exc)) from None


def target_ids(course: Course, targets: tuple[str, ...]) -> list[str]:
    """Exercise ids named on the command line; all of them for none or ``all``."""
    if not targets or targets == ("all",):
        ids = course.ids()
        if not ids:
            raise click.UsageError(_("no exercises found in {folder}", folder=course.tests_dir))
        return ids
    try:
        return list(dict.fromkeys(parse_id(t) for t in targets))
    except CatalogError as exc:
        raise click.UsageError(str(exc)) from None


def submissions(course: Course, exercises: list[LoadedExercise], submission: Path | None,
                 explicit: bool) -> tuple[list[Path], dict[str, str]]:
    """The file to grade for each exercise (a missing one is graded as zero, unless it is the
    only exercise named: that is a usage error), and, by exercise, why a folder handed in gets
    an exercise zero where the course's autograder would (``_as_handed_in``)."""
    if submission is not None and not submission.exists():
        raise click.UsageError(_("no such file or folder: {path}", path=submission))
    if submission is not None and submission.is_file():
        if len(exercises) != 1:
            raise click.UsageError(_("--submission FILE grades one exercise: name it, "
                                     "e.g. grade ex03 --submission FILE"))
        other = _named_for(submission)
        if other is not None and other != exercises[0].spec.id:  # ex04's file handed to grade ex03
            raise click.UsageError(_("{name} is exercise {other}'s file, not {id}'s: grade {other} --submission FILE "
                                     "grades it", name=submission.name, other=other, id=exercises[0].spec.id))
        return [submission], {}
    folder = submission or course.exercises_dir
    if not folder.is_dir():
        raise click.UsageError(_("no exercises/ folder in {folder}: run grade from the "
                                 "course folder, or pass --submission PATH", folder=course.root))
    chosen, refused = _as_handed_in(course, submission, exercises) if submission is not None else ({}, {})
    # an exercise refused is shown as the folder handed in: its file may lie deeper, or be the folder's own
    found = [chosen.get(ex.spec.id) or (folder if ex.spec.id in refused else file_in(folder, ex)) for ex in exercises]
    if explicit and len(exercises) == 1 and not found[0].is_file() and not refused:
        why = misnamed(folder, exercises[0])
        raise click.UsageError(_("missing file {path}: {why}", path=course.display(found[0]), why=why) if why
                               else _("missing file {path}", path=course.display(found[0])))
    for ex, path in zip(exercises, found) if submission is None else ():  # else the intake said it
        others = [p.name for p in submission_candidates(folder, ex.spec, every=True) if p != path]
        if path.is_file() and others:  # a notebook beside the .py, a second download: not what was graded
            click.echo(_("{id}: grading {name}; not graded: {others} (grade {id} --submission FILE grades "
                         "another)", id=ex.spec.id, name=path.name, others=", ".join(others)), err=True)
    return found, refused


SUBMITTED = (".py", ".ipynb")  # the kinds of file a student hands in


def _as_handed_in(course: Course, folder: Path, exercises: list[LoadedExercise]
                  ) -> tuple[dict[str, Path], dict[str, str]]:
    """The file of each exercise in a folder passed as ``--submission``, chosen as the course's
    autograder chooses it in a hand-in (``intake.collect``: at any depth, a near-miss name such as
    ``ex5_accumulation.py``, a notebook rather than the untouched stub beside it), so that the
    grade here is the grade there; what it found besides is said, first why the autograder
    would score a file, or the whole folder, zero (``Intake.problems``, ``Intake.error``).  Those
    exercises come back with that reason, to be graded zero: the file it refused (too large, not
    UTF-8) and, where the whole folder is refused (too many files), the exercise's file in the
    folder itself.  An exercise it finds no file for is left out (the folder's own file names are
    then told, ``misnamed``)."""
    workdir = click.get_current_context().with_resource(tempfile.TemporaryDirectory(prefix="grade-submission-"))
    intake = collect(folder, {ex.spec.id: ex.spec.module for ex in exercises}, Path(workdir),
                     shown=course.display(folder))
    refused = dict(intake.problems)
    if intake.error:  # said where it refuses a file; else the exercise's missing file is told
        refused.update((ex.spec.id, intake.error) for ex in exercises if file_in(folder, ex).is_file())
    errors = [intake.error] if intake.error and len(refused) > len(intake.problems) else []
    for note in errors + list(intake.problems.values()) + intake.notes:
        click.echo(note, err=True)
    return intake.files, refused


def misnamed(folder: Path, ex: LoadedExercise) -> str:
    """Why no file in ``folder`` is ``ex``'s, where a file there looks like one: another
    exercise's file (``ex04_retain_graph.py``), or one named for ``ex`` without the ``exNN_``
    the grader looks for (``ex03 (1).py``, a browser's second download), or one with a second
    ending after ``.py`` (``ex03_retain_grad.py.txt``, as Notepad saves it); "" if none does."""
    said = [_("{name} ends in {suffix} after {inner}, so it is not looked at (Notepad adds {suffix}, and Windows "
              "hides it): rename it {right}", name=path.name, suffix=path.suffix, inner=Path(path.stem).suffix,
              right=path.stem) for path in notepad_named(folder) if exercise_of(path.stem) == ex.spec.id]
    for path in sorted(p for p in folder.iterdir() if p.suffix in SUBMITTED and p.is_file()):
        other = _named_for(path)
        if other is not None and other != ex.spec.id:
            said.append(_("{name} is exercise {other}'s file, not {id}'s", name=path.name, other=other, id=ex.spec.id))
        elif other is None and path.stem.lower().startswith(ex.spec.id):
            said.append(_("{name} does not start with {id}_, so it is not looked at: rename it {module}{suffix}",
                          name=path.name, id=ex.spec.id, module=ex.spec.module, suffix=path.suffix))
    return "; ".join(said)


def file_in(folder: Path, ex: LoadedExercise) -> Path:
    """The exercise's file in ``folder``, or the path where it should be; several candidates
    are a usage error (grading one of them at random would be wrong)."""
    candidates = submission_candidates(folder, ex.spec)
    if len(candidates) > 1:
        names = ", ".join(c.name for c in candidates)
        raise click.UsageError(_("cannot tell which file in {folder} is {id}: {names} "
                                 "(keep one, or name it: grade {id} --submission FILE)",
                                 folder=folder, id=ex.spec.id, names=names))
    return candidates[0] if candidates else folder / f"{ex.spec.module}.py"


def infer_target(submission: Path | None, targets: tuple[str, ...]) -> tuple[str, ...]:
    """``grade --submission ex03_foo.py`` names exercise 3 by the file name."""
    if targets or submission is None or not submission.is_file():
        return targets
    try:
        return (parse_id(submission.name.split("_")[0]),)
    except CatalogError:
        raise click.UsageError(_("cannot tell the exercise from {name}: name it, "
                                 "e.g. grade ex03 --submission FILE", name=submission.name)) from None


def grade_all(course: Course, jobs: list[tuple[LoadedExercise, Path, Path | None]],
              refused: dict[str, str] | None = None) -> list[ExerciseResult]:
    """Grade (exercise, file, diagram folder) jobs (``Course.grade_spread``), in order, but an
    exercise ``refused`` names, which scores zero for the reason it gives; whatever the renderer
    prints goes to stderr, keeping stdout clean."""
    refused = refused or {}
    with contextlib.redirect_stdout(sys.stderr):
        graded = iter(course.grade_spread([job for job in jobs if job[0].spec.id not in refused]))
    return [zero(ex, ERROR, refused[ex.spec.id]) if ex.spec.id in refused else next(graded) for ex, _f, _d in jobs]


def _named_for(path: Path) -> str | None:
    """The exercise a file's name starts with (``ex04`` for ``ex04_retain_graph.py``), if any."""
    try:
        return parse_id(path.name.split("_")[0]) if "_" in path.name else None
    except CatalogError:
        return None
