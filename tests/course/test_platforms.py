"""macOS and Windows, simulated on Linux: a grader interpreter whose ``sitecustomize`` makes
it look like one of them, and which must start, say ``limits only`` in ``--version`` and in
its report, and grade a real exercise to full marks.

* macOS: ``sys.platform`` is ``darwin``; the POSIX modules (``resource``, ``fcntl``, ``pwd``)
  are there, as on a Mac.
* Windows: ``sys.platform`` is ``win32``; the POSIX-only modules (``pwd``, ``grp``,
  ``resource``, ``fcntl``, ``termios``) cannot be imported and the POSIX-only functions the
  grader could reach for (``os.killpg``, ``os.setsid``, ``os.geteuid`` ...) are gone, so the
  grader takes Windows' path: pipes read by threads, the records on the child's stdout, no
  session, the child killed alone (``grader.sandbox.pipes``).  ``subprocess`` and ``click``
  are imported before the platform changes (they decide at import which system's code to
  load, and the Windows code cannot run here).

The children start with ``python -I``, outside the simulation: this tests the grader's side,
and that the child's modules import without ``resource``.  The same Windows path is also run
unsimulated with ``GRADE_PIPES=threads`` (last test, and tests/grader/test_pipes.py).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MACOS = '''
import sys
sys.platform = "darwin"
'''
WINDOWS = '''
import os, signal, subprocess, sys
import click, click.testing
BLOCKED = {"pwd", "grp", "resource", "fcntl", "termios"}
class _Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
for _name in BLOCKED:
    sys.modules.pop(_name, None)
sys.meta_path.insert(0, _Block())
for _name in ("killpg", "setsid", "getpgid", "getuid", "geteuid", "getgid", "getegid",
              "fchown", "chown"):
    if hasattr(os, _name):
        delattr(os, _name)
for _name in ("SIGALRM", "setitimer", "ITIMER_REAL"):
    if hasattr(signal, _name):
        delattr(signal, _name)
sys.platform = "win32"
'''
SYSTEMS = [pytest.param(MACOS, "macOS", "pipes: selectors", id="macOS"),
           pytest.param(WINDOWS, "Windows", "pipes: threads", id="Windows")]


def simulated(tmp_path: Path, site: str, code: str, **env: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "sitecustomize.py").write_text(site)
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(REPO)]),
                   "GRADE_CACHE_DIR": str(tmp_path / "cache"), **env}
    if site == MACOS:  # root on a Mac is still root: the explicit opt-in to limits only
        environment["GRADE_ISOLATION"] = "limits-only"
    environment.pop("GRADE_PIPES", None)
    return subprocess.run([sys.executable, "-c", code], cwd=REPO, env=environment,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture
def answered(cache: Path, tmp_path: Path) -> Path:
    """``tmp_path/cache``, the grader's cache of a test here: a copy of the run's answers
    (tests/conftest.py), so that no solution runs again."""
    return Path(shutil.copytree(cache, tmp_path / "cache"))


def test_the_windows_simulation_blocks_the_posix_modules(tmp_path: Path) -> None:
    done = simulated(tmp_path, WINDOWS,
                     "import os, signal, sys\ntry:\n import resource\nexcept ImportError:\n"
                     " print('blocked', sys.platform, hasattr(os, 'killpg'), "
                     "hasattr(signal, 'SIGALRM'))")
    assert done.stdout.strip() == "blocked win32 False False", done.stderr


@pytest.mark.parametrize(("site", "system", "pipes"), SYSTEMS)
def test_grade_starts_and_says_limits_only(tmp_path: Path, site: str, system: str,
                                           pipes: str) -> None:
    done = simulated(tmp_path, site, "from grader.cli.app import main; main(['--version'])")
    assert done.returncode == 0, done.stderr
    assert f"isolation: limits only ({system}:" in done.stdout
    assert done.stdout.rstrip().endswith(pipes)


def test_the_child_side_imports_without_resource(tmp_path: Path) -> None:
    done = simulated(tmp_path, WINDOWS,
                     "import grader.sandbox.child.main, grader.sandbox.renderer\n"
                     "from grader.sandbox.child.confine import limit_resources\n"
                     "from grader.spec.limits import Limits\n"
                     "print(limit_resources(Limits()))")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(("site", "system", "pipes"), SYSTEMS)
@pytest.mark.usefixtures("answered")
def test_grade_grades_and_reports_the_mode(tmp_path: Path, site: str, system: str,
                                           pipes: str) -> None:
    done = simulated(tmp_path, site, "from grader.cli.app import main\n"
                     "main(['ex03', '--submission', 'solutions/ex03_retain_grad.py', "
                     f"'--out', {str(tmp_path / 'g')!r}])")
    assert "total: " in done.stdout, done.stderr
    total = done.stdout.split("total: ")[1].split()[0]
    assert total.split("/")[0] == total.split("/")[1], done.stdout
    assert f"isolation: limits only ({system}:" in done.stdout
    assert (tmp_path / "g" / "ex03" / "graph.svg").is_file()


# ex01 under a three-second limit (its module, its solution): a wait is stopped at the import's
# share of the clock, 6 s here, not ex01's 20 s, well before the grader's kill at 12 s, whose
# clock starts with the request, before the child loads and isolates itself.
SHORT_EX01 = '''
from grader.spec import Exercise, Limits

EXERCISE = Exercise("ex01", "The graph, in three seconds", module="ex01_graph", limits=Limits(time=3))


@EXERCISE.test("build_graph is a function", points=1, public=True, feedback="define build_graph")
def defined(sub):
    return callable(sub.build_graph)
'''


def test_a_waiting_submission_is_stopped_on_the_windows_path(tmp_path: Path) -> None:
    """A wait is stopped through the threads: the submission prints past the output cap, then
    waits for ever at import, which the import's share of the clock stops and tells at a line of its loop
    (a flood that never ends, through the threads, is tests/grader/test_pipes.py's)."""
    work, tests = tmp_path / "work", tmp_path / "tests"
    work.mkdir()
    tests.mkdir()
    (tests / "ex01.py").write_text(SHORT_EX01)
    (work / "ex01_graph.py").write_text("import time\nprint('x' * 100_000)\nwhile True:\n    time.sleep(1)\n")
    done = simulated(tmp_path, WINDOWS, "from grader.cli.app import main\n"
                     f"main(['ex01', '--submission', {str(work / 'ex01_graph.py')!r}, "
                     f"'--out', {str(tmp_path / 'g')!r}])", GRADE_TESTS_DIR=str(tests))
    assert "total: 0/1" in done.stdout, done.stdout + done.stderr
    said = " ".join(done.stdout.split())  # the alarm lands in the loop: at its test or in its sleep
    assert ("was still being imported after 6 s (line 3)" in said
            or "was still being imported after 6 s (line 4)" in said), done.stdout
    assert "the grader kept the first 10000 bytes" in done.stdout, done.stdout


@pytest.mark.usefixtures("answered")
def test_grading_through_the_threads_unsimulated(tmp_path: Path) -> None:
    """``GRADE_PIPES=threads`` on this Linux, in its strongest isolation: a real exercise
    graded end to end through Windows' way of reading, with full marks and the diagram."""
    environment = {**os.environ, "GRADE_PIPES": "threads",
                   "GRADE_CACHE_DIR": str(tmp_path / "cache")}
    grade = [sys.executable, "-m", "grader.cli.app"]
    version = subprocess.run(grade + ["--version"], cwd=REPO, env=environment,
                             capture_output=True, text=True, timeout=300)
    assert version.stdout.rstrip().endswith("pipes: threads"), version.stderr
    done = subprocess.run(grade + ["ex05", "--submission", "solutions", "--out",
                                   str(tmp_path / "g")],
                          cwd=REPO, env=environment, capture_output=True, text=True, timeout=300)
    total = done.stdout.split("total: ")[1].split()[0]
    assert total.split("/")[0] == total.split("/")[1], done.stdout + done.stderr
    assert (tmp_path / "g" / "ex05" / "graph.svg").is_file()
