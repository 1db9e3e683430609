"""The grader inside Gradescope: the bundle (``grade gradescope``) and what it runs there.

Gradescope unpacks the bundle into ``/autograder/source``, runs ``setup.sh`` once as root to
build the image, then for every submission runs ``run_autograder`` as root with the student's
files in ``/autograder/submission`` and reads ``/autograder/results/results.json``.  The root is
``$AUTOGRADER_ROOT`` when set, so the whole flow runs locally against a stand-in folder.

Bundle layout::

    setup.sh, run_autograder
    project/             the engine and the grader (pip-installed by setup.sh; no tests)
    secret/tests/        the full test modules          } root-only (0700) on Gradescope
    secret/public/       the public-only test modules   }
    secret/solutions/    the reference solutions        }
    secret/cache/        expected answers, computed by setup.sh (``warm``)
    secret/config.json   the bundle's settings (the diagrams' format)

For each exercise the submission runs twice: once with the public-only test module, whose
results, printed output and diagram (the graph the submission built, an HTML test) students see
at once, and once with the full module, whose hidden results they see after publication.  The first child never holds a hidden probe in memory, and
every public run has ended before the first full run starts (no channel between two live
children can carry a hidden probe into output shown at once), so nothing the submission does
can show a student a hidden test early.  Expected answers come from the bundle's solutions
only, cached in its root-only ``secret/``.

``python -m grader.publish.gradescope run|warm [ROOT]``; only the standard library is needed.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import tempfile
import time
import traceback
import zipfile
from pathlib import Path

from grader.course import intake
from grader.course.catalog import LoadedExercise, find_submission
from grader.course.folder import Course, NamedCourse, in_parallel
from grader.i18n import COURSE_LANGUAGE_FILE, _, choose, language, status_word, test_name
from grader.judge.grading import NOT_GRADED, SYNTAX_ERROR, ExerciseResult, zero
from grader.judge.status import ERROR, PASSED
from grader.publish import gradescope_diagrams as diagrams
from grader.publish import gradescope_results as results_json
from grader.publish.public_tests import public_source
from grader.publish.shipping import project_files
from grader.sandbox import exposure, isolation
from grader.sandbox.launcher import for_this_process, lock_down, running_as_root
from grader.sandbox.run import Spawn, spawn_here

SECRET = "secret"
CONFIG = "config.json"  # the bundle's settings: {"diagrams": "svg" | "png"}
EXECUTABLE = 0o755

SETUP_SH = r"""#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image.
set -euo pipefail
SOURCE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV="$SOURCE/.venv"

pick_python() {
  for candidate in python3.13 python3.12 python3.11 python3; do
    if command -v "$candidate" >/dev/null 2>&1 &&
       "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      command -v "$candidate"
      return 0
    fi
  done
  return 1
}

if ! PYTHON="$(pick_python)"; then
  echo "setup.sh: no Python >= 3.11 on this image; installing python3.11 with apt" >&2
  apt-get update && apt-get install -y python3.11 python3.11-venv
  PYTHON="$(command -v python3.11)"
fi
if ! "$PYTHON" -m venv "$VENV"; then
  apt-get update && apt-get install -y "$(basename "$PYTHON")-venv"
  "$PYTHON" -m venv --clear "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet "$SOURCE/project"

# The unprivileged user the submission's process runs as.
id -u micrograph-student >/dev/null 2>&1 ||
  useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin \
    micrograph-student

# That user may read the engine and the grader; only root may read the tests and solutions.
chmod o+x "$(dirname "$SOURCE")" "$SOURCE"
chmod -R a+rX "$SOURCE/project" "$VENV"
chmod -R go-rwx "$SOURCE/secret"
chmod +x "$SOURCE/run_autograder"

# Run every solution once now (a self-check too), so each submission finds the answers cached.
PYTHONPATH="$SOURCE/project" "$VENV/bin/python" -m grader.publish.gradescope warm "$(dirname "$SOURCE")"
"""

RUN_AUTOGRADER = r"""#!/usr/bin/env bash
# Gradescope runs this for every submission, as root.  It always leaves a valid
# results/results.json behind, even when Python itself cannot start.
ROOT="${AUTOGRADER_ROOT:-/autograder}"
SOURCE="$ROOT/source"
RESULTS="$ROOT/results/results.json"
PYTHON="$SOURCE/.venv/bin/python"
[ -x "$PYTHON" ] || PYTHON="${GRADE_PYTHON:-python3}"
mkdir -p "$ROOT/results"
rm -f "$RESULTS"
PYTHONPATH="$SOURCE/project" "$PYTHON" -m grader.publish.gradescope run "$ROOT"
if [ ! -s "$RESULTS" ]; then
  echo "run_autograder: the grader wrote no results; writing an autograder error" >&2
  cat > "$RESULTS" <<'JSON'
@FALLBACK@
JSON
fi
exit 0
"""

PROJECT_README = """# micrograph (autograder copy)

The engine and the grader, as installed by the Gradescope bundle's setup.sh.  The tests and
the solutions are in ../secret, readable by root only.
"""


class BundleError(Exception):
    """The bundle cannot be built; one line for the user."""


def _add(archive: zipfile.ZipFile, name: str, data: bytes, mode: int = 0o644) -> None:
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
    info.external_attr = (stat.S_IFREG | mode) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    archive.writestr(info, data)


def build_bundle(course: Course, exercises: list[LoadedExercise], out: Path,
                 diagram_format: str = diagrams.SVG) -> list[str]:
    """Write ``autograder.zip``; returns one line per exercise for the user.  Diagrams reach
    students as inline SVG, or as PNG images where the course's Gradescope strips SVG."""
    if diagram_format not in diagrams.FORMATS:
        raise BundleError(_("diagrams are {formats}, not {format}", formats=_(" or ").join(diagrams.FORMATS),
                            format=diagram_format))
    solutions = {}
    for ex in exercises:
        solution = find_submission(course.solutions_dir, ex.spec)
        if solution is None:
            raise BundleError(_("no solution for {id} in {folder}: the bundle needs every solution",
                                id=ex.spec.id, folder=course.solutions_dir))
        solutions[ex.spec.id] = solution
    fallback = json.dumps(results_json.error_results(
        "run_autograder could not start the grader (see the autograder's output)", 0.0))
    lines = []
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.")
    os.close(fd)
    try:
        with zipfile.ZipFile(tmp, "w") as archive:
            _add(archive, "setup.sh", SETUP_SH.encode(), EXECUTABLE)
            _add(archive, "run_autograder", RUN_AUTOGRADER.replace("@FALLBACK@", fallback)
                 .encode(), EXECUTABLE)
            _add(archive, "project/README.md", PROJECT_README.encode())
            _add(archive, f"{SECRET}/{CONFIG}", json.dumps({"diagrams": diagram_format})
                 .encode())
            for relative, path in project_files():
                _add(archive, f"project/{relative.as_posix()}", path.read_bytes())
            _add(archive, f"project/grader/{COURSE_LANGUAGE_FILE}", f"{language()}\n".encode())
            for ex in exercises:
                spec, solution = ex.spec, solutions[ex.spec.id]
                _add(archive, f"{SECRET}/tests/{spec.id}.py", ex.source.encode())
                _add(archive, f"{SECRET}/public/{spec.id}.py",
                     public_source(ex, placeholder=False).encode())
                _add(archive, f"{SECRET}/solutions/{spec.module}.py", solution.read_bytes())
                public = sum(1 for t in spec.tests if t.public)
                lines.append(_("{id}: {count} tests ({public} public), {points} points, solution "
                               "{solution}", id=spec.id, count=len(spec.tests), public=public,
                               points=f"{spec.max_score:g}", solution=solution.name))
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return lines


# --- inside Gradescope ------------------------------------------------------------------


def _courses(root: Path, spawn: Spawn) -> tuple[NamedCourse, NamedCourse]:
    """(full, public-only) courses over the bundle's secret folder, starting children with
    ``spawn``."""
    secret = root / "source" / SECRET
    cache = secret / "cache"
    return (NamedCourse(secret, tests_dir=secret / "tests", cache_dir=cache, spawn=spawn,
                        solutions_only=True),
            NamedCourse(secret, tests_dir=secret / "public", cache_dir=cache, spawn=spawn,
                        solutions_only=True))


def _diagram_format(root: Path) -> str:
    """The bundle's choice of diagram format (SVG when the setting is absent or unreadable)."""
    try:
        chosen = json.loads((root / "source" / SECRET / CONFIG).read_text(encoding="utf-8"))
        return chosen["diagrams"] if chosen.get("diagrams") in diagrams.FORMATS else diagrams.SVG
    except (OSError, ValueError, AttributeError):
        return diagrams.SVG


def _protect(root: Path) -> None:
    """Root-only tests, solutions, cache and results, whatever the unpacking left; refuses
    (``IsolationUnavailable``) when a child could still read them (no Landlock, not root)."""
    (root / "source" / SECRET / "cache").mkdir(parents=True, exist_ok=True)
    lock_down(root / "source" / SECRET)
    results = root / "results"
    results.mkdir(parents=True, exist_ok=True)
    if running_as_root():
        os.chmod(results, stat.S_IRWXU)
    full, public = _courses(root, spawn_here)
    exposure.refuse([root / "source" / SECRET, *full.secrets(), *public.secrets()])


def _load_all(full: Course, public: Course) -> list[tuple[LoadedExercise, LoadedExercise]]:
    ids = full.ids()
    if not ids:
        raise RuntimeError(f"the bundle holds no exercises in {full.tests_dir}")
    return [(full.load(i), public.load(i)) for i in ids]


def _grade(root: Path, started: float) -> dict:
    _protect(root)
    full, public = _courses(root, for_this_process().spawn)
    fmt = _diagram_format(root)
    pairs = _load_all(full, public)
    print(isolation.current().summary())
    with tempfile.TemporaryDirectory(prefix="submission-") as work:
        # the answers first: no solution ever runs beside the submission
        in_parallel([lambda c=c, ex=ex: c.expected(ex)
                     for pair in pairs for c, ex in zip((full, public), pair)])
        found = intake.collect(root / "submission", {ex.spec.id: ex.spec.module for ex, _ in pairs},
                               Path(work), shown="")
        full.shown = public.shown = found.shown
        drawings = Path(work) / "diagrams"
        handed_in = [(ex, pub, found.files[ex.spec.id]) for ex, pub in pairs
                     if ex.spec.id in found.files]
        # every public run ends before any run that loads hidden tests starts: no child whose
        # output students see at once is ever alive beside one holding a hidden probe
        public_results = public.grade_spread([(pub, path, drawings / pub.spec.id)
                                              for _ex, pub, path in handed_in], formats=(fmt,))
        full_results = full.grade_spread([(ex, path, None) for ex, _pub, path in handed_in])
        graded = [results_json.merge(pub_result, full_result, fmt, found.shown[path])
                  for pub_result, full_result, (_ex, _pub, path) in zip(public_results, full_results, handed_in)]
        data = _results(pairs, found, graded, started)  # the diagrams are read in here
    return data


def _results(pairs: list[tuple[LoadedExercise, LoadedExercise]], found: intake.Intake,
             graded_runs: list[results_json.Graded], started: float) -> dict:
    """results.json: the graded exercises in order, a zero with the reason for the others."""
    runs = iter(graded_runs)
    graded = []
    for ex, _public in pairs:
        spec = ex.spec
        if spec.id in found.files:
            graded.append(next(runs))
            continue
        why = (found.error or found.problems.get(spec.id)
               or _("no {file} (or {pattern}) in your submission", file=f"{spec.module}.py",
                    pattern=f"{spec.id}_*.py"))
        graded.append(results_json.Graded(zero(ex, ERROR, why)))
    notes = ([found.error] if found.error else []) + list(found.problems.values()) + found.notes
    _print_summary([g.result for g in graded], notes)
    return results_json.results(graded, execution_time=time.monotonic() - started, notes=notes)


def _print_summary(results: list[ExerciseResult], notes: list[str]) -> None:
    """For the instructor (Gradescope shows run_autograder's output to staff only): per
    exercise its score and time, the layers its child applied (none where no child ran: no
    file), and the tests not passed with their status; a file that did not import (a syntax
    error) or was not graded (missing) is one line saying why, not the same error test by test."""
    for r in results:
        print(_("{exercise}: {score}/{max_score} points in {seconds:.2f} s", exercise=r.exercise,
                score=f"{r.score:g}", max_score=f"{r.max_score:g}", seconds=r.elapsed))
        print("  " + (_("sandbox: {layers}", layers=isolation.layer_names(r.sandbox))
                      if r.sandbox else _("sandbox: no child ran")))
        bad = [_("{test} ({status})", test=test_name(t.name), status=status_word(t.status))
               for t in r.tests if t.status != PASSED]
        if r.flagged:
            print("  " + r.flagged)
        if r.import_failure is not None:  # one reason for every test: said once
            print("  " + _failure_line(r.outcome, r.import_failure))
        elif r.outcome == NOT_GRADED and r.tests:  # no file, no expected answers: one reason
            print("  " + _("not graded: {why}", why=r.tests[0].feedback))
        elif bad:
            print("  " + _("not passed: {tests}", tests="; ".join(bad)))
    for note in notes:
        print(_("note: {note}", note=note))


def _failure_line(outcome: str, why: str) -> str:
    """The staff line for a file that did not import: a syntax error and where, or the error
    its import raised; no test ran."""
    if outcome == SYNTAX_ERROR:
        return _("the file has a syntax error, no test ran: {why}", why=why)
    return _("the file did not import, no test ran: {why}", why=why)


def run(root: Path) -> None:
    """Grade ``root/submission`` into ``root/results/results.json``, whatever happens."""
    started = time.monotonic()
    try:
        choose(None)  # the course's language, fixed by ``grade gradescope --lang``
        data = _grade(root, started)
    except BaseException as exc:  # noqa: BLE001 - the grader's own failure still gets results
        traceback.print_exc(file=sys.stdout)
        data = results_json.error_results(f"{type(exc).__name__}: {exc}",
                                          time.monotonic() - started)
    results_json.write(root / "results" / "results.json", data)


def warm(root: Path) -> int:
    """Compute (and cache) every expected answer; non-zero if a solution fails a test."""
    _protect(root)
    full, public = _courses(root, for_this_process().spawn)
    problems = 0
    for pair in _load_all(full, public):
        for course, ex in zip((full, public), pair):
            expected = course.expected(ex)
            for name, why in expected.broken.items():
                problems += 1
                print(f"{ex.spec.id}: the solution fails {name!r}: {why}")
        print(f"{pair[0].spec.id}: expected answers ready")
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if not args or args[0] not in ("run", "warm") or len(args) > 2:
        print("usage: python -m grader.publish.gradescope run|warm [AUTOGRADER_ROOT]", file=sys.stderr)
        sys.exit(2)
    root = Path(args[1] if len(args) > 1 else os.environ.get("AUTOGRADER_ROOT", "/autograder"))
    if args[0] == "run":
        run(root)
        sys.exit(0)
    sys.exit(warm(root))


if __name__ == "__main__":
    main()
