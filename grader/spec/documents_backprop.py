"""ex01's probes of build_graph and backprop on the documents' graph y = (x + w) * (w + 1).

``build_graph`` is judged by the graph it returns (its five Values, whether anything ran backward
through it, and whether its w is one an earlier call returned: a graph memoised on its inputs);
``backprop`` by its answer, whether that answer was read from the .grad backward wrote, the graph
its first backward ran through, and the numbers it passed on to ``build_graph``.  A backprop that
reads a leaf's .grad where no backward pass wrote it, and so raises on None, is told by the .grad
it read (``grader.spec.grad_unwritten``), not by Python's error alone; one that called
build_graph with grad mode off (inside no_grad), and so raises at its backward, by that call.
"""

from __future__ import annotations

import contextlib
from typing import Any

from micrograph.i18n import N_  # a probe's message, translated where it is shown

from grader.spec.facts import CONTEXT
from grader.spec.given import NODES, given_calls
from grader.spec.given_untracked import told_if_untracked
from grader.spec.grad_unwritten import told_if_grad_unwritten
from grader.spec.graph import graph_below
from grader.spec.helpers import Results, arguments_of, passed_in_order, results_of
from grader.spec.facts import Check
from grader.spec.detach_origins import none_detached
from grader.spec.origins import read_from_grad, read_from_leaf, seeded_one
from grader.spec.probe import dict_of, num, plain_dict, shape_error
from grader.spec.provenance import built, check, float_of, grad_of, result_of, retains_as_context, watching
from grader.spec.repeat import Returned

LEAVES = ("w", "x")


def _built(sub, w: float, x: float) -> dict:
    """build_graph's dict, checked for the five names the statement asks for, and whether what it
    returned came through a ``detach()`` of a Value that requires grad (``w.detach() + 1``: a b with
    no graph, told by the detach() that cut it, as ex07's and ex08's are)."""
    with watching(sub, "build_graph", made=True) as call:
        g = sub.build_graph(w, x)
    g = dict_of(g, NODES, "build_graph", N_("build_graph must return the dict of the five Values w, x, a, b, y"))
    return {"g": g, "call": [call.fact, none_detached(call, [g[name] for name in NODES], "build_graph")]}


_RETURNED = Returned(N_("the w build_graph returned"),
                     N_("the w an earlier call of build_graph returned"))
"""Every w build_graph returned in this run (the diagram's too): a graph kept and returned again
by a later call (a result memoised on its inputs) is told by its leaf's identity."""


_BUILT = Results("build_graph")
"""Every dict build_graph returned in this run (the diagram's and the graph tests' too): a backprop
that raises after build_graph handed it one of them again (a graph memoised on its inputs, whose
y an earlier backprop already backpropagated) is told by build_graph's state, not backprop's."""


def build_graph_watched(sub) -> contextlib.AbstractContextManager[None]:
    """While a probe calls the student's backprop outside ``backprop_facts`` (calls made again,
    ``helpers.apart_from``): an error it raises after build_graph handed it a dict an earlier call
    returned is told as that (``EarlierResult``), the state named as build_graph's."""
    return _BUILT.watched(sub, "backprop")


def note_returned(g: object) -> None:
    """Keep the w of a graph build_graph returned outside these probes (the diagram's): a later
    call that returns it again is told."""
    g = plain_dict(g)
    if type(g) is dict:
        _RETURNED.new(g.get("w"))
        _BUILT.again(g, ())


def graph_facts(sub, w: float, x: float, note: str = "") -> dict:
    """What ``build_graph(w, x)`` returned: its graph, a new w, and no backward run through it."""
    run = _built(sub, w, x)
    g = run["g"]
    _BUILT.again(g, ())
    shape = built(g, "y", NODES, "build_graph", note)
    return {**shape, "nodes": [retains_as_context(fact) for fact in shape["nodes"]], "new": _RETURNED.new(g["w"]),
            "no_backward": [*run["call"], grad_of(g["w"], "w.grad"), grad_of(g["x"], "x.grad")]}


_BACKPROP = Results("backprop")
"""Every result backprop returned in this run: a call that raises where the same call, the first
of a fresh import, returns (a y kept from an earlier call and backpropagated again) is told so."""


def _leaves_of(made: list[Any], call: Any = None) -> dict[str, Any]:
    """The leaves of the first graph build_graph returned to backprop, by their names; given the ``call``,
    of the first graph whose leaves it read a .grad of (a graph built again, its .grad read: that one)."""
    graphs = [g for g in map(plain_dict, made) if type(g) is dict]
    read = [g for g in graphs if call is not None and any(n in g and call.grad_reads.get(id(g[n])) is g[n] for n in LEAVES)]
    first = (read or graphs or [None])[0]
    return {name: first[name] for name in LEAVES if name in first} if type(first) is dict else {}


def backprop_facts(sub, points: list[tuple[float, float]]) -> dict:
    """What backprop returned, whether it read the numbers from .grad, and the graph its first
    backward ran through: the statement's, not one made to carry a formula's numbers
    (``(Value(1.0, requires_grad=True) * formula).backward()`` writes them into a .grad too)."""
    results, floats, read, calls, walked, passed, leaf, seeds = [], [], [], [], [], [], [], []
    for w, x in points:
        with _BACKPROP.watched(sub, "backprop"), arguments_of(sub, "build_graph") as given, \
                results_of(sub, "build_graph") as made, _BUILT.watched(sub, "backprop"), \
                watching(sub, "backprop", grad_numbers=True) as call, \
                told_if_grad_unwritten(call, "backprop", lambda: _leaves_of(made, call)), \
                given_calls(sub) as modes, told_if_untracked(modes, "backprop", "build_graph", call.offs):
            answer = sub.backprop(w, x)
        passed.append(passed_in_order(given, w, x, "backprop", "build_graph"))
        if type(answer) not in (tuple, list) or len(answer) != 2:
            raise shape_error(N_("backprop must return the pair (dy/dw, dy/dx)"), "backprop", answer)
        dw, dx = answer
        results.append(result_of([num(dw), num(dx)], "backprop(w, x)"))
        floats.append([float_of(dw, "backprop(w, x)[0]"), float_of(dx, "backprop(w, x)[1]")])
        read.append(read_from_grad([dw, dx], call, "backprop(w, x)"))
        leaf.append([_from_leaf(number, call, _leaves_of(made), name, f"[{i}]")
                     for i, (number, name) in enumerate(zip((dw, dx), LEAVES))])
        calls.append(call.fact)
        walked.append(graph_below(call.first_root, label="backprop"))
        seeds.append(seeded_one(call.root_grads, "backprop"))  # y.backward(Value(2.0)): every gradient scaled
    return {"grads": results, "floats": floats, "read": read, "backward": calls, "walked": walked,
            "passed": passed, "leaf": leaf, "seed": seeds}


def _from_leaf(number: object, call: Any, leaves: dict[str, Any], name: str, at: str) -> dict[str, Any]:
    """The READ_FROM_LEAF fact of one number backprop returned, at its place ``at`` in the pair:
    not the other leaf's gradient (``w.grad.item()`` returned for dy/dx too), where build_graph's
    graph gives both leaves."""
    if set(leaves) != set(LEAVES):
        return check(Check.READ_FROM_LEAF, True, "backprop(w, x)")
    fact = read_from_leaf([number], call, leaves, name, "backprop(w, x)")
    return {**{k: v for k, v in fact.items() if k != CONTEXT + "entry"}, CONTEXT + "at": at} if CONTEXT + "entry" in fact else fact
