"""Expected observations: the probes run on the reference solution, cached; or a shipped file.

Where they come from, in order:

1. ``solutions/<module>.py`` in the course folder: run in the sandbox like any submission.  The
   result is cached under ``cache_dir`` keyed by the hashes of the test module, the solution,
   every ``micrograph`` source file and every file of the code that runs in the child
   (``grader/sandbox/child/`` and ``grader/spec/``), so an unchanged exercise is
   never re-run and any change is picked up.
2. ``<shipped_dir>/exNN.json`` (``grade expected`` writes it; a student release ships it with only
   the public tests): used when no solution is present, if it was made from this very test
   module (same hash).

A probe that raises or never reports on the reference solution makes that test *broken*: it is
the instructor's bug, reported as such and caught by ``grade check``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import micrograph

import grader.sandbox.child
import grader.spec
from grader.course import catalog
from grader.course.catalog import LoadedExercise, find_submission
from grader.i18n import _
from grader.judge import explain
from grader.sandbox.run import ChildReport, Spawn, spawn_here
from grader.sandbox.session import Run, run_children

FORMAT = 1
DEFAULT_SHIPPED_DIR = catalog.DEFAULT_TESTS_DIR / "expected"
_CHILD_SIDE = (grader.sandbox.child, grader.spec)  # the packages whose code runs in the child


class NoExpected(Exception):
    """No way to know the expected observations; the message is one line for the user."""


@dataclass
class Expected:
    """Expected observations per test name, the tests the reference could not pass, the origin."""

    observations: dict[str, Any]
    broken: dict[str, str] = field(default_factory=dict)
    origin: str = "solution"


def default_cache_dir() -> Path:
    """``$GRADE_CACHE_DIR``, else ``$XDG_CACHE_HOME/micrograph-grade``, else ``~/.cache/...``."""
    if os.environ.get("GRADE_CACHE_DIR"):
        return Path(os.environ["GRADE_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "micrograph-grade"


def sha256(text: str | bytes) -> str:
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()


@functools.lru_cache(maxsize=1)
def _code_hash() -> str:
    """Hash of everything besides the test module and solution that shapes observations."""
    digest = hashlib.sha256(sys.version.encode())
    engine = Path(micrograph.__file__).parent
    files = sorted(engine.rglob("*.py"))
    for package in _CHILD_SIDE:
        files += sorted(Path(package.__file__).parent.rglob("*.py"))
    for path in files:
        digest.update(str(path.relative_to(path.parents[1])).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def _write_atomic(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` whole or not at all, its keys in the probe's order: the feedback tells
    differences in that order (a cause before what follows from it), read back from here too."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        json.dump(data, handle, indent=1)
    os.replace(tmp, path)


def _read(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if type(data) is dict and data.get("format") == FORMAT else None


def from_solution(ex: LoadedExercise, solution: Path, cache_dir: Path | None, *,
                  spawn: Spawn = spawn_here) -> Expected:
    """Run every probe on ``solution`` (or reuse the cached run); ``spawn`` starts the child."""
    return from_solutions([(ex, solution)], cache_dir, spawn=spawn)[0]


def from_solutions(jobs: list[tuple[LoadedExercise, Path]], cache_dir: Path | None, *,
                   spawn: Spawn = spawn_here) -> list[Expected]:
    """``from_solution`` of each (exercise, solution), in order.  The runs not cached share
    one child where the system allows it (``grader.sandbox.session``): a child's start,
    imports and isolation cost more than most solutions' probes."""
    keys = [sha256(ex.source + "\0" + sha256(solution.read_bytes()) + "\0" + _code_hash())
            for ex, solution in jobs]
    found: list[Expected | None] = [_cached(ex, key, cache_dir) for (ex, _), key in zip(jobs, keys)]
    missing = [i for i, expected in enumerate(found) if expected is None]
    reports = run_children([Run(solution, ex.spec.module, ex.module_name, ex.source,
                                [t.name for t in ex.spec.tests], ex.spec.limits, diagram=False)
                            for ex, solution in (jobs[i] for i in missing)], spawn)
    for i, report in zip(missing, reports):
        found[i] = _observed(*jobs[i], report, keys[i], cache_dir)
    return [expected for expected in found if expected is not None]


def _cache_file(ex: LoadedExercise, key: str, cache_dir: Path) -> Path:
    return cache_dir / f"{ex.spec.id}-{key[:24]}.json"


def _cached(ex: LoadedExercise, key: str, cache_dir: Path | None) -> Expected | None:
    data = _read(_cache_file(ex, key, cache_dir)) if cache_dir else None
    if data is not None and data.get("key") == key:
        return Expected(data["observations"], data["broken"], "cache")
    return None


def _observed(ex: LoadedExercise, solution: Path, report: ChildReport, key: str,
              cache_dir: Path | None) -> Expected:
    """The expected observations the solution's run reported, cached unless a test broke."""
    spec = ex.spec
    expected = Expected({}, {}, "solution")
    for test in spec.tests:
        record = report.tests.get(test.name)
        if report.import_error is not None:
            why = explain.import_error(report.import_error, str(solution), spec.limits)
            expected.broken[test.name] = why
        elif record is None:
            expected.broken[test.name] = explain.silence(report, test.name)[1]
        elif record["error"] is not None:
            why = explain.test_error(record["error"], str(solution), spec.limits)
            expected.broken[test.name] = why
        else:
            expected.observations[test.name] = record["obs"]
    if cache_dir is not None and not expected.broken:  # a broken run is retried next time
        _write_atomic(_cache_file(ex, key, cache_dir),
                      {"format": FORMAT, "exercise": spec.id, "key": key,
                       "observations": expected.observations, "broken": expected.broken})
    return expected


def from_shipped(ex: LoadedExercise, shipped_dir: Path) -> Expected | None:
    """The shipped observations for exactly this test module, or None."""
    data = _read(shipped_dir / f"{ex.spec.id}.json")
    if data is None or data.get("tests_sha256") != sha256(ex.source):
        return None
    return Expected(data["observations"], data.get("broken", {}), "shipped")


def write_shipped(ex: LoadedExercise, expected: Expected, shipped_dir: Path,
                  public_only: bool) -> Path:
    """Write ``shipped_dir/exNN.json`` for a release (only public tests when asked)."""
    keep = {t.name for t in ex.spec.tests if t.public or not public_only}
    path = shipped_dir / f"{ex.spec.id}.json"
    _write_atomic(path, {
        "format": FORMAT, "exercise": ex.spec.id, "tests_sha256": sha256(ex.source),
        "observations": {k: v for k, v in expected.observations.items() if k in keep},
        "broken": {k: v for k, v in expected.broken.items() if k in keep},
    })
    return path


def expected_for(ex: LoadedExercise, *, solutions_dir: Path | None, cache_dir: Path | None,
                 shipped_dir: Path = DEFAULT_SHIPPED_DIR, spawn: Spawn = spawn_here) -> Expected:
    """The expected observations for ``ex``; raises NoExpected when there is no source."""
    solution = find_submission(solutions_dir, ex.spec) if solutions_dir else None
    if solution is not None:
        return from_solution(ex, solution, cache_dir, spawn=spawn)
    shipped = from_shipped(ex, shipped_dir)
    if shipped is not None:
        return shipped
    raise NoExpected(_("no solutions/{file} and no up-to-date {shipped} to grade {id} against",
                       file=f"{ex.spec.module}.py", shipped=f"{shipped_dir.name}/{ex.spec.id}.json",
                       id=ex.spec.id))
