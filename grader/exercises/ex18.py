"""ex18 build_retain_grad: in the student's engine a non-leaf's .grad is None and warns, and
retain_grad() keeps it, as in PyTorch."""

from __future__ import annotations

import warnings
from typing import Any

from micrograph.i18n import N_

from grader.spec import Exercise

from grader.spec.build import claim, documents_drawn, fact, flag, needs, operand
from grader.spec.build_again import again
from grader.spec.build_reads import grad_quiet
from grader.spec.facts import CONTEXT
from grader.spec.warned import grad_read
from grader.spec.freed import at_a_freed_id
from grader.spec.held import held
from grader.spec.raised import raised
from grader.spec.build_order import watched_order
from grader.spec.build_watch import written_beside
from grader.spec.repeat import fresh_copy
from grader.spec.own_grad import OWN_GRAD, equal_leaves

EXERCISE = Exercise("ex18", "Build an engine: non-leaf gradients and retain_grad",
                    module="ex18_build_retain_grad", rules=True, own_engine=True)

FEEDBACK = ("Backward keeps only the leaves' gradients, plus those of non-leaves that called "
            "retain_grad(); reading .grad of any other non-leaf gives None and warns.")
KEYS = {
    "grad": "backward writes a leaf's gradient into its .grad",
    "retained": "backward writes into a retained non-leaf's .grad the gradient its node receives, "
                "when that node runs",
    "own_node": "backward writes into a retained non-leaf's .grad the gradient its node receives, when that node runs, "
                "and at no other node's run: what retain_grad keeps belongs to that one node, not to every node",
    "a_value": "backward writes a retained non-leaf's gradient into its .grad as a Value, as PyTorch writes a "
               "tensor: through store_grad, as a leaf's",
    "handed_itself": "retain_grad() tells its grad_fn which Value to write the gradient into: the value itself "
                     "(self.grad_fn.retained = self), not a copy, so that backward writes into that value's .grad",
    "read_back": "the grad property returns the Value .grad holds, as it is, as PyTorch's returns the tensor: "
                 "reading .grad gives that Value, not its number",
    "not_retained": "a non-leaf that did not call retain_grad() keeps .grad None: backward writes "
                    "no gradient there",
    "before": "before any backward, .grad is None on every value",
    "warned": "reading .grad of a non-leaf that does not retain its grad warns (UserWarning, "
              "NON_LEAF_GRAD); a leaf and a retained non-leaf never warn",
    "warn_again": "reading .grad of a non-leaf that does not retain its grad warns at every read, not only the "
                  "first: whether it warns depends on nothing kept between reads",
    "retains_grad": "retain_grad() sets retains_grad on a non-leaf and returns None; on a leaf that requires "
                    "grad it changes nothing",
    "shared": "a retained node two paths reach gets its gradient once, the sum of both, when it "
              "runs: backward runs each node once, after every node that sends it a gradient",
    "ran": "backward runs each node once, and only after every node that sends it a gradient has "
           "run, the ready node with the highest sequence_nr (the newest) first",
    "applied": "backward runs each node by calling its apply (node.apply(grad)), as the statement "
               "has it: the grader watches the order nodes run through apply",
    "kept": "retain_grad() lasts as long as the value: a backward through another graph in between "
            "does not undo it",
    "every_backward": "retain_grad() lasts as long as the value: every backward through its node writes its gradient, "
                      "not the first one only",
    "refused": "retain_grad() on a value that requires no grad raises RuntimeError(RETAIN_NO_GRAD): "
               "there is no gradient to keep",
    "freed_id": "whether a non-leaf retains its grad belongs to that value (its retains_grad): a record of "
                "the retained nodes' ids kept between calls takes a new node at a freed one's id for retained",
    "first_read": "reading .grad of a non-leaf that does not retain its grad warns from the first read of the engine "
                  "on, before any backward: whether it warns depends on nothing kept between calls",
    "same_number": "whether a non-leaf retains its grad belongs to that value, not to its number: another value of "
                   "the same number that did not call retain_grad() warns when read",
    "own_grad": OWN_GRAD,
    "twice": "retain_grad() on a value that already retains its grad changes nothing: calling it again keeps the "
             "gradient kept, as PyTorch's does at every call",
    "late": "backward writes a non-leaf's gradient only where that non-leaf retains its grad when its node runs: "
            "a retain_grad() called after that backward finds .grad None, as nothing was written there",
    "root_as_was": "backward leaves the value it starts from as it was: its requires_grad and grad_fn after "
                   "backward are what they were before, and a second backward starts from them again",
    "sent_again": "each backward buffers the gradients of its own pass, anew at each call: a later backward through "
                  "the same graph hands every node what the first did",
    "again": "each backward counts the edges of its own graph anew: dependencies keeps nothing between calls, so a "
             "second backward through the same graph (of additions, which save nothing) runs every node again, as "
             "PyTorch's does",
}
NODES = ("w", "x", "a", "b", "y")
# The order is not claimed where backward ran a node without its apply: that is the one advice;
# a retained gradient written too early or twice follows from the order backward ran in.
# A retained gradient never kept, whatever ran in between, is not retain_grad() undone by another graph.
# A warning given once and never again is told by that rule, not by the rule of when to warn.
CAUSED_BY = {"ran": ("applied",), "shared": ("ran", "retained", "own_node", "handed_itself"),
             "kept": ("retained", "own_node", "handed_itself"),
             "every_backward": ("retained", "own_node", "handed_itself", "again", "root_as_was", "sent_again"),
             "sent_again": ("applied", "ran", "root_as_was", "again"),
             "warned": ("warn_again", "same_number"), "retained": ("own_node", "handed_itself"),
             # a getter that never warns, or gives a non-retained non-leaf a .grad anyway (Value(0)), is not
             # ids kept: told by the rule of warning, or of that .grad staying None
             # a getter that marks a value retained when read is told by the flags it set, not as ids kept
             "freed_id": ("warned", "not_retained", "before", "retains_grad", "first_read", "same_number"),
             "first_read": ("warned",),  # a getter that never warns: told by the rule of warning
             "late": ("before",),  # retain_grad() that puts a .grad there itself: told before any backward
             "own_grad": ("grad",), "again": ("applied", "ran", "root_as_was"),
             "a_value": ("read_back",)}  # a getter that gives the number: not what store_grad wrote  # a wrong gradient or order anywhere: not state kept
TWICE = N_("reading y.grad twice, y = w * 2, warns both times")
# whether retain_grad() told the node the Value itself (the track's grad_fn.retained; torch's node has
# no such attribute, nor an engine that keeps it elsewhere: the claim holds there)
HANDED = {"a": N_("a.retain_grad() tells a.grad_fn to write into a itself"),
          "b": N_("b.retain_grad() tells b.grad_fn to write into b itself"),
          "y": N_("y.retain_grad() tells y.grad_fn to write into y itself")}


def _warns_again(sub: Any) -> dict[str, Any]:
    """Whether a non-leaf's .grad read twice warns twice, as PyTorch's does, on a fresh copy of
    the student's module (where it can be made): an engine that warns once in a process (a
    module flag) warns at its first read there, so the sentence is true of the file as the
    student runs it, where the grader's earlier reads have used that one warning up."""
    engine = fresh_copy(sub) or sub
    y = engine.Value(1.5, requires_grad=True) * 2
    first, second = grad_read(y)["warned"], grad_read(y)["warned"]
    return claim(first is not True or second is True, TWICE)


def _documents(sub: Any, w: float, x: float, retained: tuple[str, ...]) -> dict[str, Any]:
    needs(sub, 3)
    wl, xl = sub.Value(w, requires_grad=True), sub.Value(x, requires_grad=True)
    a = xl + wl
    b = wl + 1
    y = a * b
    g = dict(zip(NODES, (wl, xl, a, b, y)))
    held(*g.values())  # a retained node never freed: no later node takes its id (``_at_a_freed_id``'s, on purpose)
    calls = [raised(g[name].retain_grad, f"{name}.retain_grad() on a leaf that requires grad" if name in ("w", "x")
                    else f"{name}.retain_grad()") for name in retained]  # an error told with the value it was called on
    own = [n for n in retained if n not in ("w", "x")]  # the retained non-leaves: whose runs wrote their .grad
    beside = {own[0]: written_beside(y, g, y.backward, own)} if own else {}  # every retained non-leaf's .grad read
    if not own:
        y.backward()
    after = f"after {''.join(f'{n}.retain_grad(); ' for n in retained)}y.backward()"
    reads = {n: grad_read(g[n]) for n in NODES}
    kept: dict[str, list[Any]] = {"grad": [], "retained": [], "not_retained": []}  # keyed as the program made them
    for n in NODES:
        key = "grad" if n in ("w", "x") else "retained" if n in retained else "not_retained"
        passed = {CONTEXT + "passed_on": True} if any(n in seen[2] for seen in beside.values()) else {}  # told beside
        kept[key].append({**fact(reads[n]["grad"], f"{n}.grad {after}"), **passed})
    values = [claim(_a_value(g[n]), f"{n}.grad is None or a Value like {n}") for n in retained if n not in ("w", "x")]
    written = [claim(_by_own_node(beside[n], f"{n}.grad_fn"), f"{after}, only {n}.grad_fn's run wrote {n}.grad")
               for n in beside]
    handed = [claim(getattr(getattr(g[n], "grad_fn", None), "retained", None) in (None, g[n]), HANDED[n]) for n in own]
    return {**({"own_node": written} if written else {}), **({"handed_itself": handed} if handed else {}), **{key: seen for key, seen in kept.items() if seen},
            **({"a_value": values} if values else {}),
            "warned": [claim(reads[n]["warned"], f"reading {n}.grad {after} warns") for n in NODES],
            "retains_grad": [*calls, *(fact(flag(g[n].retains_grad), f"{n}.retains_grad {after}") for n in NODES)]}


def _by_own_node(beside: tuple[list[tuple[str, str]], set[str], set[str]], node: str) -> bool:
    """Whether every change of a retained value's .grad came next to a run of its own node or
    once every node had run (a backward that writes the retained gradients after its loop is
    right at this stage), per ``written_beside``; or that node was never seen to run (its apply
    bypassed: told so)."""
    pairs, ran, _ = beside
    return node not in ran or all(node in pair or not pair[1] for pair in pairs)


def _a_value(v: Any) -> bool:
    """Whether ``v.grad`` is None or of ``v``'s own type, as PyTorch's tensor is: a bare float
    holds the right number, yet has no ``item()`` and no ``zero_()`` (ex19)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = v.grad
    return got is None or type(got) is type(v)


def _runs(sub: Any, cases: list[tuple[float, float, tuple[str, ...]]]) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for run in (_documents(sub, *case) for case in cases):
        for key, seen in run.items():
            out.setdefault(key, []).extend(seen)
    if "a_value" in out:  # what a retained .grad is, beside what the getter gives back
        out["read_back"] = [_read_back(sub)]
    return out


@EXERCISE.test("a.grad after a.retain_grad()", points=3, public=True, feedback=FEEDBACK, key_feedback=KEYS,
               caused_by=CAUSED_BY)
def retained_public(sub):
    return {**_runs(sub, [(0.5, -3.0, ("a",)), (2.0, 4.0, ())]), "warn_again": _warns_again(sub)}


def _read_back(sub: Any) -> dict[str, Any]:
    """Whether reading a leaf's .grad gives the Value set there (w.grad = g, as PyTorch's gives
    the tensor): a getter that returns the number (``item()``) makes every .grad a float, which
    store_grad never wrote."""
    w, g = sub.Value(1.5, requires_grad=True), sub.Value(2.0)
    w.grad = g
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = w.grad
    return claim(got is g, N_("after w.grad = g, g = Value(2), w.grad is g"))


@EXERCISE.test("retain_grad on other nodes", points=2, feedback=FEEDBACK, key_feedback=KEYS,
               caused_by=CAUSED_BY)
def retained_hidden(sub):
    runs = _runs(sub, [(1.5, -0.5, ("b", "y")), (-1.0, 0.0, ("y",)), (0.0, 0.0, ("a", "b"))])
    made = sub.Value(0.5, requires_grad=True) * 3
    held(made)
    returned = made.retain_grad()
    return {**runs, **_shared(sub), "kept": _across(sub), **_at_a_freed_id(sub),
            "own_grad": equal_leaves(sub),
            **again(sub), **_twice_and_late(sub),
            "retains_grad": [*runs["retains_grad"], claim(returned is None, N_("(w * 3).retain_grad() returns None"))]}


TWICE_CALLED = "a.retain_grad(); a.retain_grad()"
LATE = "y.backward(); a.retain_grad()"
PROGRAM = "y = a * w, a = x + w"


def _twice_and_late(sub: Any) -> dict[str, list[Any]]:
    """retain_grad() called twice before backward (PyTorch's call is the same every time: an
    engine that toggles the flag keeps nothing), and called once after a backward (PyTorch wrote
    no gradient there then: an engine that stores every non-leaf's gradient and hides it in the
    getter shows that stale one), each on y = a * w, a = x + w; r.grad right after r.retain_grad()
    (nothing wrote it: a retain_grad() that puts a .grad there is told as such, not as a late call
    finding one), and two backward calls through one retained a (``_second_backward``)."""
    w, x = sub.Value(1.25, requires_grad=True), sub.Value(-0.5, requires_grad=True)
    a = x + w
    y = a * w
    held(y, a)  # a retained node never freed (``_documents``'s reason)
    a.retain_grad()
    a.retain_grad()
    twice = [fact(flag(a.retains_grad), f"a.retains_grad after {TWICE_CALLED}")]
    y.backward()
    twice.append(fact(grad_quiet(a), f"a.grad after {TWICE_CALLED}; y.backward(), {PROGRAM}"))
    a = x + w
    y = a * w
    held(y, a)
    y.backward()
    a.retain_grad()
    r = w * 3
    held(r)
    r.retain_grad()  # before any backward through it: a .grad there is retain_grad()'s own
    return {"twice": twice, "late": [fact(grad_quiet(a), f"a.grad after {LATE}, {PROGRAM}")],
            "before": [fact(grad_quiet(r), "r.grad after r = w * 3; r.retain_grad()")],
            "every_backward": _second_backward(sub)}


def _second_backward(sub: Any) -> list[dict[str, Any]]:
    """a.grad after a second backward through a retained a's graph (of additions: nothing saved,
    so PyTorch runs it again without retain_graph), a.grad set to None in between: a backward that
    forgets the retained value once it wrote its gradient writes nothing the second time.  Each
    backward's error is told as it was raised (a first one that changed y fails the second)."""
    w, x = sub.Value(1.25, requires_grad=True), sub.Value(-0.5, requires_grad=True)
    a = x + w
    y = a + w
    held(y, a)
    a.retain_grad()
    program = "a.retain_grad(); y.backward(); a.grad = None; y.backward(), y = a + w, a = x + w"
    first = raised(y.backward, "y.backward(), y = a + w, a = x + w, a retained")
    a.grad = None
    second = raised(y.backward, f"the second y.backward() of {program}")
    return [first, second, fact(grad_quiet(a), f"a.grad after {program}")]


FREED = "a = w * 3; a.retain_grad(); del a, w; b = v * 3"  # b.grad_fn at the id a.grad_fn had
FIRST_READ = N_("reading q.grad after importlib.reload(engine); q = v * 3 warns")  # engine: the student's file


def _at_a_freed_id(sub: Any) -> dict[str, Any]:
    """A new non-leaf b that never called retain_grad, its node put where the node of an earlier
    one that did was, once that one was let go of (``FREED``, made and freed until the ids meet):
    an engine that keeps the ids of retained nodes (a set between calls) takes b for retained,
    and b.grad neither warns nor stays None.
    The Values are a fresh copy's of the student's module (where it can be made): ids an engine
    kept from earlier tests meet none of them here.  Before them, a non-leaf q read first thing
    in that copy (``FIRST_READ``): an engine whose warning waits for state a call leaves (a
    backward run once) does not warn there, which is no id kept."""
    engine = fresh_copy(sub) or sub
    first = True if engine is sub else grad_read(engine.Value(0.5, requires_grad=True) * 3)["warned"]
    same = _same_number(engine, first)
    b = at_a_freed_id(lambda: engine.Value(0.5, requires_grad=True) * 3, lambda a: a.retain_grad(),
                      lambda a: (a.grad_fn,))
    read = grad_read(b)
    kept = fact(flag(b.retains_grad), f"b.retains_grad after {FREED}")
    b.backward()
    return {"freed_id": [claim(read["warned"], f"reading b.grad after {FREED} warns"), kept,
                         fact(grad_quiet(b), f"b.grad after {FREED}; b.backward()")],
            "first_read": claim(first, FIRST_READ), "same_number": same}


SAME_NUMBER = "w, v = Value(0.25, requires_grad=True), Value(0.25, requires_grad=True); a = w * 3; a.retain_grad(); b = v * 3"


def _same_number(engine: Any, first: object) -> dict[str, Any]:
    """Whether a non-leaf b that never called retain_grad, of the number of one a that did (both
    kept alive), warns when read: an engine that tells retained values by their number takes b
    for retained.  Held where the first read of the copy did not warn either (``first``): that
    engine's warning is told by that read, not by numbers."""
    w, v = engine.Value(0.25, requires_grad=True), engine.Value(0.25, requires_grad=True)
    a, b = w * 3, v * 3
    held(a, b)
    a.retain_grad()
    return claim(grad_read(b)["warned"] is True or first is not True, f"reading b.grad after {SAME_NUMBER} warns")


def _across(sub: Any) -> Any:
    """a.grad when a backward through another graph ran between a.retain_grad() and y.backward():
    a retain_grad() kept in state that every backward clears is forgotten there."""
    w, x, u = (sub.Value(n, requires_grad=True) for n in (0.75, -2.0, 3.0))
    a = x + w
    y = a * w
    held(y, a, u)
    a.retain_grad()
    (u * u).backward()
    y.backward()
    return fact(grad_quiet(a), "a.grad after a.retain_grad(); (u * u).backward(); y.backward(), y = a * w, a = x + w")


def _shared(sub: Any) -> dict[str, Any]:
    """A retained node two paths reach (g in t = (g + g) * (g * h)): its .grad, and the order
    backward ran the nodes in (this stage's backward writes retained gradients as nodes run)."""
    h = sub.Value(-1.25, requires_grad=True)
    g = h * h
    held(g)
    g.retain_grad()
    p, q = g + g, g * h
    t = p * q
    program = "t = p * q, p = g + g, q = g * h, g = h * h"
    out = watched_order([(t, {"h": h, "g": g, "p": p, "q": q, "t": t}, program)], retained=("g",))
    passed = {CONTEXT + "passed_on": True} if out.pop("passed_on") else {}  # told beside the difference
    return {**out, "shared": {**fact(grad_quiet(g), f"g.grad after g.retain_grad(); t.backward(), {program}"), **passed}}


@EXERCISE.test("non-leaf grads without retain_grad", points=2, feedback=FEEDBACK, key_feedback=KEYS,
               caused_by=CAUSED_BY)
def without(sub):
    return {**_runs(sub, [(-1.25, 0.75, ()), (3.0, -2.0, ())]), "warn_again": _warns_again(sub)}


@EXERCISE.test("retain_grad on a leaf", points=1, feedback=FEEDBACK, key_feedback=KEYS, caused_by=CAUSED_BY)
def on_leaf(sub):
    runs = _runs(sub, [(0.25, 8.0, ("w", "a")), (4.0, -4.5, ("x",))])
    c = sub.Value(-6.0)
    made = sub.Value(0.375) * c
    held(c, made)
    return {**runs, "refused": [raised(c.retain_grad, "c.retain_grad(), c = Value(-6)"),
                                raised(made.retain_grad, "p.retain_grad(), p = Value(0.375) * c")]}


@EXERCISE.test("reading .grad before backward", points=2, feedback=FEEDBACK, key_feedback=KEYS)
def before(sub):
    needs(sub, 3)
    w = sub.Value(2.0, requires_grad=True)
    c = sub.Value(5.0)
    h = w * w
    made = {"w": w, "c": c, "c * 3": c * 3, "w * w": h, "(w * w) + c": h + c}
    reads = {label: grad_read(v) for label, v in made.items()}
    kept_value = w * 3
    held(kept_value)
    kept_value.retain_grad()
    kept = grad_read(kept_value)  # a retained non-leaf never warns, before backward too
    retained = "after r = w * 3; r.retain_grad()"
    return {"before": [*(fact(r["grad"], f"{operand(label)}.grad before backward") for label, r in reads.items()),
                       fact(kept["grad"], f"r.grad {retained}")],
            "warned": [*(claim(r["warned"], f"reading {operand(label)}.grad warns") for label, r in reads.items()),
                       claim(kept["warned"], f"{retained}, reading r.grad warns")]}


@EXERCISE.diagram
def draw(sub):
    return documents_drawn(sub, 3)
