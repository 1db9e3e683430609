"""ex13 backprop_by_hand: the solution earns full marks, the stub nothing, wrong answers lose
points; other correct orders (reversed depth-first post-order, Kahn's algorithm with a queue)
earn full marks too; a backprop that lets the engine do the work loses every test that relies on
doing it by hand; and the solution agrees with the engine on the probes' graphs."""

import importlib.util
import math
from pathlib import Path

import pytest

import micrograph
from exercise_grading import WRONG, check_wrong, grade, solution_path, stub_path
from grader.course import catalog

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


# Another correct submission: Kahn's algorithm with a first-in first-out queue, and the
# gradients gathered in a defaultdict.
KAHN_QUEUE = '''
import collections

import micrograph


def local_grads(node, grad):
    with micrograph.no_grad():
        return tuple(node.apply(grad, create_graph=False))


def topological_order(root):
    incoming, seen, stack = collections.Counter(), {root.grad_fn}, [root.grad_fn]
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is not None:
                incoming[child] += 1
                if child not in seen:
                    seen.add(child)
                    stack.append(child)
    order, queue = [], collections.deque([root.grad_fn])
    while queue:
        node = queue.popleft()
        order.append(node)
        for child, _ in node.next_functions:
            if child is not None:
                incoming[child] -= 1
                if incoming[child] == 0:
                    queue.append(child)
    return order


def backprop(root):
    arrived, leaves = collections.defaultdict(float), {}
    reached = {root.grad_fn}
    arrived[root.grad_fn] = 1.0
    for node in topological_order(root):
        if node not in reached:
            continue
        if isinstance(node, micrograph.AccumulateGrad):
            leaves[node.variable] = arrived[node]
            continue
        for (child, _), g in zip(node.next_functions, local_grads(node, arrived[node])):
            if child is not None and g is not None:
                arrived[child] += g
                reached.add(child)
    return leaves
'''
BY_HAND_TESTS = {"the diamond b = a + a, c = b * b", "gradients on random graphs match backward",
                 "each node runs once", "a node no gradient reaches is skipped",
                 "a chain of 100,000 ops"}


def test_solution_full_marks_stub_zero():
    assert grade("ex13", solution_path("ex13")).full_marks
    assert grade("ex13", stub_path("ex13")).score == 0


@pytest.mark.parametrize("source", [DFS_ORDER, KAHN_QUEUE], ids=["reversed_dfs", "kahn_queue"])
def test_another_topological_order_full_marks(tmp_path, source):
    path = tmp_path / "ex13_backprop_by_hand.py"
    path.write_text(source)
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
    ("ex13_engine_backward", BY_HAND_TESTS),
    ("ex13_backward_restoring", BY_HAND_TESTS),
    ("ex13_grad_imported", BY_HAND_TESTS),
])
def test_wrong_solution_loses_points(wrong, must_fail):
    check_wrong("ex13", wrong, must_fail)


@pytest.mark.parametrize("wrong", ["ex13_backward_restoring", "ex13_grad_imported"])
def test_engine_backward_is_named_in_the_feedback(wrong):
    """Even a backprop that hides its call (puts .grad back, or imports grad by name) is told
    why it lost the points, and keeps only the tests of the order."""
    result = grade("ex13", WRONG / f"{wrong}.py")
    assert {t.name for t in result.tests if t.status != "passed"} == BY_HAND_TESTS
    assert all("write backward yourself" in t.feedback for t in result.tests
               if t.name in BY_HAND_TESTS)
