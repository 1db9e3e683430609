"""ex10 dynamic_graph: Python control flow decides the graph, call by call.

Every probe calls the submission on inputs that are not in the exercise text, several per test.
The probes own the leaves, backpropagate themselves and read the graph with the grader's own
walker (GRAPH facts), so that ``branch`` and ``double_until`` are judged apart from
``grad_fn_chain``, whose graphs the probes build themselves (a branch's graph too: a slip in
``branch`` fails branch's tests only).  They also watch that the student's code ran no backward
pass.  Inputs sit on the boundaries the statement names: x = 0 (not > 0), y equal to the limit
(the loop stops).
Each function is called again on other inputs and on the first once more, in the public tests
too (``grader.spec.repeat``): a list kept between calls (a default argument, a cache) shows;
double_until once more on the very leaf and limit of a call whose y was backpropagated, too (a y
kept on the leaf itself, which a fresh import of the file finds there as well); grad_fn_chain once
more on a y an in-place op changed since (a chain kept on y, or by id(y)).  grad_fn_chain's
chains are read back against their graphs (``grader.spec.chain``): a walk that left a node by
another entry than the first that is not None is named with that node; each is also compared
with the same call made first in a fresh import (a chain kept by id(y) is another y's where y
took a freed y's id).
"""

import math
from typing import Any

from micrograph import Value
from micrograph.i18n import N_  # a probe's message, translated where it is shown

from grader.spec import Exercise
from grader.spec.caller_grads import kept_through
from grader.spec.chain import names_called, names_of, read_chains
from grader.spec.chain_graphs import other_graphs
from grader.spec.doubling import count_fact, doublings, reach
from grader.spec.earlier_leaf import Handed
from grader.spec.graph import graph
from grader.spec.detach_origins import none_detached
from grader.spec.probe import by_key, grad, num, shape_error, type_name
from grader.spec.facts import CONTEXT, Check
from grader.spec.freed import at_a_freed_id
from grader.spec.provenance import check, result_of, retains_as_context, same_object, value_of, watching
from grader.spec.inputs_again import leaf_stepped_apart
from grader.spec.repeat import Returned, backprop_kept, calls_apart

EXERCISE = Exercise(
    "ex10", "The dynamic graph: built as the code runs", module="ex10_dynamic_graph"
)


def _backward(y: object, w: Value) -> float | None | str:
    """dy/dw by the probe's own backward call, leaving w.grad cleared for the next graph."""
    if not isinstance(y, Value):
        return f"not a Value: {type_name(y)}"
    if not y.requires_grad:  # recorded by no graph: its VALUE fact tells it, not an error of the probe's
        return "no graph"
    y.backward()
    dw = grad(w)
    w.grad = None
    return dw


def _statement_branch(x: float, w: Value) -> Value:
    """The statement's branch(x, w), built by the probe: grad_fn_chain's test reads a branch's
    graph without running the student's branch, so a slip there fails branch's tests only."""
    x_value = Value(x)
    return x_value * w if x > 0 else (x_value - w).exp()


def _side(x: float) -> str:
    """Where x sits against the branch's boundary, for the label of its y (``y (x = 0)``)."""
    return "x > 0" if x > 0 else "x < 0" if x < 0 else "x = 0"


_HANDED = Handed("branch", "w")  # the w each call of branch was given: a y kept from an earlier call reaches one


def _branch(sub, x: float, w_start: float) -> dict:
    w = _HANDED.hand(Value(w_start, requires_grad=True))
    with watching(sub, "branch", made=True) as call:  # made: whether it detached a Value that requires grad
        y = sub.branch(x, w)
    label = f"y ({_side(x)})"  # the feedback names the boundary case that differs
    built = graph(y, _HANDED.named(y, w), label=label, data={"x_value": x})  # an earlier call's w: named
    made = [v for v in (call.probe_made or {}).values() if v is not y]
    return {"graph": [built, *_branch_of_x(built, made, y, w, x, w_start, label)],
            "value": retains_as_context(value_of(y, label)), "grad": _backward(y, w),  # y.grad is never read
            "call": [call.fact, none_detached(call, [y], "branch")]}


def _branch_of_x(built: dict, made: list[Value], y: object, w: Value, x: float, w_start: float,
                 label: str) -> list[dict[str, Any]]:
    """The BRANCH_OF_X fact: the graph a call built is not the statement's for an x on the other
    side of x > 0 (where it is not the one for its own x): an if that chose the branch by something
    else than x.  Where one of ``made``, the other Values the call's operations made from the leaf
    ``w``, has the statement's graph for this x, that branch ran and its y was dropped
    (``~dropped``): the if was right, and what the call returned came after it (no return there).
    Beside it the COMPUTED_RETURNED fact: where y's graph is neither branch's, no Value ``made``
    has the statement's graph for this x (one that has was computed, and another returned in its
    place: x_value, or the leaf w itself, ``~given``, or None, ``~none``).  Of any other object
    than a Value or None it is not judged: a float or a tuple returned is told by its type, not
    as another Value."""
    def shape(fact: dict) -> list[dict]:
        return [{k: v for k, v in node.items() if not k.startswith(CONTEXT)} for node in fact["nodes"]]
    fresh = Value(w_start, requires_grad=True)
    other = shape(graph(_statement_branch(-1.0 if x > 0 else 1.0, fresh), {"w": fresh}, label="y"))
    own = shape(graph(_statement_branch(x, fresh), {"w": fresh}, label="y"))
    dropped = shape(built) != own and any(shape(graph(v, {"w": w}, label=label, data={"x_value": x})) == own
                                          for v in made)
    judged = isinstance(y, Value) or y is None
    returned = {**check(Check.COMPUTED_RETURNED, (not dropped or shape(built) == other) if judged else None, label),
                **({CONTEXT + "given": True} if y is w else {CONTEXT + "none": True} if y is None else {})}
    if not shape(built) == other != own:
        return [check(Check.BRANCH_OF_X, True, label), returned]
    return [{**check(Check.BRANCH_OF_X, False, label), CONTEXT + "dropped": dropped}, returned]


BRANCH_FEEDBACK = ("Make x_value = Value(x); if x > 0 return x_value * w, otherwise "
                   "(x_value - w).exp(), with the engine's operations and no backward.")
BRANCH_KEYS = {
    "graph": "each call records only the branch its x selects: a product when x > 0, "
    "otherwise an exponential of x_value - w (x = 0 is not > 0)",
    "value": "y is the result of the branch taken, made by the engine from x_value and w",
    "grad": "backward differentiates only the branch that ran: build each call's y with the "
    "branch its x selects",
    "call": "branch builds y only: the probe calls backward itself",
    "held": "branch builds y only: w.grad stays as the caller left it",
}


@EXERCISE.test("branch picks the operation", points=2, public=True, feedback=BRANCH_FEEDBACK,
               key_feedback=BRANCH_KEYS)
def branch_public(sub):
    return {**by_key([_branch(sub, x, w) for x, w in [(2.0, 0.75), (-1.0, 0.75), (0.0, 1.5)]]),
            "apart": calls_apart(sub, _branched, _branch_seen, (2.0, 0.75), (-1.0, 1.5), "branch"),
            "held": _branch_held(sub)}


def _branched(sub, case: tuple[float, float]) -> tuple[Any, Value]:
    """branch on a new leaf w: what it returned, and that w."""
    w = _HANDED.hand(Value(case[1], requires_grad=True))
    return sub.branch(case[0], w), w


def _branch_seen(made: tuple[Any, Value]) -> dict[str, Any]:
    """The graph of the y branch returned, its leaf named if it is the w of that call (a y kept
    from an earlier call, built on that call's w, shows), and dy/dw: a y whose saved x_value a
    later call refilled through ``.data`` holds its number but backpropagates the later x."""
    return {**graph(made[0], {"w": made[1]}, label="y"), "dw": backprop_kept(made[0], [made[1]])}


@EXERCISE.test("a new graph per call", points=3, feedback=BRANCH_FEEDBACK,
               key_feedback=BRANCH_KEYS)
def graph_per_call(sub):
    return {**by_key([_branch(sub, x, -0.5) for x in (1.5, -2.0, 0.0, 3.0, -0.25, 1e-9)]),
            "stepped": leaf_stepped_apart(sub, lambda m, w: (m.branch(2.0, _HANDED.hand(w)), w), _branch_seen, 1.25, "branch"),
            "held": _branch_held(sub)}


def _branch_held(sub) -> list[dict[str, Any]]:
    """The VALUE_KEPT fact of branch on each side of x > 0, its w holding a .grad of the caller's:
    the call leaves w as it came (the public test too, so that a student with the release sees a w
    the call changed)."""
    return [kept_through("branch(x, w)", {"w": w}, lambda x=x, w=w: sub.branch(x, w))
            for x in (1.5, -2.0) for w in [_HANDED.hand(Value(0.5, requires_grad=True))]]


@EXERCISE.test(
    "grad_fn_chain reads a branch",
    points=1,
    public=True,
    feedback="Walk from y.grad_fn through the first non-None entry of next_functions, collecting "
    "node.name(); stop at a leaf's AccumulateGrad node (not included), and return [] for a leaf.",
)
def chain_public(sub):
    w = Value(1.25, requires_grad=True)
    c = Value(-2.0)  # data: its edge is None
    graphs = [("x_value * w", _statement_branch(0.5, w)),
              ("(x_value - w).exp()", _statement_branch(-3.0, w))]
    e, t, s = w.exp(), w * 3, w.sin()  # one node each, the first input of one root and the second of the other
    graphs += [("(w.exp() + w * 3).tanh()", (e + t).tanh()), ("(w * 3 + w.exp()).tanh()", (t + e).tanh()),
               ("(w.sin() * w.exp()).relu()", (s * e).relu()), ("(w.exp() * w.sin()).relu()", (e * s).relu()),
               ("(c * (w * w)).sin()", (c * (w * w)).sin()),
               ("Value(..., requires_grad=True)", Value(4.0, requires_grad=True))]
    v = Value(-0.5, requires_grad=True)
    y = (v * 2).sin()  # read once more, on a graph of its own: the chain leaves y and v.grad as they were
    return {"chains": read_chains(sub, graphs),
            "apart": calls_apart(sub, lambda m, node: m.grad_fn_chain(node), names_of, graphs[2][1],
                                 graphs[6][1], "grad_fn_chain"),
            "held": kept_through("grad_fn_chain(y)", {"w": v, "y": y}, lambda: sub.grad_fn_chain(y))}


@EXERCISE.test(
    "grad_fn_chain on other graphs",
    points=2,
    feedback="Skip None entries of next_functions (inputs that need no gradient), stop before "
    "an AccumulateGrad node, and return [] for a leaf.",
)
def chain_other(sub):
    graphs = other_graphs()
    w = Value(0.75, requires_grad=True)
    y = (w * 2).exp()  # its w holds a gradient the caller accumulated: reading the chain leaves it
    return {"chains": read_chains(sub, graphs), "at_a_freed_id": _at_a_freed_id(sub),
            "after_change": _after_change(sub), "held": kept_through("grad_fn_chain(y)", {"w": w, "y": y}, lambda: sub.grad_fn_chain(y)),
            "apart": calls_apart(sub, lambda m, node: m.grad_fn_chain(node), names_of, graphs[0][1], graphs[1][1],
                                 "grad_fn_chain")}


def _at_a_freed_id(sub) -> list[dict]:
    """grad_fn_chain of y = (w + 3).exp() whose node was put where the node of an earlier
    y = (w * 3).exp() was, with its id, once that one was read and let go of: a chain kept by
    ``id(y.grad_fn)`` gives the earlier graph's.  Graphs are made and freed in turn until the new
    root's node sits at a freed one's id (``freed.at_a_freed_id``, checked, so the score does not
    depend on where the allocator put it).  Beside the chain, the CHECK fact that it is not what
    the earlier graph got where a twin of y, alive all along (at an id never freed), gets another."""
    w = Value(0.75, requires_grad=True)
    twin = (w + 3).exp()
    own = sub.grad_fn_chain(twin)
    got: list[Any] = [None]  # the chain of the latest earlier graph alone: each one read replaces it

    def read(earlier: Value) -> None:
        got[0] = sub.grad_fn_chain(earlier)
    y = at_a_freed_id(lambda: (w + 3).exp(), read, lambda v: (v.grad_fn,), earlier=lambda: (w * 3).exp())
    label = "for y = (w + 3).exp(), grad_fn_chain(y)"
    chain = sub.grad_fn_chain(y)
    kept = chain == got[0] and chain != own
    return [result_of(names_of(chain), label), names_called(chain, label), check(Check.READ_ANEW, not kept, label)]


def _after_change(sub) -> list[dict]:
    """grad_fn_chain of y = (w + 3).sin() called again once y.mul_(2) changed y in place: the same
    Value, whose grad_fn is now a MulBackward0 above the sine.  A chain kept from the first call
    (on y itself, or by id(y)) is returned again.  Beside the chain, the READ_ANEW fact that it is
    not what the call before the change returned (context ``~changed``)."""
    w = Value(0.75, requires_grad=True)
    y = (w + 3).sin()
    first = names_of(sub.grad_fn_chain(y))
    first = list(first) if type(first) is list else first  # as it was: a list kept and changed later shows
    y.mul_(2)
    label = "for y = (w + 3).sin(); y.mul_(2), grad_fn_chain(y)"  # code: read in any language
    chain = sub.grad_fn_chain(y)
    kept = type(first) is list and names_of(chain) == first  # the statement's chain gained a node
    return [result_of(names_of(chain), label), names_called(chain, label),
            {**check(Check.READ_ANEW, not kept, label), CONTEXT + "changed": True}]


STEPS = "double_until(w, limit)[1]"


def _loop(sub, start: float, limit: float, w: Value | None = None) -> tuple[dict, object]:
    """One call of double_until on a new leaf (or on ``w``, holding ``start``): what it returned
    and made, and the count itself."""
    w = Value(start, requires_grad=True) if w is None else w
    with watching(sub, "double_until", made=True) as call:  # made: whether it detached a Value that requires grad
        r = sub.double_until(w, limit)
    if type(r) not in (tuple, list) or len(r) != 2:
        raise shape_error(N_("double_until must return (y, steps)"), "double_until", r)
    (y, steps), label = r, f"y ({reach(start, limit)})"  # the label names the boundary case that differs
    count = "not an int: float" if type(steps) is float else steps  # 3.0 is no count of doublings
    # where a doubling runs, y is not the leaf given: the leaf returned in its place shows
    kept = [same_object(y, w, label, N_("the leaf w given to double_until"))] if doublings(start, limit) else []
    new = _Y_RETURNED.new(y, given=(w,))  # a y an earlier call returned: its graph was backpropagated and freed then
    built = graph(y, {"w": w}, label=label, flat=False)
    recorded = check(Check.COUNTS_RECORDED, None, STEPS) if new[CONTEXT + "earlier_call"] else count_fact(
        built, y is w, steps, start, limit, STEPS)
    # a loop that stops with y still below the limit (a limit cut to an int, one doubling short): a
    # Value's number only, what the loop doubled (a count returned in y's place is told by its type)
    reached = (None if y is w or new[CONTEXT + "earlier_call"] or not isinstance(y, Value)
               or type(number := num(y)) is not float else number >= limit)
    return {"steps": [result_of(count, STEPS), recorded], "new": new,
            "graph": [built, retains_as_context(value_of(y, label)), *kept, check(Check.REACHES_LIMIT, reached, label),
                      check(Check.DOUBLED_BELOW_LIMIT, None if new[CONTEXT + "earlier_call"] else _doubled_below(y, start, limit), label)],
            "grad": None if new[CONTEXT + "earlier_call"] else _backward(y, w),
            "call": [call.fact, none_detached(call, [y], "double_until")]}, steps


def _doubled_below(y: object, start: float, limit: float) -> bool | None:
    """Whether a y that is ``start`` doubled some times (its number start * 2 ** k, k > 0) went through
    its last doubling from below the limit: False where half of it is at or above the limit (a loop
    that doubles before it tests, or tests int(y)); True of any other number (no doubling seen), as of
    the statement's y = w; None of what is not a Value holding a float (told by its type)."""
    if not isinstance(y, Value) or type(number := num(y)) is not float:
        return None
    ratio = number / start
    return ratio <= 1 or math.frexp(ratio)[0] != 0.5 or number / 2 < limit


_Y_RETURNED = Returned(N_("the y double_until returned"), N_("the y an earlier call of double_until returned"))


def _loops(sub, cases: list[tuple[float, float]]) -> dict:
    """``_loop`` on each case (start, limit), by key, with the CHECK fact beside each count that it
    is not the count of a loop that goes on at y equal to the limit: False where it differs from
    the statement's and every count of the test is that loop's (a count matching it on one
    input only is no pattern of the code)."""
    runs, counts = zip(*(_loop(sub, start, limit) for start, limit in cases))
    past = all(type(n) is int and n == doublings(*case, past_limit=True) for n, case in zip(counts, cases))
    for run, case in zip(runs, cases):
        differs = past and doublings(*case, past_limit=True) != doublings(*case)
        run["steps"] = [*run["steps"], check(Check.STOPS_AT_LIMIT, not differs, STEPS)]
    return by_key(list(runs))


LOOP_FEEDBACK = ("Start with y = w and double it (y = y * 2) while y < limit, counting the "
                 "doublings; if w is already at or above the limit the loop runs zero times.")
LOOP_KEYS = {
    "steps": "count one step per doubling that ran; the loop stops as soon as y is no longer "
    "below the limit (y equal to the limit stops it)",
    "graph": "each doubling that runs records one y = y * 2 node, nothing else: y is w after "
    "zero doublings",
    "grad": "backward goes back through every recorded doubling: record one per doubling",
    "call": "double_until builds y only: the probe calls backward itself",
    "held": "double_until builds y only: w.grad stays as the caller left it",
}


@EXERCISE.test("the while loop on two inputs", points=1, public=True, feedback=LOOP_FEEDBACK,
               key_feedback=LOOP_KEYS)
def loop_public(sub):
    return {**_loops(sub, [(0.75, 6.0), (3.0, 10.0), (8.0, 2.0)]), "held": _held(sub),
            "apart": calls_apart(sub, _doubled, _doubling, (0.75, 6.0), (3.0, 10.0), "double_until")}


def _held(sub) -> dict[str, Any]:
    """The VALUE_KEPT fact of double_until on a leaf w holding a .grad of the caller's: the call
    leaves w, its .grad, its flag and its number as they were (the public test too, so that a
    student with the release sees a w the call changed)."""
    w = Value(1.25, requires_grad=True)
    return kept_through("double_until(w, limit)", {"w": w}, lambda: sub.double_until(w, 6.0))


@EXERCISE.test("the while loop follows the data", points=2, feedback=LOOP_FEEDBACK,
               key_feedback=LOOP_KEYS)
def loop_steps(sub):
    return {**_loops(sub, [(1.25, 10.0), (5.0, 5.0), (20.0, 5.0), (0.1, 1000.0), (1.0, 4.5)]), "again": _one_leaf_twice(sub),
            "apart": calls_apart(sub, _doubled, _doubling, (1.5, 12.0), (0.375, 40.0), "double_until"),
            "stepped": leaf_stepped_apart(sub, lambda m, w: m.double_until(w, 6.0), _doubling, 1.25, "double_until"),
            "held": _held(sub)}


def _one_leaf_twice(sub) -> dict:
    """double_until called again on the leaf and limit of a call whose y was backpropagated, as a
    training loop calls it: the statement's loop builds a new y each time; a y kept for the leaf
    (in a dict set on w, or keyed by its id) is the first one again, its graph freed by then."""
    w = Value(1.5, requires_grad=True)
    _loop(sub, 1.5, 12.0, w)
    return _loop(sub, 1.5, 12.0, w)[0]


def _doubled(sub, case: tuple[float, float]) -> Any:
    """double_until on a new leaf: what it returned."""
    return sub.double_until(Value(case[0], requires_grad=True), case[1])


def _doubling(r: object) -> list[Any] | str:
    """The number of y and the steps double_until returned."""
    if type(r) not in (tuple, list) or len(r) != 2:
        return "not (y, steps)"
    return [num(r[0]), r[1] if type(r[1]) is int else type_name(r[1])]


@EXERCISE.test("the loop's graph and gradient", points=2, feedback=LOOP_FEEDBACK,
               key_feedback=LOOP_KEYS)
def loop_graph(sub):
    # (0.0625, 2.5): more doublings than int(limit), so a for loop over range(int(limit)) stops short
    return _loops(sub, [(1.25, 30.0), (0.5, 0.25), (6.0, 96.0), (0.0625, 2.5)])


@EXERCISE.diagram
def draw(sub):
    w = _HANDED.hand(Value(0.75, requires_grad=True))
    positive, negative = sub.branch(2.0, w), sub.branch(-1.0, w)  # labelled as the feedback names them
    return [positive, negative], {"w": w, f"y ({_side(2.0)})": positive, f"y ({_side(-1.0)})": negative}
