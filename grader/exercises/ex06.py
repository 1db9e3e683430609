"""ex06 requires_grad: propagation, ``x = x + 1`` versus ``x.data.copy_(x.data + 1)``.

Every probe calls the submission on inputs that are not in the exercise text (w = 3, x = -1)
nor the documents' (w = 1, x = 2), several per test.  The probes observe how each result was
made: the graph behind y, which leaf the gradient reached, and for ``x.data.copy_`` whether
the x returned is still the very leaf the probe handed in, unchanged in its version counter (a
new leaf ``Value(x + 1, requires_grad=True)`` or an in-place add under no_grad shows).
Every function is called again on other inputs and on the first ones once more
(``grader.spec.repeat``): a leaf kept between calls shows.
"""

from typing import Any

from micrograph import AccumulateGrad, Value
from micrograph.i18n import N_  # a label's words, translated where they are shown
from micrograph.value import shares_storage, shares_version_counter

from grader.spec import Exercise
from grader.spec.call import Call
from grader.spec.facts import CONTEXT, Check
from grader.spec.graph import graph, graph_below
from grader.spec.detached_leaf import told_if_detached
from grader.spec.made_untracked import told_if_made_under_no_grad
from grader.spec.probe import dict_of, grad, num, plain_dict, shape_error
from grader.spec.detach_dropped import detach_used
from grader.spec.provenance import built, check, grad_of, same_object, value_of, watching
from grader.spec.made_from import operands
from grader.spec.one_leaf import leaf_per_name
from grader.spec.origins import made_of
from grader.spec.repeat import Returned, calls_apart, seen_all

EXERCISE = Exercise(
    "ex06", "requires_grad: propagation and changing a leaf", module="ex06_requires_grad"
)

FLAGS = [(False, False), (False, True), (True, False), (True, True)]
NODES = ("w", "x", "a", "b", "y")


def _leaf_per_name(g: dict[str, Any], w: float, x: float) -> dict[str, Any]:
    """The LEAF_PER_NAME fact of the w and x build returned, with ``~returned_twice`` (one Value
    returned under both names, ``"x": w``) unless a's node takes that one leaf as both its inputs,
    which shows the code made one leaf for both: a leaf that requires no grad is in no graph, so
    nothing else says which slip it is, and one Value under two names is true of either."""
    fact = leaf_per_name({"w": g["w"], "x": g["x"]}, "build")
    a = g["a"]
    node = a.grad_fn if isinstance(a, Value) else None
    inputs = [n.variable for n, _ in node.next_functions if isinstance(n, AccumulateGrad)] if node is not None else []
    if fact.get("holds") is False and not (len(inputs) == 2 and inputs[0] is inputs[1] is g["x"]):
        fact[CONTEXT + "returned_twice"] = True
    return fact


def _build(sub, w: float, x: float, flags: tuple[bool, bool], note: str = "") -> dict:
    """One call of build, its Values labelled with ``note`` (the call's flags, where a test makes
    calls with different ones: what is right of one call is wrong of another)."""
    with watching(sub, "build", made=True) as call:
        g = plain_dict(sub.build(w, x, *flags))
    observed = built(g, "y", NODES, "build", note)  # checks g is the dict asked for
    return {**observed, "leaves": _leaf_per_name(g, w, x), "backward": call.fact,
            "detach_used": detach_used(call, g, flags, "build"), "flags_late": _flags_before_ops(g, call),
            "new": [returned.new(g[name]) for name, returned in _LEAVES_RETURNED.items()]}


def _flags_before_ops(g: object, call: Call) -> dict[str, Any]:
    """The FLAGS_BEFORE_OPS fact of build: no Value it returned as a, b or y records nothing where an
    operation of the call made it from a leaf returned as w or x that requires grad now: that leaf was
    made requiring no grad and its requires_grad turned on (``requires_grad_()``) once the operation had
    run, which recorded nothing.  The Value and the leaf named as context.  Not judged where grad mode
    was off (told as such) or the answer is no dict of Values."""
    if type(g) is not dict or not all(isinstance(g.get(n), Value) for n in NODES) or call.grad_mode_off:
        return check(Check.FLAGS_BEFORE_OPS, None, "build")
    for name in ("a", "b", "y"):
        v = g[name]
        inputs = made_of(call, v)
        leaf = next((n for n in ("w", "x") if g[n].requires_grad and any(i is g[n] for i in inputs)), None)
        if leaf is not None and not v.requires_grad and call.made_untracked.get(id(v)) is not v:
            return {**check(Check.FLAGS_BEFORE_OPS, False, "build"), CONTEXT + "name": name, CONTEXT + "leaf": leaf}
    return check(Check.FLAGS_BEFORE_OPS, True, "build")


_LEAVES_RETURNED = {
    "w": Returned(N_("the w build returned"), N_("the w an earlier call of build returned")),
    "x": Returned(N_("the x build returned"), N_("the x an earlier call of build returned")),
}
"""Every leaf build returned in this run: the statement makes two new leaves at each call, and
leaves cached on the inputs ("the same leaves for the same inputs") are told by their identity
where a call repeats an earlier one's inputs (a caller's backward through both results then adds
both gradients into one .grad)."""


FLAGS_NOTE = {(False, False): N_("neither leaf requires grad"), (False, True): N_("w without grad"),
              (True, False): N_("x without grad"), (True, True): N_("both leaves require grad")}
"""The note on a call's labels: which leaves its flags make require grad (the calls of one test
with the same flags share it: a difference seen in several is told once, of those flags)."""

BUILD_FEEDBACK = ("Create w and x with the flags given, then a = x + w, b = w + 1, y = a * b, "
                  "and do not call backward.")


@EXERCISE.test("a result requires grad if an input does", points=2, public=True,
               feedback=BUILD_FEEDBACK)
def propagation_public(sub):
    return [_build(sub, w, x, (False, True)) for w, x in [(0.5, -2.5), (-1.5, 4.0)]]


@EXERCISE.test("every combination of flags", points=2, feedback=BUILD_FEEDBACK)
def propagation_all(sub):
    return {**{f"w={f[0]}, x={f[1]}": _build(sub, w, x, f, FLAGS_NOTE[f])
               for f, (w, x) in zip(FLAGS, [(2.25, -0.75), (-1.0, 0.0), (0.0, 3.5), (4.0, -4.0)])},
            # w and x of one number, with other flags and with the same: two leaves, each its own flag
            "w == x": _build(sub, 1.25, 1.25, (True, False), FLAGS_NOTE[True, False]),
            "w == x, both require grad": _build(sub, -0.75, -0.75, (True, True), FLAGS_NOTE[True, True]),
            # new leaves all the same
            "the inputs of an earlier call again": _build(sub, 4.0, -4.0, (True, True), FLAGS_NOTE[True, True]),
            "apart": calls_apart(sub, lambda m, case: m.build(*case), seen_all,
                                 (1.5, -2.0, True, True), (-0.5, 3.0, True, True), "build")}


@EXERCISE.test("only leaves that require grad get a gradient", points=1,
               feedback="Backward fills .grad only for leaves created with requires_grad=True.")
def leaf_grads(sub):
    # each call's leaves new: one an earlier call returned (a leaf kept in a global) holds that call's gradient too
    observed: dict[str, Any] = {"new": []}
    for w_flag, x_flag in FLAGS[1:]:
        g = dict_of(sub.build(-0.5, 3.5, w_flag, x_flag), NODES, "build")
        observed["new"] += [returned.new(g[name]) for name, returned in _LEAVES_RETURNED.items()]
        g["y"].backward()
        note = FLAGS_NOTE[w_flag, x_flag]  # each label names its call's flags: the calls say opposite things of w.grad
        observed[f"w={w_flag}, x={x_flag}"] = [grad_of(g["w"], f"w.grad ({note})"), grad_of(g["x"], f"x.grad ({note})")]
    return observed


def _rebinding(sub, w: float, x: float) -> dict:
    with (watching(sub, "shift_by_rebinding", clears=True, made=True) as call,
          told_if_made_under_no_grad(call, "shift_by_rebinding")):  # x = x + 1 under no_grad: y has no graph
        r = plain_dict(sub.shift_by_rebinding(w, x))
    if type(r) is not dict or not {"x0", "x", "y"} <= set(r):
        raise shape_error('shift_by_rebinding must return {"x0": x0, "x": x, "y": y}', "shift_by_rebinding", r)
    names = {"x0": r["x0"], "x": r["x"]}
    new = _Y_REBOUND.new(r["y"])  # a y an earlier call returned: its backward ran in that call
    observed = built({**names, "y": r["y"]}, "y", ("x0", "x", "y"), "shift_by_rebinding", data=_w_as_data(w, x),
                     freeing=False)  # the statement never says whether y.backward() frees the graph
    source = _detached_source(r["x"], call)
    if source is not None:  # y's graph is the one its own x is in, whatever was returned under the name
        observed["graph"] = graph(r["y"], {**names, "x": source, "y": r["y"]}, label="y", data=_w_as_data(w, x),
                                  freeing=False)
    return {
        "y": observed,
        # x's own graph, its additions not merged: `x = x + 1` written twice stacks a second AddBackward0
        # where y's flat graph, which merges a chain of additions, shows only numbers
        "x_graph": graph(r["x"], names, label="x", flat=False),
        "grads": [grad_of(r["x0"], "x0.grad"), grad_of(r["x"], "x.grad")],
        "x0": _leaf_itself(r["x0"], call, "x0"), "new": new,
        "x": check(Check.RETURNED_UNDETACHED, source is None, "x"),
        "backward": None if new[CONTEXT + "earlier_call"] else call.fact,
        # the graph the call's backward ran through: a pass from a (or a Value made apart) is told by its root
        "walked": None if new[CONTEXT + "earlier_call"] else graph_below(call.first_root, label="shift_by_rebinding's backward"),
    }


_Y_REBOUND = Returned(N_("the y shift_by_rebinding returned"), N_("the y an earlier call of shift_by_rebinding returned"))
"""Every y shift_by_rebinding returned in this run (the diagram's call first): the statement
builds a new graph and runs its backward at each call, and a result cached on the inputs
(``functools.lru_cache``) is told by its identity, not as a call that ran no backward pass."""


def _w_as_data(w: float, x: float) -> dict[str, float] | None:
    """The data the statement makes inside shift_by_rebinding and shift_by_data_copy, w = Value(w)
    (no grad), by its number: a leaf of y's graph holding it is w, made requiring grad.  None where
    x or x + 1 holds that number too: a leaf the student's code made in place of x would be
    taken for w."""
    return None if w in (x, x + 1) else {"w": w}


def _detached_source(v: object, call: Call) -> Value | None:
    """The Value an operation of the call made that ``v`` is a detach() of (sharing its number and
    version counter, with no graph of its own): ``x.detach()`` returned for the x y was made from."""
    if not isinstance(v, Value) or v.grad_fn is not None or v.requires_grad:
        return None
    return next((m for m in (call.probe_made or {}).values() if isinstance(m, Value) and m is not v and m.grad_fn is not None
                 and shares_storage(m, v) and shares_version_counter(m, v)), None)


def _leaf_itself(v: object, call: Call, label: str) -> dict[str, Any]:
    """The CHECK fact that ``v`` is no other Value than a leaf the call's passes wrote into
    sharing its number: False for ``x.detach()`` or ``x.data`` returned in place of the leaf x,
    with, where it shares no version counter with it, ``~data`` if the student's code read that
    leaf's ``.data``, else ``~copy`` (``copy.copy(x)``: a copy, made without reading .data)."""
    copied = [leaf for leaf in call.pass_leaves.values()
              if isinstance(v, Value) and leaf is not v and shares_storage(leaf, v)]
    fact = check(Check.LEAF_ITSELF, not copied, label)
    if copied and not any(shares_version_counter(leaf, v) for leaf in copied):
        read = any(call.through_data.get(id(leaf)) is leaf for leaf in copied)
        fact[CONTEXT + ("data" if read else "copy")] = True
    return fact


REBIND_FEEDBACK = ("Keep the leaf as x0, rebind x = x + 1 (a new Value made by an addition), "
                   "build y from w and the new x, then call y.backward().")


@EXERCISE.test("x = x + 1 makes x a non-leaf", points=2, public=True, feedback=REBIND_FEEDBACK)
def rebinding_public(sub):
    return {"runs": [_rebinding(sub, w, x) for w, x in [(0.5, 1.5), (-2.0, 0.25)]],
            "apart": calls_apart(sub, lambda m, point: m.shift_by_rebinding(*point), _shifted,
                                 (-2.0, 0.25), (0.5, 1.5), "shift_by_rebinding")}


@EXERCISE.test("the original leaf gets the gradient", points=2, feedback=REBIND_FEEDBACK)
def rebinding_hidden(sub):
    return {"runs": [_rebinding(sub, w, x) for w, x in [(1.5, -4.0), (-1.0, 0.5), (0.0, -1.0), (7.0, 7.0)]],
            "apart": calls_apart(sub, lambda m, point: m.shift_by_rebinding(*point), _shifted,
                                 (2.0, -0.5), (-3.0, 1.5), "shift_by_rebinding")}


def _shifted(r: object) -> list[Any] | str:
    """The numbers and x0's gradient of what shift_by_rebinding returned."""
    r = plain_dict(r)
    if type(r) is not dict or not {"x0", "x", "y"} <= set(r):
        return "not the dict asked for"
    return [num(r["x0"]), num(r["x"]), num(r["y"]), grad(r["x0"])]


def _data_copy(sub, w: float, x: float) -> dict:
    leaf = Value(x, requires_grad=True)
    with watching(sub, "shift_by_data_copy", made=True) as call, told_if_detached(call, "shift_by_data_copy"), \
            told_if_made_under_no_grad(call, "shift_by_data_copy"):  # y from x.data: y has no graph
        r = plain_dict(sub.shift_by_data_copy(w, leaf))  # x.detach_() before the change: y has no graph
    if type(r) is not dict or not {"x", "y"} <= set(r):
        raise shape_error('shift_by_data_copy must return {"x": x, "y": y}', "shift_by_data_copy", r)
    return {
        "same_leaf": same_object(r["x"], leaf, "the x returned", "the leaf x you were given"),
        "x": {**value_of(leaf, "the leaf x you were given"), CONTEXT + "unchanged": leaf.item() == x,
              **({CONTEXT + "from_input": "w"} if w != x and leaf.item() == w + 1 else {}),  # x.data.copy_(w.data + 1)
              # the change made twice: the number it leaves, and two writes into x's number seen
              **({CONTEXT + "shifted_more": True} if leaf.item() == x + 2 and call.writes_into(leaf) == 2 else {}),
              **({CONTEXT + "through_detach": True} if call.wrote_through_detach(leaf) else {}),  # x.detach().add_(1)
              **({CONTEXT + "x_is_w": True} if w == x else {})},  # w + 1 tells nothing there
        "y": {"graph": graph(r["y"], {"x": leaf}, label="y", data=_w_as_data(w, x), held=(call.probe_made or {}).values(),
                             freeing=False),
              "value": {**value_of(r["y"], "y"),  # context: y made, then x changed through .data
                        CONTEXT + "changed_after": leaf.item() != x and call.made_before_data(r["y"], leaf) and "x"}},
        "grad": grad_of(leaf, "x.grad"),
        "backward": call.fact,
    }


COPY_FEEDBACK = ("Change the leaf you are given with x.data.copy_(x.data + 1): it stays the same "
                 "leaf, requires grad, and its version counter does not move; then build y from "
                 "w and x and call y.backward().")


def _from_w_everywhere(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The runs, with the leaf's ``~from_input`` kept only where every run whose w and x differ shows
    it: a number that equals w + 1 on one input only (x changed twice, x + 2 == w + 1 there) is a
    coincidence, not code that changed x using w."""
    apart = [run for run in runs if CONTEXT + "x_is_w" not in run["x"]]
    if all(CONTEXT + "from_input" in run["x"] for run in apart):
        return runs
    return [{**run, "x": {k: v for k, v in run["x"].items() if k != CONTEXT + "from_input"}} for run in runs]


@EXERCISE.test("x.data.copy_ keeps x a leaf", points=2, public=True, feedback=COPY_FEEDBACK)
def data_copy_public(sub):
    return {"runs": _from_w_everywhere([_data_copy(sub, w, x) for w, x in [(2.5, -1.5), (-0.75, 6.0)]]),
            "apart": calls_apart(sub, lambda m, point: m.shift_by_data_copy(point[0], Value(point[1], requires_grad=True)),
                                 seen_all, (-0.75, 6.0), (2.5, -1.5), "shift_by_data_copy")}


@EXERCISE.test("gradient after copy_ on other inputs", points=2, feedback=COPY_FEEDBACK)
def data_copy_hidden(sub):
    return {"runs": _from_w_everywhere([_data_copy(sub, w, x) for w, x in [(4.0, 0.5), (-1.0, -2.0), (0.5, -1.0), (0.0, 0.0)]]),
            "apart": calls_apart(sub, lambda m, point: m.shift_by_data_copy(point[0], Value(point[1], requires_grad=True)),
                                 seen_all, (1.5, -0.5), (-2.0, 2.5), "shift_by_data_copy"),
            "twice": _twice_on_one_leaf(sub, 1.5, -0.5)}


def _twice_on_one_leaf(sub, w: float, x: float) -> dict:
    """shift_by_data_copy called twice on one leaf x: the second call adds 1 to it again and
    backpropagates again (its .grad adds up), as the statement's steps do on any leaf given; a
    result kept per leaf (a dict keyed by ``id(x)``) is returned again and changes nothing, and
    x.grad cleared before the second call's backward (``x.grad = None`` to "start clean") drops
    the first call's gradient: the second call is watched for that clearing.  The ANEW_ON_OBJECT
    fact fails where the second call returned the first call's result, or its y (lru_cache)."""
    leaf = Value(x, requires_grad=True)
    first = sub.shift_by_data_copy(w, leaf)
    with watching(sub, "shift_by_data_copy", clears=True) as call:
        second = sub.shift_by_data_copy(w, leaf)
    twice = "shift_by_data_copy(w, x); shift_by_data_copy(w, x)"
    cleared = call.clears[0] if call.clears else None  # x.grad, left by the first call, cleared before the pass
    again = second is first or type(first) is dict and type(second) is dict and first.get("y") is not None \
        and second.get("y") is first.get("y")
    return {"x": value_of(leaf, f"x after {twice}"), "grad": grad_of(leaf, f"x.grad after {twice}"),
            "start": {**check(Check.START_KEPT, None if cleared is None else not cleared, "shift_by_data_copy"),
                      CONTEXT + "again": True},
            "same_leaf": {**check(Check.ANEW_ON_OBJECT, not again, "shift_by_data_copy"), CONTEXT + "object": "x"}}


@EXERCISE.diagram
def draw(sub):
    with watching(sub, "shift_by_rebinding", made=True) as call:  # b = w + 1, which y's node saved and
        r = plain_dict(sub.shift_by_rebinding(0.5, 1.5))  # backward freed, drawn with its number
    if type(r) is dict and "y" in r:
        _Y_REBOUND.new(r["y"])  # a later call that returns it again returns this call's result
    return [r["y"]], r, operands(call)
