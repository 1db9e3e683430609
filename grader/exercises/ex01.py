"""ex01 graph: tests for y = (x + w) * (w + 1), its gradients, and the chain rule by paths.

The format exemplar (see docs/hidden-tests.md).  Every probe calls the submission on inputs that
are not in the exercise text, several per test, so a hard-coded answer fails.
"""

from micrograph import Value, add, mul

from grader.spec import Exercise
from grader.spec.probe import grad, grad_fn, num, show, value

EXERCISE = Exercise("ex01", "The computational graph of y = (x + w) * (w + 1)", module="ex01_graph")

POINTS = [(0.5, -3.0), (2.0, 4.0), (-1.25, 0.75)]


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
    return [
        ("w*w + x*w", y1, w, x, [w, x, ww, xw, y1]),
        ("(w + x) * w * (w + 2)", y2, w2, x2, [w2, x2, s, p, q, y2]),
    ]


@EXERCISE.test(
    "backprop gives dy/dw and dy/dx",
    points=2,
    public=True,
    feedback="Build y, call y.backward(), then return (w.grad, x.grad) as floats.",
    key_feedback={
        "dy_dw": "w reaches y along two paths (through a and through b): both count",
        "dy_dx": "x reaches y along one path: multiply the local derivatives along it",
    },
)
def backprop_public(sub):
    results = [sub.backprop(w, x) for w, x in POINTS[:2]]
    return {
        "dy_dw": [num(r[0]) for r in results],
        "dy_dx": [num(r[1]) for r in results],
    }


@EXERCISE.test(
    "backprop on varied inputs",
    points=2,
    feedback="Compute the gradients with backward on the inputs given, not with fixed numbers.",
)
def backprop_hidden(sub):
    results = [sub.backprop(w, x) for w, x in [(-3.5, 0.125), (10.0, -20.0), (0.0, 0.0)]]
    return [[num(dw), num(dx)] for dw, dx in results]


@EXERCISE.test(
    "the graph's nodes",
    points=2,
    feedback="Check each node's data, is_leaf, requires_grad and grad_fn.",
    key_feedback={
        "w": "w must be a new leaf Value(w, requires_grad=True)",
        "x": "x must be a new leaf Value(x, requires_grad=True)",
        "a": "a = x + w is made by an addition: micrograph.add(x, w)",
        "b": "b = w + 1 is made by an addition of w and the number 1",
        "y": "y = a * b is made by a product: micrograph.mul(a, b)",
    },
)
def nodes(sub):
    g = sub.build_graph(-1.5, 0.25)
    return {key: value(g[key]) for key in ("w", "x", "a", "b", "y")}


@EXERCISE.test(
    "build_graph does not backpropagate",
    points=1,
    feedback="build_graph only builds the graph: leave backward to backprop.",
)
def no_backward_in_build(sub):
    g = sub.build_graph(2.5, -1.0)
    return [grad(g["w"]), grad(g["x"]), grad_fn(g["y"])]


@EXERCISE.test(
    "paths from y to w and to x",
    points=1,
    public=True,
    feedback="Walk next_functions from y.grad_fn; a path ends at the leaf's AccumulateGrad node.",
)
def paths_documents(sub):
    g = sub.build_graph(0.75, 1.25)
    return {"w": sub.paths(g["y"], g["w"]), "x": sub.paths(g["y"], g["x"])}


@EXERCISE.test(
    "paths in other graphs",
    points=2,
    feedback="Count every path, including several through the same product node "
    "(w * w reaches w twice); skip next_functions entries that are None.",
)
def paths_other(sub):
    return {
        label: [sub.paths(y, w), sub.paths(y, x)] for label, y, w, x, _ in _other_graphs()
    }


@EXERCISE.test(
    "chain rule by paths matches backward",
    points=3,
    feedback="Sum over paths the product of local derivatives: 1 through an addition, the other "
    "factor's data through a product.",
    key_feedback={
        "walk_only": "grad_by_paths must walk the graph only: it must not call backward",
    },
)
def chain_rule(sub):
    by_paths, walk_only = [], []
    for g in [sub.build_graph(w, x) for w, x in POINTS]:
        everything = [g[k] for k in ("w", "x", "a", "b", "y")]
        by_paths.append([num(sub.grad_by_paths(g["y"], g[k], everything)) for k in ("w", "x")])
        walk_only.append([grad(g["w"]), grad(g["x"])])
    for _, y, w, x, everything in _other_graphs():
        by_paths.append([num(sub.grad_by_paths(y, leaf, everything)) for leaf in (w, x)])
        walk_only.append([grad(w), grad(x)])
    return {"by_paths": by_paths, "walk_only": walk_only}


@EXERCISE.diagram
def draw(sub):
    g = sub.build_graph(0.5, -3.0)
    show([g["y"]], g)  # drawn as built if backward fails
    g["y"].backward()
    return [g["y"]], g
