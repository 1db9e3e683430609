"""The renderer's worker: loads the drawing code without the engine, and answers one line per request."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from grader.sandbox import draw_worker, isolation
from grader.sandbox.renderer import MEMORY
from micrograph import Value
from micrograph.viz import graph_json

DRAWING_FOLDERS = ("micrograph.viz.", "micrograph.i18n")  # what drawing plain data may load
ENGINE_SIDE = {"micrograph.viz.collect", "micrograph.viz.internals", "micrograph.viz.trace_record"}


def test_the_worker_loads_the_drawing_code_and_none_of_the_engine() -> None:
    program = (f"import json, sys; sys.path[:0] = {isolation.ROOTS!r}; "
               "from grader.sandbox.draw_worker import load; load(); print(json.dumps(sorted(sys.modules)))")
    loaded = json.loads(subprocess.run([sys.executable, "-I", "-c", program], capture_output=True,
                                       text=True, check=True).stdout)
    ours = [name for name in loaded if name.split(".")[0] == "micrograph"]
    assert "micrograph.viz.drawing" in ours and "micrograph.viz.trace_page" in ours
    engine = [name for name in ours if name not in ("micrograph", "micrograph.viz")
              and (not name.startswith(DRAWING_FOLDERS) or name in ENGINE_SIDE)]
    assert engine == []


def _request(tmp_path: Path, **fields: object) -> dict:
    return {"directory": str(tmp_path), "stem": "graph", "formats": [], "timeout": 10.0,
            "language": "en", **fields}


def test_a_graph_is_drawn_to_its_files(tmp_path: Path) -> None:
    a = Value(2.0, requires_grad=True)
    answer = draw_worker.answer(_request(tmp_path, graph=graph_json(a * 3.0, names={"a": a})), MEMORY)
    assert answer == {"paths": [str(tmp_path / "graph.gv")]}
    assert "digraph" in (tmp_path / "graph.gv").read_text(encoding="utf-8")


def test_a_forged_request_is_an_error_line_naming_the_problem(tmp_path: Path) -> None:
    graph = draw_worker.answer(_request(tmp_path, graph={"format": "forged"}), MEMORY)
    trace = draw_worker.answer(_request(tmp_path, trace=[], title="t"), MEMORY)
    assert graph["error"].startswith("ValueError: graph: 'format' must be")
    assert trace["error"].startswith("ValueError: a trace must be a dict")
    assert list(tmp_path.iterdir()) == []
