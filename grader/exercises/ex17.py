"""ex17 build_backward: the student's backward gives PyTorch's gradients: each node runs once,
after every gradient for it arrived, and a long chain needs no recursion."""

from __future__ import annotations

import warnings
from typing import Any, Callable

from micrograph.i18n import N_

from grader.spec import Exercise, Limits
from grader.spec.build import claim, documents_drawn, fact, flag, needs, number
from grader.spec.build_graph_kept import kept_parts
from grader.spec.build_no_graph import NO_GRAPH, records_no_graph
from grader.spec.build_again import again
from grader.spec.build_reads import edge_node, grad_quiet
from grader.spec.build_sent import leaf_grad, one_op, past_constant
from grader.spec.build_order import order_facts, watched_order
from grader.spec.build_watch import root_gradient
from grader.spec.nesting import NESTED, deepest
from grader.spec.probe import by_key, default_recursion_limit, type_name
from grader.spec.shared_key import shared_key_told

EXERCISE = Exercise("ex17", "Build an engine: backward and the chain rule", module="ex17_build_backward",
                    limits=Limits(time=20), rules=True, own_engine=True)

FEEDBACK = ("backward must run each node once, after every gradient for it has arrived (summed), "
            "and AccumulateGrad must write what it receives into the leaf's .grad.")
KEYS = {
    "mul": "MulBackward0.apply sends each input the gradient times the other input (the one saved "
           "for it), and 0 to an input that needs no gradient",
    "add": "AddBackward0.apply sends the gradient it receives, unchanged, to both inputs",
    "a_value": "AccumulateGrad writes a Value into the leaf's .grad, as PyTorch writes a tensor "
               "like the leaf: store_grad makes a Value of the number",
    "grads": FEEDBACK,
    "accumulate": "AccumulateGrad.apply writes the gradient it receives into its own leaf's .grad "
                  "(store_grad(self.variable, grad)), as PyTorch's AccumulateGrad does when it is called",
    "no_graph": NO_GRAPH,
    "non_leaf": "backward writes a .grad only where an AccumulateGrad runs, into its leaf: the .grad of the root, and "
                "of every other value an operation made, stays None, as PyTorch's does (ex18's retain_grad keeps one)",
    "plain": "the Value store_grad puts in .grad requires no grad, as PyTorch's .grad does: it holds "
             "a number, and no graph is recorded through it",
    "one_op": "with each apply right, backward through one operation goes wrong in backward itself: "
              "it starts the root's node with the gradient 1, hands each input's node what apply "
              "returned for that input, runs that node once all its gradients have arrived (dependencies "
              "counts them), and AccumulateGrad writes what it receives into the leaf's .grad",
    "own_grad": "store_grad must make a new Value for each .grad it writes: a Value kept between calls "
                "(one for all, or one per number) and put into several leaves' .grad is one object, which "
                "a write into one leaf's .grad changes for the others",
    "seed": "backward starts the root's node with the gradient 1 (d y / d y), whatever number the root holds",
    "constant": "a value that requires no grad gets no gradient: its .grad stays None",
    "order": "backward runs the ready node with the highest sequence_nr first (the newest) and adds each "
             "gradient into its node's buffer as it arrives, one at a time: a floating-point sum depends on "
             "the order of its terms",
    "summed": "backward adds each gradient into its node's buffer as it arrives, one at a time, as PyTorch "
              "does: a floating-point sum depends on the order of its terms, so a sum made another way (all "
              "at once, or sorted) gives another number",
    "buffered": "backward adds each gradient that reaches a node into that node's buffer: a node reached by several "
                "edges runs once with their sum, never with the last one to arrive alone",
    "ran": "of the nodes ready to run, backward runs the one with the highest sequence_nr first (the newest)",
    "arrived": "backward must run each node once, and only after every node that sends it a "
               "gradient has run: dependencies counts the edges that reach each node",
    "again": "each backward counts the edges of its own graph anew: dependencies keeps nothing between "
             "calls, so a second backward through the same graph (of additions, which save nothing) runs "
             "every node again, as PyTorch's does",
    "sent_again": "each backward buffers the gradients of its own pass, anew at each call: a later backward through "
                  "the same graph hands every node what the first did",
    "root_as_was": "backward leaves the value it starts from as it was: its requires_grad and grad_fn after "
                   "backward are what they were before, and a second backward starts from them again",
    "applied": "backward runs every node its graph reaches by calling its apply (node.apply(grad)), as the statement "
               "has it, whatever gradient reached it, 0 too: the grader watches the order nodes run through apply",
    "leaf": "w.backward() on a leaf that requires grad starts at its gradient_edge, the leaf's "
            "AccumulateGrad, seeded with 1",
    "chain": "backward through a chain of thousands of operations must give PyTorch's gradient too: "
             "each node on it runs once, and the gradients w receives from every + w are summed",
    "kept": "backward leaves the graph it walks as it was: each node keeps its next_functions (the same pairs, in the "
            "same order) and its sequence_nr, and a leaf its one AccumulateGrad; a second backward through the graph, "
            "or a later graph of the leaf, uses them again",
    "no_recursion": "backward and dependencies walk the graph with a loop over a stack or a heap, never by calling "
                    "themselves, as the statement asks: a recursive walk nests one call per node of a chain, whatever "
                    "recursion limit the file sets",
}

# A wrong rule of one operation changes every graph's gradients: the graph's advice (the order
# nodes run in) is left out while an operation's own gradients differ.
# The order is not claimed where backward ran a node without its apply: that is the one advice.
# Gradients missing or wrong through one operation alone (backward never reaching a leaf) say
# nothing of the order or of a long chain.
# A node run too early (``arrived``) is the case that spoils the gradients, and the whole order
# with it: its advice alone.
CAUSED_BY = {"grads": ("mul", "add", "one_op", "arrived", "applied", "accumulate"), "arrived": ("applied",),
             "again": ("mul", "add", "one_op", "arrived", "applied", "accumulate", "root_as_was"),
             "sent_again": ("mul", "add", "one_op", "arrived", "applied", "accumulate", "root_as_was", "again"),
             "one_op": ("mul", "add", "own_grad", "seed", "accumulate"),
             "chain": ("mul", "add", "one_op", "accumulate", "kept"),
             "order": ("mul", "add", "one_op", "grads", "arrived", "ran", "accumulate", "applied"), "ran": ("applied", "arrived"),
             "applied": ("mul", "add"),  # a node a short apply never sent a gradient to never runs at all
             "leaf": ("accumulate",), "summed": ("mul", "add", "one_op", "grads", "arrived", "ran", "accumulate",
                                                  "applied", "buffered", "kept"),
             "buffered": ("mul", "add", "one_op", "arrived", "applied", "accumulate", "kept")}


GRAD = 1.75  # the gradient a node's apply is handed, by itself: the rule scales it


def _applied(sub: Any, w: float, x: float, op: Callable[[Any, Any], Any], said: str) -> dict[str, Any]:
    """What the node of one operation on two leaves sends them, asked of the node itself: its
    ``apply`` (PyTorch's node is called on a tensor instead), so a wrong rule is told as that
    apply's, and an apply never reached by backward is not blamed."""
    node = getattr(op(sub.Value(w, requires_grad=True), sub.Value(x, requires_grad=True)), "grad_fn", None)
    apply = getattr(node, "apply", None)
    got = apply(GRAD) if callable(apply) else node(sub.Value(GRAD))  # type: ignore[misc]
    sent = [number(g) for g in got] if type(got) in (tuple, list) else f"not a tuple: {type_name(got)}"
    return fact(sent, f"y.grad_fn.apply(grad) for y = {said}")  # the number handed is no label: + sends it on


def _accumulated(sub: Any, w: float, x: float) -> dict[str, Any]:
    """What w's AccumulateGrad writes when it is handed a gradient, asked of the node itself
    (PyTorch's is called on a tensor instead): an AccumulateGrad.apply that writes elsewhere than
    its leaf is told as that apply's, not as backward's, which reaches it all the same."""
    wl = sub.Value(w, requires_grad=True)
    node = edge_node(getattr(wl * sub.Value(x, requires_grad=True), "grad_fn", None), 0)
    apply = getattr(node, "apply", None)
    apply(GRAD) if callable(apply) else node(sub.Value(GRAD))  # type: ignore[misc]
    return leaf_grad(sub, wl, "w.grad after (w * x).grad_fn.next_functions[0][0].apply(grad)")


def _own_grads(sub: Any) -> list[Any]:
    """Whether each leaf gets a .grad object of its own: one Value kept between calls and put
    into every .grad (its number overwritten) makes every leaf read the last gradient; one Value
    kept per number is shared by two leaves whose gradients are equal, in one backward or two."""
    wl, xl = sub.Value(0.5, requires_grad=True), sub.Value(-3.0, requires_grad=True)
    (wl * xl).backward()
    u, v = sub.Value(2.5, requires_grad=True), sub.Value(2.5, requires_grad=True)
    (u * v).backward()  # u.grad and v.grad: one number
    t = sub.Value(-1.0, requires_grad=True)
    (t * 2.5).backward()  # t.grad: u.grad's number, in a later backward
    w_grad, x_grad, u_grad, v_grad, t_grad = (_held_grad(value) for value in (wl, xl, u, v, t))
    return [claim(None in (w_grad, x_grad) or w_grad is not x_grad,
                  N_("after y.backward(), y = w * x, w.grad and x.grad are two Values")),
            claim(None in (u_grad, v_grad) or u_grad is not v_grad,
                  N_("after y.backward(), y = u * v, u and v two leaves of one number, u.grad and v.grad are two Values")),
            claim(None in (u_grad, t_grad) or u_grad is not t_grad,
                  N_("u.grad, and t.grad after a later backward that gives t the same gradient, are two Values"))]


def _seed(sub: Any) -> dict[str, Any]:
    """Whether backward hands the root's node 1 first (a node run unseen is told elsewhere)."""
    y = sub.Value(0.5, requires_grad=True) * sub.Value(-3.0, requires_grad=True)
    seed = root_gradient(y)
    return claim(seed is None or seed == 1.0, N_("y.backward(), y = w * x, starts y.grad_fn with the gradient 1"))


def _held_grad(v: Any) -> object:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return v.grad


def _rules(sub: Any, w: float, x: float) -> dict[str, Any]:
    """Each operation's own rule, so that a wrong one is told as such beside a graph it spoils,
    then backward through each alone."""
    mul, add = (lambda a, b: a * b, "w * x", (x, w)), (lambda a, b: a + b, "w + x", (1.0, 1.0))
    return {"mul": _applied(sub, w, x, *mul[:2]), "add": _applied(sub, w, x, *add[:2]),
            "accumulate": _accumulated(sub, w, x),
            "one_op": one_op(sub, w, x, *mul) + one_op(sub, w, x, *add) + past_constant(sub), "own_grad": _own_grads(sub),
            "seed": _seed(sub), "no_graph": records_no_graph(sub)}


def _grads(sub: Any, w: float, x: float) -> dict[str, Any]:
    """The documents' gradients, with backward watched: a node run twice, or before a node that
    sends it a gradient, is told as that (``arrived``), the case that makes the gradients differ."""
    needs(sub, 2)
    wl, xl = sub.Value(w, requires_grad=True), sub.Value(x, requires_grad=True)
    a, b = xl + wl, wl + 1
    y = a * b
    watched = order_facts(y, {"w": wl, "x": xl, "a": a, "b": b, "y": y}, "y = a * b, a = x + w, b = w + 1")
    return {**_rules(sub, w, x), "arrived": watched["ran"][:2], "applied": watched["applied"],
            "a_value": claim(wl.grad is None or type(wl.grad) is type(wl), "w.grad is None or a Value like w"),
            "plain": fact(flag(getattr(_held_grad(wl), "requires_grad", False)),
                          "w.grad.requires_grad for y = (x + w) * (w + 1)"),  # None, or a float: told above
            "grads": [leaf_grad(sub, wl, "w.grad for y = (x + w) * (w + 1)"),
                      leaf_grad(sub, xl, "x.grad for y = (x + w) * (w + 1)")],
            "non_leaf": [fact(grad_quiet(v), f"{name}.grad for y = (x + w) * (w + 1)") for name, v in (("y", y), ("a", a))]}


@EXERCISE.test("backward through the documents' graph", points=3, public=True, feedback=FEEDBACK,
               key_feedback=KEYS, caused_by=CAUSED_BY)
@shared_key_told
def documents_public(sub):
    seen, told = by_key([_grads(sub, w, x) for w, x in [(0.5, -3.0), (2.0, 4.0)]]), _statements_sum(sub)
    return {**seen, "order": told["order"], "applied": seen["applied"] + told["applied"]}


def _statements_sum(sub: Any) -> dict[str, list[Any]]:
    """The statement's own example of an order that shows: three products of w reach w's
    AccumulateGrad, and 1e16 + 1 - 1e16 is not 1e16 - 1e16 + 1.  Watched (``order_facts``): a
    gradient that never reached w (a product's apply raised, and backward went on) is told as
    that, not as an order of sums."""
    needs(sub, 2)
    w = sub.Value(0.25, requires_grad=True)
    p, q, r = w * 1e16, w * 1.0, w * -1e16
    s = p + q
    y = s + r
    program = "y = (w * 1e16 + w * 1) + w * -1e16"
    names = {"w": w, "(w * 1e16)": p, "(w * 1)": q, "(w * -1e16)": r, "(w * 1e16 + w * 1)": s, "y": y}
    applied = order_facts(y, names, program)["applied"]  # every node named: a sentence names the one it means
    return {"order": [leaf_grad(sub, w, f"w.grad for {program}")], "applied": applied}


@EXERCISE.test("backward on other inputs", points=2, feedback=FEEDBACK,
               key_feedback=KEYS, caused_by=CAUSED_BY)
@shared_key_told
def documents_hidden(sub):
    return by_key([_grads(sub, w, x) for w, x in [(0.0, 0.0), (-1.25, 2.5), (3.0, -7.0)]])


def _watched(y: Any, names: dict[str, Any], program: str) -> dict[str, list[Any]]:
    """``y.backward()``, watched (``order_facts``): whether it raised (a node run twice meets its
    gradient gone), whether a node ran twice or before a node that sends it a gradient
    (``arrived``), which tells why the gradients differ, and whether backward called each node's
    apply, without which the order is not seen."""
    watched = order_facts(y, {**names, "y": y}, program, catch=True)
    return {"arrived": [*watched["first"], *watched["ran"][:2]], "applied": watched["applied"]}


DIAMOND, DIAMONDS = "h = w * w, y = (h + h) * (h * w)", "d = u + 1, e = d * d, y = (e + d) * (e * u)"


@EXERCISE.test("shared nodes and diamonds", points=2, feedback=FEEDBACK,
               key_feedback=KEYS, caused_by=CAUSED_BY)
@shared_key_told
def diamonds(sub):
    needs(sub, 2)
    out, seen = [], []
    for w0 in (1.5, -0.5):
        w = sub.Value(w0, requires_grad=True)
        h = w * w
        p, q = h + h, h * w
        seen.append(_watched(p * q, {"w": w, "h": h, "(h + h)": p, "(h * w)": q}, DIAMOND))
        out.append(leaf_grad(sub, w, f"w.grad for {DIAMOND}"))
        u = sub.Value(w0, requires_grad=True)
        d = u + 1
        e = d * d
        s, r = e + d, e * u
        seen.append(_watched(s * r, {"u": u, "d": d, "e": e, "(e + d)": s, "(e * u)": r}, DIAMONDS))
        out.append(leaf_grad(sub, u, f"u.grad for {DIAMONDS}"))
    return {**_rules(sub, 1.5, -0.5), **by_key(seen), "grads": out, **again(sub)}




def _kept(sub: Any) -> list[dict[str, Any]]:
    """Whether one backward left the graph it walked as it was (``build_graph_kept``): its edges,
    its sequence numbers, a leaf's AccumulateGrad, each a claim of its own."""
    return [claim(holds, said) for holds, said in kept_parts(sub)]


@EXERCISE.test("inputs that require no grad", points=1, feedback=FEEDBACK,
               key_feedback=KEYS, caused_by=CAUSED_BY)
@shared_key_told
def constants(sub):
    needs(sub, 2)
    c = sub.Value(3.0)
    w = sub.Value(0.75, requires_grad=True)  # 3 + 6w is not 0 here: a gradient lost shows
    cw, ww = c * w, w * w
    cww = c * ww
    top = cw + cww
    seen = _watched(top + 2, {"w": w, "(c * w)": cw, "(w * w)": ww, "(c * (w * w))": cww,
                              "(c * w + c * (w * w))": top}, "y = c * w + c * (w * w) + 2")
    return {**_rules(sub, -0.5, 3.0), **seen,
            "grads": [leaf_grad(sub, w, "w.grad for y = c * w + c * (w * w) + 2")],
            "constant": leaf_grad(sub, c, "c.grad (c = Value(3.0))")}


@EXERCISE.test("gradients summed in PyTorch's order", points=2, feedback=FEEDBACK,
               key_feedback=KEYS, caused_by=CAUSED_BY)
@shared_key_told
def order(sub):
    """Three products of w reach w's AccumulateGrad; with a big and a small factor, each order of
    running them sums their gradients to another float."""
    needs(sub, 2)
    out = []
    for big, small, said in ((1e17, 3.0, ("1e17", "3", "-1e17")), (-2.0 ** 60, 2.0, ("-2**60", "2", "2**60"))):
        w = sub.Value(0.5, requires_grad=True)
        ((w * big + w * small) + w * -big).backward()
        out.append(leaf_grad(sub, w, "w.grad for y = (w * {0} + w * {1}) + w * {2}".format(*said)))
        u = sub.Value(0.5, requires_grad=True)
        ((u * small + u * big) + u * -big).backward()
        out.append(leaf_grad(sub, u, "u.grad for y = (u * {1} + u * {0}) + u * {2}".format(*said)))
    v = sub.Value(0.5, requires_grad=True)
    a, b = v * 2.0, v * 3.0  # a sum exact in any order: a buffer that kept one gradient alone shows here
    y = a + b
    applied = order_facts(y, {"w": v, "(w * 2)": a, "(w * 3)": b, "y": y}, "y = w * 2 + w * 3")["applied"]
    buffered = leaf_grad(sub, v, "w.grad for y = w * 2 + w * 3")
    ran = _ran(sub)  # the run order read apart
    return {**_rules(sub, 2.5, -1.5), "buffered": [buffered], "summed": out, **ran, "applied": ran["applied"] + applied,
            "kept": _kept(sub)}


def _ran(sub: Any) -> dict[str, list[Any]]:
    """The order the engine runs the nodes of the documents' graph (built in either order) and
    two with shared nodes: whether a node ran twice or too early (``arrived``, which spoils the
    whole order), apart from the whole order (``ran``), which a ready queue of another kind
    than the newest first changes alone."""
    w, x = sub.Value(1.25, requires_grad=True), sub.Value(-0.75, requires_grad=True)
    a, b = x + w, w + 1
    y = a * b
    v, k = sub.Value(1.25, requires_grad=True), sub.Value(-0.75, requires_grad=True)
    m, n = v + 1, k + v  # the first input the newest: a stack of pushed nodes runs it last
    z = n * m
    h = sub.Value(0.75, requires_grad=True)
    g = h * h
    p, q = g + g, g * h
    t = p * q
    u = sub.Value(-1.5, requires_grad=True)
    d = u + 1
    e = d * d
    s, r = e + d, e * u
    f = s * r
    watched = watched_order([(y, {"w": w, "x": x, "a": a, "b": b, "y": y}, "y = a * b, a = x + w, b = w + 1"),
                             (z, {"v": v, "k": k, "m": m, "n": n, "z": z}, "z = n * m, m = v + 1, n = k + v"),
                             (t, {"h": h, "g": g, "p": p, "q": q, "t": t}, "t = p * q, p = g + g, q = g * h, g = h * h"),
                             (f, {"u": u, "d": d, "e": e, "s": s, "r": r, "f": f},
                              "f = s * r, s = e + d, r = e * u, e = d * d, d = u + 1")])
    ran = watched["ran"]  # per graph: runs_once, after_feeders, the whole order
    return {"arrived": [c for i, c in enumerate(ran) if i % 3 < 2], "ran": ran[2::3], "applied": watched["applied"]}


@EXERCISE.test("backward from a leaf", points=1, feedback=FEEDBACK, key_feedback=KEYS, caused_by=CAUSED_BY)
@shared_key_told
def leaf(sub):
    needs(sub, 2)
    w = sub.Value(-2.5, requires_grad=True)
    w.backward()
    return {"accumulate": _accumulated(sub, -2.5, 1.5), "leaf": leaf_grad(sub, w, "w.grad after w.backward()")}


# Backward runs at Python's default recursion limit, whatever the submission set when imported
# (``sys.setrecursionlimit`` at the top of a file lets a recursive walk through any chain a probe
# could afford): 5,000 ops nest a recursive walk five times deeper than it allows.
CHAIN_OPS, RAISED_CHAIN_OPS = 5000, 20_000
CHAIN = N_("a chain of 5000 operations")  # a label's words, translated where shown (the test's name too)


def _long_chain(sub, ops: int):
    """A leaf w and a chain of ``ops`` ops on it (a ``* 1.0 + w`` every thousand, ``+ 0.0``
    between)."""
    w = sub.Value(1.0, requires_grad=True)
    v = w
    for i in range(ops):
        v = v * 1.0 + w if i % 1000 == 0 else v + 0.0
    return w, v


@EXERCISE.test("a chain of 5000 operations", points=2, feedback=FEEDBACK,
               key_feedback=KEYS, caused_by=CAUSED_BY)
@shared_key_told
def chain(sub):
    needs(sub, 2)
    w, v = _long_chain(sub, CHAIN_OPS)
    with default_recursion_limit() as moved:
        nested = deepest(sub, v.backward)
    if moved[0]:  # a limit moved while backward ran: as deep a chain as that limit must reach
        _long_chain(sub, RAISED_CHAIN_OPS)[1].backward()
    return {**_rules(sub, 1.0, 2.0),
            "chain": leaf_grad(sub, w, f"w.grad after backward through {CHAIN}"), "kept": _kept(sub),
            "no_recursion": claim(nested < NESTED, N_("backward through a long chain (5000 operations) runs without recursion"))}


@EXERCISE.diagram
def draw(sub):
    return documents_drawn(sub, 2)
