"""ex02 leaves: tests for is_leaf / requires_grad / grad_fn, leaves without grad, no-grad results.

Covers the first document's attribute table, and the third document's examples 2 and 3: a Value
computed from a grad-requiring leaf is never a leaf; with w created without requires_grad,
b = w + 1 records nothing and is a leaf.  Each flag combination is shown by a public test and
re-checked by a hidden one on other inputs; the graphs are observed as built (GRAPH and VALUE
facts), and leaf_grads must get its numbers from a backward pass.
``leaf_grads`` is watched for the leaves its backward wrote into: as many as the flags given
set to True (a graph built with every leaf requiring grad and the flags applied to the answer
afterwards shows).
``build_graph`` and ``leaf_grads`` are called again on other inputs and on the first ones once
more (``grader.spec.repeat``): a dict or leaves kept between calls show.  node_info is given
Values kept alive (``grader.spec.held``), but for new leaves put at one id on purpose
(``_node_info_of_new``): an answer kept by ``id(v)`` is met there on every run, and nowhere else.
"""

from __future__ import annotations

from typing import Any

from micrograph import Value, add, exp, mul, sub
from micrograph.i18n import N_  # a probe's note on a call, translated where it is shown

from grader.spec import Exercise
from grader.spec.defaults import Earlier, default_after, default_kept
from grader.spec.detach_dropped import detach_used
from grader.spec.facts import CONTEXT, Check
from grader.spec.freed import OneId
from grader.spec.graph_state import graph_nodes
from grader.spec.held import held
from grader.spec.helpers import apart_from
from grader.spec.leaf_grads import answer_grads, leaf_grads_runs
from grader.spec.made_from import operands
from grader.spec.node_info import asked_in_turn, info_of, leaf_apart, leaf_apart_from_grad
from grader.spec.probe import dict_of, num, plain_dict, show, type_name
from grader.spec.provenance import built, check, grad_of, result_of, watching
from grader.spec.repeat import Returned, calls_apart

EXERCISE = Exercise("ex02", "Leaves, requires_grad and grad_fn", module="ex02_leaves")

NODES = ("w", "x", "a", "b", "y")
BOTH, W_OFF, X_OFF, NONE = (True, True), (False, True), (True, False), (False, False)


def _graph(sub_module: Any, w: float, x: float, flags: tuple[bool, bool], note: str) -> dict[str, Any]:
    """One call of the student's build_graph: the graph, each node, and that it ran no backward,
    each labelled with ``note``, which says which of the test's calls it is ("b (second call)")."""
    with watching(sub_module, "build_graph", made=True) as call:
        g = plain_dict(sub_module.build_graph(w, x, *flags))
    observed = built(g, "y", NODES, "build_graph", note)  # checks g is the dict asked for
    new = [returned.new(g[name]) for name, returned in _LEAVES_RETURNED.items()]
    kept = any(fact[CONTEXT + "earlier_call"] for fact in new)
    return {**observed, "no_backward": call.fact, "new": new, "flags_placed": _flags_placed(g, flags, kept),
            "flags_at_record": _flags_at_record(g, note), "detach_used": detach_used(call, g, flags, "build_graph")}


_LEAVES_RETURNED = {
    "w": Returned(N_("the w build_graph returned"), N_("the w an earlier call of build_graph returned")),
    "x": Returned(N_("the x build_graph returned"), N_("the x an earlier call of build_graph returned")),
}
"""Every leaf build_graph returned in this run (the diagram's call first): the statement makes two
new leaves at each call, and leaves kept in a global (by flags, by name, by number) are told by
their identity, where their numbers and flags are only an earlier call's."""


def _flags_placed(g: object, flags: tuple[bool, bool], kept: bool) -> dict[str, Any]:
    """The CHECK fact that, given two different flags, w did not get x's and x w's (the flags
    passed to the other leaf); not judged for equal flags, an answer without both leaves, or
    leaves an earlier call made (``kept``: their flags are that call's)."""
    g = plain_dict(g)
    leaves = [g.get(n) for n in ("w", "x")] if type(g) is dict else []
    if kept or flags[0] == flags[1] or len(leaves) != 2 or not all(type(v) is Value for v in leaves):
        return check(Check.FLAGS_PLACED, None, "build_graph")
    swapped = leaves[0].requires_grad is flags[1] and leaves[1].requires_grad is flags[0]
    return check(Check.FLAGS_PLACED, not swapped, "build_graph")


def _flags_at_record(g: object, note: str) -> dict[str, Any]:
    """The CHECK fact that no leaf y's graph reaches (an AccumulateGrad of w or x) requires no grad
    now: such a leaf was recorded while it required grad, and its flag turned off afterwards
    (``w.detach_()`` or ``w.requires_grad = False`` once y was built), the leaf named as context.
    Not judged of an answer without y and both leaves."""
    g = plain_dict(g)
    values = [g.get(n) for n in ("y", "w", "x")] if type(g) is dict else []
    if len(values) != 3 or not all(type(v) is Value for v in values):
        return check(Check.FLAGS_AT_RECORD, None, f"y ({note})")
    reached = {id(getattr(node, "variable", None)) for node in graph_nodes(values[0])}
    off = next((n for n, v in zip("wx", values[1:]) if id(v) in reached and not v.requires_grad), None)
    return {**check(Check.FLAGS_AT_RECORD, off is None, f"y ({note})"), CONTEXT + "leaf": off}


CALLS = (N_("first call"), N_("second call"))
FLAGS_NOTE = {BOTH: N_("both leaves require grad"), W_OFF: N_("w without grad"),
              X_OFF: N_("x without grad"), NONE: N_("neither leaf requires grad")}


ONE_NUMBER = N_("x without grad, w == x")  # the note on a call with two leaves of one number
# and of one flag: one leaf kept per number and flag shows
ONE_NUMBER_BOTH = N_("both leaves require grad, w == x")

GRAPH_FEEDBACK = ("Create w and x with Value(..., requires_grad=flag) using the flags given, then "
                  "a = x + w, b = w + 1, y = a * b with the engine's operations, and do not call "
                  "backward.")


def _flags_passed(function: str, param: str, off: tuple[bool, bool]) -> Earlier:
    """A call of ``function`` (build_graph, or leaf_grads, which builds the graph too) passing ``param`` off,
    beside the same call passing both flags on: made before build_graph with the flags left out, it shows a
    default taken from what an earlier call passed."""
    return Earlier(function, param, lambda m: getattr(m, function)(2.0, -1.0, *off),
                   lambda m: getattr(m, function)(2.0, -1.0, *BOTH))


_FLAGS_PASSED = [_flags_passed(function, param, off) for function in ("build_graph", "leaf_grads")
                 for param, off in (("w_requires_grad", W_OFF), ("x_requires_grad", X_OFF))]


@EXERCISE.test("the documents' graph", points=2, public=True, feedback=GRAPH_FEEDBACK)
def documents_graph(sub_module):
    return {"calls": [_graph(sub_module, w, x, BOTH, note)
                      for (w, x), note in zip([(0.5, -3.0), (2.5, 4.0)], CALLS)],
            "apart": calls_apart(sub_module, lambda m, case: m.build_graph(*case), _nodes_seen,
                                 (0.5, -3.0, True, True), (2.5, 4.0, True, True), "build_graph"),
            # the flags left out are the stub's defaults: both leaves require grad
            "default": default_kept(sub_module, lambda m: m.build_graph(1.5, 0.5),
                                    lambda m: m.build_graph(1.5, 0.5, *BOTH), _nodes_seen,
                                    N_("build_graph(w, x) (the flags left out)"))}


@EXERCISE.test("a leaf that does not require grad", points=2, public=True,
               feedback=GRAPH_FEEDBACK + " A result requires grad as soon as one input does; "
               "b = w + 1 with w not requiring grad records nothing.")
def w_without_grad(sub_module):
    return [_graph(sub_module, w, x, W_OFF, note) for (w, x), note in zip([(1.5, -2.0), (-1.0, 0.5)], CALLS)]


@EXERCISE.test("every combination of flags on other inputs", points=2,
               feedback=GRAPH_FEEDBACK + " A result of Values that do not require grad records "
               "no operation: requires_grad False, grad_fn None, a leaf.")
def all_flags(sub_module):
    cases = [(BOTH, -4.0, 0.0), (W_OFF, 0.0, 6.5), (X_OFF, -0.75, 3.0), (NONE, 2.0, -1.0),
             (NONE, -1.0, 1.0)]
    return {**{f"w={f[0]}, x={f[1]}": _graph(sub_module, w, x, f, FLAGS_NOTE[f]) for f, w, x in cases},
            # w == x: two leaves of one number, each with its own flag (one leaf kept per number shows)
            "one_number": _graph(sub_module, 1.25, 1.25, X_OFF, ONE_NUMBER),
            "one_number_both": _graph(sub_module, -0.75, -0.75, BOTH, ONE_NUMBER_BOTH),
            "apart": calls_apart(sub_module, lambda m, case: m.build_graph(*case), _nodes_seen,
                                 (1.5, -2.0, True, False), (-0.5, 3.0, False, True), "build_graph"),
            "default_after": default_after(sub_module, lambda m: m.build_graph(1.5, 0.5), _nodes_seen,
                                           N_("build_graph(w, x) (the flags left out)"), _FLAGS_PASSED)}


def _nodes_seen(g: object) -> list[Any] | str:
    """What a returned graph dict's five Values are (number, requires_grad, grad_fn): a first
    call's result looked at again after another call.  No .grad is read (a non-leaf's warns)."""
    g = plain_dict(g)
    if type(g) is not dict or not set(NODES) <= set(g):
        return f"not the dict asked for: {type_name(g)}"
    return [[num(v), getattr(v, "requires_grad", None), type_name(getattr(v, "grad_fn", None))]
            for v in (g[n] for n in NODES)]


def _assorted() -> list[Value]:
    """Values of every kind: leaves with and without grad, recorded and unrecorded results, and
    a non-leaf that retains its gradient, which backward fills: it holds a .grad as a leaf does,
    and is still no leaf (is_leaf follows grad_fn, not .grad)."""
    p = Value(-1.5, requires_grad=True)
    q = Value(0.25)  # a leaf that does not require grad (input data)
    c = add(p, 0.0)  # example 2: anything made from a grad-requiring leaf is not a leaf
    d = mul(q, 3.0)  # made from no-grad values only: a leaf
    e = sub(p, q)
    e.retain_grad()
    f = exp(mul(e, d))
    g = sub(d, q)  # still only no-grad values
    f.backward()  # backward changes none of the three attributes
    return [p, q, c, d, e, f, g]


ASSORTED = ("p = Value(..., requires_grad=True)", "q = Value(...)", "p + 0", "q * 3", "e = p - q; e.retain_grad()",
            "((p - q) * (q * 3)).exp()", "q * 3 - q")


NODE_INFO_FEEDBACK = (
    "Return v.is_leaf, v.requires_grad and the name v.grad_fn.name() (None when grad_fn is "
    "None) under the keys is_leaf, requires_grad, grad_fn."
)


@EXERCISE.test("node_info reads the attributes", points=1, public=True, feedback=NODE_INFO_FEEDBACK)
def node_info_documents(sub_module):
    w, x = Value(-0.5), Value(1.75, requires_grad=True)  # w: a leaf that needs no grad
    a = add(x, w)
    b = add(w, 1.0)
    y = mul(a, b)
    values = [w, x, a, b, y]
    with watching(sub_module, "node_info") as call:  # a backward it runs, grad mode it leaves off: told as node_info's
        infos, kept = asked_in_turn(sub_module, values, NODES)
    return {**{name: result_of(info, f"node_info({name})") for name, info in zip(NODES, infos)}, "read_only": call.fact,
            "flag_rule": leaf_apart(infos), "grad_rule": leaf_apart_from_grad(infos, values), "kept": kept,
            "apart": calls_apart(sub_module, _node_info_of_new, info_of, (2.5, False), (-0.75, True),
                                 "node_info")}


@EXERCISE.test(
    "node_info on every kind of Value",
    points=2,
    feedback=NODE_INFO_FEEDBACK + " A Value made from a grad-requiring Value is never a leaf; "
    "one made only from no-grad Values has no grad_fn and is a leaf.",
)
def node_info_assorted(sub_module):
    values = _assorted()
    with watching(sub_module, "node_info") as call:  # a backward it runs, grad mode it leaves off: told as node_info's
        infos, kept = asked_in_turn(sub_module, values, ASSORTED)
    return {"infos": [result_of(info, f"node_info({label})") for info, label in zip(infos, ASSORTED)], "read_only": call.fact,
            "flag_rule": leaf_apart(infos), "grad_rule": leaf_apart_from_grad(infos, values), "kept": kept, "changed": _answer_after_change(sub_module),
            "apart": calls_apart(sub_module, _node_info_of_new, info_of, (-1.5, True), (0.25, False),
                                 "node_info")}


# A Value, the change its attributes then undergo, and that change as code: a leaf made without
# grad asked to require it, and a result detached in place (now a leaf that requires no grad).
_CHANGES = (("w", lambda: Value(0.5), lambda v: v.requires_grad_(), "w.requires_grad_()"),
            ("a", lambda: add(Value(1.0, requires_grad=True), 2.0), lambda v: v.detach_(), "a.detach_()"))


def _answer_after_change(sub_module) -> list[dict[str, Any]]:
    """node_info(v), then a change of v's attributes, then node_info(v) again: the ANSWER_ANEW
    fact that the second answer is not the first one again where a new Value so changed gets
    another (an answer kept on v, or by its id, read back), context ``function``: the change."""
    facts = []
    for name, make, change, code in _CHANGES:
        v = make()
        first = info_of(sub_module.node_info(v))
        change(v)
        again = info_of(sub_module.node_info(v))
        twin = make()
        held(v, twin)  # ``asked_in_turn``'s reason
        change(twin)
        kept = again == first != info_of(sub_module.node_info(twin))
        facts.append({**check(Check.ANSWER_ANEW, not kept, f"node_info({name})"), CONTEXT + "function": code})
    return facts


_NEW = OneId()


def _node_info_of_new(sub_module, leaf: tuple[float, bool]) -> object:
    """node_info of a new leaf (its number, whether it requires grad), put where the leaf of the
    call before was (``OneId``): an answer kept by id(v) is handed out again on every run."""
    return sub_module.node_info(_NEW.new(lambda: Value(leaf[0], requires_grad=leaf[1])))


LEAF_GRADS_FEEDBACK = ("Build the graph with the flags given, call y.backward() on its y (the "
                       "gradients come from that graph, not from one built to carry other "
                       "numbers), then read each leaf's .grad: a leaf that does not require grad "
                       "is never given one, so return None for it.")


# leaf_grads(w, x, ...) calls the student's build_graph: a slip there shows here too.  A public
# probe names public tests only: data a public probe uses ships in the release whole.
WITH_BUILD_PUBLIC = {"build_graph": ("the documents' graph", "a leaf that does not require grad")}
WITH_BUILD = {"build_graph": (*WITH_BUILD_PUBLIC["build_graph"],
                              "every combination of flags on other inputs")}


# A w of many digits gives gradients of many digits: one rounded (round(g, 2)) is told as rounded.
THIRD = 1 / 3


@EXERCISE.test("which leaves get a gradient", points=2, public=True, feedback=LEAF_GRADS_FEEDBACK,
               runs_with=WITH_BUILD_PUBLIC)
def leaf_grads_public(sub_module):
    return {"runs": leaf_grads_runs(sub_module, [(BOTH, 0.5, -3.0), (W_OFF, THIRD, 4.0)]),
            "apart": apart_from(sub_module, "build_graph", lambda m, case: m.leaf_grads(*case), answer_grads,
                                (0.5, -3.0, True, True), (2.0, 4.0, False, True), "leaf_grads")}


@EXERCISE.test("leaf gradients on other inputs", points=2, feedback=LEAF_GRADS_FEEDBACK,
               runs_with=WITH_BUILD)
def leaf_grads_hidden(sub_module):
    # the same point with other flags: an answer kept for a point, whatever the flags, shows
    return {"runs": leaf_grads_runs(sub_module, [(X_OFF, -2.25, 1.0), (BOTH, -1.0, 0.0), (W_OFF, 3.0, 0.0),
                                             (X_OFF, 0.0, 7.5), (BOTH, 10.0, -20.0),
                                             (W_OFF, -2.25, 1.0), (BOTH, -2.25, 1.0), (X_OFF, 1.75, 1.75),
                                             (BOTH, THIRD, -0.7)]),
            "apart": apart_from(sub_module, "build_graph", lambda m, case: m.leaf_grads(*case), answer_grads,
                                (0.5, 2.0, True, True), (-3.0, 1.5, True, False), "leaf_grads")}


@EXERCISE.test("a leaf without grad stays without", points=1,
               feedback="Backward fills .grad only for leaves created with requires_grad=True.",
               runs_with=WITH_BUILD)
def untouched_leaf(sub_module):
    """The graph's own leaves after a backward: the one without grad was never written.  Each
    label names the call's flags (``w.grad (w without grad)``): the two calls say opposite
    things of one leaf, and each is true of its own flags.  Leaves an earlier call returned
    (kept in a global) hold its gradient too: told as kept, not only as numbers that differ."""
    runs = []
    for flags in (W_OFF, X_OFF):
        g = dict_of(sub_module.build_graph(1.25, -0.5, *flags), NODES, "build_graph")
        g["y"].backward()
        note = FLAGS_NOTE[flags]
        runs.append([grad_of(g["w"], f"w.grad ({note})"), grad_of(g["x"], f"x.grad ({note})"),
                     *(returned.new(g[name]) for name, returned in _LEAVES_RETURNED.items())])
    return runs


@EXERCISE.diagram
def draw(sub_module):
    with watching(sub_module, "build_graph", made=True) as call:
        g = plain_dict(sub_module.build_graph(0.5, -3.0, False, True))
    # a later call that returns them again returns this call's
    for name, returned in _LEAVES_RETURNED.items():
        returned.new(g.get(name) if type(g) is dict else None)
    made = operands(call)  # w, made without grad, drawn where a = x + w takes it, by its name
    show([g["y"]], g, made)  # drawn as built if backward fails
    g["y"].backward()
    return [g["y"]], g, made
