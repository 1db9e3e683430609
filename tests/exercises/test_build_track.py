"""The build track (ex16-ex22): its stubs and solutions are the cut of one reference engine,
and the answers the grader expects of it are PyTorch's, fact by fact."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from grader.course import catalog
from grader.judge.compare import mismatched_keys, same

ROOT = Path(__file__).resolve().parents[2]
RECORDED = Path(__file__).with_name("build_track_torch.json")


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cut_build_track", ROOT / "scripts" / "cut_build_track.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


CUT = _script()
TRACK = [stage.id for stage in CUT.STAGES]


def _solution(exercise: str) -> ModuleType:
    """The reference solution of one stage, imported under a name of its own."""
    stage = next(s for s in CUT.STAGES if s.id == exercise)
    spec = importlib.util.spec_from_file_location(f"build_track_{stage.module}",
                                                  ROOT / "solutions" / f"{stage.module}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_stubs_and_solutions_are_the_cut_of_the_reference():
    stale = [str(path.relative_to(ROOT)) for path, text in CUT.files().items()
             if not path.is_file() or path.read_text(encoding="utf-8") != text]
    assert not stale, f"run python scripts/cut_build_track.py: {stale}"


def test_every_stage_is_an_exercise_of_the_course():
    assert set(TRACK) <= set(catalog.exercise_ids())
    for stage in CUT.STAGES:
        assert catalog.load(stage.id).spec.module == stage.module


def test_a_stub_holds_no_body_of_its_stage_or_an_earlier_one():
    """Every function the student writes raises in the stub, whichever stage it belongs to: a
    later stage's stub gives away no earlier stage's answer."""
    reference = CUT.REFERENCE.read_text(encoding="utf-8")
    for stage in CUT.STAGES:
        stub = (ROOT / "exercises" / f"{stage.module}.py").read_text(encoding="utf-8")
        for line in CUT.cut(reference, "", stage.number, stub=False).splitlines():
            if line.strip().startswith(("self.saved = dict.fromkeys", "counts[child] += 1",
                                        "write_grad(self.variable, grad)", "heapq.heappush")):
                assert line not in stub, f"{stage.id}: {line.strip()}"


@pytest.mark.parametrize("exercise", TRACK)
def test_the_reference_answers_what_torch_answers(exercise):
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))["observations"][exercise]
    tests = catalog.load(exercise).spec.tests
    assert sorted(recorded) == sorted(t.name for t in tests), "run scripts/record_build_track_torch.py"
    solution = _solution(exercise)
    differing = {}
    for test in tests:
        got = test.probe(solution)
        if not same(recorded[test.name], got):
            differing[test.name] = mismatched_keys(recorded[test.name], got) or got
    assert not differing, differing


def test_an_untouched_later_stage_is_one_not_started_line(tmp_path: Path) -> None:
    """ex17's stub meets ex16's stub first: still not started, one line, as any untouched exercise."""
    import subprocess

    stub = ROOT / "exercises" / "ex17_build_backward.py"
    run = subprocess.run([sys.executable, "-c", "from grader.cli.app import main; main()", "ex17",
                          "--submission", str(stub), "--out", str(tmp_path / "grades")],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    said = " ".join(run.stdout.split())
    assert run.returncode == 1, run.stderr
    assert "not started (0/10): every function the tests call still raises NotImplementedError" in said, said
    assert "total:" not in said and "paste your ex16 answer" not in said, said  # one line, no table
