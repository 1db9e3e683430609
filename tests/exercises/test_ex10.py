"""ex10: the diagram names each branch's y as the feedback of branch's tests does (wrong
answers and correct variants are in gallery/ex10)."""

import importlib.util
from pathlib import Path

from exercise_grading import solution_path
from grader.course import catalog


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_diagram_labels_each_y_by_the_case_the_feedback_names():
    """graph.svg, difference.svg and the sentences say the same "y (x < 0)" for one y."""
    hidden = _load("ex10_hidden", catalog.load("ex10").path)
    solution = _load("ex10_solution", solution_path("ex10"))
    roots, names = hidden.EXERCISE.diagram_probe(solution)
    told = {"y (x > 0)", "y (x < 0)", "y (x = 0)"}  # the cases branch's tests name
    labels = {name for name, value in names.items() if any(value is root for root in roots)}
    assert len(labels) == 2 and labels <= told
