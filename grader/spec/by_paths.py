"""ex01's ``grad_by_paths`` called as its tests call it, and watched while it runs.

Its public and hidden tests ask it the same way: both leaves of a graph the probe built, each
call given a list of the graph's Values of its own, the call watched (no backward pass, no
``.grad`` written, the list left as given, and whether it read a node's ``next_functions``: the
documents' formula worked out from the leaves' numbers walks no graph, and on a graph of another
shape that tells why its number differs).  Public tests use them, so they ship in the student
release; the walker that matches slips on other graphs stays in the hidden test module.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from micrograph import Value, enable_grad

from grader.spec.facts import CONTEXT, Check
from grader.spec.given import NODES, documents_graph
from grader.spec.probe import num
from grader.spec.raised_in_call import told_in_call
from grader.spec.provenance import check, grad_of, list_kept, result_of, watching
from grader.spec.inputs_again import left_on_inputs
from grader.spec.repeat import calls_apart, fresh_copy


def by_paths(sub: ModuleType, y: Value, leaves: list[Value], everything: list[Value], graph: str) -> tuple[dict, list]:
    """grad_by_paths on both leaves (a Value answer taken for its number: "the other factor's data" of
    its statement is a Value; backprop's words alone ask for floats), each beside what it was asked
    (answer, y, leaf, all values, label), for the tests' matching of slips (``documents_slips``)."""
    labels = [f"for y = {graph}, grad_by_paths(y, {name})" for name in ("w", "x")]
    handed = [list(everything) for _ in leaves]  # each call its own list: one that empties it changes no other
    answers = []
    with watching(sub, "grad_by_paths", reads_edges=True) as call:
        for leaf, values, label in zip(leaves, handed, labels):
            with told_in_call(label):  # an error told with the graph and leaf it was asked about
                answers.append(num(sub.grad_by_paths(y, leaf, values)))
    untouched = [grad_of(leaf, name) for leaf, name in zip(leaves, ("w.grad", "x.grad"))]
    kept = [list_kept(values, everything, label, "values") for values, label in zip(handed, labels)]
    read = call.nodes_read or {}
    unread = [v.grad_fn for v in everything if v.grad_fn is not None and id(v.grad_fn) not in read]
    return ({"by_paths": [result_of(answer, label) for answer, label in zip(answers, labels)],
             "walk_only": [{**call.fact, **_unread_node(read, unread, graph)}, *untouched, *kept,
                           *_as_if_first(sub, bool(unread), y, leaves, everything, answers, labels)]},
            [(answer, y, leaf, everything, label) for answer, leaf, label in zip(answers, leaves, labels)])


def _unread_node(read: dict[int, Any], unread: list[Any], graph: str) -> dict[str, Any]:
    """Context ``~unread_node``: the name of the node nearest y (made last) among the graph's nodes whose
    next_functions the calls never read (``unread``), where they read some (a walk that stopped some levels
    below y, written for the documents' graph), with the graph (``~graph``); every node of the probe's graphs
    lies on a path from y to a leaf.  Nothing where they read none: ``read_edges`` tells that."""
    if not read or not unread:
        return {}
    return {CONTEXT + "unread_node": str(unread[-1].name()), CONTEXT + "graph": graph}


def _as_if_first(sub: ModuleType, unread: bool, y: Value, leaves: list[Value], everything: list[Value],
                 answers: list[Any], labels: list[str]) -> list[dict[str, Any]]:
    """The SAME_FRESH fact of each call, judged where the calls left some node's next_functions unread:
    the answer a fresh import's first call gives on the same graph.  A walk cut short by answers kept
    between calls (a memo keyed by id(node), whose ids freed nodes hand on) reads less, and is told as
    that state, not as a walk that stops short."""
    fresh = fresh_copy(sub) if unread else None
    if fresh is None:
        return [check(Check.SAME_FRESH, True, label) for label in labels]
    facts = []
    for leaf, answer, label in zip(leaves, answers, labels):
        try:
            with enable_grad():  # grad mode on after the call: the test's later graphs are recorded
                again = num(fresh.grad_by_paths(y, leaf, list(everything)))
        except Exception:  # noqa: BLE001 - an error a first call raises: told by the run's own calls, not here
            again = answer
        facts.append(check(Check.SAME_FRESH, repr(again) == repr(answer), label))
    return facts


def by_paths_apart(sub: ModuleType, w: float, x: float) -> list[dict]:
    """grad_by_paths(y, w), then (y, x) on the same graph, then (y, w) again (``calls_apart``),
    and (y, x) after (y, w) against (y, x) on a new graph (``left_on_inputs``): an answer kept
    between calls, in the module or on the graph's nodes, shows in the second call."""
    g = documents_graph(w, x)
    return [*calls_apart(sub, lambda m, leaf: m.grad_by_paths(g["y"], g[leaf], [g[k] for k in NODES]),
                         num, "w", "x", "grad_by_paths"),
            left_on_inputs(sub, lambda m, h, leaf: m.grad_by_paths(h["y"], h[leaf], [h[k] for k in NODES]), num,
                           lambda: documents_graph(w, x), "w", "x", "grad_by_paths(y, x)", "grad_by_paths(y, w)")]
