"""ex21 build_inplace: in the student's engine in-place ops bump version counters, a leaf that
requires grad refuses them, a saved value changed in place breaks backward, and .data and
detach() share the number (only detach() the version), as in PyTorch."""

from __future__ import annotations

import functools
from typing import Any, Callable

from micrograph.i18n import N_

from grader.spec import Exercise
from grader.spec.build import claim, described, documents_drawn, fact, flag, needs, node_name, number
from grader.spec.build_reads import grad_quiet, version
from grader.spec.build_equal_leaves import CHECKED_NOW, NOT_THE_LEAF, equal_leaf_changed, flag_followed
from grader.spec.build_versions_compared import BY_VERSION, compared_by_number
from grader.spec.build_aliases import (DETACHED_LEAF_RULE, constant_detached, data_each_call, data_views_apart,
                                       detached_leaf, freed_then_changed, old_node_kept, saved_again)
from grader.spec.facts import NOT_PLAIN
from grader.spec.build_rebased import (added_into_itself, constant_added, edges_kept, grad_kept, leaf_followed,
                                       retained_moved, retained_through, zero_recorded)
from grader.spec.leaf_retained import RETAINED_LEAF, leaf_retained
from grader.spec.saved import saved_as
from grader.spec.probe import type_name
from grader.spec.raised import iadd, raised, returns_itself

EXERCISE = Exercise("ex21", "Build an engine: in-place operations and versions",
                    module="ex21_build_inplace", rules=True, own_engine=True)

FEEDBACK = ("An in-place op changes the number and bumps the version; check_in_place refuses a leaf "
            "that requires grad; unpack refuses a value changed since it was saved.")
KEYS = {
    "saved_itself": "MulBackward0 saves the operand itself, the Value, as ex16's __mul__ must: a copy saved in its "
                    "place has a version counter of its own, so a change to the operand in place is never seen",
    "errors": "an in-place op on a leaf that requires grad raises LEAF_IN_PLACE, before changing "
              "anything; any other value may change in place",
    "modified": "backward raises MODIFIED (with both versions) when a value a node saved was changed "
                "in place since (a change through .data is not counted), and nothing otherwise",
    "versions": "each in-place op (add_, +=, zero_) bumps the version counter once, one that leaves the number "
                "as it was too (zero_() of a 0, add_(0)); a change through detach() bumps the shared counter, a "
                "change through .data does not",
    "own_counter": "each Value has a version counter of its own (a Value detach() gave shares it, no other "
                   "does): an in-place op on one Value leaves every other Value's counter as it was",
    "data_counter": ".data gives a Value with a version counter of its own, started anew as a new Value's is, "
                    "whatever the version of the Value it is read from",
    "iadd": "v += w is v.__iadd__(w), whose result Python binds to v: __iadd__ changes the Value in place "
            "and returns it (self)",
    "zero_self": "zero_() changes the Value in place and returns it (self), as add_ does",
    "numbers": "an in-place op changes the number itself; .data and detach() share it",
    "zero_shared": "zero_() sets the number to 0 in the place a Value shares with its detach() and .data: a new place "
                   "of its own would leave them the old number",
    "grads": "backward uses the numbers as they are when it runs",
    "graph": "an in-place op on a value that requires grad, or whose other operand does, records a "
             "new node, its grad_fn from then on: AddBackward0 for add_, whose edges are the old "
             "history and the other operand's, both taken before the op (y.add_(y) has two edges to "
             "y's old history; a value that required no grad has no history: its edge is (None, 0)); "
             "ZeroBackward0 for zero_, whose one edge is the old history",
    "cycle": "an in-place op takes the edges of its new node before the op: an edge taken after rebase leads to "
             "the new node itself, a cycle",
    "unrecorded": "an in-place op on a value that requires no grad, with no operand that does, records "
                  "nothing: the value stays a leaf that requires no grad",
    "retained": "a non-leaf that retains its grad keeps it through an in-place op: its .grad is the "
                "gradient of its new value, which its new grad_fn writes (rebase moves it)",
    "unflagged": "detach() and .data give a Value that requires no grad, so a change through it is not refused",
    "detached": "detach() and .data give a new Value at each call, a leaf (no grad_fn) that shares the "
                "number and requires no grad, and leave the Value they are called on as it was, in its graph",
    "alias": "detach() and .data give a new Value at each call, with no .grad of its own (None): not one "
             "kept on the Value, nor a copy that keeps the Value's .grad",
    "retained_leaf": RETAINED_LEAF,
    "not_the_leaf": NOT_THE_LEAF,
    "checked_now": CHECKED_NOW,
    "by_number": BY_VERSION,
    "data_value": ".data gives a Value that shares the number, not the number itself",
    "freed_first": "unpack checks first whether its node was released: a backward through a node an earlier backward "
                   "freed raises RuntimeError(SECOND_BACKWARD), whatever was changed in place since",
    "old_node": "an in-place op gives the value a new node and leaves the node it had before as it was, its edges "
                "too: a graph recorded before the op still runs through that old node to its inputs",
    "other_version": "an in-place op bumps the version of the Value it changes, never its other operand's: v += w "
                     "leaves w's version as it was",
    "detached_leaf": DETACHED_LEAF_RULE,
    "leaf_now": "a Value is a leaf while its grad_fn is None, as it is when is_leaf is read: an in-place op that records "
                "a node on a constant makes it a non-leaf from then on, whatever is_leaf answered before the op",
    "warn_now": "reading .grad warns on a value that is a non-leaf when it is read (its grad_fn not None) and does not "
                "retain its grad: a constant an in-place op rebased onto a node warns from then on, as any non-leaf",
    "retained_moved": "rebase moves a retained value to the value's new node and leaves it on its old node no more: "
                      "from the in-place op on, the old node writes the value's .grad no more, so a backward through a "
                      "graph built on the value before the op leaves that .grad as it was",
    "grad_kept": "an in-place op leaves the .grad a value holds as it was (rebase moves only which node writes it from "
                 "then on): the next backward adds to it",
    "own_versions": "each node checks the versions it saved itself, kept on that node: a later graph that saves the same "
                    "value (under the same name) leaves them as they were, so the first graph's backward still raises "
                    "MODIFIED",
    "data_views": "each .data gives a Value with a version counter of its own, shared with no other .data of the same "
                  "Value: a change through one leaves the version another saved as it was (the number they share "
                  "changes)",
    "own_edges": "an in-place op's node keeps the edges it was made with: a later in-place op, on a value of another "
                 "graph, leaves them as they were (each node's edges are its own, shared with no other node)",
}

# every observation but what .data gave is made on a Value there: where it gave a number, none was made
DATA_PRESUMED = {key: ("data_value",) for key in KEYS if key != "data_value"}

# a refused in-place op leaves a program's later steps as they were: an error where PyTorch raises
# none, or none where it raises one, follows from the refusal, and so do the node it did not
# record and the version it did not bump; gradients follow from both
CAUSES = {"numbers": ("errors",), "other_version": ("errors",), "modified": ("errors", "saved_itself", "other_version", "by_number"),
          "grads": ("errors", "modified", "old_node", "by_number"),
          "retained": ("errors", "modified", "old_node"), "graph": ("errors",), "versions": ("errors", "other_version"),
          "freed_first": ("errors",), "old_node": ("errors",)}

IADD_KEEPS = N_("v += w leaves v the Value it changed in place")
IADD_KEEPS_B = N_("b += 1 leaves b the Value it changed in place")
# what a program did, in words (a label's part, translated as a whole)
# what a program read after an op PyTorch refuses, whatever the engine did with it (translated whole)
ADD_NUMBER, ADD_VERSION = (N_("w.item() after w.add_(1) on a leaf that requires grad"),
                           N_("w._version after w.add_(1) on a leaf that requires grad"))
ZERO_NUMBER, ZERO_VERSION = (N_("w.item() after w.zero_() on a leaf that requires grad"),
                             N_("w._version after w.zero_() on a leaf that requires grad"))
THROUGH_DETACH = N_("adding through w.detach()")
THEN_DATA = N_("adding through w.detach(), then through w.data")
DETACHED = N_("after e = h.detach(), h = x * 3")


# a detach() (or .data) that gives a Value requiring grad, or the Value itself, has its changes
# refused or recorded: the rules of in-place ops would blame parts that work
# (or only requires grad, ``unflagged``: its changes are refused, which is all that differs)
DETACH_CAUSES = {key: ("detached", "unflagged") for key in ("numbers", "versions", "data_counter", "errors", "modified",
                                                            "grads")}
DETACH_CAUSES["zero_shared"] = ("detached", "unflagged", "numbers", "errors")  # zero_ told alone
DETACH_CAUSES["unflagged"] = ("detached",)  # the Value itself requires grad: one mistake, its rule
DETACH_CAUSES["detached_leaf"] = ("detached", "unflagged", "alias")  # the Value itself, or its alias: told so
DETACH_CAUSES["alias"] = ("detached",)  # the Value itself, or an alias that requires grad: its .grad follows
SHARED_COUNTER = {"versions": ("own_counter",), "modified": ("own_counter",)}  # the versions it shows are others'
PUBLIC_CAUSES = {key: CAUSES.get(key, ()) + DETACH_CAUSES.get(key, ()) + SHARED_COUNTER.get(key, ())
                 for key in (*CAUSES, *DETACH_CAUSES)}
PUBLIC_CAUSES["errors"] += ("not_the_leaf",)  # a value refused for a leaf holding its number: that lookup told
PUBLIC_CAUSES["checked_now"] = ("errors",)  # a constant refused, or a leaf let through, at its first op: the rule told


def _counted(causes: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    """A hidden test's ``caused_by`` with a counter shared between Values (``own_counter``, which
    each test that reads versions observes) as the cause of the versions and errors it shows."""
    return {key: causes.get(key, ()) + SHARED_COUNTER.get(key, ()) for key in (*causes, *SHARED_COUNTER)}


def _own_counter(sub: Any) -> dict[str, Any]:
    """Two fresh Values bumped once each, their versions compared: a counter shared between
    Values (one module-level clock) gives them others' versions, which every version a test reads
    shows; told as that, where the Value's own versions would only look wrong."""
    a, b = sub.Value(1.0), sub.Value(2.0)
    steps = [raised(a.add_, "a.add_(1), a = Value(1)", 1.0), raised(b.add_, "b.add_(1) after a.add_(1), b = Value(2)", 1.0)]
    counters = (a._version, b._version)  # counters of another kind are told by the tests' version facts
    own = claim(counters[0] == counters[1] if all(type(c) in (int, float) for c in counters) else True,
                "b._version == a._version after a.add_(1); b.add_(1), a = Value(1), b = Value(2)")
    return {"errors": steps, "own_counter": own}


class DataANumber(Exception):
    """.data gave a Python number (micrograd's ``.data``): nothing a test goes on to do with it
    (change it in place, read its flags) can run on a number, so the test stops there."""


def _data(v: Any) -> Any:
    """``v.data``, which the tests go on to change in place and read the flags of; a plain number
    there stops the test (``DataANumber``, its type's name)."""
    got = v.data
    if type(got) in (int, float):
        raise DataANumber(NOT_PLAIN + type_name(got))
    return got


def _stops_at_data(probe: Callable[[Any], dict[str, Any]]) -> Callable[[Any], dict[str, Any]]:
    """A probe that reads .data, observed as far as .data gave a Value: where it gave a number the
    one observation is what it gave (``data_value``, a difference from PyTorch's told as such),
    every other key presumed on a Value there (``DATA_PRESUMED``); no error of the test's own."""
    @functools.wraps(probe)
    def run(sub: Any) -> dict[str, Any]:
        try:
            found = probe(sub)
        except DataANumber as stop:
            return {"data_value": fact(str(stop), "w.data")}
        return {**found, "data_value": fact(True, "w.data")}
    return run


def _flagged(made: dict[str, Any]) -> dict[str, Any]:
    """A ``described`` Value made by detach() or .data, its requires_grad apart (``unflagged``):
    a Value that requires grad is the one mistake whose rule alone is told."""
    return {"detached": {k: v for k, v in made.items() if k != "requires_grad"}, "unflagged": made["requires_grad"]}


@EXERCISE.test("in-place ops and the leaf error", points=3, public=True, feedback=FEEDBACK, key_feedback=KEYS,
               caused_by=PUBLIC_CAUSES, presumes=DATA_PRESUMED)
@_stops_at_data
def basics_public(sub):
    needs(sub, 6)
    w = sub.Value(1.5, requires_grad=True)
    v = sub.Value(2.0)
    steps = [raised(w.add_, "w.add_(1) on a leaf that requires grad", 1.0),
             fact(number(w), ADD_NUMBER), fact(version(w), ADD_VERSION),
             raised(w.zero_, "w.zero_() on a leaf that requires grad"),
             fact(number(w), ZERO_NUMBER), fact(version(w), ZERO_VERSION)]
    own = _own_counter(sub)
    steps += own["errors"]
    steps.append(raised(v.add_, "v.add_(1), v = Value(2)", 1.0))  # a refusal is told as the step's
    versions = [fact(version(v), "v._version after v.add_(1)")]
    before = v
    bound, added = iadd(v, w, "v += w after v.add_(1)", "w")  # a refusal is told as the step's, with what was refused
    steps.append(added)
    rebound = claim(bound is before, IADD_KEEPS)  # what += did to the Value itself is read on v, whatever += bound
    versions.append(fact(version(v), "v._version after v += w"))
    other = fact(version(w), "w._version after v += w")  # the other operand's: never bumped
    u = sub.Value(-3.0)
    zeroed, said = returns_itself(u.zero_, u, "u.zero_(), u = Value(-3)")  # a refusal is told as the step's
    steps.append(said)
    versions.append(fact(version(u), "u._version after u.zero_(), u = Value(-3)"))
    d = w.detach()
    unflagged = [fact(flag(d.requires_grad), "w.detach().requires_grad")]  # why a change through it is refused
    steps.append(raised(d.add_, THROUGH_DETACH, 0.125))
    versions.append(fact(version(w), f"w._version after {THROUGH_DETACH}"))
    d = _data(w)
    unflagged.append(fact(flag(d.requires_grad), "w.data.requires_grad"))
    steps.append(raised(d.add_, THEN_DATA, 0.125))
    versions.append(fact(version(w), f"w._version after {THEN_DATA}"))
    p = sub.Value(0.5, requires_grad=True)
    q = p + 2
    z = q * q
    steps.append(raised(q.add_, "q.add_(1), q = p + 2", 1.0))
    return {"unflagged": unflagged, "errors": steps, "own_counter": own["own_counter"], "iadd": rebound, "other_version": other,
            "zero_self": claim(zeroed, "u.zero_() is u"),
            "not_the_leaf": equal_leaf_changed(sub), "checked_now": flag_followed(sub),
            "modified": [raised(z.backward, "z.backward() after q.add_(1), z = q * q, q = p + 2")],
            "versions": versions,
            "numbers": [fact(number(v), "v.item() after v.add_(1); v += w"), fact(number(u), "u.item() after u.zero_()"),
                        fact(number(w), f"w.item() after {THEN_DATA}")],
            "graph": fact(node_name(getattr(v, "grad_fn", None)), "v.grad_fn after v.add_(1); v += w")}


@EXERCISE.test("in place after the graph saved it", points=2, feedback=FEEDBACK, key_feedback=KEYS,
               caused_by=_counted({**CAUSES, "errors": ("not_the_leaf",), "own_versions": ("errors", "saved_itself", "modified", "other_version", "versions")}))
def modified(sub):
    needs(sub, 6)
    own = _own_counter(sub)
    out: dict[str, Any] = {"errors": own["errors"], "own_counter": own["own_counter"], "saved_itself": [], "modified": [], "grads": [],
                           "versions": []}
    for w0, x0 in ((1.0, 2.0), (-0.5, 0.25)):
        w, x = sub.Value(w0, requires_grad=True), sub.Value(x0, requires_grad=True)
        b = w + 1
        y = (x + w) * b
        out["errors"] += [raised(b.add_, "b.add_(1), b = w + 1", 1.0), raised(b.add_, "b.add_(2) after b.add_(1)", 2.0)]
        out["modified"].append(raised(y.backward, "y.backward() after b.add_(1); b.add_(2), "
                                                      "y = (x + w) * b, b = w + 1"))
        c = w + 1
        z = c * 3
        out["errors"].append(raised(c.add_, "c.add_(1), c = w + 1", 1.0))
        out["modified"].append(raised(z.backward, "z.backward() after c.add_(1), z = c * 3, c = w + 1"))
        out["grads"].append(fact(grad_quiet(w), "w.grad after c.add_(1); z.backward()"))
        a = x + w  # the documents' a, saved by y's product as "self": its version is checked as "other"'s is
        t = a * (w + 1)
        out["errors"].append(raised(a.add_, "a.add_(1), a = x + w", 1.0))
        out["modified"].append(raised(t.backward, "t.backward() after a.add_(1), t = a * (w + 1), a = x + w"))
    for key, seen in _same_number(sub).items():
        out[key] += seen
    return {**out, "not_the_leaf": equal_leaf_changed(sub), "by_number": compared_by_number(sub), "freed_first": freed_then_changed(sub), "old_node": old_node_kept(sub), "own_versions": saved_again(sub)}


def _same_number(sub: Any) -> dict[str, list[Any]]:
    """In-place ops that leave the number as it was, zero_() of a 0 and add_(0): PyTorch bumps the
    version all the same, so a saved 0 zeroed again breaks backward; an engine that skips an op
    that changes nothing shows here only, every other probe changing the number."""
    w, s = sub.Value(0.5, requires_grad=True), sub.Value(0.0)
    y = w * s
    itself = saved_as(y.grad_fn, "other") is s  # read before the change: PyTorch refuses it after
    n = sub.Value(-7.25)
    steps = [raised(s.zero_, "s.zero_(), s = Value(0)"), raised(n.add_, "n.add_(0), n = Value(-7.25)", 0.0)]
    return {"errors": steps, "versions": [fact(version(s), "s._version after s.zero_(), s = Value(0)"),
                                          fact(version(n), "n._version after n.add_(0), n = Value(-7.25)")],
            "modified": [raised(y.backward, "y.backward() after s.zero_(), y = w * s, s = Value(0)")],
            "saved_itself": [claim(itself, "y.grad_fn saved s itself as \"other\"")]}


@EXERCISE.test("w.data shares the number, not the version", points=2, feedback=FEEDBACK, key_feedback=KEYS,
               caused_by={**DETACH_CAUSES, "data_views": ("detached", "unflagged", "errors", "modified", "data_counter"),
                          **{key: DETACH_CAUSES[key] + ("by_number",) for key in ("modified", "grads")}},
               presumes=DATA_PRESUMED)
@_stops_at_data
def data(sub):
    needs(sub, 6)
    w = sub.Value(1.5, requires_grad=True)
    y = w * w
    d = _data(w)
    made = fact(flag(d.requires_grad), "w.data.requires_grad")  # before d changes: why a refusal came
    changed = raised(d.add_, "w.data.add_(1)", 1.0)
    x = sub.Value(-0.25, requires_grad=True)
    e = _data(x)  # d kept alive meanwhile: one Value pointed at x's number would be d too
    c = sub.Value(2.0)  # changed in place before .data is read: .data's own counter starts anew
    bumped = [raised(c.add_, "c.add_(1), c = Value(2)", 1.0), raised(c.add_, "c.add_(1) after c.add_(1)", 1.0)]
    return {"detached": [claim(d is e, "w.data is x.data"), data_each_call(sub, _data)], "unflagged": [made],
            "errors": [changed, *bumped],
            "numbers": [fact(number(w), "w.item() after w.data.add_(1)")],
            "versions": [fact(version(w), "w._version after w.data.add_(1)")],
            "data_counter": [fact(version(_data(c)), "c.data._version after c.add_(1); c.add_(1), c = Value(2)")],
            "modified": [raised(y.backward, "y.backward() after w.data.add_(1), y = w * w")], "by_number": compared_by_number(sub),
            "data_views": data_views_apart(sub, _data),
            "grads": [fact(grad_quiet(w), "w.grad after w.data.add_(1); y.backward()")]}


@EXERCISE.test("detach() shares the number and the version", points=2, feedback=FEEDBACK, key_feedback=KEYS,
               caused_by=_counted(DETACH_CAUSES), presumes=DATA_PRESUMED)
@_stops_at_data
def detached(sub):
    needs(sub, 6)
    w = sub.Value(-0.5, requires_grad=True)
    y = w * w
    d = w.detach()
    made = [claim(d is w, "w.detach() is w"), _flagged(described(d, "d", N_("after d = w.detach()")))]  # before d changes
    changes = [raised(d.add_, "d.add_(2), d = w.detach()", 2.0)]
    added = fact(number(w), "w.item() after d = w.detach(); d.add_(2)")  # before zero_: each change told as its own
    changes.append(raised(d.zero_, "d.zero_() after d.add_(2)"))
    x = sub.Value(1.25, requires_grad=True)
    h = x * 3
    e = h.detach()
    apart = _flagged(described(e, "e", DETACHED))
    own = _own_counter(sub)
    return {"own_counter": own["own_counter"], "alias": _aliases(sub),
            "detached": [made[0], constant_detached(sub), made[1]["detached"], apart["detached"],
                         described(h, "h", DETACHED)], "detached_leaf": detached_leaf(sub),
            "unflagged": [made[1]["unflagged"], apart["unflagged"]],
            "numbers": [added], "zero_shared": [fact(number(w), "w.item() after d = w.detach(); d.add_(2); d.zero_()")],
            "versions": [fact(version(w), "w._version after d.add_(2); d.zero_()")],
            "errors": [*changes, *own["errors"]],
            "modified": [raised(y.backward, "y.backward() after d.add_(2); d.zero_(), y = w * w")]}


def _aliases(sub: Any) -> list[Any]:
    """Two calls of detach() give two Values, and neither has the .grad backward wrote into the
    Value it was called on (nor has .data): one alias kept on the Value carries a change of one
    to every later call; a copy of the Value keeps its .grad."""
    w = sub.Value(1.25, requires_grad=True)
    (w * 3).backward()
    first = w.detach()
    return [claim(first is not w.detach(), N_("w.detach() gives a new Value at each call")),
            fact(grad_quiet(first), "w.detach().grad after (w * 3).backward()"),
            fact(grad_quiet(_data(w)), "w.data.grad after (w * 3).backward()")]


# an op left unrecorded (or recorded with other edges) changes what backward runs: its errors and gradients
# and a node with an edge to itself (``cycle``) is all that differs in the edges and what backward did through them
RECORDED_CAUSES = {**CAUSES, "modified": ("errors", "graph", "cycle", "own_edges"),
                   "grads": ("errors", "modified", "graph", "cycle", "own_edges", "old_node"),
                   "graph": ("errors", "cycle", "own_edges"),
                   "retained": ("errors", "modified", "cycle", "own_edges", "old_node", "retained_moved"),
                   "retained_moved": ("errors", "modified", "cycle", "own_edges", "old_node"), "cycle": ("own_edges",),
                   "leaf_now": ("errors", "graph", "cycle", "own_edges"),
                   "warn_now": ("errors", "graph", "leaf_now", "cycle", "own_edges"),
                   "grad_kept": ("errors", "modified", "retained", "cycle", "own_edges", "old_node", "retained_moved")}


@EXERCISE.test("in place on a non-leaf is recorded", points=2, feedback=FEEDBACK, key_feedback=KEYS,
               caused_by=_counted(RECORDED_CAUSES))
def rebased(sub):
    needs(sub, 6)
    w, x = sub.Value(0.75, requires_grad=True), sub.Value(-2.0, requires_grad=True)
    b = w * 2
    refused = [raised(b.add_, "b.add_(x), b = w * 2", x, other=("x", x))]
    bound, added = iadd(b, 1.0, "b += 1 after b.add_(x)", "1")  # b itself, as the stub's __iadd__ (add_) returns it
    refused.append(added)
    y = b * w
    ran = raised(y.backward, "y.backward() after b.add_(x); b += 1, y = b * w")  # b changed before y saved it
    grads = [fact(grad_quiet(w), "w.grad for y = b * w"), fact(grad_quiet(x), "x.grad for y = b * w")]
    kept, zero, took, own = retained_through(sub), zero_recorded(sub), constant_added(sub), _own_counter(sub)
    itself, followed, kept_grad, moved = added_into_itself(sub), leaf_followed(sub), grad_kept(sub), retained_moved(sub)
    return {"iadd": claim(bound is b, IADD_KEEPS_B), "own_counter": own["own_counter"], "own_edges": edges_kept(sub),
            "old_node": old_node_kept(sub), "errors": [*refused, *zero["errors"], *kept["errors"], *took["errors"], *itself["errors"],
                       *own["errors"], *followed["errors"], *kept_grad["errors"], *moved["errors"]],
            "leaf_now": followed["leaf_now"], "warn_now": followed["warn_now"], "grad_kept": kept_grad["grad_kept"],
            "cycle": [zero["cycle"], took["cycle"], itself["cycle"]],
            "graph": [described(b, "b"), zero["graph"], took["graph"], itself["graph"]],
            "unrecorded": zero["unrecorded"], "versions": [fact(version(b), "b._version after b.add_(x); b += 1")],
            "modified": [ran, *kept["modified"], *took["modified"], *itself["modified"], *followed["modified"],
                         *kept_grad["modified"], *moved["modified"]],
            "grads": grads + took["grads"] + itself["grads"],
            "retained_moved": moved["retained_moved"], "retained": kept["retained"],
            "retained_leaf": leaf_retained(sub, -1.5, 0.5)}


@EXERCISE.diagram
def draw(sub):
    return documents_drawn(sub, 6)
