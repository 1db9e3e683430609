"""ex13 backprop_by_hand: the solution agrees with the engine on the probes' graphs (wrong
answers, engine aliases and other correct orders are in gallery/ex13)."""

import importlib.util
import math
from pathlib import Path

import micrograph
from exercise_grading import solution_path
from grader.course import catalog
from grader.spec import backprop_graphs as built


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_solution_agrees_with_engine():
    solution = _load("ex13_solution", solution_path("ex13"))
    hidden = _load("ex13_hidden", catalog.load("ex13").path)
    graphs = [built.diamond_graph(0.5), built.documents_graph(2.0, 4.0), built.blocked_graph(1.5, -2.0),
              built.chain_graph(hidden.SHORT_LINKS, -0.5, 0.375)]
    graphs += [built.random_graph(seed) for seed in hidden.RANDOM_SEEDS]
    for root, leaves, _, _ in graphs:
        mine = solution.backprop(root)
        wanted = [leaf for leaf in leaves if leaf.requires_grad]
        engine = micrograph.grad(root, wanted, allow_unused=True)
        for leaf, g in zip(wanted, engine):
            if g is None:
                assert leaf not in mine
            else:
                assert math.isclose(mine[leaf], g.item(), rel_tol=1e-12, abs_tol=1e-15)
