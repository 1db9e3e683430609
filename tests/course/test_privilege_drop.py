"""Run as root (as Gradescope does), the submission's process is an unprivileged user that can
read neither the hidden tests, nor the solutions, nor the results, and can write nowhere root
owns.  Skipped when not root."""

from __future__ import annotations

import inspect
import json
import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from coursekit import hidden_texts, solution, visible

from grader.course import catalog
from grader.sandbox.launcher import Launcher, find_user, for_this_process, interpreter_for

pytestmark = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0
                                or find_user() is None,
                                reason="the privilege drop needs root and an unprivileged user")

SNOOP = '''

import os as _os
print("uid", _os.getuid(), "gid", _os.getgid())
_root = _os.environ.get("SNOOP_ROOT") or "@ROOT@"
for _name in ("source/secret/tests/ex01.py", "source/secret/public/ex01.py",
              "source/secret/solutions/ex01_graph.py", "results/results.json"):
    try:
        print("READ", _name, open(_os.path.join(_root, _name)).read())
    except OSError as _exc:
        print("DENIED", _name, type(_exc).__name__)
for _name in ("results/results.json", "source/planted.txt"):
    try:
        with open(_os.path.join(_root, _name), "w") as _f:
            _f.write('{"score": 1000}')
        print("WROTE", _name)
    except OSError as _exc:
        print("DENIED write", _name, type(_exc).__name__)
'''


def test_the_child_user_cannot_read_root_only_files(tmp_path: Path) -> None:
    """The user layer alone, without the sandbox's other layers: a plain child process."""
    launcher = for_this_process()
    assert launcher.user is not None and launcher.user.uid != 0
    secret_dir = Path(tempfile.mkdtemp(prefix="secret-"))  # 0700, like the bundle's secret/
    try:
        (secret_dir / "hidden.py").write_text("HIDDEN = 'the answer'\n")
        os.chmod(secret_dir / "hidden.py", stat.S_IRUSR | stat.S_IWUSR)
        scratch = Path(tempfile.mkdtemp(prefix="scratch-"))
        code = ("import os\nprint(os.getuid())\n"
                f"try:\n    open({str(secret_dir / 'hidden.py')!r}).read()\n    print('READ')\n"
                "except PermissionError:\n    print('DENIED')\n"
                "try:\n    open('/etc/micrograph-planted', 'w')\n    print('WROTE')\n"
                "except PermissionError:\n    print('DENIED')\n"
                "open('mine.txt', 'w').write('scratch is writable')\nprint('SCRATCH')\n")
        proc = launcher.Popen([sys.executable, "-I", "-c", code], cwd=str(scratch),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        out = proc.communicate(timeout=30)[0].decode()
        assert out.split() == [str(launcher.user.uid), "DENIED", "DENIED", "SCRATCH"], out
        assert (scratch / "mine.txt").stat().st_uid == launcher.user.uid
    finally:
        subprocess.run(["rm", "-rf", str(secret_dir), str(scratch)], check=False)


def test_a_hostile_submission_cannot_read_or_print_hidden_tests_and_solutions(standin) -> None:
    solution_lines = [line.strip() for line in solution("ex01").read_text().splitlines()
                      if len(line.strip()) > 30]

    def setup(submission: Path, root: Path) -> None:
        hostile = solution("ex01").read_text() + SNOOP.replace("@ROOT@", str(root))
        (submission / "ex01_graph.py").write_text(hostile)

    data = standin(setup)
    root = data["_root"]
    assert "children run as" in data["_stdout"] and "as this user" not in data["_stdout"]
    shown = visible(data)  # the public run's output is shown at once
    assert "uid 0 " not in shown and "uid " in shown
    for name in ("tests/ex01.py", "public/ex01.py", "solutions/ex01_graph.py",
                 "results/results.json"):
        assert f"DENIED source/secret/{name}" in shown or f"DENIED {name}" in shown
    assert "DENIED write results/results.json" in shown
    assert "DENIED write source/planted.txt" in shown
    everything = (root / "results" / "results.json").read_text()
    probe_lines = [line.strip() for t in catalog.load("ex01").spec.tests if not t.public
                   for line in inspect.getsource(t.probe).splitlines()[1:]
                   if len(line.strip()) > 20 and not line.strip().startswith(("def ", "@", ")"))]
    assert len(probe_lines) > 5
    for text in probe_lines + solution_lines:
        assert json.dumps(text)[1:-1] not in everything and text not in everything
    for text in hidden_texts("ex01"):
        assert text not in shown
    assert not (root / "source" / "planted.txt").exists()
    assert data["score"] > 0  # the planted score did not replace the real one
    assert stat.S_IMODE((root / "source" / "secret").stat().st_mode) == 0o700
    assert stat.S_IMODE((root / "results").stat().st_mode) == 0o700


def test_a_private_interpreter_is_replaced_by_one_the_user_can_run() -> None:
    user = find_user()
    python = interpreter_for(user)
    assert python is not None
    assert Launcher(user, python).python == python
