"""Record what PyTorch answers to every probe of the build track (ex16-ex22).

The build track's probes observe only what PyTorch shows on a one-element tensor, so they run
unchanged on a module whose ``Value`` makes ``torch.tensor``s.  This script runs each probe so
and writes the observations to ``tests/exercises/build_track_torch.json``;
``tests/exercises/test_build_track.py`` checks that the reference engine's observations, which
are the grader's expected answers, are the same.  Run it with a Python that has torch 2.13
(never a dependency of micrograph), after changing a probe:

    /path/to/torch/python scripts/record_build_track_torch.py
"""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader.course import catalog  # noqa: E402  (after the path: the checkout's grader)

OUT = ROOT / "tests" / "exercises" / "build_track_torch.json"
TRACK = ("ex16", "ex17", "ex18", "ex19", "ex20", "ex21", "ex22")


def torch_engine() -> types.ModuleType:
    """A stand-in for a student's file: ``Value`` makes a float64 tensor, ``no_grad`` is torch's."""
    module = types.ModuleType("torch_engine")

    def value(data: float, requires_grad: bool = False) -> torch.Tensor:
        return torch.tensor(float(data), dtype=torch.float64, requires_grad=requires_grad)

    module.Value = value
    module.no_grad = torch.no_grad
    return module


def record() -> dict[str, dict[str, object]]:
    engine = torch_engine()
    return {exercise: {test.name: test.probe(engine) for test in catalog.load(exercise).spec.tests}
            for exercise in TRACK}


if __name__ == "__main__":
    OUT.write_text(json.dumps({"torch": torch.__version__, "observations": record()}, indent=1,
                              sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
