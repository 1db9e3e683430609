"""What the student's topological_order gives on the probe's small graphs, read before an order of another graph
is judged (ex13): whether its order of the diamond is complete (a node left out elsewhere beside a namesake is then
told as merged by name), and whether its order of the documents' graph leaves out exactly its AccumulateGrad nodes.
"""

from __future__ import annotations

from types import ModuleType

from grader.spec.backprop_graphs import diamond_graph, documents_graph
from grader.spec.mode_restored import called
from grader.spec.topological import leaves_only_left_out, order_report


def drops_leaves(sub: ModuleType) -> bool:
    """Whether the student's order of the documents' graph, no op node of which is reached by two
    edges (so a walk that expands a node once per edge loses nothing), leaves out exactly its
    AccumulateGrad nodes: only then is a graph's order without them told as leaving the leaves'
    nodes out, not as a count gone wrong below a node reached twice."""
    graph = documents_graph(0.25, 1.5)
    try:
        return leaves_only_left_out(called("topological_order", sub.topological_order, graph.root), graph.root)
    except Exception:  # noqa: BLE001 - the tests' own calls tell the error
        return False


def names_apart(sub: ModuleType) -> bool:
    """Whether the student's order of the diamond, whose nodes all have names of their own (one
    of them reached by two edges), is complete: only then can a node left out of another graph
    beside a namesake be told as merged with it by name()."""
    diamond = diamond_graph(0.75)
    try:
        order = called("topological_order", sub.topological_order, diamond.root)
    except Exception:  # noqa: BLE001 - the tests' own calls tell the error
        return False
    report = order_report(order, diamond.root, "")
    return all(fact["holds"] is True for fact in report)
