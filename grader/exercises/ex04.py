"""ex04 retain_graph: tests for the second-backward error, retain_graph=True, and which graphs
survive a second backward without it (those that saved nothing: additions, subtractions, negation).

Each call is observed with the backward passes it ran (the second call must really happen: an
error made by hand is not the engine's) and with the numbers w.grad held (each number returned
must be one of them, read, not computed from the first), and the graph sets sit on the
statement's boundary: a sum whose root is an addition but which holds a product below it, a
product by 1, a division by 1, a negation of a sum.
``backward_twice`` and ``second_backward_error`` are called again on other inputs and on the first
ones once more (``grader.spec.repeat``): a record list or an error kept between calls shows.  The given ``build_graph`` is
watched where backward_twice calls it (``grader.spec.given``): an edit made there is told as
build_graph's, not as backward_twice's.
"""

from __future__ import annotations

from typing import Any

from micrograph import Value
from micrograph.i18n import N_  # a probe's message, translated where it is shown

from grader.spec import Exercise
from grader.spec.probe import by_key, num, shape_error, type_name
from grader.spec.facts import CONTEXT, Check
from grader.spec.raised_in_call import told_in_call
from grader.spec.origins import handed_to_hooks, read_from_grad, read_from_leaf, seeded_one
from grader.spec.errors import error_of
from grader.spec.given import GivenCalls, given_calls
from grader.spec.given_untracked import ModeNoted, told_if_untracked
from grader.spec.graph_again import told_if_earlier_graph
from grader.spec.made_untracked import told_if_detached_given
from grader.spec.handed import carries_state
from grader.spec.helpers import arguments_of, passed_in_order
from grader.spec.made_from import operands
from grader.spec.provenance import Call, check, float_of, result_of, watching
from grader.spec.refused import refused_detached
from grader.spec.repeat import calls_apart, seen_all

EXERCISE = Exercise("ex04", "retain_graph and the second backward", module="ex04_retain_graph")

# Graphs of additions, subtractions and negations only: nothing saved, nothing freed.
ADDITIONS = {
    "v + 1": lambda v: v + 1,
    "2.5 - v": lambda v: 2.5 - v,
    "(v + 1) + (v + 2) + v": lambda v: (v + 1) + (v + 2) + v,
    "-v - v": lambda v: -v - v,
    "-(v + 1) - 2": lambda v: -(v + 1) - 2,
}
# Graphs with at least one node that saves a value for its backward step.
SAVING = {
    "v * 3": lambda v: v * 3,
    "v * v": lambda v: v * v,
    "(v + 1) * 2": lambda v: (v + 1) * 2,
    "v + v * 0.5": lambda v: v + v * 0.5,
    "v * 1": lambda v: v * 1,
    "v / 2": lambda v: v / 2,
    "v ** 2": lambda v: v**2,
    "exp(v)": lambda v: v.exp(),
    "tanh(v) + 1": lambda v: v.tanh() + 1,
}


def _history_label(retain_graph: bool) -> str:
    """The label of the w.grad records a call returned, naming the call by its flag: the student
    then knows which of the two calls (retain_graph=False or True) differs."""
    return f"backward_twice(w, x, retain_graph={retain_graph})[1]"


def _twice(sub, w: float, x: float, retain_graph: bool) -> dict[str, Any]:
    with told_in_call(f"backward_twice(w, x, retain_graph={retain_graph})"), \
            arguments_of(sub, "build_graph") as passed, given_calls(sub) as given, \
            watching(sub, "backward_twice", retain_graph=True, grad_numbers=True, errors=True, clears=True, made=True) as call, \
            told_if_untracked(given, "backward_twice", "build_graph", call.offs), \
            told_if_earlier_graph(call, "backward_twice"):  # build_graph under no_grad; a graph kept between calls
        answer = sub.backward_twice(w, x, retain_graph)
    if type(answer) not in (tuple, list) or len(answer) != 2:  # a pair, whichever sequence holds it
        raise shape_error(N_("backward_twice must return a pair (error or None, [w.grad, w.grad])"),
                          "backward_twice", answer)
    error, history = answer
    label, returned = _history_label(retain_graph), f"backward_twice(w, x, retain_graph={retain_graph})"
    earlier = any(_WRITTEN.get(key) is leaf for key, leaf in call.pass_leaves.items())
    _WRITTEN.update(call.pass_leaves)
    new = None if not call.clears else not (earlier and not call.clears[0])
    return {"given": given.fact, "passed": passed_in_order(passed, w, x, "backward_twice", "build_graph"),
            "one_root": _one_root(call, "backward_twice"),  # the second pass runs on the first's y again, not a new one
            "error": error_of(error, f"the error {returned} returned", call),
            "in_turn": [_first_in_turn(history, call, label), _second_in_turn(history, call, label)],
            "after_raise": _after_raise(history, call, label),
            "w_grad": {**result_of(_history(answer), label), **_hooked(history, call, given)},
            "floats": [float_of(g, f"{label}[{i}]") for i, g in enumerate(history)]
            if type(history) is list else None,
            "read": read_from_grad(history, call, label), "leaf": _read_from_w(history, call, given, label),
            "backward": {**_passes(call, given), CONTEXT + "retain_graph_given": retain_graph}, "new": check(Check.LEAVES_NEW, new, "backward_twice"),
            "seed": seeded_one(call.root_grads, returned)}  # y.backward(Value(2.0), ...): every record scaled


def _one_root(call: Call, label: str) -> dict[str, Any]:
    """The ONE_ROOT fact: every pass of the call started from the root its first pass started from;
    as context (``~inside``), where one did not, whether each such root is a node the first pass
    ran through (``g["a"].backward()`` for ``y.backward()``: no new graph, a part of the first)."""
    if not call.roots:
        return check(Check.ONE_ROOT, None, label)
    others = [r for r in call.roots[1:] if r != call.roots[0]]
    return {**check(Check.ONE_ROOT, not others, label),
            **({CONTEXT + "inside": True} if others and all(r <= call.first_nodes for r in others) else {})}


_WRITTEN: dict[int, Any] = {}
"""Every leaf a backward pass of backward_twice wrote into in this run, kept alive (so no id is
reused): a first pass writing into one of them, its .grad not cleared, adds to a gradient an
earlier call left, where the statement makes new leaves at each call."""


def _read_from_w(history: object, call: Call, given: GivenCalls, label: str) -> dict[str, Any]:
    """The READ_FROM_LEAF fact of the records: none is x's gradient, read from the x.grad of the
    graph build_graph returned (the one backward_twice ran on), where w.grad is recorded.  Code
    that builds its graph without build_graph read no x.grad of one: it holds (the numbers it
    recorded are told by their own facts)."""
    graphs = [g for g in given.returned if type(g) is dict and isinstance(g.get("w"), Value) and isinstance(g.get("x"), Value)]
    if not graphs:
        return check(Check.READ_FROM_LEAF, True, label)
    return read_from_leaf(history, call, {"w": graphs[-1]["w"], "x": graphs[-1]["x"]}, "w", label)


def _hooked(history: object, call: Call, given: GivenCalls) -> dict[str, Any]:
    """The context naming the leaf of build_graph's graph whose hook was handed a number recorded
    (``handed_to_hooks``): a hook on w sees the gradient each pass sends it, not w.grad after it."""
    graphs = [g for g in given.returned if type(g) is dict]
    leaves = {name: graph[name] for graph in graphs[-1:] for name in ("w", "x") if isinstance(graph.get(name), Value)}
    return handed_to_hooks(history, call, leaves) if leaves else {}


def _passes(call: Call, given: GivenCalls) -> dict[str, Any]:
    """The passes' facts, a clear judged only between them and on w alone: the leaves are new,
    so a .grad set to None before the first pass clears nothing, and the statement reports
    w.grad, so x.grad dropped between the passes changes nothing backward_twice returns."""
    clears = call.fact.get("cleared_between")
    if type(clears) is not list:
        return call.fact
    ws = [graph["w"] for graph in given.returned if type(graph) is dict and "w" in graph]
    w_cleared = not ws or any(call.cleared_between(w) for w in ws)
    return {**call.fact, "cleared_between": [k > 0 and cleared and w_cleared for k, cleared in enumerate(clears)]}


def _first_in_turn(history: object, call: Call, label: str) -> dict[str, Any]:
    """The READ_IN_TURN fact of the first record: not the very float a leaf's .grad holds after
    a second pass that ran to its end (``item()`` hands out the float .grad holds, and each pass
    makes new ones: the .grad Value kept from the first pass and read at the end gives the
    second pass's)."""
    first = history[0] if type(history) is list and history else None
    second_ran = call.started >= 2 and not call.raised
    late = second_ran and first is not None and any(
        leaf.grad is not None and first is leaf.grad.item() for leaf in call.written.values())
    return {**check(Check.READ_IN_TURN, not late, f"{label}[0]"), CONTEXT + "first": True}


def _second_in_turn(history: object, call: Call, label: str) -> dict[str, Any]:
    """The READ_IN_TURN fact of the second record: not the very float the first one is, where a second
    pass ran to its end (it added to w.grad, whose number is then a new float; both read before it,
    ``[w.grad.item()] * 2``, are one).  Context ``second``: the sentence names the record."""
    pair = history if type(history) is list and len(history) == 2 else None
    early = call.started >= 2 and not call.raised and pair is not None and type(pair[0]) is float and pair[1] is pair[0]
    return {**check(Check.READ_IN_TURN, not early, label), CONTEXT + "second": True}


def _after_raise(history: object, call: Call, label: str) -> dict[str, Any]:
    """The RECORDED_AFTER_RAISE fact: where the second call raised, w.grad was recorded after it
    too, not only after the first (a record taken inside the try, after the call, is skipped when
    it raises).  Not judged where no pass raised, or the records are not one entry short."""
    judged = bool(call.raised) and type(history) is list
    return check(Check.RECORDED_AFTER_RAISE, None if not judged else len(history) != 1, label)


TWICE_KEYS = {
    "error": "catch the second call's RuntimeError with try / except RuntimeError as error, and "
    "return the error object (None when the second call works)",
    "read": "read each number from w.grad (w.grad.item()) right after its call, rather than "
    "computing it from an earlier one",
    "backward": "call y.backward() twice: the first with retain_graph=retain_graph, the second "
    "without it",
}
TWICE_FEEDBACK = "Call y.backward(retain_graph=retain_graph), then y.backward() again."


@EXERCISE.test("a second backward raises", points=2, public=True, feedback=TWICE_FEEDBACK,
               key_feedback=TWICE_KEYS)
def second_raises(sub):
    return _twice(sub, 0.5, -3.0, False)


@EXERCISE.test("with retain_graph=True the second backward adds", points=2, public=True,
               feedback=TWICE_FEEDBACK, key_feedback=TWICE_KEYS)
def retained_adds(sub):
    return _twice(sub, 2.0, 4.0, True)


@EXERCISE.test("a failed second backward on other inputs", points=1, feedback=TWICE_FEEDBACK,
               key_feedback=TWICE_KEYS)
def failed_hidden(sub):
    cases = [(-1.25, 0.75), (0.0, 0.0), (3.0, -1.0)]
    return by_key([_twice(sub, w, x, False) for w, x in cases])


@EXERCISE.test("backward twice on other inputs", points=1, feedback=TWICE_FEEDBACK,
               key_feedback=TWICE_KEYS)
def twice_hidden(sub):
    cases = [(-2.0, 5.0), (-1.0, 3.0), (0.0, 0.0)]
    return {**by_key([_twice(sub, w, x, True) for w, x in cases]),
            "apart": calls_apart(sub, lambda m, case: m.backward_twice(*case), _history,
                                 (1.5, 0.5, True), (-3.0, 2.0, True), "backward_twice")}


def _history(answer: object) -> list[Any] | str:
    """The w.grad records of what backward_twice returned (its pair's second item), as numbers."""
    history = answer[1] if type(answer) in (tuple, list) and len(answer) == 2 else answer
    return [num(g) for g in history] if type(history) is list else f"not a list: {type_name(history)}"


_HANDED: list[object] = []
"""Every Value second_backward_error handed build in this run, kept alive (no later Value takes its id)."""


def _handed_new(given: list[object]) -> dict[str, Any]:
    """The HANDED_NEW fact of one call: build was handed no Value an earlier call had handed it (a
    leaf made once and refilled at each call is state kept between calls).  Only what can carry
    state counts (``carries_state``): a None or a small int handed again is one object in calls that
    kept nothing.  None where it was handed no such object."""
    kept = [v for v in given if carries_state(v)]
    new = None if not kept else not any(v is earlier for v in kept for earlier in _HANDED)
    _HANDED.extend(kept)
    return check(Check.HANDED_NEW, new, "second_backward_error")


def _survives(sub, graphs: dict[str, Any], ws: tuple[float, ...]) -> dict[str, Any]:
    errors, calls, roots, handed, ran, new = {}, [], [], [], [], []
    for (label, build), w in zip(graphs.items(), ws):
        given: list[object] = []  # what the student's code handed build (kept alive)
        built: list[object] = []  # ... and what build returned

        def handing(v: object, build: Any = build, given: list[object] = given, built: list[object] = built) -> Any:
            given.append(v)
            built.append(build(v))
            return built[-1]

        noted = ModeNoted(handing)  # whether grad mode was on at each call of build
        with told_in_call(f"for y = {label}, second_backward_error(build, w)"), \
                watching(sub, "second_backward_error", retain_graph=True, errors=True, made=True) as call, \
                told_if_detached_given(call, "second_backward_error", "build", given), \
                told_if_untracked(noted, "second_backward_error", "build", call.offs):  # build(leaf.detach()); build under no_grad
            error = sub.second_backward_error(noted, w)
        raised = error is not None or bool(call.raised)
        handed.append(_given_leaf(given, raised) if label in ADDITIONS
                      else check(Check.BUILD_GIVEN_LEAF, None, "second_backward_error"))  # it raises either way
        ran.append(_ran_on_built(built, call) if label in ADDITIONS
                   else check(Check.RAN_ON_BUILT, None, "second_backward_error"))
        errors[label] = {**error_of(error, f"the error for {label}", call), **_on_detached(error, call)}
        calls.append(call.fact)
        roots.append(_one_root(call, "second_backward_error"))  # the second pass runs on the first's graph again
        new.append(_handed_new(given))
    return {"error": errors, "backward": calls, "one_root": roots, "handed": handed, "ran_on_built": ran, "new": new}


def _on_detached(error: object, call: Call) -> dict[str, Any]:
    """Context of the error returned (``~on_detached``): the backward the engine refused in raising
    it was tried on a Value the call detached (``y.detach().backward()``), which has no graph to
    run, where the statement's second backward runs on y itself (``refused_detached``)."""
    refused = refused_detached(error, call, "second_backward_error").get("holds") is True
    return {CONTEXT + "on_detached": True} if refused else {}


def _given_leaf(given: list[object], raised: bool) -> dict[str, Any]:
    """The CHECK fact of a graph of additions: build was handed the leaf itself, not a Value an
    operation of the student's code made from it (``build(leaf * 1.0)``) that made the second
    backward raise: that operation stands in build's graph, and what it saved was freed by the first
    backward.  ``~op``: that operation.  None where build was handed no Value (other facts tell; a
    plain number handed besides the leaf builds no graph);
    an operation that saves nothing (``leaf + 0``) changes nothing observed, and holds."""
    made = next((v for v in given if isinstance(v, Value) and v.grad_fn is not None), None)
    if made is not None and raised:
        return {**check(Check.BUILD_GIVEN_LEAF, False, "second_backward_error"), CONTEXT + "op": str(made.grad_fn.name())}
    return check(Check.BUILD_GIVEN_LEAF, True if any(isinstance(v, Value) for v in given) else None,
                 "second_backward_error")


def _ran_on_built(built: list[object], call: Call) -> dict[str, Any]:
    """The CHECK fact of a graph of additions: the backward passes ran on the y build returned,
    not on a graph the student's code made itself (the documents' ``u * u + 1``) that made the
    second backward raise.  ``~never``: build was never called; ``~op``: the node the failed pass
    stopped at (what that graph saved and the first pass freed).  None where no pass ran (other
    facts tell); a graph of the student's own on which no pass failed changes nothing observed."""
    if call.first_root is None:
        return check(Check.RAN_ON_BUILT, None, "second_backward_error")
    if any(isinstance(y, Value) and y.grad_fn is call.first_root for y in built) or call.raised_at is None:
        return check(Check.RAN_ON_BUILT, True, "second_backward_error")
    return {**check(Check.RAN_ON_BUILT, False, "second_backward_error"),
            CONTEXT + "never": not built, CONTEXT + "op": call.raised_at}


SURVIVE_FEEDBACK = ("Build y from a new leaf, call y.backward(), then try y.backward() again: "
                    "return its RuntimeError, or None when it works.")
SURVIVE_KEYS = {
    "error": "additions, subtractions and negations save nothing, so nothing is freed; any "
    "product (even by a number), division, power, exp or tanh saves a value that the first "
    "backward frees, wherever it sits in the graph",
    "backward": "run backward on the graph twice; do not decide from the graph's ops alone",
    "new": "create a new leaf Value(w, requires_grad=True) at each call and hand that leaf to build",
}


@EXERCISE.test("which graphs survive a second backward", points=2, public=True,
               feedback=SURVIVE_FEEDBACK, key_feedback=SURVIVE_KEYS)
def survives_public(sub):
    return _survives(sub, {k: ADDITIONS[k] for k in ("v + 1",)} | {k: SAVING[k] for k in ("v * 3", "v ** 2")},
                     (1.5, -0.5, 2.0))


@EXERCISE.test("graphs of additions run twice", points=2, feedback=SURVIVE_FEEDBACK,
               key_feedback=SURVIVE_KEYS)
def additions_twice(sub):
    return _survives(sub, ADDITIONS, (1.5, -0.5, 4.0, 0.25, 0.0))


@EXERCISE.test("graphs that save values do not", points=2, feedback=SURVIVE_FEEDBACK,
               key_feedback=SURVIVE_KEYS)
def saving_fails(sub):
    cases = (next(iter(SAVING.values())), 1.25), (next(iter(ADDITIONS.values())), -0.75)
    return {**_survives(sub, SAVING, (1.5, -0.5, 2.0, 0.25, 3.0, -1.5, 0.5, -2.0, 0.0)),
            "apart": calls_apart(sub, lambda m, case: m.second_backward_error(*case), seen_all, *cases,
                                 "second_backward_error")}


@EXERCISE.diagram
def draw(sub):
    # The graph of the documents, after the backward that freed its saved values: an input that
    # needs no grad, which a node saved and backward freed (b = w.detach() + 1), drawn as the Value made.
    with watching(sub, "build_graph", made=True) as call:
        g = sub.build_graph(0.5, -3.0)
    g["y"].backward()
    return [g["y"]], g, operands(call)
