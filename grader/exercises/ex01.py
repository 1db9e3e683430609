"""ex01 graph: tests for y = (x + w) * (w + 1), its gradients, and the chain rule by paths.

The worked example of docs/hidden-tests.md.  Each probe observes *how* the result was made
(the graph behind y, whether backward ran, who wrote .grad), not only the numbers, on inputs
that are not in the exercise text: a = 0, b = 0 and a = b among them, where a wrong local
derivative (a factor's own value instead of the other's) or a formula would show.
A ``build_graph`` that returns an earlier call's graph again (a result memoised on its inputs)
is told by the identity of its ``w``.
``paths`` and ``grad_by_paths`` are given graphs the probe builds itself
(``grader.spec.given``), so a slip in ``build_graph`` fails only build_graph's tests and
backprop's, which run it as the statement asks: those say so (``Test.runs_with``), and watch
the numbers backprop passes on to it (``build_graph(x, w)`` shows).  One graph has two leaves
of one value (a leaf found by ``==`` instead of ``is`` shows).  The hidden tests of ``build_graph``,
``backprop``, ``paths`` and ``grad_by_paths``, and the public test of ``paths``, call them again
on other inputs and on the first ones once more (``grader.spec.repeat``): state kept between calls shows.
"""

from collections.abc import Callable
from math import prod
from typing import Any

from micrograph import Value, add, mul
from micrograph.i18n import N_  # a probe's message, translated where it is shown

from grader.spec import Exercise
from grader.spec.facts import CONTEXT, Check
from grader.spec.by_paths import by_paths, by_paths_apart
from grader.spec.caller_grads import hold, kept
from grader.spec.helpers import apart_from
from grader.spec.made_from import operands
from grader.spec.mode_restored import called
from grader.spec.probe import close, num, plain_dict, show, type_name
from grader.spec.given import NODES, documents_graph
from grader.spec.documents_slips import documents_slip_facts, paths_kept
from grader.spec.documents_backprop import backprop_facts, build_graph_watched, graph_facts, note_returned
from grader.spec.provenance import built, check, lists_of, result_of, watching
from grader.spec.inputs_again import left_on_inputs
from grader.spec.repeat import calls_apart

EXERCISE = Exercise("ex01", "The computational graph of y = (x + w) * (w + 1)", module="ex01_graph")

PUBLIC_POINTS = [(0.5, -3.0), (2.0, 4.0)]
# b = 0 (w = -1), a = 0 (x = -w), a = b (x = 1), zero, and large numbers
HIDDEN_POINTS = [(-1.0, 2.5), (1.5, -1.5), (-3.5, 1.0), (0.0, 0.0), (10.0, -20.0)]


GRAPH_PUBLIC = "build_graph records y = (x + w) * (w + 1)"
GRAPH_FEEDBACK = ("Create w and x with Value(..., requires_grad=True), then a = x + w, b = w + 1, "
                  "y = a * b with the engine's operations, and leave backward to backprop.")


@EXERCISE.test(GRAPH_PUBLIC, points=2, public=True,
               feedback=GRAPH_FEEDBACK)
def graph_public(sub):
    return [graph_facts(sub, w, x) for w, x in PUBLIC_POINTS]


ONE_NUMBER = (0.75, 0.75)  # w == x: two leaves all the same (one leaf kept per number shows)


@EXERCISE.test("the graph on other inputs", points=2, feedback=GRAPH_FEEDBACK)
def graph_hidden(sub):
    return {"graphs": [*(graph_facts(sub, w, x) for w, x in HIDDEN_POINTS[:3]), graph_facts(sub, *ONE_NUMBER, "w == x")],
            "apart": calls_apart(sub, lambda m, point: m.build_graph(*point),
                                 lambda g: built(g, "y", NODES, "build_graph"), HIDDEN_POINTS[3],
                                 HIDDEN_POINTS[4], "build_graph")}


READ = "return w.grad.item() and x.grad.item(): the numbers backward wrote, read, not a formula"
WALKED = ("call y.backward() on the y build_graph made: the gradients come from that graph, not "
          "from one built to carry other numbers")
BACKPROP_FEEDBACK = ("Build y with build_graph, call y.backward(), then return w.grad and x.grad "
                     "as floats.")
# backprop builds its graph with the student's build_graph, as the statement asks: a slip there
# shows here too, and is said to.  A public probe names public tests only: data a public probe
# uses ships in the release whole.
WITH_BUILD_PUBLIC = {"build_graph": (GRAPH_PUBLIC,)}
WITH_BUILD = {"build_graph": (GRAPH_PUBLIC, "the graph on other inputs")}


@EXERCISE.test("backprop gives dy/dw and dy/dx", points=2, public=True,
               feedback=BACKPROP_FEEDBACK,
               key_feedback={"grads": "w reaches y along two paths (through a and through b) "
                                      "and both count", "read": READ, "walked": WALKED},
               runs_with=WITH_BUILD_PUBLIC)
def backprop_public(sub):
    return backprop_facts(sub, PUBLIC_POINTS)


@EXERCISE.test("backprop on other inputs", points=2, feedback=BACKPROP_FEEDBACK,
               key_feedback={"read": READ, "walked": WALKED}, runs_with=WITH_BUILD)
def backprop_hidden(sub):
    facts = backprop_facts(sub, HIDDEN_POINTS)
    with build_graph_watched(sub):  # a graph build_graph keeps, backpropagated again: told as build_graph's
        return {**facts, "apart": apart_from(sub, "build_graph", lambda m, point: m.backprop(*point),
                                             lambda grads: [num(g) for g in grads], HIDDEN_POINTS[1], SHARES_W,
                                             "backprop")}


# A point whose w an earlier call had, with another x: answers kept by w alone show.
SHARES_W = (HIDDEN_POINTS[0][0], 4.0)


AT_ZERO = N_("w at zero")  # a graph's note, shown in the student's language


def _other_graphs() -> list[tuple[str, Value, Value, Value, list[Value]]]:
    """Graphs of adds and products other than the documents': (label, y, w, x, all values)."""
    w, x = Value(1.5, requires_grad=True), Value(-2.0, requires_grad=True)
    ww = mul(w, w)
    xw = mul(x, w)
    y1 = add(ww, xw)  # y = w*w + x*w: three paths to w, one to x
    w2, x2 = Value(-0.5, requires_grad=True), Value(3.0, requires_grad=True)
    s = add(w2, x2)
    p = mul(s, w2)
    q = add(w2, 2.0)
    y2 = mul(p, q)  # y = (w + x) * w * (w + 2)
    w3, x3 = Value(2.0, requires_grad=True), Value(0.5, requires_grad=True)
    p3 = mul(w3, x3)
    y3 = mul(p3, p3)  # y = (w * x)**2 as one product node used twice
    w4, x4 = Value(1.25, requires_grad=True), Value(1.25, requires_grad=True)
    wx4 = mul(w4, x4)
    y4 = add(wx4, x4)  # y = w * x + x with w and x of one value: a leaf is found by `is`, not ==
    w5, x5 = Value(0.0, requires_grad=True), Value(-1.5, requires_grad=True)
    ww5 = mul(w5, w5)
    y5 = add(ww5, x5)  # a Value times itself where it is zero: its other factor is itself, not a quotient
    w6, x6 = Value(-1.0, requires_grad=True), Value(2.5, requires_grad=True)
    s6 = add(x6, w6)
    y6 = mul(w6, s6)  # a leaf before a node in one next_functions: paths keep that order
    return [
        ("w*w + x*w", y1, w, x, [w, x, ww, xw, y1]),
        (f"w * w + x ({AT_ZERO})", y5, w5, x5, [w5, x5, ww5, y5]),
        ("w * x + x (w == x)", y4, w4, x4, [w4, x4, wx4, y4]),
        ("(w + x) * w * (w + 2)", y2, w2, x2, [w2, x2, s, p, q, y2]),
        ("(w * x) * (w * x)", y3, w3, x3, [w3, x3, p3, y3]),
        ("w * (x + w)", y6, w6, x6, [w6, x6, s6, y6]),
    ]


PATHS_FEEDBACK = ("Walk next_functions from y.grad_fn, following every input that is not None; "
                  "a path ends at the leaf's AccumulateGrad node.")


@EXERCISE.test("paths from y to w and to x", points=1, public=True, feedback=PATHS_FEEDBACK)
def paths_documents(sub):
    g = documents_graph(0.75, 1.25)
    left = _paths_left(sub, 0.75, 1.25)
    with watching(sub, "paths") as call:  # a backward it runs, grad mode it leaves off: told as paths'
        found = {leaf: lists_of(sub.paths(g["y"], g[leaf]), f"paths(y, {leaf})") for leaf in ("w", "x")}
    return {"left": left, **found, "walk_only": call.fact,
            "apart": calls_apart(sub, lambda m, leaf: m.paths(g["y"], g[leaf]), _path_names, "w", "x", "paths")}


def _paths_left(sub, w: float, x: float) -> dict:
    """paths(y, x) after paths(y, w) on one graph, against paths(y, x) on a new graph
    (``left_on_inputs``): an answer kept on the graph (on y, or its nodes) shows; judged first, so
    that what the later call returned is told by what the earlier one left, not as its own slip."""
    return left_on_inputs(sub, lambda m, h, leaf: m.paths(h["y"], h[leaf]), _path_names,
                          lambda: documents_graph(w, x), "w", "x", "paths(y, x)", "paths(y, w)")


@EXERCISE.test("paths in other graphs", points=2, feedback=PATHS_FEEDBACK)
def paths_other(sub):
    g, graphs = documents_graph(-0.25, 2.0), _other_graphs()  # every graph made before any call of paths
    w, x = Value(0.5, requires_grad=True), Value(-1.0, requires_grad=True)
    square = mul(w, w)  # y = w * w never reaches x: no path
    left = _paths_left(sub, -0.25, 2.0)
    with watching(sub, "paths") as call:  # a backward it runs, grad mode it leaves off: told as paths'
        found = {label: [lists_of(sub.paths(y, a), f"for y = {label}, paths(y, w)"),
                         lists_of(sub.paths(y, b), f"for y = {label}, paths(y, x)")] for label, y, a, b, _ in graphs}
        unreached = lists_of(sub.paths(square, x), "for y = w * w, paths(y, x)")
    return {"left": left, **found, "unreached": unreached, "walk_only": call.fact,
            "apart": calls_apart(sub, lambda m, leaf: m.paths(g["y"], g[leaf]), _path_names, "w", "x", "paths")}


def _path_names(found: object) -> object:
    """What paths returned, as plain lists of names (a tuple is one; else, and for a node, its type's name)."""
    if type(found) is not list:
        return type_name(found)
    return [[e if type(e) is str else type_name(e) for e in trail] if type(trail) in (list, tuple) else type_name(trail) for trail in found]


DOCUMENTS = "(x + w) * (w + 1)"
CHAIN_FEEDBACK = ("Sum over the paths the product of the local derivatives (1 through an "
                  "addition, the other factor's data through a product), walking the graph "
                  "only: no backward.")


# A product's local factor on the edge to its input i: the other input's data (its local
# derivative), or what a slip takes instead, the data of input i itself, or one (as a sum's).
_FACTORS = {"right": lambda data, i: data[1 - i], "own": lambda data, i: data[i],
            "one": lambda data, i: 1.0, "first": lambda data, i: data[0], "result": lambda data, i: data[0] * data[1],
            "leaf_one": lambda data, i: data[1 - i]}  # the statement's, but one on an edge into a leaf (``_sum_over_paths``)
_EVERY_INPUT = slice(None)


def _data_of(everything: list[Value], by_name: str = "") -> Callable[[Any], float]:
    """The number a node of the probe's own graph made (a leaf's node: the leaf's); ``by_name``
    "first" or "last", the number of the first (or last: a dict comprehension keyed by name)
    Value whose node has that node's name (a lookup by name)."""
    made = {id(v.grad_fn): v for v in everything if v.grad_fn is not None}
    named: dict[str, Value] = {}
    for v in reversed(everything) if by_name == "last" else everything:
        if v.grad_fn is not None:
            named.setdefault(v.grad_fn.name(), v)
    return lambda node: (node.variable if hasattr(node, "variable") else
                         named[node.name()] if by_name else made[id(node)]).item()


def _sum_over_paths(y: Value, leaf: Value, everything: list[Value], factor: str,
                    followed: slice = _EVERY_INPUT, by_number: bool = False, sums_as_products: bool = False,
                    any_leaf: bool = False, by_name: bool = False, data_by_name: str = "") -> float:
    """dy/d(leaf) over the probe's own graph, each MulBackward0 passing ``_FACTORS[factor]`` (and,
    ``sums_as_products``, each AddBackward0 of two Values too), each node's inputs in ``followed``
    only walked, a path ending at the leaf itself (or, ``by_number``, at any leaf of its number;
    ``any_leaf``, at any leaf at all); ``by_name``: one derivative kept per node name, in the
    order a depth-first walk works them out (a memo keyed by ``node.name()``); ``data_by_name``:
    a product's factor read from the first (or last) Value whose node has the other input's node's name."""
    data_of = _data_of(everything, data_by_name)
    kept: dict[str, float] = {}

    def d(node) -> float:
        if by_name and node.name() in kept:
            return kept[node.name()]
        kept[node.name()] = found = below(node)
        return found

    def below(node) -> float:
        if hasattr(node, "variable"):
            found = node.variable is leaf or any_leaf or by_number and node.variable.item() == leaf.item()
            return 1.0 if found else 0.0
        inputs = [child for child, _ in node.next_functions]
        product = (node.name() == "MulBackward0" or sums_as_products and node.name() == "AddBackward0") \
            and None not in inputs

        def local(i: int, child) -> float:  # "leaf_one": one on an edge straight into a leaf's node
            if not product or factor == "leaf_one" and hasattr(child, "variable"):
                return 1.0
            return _FACTORS[factor]([data_of(c) for c in inputs], i)
        return sum(local(i, child) * d(child) for i, child in list(enumerate(inputs))[followed] if child is not None)
    return d(y.grad_fn)


def _added_along_paths(y: Value, leaf: Value, everything: list[Value]) -> float:
    """The sum over the paths of each path's local derivatives added, not multiplied: a product
    adds the other factor's data, an addition nothing (the slip ``prod + local`` from 0)."""
    data_of = _data_of(everything)

    def d(node) -> tuple[float, float]:  # (paths from node to the leaf, the sum of their values)
        if hasattr(node, "variable"):
            return (1.0 if node.variable is leaf else 0.0), 0.0
        inputs = [child for child, _ in node.next_functions]
        product = node.name() == "MulBackward0" and None not in inputs
        paths = total = 0.0
        for i, child in enumerate(inputs):
            if child is not None:
                below, added = d(child)
                paths += below
                total += added + (data_of(inputs[1 - i]) if product else 0.0) * below
        return paths, total
    return d(y.grad_fn)[1]


# The slips a wrong number is matched against: a product's factor, the paths through each node's
# last input left out (next_functions[:-1], an off-by-one), a path ending at every leaf of the
# leaf's number (``==`` for ``is``), a sum of two Values taken for a product, the local
# derivatives along a path added, not multiplied, one derivative kept for every node of a name,
# a factor's data found by its node's name (the first Value made by a node of that name), a
# product's first input's data as its factor on both edges, or one on an edge from a product
# straight into a leaf's node (the last step of such a path left out of its product), each path's
# product times the leaf's own data (the walk multiplying by it where a path ends), or the paths'
# products multiplied together, not added (``_path_products`` below).
_SLIPS = {"own": lambda *g: _sum_over_paths(*g, "own"), "one": lambda *g: _sum_over_paths(*g, "one"),
          "last_input": lambda *g: _sum_over_paths(*g, "right", slice(None, -1)),
          "equal_leaf": lambda *g: _sum_over_paths(*g, "right", by_number=True),
          "any_leaf": lambda *g: _sum_over_paths(*g, "right", any_leaf=True),
          "sum_as_product": lambda *g: _sum_over_paths(*g, "right", sums_as_products=True),
          "added_along": _added_along_paths, "by_name": lambda *g: _sum_over_paths(*g, "right", by_name=True),
          "data_by_name": lambda *g: _sum_over_paths(*g, "right", data_by_name="first"),
          "data_by_last_name": lambda *g: _sum_over_paths(*g, "right", data_by_name="last"),
          "first_own": lambda *g: _sum_over_paths(*g, "first"), "result": lambda *g: _sum_over_paths(*g, "result"),
          "leaf_one": lambda *g: _sum_over_paths(*g, "leaf_one"),
          "leaf_data": lambda y, leaf, e: leaf.item() * _sum_over_paths(y, leaf, e, "right"),
          "paths_multiplied": lambda *g: prod(_path_products(*g))}


def _path_products(y: Value, leaf: Value, everything: list[Value]) -> list[float]:
    """The product of the local derivatives along each path from y to the leaf, in the order of
    next_functions: what a sum that left some paths out (``paths_kept``) is matched against."""
    data_of = _data_of(everything)

    def below(node) -> list[float]:
        if hasattr(node, "variable"):
            return [1.0] if node.variable is leaf else []
        inputs = [child for child, _ in node.next_functions]
        product = node.name() == "MulBackward0" and None not in inputs
        return [(data_of(inputs[1 - i]) if product else 1.0) * rest
                for i, child in enumerate(inputs) if child is not None for rest in below(child)]
    return below(y.grad_fn)


def _slip_facts(answered: list[tuple]) -> list[dict]:
    """The CHECK fact, for each answer, that the number is not the sum over the paths a slip
    makes: False, with the slip named (``~own``: the data of the input the path goes through as a
    product's factor; ``~one``; ``~last_input``: the paths through a node's last input left
    out; ``~equal_leaf``; ``~any_leaf``: a path ending at any leaf counted; ``~sum_as_product``;
    ``~added_along``; ``~by_name``; ``~data_by_name``; ``~data_by_last_name``; ``~first_own``; ``~result``; ``~leaf_one``; ``~leaf_data``; ``~paths_multiplied``: see ``_SLIPS``), where the number differs from the statement's and every
    answer of the test is that slip's sum; a number matching a slip on one graph only is no
    pattern of the code.  Where no slip matches but every answer is the sum over some of its
    paths, each answer that is not the sum over all of them names how many it kept
    (``documents_slips.paths_kept``: ``~one_path``, ``~no_path``, ``~some_paths``)."""
    def matches(slip: str, answer: object, y: Value, leaf: Value, everything: list[Value]) -> bool:
        return type(answer) is float and close(answer, _SLIPS[slip](y, leaf, everything))

    slip = next((name for name in _SLIPS if all(matches(name, *item[:4]) for item in answered)), None)
    kept = [paths_kept(answer, _path_products(y, leaf, everything)) for answer, y, leaf, everything, _ in answered]
    facts = []
    for (answer, y, leaf, everything, label), paths in zip(answered, kept):
        wrong = slip is not None and not close(answer, _sum_over_paths(y, leaf, everything, "right"))
        key = slip if wrong else paths if slip is None and None not in kept and paths != "all" else None
        facts.append({**check(Check.PRODUCT_FACTOR, key is None, label), **({CONTEXT + key: True} if key else {})})
    return facts


@EXERCISE.test("chain rule by paths on the documents' graph", points=2, public=True,
               feedback=CHAIN_FEEDBACK)
def chain_rule_public(sub):
    asked = []
    for w, x in PUBLIC_POINTS:
        g = documents_graph(w, x)
        asked.append((by_paths(sub, g["y"], [g["w"], g["x"]], [g[k] for k in NODES], DOCUMENTS), g))
    facts = documents_slip_facts([(answered, g) for (_, answered), g in asked])
    runs = [{"by_paths": run["by_paths"], "factors": factors, "walk_only": run["walk_only"]}
            for ((run, _), _), factors in zip(asked, facts)]
    return {"runs": runs, "apart": by_paths_apart(sub, 0.25, -2.0)}


def _one_product() -> tuple[str, Value, Value, Value, list[Value]]:
    """y = w * x, one MulBackward0 between y and each leaf: judged first, a number that differs
    there is told of a product's local derivative alone (label, y, w, x, all values)."""
    w, x = Value(-1.25, requires_grad=True), Value(2.5, requires_grad=True)
    y = mul(w, x)
    return "w * x", y, w, x, [w, x, y]


HELD = N_("w and x already hold a .grad")  # the graph's note: which case of it the label is of


def _grads_already_held(sub) -> tuple[list[dict], list[tuple]]:
    """grad_by_paths on the documents' graph whose leaves already hold a .grad that a backward
    pass through another graph sharing them wrote: the statement's walk reads no .grad, so it
    answers dy/d(leaf) all the same.  HELD_GRAD_UNUSED: an answer is not that .grad's number.
    Each answer beside what it was asked about too, for ``_slip_facts``: a slip tells on it as on
    the other graphs.  VALUE_KEPT: the call left each leaf's .grad as it found it (the caller's
    gradient, not one the walk added to or wrote over: "walk the graph only")."""
    g = documents_graph(-0.75, 2.25)
    add(mul(g["w"], 6.5), mul(g["x"], -4.25)).backward()  # w.grad, x.grad: numbers no walk of y gives
    facts, answered, everything = [], [], [g[k] for k in NODES]
    for name in ("w", "x"):
        label, held = f"for y = {DOCUMENTS} ({HELD}), grad_by_paths(y, {name})", g[name].grad.item()
        before = hold({"w": g["w"], "x": g["x"]}, give=False)  # the .grad each leaf holds: the caller's
        # grad mode on again after it (left off: told by the watched calls); list(...): the probe's list is kept
        answer = num(called("grad_by_paths", sub.grad_by_paths, g["y"], g[name], list(everything)))
        returned = type(answer) is float and close(answer, held) and not close(answer, _sum_over_paths(
            g["y"], g[name], everything, "right"))
        facts += [result_of(answer, label), check(Check.HELD_GRAD_UNUSED, not returned, label), kept(before, label)]
        answered.append((answer, g["y"], g[name], everything, label))
    return facts, answered


@EXERCISE.test("chain rule by paths in other graphs", points=2, feedback=CHAIN_FEEDBACK)
def chain_rule_hidden(sub):
    label, y, w, x, everything = _one_product()
    graphs = [(label, y, [w, x], everything)]
    for w, x in HIDDEN_POINTS[:3]:
        g = documents_graph(w, x)
        graphs.append((DOCUMENTS, g["y"], [g["w"], g["x"]], [g[k] for k in NODES]))
    graphs += [(label, y, [w, x], everything) for label, y, w, x, everything in _other_graphs()]
    asked = [by_paths(sub, y, leaves, everything, label) for label, y, leaves, everything in graphs]
    held, held_answered = _grads_already_held(sub)
    facts = iter(_slip_facts([item for _, answered in asked for item in answered] + held_answered))
    runs = [{"by_paths": run["by_paths"], "factors": [next(facts) for _ in answered], "walk_only": run["walk_only"]}
            for run, answered in asked]
    return {"runs": runs, "apart": by_paths_apart(sub, -1.5, 0.25), "held": [*held, *facts]}


@EXERCISE.diagram
def draw(sub):
    with watching(sub, "build_graph", made=True) as call:
        g = plain_dict(sub.build_graph(0.5, -3.0))
    made = operands(call)  # b = w.detach() + 1, which y's node saved and backward freed, drawn as that b
    note_returned(g)  # a later call returning it is told
    show([g["y"]], g, made)  # drawn as built if backward fails
    g["y"].backward()
    return [g["y"]], g, made
