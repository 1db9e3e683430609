"""ex20 build_saved_values: the student's backward frees saved values, so a second backward
fails as in PyTorch, unless retain_graph=True; a graph of additions runs twice."""

from __future__ import annotations

import gc
import weakref
from typing import Any

from micrograph.i18n import N_

from grader.spec import Exercise
from grader.spec.build import claim, documents_drawn, fact, needs, node_name, number
from grader.spec.build_reads import A_CONSTANT, grad_quiet
from grader.spec.build_equal_leaves import OWN_ACCUMULATOR, equal_accumulators
from grader.spec.build_retained import REFUSED, RELEASED, grad_after_refused, grad_after_released, retained_second, kept_past_its_call, \
    sticky_freed
from grader.spec.saved import released, saved_operands
from grader.spec.failed_passes import freed_after_error, kept_beside, released_when_failed, unrun_kept
from grader.spec.held import held
from grader.spec.leaf_retained import RETAINED_LEAF, leaf_retained
from grader.spec.probe import type_name
from grader.spec.raised import SAID, error, raised
from grader.spec.repeat import fresh_copy
from grader.spec.build_order import watched_order
from grader.spec.unpacked import THROUGH_UNPACK, apply_lets_through, backward_lets_through, passed_on, refused, refuses_freed, retained_after_freed, \
    unpack_keeps, unpack_refuses

EXERCISE = Exercise("ex20", "Build an engine: saved values are freed",
                    module="ex20_build_saved_values", rules=True, own_engine=True)

FEEDBACK = ("After running a node, backward releases what it saved unless retain_graph=True; "
            "unpack refuses a released value with SECOND_BACKWARD.")
KEYS = {
    "released": "a backward called without retain_graph=True releases every node it ran (retain_graph "
                "left out, False or None alike): only retain_graph=True keeps them",
    "second": "a second backward through a node that saved something must raise "
              "RuntimeError(SECOND_BACKWARD) unless the first kept the graph with retain_graph=True",
    "kept": "after y.backward(retain_graph=True) the graph is kept: a second backward through it "
            "must run, adding into .grad, without an error",
    "adds": "a node that saved nothing (AddBackward0) must run again: a second backward through a "
            "graph of additions raises no error",
    "every_node": "backward frees the saved values of every node it ran, not only the root's: a later "
                  "backward from another root that reaches one of them must raise "
                  "RuntimeError(SECOND_BACKWARD)",
    "first": "a first backward runs each node once, so it never meets a value it released itself: "
             "a node two paths reach runs once, after every node that sends it a gradient",
    "ran": "backward runs each node once, and only after every node that sends it a gradient has "
           "run, the ready node with the highest sequence_nr (the newest) first",
    "applied": "backward runs each node by calling its apply (node.apply(grad)), as the statement "
               "has it: the grader watches the order nodes run through apply",
    "grads_refused": "a failing backward writes no gradient through the node that refused, while a node that ran "
                     "before it in the same pass (a leaf's AccumulateGrad, ready first) has already added its gradient",
    "grads_added": "a backward that runs adds into .grad as usual",
    "names": "release frees the saved values but keeps their names: apply asks which were saved, and "
             "unpack then refuses a freed one with SECOND_BACKWARD",
    "freed": "backward frees what a node saved once the node has run: release forgets the saved "
             "Values (keeping their names), so the engine holds none of them any more",
    "values_kept": "a node's release forgets its saved Values and never changes them: the leaves and results it saved "
                   "keep their numbers, whatever backward freed",
    "sticky": "retain_graph=True keeps the graph of that call alone: a later backward called without it frees "
              "its own graph as usual, whatever earlier calls were given",
    "left_over": "a backward that raised leaves nothing behind for the next one: each backward call makes its "
                 "own ready queue and gradient buffers, so a later backward through a new graph runs that "
                 "graph's nodes alone",
    "unpack_keeps": "a node's unpack returns a value it saved and leaves it saved: only release frees what a node "
                    "saved, keeping the names",
    "unpack_refuses": "Node.unpack checks whether its node was released: once release freed what the node saved, unpack "
                      "raises RuntimeError(SECOND_BACKWARD), whichever name it is asked for",
    "through_unpack": "a node's apply reads what it saved through unpack (self.unpack(name)), never from node.saved "
                      "itself: unpack is what refuses a freed value with SECOND_BACKWARD",
    "lets_through": "a node's apply lets the RuntimeError unpack raises for a freed value reach backward's caller: "
                    "an except clause around unpack that catches RuntimeError gives a freed node's inputs gradients",
    "new_graph": "the first backward through a new graph raises no error: what a node released is "
                 "known on that node, whatever earlier graphs were freed",
    "released_when_failed": "backward frees each node right after its apply, so a node that ran in a pass which then "
                            "failed at a later node is freed too: another backward through it raises "
                            "RuntimeError(SECOND_BACKWARD) at once, before any gradient is written",
    "unfreed": "retain_graph=True keeps what the backward it is given to would free; it never brings back what an "
               "earlier backward freed: a backward with retain_graph=True through a freed node raises "
               "RuntimeError(SECOND_BACKWARD) too",
    "unrun_kept": "a backward that fails frees the nodes it ran and no other: a node it never reached keeps what it "
                  "saved, so a later backward through that node runs",
    "only_its_own": "backward frees the nodes it ran in that call and no other: a graph an earlier backward kept with "
                    "retain_graph=True stays kept when a backward through another graph frees its own",
    "backward_lets_through": "backward lets the error a node's apply raises reach its caller: an except clause around "
                             "apply turns a freed node's refusal into a backward that raises nothing",
    "freed_after_error": "a backward that raised leaves nothing behind that changes what the next one frees: a counter "
                         "or flag backward sets as it starts is put back however it ends (try/finally), so a later "
                         "backward frees its own graph as usual",
    "passed_on": "Value.backward lets every error of backward(root) reach its caller: an error your backward raises "
                 "(SECOND_BACKWARD too) is never caught on the way",
    "retained_leaf": RETAINED_LEAF, "own_accumulator": OWN_ACCUMULATOR,
    "retained_refused": "backward writes a retained non-leaf's gradient into its .grad when its node starts, before "
                        "apply: a node that then refuses with SECOND_BACKWARD has written it already",
    "retained_released": "release frees a node's saved values only: a released node that runs again (it saved nothing) "
                         "still writes the gradient of the value that called retain_grad()",
}

# The order is not claimed where backward ran a node without its apply: that is the advice then;
# an error of a node run twice follows from the order; gradients, from the error of the backward
# that wrote them.
CAUSED_BY = {"ran": ("applied",), "first": ("ran",), "retained_leaf": ("new_graph", "first"),
             "grads_refused": ("second", "every_node", "new_graph", "names", "released", "sticky", "values_kept",
                               "unpack_refuses", "kept", "unpack_keeps"),
             "grads_added": ("kept", "adds", "values_kept", "unpack_keeps", "only_its_own"),
             "names": ("unpack_keeps",), "kept": ("unpack_keeps", "only_its_own"),
             "unrun_kept": ("new_graph", "names", "through_unpack", "unpack_refuses", "passed_on", "backward_lets_through"),
             "only_its_own": ("new_graph", "unpack_keeps", "passed_on", "backward_lets_through"),
             "every_node": ("new_graph", "names", "released", "sticky", "through_unpack", "unpack_refuses"),
             "second": ("names", "released", "sticky", "through_unpack", "unpack_refuses"), "freed": ("released", "sticky"), "released": ("sticky",),
             "released_when_failed": ("released", "sticky", "every_node", "new_graph", "through_unpack", "unpack_refuses"),
             "unfreed": ("second", "names", "released", "sticky", "through_unpack", "unpack_refuses"),
             "retained_refused": ("second", "names", "released", "sticky", "through_unpack", "retained_released",
                                  "unpack_refuses")}
CAUSED_BY = {**CAUSED_BY, **{key: CAUSED_BY.get(key, ()) + ("passed_on",) for key in ("through_unpack", "unpack_refuses")}}
CAUSED_BY = {**CAUSED_BY, **{key: CAUSED_BY.get(key, ()) + ("freed_after_error",)
                             for key in ("released", "sticky", "every_node", "second", "freed", "released_when_failed")}}
CAUSED_BY["through_unpack"] += ("lets_through", "backward_lets_through")
GRADS = ("grads_refused", "grads_added")  # the gradients a backward that must fail, or run, left


def _twice(sub: Any, build: Any, label: str, case: str) -> dict[str, Any]:
    """A second ``y.backward()`` after a first, keyed by the case it is (``KEYS``): "second" (a
    graph that saved values, freed), "kept" (the first had retain_graph=True), "adds" (a graph
    of additions, which saved nothing), so a difference brings the rule of that case alone; the
    gradients it left, keyed by whether it must fail or run."""
    w, x = sub.Value(1.5, requires_grad=True), sub.Value(-0.5, requires_grad=True)
    y = build(w, x)
    held(y)  # no node a backward ran is freed: a later node is never put where it was
    retain = case == "kept"
    first = "y.backward(retain_graph=True)" if retain else "y.backward()"
    # a first backward that raises is told as that (a node refused that no backward ran through)
    ran = {} if retain else {"new_graph": raised(y.backward, f"the first y.backward(), y = {label}")}
    if retain:
        y.backward(retain_graph=True)
    names = fact(saved_operands(y.grad_fn), f"the list of operands that y.grad_fn saved, after {first}, y = {label}")
    if case == "second" and node_name(y.grad_fn) == "MulBackward0":  # the first released y's node? (a product's, which saved)
        ran["released"] = claim(released(y.grad_fn), f"y.grad_fn is released by y.backward(), y = {label}")
    said = f"a second y.backward() after {first}, y = {label}"
    grads = "grads_refused" if case == "second" else "grads_added"
    refuses = case == "second" and unpack_refuses(y.grad_fn)
    second = raised(y.backward, said, whole=True)  # the statement's RuntimeError(SECOND_BACKWARD): its text
    if case == "second":  # where unpack refuses a freed value, the second backward must meet that refusal
        ran["through_unpack"] = claim(not refuses or refused(second), THROUGH_UNPACK)
        ran["unpack_refuses"] = refuses_freed(y.grad_fn)
    return {**ran, "names": names, case: second, "values_kept": fact(number(w), f"w after {said}"),
            grads: [fact(grad_quiet(w), f"w.grad after {said}"), fact(grad_quiet(x), f"x.grad after {said}")]}


def _cases(sub: Any, cases: list[tuple[Any, str, str]]) -> dict[str, list[Any]]:
    needs(sub, 5)
    out: dict[str, list[Any]] = {}
    for case in cases:
        for key, seen in _twice(sub, *case).items():
            out.setdefault(key, []).append(seen)
    grads = {key: out.pop(key) for key in GRADS if key in out}
    return {**out, **grads}  # the errors first: the gradients follow from them


@EXERCISE.test("a second backward through the documents' graph", points=3, public=True,
               feedback=FEEDBACK, key_feedback=KEYS,
               caused_by=CAUSED_BY)
def documents_public(sub):
    cases = _cases(sub, [(lambda w, x: (x + w) * (w + 1), "(x + w) * (w + 1)", "second"),
                         (lambda w, x: (x + w) * (w + 1), "(x + w) * (w + 1)", "kept"),
                         (lambda w, x: x + w + 2.0, "x + w + 2", "adds")])
    freed = _documents_freed(sub)
    cases["released"] += freed.pop("released")
    for key in ("through_unpack", "unpack_refuses"):
        cases[key] += freed.pop(key)
    return {"own_accumulator": equal_accumulators(sub), "freed_after_error": freed_after_error(sub),
            "unpack_keeps": unpack_keeps(sub), **cases, **freed,
            "sticky": sticky_freed(sub), **_passed(sub)}


def _documents_freed(sub: Any) -> dict[str, Any]:
    """The public test's probes of what backward frees: below a root, what is kept."""
    below = _freed_below(sub, lambda y: y * 2, "y * 2")[0]
    ran, freed = _freed(sub)
    return {"new_graph": [below["new_graph"], ran], "every_node": [below["below"], below["every_node"]],
            "freed": freed, "released": below["released"], "through_unpack": [below["through_unpack"]],
            "unpack_refuses": [below["unpack_refuses"]]}


FREED = N_("h is freed once y.backward() ran and del h let go of it, y = h * h, h = x * 3")


def _freed(sub: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Whether a value a node saved is gone once backward ran the node and the program let go of
    it, as PyTorch frees it: a release that only marks the node refused keeps every saved Value
    alive, which a second backward's error alone cannot tell.  Told after whether that backward,
    the first through its graph, raised (``new_graph``)."""
    x = sub.Value(-1.25, requires_grad=True)
    h = x * 3
    y = h * h
    held(y)
    first = "the first y.backward(), y = h * h, h = x * 3"
    try:
        alive = weakref.ref(h)
    except TypeError:  # a Value with __slots__ and no __weakref__: its freeing cannot be seen
        return raised(y.backward, first), claim(f"not weakly referenceable: {type_name(h)}", FREED)
    del h
    ran = raised(y.backward, first)
    gc.collect()
    return ran, claim(alive() is None, FREED)


def _freed_below(sub: Any, top: Any, said: str) -> tuple[dict[str, Any], Any]:
    """Whether ``y.backward()`` raised after ``z.backward()``, z = ``said``, y = w * x (z's
    backward ran y's node and freed it too: the statement's own example), and the leaf w.  An
    error of z's own backward, the first through its graph, is told as that (``new_graph``);
    names y's node no longer holds, as such (``names``): its unpack is then never asked."""
    w, x = sub.Value(0.75, requires_grad=True), sub.Value(-1.5, requires_grad=True)
    y = w * x
    z = top(y)
    held(z)
    first = raised(z.backward, f"the first z.backward(), z = {said}, y = w * x")
    names = fact(saved_operands(y.grad_fn), f"the list of operands that y.grad_fn saved, after z.backward(), z = {said}, y = w * x")
    said_z = f"z = {said}, y = w * x"
    rooted = [claim(released(z.grad_fn), f"z.grad_fn is released by z.backward(), {said_z}")] \
        if node_name(z.grad_fn) == "MulBackward0" else []  # a root that saved something: its own release
    below = claim(released(y.grad_fn), f"y.grad_fn is released by z.backward(), {said_z}")
    refuses = unpack_refuses(y.grad_fn)
    again = raised(y.backward, f"y.backward() after z.backward(), z = {said}, y = w * x", whole=True)
    return {"new_graph": first, "names": names, "released": rooted, "below": below, "every_node": again,
            "through_unpack": claim(not refuses or refused(again), THROUGH_UNPACK),
            "unpack_refuses": refuses_freed(y.grad_fn)}, w


@EXERCISE.test("retain_graph=True on other graphs", points=2, feedback=FEEDBACK, key_feedback=KEYS,
               caused_by=CAUSED_BY)
def retained(sub):
    return {"unpack_keeps": unpack_keeps(sub), **_cases(sub, [(lambda w, x: w * x * w, "w * x * w", "kept"),
                           (lambda w, x: (w + x) * 3, "(w + x) * 3", "kept")]),
            "retained_leaf": leaf_retained(sub, 0.75, 2.0), "only_its_own": kept_beside(sub)}


@EXERCISE.test("graphs of additions run twice", points=2, feedback=FEEDBACK, key_feedback=KEYS,
               caused_by=CAUSED_BY)
def additions(sub):
    return _cases(sub, [(lambda w, x: w + x + w, "w + x + w", "adds"),
                        (lambda w, x: 1 + (w + 6.5), "1 + (w + 6.5)", "adds")])


@EXERCISE.test("a product with a number saves it", points=2, feedback=FEEDBACK, key_feedback=KEYS,
               caused_by=CAUSED_BY)
def numbers(sub):
    # c * w saves c as "self" alone (w's gradient needs it), where w * 3 saves 3 as "other": unpack refuses either
    return {"freed_after_error": freed_after_error(sub), "unpack_keeps": unpack_keeps(sub), **_cases(sub, [(lambda w, x: w * 3, "w * 3", "second"), (lambda w, x: 2 * x + w, "2 * x + w", "second"),
                           (lambda w, x: (w + x) * x + w, "(w + x) * x + w", "second"),
                           (lambda w, x: sub.Value(2.5) * x, f"c * x ({A_CONSTANT})", "second")]), "sticky": sticky_freed(sub),
            **_passed(sub)}


@EXERCISE.test("a backward from a root whose node an earlier one freed", points=2, feedback=FEEDBACK,
               key_feedback=KEYS, caused_by=CAUSED_BY)
def inner(sub):
    needs(sub, 5)
    h = sub.Value(0.625, requires_grad=True)
    g = h * h
    p, q = g + g, g * h
    t = p * q  # g's node, which saved h, is reached by two paths: it runs once, then releases
    held(t)
    out: dict[str, list[Any]] = {**watched_order([(t, {"h": h, "g": g, "p": p, "q": q, "t": t},
                                                   "t = p * q, p = g + g, q = g * h, g = h * h")], catch=True),
                                 "new_graph": [], "names": [], "released": [], "every_node": [], "grads_refused": [],
                                 "through_unpack": [], "unpack_refuses": [],
                                 "unpack_keeps": unpack_keeps(sub)}
    for top, said in ((lambda y: y * 0.125, "y * 0.125"), (lambda y: y + 10.0, "y + 10")):
        freed, w = _freed_below(sub, top, said)
        out["released"] += freed.pop("released")
        out["every_node"].append(freed.pop("below"))
        for key, seen in freed.items():
            out[key].append(seen)
        out["grads_refused"].append(fact(grad_quiet(w), f"w.grad after y.backward() after z.backward(), z = {said}, y = w * x"))
    return {"freed_after_error": freed_after_error(sub), **out, "released_when_failed": released_when_failed(sub), "unrun_kept": unrun_kept(sub),
            **_passed(sub)}


@EXERCISE.test("three backward calls", points=1, feedback=FEEDBACK, key_feedback=KEYS,
               caused_by=CAUSED_BY)
def three(sub):
    needs(sub, 5)
    w = sub.Value(2.0, requires_grad=True)
    y = w * w
    held(y)
    y.backward(retain_graph=True)
    again = raised(y.backward, "a second y.backward() after y.backward(retain_graph=True), y = w * w", whole=True)
    refuses = unpack_refuses(y.grad_fn)
    third = raised(y.backward, "a third y.backward() after y.backward(retain_graph=True); y.backward(), y = w * w",
                   whole=True)
    return {"freed_after_error": freed_after_error(sub), "through_unpack": claim(not refuses or refused(third), THROUGH_UNPACK),
            "second": [third, retained_second(sub, 1.25)], "sticky": [sticky_freed(sub), kept_past_its_call(sub, third)],
            "kept": [again], "unpack_keeps": unpack_keeps(sub),
            "unpack_refuses": refuses_freed(y.grad_fn),
            "grads_refused": [fact(grad_quiet(w), "w.grad after y.backward(retain_graph=True); y.backward(); "
                                                  "y.backward(), y = w * w")],
            "unfreed": retained_after_freed(sub), **_passed(sub),
            "retained_refused": fact(grad_after_refused(sub, 1.25), REFUSED),
            "retained_released": fact(grad_after_released(sub, -0.5), RELEASED)}


NEW_GRAPHS = 256  # graphs made and freed in turn, at most, until a new node takes a freed one's id
NEW_GRAPH = N_("the first backward through a new graph y = w * x, made once the one before it was "
               "backpropagated and let go of")


AFTER_FAILED = N_("(v * v).backward(), v a new leaf, after a second y.backward() raised, y = w * x + w * 3")


def _after_failed(sub: Any) -> list[Any]:
    """A backward through a new graph after one that raised while a node of its graph was still
    ready (y's two products: the newer refuses, the other waits): the engine's ready queue or
    buffers kept between calls hand that node to the new backward, which meets it freed.  Run
    on a fresh copy of the student's module (where it can be made), so what it leaves there
    reaches no other program."""
    engine = fresh_copy(sub) or sub
    w, x = engine.Value(2.0, requires_grad=True), engine.Value(3.0, requires_grad=True)
    y = w * x + w * 3
    held(y)
    y.backward()
    raised(y.backward, "a second y.backward(), y = w * x + w * 3")  # its error is told by the other tests
    v = engine.Value(1.5, requires_grad=True)
    return [raised((v * v).backward, AFTER_FAILED), fact(grad_quiet(v), f"v.grad after {AFTER_FAILED}"),
            *_same_leaf_after_failed(engine)]


SAME_LEAF = N_("(w * w).backward(), once a second y.backward() raised and then w.grad = None, y = a + w, a = w * 3")


def _same_leaf_after_failed(engine: Any) -> list[Any]:
    """A backward through a new graph of the same leaf w after one that raised once w's
    AccumulateGrad had been sent part of its gradient (y's sum sends it one, a's product, which
    refuses, never the other): gradient buffers kept between calls by node hand that part to
    the new backward, which adds it into w.grad."""
    w = engine.Value(2.0, requires_grad=True)
    a = w * 3
    y = a + w
    held(y)
    for _ in range(2):  # the second raises, as the other tests tell; the first meets what the program before left
        error(y.backward)
    w.grad = None
    return [raised((w * w).backward, SAME_LEAF), fact(grad_quiet(w), f"w.grad after {SAME_LEAF}")]


@EXERCISE.test("new graphs made after freed ones", points=2, feedback=FEEDBACK, key_feedback=KEYS,
               caused_by=CAUSED_BY)
def new_graphs(sub):
    """The first backward through a new graph y = w * x whose node was put where the node of an
    earlier one was, with its id, once that one was backpropagated and let go of: an unpack
    that knows released nodes by their id, not on the node, refuses it.  Graphs are made and
    freed in turn until one's node sits at a freed node's id (checked, so the answer does not
    depend on where the allocator put it), or a backward raised.  The last test: the freed
    nodes' places are left to no later program (every other keeps its graphs, ``held``)."""
    needs(sub, 5)
    w, x = sub.Value(-2.0, requires_grad=True), sub.Value(1.5, requires_grad=True)
    held(w, x)  # their AccumulateGrad nodes are never freed
    freed: set[int] = set()
    seen: dict[str, Any] = {}
    for _ in range(NEW_GRAPHS):
        y = w * x
        node = id(getattr(y, "grad_fn", None))
        seen = raised(y.backward, NEW_GRAPH)
        if seen[SAID] is not None or node in freed:
            break
        freed.add(node)
        y = None
        gc.collect()  # a graph whose nodes and Values refer to each other
    return {"new_graph": seen, "left_over": _after_failed(sub)}


def _passed(sub: Any) -> dict[str, Any]:
    """Whether backward and a node's apply let unpack's refusal reach the caller: an error caught
    on the way is told as that, not as an apply that never reads through unpack."""
    return {"passed_on": passed_on(sub), "lets_through": apply_lets_through(sub),
            "backward_lets_through": backward_lets_through(sub)}


@EXERCISE.diagram
def draw(sub):
    return documents_drawn(sub, 5)
