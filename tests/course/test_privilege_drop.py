"""Run as root (as Gradescope does), the submission's process runs as a uid of its own that can
read neither the hidden tests, nor the solutions, nor the results, and can write nowhere root
owns.  Skipped when not root."""

from __future__ import annotations

import inspect
import json
import os
import stat
from pathlib import Path

import pytest
from coursekit import hidden_texts, solution, visible

from grader.course import catalog
from grader.sandbox import uids

pytestmark = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                                reason="the privilege drop needs root")

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


def test_a_hostile_submission_cannot_read_or_print_hidden_tests_and_solutions(standin) -> None:
    solution_lines = [line.strip() for line in solution("ex01").read_text().splitlines()
                      if len(line.strip()) > 30]

    def setup(submission: Path, root: Path) -> None:
        hostile = solution("ex01").read_text() + SNOOP.replace("@ROOT@", str(root))
        (submission / "ex01_graph.py").write_text(hostile)

    data = standin(setup)
    root = data["_root"]
    assert "isolation: " in data["_stdout"]
    shown = visible(data)  # the public run's output is shown at once
    assert "uid 0 " not in shown and f"uid {uids.UID_BASE // 10**6}" in shown
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
    # the planted score did not replace the real one: none, since the sentinel stops a write
    # outside the sandbox as it is tried, and no test is scored
    assert data["score"] == 0 and "the machine outside the sandbox" in everything
    assert stat.S_IMODE((root / "source" / "secret").stat().st_mode) == 0o700
    assert stat.S_IMODE((root / "results").stat().st_mode) == 0o700
