"""ex05: graph.svg draws the graph the student's loop built (wrong answers and correct variants
are in gallery/ex05)."""

import importlib.util
import sys
from pathlib import Path

from exercise_grading import solution_path
from grader.course import catalog


def _load(name: str, path: Path, source: str | None = None):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    if source is None:
        spec.loader.exec_module(module)
    else:
        exec(compile(source, str(path), "exec"), module.__dict__)
    return module


def test_the_diagram_draws_the_y_the_loop_built_not_the_statements():
    """A loop that builds y = (x + w) * (x + 1) is drawn as that graph: its y holds that
    product of the leaves' numbers, and the statement's y = (x + w) * (w + 1) is drawn nowhere."""
    hidden = _load("ex05_hidden", catalog.load("ex05").path)
    path = solution_path("ex05")
    source = path.read_text(encoding="utf-8")
    assert "        y = (x + w) * (w + 1)" in source
    wrong = _load("ex05_wrong", path, source.replace("        y = (x + w) * (w + 1)", "        y = (x + w) * (x + 1)"))
    roots, names, _operands = hidden.EXERCISE.diagram_probe(wrong)
    w, x = names["w"].item(), names["x"].item()
    assert [root.item() for root in roots] == [(x + w) * (x + 1)] != [(x + w) * (w + 1)]
    assert roots[0] is names["y"]
