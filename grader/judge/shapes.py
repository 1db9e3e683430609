"""Where two GRAPH facts differ: first the leaves, then the first differing node.

Both graphs are in the canonical order of ``grader.spec.graph`` (a depth-first walk from the
root, commutative inputs sorted), so node ``i`` of the submission's graph sits where node ``i``
of the reference's does, as long as everything before it agreed.  The place of a difference is
told from the submission's side: a node's name if the probe named it ("a"), else the nearest
named node above it.
"""

from __future__ import annotations

import math
from typing import Any

from grader.judge.compare import same
from grader.judge.explained import Difference, difference
from grader.judge.graph_nodes import GraphNode, LABEL_NOTE, input_ref, named_reached, node_place, nodes_of, shown_op
from grader.judge.leaf_sentences import SayLeaf
from grader.judge.sentences import Say
from grader.spec.facts import COMMUTATIVE, CONTEXT, FLAT_SUM, OWN_NODE, UNNAMED

LEAF_OP = "AccumulateGrad"  # a leaf's node: a graph's walk ends there


def _leaves(want: dict[str, Any], got: dict[str, Any], label: str) -> list[Difference]:
    wl = want.get("leaves") if type(want.get("leaves")) is list else []
    gl = got.get("leaves") if type(got.get("leaves")) is list else []
    computed = {n.get("name") for n in nodes_of(want) if n.get("name")}
    reached = named_reached(got)  # a leaf of the statement's that the student's graph holds as a non-leaf
    found = [difference(Say.NO_LEAF, label=label, leaf=leaf) for leaf in wl
             if leaf not in gl and leaf not in reached]
    data = got.get(CONTEXT + "data") if type(got.get(CONTEXT + "data")) is list else []
    for leaf in (leaf for leaf in gl if leaf not in wl):  # a computed Value made a new leaf? data?
        say = Say.IS_LEAF if leaf in computed else Say.DATA_LEAF if leaf in data else Say.EXTRA_LEAF
        found.append(difference(say, label=leaf) if say is Say.IS_LEAF else difference(say, label=label, leaf=leaf))

    def unnamed(nodes: list[GraphNode]) -> int:
        return sum(1 for n in nodes if n.get("leaf") == UNNAMED)

    extra = unnamed(nodes_of(got)) - unnamed(nodes_of(want))
    made = [leaf for leaf in wl if leaf not in gl and leaf in reached]  # the statement's leaf, made by an op
    if extra > 0 and made:  # the leaf is there, but another Value than the one named
        found.append(difference(Say.LEAF_ELSEWHERE, label=label, leaf=made[0]))
    elif extra > 0:
        found.append(_other_leaf(want, got, label))
    elif extra:  # fewer unnamed leaves: one, or more than one (every input of a batch)
        found.append(difference(Say.MISSING_LEAF if extra == -1 else Say.MISSING_LEAVES, label=label))
    return found


def _other_leaf(want: dict[str, Any], got: dict[str, Any], label: str) -> Difference:
    """A leaf the student's code made that the statement's graph has not (where that graph has
    no unnamed leaf, so that any is the one): told at the op that takes it, marked there.  Where
    that op made a named Value (or the root), with what the statement's op of that name takes
    instead: the named leaf whose number the new one holds (``w + 1`` written
    ``Value(w, requires_grad=True) + 1``), or a number, which no graph records
    (``w + Value(1.0, requires_grad=True)``); or that the statement's Value of that name requires
    no grad at all."""
    wn, gn = nodes_of(want), nodes_of(got)
    leaf = next((j for j, n in enumerate(gn) if n.get("leaf") == UNNAMED), None)
    above = next((j for j, n in enumerate(gn) if leaf in (n.get("in") or [])), None)
    if leaf is None or above is None or any(n.get("leaf") == UNNAMED for n in wn):
        return difference(Say.OTHER_LEAF, label=label)
    name = gn[above].get("name") or (LABEL_NOTE.sub("", label) if above == 0 else None)
    if not name:
        return difference(Say.OTHER_LEAF, above, graph=got, label=label)
    fields = {"label": label, "where": name, "op": shown_op(gn[above])}
    theirs = wn[0] if above == 0 and wn else next((n for n in wn if n.get("name") == name), None)
    if theirs is None:  # the statement's graph has no node of that name: is its Value recorded at all?
        untracked = want.get(CONTEXT + "untracked")
        say = SayLeaf.UNRECORDED if type(untracked) is list and name in untracked else SayLeaf.AT
        return difference(say, above, graph=got, **fields)
    ins = [input_ref(k, len(gn)) for k in gn[above].get("in") or []]
    mine = {gn[k].get("leaf") for k in ins if k is not None}
    data = {n.get("leaf"): n.get(CONTEXT + "data") for n in gn if n.get("leaf")}
    copied = [wn[k].get("leaf") for k in theirs.get("in") or [] if input_ref(k, len(wn)) is not None
              and wn[k].get("leaf") not in (None, UNNAMED, *mine)
              and data.get(wn[k].get("leaf"), object()) == gn[leaf].get(CONTEXT + "data")]
    if copied:
        return difference(SayLeaf.COPY, above, graph=got, leaf=copied[0], **fields)
    # the statement's op takes a named leaf this graph never reaches: the new leaf stands where that one
    # does (a copy returned under its name, the graph built on the original), not where a number does
    absent = any(wn[k].get("leaf") not in (None, UNNAMED) and wn[k].get("leaf") not in data
                 for k in theirs.get("in") or [] if input_ref(k, len(wn)) is not None)
    if not absent and _takes_a_number(theirs, wn, len(ins)):
        return difference(SayLeaf.FOR_NUMBER, above, graph=got, **fields)
    return difference(SayLeaf.AT, above, graph=got, **fields)


def _takes_a_number(node: GraphNode, nodes: list[GraphNode], inputs: int) -> bool:
    """Whether the statement's ``node`` takes a number where the student's op of that name, with
    ``inputs`` inputs, takes one more leaf: a constant input (None) in its place, or, in a flat
    sum (which leaves its constant terms out), one term fewer and a sum that is not the sum of
    its terms' data."""
    ins = node.get("in") or []
    if None in ins:
        return len(ins) == inputs
    terms = [nodes[k].get(CONTEXT + "data") for k in ins if input_ref(k, len(nodes)) is not None]
    total = node.get(CONTEXT + "data")
    return (node.get("op") == FLAT_SUM and len(ins) == inputs - 1 and type(total) is float
            and all(type(t) is float for t in terms) and not math.isclose(total, sum(terms), abs_tol=1e-12))


def _unreached(wn: list[GraphNode], gn: list[GraphNode], got: dict[str, Any],
               label: str) -> list[Difference]:
    """Named Values the statement's graph is computed from that the submission's is not (they
    are neither a node nor a leaf of it, under any of their names).  A named Value that requires
    no grad is in no graph, whatever was computed from it: its own VALUE fact tells that it was
    not recorded, and this graph's nodes where it differs."""
    untracked = got.get(CONTEXT + "untracked")
    theirs = ({n.get("name") for n in gn} | set(got.get("leaves") or []) | named_reached(got)
              | (set(untracked) if type(untracked) is list else set()))
    return [difference(Say.NOT_FROM, label=label, name=n["name"]) for n in wn[1:]
            if n.get("name") and n["name"] not in theirs]


def _key(node: GraphNode) -> tuple[str, str, str]:
    """What pairs a reference node with a submission node among commutative inputs."""
    return str(node.get("name") or ""), str(node.get("op")), str(node.get("leaf") or "")


def _pairs(wn: list[GraphNode], gn: list[GraphNode], i: int, j: int) -> list[tuple[int, int]] | None:
    """The inputs of want[i] paired with those of got[j] (None if their numbers differ): by
    name, op and leaf first (the canonical order sorts by a hash of what lies below, so a
    changed subgraph may change places), then in order."""
    wi = [k for k in wn[i].get("in") or [] if input_ref(k, len(wn)) is not None]
    gi = [k for k in gn[j].get("in") or [] if input_ref(k, len(gn)) is not None]
    if len(wi) != len(gi) or len(wn[i].get("in") or []) != len(gn[j].get("in") or []):
        return None
    free, pairs = list(gi), []
    for deep in (True, False):  # the closest first: by what lies just below too, then by the node alone
        for a in [a for a in wi if all(a != p for p, _ in pairs)]:
            match = next((b for b in free if _pair_key(gn, b, deep) == _pair_key(wn, a, deep)), None)
            if match is not None:
                free.remove(match)
                pairs.append((a, match))
    rest = [a for a in wi if all(a != p for p, _ in pairs)]
    return pairs + list(zip(rest, free))


def _pair_key(nodes: list[GraphNode], i: int, deep: bool) -> tuple[Any, ...]:
    """What pairs node ``i`` with a node of the other graph; ``deep``: with its inputs' keys too, so
    that of two inputs alike (two unnamed sums) the one whose own inputs are the statement's pairs
    with it (b = w + 1 with b, not with a = x + w, where the student's a is a product)."""
    below = tuple(_key(nodes[k]) if input_ref(k, len(nodes)) is not None else None for k in nodes[i].get("in") or [])
    return (_key(nodes[i]), below) if deep else (_key(nodes[i]),)


def _inputs_differ(wn: list[GraphNode], gn: list[GraphNode], j: int, got: dict[str, Any], label: str,
                   leaves: tuple[object, object] = (None, None)) -> Difference:
    """The inputs of the student's node ``j`` differ from the statement's: where the graph records
    that node's operation fewer or more times than the statement's (an in-place ``a.add_(1)``
    left out, or one too many, stacks one node less or more), that count is the difference;
    where the one input that differs is a named leaf in both (``leaves``: the statement's, the
    student's), the two leaves are (``x + 1`` written for ``w + 1``)."""
    op = gn[j].get("op")
    theirs, ours = _recorded(gn, op), _recorded(wn, op)
    if theirs != ours and not _sum_of_other_inputs(wn, gn, j):
        return difference(Say.OP_FEWER if theirs < ours else Say.OP_MORE, j, graph=got, label=label,
                          op=shown_op(gn[j]))
    want_leaf, got_leaf = leaves
    if all(type(leaf) is str and leaf != UNNAMED for leaf in leaves):
        where = node_place(gn, j, label)
        say = SayLeaf.ROOT_OTHER_LEAF if where == LABEL_NOTE.sub("", label) else SayLeaf.OTHER_LEAF_AT
        return difference(say, j, graph=got, label=label, where=where, op=shown_op(gn[j]), leaf=got_leaf,
                          name=want_leaf)
    detached = gn[j].get(CONTEXT + "detached")  # the named leaf this op took a detach() of
    if type(detached) is str:
        where = node_place(gn, j, label)
        say = SayLeaf.ROOT_DETACHED if where == LABEL_NOTE.sub("", label) else SayLeaf.DETACHED_AT
        return difference(say, j, graph=got, label=label, where=where, op=shown_op(gn[j]), leaf=detached)
    return _at(Say.NODE_INPUTS, j, got, label, node_place(gn, j, label), shown_op(gn[j]))


def _sum_of_other_inputs(wn: list[GraphNode], gn: list[GraphNode], j: int) -> bool:
    """Whether node ``j`` is one ``SumBackward0`` (``micrograph.sum``: one node adds any number of inputs) and
    both graphs hold as many sums: its inputs differ in number, and the graph records it no fewer or more
    times than the statement's (a sum of some entries only is one node, as the sum of all of them is)."""
    if gn[j].get("op") != FLAT_SUM or shown_op(gn[j]) != "SumBackward0":
        return False
    return sum(node.get("op") == FLAT_SUM for node in wn) == sum(node.get("op") == FLAT_SUM for node in gn)


def _stacked(wn: list[GraphNode], gn: list[GraphNode], a: GraphNode, b: GraphNode, above: GraphNode) -> tuple[Say, object] | None:
    """Where one graph reaches a leaf and the other one more node of the op just above (a loop
    that ran more or fewer times stacks one node more or less), how often the graph records that
    op is the difference; the op as the student's engine named it (not a flat ``Sum``)."""
    if (a.get("op") == LEAF_OP) == (b.get("op") == LEAF_OP):
        return None
    op = b.get("op") if a.get("op") == LEAF_OP else a.get("op")
    if op != above.get("op"):
        return None
    theirs, ours = _recorded(gn, op), _recorded(wn, op)
    if theirs == ours or (theirs > ours) != (a.get("op") == LEAF_OP):
        return None
    return (Say.OP_MORE if theirs > ours else Say.OP_FEWER), shown_op(above)


def _recorded(nodes: list[GraphNode], op: object) -> int:
    """How many times a graph records ``op``: a flat sum stands for one addition per input past
    its first (constants included), so ``x0 + 1 + w`` merged into one node records as many as the
    statement's, which names the ``x = x0 + 1`` between them and so keeps two nodes."""
    def times(node: GraphNode) -> int:
        ins = node.get(CONTEXT + "in")
        return len(ins) - 1 if op == FLAT_SUM and type(ins) is list and len(ins) > 1 else 1
    return sum(times(node) for node in nodes if node.get("op") == op)


def _at(say: Say, j: int, got: dict[str, Any], label: str, where: str, op: object) -> Difference:
    """A difference at node ``j``; at the root it is said as the root's, not by the graph's
    label again ("y's graph differs at its root", not "... differs at y")."""
    if where != LABEL_NOTE.sub("", label):
        return difference(say, j, graph=got, label=label, where=where, op=op)
    at_root = {Say.NODE_OP: Say.ROOT_OP, Say.NODE_RSUB: Say.ROOT_RSUB, Say.NODE_SWAPPED: Say.ROOT_SWAPPED}
    return difference(at_root.get(say, Say.ROOT_INPUTS), j, graph=got, label=label, op=op)


def _swapped(a: GraphNode, b: GraphNode, pairs: list[tuple[int, int]]) -> bool:
    """Whether an op whose inputs have an order (not a sum's or a product's) takes the
    statement's inputs in another order (``w - x_value`` for ``x_value - w``): the pairing by
    name, op and leaf ignores where each input sits, and a constant input pairs with none."""
    if a.get("op") in COMMUTATIVE or a.get("op") == FLAT_SUM:
        return False
    to_got = dict(pairs)
    mapped = [None if k is None else to_got.get(k) for k in a.get("in") or []]
    theirs = list(b.get("in") or [])
    return mapped != theirs and sorted(mapped, key=str) == sorted(theirs, key=str)


def _merged_elsewhere(wn: list[GraphNode], gn: list[GraphNode], a: GraphNode, b: GraphNode, above: GraphNode) -> bool:
    """Whether the two graphs record the same additions, only merged at another place: one's
    flat sum, right below a flat sum, adds the very leaf the other's takes in its place.  A flat
    sum merges an unnamed sum below it, and the statement names ``x = x0 + 1``: where the code
    returned another Value under that name (``"x": x0``), the same sum is merged into the one
    above it, and y's graph is the statement's all the same."""
    if above.get("op") != FLAT_SUM or _recorded(gn, FLAT_SUM) != _recorded(wn, FLAT_SUM):
        return False
    (total, nodes), leaf = ((a, wn), b) if a.get("op") == FLAT_SUM else ((b, gn), a)
    return total.get("op") == FLAT_SUM and leaf.get("op") == LEAF_OP and any(
        input_ref(k, len(nodes)) is not None and nodes[k].get("leaf") == leaf.get("leaf") for k in total.get("in") or [])


def _first(wn: list[GraphNode], gn: list[GraphNode], got: dict[str, Any], label: str) -> Difference | None:
    """Walk both graphs from the root side by side; the first place they part, in the order the
    student's code made the nodes (``_made_first``).  Another leaf where the statement's graph has
    one is told at the op that takes it (a leaf's AccumulateGrad takes no inputs), reached on this
    walk (a leaf shared by two ops is below both).  Graphs that part only where a sum is merged
    elsewhere (``_merged_elsewhere``) do not part."""
    stack: list[tuple[int, int, int | None]] = [(0, 0, None)]
    seen, merged, found = set(), False, []
    while stack:
        i, j, above = stack.pop()
        if (i, j) in seen:
            continue
        seen.add((i, j))
        step = _step(wn, gn, i, j, above, got, label)
        if step is _MERGED:
            merged = True
        elif isinstance(step, Difference):
            if step.node is None and not found:  # saved values: no node to mark, told as the walk meets them
                return step
            found.append(step)
        else:
            stack.extend((p, q, j) for p, q in reversed(step))
    if found:
        return _made_first(found, gn)
    if merged or same(wn, gn):
        return None
    return _at(Say.NODE_INPUTS, 0, got, label, LABEL_NOTE.sub("", label), shown_op(gn[0]))  # the same tree, shared differently


_MERGED = object()  # a step where the graphs part only where a sum is merged elsewhere


def _step(wn: list[GraphNode], gn: list[GraphNode], i: int, j: int, above: int | None, got: dict[str, Any],
          label: str) -> Difference | list[tuple[int, int]] | object:
    """One step of ``_first``'s walk at the statement's node ``i`` and the student's ``j``: the
    difference there, ``_MERGED``, or the pairs of inputs to walk on to."""
    a, b = wn[i], gn[j]
    where, op = node_place(gn, j, label), shown_op(b)
    if str(b.get("op")).startswith(OWN_NODE):
        return difference(Say.OWN_NODE, j, graph=got, label=label, op=str(b["op"])[len(OWN_NODE):])
    if a.get("op") != b.get("op"):
        stacked = None if above is None else _stacked(wn, gn, a, b, gn[above])
        if stacked is not None:
            return difference(stacked[0], j, graph=got, label=label, op=stacked[1])
        if above is not None and _merged_elsewhere(wn, gn, a, b, gn[above]):
            return _MERGED
        rsub = (a.get("op"), b.get("op")) == ("SubBackward0", "RsubBackward1")  # number - Value for Value - ...
        return _at(Say.NODE_RSUB if rsub else Say.NODE_OP, j, got, label, where, op)
    pairs = _pairs(wn, gn, i, j)
    if a.get("leaf") != b.get("leaf") and above is not None:
        return _inputs_differ(wn, gn, above, got, label, (a.get("leaf"), b.get("leaf")))
    if a.get("leaf") != b.get("leaf") or pairs is None:
        return _inputs_differ(wn, gn, j, got, label)
    if _swapped(a, b, pairs) and all(_key(wn[p]) == _key(gn[q]) for p, q in pairs):  # each input matched by key
        return _at(Say.NODE_SWAPPED, j, got, label, where, op)
    if a.get("saved") != b.get("saved") and b.get("saved") in ("kept", "freed"):
        return difference(Say.FREED if b["saved"] == "freed" else Say.KEPT, label=label)
    if a.get("saved") in ("kept", "freed") and b.get("saved") == "none":
        return difference(Say.NOT_SAVED, label=label, op=op)  # saved values are not drawn: no node to mark
    return pairs


def _made_first(found: list[Difference], gn: list[GraphNode]) -> Difference:
    """Of the places where the graphs part, the one at the node the student's code made first
    (``~made``: the engine's count of nodes made), the first a student meets reading that code;
    in the walk's order where a node does not say (a difference with no node to mark, a graph
    of another engine's)."""
    def made(step: Difference) -> int | None:
        node = gn[step.node] if step.node is not None and step.node < len(gn) else {}
        value = node.get(CONTEXT + "made")
        return value if type(value) is int else None

    if any(made(step) is None for step in found):
        return found[0]
    return min(found, key=lambda step: made(step) or 0)


def graph_differences(want: dict[str, Any], got: dict[str, Any], label: str) -> list[Difference]:
    """The differences between the reference's GRAPH fact and the submission's."""
    if got.get("type") is None:  # the graph below a pass that never started (``graph_below``)
        return [difference(Say.NO_PASS_GRAPH, label=label)]
    if want.get("type") is None:  # the statement's call runs no pass: that one ran is the CALL fact's to tell
        return []
    if got.get("type") != "Value":
        return [difference(Say.NOT_A_VALUE, label=label, type=got.get("type"))]
    if got.get("too_big"):
        return [difference(Say.TOO_BIG, label=label)]
    wn, gn = nodes_of(want), nodes_of(got)
    if wn and not gn:
        return [difference(Say.NO_GRAPH, label=label)]
    numbers = got.get(CONTEXT + "numbers")
    if type(numbers) is list and set(numbers) & set(want.get("leaves") or []):
        return []  # a leaf's name returned as a number: where the graph reaches that leaf cannot be told
    found = _leaves(want, got, label) or _unreached(wn, gn, got, label)
    if found or not wn:
        return found
    step = _first(wn, gn, got, label)
    return [] if step is None else [step]
