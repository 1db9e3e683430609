"""ex13 backprop_by_hand: the solution earns full marks, the stub nothing, wrong answers lose
points; another correct order (reversed depth-first post-order) earns full marks too, and the
solution agrees with the engine on the probes' graphs."""

import importlib.util
import math
from pathlib import Path

import pytest

import micrograph
from exercise_grading import check_wrong, grade, solution_path, stub_path
from grader import catalog

# A correct submission whose order differs from the solution's (Kahn's algorithm).
DFS_ORDER = '''
import micrograph


def local_grads(node, grad):
    with micrograph.no_grad():
        return tuple(node.apply(grad, create_graph=False))


def topological_order(root):
    post, done, stack = [], set(), [(root.grad_fn, False)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            post.append(node)
        elif node not in done:
            done.add(node)
            stack.append((node, True))
            stack.extend((c, False) for c, _ in node.next_functions if c is not None and c not in done)
    return post[::-1]


def backprop(root):
    grads, leaves = {root.grad_fn: 1.0}, {}
    for node in topological_order(root):
        g = grads.pop(node, None)
        if g is None:
            continue
        if isinstance(node, micrograph.AccumulateGrad):
            leaves[node.variable] = g
        else:
            for (c, _), cg in zip(node.next_functions, local_grads(node, g)):
                if c is not None and cg is not None:
                    grads[c] = grads.get(c, 0.0) + cg
    return leaves
'''


def test_solution_full_marks_stub_zero():
    assert grade("ex13", solution_path("ex13")).full_marks
    assert grade("ex13", stub_path("ex13")).score == 0


def test_another_topological_order_full_marks(tmp_path):
    path = tmp_path / "ex13_backprop_by_hand.py"
    path.write_text(DFS_ORDER)
    assert grade("ex13", path).full_marks


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_solution_agrees_with_engine():
    solution = _load("ex13_solution", solution_path("ex13"))
    hidden = _load("ex13_hidden", catalog.load("ex13").path)
    graphs = [hidden._diamond(0.5), hidden._documents(2.0, 4.0), hidden._blocked(1.5, -2.0)]
    graphs += [hidden._random_graph(seed) for seed in hidden.RANDOM_SEEDS]
    for root, leaves in graphs:
        mine = solution.backprop(root)
        wanted = [leaf for leaf in leaves if leaf.requires_grad]
        engine = micrograph.grad(root, wanted, allow_unused=True)
        for leaf, g in zip(wanted, engine):
            if g is None:
                assert leaf not in mine
            else:
                assert math.isclose(mine[leaf], g.item(), rel_tol=1e-12, abs_tol=1e-15)


@pytest.mark.parametrize("wrong, must_fail", [
    ("ex13_recursive", {"a chain of 100,000 ops"}),
    ("ex13_overwrite", {"the diamond b = a + a, c = b * b", "gradients on random graphs match backward",
                        "a chain of 100,000 ops"}),
    ("ex13_bfs_order", {"topological order of random graphs", "gradients on random graphs match backward",
                        "a chain of 100,000 ops"}),
    ("ex13_engine_backward", {"the diamond b = a + a, c = b * b",
                              "gradients on random graphs match backward", "each node runs once"}),
])
def test_wrong_solution_loses_points(wrong, must_fail):
    check_wrong("ex13", wrong, must_fail)
