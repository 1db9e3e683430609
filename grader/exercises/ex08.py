"""ex08 detach: shared data, a cut in the graph, and backward of a detached value.

Every probe calls the submission on inputs that are not in the exercise text (0.5, -8) nor the
documents' (w = 1, x = 2, 999), several per test, zero included, and once a ``new`` equal to w's
number (the write through the detached copy is asked for even then).  The probes observe how each
result came about: that w was changed through a Value sharing its number and its version
counter (a detached copy, not ``w.data``, not a new Value, and no write into w itself under
no_grad, beside the fill or not; the copy requires no grad, so grad mode around its fill does
not matter), after backward wrote the gradients; the graphs of the two products (the
detached factor is no input of y_cut's node); who wrote each ``.grad``; and that the returned
error was raised by the engine, not made by hand.  Every function is called again on other inputs
and on the first ones once more (``grader.spec.repeat``): a leaf or a dict kept between calls shows.
"""

import math
from typing import Any

import micrograph
from micrograph import Value
from micrograph.i18n import N_  # a probe's label, translated where it is shown
from micrograph.node import AccumulateGrad
from micrograph.value import shares_storage, shares_version_counter

from grader.spec import Exercise
from grader.spec.facts import ALIASED, CONTEXT, FACT, LABEL, UNNAMED, By, Check
from grader.spec.one_leaf import leaf_per_name, value_per_name
from grader.spec.graph import graph
from grader.spec.probe import by_key, plain_dict, shape_error
from grader.spec.detach_origins import detached_from, detached_some, leaf_beside, ran_on_detached
from grader.spec.detached_leaf import told_if_detached
from grader.spec.made_untracked import told_if_detached_root, told_if_made_under_no_grad
from grader.spec.errors import error_of
from grader.spec.refused import refused_detached
from grader.spec.provenance import Call, check, grad_of, same_object, value_of, watching
from grader.spec.made_from import operands
from grader.spec.returned_detached import graph_leaves
from grader.spec.repeat import Returned, calls_apart, seen_all

EXERCISE = Exercise("ex08", "detach: shared data, no graph", module="ex08_detach")

MARK = 0.4375  # written through w_detach by the probe, after the student's code, to see sharing


def _fields(r: object, keys: set[str], function: str) -> dict[str, Any]:
    """``r``, what ``function`` returned, as the plain dict with the ``keys`` asked for."""
    r = plain_dict(r)
    if type(r) is not dict or not keys <= set(r):
        shape = ", ".join(f'"{key}": ...' for key in sorted(keys))  # code: read in any language
        raise shape_error(f"{function} must return {{{shape}}}", function, r)
    return r


def _shares_with(detached: object, w: object, label: str, others: dict[str, object]) -> list[dict[str, Any]]:
    """Whether writing into ``detached`` (in place, grad mode off) changes ``w``'s number and
    counts in ``w``'s version counter, as CHECK facts (None when either is no Value: their
    VALUE facts say so).  A detach() of w that shares its version counter but no longer its number
    had one of their numbers replaced by a ``.data`` assignment (context ``number_replaced``).  ``w.data`` shares the number only; ``w.detach()`` both.  The version
    counter is judged only where the number is shared: a Value that shares neither is told by
    the number alone; where it is a detach() of one of the ``others`` returned (x.detach(), say), by
    that name (context ``~other``)."""
    if not isinstance(detached, Value) or not isinstance(w, Value):
        return [check(Check.SHARES_NUMBER, None, label), check(Check.SHARES_VERSION, None, label)]
    version = w._version
    of = next((name for name, v in others.items() if isinstance(v, Value) and v is not detached and v.requires_grad
               and not detached.requires_grad and shares_version_counter(detached, v) and shares_storage(detached, v)), None)
    with micrograph.no_grad():
        detached.fill_(MARK)
    shared = w.item() == MARK
    replaced = {} if shared or not shares_version_counter(detached, w) else {CONTEXT + "number_replaced": True}
    replaced.update({} if shared or of is None else {CONTEXT + "other_detached": True, CONTEXT + "other": of})
    return [{**check(Check.SHARES_NUMBER, shared, label), **replaced},
            check(Check.SHARES_VERSION, w._version > version if shared else None, label)]


def _any_version(fact: dict[str, Any]) -> dict[str, Any]:
    """A VALUE fact whose version counter is context only.  w and w_detach: the documents
    write through ``w_detach.data`` (``w_detach.data.fill_(new)`` here), which changes the
    shared number without counting a version, as ``w_detach.fill_(new)`` does; both change w
    as asked (whether w_detach shares the counter is its own CHECK fact).  w_cut_detached: the
    probe itself writes into it (``_shares_with``), so its counter is not the student's."""
    return {(CONTEXT + k if k == "version" else k): v for k, v in fact.items()}


def _holds(v: object, number: float) -> bool:
    """Whether ``v`` is a Value that still holds ``number``, the one it was made with."""
    return isinstance(v, Value) and v.item() == number


def _through_copy(w: object, w_detach: object, call: Call) -> dict[str, Any]:
    """The CHECK fact: w was not changed through itself.  Not through its own ``.data`` while
    w_detach was left unwritten (``w.data.fill_(new); w_detach = w.detach()``), nor in place
    (``with no_grad(): w.fill_(new)``, ``~in_place``): the same numbers, but the change never
    went through the detached copy, whose version counter w shares.  Nor in place beside a write
    into a w_detach sharing its number (``with no_grad(): w.copy_(w_detach)`` after the fill,
    ``~as_well``, with the method's name as ``~op``): the write into w itself hides what the
    statement shows, that filling w_detach changes w.  So is an in-place write into ``w.data``, the
    Value w's own ``.data`` handed out, beside that write (``w.data.copy_(w_detach)``, ``~data_too``).
    Writing into w_detach only, in place or through its ``.data`` (the documents' spelling), holds,
    with grad mode on or off; reading ``w.data`` is no write, so it counts only where w_detach was
    never written."""
    if not isinstance(w, Value) or not isinstance(w_detach, Value):
        return check(Check.CHANGED_THROUGH_COPY, None, "detach_shares_data")
    written = any(seen.get(id(w_detach)) is w_detach for seen in (call.changed_in_place, call.through_data))
    in_place = call.changed_in_place.get(id(w)) is w
    own = in_place or call.through_data.get(id(w)) is w
    shared = w_detach is not w and shares_storage(w, w_detach)
    own_data = next((v for v in call.changed_in_place.values() if v is not w_detach and _data_of(v, w, call)),
                    None) if written and shared else None
    as_well = written and shared and (in_place or own_data is not None)
    op = call.in_place_names.get(id(w) if in_place else id(own_data)) if as_well else None
    return {**check(Check.CHANGED_THROUGH_COPY, (written and not as_well) or not own, "detach_shares_data"),
            CONTEXT + "in_place": in_place, CONTEXT + "as_well": as_well, CONTEXT + "named": op is not None,
            CONTEXT + "data_too": own_data is not None and not in_place,
            CONTEXT + "data_named": own_data is not None and not in_place and op is not None,
            **({CONTEXT + "op": op} if op is not None else {})}


def _data_of(v: Value, w: Value, call: Call) -> bool:
    """Whether ``v`` is what the student's code read as ``w.data`` (``call.aliased``: an alias of w, no op's)."""
    alias, source = call.aliased.get(id(v), (None, None))
    return alias is v and source is w and shares_storage(v, w) and not shares_version_counter(v, w)


def _wrote_detached(w: object, w_detach: object, call: Call, equal: bool) -> dict[str, Any]:
    """The CHECK fact, judged where ``new`` equals w's number and w_detach shares it (elsewhere
    w's number shows the write, or NOT_SHARED tells what is wrong): an in-place operation of the
    call wrote into that number, through w_detach, its ``.data`` or any Value on it, grad mode on
    or off.  A call that skips the write when the number would not change leaves w as the
    statement's does; w's version counter cannot tell them apart, since the documents'
    ``w_detach.data.fill_(new)`` counts none."""
    if not (equal and isinstance(w, Value) and isinstance(w_detach, Value) and shares_storage(w, w_detach)):
        return check(Check.WROTE_DETACHED, None, "detach_shares_data")
    wrote = any(shares_storage(v, w_detach) for v in call.changed_in_place.values())
    return check(Check.WROTE_DETACHED, wrote, "detach_shares_data")


def _changed_after_backward(w: object, call: Call) -> dict[str, Any]:
    """The CHECK fact: no in-place operation of the call wrote into w's number (through w_detach,
    its .data, or w itself) before the call's first backward pass started.  The documents change w
    after backward, when the graph is done with it; this graph saves no w, so a change made first
    leaves every number as the statement's does, and only the order tells it.  None where the call
    ran no pass (the count of passes tells that) or returned no Value as w."""
    if not isinstance(w, Value) or not call.started:
        return check(Check.CHANGED_AFTER_BACKWARD, None, "detach_shares_data")
    first = any(shares_storage(v, w) for v in call.changed_before_pass.values())
    return check(Check.CHANGED_AFTER_BACKWARD, not first, "detach_shares_data")


def _made_after_change(y: object, w_leaf: object, case: tuple[float, float, float], reached: bool) -> dict[str, Any]:
    """Context of y's VALUE fact: ``w``, where y was computed from w (its graph reaches the leaf)
    after the student's code changed w: w holds ``new`` now, and y holds (x + w) * (w + 1) for
    that number, not for the number w was made with (a number both give tells nothing)."""
    w, x, new = case
    at_new, at_start = (x + new) * (new + 1), (x + w) * (w + 1)
    if not (reached and _holds(w_leaf, new) and isinstance(y, Value)) or math.isclose(at_new, at_start):
        return {}
    return {CONTEXT + "made_after_change": "w"} if math.isclose(y.item(), at_new, abs_tol=1e-12) else {}


def _added(w_leaf: object, w_detach: object, case: tuple[float, float, float], call: Call) -> dict[str, Any]:
    """Context of w's VALUE fact: ``added`` naming the Value written (w_detach, or w itself), where w
    holds the number it came with plus ``new``: the code added new where the statement sets w to it.
    Judged only where the sum tells it from both numbers (w and new not 0): with a ``new`` of 0, a
    write of w's own number (``w_detach.fill_(w)``) leaves w as an addition of 0 does."""
    w, _x, new = case
    if (not isinstance(w_leaf, Value) or 0.0 in (w, new) or math.isclose(w + new, w, abs_tol=1e-12)
            or not math.isclose(w_leaf.item(), w + new, abs_tol=1e-12)):  # (a new lost in w's rounding: no sum to tell)
        return {}
    written = isinstance(w_detach, Value) and _through_copy(w_leaf, w_detach, call).get("holds") is True
    return {CONTEXT + "added": "w_detach" if written and w_detach is not w_leaf else "w"}


def _leaf_per_name(r: dict[str, Any], y_graph: dict[str, Any]) -> dict[str, Any]:
    """The LEAF_PER_NAME fact of the w and x returned, with ``~returned_twice`` where y's graph
    reaches a leaf neither name holds: the code made a leaf for each and returned one of them
    under both names (``"w": x``), not one leaf for both."""
    fact = leaf_per_name({"w": r["w"], "x": r["x"]}, "detach_shares_data")
    return {**fact, CONTEXT + "returned_twice": UNNAMED in [n.get("leaf") for n in y_graph.get("nodes", [])]}


_SHARES_RETURNED = {
    name: Returned(label, earlier) for name, label, earlier in [
        ("w", N_("the w detach_shares_data returned"), N_("the w an earlier call of detach_shares_data returned")),
        ("x", N_("the x detach_shares_data returned"), N_("the x an earlier call of detach_shares_data returned")),
        ("w_detach", N_("the w_detach detach_shares_data returned"),
         N_("the w_detach an earlier call of detach_shares_data returned"))]}
"""Every Value detach_shares_data returned as w, x or w_detach in this run: the statement makes new ones
at each call, and a leaf kept in a global (refilled through ``.data``) or a detached copy kept from an
earlier call is told by its identity."""


def _shares(sub, w: float, x: float, new: float) -> dict[str, Any]:
    with watching(sub, "detach_shares_data", made=True) as call, \
            told_if_made_under_no_grad(call, "detach_shares_data"):  # grad mode is context: w_detach requires no grad
        r = sub.detach_shares_data(w, x, new)
    r = _fields(r, {"w", "x", "y", "w_detach"}, "detach_shares_data")
    leaves = {"w": r["w"], "x": r["x"]}
    y_graph = graph(r["y"], leaves, label="y", freeing=False)  # retain_graph is the student's: the statement is silent
    after = _made_after_change(r["y"], r["w"], (w, x, new), "w" in y_graph.get("leaves", []))
    added = _added(r["w"], r["w_detach"], (w, x, new), call)  # w_detach too, where it holds w's number
    truncated = {CONTEXT + "truncated": True} if new != int(new) and _holds(r["w"], float(int(new))) else {}
    return {
        "w": {**_any_version(value_of(r["w"], "w")), CONTEXT + "unchanged": _holds(r["w"], w), **added, **truncated,
              CONTEXT + "given": r["w"] is w},  # the float argument handed back under the leaf's name
        "w_detach": [{**_any_version(value_of(r["w_detach"], "w_detach")),
                      **(added if isinstance(r["w_detach"], Value) and _holds(r["w_detach"], w + new) else {}),
                      **(truncated if _holds(r["w_detach"], float(int(new))) else {})},
                     same_object(r["w_detach"], r["w"], "w_detach", "w")],
        "grads": [grad_of(r["w"], "w.grad"), grad_of(r["x"], "x.grad")],
        "y": [{**value_of(r["y"], "y"), **after}, y_graph],
        "call": [call.fact, _changed_after_backward(r["w"], call)], "names": _leaf_per_name(r, y_graph),
        "through": [_through_copy(r["w"], r["w_detach"], call), _wrote_detached(r["w"], r["w_detach"], call, new == w)],
        "new": [returned.new(r[name]) for name, returned in _SHARES_RETURNED.items()],
        "shared": _shares_with(r["w_detach"], r["w"], "w_detach", {"x": r["x"], "y": r["y"]}),  # last: it writes into w
    }


SHARES_FEEDBACK = ("Build y = (x + w) * (w + 1) and call y.backward(); then take "
                   "w_detach = w.detach() and set it in place (fill_ or copy_).")
SHARES_KEYS = {
    "w": "w changes only through w_detach, in place: it stays a leaf that requires grad, and "
    "its version counter (shared with w_detach) counts the change",
    "w_detach": "w_detach = w.detach(): a new Value, a leaf that does not require grad, sharing "
    "w's number and version counter",
    "grads": "call y.backward() once, before the change: backward writes w.grad and x.grad",
    "y": "y = (x + w) * (w + 1) with the engine's operations, computed before the change",
    "call": "call y.backward() once; w_detach requires no grad, so its fill needs no no_grad",
    "shared": "w_detach must share w's number: w.detach(), not a new Value",
}


@EXERCISE.test("the detached copy shares w's data", points=2, public=True,
               feedback=SHARES_FEEDBACK, key_feedback=SHARES_KEYS)
def shares_public(sub):
    return by_key([_shares(sub, w, x, n) for w, x, n in [(0.25, 1.5, 42.0), (-2.0, 3.0, -7.5)]])


@EXERCISE.test("w stays a leaf and keeps its gradient", points=2, feedback=SHARES_FEEDBACK,
               key_feedback=SHARES_KEYS)
def shares_hidden(sub):
    # a w far from new: w + (new - w) rounds to another number than new (a set written as an addition)
    return {**by_key([_shares(sub, w, x, n) for w, x, n in [(1.5, -0.5, 10.0), (-3.0, 2.5, 0.0),
                                                             (0.0, 0.0, -1.25), (-0.75, 2.0, -0.75),
                                                             (1e16, 0.5, 1.0)]]),
            "apart": calls_apart(sub, lambda m, case: m.detach_shares_data(*case), seen_all,
                                 (2.5, -1.0, 6.0), (-0.5, 1.5, -2.0), "detach_shares_data")}


@EXERCISE.test("the detached copy is a leaf without grad", points=1, feedback=SHARES_FEEDBACK,
               key_feedback=SHARES_KEYS)
def detached_copy_hidden(sub):
    runs = by_key([_shares(sub, w, x, n) for w, x, n in [(2.0, 0.25, -1.0), (0.75, 4.0, 3.5)]])
    # w's type alone: a w that is no Value shares nothing with w_detach, and its VALUE fact says why
    kinds = [{k: v for k, v in fact.items() if k in (FACT, LABEL, "type", CONTEXT + "given")} for fact in runs["w"]]
    return {**{k: runs[k] for k in ("w_detach", "shared", "names")}, "w_type": kinds}


def _squared_by_alias(y_cut: object, w_cut: object, w_cut_detached: object) -> dict[str, Any]:
    """``ALIASED`` naming w_cut_detached, for y_cut's graph and w_cut.grad, where w_cut_detached is
    still w_cut and y_cut's product takes that leaf as both its inputs (``w_cut.detach()`` written as
    a statement, its new Value dropped, then ``w_cut * w_cut_detached``): both differ from the
    statement's only through that one slip, which w_cut_detached's identity fact tells, once."""
    node = y_cut.grad_fn if isinstance(y_cut, Value) and w_cut_detached is w_cut else None
    edges = node.next_functions if node is not None and node.name() == "MulBackward0" else ()
    squared = len(edges) == 2 and all(isinstance(fn, AccumulateGrad) and fn.variable is w_cut for fn, _ in edges)
    return {ALIASED: "w_cut_detached"} if squared else {}


def _by_backward_alone(fact: dict[str, Any], squared: dict[str, Any]) -> dict[str, Any]:
    """w_cut.grad's GRAD fact, with ``squared`` (``_squared_by_alias``) where backward alone wrote it:
    its number then follows from y_cut's product; one a hook of the student's chose is told of its own."""
    return {**fact, **squared} if fact.get("by") == By.BACKWARD.value else fact


def _cut_source(w_cut: object, w_cut_detached: object, beside: object) -> object:
    """The Value w_cut_detached is judged a detach() of: the leaf y_cut multiplied (``beside``),
    or the w_cut returned where w_cut_detached is a detach() of that leaf and y_cut multiplied
    another (``w_full * w_cut_detached``): w_cut_detached is then as asked, and y_cut's own
    facts tell the slip."""
    own = (isinstance(w_cut, Value) and isinstance(w_cut_detached, Value) and w_cut.requires_grad
           and shares_storage(w_cut_detached, w_cut) and shares_version_counter(w_cut_detached, w_cut))
    return w_cut if own else beside


def _cut(sub, w: float) -> dict[str, Any]:
    with (watching(sub, "detach_cuts_graph", saves=True, made=True) as call, told_if_detached(call, "detach_cuts_graph"),
          told_if_detached_root(call, "detach_cuts_graph"),  # (w_cut * w_cut).detach(): y_cut has no graph
          told_if_made_under_no_grad(call, "detach_cuts_graph")):  # y_full from a helper decorated with no_grad
        r = sub.detach_cuts_graph(w)
    r = _fields(r, {"w_full", "y_full", "w_cut", "y_cut", "w_cut_detached"}, "detach_cuts_graph")
    beside = leaf_beside(r["y_cut"], r["w_cut"])  # the w_cut the code multiplied, whatever it returned
    one_y = {ALIASED: "y_full"} if r["y_cut"] is r["y_full"] else {}  # y_full's own: told as one Value, two names
    # so is a leaf made for each product, one returned under both names ("w_full": w_cut): a product's
    # graph reaches a leaf neither name holds (one leaf made for both is told as w_cut still w_full)
    typo = r["w_full"] is r["w_cut"] and not all(
        any(v is r["w_cut"] for v in graph_leaves([y])) for y in (r["y_full"], r["y_cut"]))
    one_w = {ALIASED: "w_cut"} if typo else {}
    squared = _squared_by_alias(r["y_cut"], r["w_cut"], r["w_cut_detached"])  # told by w_cut_detached's identity
    return {
        "full": [{**graph(r["y_full"], {"w_full": r["w_full"]}, label="y_full", freeing=False), **one_w},
                 {**grad_of(r["w_full"], "w_full.grad"), **one_w}],
        "cut": [{**graph(r["y_cut"], {"w_cut": r["w_cut"]}, label="y_cut", freeing=False), **one_y, **squared},
                _by_backward_alone(grad_of(r["w_cut"], "w_cut.grad"), squared),
                {**same_object(r["w_cut"], r["w_full"], "w_cut", "w_full"), **one_w}],  # two leaves, one .grad each
        "cut_factor": detached_from(r["y_cut"], beside, call, "y_cut"),
        "values": [value_of(r["y_full"], "y_full"), {**value_of(r["y_cut"], "y_cut"), **one_y}],
        "one_y_per_name": value_per_name({"y_full": r["y_full"], "y_cut": r["y_cut"]}, "detach_cuts_graph"),
        "one_w_per_name": check(Check.VALUE_PER_NAME, None, "detach_cuts_graph") if r["w_full"] is r["w_cut"] and not typo
        else value_per_name({"w_full": r["w_full"], "w_cut": r["w_cut"]}, "detach_cuts_graph"),
        "~call": call.fact,  # one backward per product, or one over both: either is right
        "detached": [_any_version(value_of(r["w_cut_detached"], "w_cut_detached")),
                     same_object(r["w_cut_detached"], r["w_cut"], "w_cut_detached", "w_cut")],  # w_cut.detach() dropped
        "detached_shares": _shares_with(r["w_cut_detached"], _cut_source(r["w_cut"], r["w_cut_detached"], beside), "w_cut_detached",
                                        {name: r[name] for name in ("w_full", "y_cut", "y_full")}),  # last: it writes
    }


CUT_FEEDBACK = ("Make two leaves that require grad, build y_full = w_full * w_full and "
                "y_cut = w_cut * w_cut.detach() with grad mode on, and call backward on both.")
CUT_KEYS = {
    "full": "w_full * w_full reaches w_full along two paths: backward counts both",
    "cut": "no gradient flows through w_cut.detach(): y_cut's node has one tracked input, "
    "and backward writes w_cut.grad through the other factor only",
    "cut_factor": "y_cut = w_cut * w_cut.detach(): the constant factor is w_cut's own detached "
    "alias (sharing its number and version counter), not a number or a new Value of the same value",
    "values": "y_full and y_cut are both products of two factors of the same value",
    "detached": "w_cut_detached = w_cut.detach(): a leaf that does not require grad",
    "detached_shares": "w_cut_detached does not share w_cut's number: it is a new Value (or a "
    "float), not w_cut.detach(), which is the cut the statement asks for",
}


@EXERCISE.test("w * w.detach() sends gradient through one factor", points=2, public=True,
               feedback=CUT_FEEDBACK, key_feedback=CUT_KEYS)
def cut_public(sub):
    return {**by_key([_cut(sub, w) for w in (1.5, -4.0)]),
            "apart": calls_apart(sub, lambda m, w: m.detach_cuts_graph(w), seen_all, -4.0, 1.5,
                                 "detach_cuts_graph")}


@EXERCISE.test("same value, different graph", points=2, feedback=CUT_FEEDBACK,
               key_feedback=CUT_KEYS)
def cut_hidden(sub):
    return {**by_key([_cut(sub, w) for w in (0.625, -2.5, 0.0, 3.0)]),
            "apart": calls_apart(sub, lambda m, w: m.detach_cuts_graph(w), seen_all, 2.5, -1.25,
                                 "detach_cuts_graph")}


def _detached(sub, w: float) -> dict[str, Any]:
    with watching(sub, "backward_of_detached", made=True) as call:
        e = sub.backward_of_detached(w)
    error = error_of(e, "the error returned", call)
    kept = type(error) is dict and error.get("raised_by") == "earlier"  # an error kept from an earlier call:
    return {"error": error, "call": call.fact,  # what this call made says nothing of how it came about
            "detached": check(Check.DETACHED_SOME, None, "backward_of_detached") if kept
            else detached_some(call, "backward_of_detached"),
            "ran_on": ran_on_detached(call, "backward_of_detached"),
            "refused_on": check(Check.REFUSED_ON_DETACHED, None, "backward_of_detached") if kept
            else refused_detached(e, call, "backward_of_detached")}


DETACHED_FEEDBACK = ("z = (w * 2).detach() does not require grad and has no grad_fn: call "
                     "z.backward(), catch the RuntimeError the engine raises and return it.")


@EXERCISE.test("backward of a detached value raises", points=1, public=True,
               feedback=DETACHED_FEEDBACK)
def detached_public(sub):
    return [_detached(sub, w) for w in (0.5, -6.0)]


@EXERCISE.test("backward of a detached value on other inputs", points=1,
               feedback=DETACHED_FEEDBACK)
def detached_hidden(sub):
    return {"runs": [_detached(sub, w) for w in (2.75, 0.0, -1.5)],
            "apart": calls_apart(sub, lambda m, w: m.backward_of_detached(w), seen_all, 1.25, -3.5,
                                 "backward_of_detached")}


@EXERCISE.diagram
def draw(sub):
    with watching(sub, "detach_cuts_graph", made=True) as call:
        r = plain_dict(sub.detach_cuts_graph(1.5))
    # the detached factor is drawn where y_cut uses it (a constant, with its number, though backward
    # freed what y_cut's node saved), not again on its own
    return [r["y_full"], r["y_cut"]], {k: v for k, v in r.items() if k != "w_cut_detached"}, operands(call)
