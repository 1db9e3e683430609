"""macOS and Windows, simulated on Linux: a child interpreter whose ``sitecustomize`` blocks the
POSIX-only modules (pwd, grp, resource, fcntl, termios) and sets ``sys.platform``.  ``grade``
must start, say ``limits only`` in ``--version`` and in its report, and grade.  (The children
start with ``python -I``, outside the simulation: this tests the parent's side, and that the
child's modules import without ``resource``.)"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SITE = '''
import sys
BLOCKED = {"pwd", "grp", "resource", "fcntl", "termios"}
class _Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
for _name in BLOCKED:
    sys.modules.pop(_name, None)
sys.meta_path.insert(0, _Block())
sys.platform = "darwin"
'''


def simulated(tmp_path: Path, code: str, **env: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "sitecustomize.py").write_text(SITE)
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(REPO)]),
                   "GRADE_CACHE_DIR": str(tmp_path / "cache"),
                   "GRADE_ISOLATION": "limits-only", **env}  # as root, the explicit opt-in
    return subprocess.run([sys.executable, "-c", code], cwd=REPO, env=environment,
                          capture_output=True, text=True, timeout=300)


def test_the_simulation_blocks_the_posix_modules(tmp_path: Path) -> None:
    done = simulated(tmp_path, "import sys\ntry:\n import resource\nexcept ImportError:\n"
                               " print('blocked', sys.platform)")
    assert done.stdout.strip() == "blocked darwin"


def test_grade_starts_and_says_limits_only(tmp_path: Path) -> None:
    done = simulated(tmp_path, "from grader.cli.app import main; main(['--version'])")
    assert done.returncode == 0, done.stderr
    assert "isolation: limits only (macOS" in done.stdout


def test_the_child_side_imports_without_resource(tmp_path: Path) -> None:
    done = simulated(tmp_path, "import grader.sandbox.child.main, grader.sandbox.renderer\n"
                               "from grader.sandbox.child.confine import limit_resources\n"
                               "from grader.spec.limits import Limits\n"
                               "print(limit_resources(Limits()))")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_grade_grades_and_reports_the_mode(tmp_path: Path) -> None:
    done = simulated(tmp_path, "from grader.cli.app import main\n"
                               f"main(['ex01', '--submission', 'solutions/ex01_graph.py', "
                               f"'--out', {str(tmp_path / 'g')!r}])")
    assert "total: 15/15" in done.stdout, done.stderr
    assert "isolation: limits only (macOS" in done.stdout
