"""A fresh copy's top level that ran out of its share is told at the top level's line, and stops
every later copy of the same worker at once (``grader.sandbox.child.copies``).

A correct answer with a demo on a 100,000-op chain at its top level ran it again in each copy a
test made, under the probes' watch: each copy spent a whole share, the parent killed the run, and
every test was told "timed out" with no place, or at a line of a function the demo called."""

from __future__ import annotations

import importlib.util
import signal
import sys
import types
from pathlib import Path

import pytest

from grader.judge import explain
from grader.sandbox.child import wire
from grader.sandbox.child.copies import Copies, StoppedCopy
from grader.sandbox.child.wire import ErrorRecord
from grader.spec.copy_share import copies_under
from grader.spec.limits import Limits
from grader.spec.repeat import fresh_copy

pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="interval timers (not Windows)")

_DEMO = """import os
MARKS = {marks!r}


def spin():
    while True:
        pass


def demo():
    spin()


with open(MARKS, "a") as marks:
    marks.write("ran\\n")
if len(open(MARKS).read().split()) > 1:
    demo()
"""


def _demo_again_never_ends(folder: Path) -> tuple[types.ModuleType, Path]:
    """A module whose top level returns the first time and, run again, calls a demo that never
    ends (through a helper of its own); each run leaves a mark beside it."""
    marks = folder / "marks.txt"
    path = folder / "demo_top.py"
    path.write_text(_DEMO.format(marks=str(marks)), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("demo_top", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["demo_top"] = module
    spec.loader.exec_module(module)
    return module, marks


def test_a_copy_out_of_time_is_told_at_the_top_level_and_stops_the_later_ones(tmp_path: Path) -> None:
    demo, marks = _demo_again_never_ends(tmp_path)
    # the share's CPU (a tenth of a second) runs out in the demo's loop on any machine; its clock is
    # left long, since a busy machine that paused this process before the copy's top level began
    # rang a share of the clock outside the file, with no place to tell
    copies = Copies(Limits(time=0.2, wall_factor=100), str(Path(demo.__file__)), lambda: 600.0)
    try:
        with copies_under(copies.share):
            with pytest.raises(StoppedCopy) as first:
                fresh_copy(demo)
            with pytest.raises(StoppedCopy) as again:
                fresh_copy(demo)
    finally:
        sys.modules.pop("demo_top", None)
    assert first.value.where == again.value.where == ("<module>", "demo", 17)  # the top level's call of demo
    assert marks.read_text(encoding="utf-8").split() == ["ran", "ran"]  # the later copy never ran
    assert first.value.kind == wire.PROBE_TIMEOUT and str(again.value) == str(first.value)


def test_a_timeout_at_the_top_level_names_its_line_and_call() -> None:
    stopped = ErrorRecord(type=wire.PROBE_TIMEOUT, message="timed out after 40 s", function="<module>",
                          caller="_demo", line=64, step=None)
    said = explain.test_error(stopped, "ex13_backprop_by_hand.py", Limits())
    assert said.startswith("timed out after 40 s (line 64, in the top level's call of _demo): the grader imports your file "
                           "again in this test"), said
    assert 'if __name__ == "__main__":' in said and "<module>" not in said
    said = explain.test_error(stopped, "ex13_backprop_by_hand.ipynb", Limits(),
                              names=lambda line: f"cell 3 (In [2]), line {line - 60}")
    assert said.startswith("timed out after 40 s (cell 3 (In [2]), line 4, in the top level's call of _demo): the grader runs "
                           "the notebook's code cells again"), said
    assert "__main__" not in said
