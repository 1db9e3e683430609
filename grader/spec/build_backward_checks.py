"""More of ex17's gate (``grader.spec.build_checks``): backward's parts that no later stage's
programs look at again, so that a slip of ex17's that passes every one of them is still told,
naming ex17, in each later stage's file.

Each check runs on an engine whose ``needs`` check found w * w + w right, and returns None or
the finding (a msgid) that names what ex17's part got wrong.
"""

from __future__ import annotations

from typing import Any

from micrograph.i18n import N_  # a check's finding, translated where told

from grader.spec.build_graph_kept import FAULT_IN as KEPT_FAULT_IN, graph_changed
from grader.spec.build_watch import handed_first
from grader.spec.build_reads import edge_node, grad_quiet, number
from grader.spec.held import held
from grader.spec.nesting import NESTED, deepest
from grader.spec.probe import default_recursion_limit
from grader.spec.raised import error
from grader.spec.repeat import fresh_copy

FROM_LEAF = N_("v.backward(), v a leaf that requires grad, raises an error or leaves v.grad None, where backward may "
               "start at a leaf: it starts from the root's gradient_edge (a leaf's AccumulateGrad), not its grad_fn")
METHOD_RAISES = N_("v.backward(), v a leaf that requires grad, raises an error, while backward(v, retain_graph=False), "
                   "your backward called on another such leaf, writes its .grad: Value.backward does not hand a leaf on "
                   "to backward as the given method does")
METHOD_NONE = N_("v.backward(), v a leaf that requires grad, leaves v.grad None, while backward(v, retain_graph=False), "
                 "your backward called on another such leaf, writes its .grad: Value.backward does not hand a leaf on "
                 "to backward as the given method does")
ZERO_SENT = N_("backward through w * 0 leaves w.grad None, where backward runs w's AccumulateGrad whatever gradient "
               "reaches it, 0 too")
ZERO_NOT_STORED = N_("backward through w * 0 leaves w.grad None: store_grad(v, 0) on a leaf v leaves v.grad None, where "
                     "store_grad writes every gradient it is given, 0 too")
ZERO_NOT_APPLIED = N_("backward through w * 0 leaves w.grad None: (w * 0).grad_fn.next_functions[0][0].apply(0), w's "
                      "AccumulateGrad, leaves w.grad None, where AccumulateGrad.apply writes every gradient it is given, "
                      "0 too")
SUMMED = N_("backward through y = (w * 1e16 + w) + w * -1e16 gives w.grad another number than PyTorch's: a node's "
            "gradients are added one at a time, as each arrives, never all at once or in another order")
MUL_APPLIED = N_("(w * x).grad_fn.apply(1), w and x two leaves that hold different numbers, gives another pair of "
                 "gradients than PyTorch's: MulBackward0.apply sends each input the gradient times the other "
                 "input, self's gradient times the saved \"other\", other's times the saved \"self\"")
RECURSIVE = N_("dependencies(v.grad_fn), v the end of a chain of 300 operations, raises RecursionError at Python's "
               "default recursion limit: dependencies walks the graph with a loop over a stack, never by calling itself")
NESTS = N_("dependencies(v.grad_fn), v the end of a chain of 300 operations, nests its calls one inside another, about "
           "one per node: dependencies walks the graph with a loop over a stack, never by calling itself, whatever "
           "recursion limit the file sets")
AGAIN = N_("dependencies(y.grad_fn), called after a y.backward() through y = (d + d) + w, d = w + x, counts other "
           "edges than that graph has: each call of dependencies counts the edges of its own graph anew, keeping "
           "nothing from an earlier call (a set of the nodes walked, counts cached)")
GRAPH_IN_MUL = N_("y.backward(), y = w * x, hands w's AccumulateGrad a gradient that requires grad, made by "
                  "MulBackward0.apply, where PyTorch's backward records no graph: a gradient is a number, times the "
                  "saved Value's item(), not the Value")
GRAPH_IN_SEED = N_("y.backward(), y = w * x, starts y.grad_fn with a gradient that requires grad, where PyTorch's "
                   "backward records no graph: it starts the root's node with a plain number")
PAST_CONSTANT = N_("y.backward(), y = c * w, c a Value that requires no grad, gives w the gradient y.grad_fn.apply "
                   "returned first, for c: backward hands each gradient apply returns to the entry of next_functions in "
                   "its place, the first with c's (None, 0), to no node, and the second to w's AccumulateGrad")
FAULT_IN = {PAST_CONSTANT: "backward", MUL_APPLIED: "MulBackward0.apply", GRAPH_IN_MUL: "MulBackward0.apply", GRAPH_IN_SEED: "backward", FROM_LEAF: "backward", METHOD_RAISES: "Value.backward", METHOD_NONE: "Value.backward", ZERO_SENT: "backward", SUMMED: "backward", RECURSIVE: "dependencies",
            NESTS: "dependencies", ZERO_NOT_STORED: "store_grad", ZERO_NOT_APPLIED: "AccumulateGrad.apply",
            **KEPT_FAULT_IN}
CHAIN = 300  # a recursive walk nests a call per node: three times NESTED


def backward_rest(sub: Any) -> str | None:
    """The checks in order, each on a fresh copy of the file where it can be made: a backward
    from a leaf, a 0 sent, the order gradients are added in, dependencies on a long chain, a second
    backward through one graph, the graph a backward leaves behind.  What
    one leaves in an engine that keeps state between calls (one .grad Value shared by every
    leaf, ex19's slip) reaches no other, so a check that passes alone passes here."""
    for check in (_mul_applied, _past_constant, _from_leaf, _zero_sent, _summed, _by_loop, _again, graph_changed,
                  _no_graph):
        finding = check(fresh_copy(sub) or sub)
        if finding is not None:
            return finding
    return None


def _mul_applied(sub: Any) -> str | None:
    """MulBackward0's apply run on its own, on a product of two leaves holding two numbers: its
    two gradients are the other factor's, in input order.  A swapped pair passes w * w + w (both
    factors one number), then changes every later graph's sums, which the other checks would blame
    on backward's adding.  Where apply raises or returns no pair, the other checks tell it."""
    w, x = sub.Value(1.5, requires_grad=True), sub.Value(-2.0, requires_grad=True)
    y = w * x
    held(y)
    try:
        got = tuple(number(g) for g in getattr(y, "grad_fn", None).apply(1.0))
    except Exception:  # noqa: BLE001 - the student's error (or PyTorch's stand-in, whose nodes have no apply)
        return None
    return None if len(got) != 2 or got == (-2.0, 1.5) else MUL_APPLIED


def _past_constant(sub: Any) -> str | None:
    """Backward through c * w, c a Value that requires no grad (its entry (None, 0) first), gives w
    the second gradient apply returns: w given the first, for c, is a backward that pairs apply's
    gradients with the entries that hold a node alone.  The graphs of later stages hold constants
    on the right (w * 3, w + 1), where that pairing goes unseen."""
    c, w = sub.Value(3.0), sub.Value(0.75, requires_grad=True)
    try:
        y = c * w
        held(y)
        sent = sent_by_product(sub)
        y.backward()
    except Exception:  # noqa: BLE001 - the student's error, told by the other checks
        return None
    return PAST_CONSTANT if sent is not None and grad_quiet(w) == sent[0] != sent[1] else None


def sent_by_product(sub: Any) -> list[object] | None:
    """The two gradients the node of another y = c * w, of new Values (c = 3, w = 0.75), returns
    from apply(1), c's entry (None, 0) first: w given the first, for c, where the two differ, is a
    backward that paired them with the entries that hold a node alone.  Asked of a graph of its
    own, as an apply may change the node it runs on (an unpack that pops).  None where c's entry
    is not first (the edges' own rule) or apply raises or returns no pair (the operation's rule)."""
    y = sub.Value(3.0) * sub.Value(0.75, requires_grad=True)
    held(y)
    fn = getattr(y, "grad_fn", None)
    if edge_node(fn, 0) is not None or edge_node(fn, 1) is None:
        return None
    try:
        sent = [number(g) for g in fn.apply(1.0)]
    except Exception:  # noqa: BLE001 - the student's error (or PyTorch's stand-in, whose nodes have no apply)
        return None
    return sent if len(sent) == 2 else None


def _no_graph(sub: Any) -> str | None:
    """Whether y.backward(), y = w * x, hands a node a gradient that requires grad, where PyTorch's
    records no graph as it runs (``grader.spec.build_no_graph``, ex17's own probe): at y's node,
    the seed; else at w's AccumulateGrad, what MulBackward0.apply returned.  Unseen nodes (an apply
    never called) and an error of backward's (told by the other checks) find nothing."""
    try:
        handed = [handed_in_product(sub, at_root) for at_root in (True, False)]
    except Exception:  # noqa: BLE001 - the student's error, told by the other checks
        return None
    seed, mul = (bool(got) and getattr(got[0], "requires_grad", False) is True for got in handed)
    return GRAPH_IN_SEED if seed else GRAPH_IN_MUL if mul else None


def handed_in_product(sub: Any, at_root: bool) -> list[object]:
    """``handed_first`` of y.backward(), y = w * x of two new leaves: what y's node (``at_root``)
    or w's AccumulateGrad was handed first."""
    w, x = sub.Value(0.5, requires_grad=True), sub.Value(-3.0, requires_grad=True)
    y = w * x
    held(y)
    fn = getattr(y, "grad_fn", None)
    return handed_first(fn if at_root else edge_node(fn, 0), y.backward)


def _from_leaf(sub: Any) -> str | None:
    """Calling backward() on a leaf that requires grad writes its .grad.  Where ``v.backward()`` fails,
    the file's backward is called as the given Value.backward calls it, on a leaf of a fresh copy:
    where that writes the leaf's .grad, the method, which the file gives, is what fails."""
    v = sub.Value(-0.5, requires_grad=True)
    said = error(v.backward)
    if said is None and grad_quiet(v) is not None:
        return None
    engine = fresh_copy(sub) or sub
    run = getattr(engine, "backward", None)
    u = engine.Value(-0.5, requires_grad=True)
    if not callable(run) or error(run, u, retain_graph=False) is not None or grad_quiet(u) is None:
        return FROM_LEAF
    return METHOD_NONE if said is None else METHOD_RAISES


def _zero_sent(sub: Any) -> str | None:
    """A node sent only 0 still runs: torch's w.grad is a Value holding 0, not None.  Where it is
    None, the part that drops the 0 is named: store_grad asked alone, then w's AccumulateGrad,
    else backward, which never ran that node."""
    w = sub.Value(1.5, requires_grad=True)
    y = w * 0
    held(y)
    y.backward()
    if grad_quiet(w) is not None:
        return None
    return {"store_grad": ZERO_NOT_STORED, "AccumulateGrad.apply": ZERO_NOT_APPLIED}.get(zero_dropped(sub) or "", ZERO_SENT)


def zero_dropped(sub: Any) -> str | None:
    """The function of the engine that writes nothing for a gradient of 0 though it writes another
    one, asked alone on fresh leaves: ``store_grad``, else a leaf's ``AccumulateGrad.apply``; None
    where neither drops a 0 alone (or the file has no store_grad: PyTorch's stand-in in the tests
    of the build track)."""
    if not callable(getattr(sub, "store_grad", None)):
        return None
    for name, give in (("store_grad", lambda v, g: sub.store_grad(v, g)), ("AccumulateGrad.apply", _apply)):
        zero, other = sub.Value(-2.5, requires_grad=True), sub.Value(0.75, requires_grad=True)
        if error(give, zero, 0.0) is None and grad_quiet(zero) is None and \
                error(give, other, 1.5) is None and grad_quiet(other) is not None:
            return name
    return None


def _apply(leaf: Any, grad: float) -> None:
    """``grad`` handed to ``leaf``'s AccumulateGrad, reached as (leaf * 2)'s first edge."""
    edge_node(getattr(leaf * 2, "grad_fn", None), 0).apply(grad)


def _summed(sub: Any) -> str | None:
    """w's gradients arrive -1e16, then 1 (lost beside it), then 1e16: added as they arrive they
    give PyTorch's number; summed exactly at once (math.fsum), or in another order, another."""
    w = sub.Value(1.5, requires_grad=True)
    y = (w * 1e16 + w) + w * -1e16
    held(y)
    y.backward()
    return None if grad_quiet(w) == 0.0 else SUMMED


def _again(sub: Any) -> str | None:
    """dependencies after a backward through a graph of additions (nothing saved, so nothing
    freed in any stage), against the edges that graph's nodes hold, where it counted a first
    graph of its own right before any backward: a walk that keeps the nodes it met between calls
    (a module-level set), or counts kept from the backward's own call, counts other edges then.
    dependencies alone is judged: a count that is wrong on a first call is no state kept (other
    checks tell it), and an error of a later stage's part met in the backward (ex19's
    store_grad, ex20's release) is that stage's, told by its own programs."""
    first = _additions(sub)  # kept alive: no later node takes one of its ids
    if _counted(sub, first.grad_fn) != _edges(first.grad_fn):
        return None
    y = _additions(sub)
    if error(y.backward) is not None:
        return None
    return None if _counted(sub, y.grad_fn) == _edges(y.grad_fn) else AGAIN


def _additions(sub: Any) -> Any:
    """y = (d + d) + w, d = w + x: a node reached by two edges, a leaf by two paths."""
    w, x = sub.Value(0.5, requires_grad=True), sub.Value(-1.5, requires_grad=True)
    d = w + x
    y = (d + d) + w
    held(y)
    return y


def _counted(sub: Any, root: Any) -> dict[int, int] | None:
    """What the file's dependencies counts from ``root``, by node id; None where it raises (an
    error of dependencies is told by the other checks' programs)."""
    try:
        return {id(node): count for node, count in sub.dependencies(root).items()}
    except Exception:  # noqa: BLE001 - the student's error, told elsewhere
        return None


def _edges(root: Any) -> dict[int, int]:
    """How many edges reach each node from ``root``, read from the nodes' own next_functions (the
    statement's count: the root 0, a node reached by two edges 2)."""
    counts, stack = {id(root): 0}, [root]
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is not None:
                if id(child) not in counts:
                    counts[id(child)] = 0
                    stack.append(child)
                counts[id(child)] += 1
    return counts


def _chain(sub: Any, ops: int) -> Any:
    v = sub.Value(1.0, requires_grad=True)
    for _ in range(ops):
        v = v + 0.0
    return v


def _by_loop(sub: Any) -> str | None:
    """The frames of the file on the stack at once while ``dependencies`` walks a chain, at
    Python's default recursion limit whatever the file set: a loop nests one, a recursive walk
    one per node (or several, and raises RecursionError), however high it sets the limit itself.
    Backward is a later stage's rewrite from ex18 on, told by that stage's own chain."""
    dependencies = getattr(sub, "dependencies", None)
    root = getattr(_chain(sub, CHAIN), "grad_fn", None)
    if not callable(dependencies) or root is None:
        return None
    with default_recursion_limit():
        try:
            nested = deepest(sub, lambda: dependencies(root))
        except RecursionError:
            return RECURSIVE
    return None if nested < NESTED else NESTS
