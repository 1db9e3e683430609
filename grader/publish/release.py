"""``grade release -o DIR``: the folder students get.

It holds the engine, the grader, the stubs, the public tests and a README: no solution, no
hidden test (the README: ``grader.publish.readme``).  A release of the build track alone
(ex16-ex22) holds micrograph's core without its code (``grader.publish.core_cut``): the student
is writing that engine.  The test modules are rewritten to their public tests
(``grader.publish.public_tests``), each with one placeholder line standing for the hidden tests;
the expected answers of the public tests are computed here from the solutions and shipped
(``grade expected --public-only``'s format), so the release grades without solutions.  In the
release, ``grade ex03`` runs the public tests and its table says that the hidden tests run only
on the course autograder, with their points counted as not earned: passing the public tests
never looks like full marks.

Before writing anything, every stub is graded with all the tests and compared with its
solution: a stub that scores points, or holds a line of its solution's answer
(``grader.publish.leaks``), stops the release (``UnsafeStubs``, one sentence per exercise);
there is no way to force it.  After writing, the builder checks its own output: no hidden
test's name or feedback and no line of a solution's answer may appear in any file of DIR.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from grader.course import catalog
from grader.course.catalog import LoadedExercise, find_submission
from grader.course.folder import Course
from grader.i18n import _, language
from grader.judge.reference import from_solutions, write_shipped
from grader.judge.replayed import write_references
from grader.publish.core_cut import CUT_FROM, cut_core
from grader.publish.leaks import copied_lines, skeleton, solution_only
from grader.publish.localize import hidden_texts, ship_catalogue, stub_source, translations
from grader.publish.notebooks import write_notebooks
from grader.publish.public_tests import public_source
from grader.publish.readme import student_readme
from grader.publish.shipping import copy_project, project_files, project_texts
from grader.spec.build_checks import STAGE_IDS

MIN_LEAK_TEXT = 24  # shorter strings could appear in a stub by coincidence


class ReleaseError(Exception):
    """The release cannot be built; one line for the user."""


class UnsafeStubs(Exception):
    """Some stubs are not safe to hand out: one sentence per offending exercise."""

    def __init__(self, sentences: list[str]) -> None:
        super().__init__("\n".join(sentences))
        self.sentences = sentences


def build_only(exercises: list[LoadedExercise]) -> bool:
    """Whether the release holds build-track stages alone, whose engine is the student's to write."""
    return bool(exercises) and all(ex.spec.id in STAGE_IDS for ex in exercises)


def shipped_engine(cut: bool) -> list[str]:
    """The engine's and grader's texts a student gets anyway; with ``cut``, without the core
    modules a build-only release ships cut, whose lines are then the answers they were."""
    left_out = {Path("micrograph", f"{module}.py") for module in CUT_FROM} if cut else set()
    return [path.read_bytes().decode("utf-8", "replace")
            for relative, path in project_files() if relative not in left_out]


def _texts(folder: Path) -> list[tuple[Path, str]]:
    texts = []
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            texts.append((path, path.read_bytes().decode("utf-8", "replace")))
    return texts


def secret_strings(exercises: list[tuple[LoadedExercise, Path, Path]], engine: list[str],
                   public_modules: list[str]) -> list[str]:
    """Texts that must never ship, for (exercise, solution, stub) triples, each long enough
    not to occur by chance: hidden tests' names and feedback (unless a stub, a public test or
    the engine and grader say the same), and the lines of a solution's answer, which the
    stub's skeleton does not have (unless a public test module or the engine has them too:
    the engine implements what some exercises rebuild)."""
    hidden, solution_lines, stubs, public_words = [], [], [], []
    skeletons: list[str] = []
    for ex, solution, stub in exercises:
        stubs.append(stub.read_text(encoding="utf-8"))
        for test in ex.spec.tests:
            texts = [test.name, test.feedback, *test.key_feedback.values()]
            (public_words if test.public else hidden).extend(texts)
        answer = solution.read_text(encoding="utf-8")
        solution_lines += solution_only(answer, stubs[-1])
        skeletons.append("\n".join(skeleton(stubs[-1], answer)))

    def secret(text: str, known: list[str]) -> bool:
        return len(text) >= MIN_LEAK_TEXT and not any(text in k for k in known)

    return ([t for t in dict.fromkeys(hidden) if secret(t, stubs + public_words + engine)]
            + [t for t in dict.fromkeys(solution_lines)
               if secret(t, skeletons + public_modules + engine)])


def check_no_leak(folder: Path, secrets: list[str]) -> None:
    """Raise ReleaseError naming the first secret found in a file under ``folder``."""
    for path, text in _texts(folder):
        for secret in secrets:
            if secret in text:
                raise ReleaseError(_("{path} contains hidden text ({secret}): not releasing",
                                     path=path, secret=repr(secret[:60])))


def check_stubs(course: Course, exercises: list[LoadedExercise],
                found: dict[str, tuple[Path, Path]]) -> None:
    """Grade every stub with all its tests and compare it with its solution; raise UnsafeStubs
    unless each scores zero and holds no line of its solution's answer."""
    results = course.grade_spread([(ex, found[ex.spec.id][1], None) for ex in exercises])
    engine = project_texts()
    sentences = []
    for ex, result in zip(exercises, results):
        solution, stub = found[ex.spec.id]
        shown = course.display(stub)
        copied = copied_lines(stub.read_text(encoding="utf-8"),
                              solution.read_text(encoding="utf-8"), engine)
        scored = result.score != 0
        fields = {"id": ex.spec.id, "file": shown, "points": f"{result.score:g}/{result.max_score:g}",
                  "count": len(copied), "line": repr(copied[0]) if copied else ""}
        if scored and copied:
            sentences.append(_.n("{id}: {file} scores {points} and has {count} line of its solution (such as "
                                 "{line}): put the untouched stub back.",
                                 "{id}: {file} scores {points} and has {count} lines of its solution (such as "
                                 "{line}): put the untouched stub back.", len(copied), **fields))
        elif scored:
            sentences.append(_("{id}: {file} scores {points} where an untouched stub scores 0: put the "
                               "untouched stub back.", **fields))
        elif copied:
            sentences.append(_.n("{id}: {file} has {count} line of its solution (such as {line}): put the "
                                 "untouched stub back.",
                                 "{id}: {file} has {count} lines of its solution (such as {line}): put the "
                                 "untouched stub back.", len(copied), **fields))
    if sentences:
        raise UnsafeStubs(sentences)


def build_release(course: Course, exercises: list[LoadedExercise], out: Path, *,
                  notebooks: bool = False) -> list[str]:
    """Write the release into ``out`` (absent or empty); one line per exercise for the user.
    ``notebooks``: also ``notebooks/exNN_<topic>.ipynb`` (``grader.publish.notebooks``)."""
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ReleaseError(_("{path} exists and is not empty: choose a new folder", path=out))
    found = {}
    for ex in exercises:
        solution = find_submission(course.solutions_dir, ex.spec)
        stub = find_submission(course.exercises_dir, ex.spec)
        if solution is None or stub is None:
            missing = _("solution") if solution is None else _("stub")
            raise ReleaseError(_("no {missing} for {id} ({file})", missing=missing, id=ex.spec.id,
                                 file=f"{ex.spec.module}.py"))
        found[ex.spec.id] = (solution, stub)
    check_stubs(course, exercises, found)
    out.mkdir(parents=True, exist_ok=True)
    try:
        lines = _write_release(course, exercises, found, out, notebooks)
        if notebooks:
            written = write_notebooks(out, exercises)
            lines.append(_("notebooks: {paths}", paths=", ".join(written)))
        public_modules = [p.read_text(encoding="utf-8")
                          for p in (out / "grader" / "exercises").glob("ex*.py")]
        engine = shipped_engine(build_only(exercises))
        secrets = secret_strings([(ex, *found[ex.spec.id]) for ex in exercises], engine,
                                 public_modules)
        check_no_leak(out, secrets + translations(hidden_texts(exercises), "zh"))
    except BaseException:
        shutil.rmtree(out, ignore_errors=True)
        raise
    return lines


def _public_module(ex: LoadedExercise, tests_dir: Path) -> LoadedExercise:
    """``ex``'s public tests, written into ``tests_dir`` and loaded from there (the course's
    own module stays the one imported under its name)."""
    (tests_dir / f"{ex.spec.id}.py").write_text(public_source(ex, placeholder=True), encoding="utf-8")
    previous = sys.modules.get(ex.module_name)
    try:
        return catalog.load(ex.spec.id, tests_dir)
    finally:
        if previous is not None:
            sys.modules[ex.module_name] = previous


def _write_release(course: Course, exercises: list[LoadedExercise],
                   found: dict[str, tuple[Path, Path]], out: Path, notebooks: bool) -> list[str]:
    copy_project(out)
    if build_only(exercises):
        cut_core(out / "micrograph")
    ship_catalogue(out / "grader", hidden_texts(exercises), language())
    tests_dir = out / "grader" / "exercises"
    expected_dir = tests_dir / "expected"
    lines = []
    publics = [_public_module(ex, tests_dir) for ex in exercises]
    solved = from_solutions([(public, found[public.spec.id][0]) for public in publics],
                            course.cache_dir, spawn=course.spawn)
    for ex, public, answers in zip(exercises, publics, solved):
        spec = ex.spec
        stub = found[spec.id][1]
        broken = {k: v for k, v in answers.broken.items() if k in {t.name for t in spec.tests}}
        if broken:
            raise ReleaseError(_("{id}: the solution fails public tests: {broken}", id=spec.id, broken=broken))
        write_shipped(public, answers, expected_dir, public_only=True)
        (out / "exercises").mkdir(exist_ok=True)
        (out / "exercises" / stub.name).write_text(
            stub_source(stub, course.exercises_dir, language()), encoding="utf-8")
        public_tests = [t for t in spec.tests if t.public]
        lines.append(_.n("{id}: {count} public test ({points} of {total} points), stub {stub}",
                         "{id}: {count} public tests ({points} of {total} points), stub {stub}",
                         len(public_tests), id=spec.id, count=len(public_tests),
                         points=f"{sum(t.points for t in public_tests):g}",
                         total=f"{spec.max_score:g}", stub=stub.name))
    if build_only(exercises):
        write_references([ex.spec.id for ex in exercises], expected_dir)
    # Loading the public modules above compiled them into tests_dir/__pycache__ (where Python
    # writes bytecode): a release ships sources only, as copy_project does.
    shutil.rmtree(tests_dir / "__pycache__", ignore_errors=True)
    (out / "README.md").write_text(student_readme(exercises, notebooks), encoding="utf-8")
    return lines
