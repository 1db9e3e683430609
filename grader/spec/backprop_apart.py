"""ex13's calls made apart: backprop and topological_order called on one graph, another, then
the first again, on a root an in-place op changed since, and on a graph one of whose nodes took
a freed node's id, each against the same call in a fresh import of the student's file.

State kept between calls (a module-level dict of gradients, a default set of seen nodes, an
order kept by ``id(root)``, answers kept by ``id(node)``) is right on the first call and shows on
a later one: ``grader.spec.repeat`` makes the calls and judges them, these probes choose the
graphs and say how each answer is read (``numbers_seen``: the numbers of the dict backprop returns;
``names_seen``: the names of the nodes of an order).  Any topological order, and the gradients
summed along it, are the statement's: a walk that picks its ready nodes in an order of its own
choosing is no state kept."""

from __future__ import annotations

from typing import Any

import micrograph
from micrograph.i18n import N_

from grader.spec.backprop_graphs import Graph, documents_graph
from grader.spec.facts import Check
from grader.spec.freed_graphs import at_a_freed_node
from grader.spec.probe import num, type_name
from grader.spec.provenance import check
from grader.spec.inputs_again import grown_apart
from grader.spec.repeat import calls_apart


def backprop_apart(sub: Any, first: Graph, second: Graph) -> list[dict[str, Any]]:
    """backprop on one graph, another, then the first again (``calls_apart``): gradients kept
    in a module-level dict from one call to the next show."""
    return calls_apart(sub, lambda m, g: m.backprop(g.root), numbers_seen, first, second, "backprop")


def numbers_seen(result: object) -> list[Any] | str:
    """The numbers of a dict backprop returned (its keys are the leaves), in any order and to nine
    digits: a walk in an order of its choosing (ready nodes taken at random, a set) visits the
    leaves in another order on each call, and adds what meets at a node in another order too."""
    if not isinstance(result, dict):
        return type_name(result)
    return sorted((_digits(num(g)) for g in dict.values(result)), key=repr)


def _digits(g: object) -> object:
    """A number to nine significant digits (0 below 1e-9): sums in another order agree so."""
    return g if type(g) is not float else 0.0 if abs(g) < 1e-9 else float(f"{g:.9g}")


def order_apart(sub: Any, first: Graph, second: Graph) -> list[dict[str, Any]]:
    """topological_order on one graph, another, then the first again (``calls_apart``): nodes
    kept from one call to the next (a default argument, a module-level set) show."""
    return calls_apart(sub, lambda m, g: m.topological_order(g.root), names_seen, first, second,
                       "topological_order")


def order_grown(sub: Any, w: float, x: float) -> dict[str, Any]:
    """topological_order on the documents' graph, then again once ``root.add_(x)`` gave the
    same root a new grad_fn (``grown_apart``): an order kept for the root object, or its id,
    is returned again."""
    return grown_apart(sub, lambda m, g: m.topological_order(g.root), names_seen, documents_graph(w, x),
                       lambda g: g.root.add_(g.leaves[1]), "topological_order")


def names_seen(order: object) -> list[str] | str:
    """The names of the nodes of an order returned; of one that is a topological order of the graph
    under its first node, in sorted order: the statement asks for any such order, and one that
    takes its ready nodes in an order of its choosing (at random) returns another on each call."""
    if type(order) not in (list, tuple) or not all(isinstance(n, micrograph.Node) for n in order):
        return type_name(order)
    names = [str(n.name()) for n in order]
    return ["a topological order of", *sorted(names)] if _topological(list(order)) else names


def _topological(order: list[Any]) -> bool:
    """Whether ``order`` lists every node reachable from its first node once, each before the
    nodes in its next_functions."""
    at = {id(node): i for i, node in enumerate(order)}
    if not order or len(at) != len(order):
        return False
    reached, stack = {id(order[0])}, [order[0]]
    while stack:
        node = stack.pop()
        for child, _ in node.next_functions:
            if child is None:
                continue
            if id(child) not in at or at[id(child)] < at[id(node)]:
                return False
            if id(child) not in reached:
                reached.add(id(child))
                stack.append(child)
    return len(reached) == len(order)


FREED_LABEL = N_("backprop(y), y = (x + w) * (w + 1) built once an earlier such y was backpropagated and freed")


def backprop_at_a_freed_id(sub: Any) -> dict[str, Any]:
    """backprop's answers kept by ``id(node)`` or ``id(root)`` between calls (``freed_graphs.at_a_freed_node``:
    a y one of whose nodes, then a y that itself, sits at a freed one's id)."""
    def call(module: Any, y: micrograph.Value) -> Any:
        return numbers_seen(module.backprop(y))
    alike = at_a_freed_node(sub, call) and at_a_freed_node(sub, call, lambda y: [y])
    return check(Check.SAME_FRESH, alike, FREED_LABEL)
