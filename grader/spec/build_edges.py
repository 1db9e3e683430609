"""Where the edges of a build-track node lead, as ex16's tests read them: whether two edges reach
two nodes, a leaf's one AccumulateGrad, a leaf's entry beside a constant's, and how many edges a
node has.  Each reads the student's
objects by identity only (an object of theirs may equal anything)."""

from __future__ import annotations

from typing import Any

from micrograph.i18n import N_

from grader.spec.build import claim
from grader.spec.build_reads import edge_node, edges, fact, node_name
from grader.spec.facts import NOT_PLAIN
from grader.spec.held import held, kept


def apart(made: Any) -> bool:
    """Whether the two edges of ``made``'s node lead to two objects (or to none; edges piled up
    by earlier calls are told by ``rebuilt``)."""
    fn = getattr(made, "grad_fn", None)
    first, second = (edge_node(fn, i) for i in (0, 1))
    return first is None or first is not second or count(getattr(fn, "next_functions", None)) != 2


def second_edge(made: Any, first: Any) -> bool:
    """Whether the second edge of ``made``'s node leads elsewhere than to its first input's node
    (``first``'s grad_fn, or a leaf's AccumulateGrad): a + or * that hands record its first
    operand twice reaches that node at both edges (the program's two inputs are never one
    Value, nor two leaves of one number, which share a node by another slip)."""
    fn = getattr(made, "grad_fn", None)
    node = edge_node(fn, 1)
    return node is None or node is not edge_node(fn, 0) or not (node is getattr(first, "grad_fn", None)
                                                                or getattr(node, "variable", None) is first)


def one_accumulator(leaf: Any, *made: Any) -> bool:
    """Whether the edges of ``made``'s nodes that lead to ``leaf``'s AccumulateGrad (its node's
    ``variable``), one in each, lead to one object: wherever the edges put it, so edges in
    another order are told as that, not as a new AccumulateGrad, and edges piled up by earlier
    calls (``rebuilt``) as those."""
    made = tuple(v for v in made if getattr(v, "grad_fn", None) is not None)  # no node: told by its grad_fn
    found = [[node for i in range(MAX_EDGES)
              if getattr(node := edge_node(getattr(v, "grad_fn", None), i), "variable", None) is leaf] for v in made]
    if not any(found):  # no edge leads to the leaf's own node: told by what the edges hold
        return True
    return all(found) and all(node is found[0][0] for nodes in found for node in nodes)


def count(pairs: object) -> int | None:
    """How many edges ``pairs`` holds; None for no tuple or list (a generator, which reading would
    use up: told by the rule of tuples)."""
    return len(pairs) if type(pairs) in (tuple, list) else None  # type: ignore[arg-type]


MAX_EDGES = 1024  # the edges of a node looked at: more than any program here makes, piled up or not


LEAF_EDGE = {"b": N_("b.grad_fn.next_functions holds (w's AccumulateGrad, 0)"),
             "numbers": N_("the next_functions of 3 * w, w * 3, 2 + w and w + 6.5 each hold (w's AccumulateGrad, 0)"),
             "constants": N_("the next_functions of c * w, w + c and (c * 3) * w each hold (w's AccumulateGrad, 0)")}


def leaf_edge(program: str, *made: Any) -> dict[str, Any]:
    """Whether each node of ``made``, operations of the leaf w and an input that requires no grad,
    holds an entry (node, 0) with a node, as w's (its AccumulateGrad, 0) is in PyTorch: with
    none, w was given (None, 0), or its node under another number, or w itself, which the rule of the
    constant's (None, 0) does not explain.  Looked for anywhere among the entries, so entries
    in another order are told by that rule alone; no node, or entries in no tuple or list, by
    their own rules.  One claim for ``program``'s nodes: each node's entries are told apart."""
    found = [edges(getattr(v, "grad_fn", None)) for v in made]
    return claim(all(type(entries) is not list or any(type(entry) is list and _a_node(entry[0]) and entry[1] == 0
                                                      for entry in entries) for entries in found), LEAF_EDGE[program])


def _a_node(name: object) -> bool:
    """Whether an entry's first item, as ``edges`` reads it, is a node: not None, nor an object
    with no ``name()`` (a Value where its node belongs: a leaf's edge to the leaf itself)."""
    return name is not None and not (type(name) is str and name.startswith(NOT_PLAIN))


ACCUMULATOR_NAME = N_("the name() of w's AccumulateGrad")


def accumulator_name(sub: Any, leaf: Any, *made: Any) -> dict[str, Any]:
    """The name of ``leaf``'s AccumulateGrad (w's), as its node says it (``name()``): the node an
    edge of ``made``'s nodes leads to whose ``.variable`` is the leaf; where no edge leads to one
    (edges wrong, told by their own rules), the name of an AccumulateGrad the student's class makes
    for a new leaf.  A name that differs alone is told by this fact, not by the rules of edges."""
    found = next((node for v in made for i in range(MAX_EDGES)
                  if getattr(node := edge_node(getattr(v, "grad_fn", None), i), "variable", None) is leaf), None)
    if found is None and isinstance(getattr(sub, "AccumulateGrad", None), type):
        found = sub.AccumulateGrad(sub.Value(1.0, requires_grad=True))
    return fact(node_name(found), ACCUMULATOR_NAME)


AGAIN = N_("the documents' graph built again has the next_functions it had the first time")
REORDERED = N_("the documents' graph built again has its next_functions in the order they had the first time")


def rebuilt(sub: Any, w: float, x: float) -> dict[str, Any]:
    """Whether the documents' graph, built again, has the same edges each time, as PyTorch's:
    edges kept between calls (a list every call of record appends to, a mutable default
    argument) pile up, and a node's next_functions holds those of the ops before it (``again``).
    The same entries in another order each time (``reordered``: edges gathered in a set, ordered
    by the nodes' hashes) are no edges kept, and are told as an order that follows no input."""
    def built() -> list[Any]:
        wl, xl = sub.Value(w, requires_grad=True), sub.Value(x, requires_grad=True)
        a = xl + wl
        b = wl + 1
        y = a * b
        alive.append((a, b, y))  # each build's nodes at addresses of their own: a set orders them by their ids
        return [(edges(v.grad_fn), count(getattr(v.grad_fn, "next_functions", None)), _leads(v.grad_fn, ins))
                for v, ins in ((a, (xl, wl)), (b, (wl,)), (y, (a, b))) if hasattr(v, "grad_fn")]  # edges() shows 16
    alive: list[Any] = []
    first, *later = (built() for _ in range(BUILDS))
    differ = [again for again in later if again != first]
    shuffled = bool(differ) and all(_entries(again) == _entries(first) for again in differ)
    return {"again": claim(shuffled or not differ, AGAIN), "reordered": claim(not shuffled, REORDERED)}


BUILDS = 20  # builds compared: edges in a set may come out in one order in several builds


def _entries(graph: list[Any]) -> list[Any]:
    """Each node's entries of a build, sorted, their count and the inputs they lead to, sorted: what a
    set of them keeps."""
    return [(sorted(map(repr, pairs)) if type(pairs) is list else pairs, n, sorted(leads, key=repr))
            for pairs, n, leads in graph]


def _leads(fn: object, inputs: tuple[Any, ...]) -> list[int | None]:
    """Which of ``inputs`` each of ``fn``'s first edges leads to, by identity (its grad_fn, or a
    leaf's AccumulateGrad by its .variable): two entries of one name told apart, as names are not."""
    def lead(node: object) -> int | None:
        return next((k for k, v in enumerate(inputs) if node is not None and
                     (node is getattr(v, "grad_fn", None) or getattr(node, "variable", None) is v)), None)
    return [lead(edge_node(fn, i)) for i in range(min(count(getattr(fn, "next_functions", None)) or 0, 4))]


def renewed(sub: Any, w: float, x: float) -> dict[str, Any]:
    """Whether ``x + w`` made twice on new leaves of the same numbers, the first kept alive, has
    new edge nodes the second time: an AccumulateGrad kept between calls (found by the leaf's
    number, say) is the first leaf's, and its .variable is not the new leaf."""
    made = [sub.Value(x, requires_grad=True) + sub.Value(w, requires_grad=True) for _ in range(2)]  # both kept alive
    first, second = ([edge_node(getattr(a, "grad_fn", None), i) for i in (0, 1)] for a in made)
    piled = count(getattr(getattr(made[1], "grad_fn", None), "next_functions", None)) != 2  # told by rebuilt
    kept = [node for node in second if not piled and node is not None and any(node is old for old in first)]
    return claim(not kept, N_("a second x + w on new leaves of the same numbers reaches new "
                              "AccumulateGrad nodes"))


FLAG_BACK_ON = N_("w's AccumulateGrad in (w + x).grad_fn.next_functions is the one in (w * 3).grad_fn.next_functions, "
                  "after w * 3; w.requires_grad = False; w * x; w.requires_grad = True")


def flag_back_on(sub: Any) -> dict[str, Any]:
    """Whether a leaf whose requires_grad was switched off, used so, then on again, still has the
    AccumulateGrad an operation gave it before, as PyTorch's does (a leaf keeps its node for its
    whole life): a gradient_edge that drops the node when it meets the flag off makes a second
    one, and a graph built before the switch reaches the leaf through another node."""
    w, x = sub.Value(0.5, requires_grad=True), sub.Value(-1.5, requires_grad=True)
    before = kept(w * 3)
    w.requires_grad = False
    held(w * x)
    w.requires_grad = True
    return claim(one_accumulator(w, before, kept(w + x)), FLAG_BACK_ON)
