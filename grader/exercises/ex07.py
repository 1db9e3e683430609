"""ex07 inplace: the leaf error, ``a = a + 1`` versus ``a += 1``, and the version counter.

Every probe calls the submission on inputs that are not in the exercise text, several per test.
``modify_saved_value`` gets several ``combine`` functions: some save ``a`` for backward (a
product, a quotient), some do not (a sum, a difference, a product by a constant).  The probes
observe how each result came about: whether the returned error was raised by the engine (not
made by hand), each object's identity and version counter, and whether the in-place change was
recorded in a's graph (an add under no_grad is not).  Every function is called again on other
inputs and on the first ones once more (``grader.spec.repeat``): a leaf, a list or a dict kept
between calls shows.
"""

from typing import Any

import micrograph
from micrograph import Value
from micrograph.value import shares_storage, shares_version_counter
from micrograph.i18n import N_  # a probe's message, translated where it is shown

from grader.spec import Exercise
from grader.spec.call import Call
from grader.spec.graph import graph
from grader.spec.detach_origins import none_detached
from grader.spec.origins import made_by_op, made_from, read_on_the_way, returned_root
from grader.spec.errors import error_of
from grader.spec.refused import changed_untracked
from grader.spec.probe import call_text, in_call, plain_dict, shape_error
from grader.spec.facts import ALIASED, CONTEXT, FACT, LABEL, Check
from grader.spec.provenance import check, grad_of, retains_as_context, same_object, value_of, watching
from grader.spec.one_leaf import leaf_per_name
from grader.spec.returned_detached import graph_leaves
from grader.spec.repeat import Returned, calls_apart, seen_all

EXERCISE = Exercise("ex07", "In-place operations and the version counter", module="ex07_inplace")

# The combine functions given to modify_saved_value, by the code a sentence names them with.
COMBINES = {"micrograph.mul": micrograph.mul, "lambda a, b: b / a": lambda a, b: b / a,
            "lambda a, b: a * a + b": lambda a, b: a * a + b, "micrograph.add": micrograph.add,
            "micrograph.sub": micrograph.sub, "lambda a, b: a * 3 + b": lambda a, b: a * 3 + b,
            "lambda a, b: -a": lambda a, b: -a, "lambda a, b: a + b * b": lambda a, b: a + b * b}
_COMBINE_TEXT = {combine: text for text, combine in COMBINES.items()}
# y = combine(a, b) for which backward needs a's value (a product, a quotient) ...
SAVING = [COMBINES[c] for c in ("micrograph.mul", "lambda a, b: b / a", "lambda a, b: a * a + b", "micrograph.mul")]
# ... and for which it does not (a sum, a difference, a product by a number).
NOT_SAVING = [COMBINES[c] for c in ("micrograph.add", "micrograph.sub", "lambda a, b: a * 3 + b",
                                    "lambda a, b: -a", "lambda a, b: a + b * b")]  # the last saves b alone


_LEAF_RETURNED = Returned(N_("the w inplace_on_leaf returned"), N_("the w an earlier call of inplace_on_leaf returned"))
"""Every leaf inplace_on_leaf returned in this run: the statement makes a new one at each call, and a
leaf kept per number (a dict of leaves by w) holds the same number every time: its identity tells it."""


def _leaf(sub, w: float, amount: float) -> dict:
    with watching(sub, "inplace_on_leaf") as call:
        r = plain_dict(sub.inplace_on_leaf(w, amount))
    if type(r) is not dict or not {"w", "error"} <= set(r):
        raise shape_error('inplace_on_leaf must return {"w": w, "error": error}', "inplace_on_leaf", r)
    # a leaf changed in place with grad mode off: the engine lets it, so nothing was refused
    tried = call.changed_in_place.get(id(r["w"])) is r["w"]  # an in-place op was called on w, raised or not
    allowed = call.grad_mode_off and tried
    # no in-place op tried on w at all (skipped for amount 0, say), nor on its .data (told by w's number)
    unchanged = (isinstance(r["w"], Value) and not tried and r["w"]._version == 0
                 and call.through_data.get(id(r["w"])) is not r["w"])
    tried_on = [v for v in call.changed_in_place.values() if isinstance(v, Value) and v.requires_grad and v.grad_fn is None]
    # the leaf add_ was tried on; a w that is no Value is told by its VALUE fact (the float given, handed back)
    returned = None if not tried_on or not isinstance(r["w"], Value) else any(v is r["w"] for v in tried_on)
    detached = returned is False and not r["w"].requires_grad and any(  # w.detach() returned in its place
        shares_storage(v, r["w"]) and shares_version_counter(v, r["w"]) for v in tried_on)
    return {"error": {**error_of(r["error"], "the error returned", call), CONTEXT + "leaf_under_no_grad": allowed,
                      CONTEXT + "leaf_under_set_grad": allowed and call.last_off == "set_grad_enabled",
                      CONTEXT + "leaf_under_inference": allowed and call.last_off == "inference_mode",
                      CONTEXT + "leaf_in_decorated": call.last_off.partition("decorated:")[2] if allowed else "",
                      CONTEXT + "leaf_unchanged": unchanged, **changed_untracked(r["w"], call)},
            "w": {**value_of(r["w"], "w", call), CONTEXT + "given": r["w"] is w}, "call": call.fact,
            "tried": {**check(Check.RETURNED_TRIED, returned, "inplace_on_leaf"), CONTEXT + "detached": detached},
            "new": _LEAF_RETURNED.new(r["w"])}


LEAF_FEEDBACK = ("Call w.add_(amount) on the leaf that requires grad, with grad mode on; catch "
                 "the RuntimeError it raises and return it with w, which it left unchanged.")


@EXERCISE.test("in-place on a leaf raises", points=2, public=True, feedback=LEAF_FEEDBACK)
def leaf_error_public(sub):
    return [_leaf(sub, w, d) for w, d in [(1.25, 3.0), (-3.0, 0.25)]]


@EXERCISE.test("the leaf error on other inputs", points=1, feedback=LEAF_FEEDBACK)
def leaf_error_hidden(sub):
    # the first w once more: a leaf kept per number is handed out again
    return {"runs": [_leaf(sub, w, d) for w, d in [(1.75, -1.0), (0.0, 0.0), (6.0, 0.5), (1.75, 2.0)]],
            "apart": calls_apart(sub, lambda m, case: m.inplace_on_leaf(*case), seen_all,
                                 (2.5, 1.0), (-0.5, 3.0), "inplace_on_leaf")}


_LISTS_RETURNED: list[object] = []
"""Every list rebind_then_inplace returned in this run, kept alive (so no id is reused): one
returned again by a later call and grown past three entries is a list kept between calls, not a
list of another shape (one refilled to three entries is told by the tests' state probes)."""
_START_RETURNED = Returned(N_("the a0 rebind_then_inplace returned"),
                           N_("the a0 an earlier call of rebind_then_inplace returned"))
"""Every a0 rebind_then_inplace returned: the statement's a = Value(start) is new at each call; one kept
per start number holds the same number every time, and only its identity tells it."""


def _rebind(sub, start: float) -> dict:
    with watching(sub, "rebind_then_inplace", made=True) as call:
        r = sub.rebind_then_inplace(start)
    kept = type(r) is list and any(r is earlier for earlier in _LISTS_RETURNED)
    _LISTS_RETURNED.append(r)
    if kept and len(r) != 3:  # grown: told as kept, not as a list of another shape
        raise shape_error(N_("rebind_then_inplace returned the very list an earlier call returned: that "
                             "list is kept between calls, and the earlier call's result is this one's"),
                          "rebind_then_inplace", r)
    if type(r) not in (list, tuple) or len(r) != 3:
        raise shape_error(N_("rebind_then_inplace must return [a0, a1, a2]"), "rebind_then_inplace", r)
    a0, a1, a2 = r
    label = "a1 (after a = a + 1)"
    # a1 that is a0 itself was made by no call of this step (an in-place step before it, say): its
    # identity tells it, and how a Value made here came about says nothing of it
    # (nor of a list an earlier call returned, handed out again by a call that made nothing: a cache)
    cached = kept and not call.probe_made
    made = ([made_by_op(a1, call, label), made_from(a1, (_start_read(a0, a1, call),), call, label)] if a1 is not a0 and not cached
            else [check(Check.MADE_BY_OP, None, label), check(Check.MADE_FROM, None, label)])
    return {
        "a0": _start_kept(a0, a1, call),
        "a1": [same_object(a1, a0, label, "a0"), *made],
        "a2": {**same_object(a2, a1, "a2 (after a += 1)", "a1"),  # a1 an alias of a2 (a2.detach()): the copy returned
               **({CONTEXT + "returned_as": "a0"} if isinstance(a2, Value) and a2 is a0 and a2 is not a1 else {}),
               **({CONTEXT + "alias": True} if isinstance(a1, Value) and isinstance(a2, Value) and a1 is not a2
                  and shares_storage(a1, a2) else {})},
        "values": [value_of(a0, "a0", call), value_of(a2, "a2", call)],
        "new": _START_RETURNED.new(a0),
        "order": _start_first(r, call),
    }


_AFTER = ("a0", "a1", "a2")


def _start_first(r: list[object] | tuple[object, ...], call: Call) -> dict:
    """The CHECK fact that the list is not the statement's two Values in another order: where it
    holds a Value an operation made (``a = a + 1``, later changed by ``+=``) twice and the Value
    that operation read once, that one is its first entry; else, the entry's name it is
    returned as (``~name``): ``[a1, a0, a2]`` returned, each entry is no slip of its own."""
    made = next((v for v in r if isinstance(v, Value) and sum(v is u for u in r) == 2), None)
    start = next((v for v in r if isinstance(v, Value) and v is not made), None)
    placed = made is None or start is None or not any(v is start for v in read_on_the_way(made, call)) or r[0] is start
    fact = check(Check.START_FIRST, placed, "rebind_then_inplace")
    if not placed:
        fact.update({CONTEXT + "name": next(name for name, v in zip(_AFTER, r) if v is start), CONTEXT + "of": _AFTER[0]})
    return fact


def _start_read(a0: object, a1: object, call: Call) -> object:
    """The start a1 is asked to be computed from: a0, or, where a0 is a new Value of the number
    a1's operation read (``a0 = Value(start)`` made again, the start kept under another name),
    the Value it read: a1 computed from the real start is not told as computed from no start,
    and a0's own IDENTITY fact tells the new object."""
    read = read_on_the_way(a1, call)
    first = read[0] if read and not any(v is a0 for v in read) else None
    same = isinstance(a0, Value) and isinstance(first, Value) and first.item() == a0.item()
    return first if same else a0


def _start_kept(a0: object, a1: object, call: Call) -> dict:
    """The IDENTITY fact: a0 is the very Value a named at the start, one that ``a = a + 1`` read,
    directly or through what it read (a constant first, ``micrograph.add(Value(1), a)``, and
    ``a.detach() + 1`` read it too), not a copy of it (``a.detach()`` shares its number and
    version counter: only identity tells them apart).  Else it is compared with the first Value
    a1's operation read.  Not judged (told the same) where a1 was made by no operation of the
    call: ``made_by_op`` says so."""
    read = read_on_the_way(a1, call)
    start = read[0] if read and not any(v is a0 for v in read) else a0
    return same_object(a0, start, "a0", N_("the Value a named at the start"))


REBIND_FEEDBACK = ("Return [a0, a1, a2]: the object the name a points at at the start, after "
                   "a = a + 1 (a new object), and after a += 1 (the same object, changed in place).")


@EXERCISE.test("a = a + 1 and a += 1", points=2, public=True, feedback=REBIND_FEEDBACK)
def rebind_public(sub):
    return [_rebind(sub, s) for s in (0.5, -4.0)]


@EXERCISE.test("a = a + 1 and a += 1 on other inputs", points=1, feedback=REBIND_FEEDBACK)
def rebind_hidden(sub):
    return {"runs": [_rebind(sub, s) for s in (2.25, -1.0, 0.0, 2.25)],  # the first start again: a0 kept per start
            "apart": calls_apart(sub, lambda m, start: m.rebind_then_inplace(start), seen_all,
                                 1.5, -3.0, "rebind_then_inplace")}


_LEAVES_RETURNED = {
    "w": Returned(N_("the w modify_saved_value returned"), N_("the w an earlier call of modify_saved_value returned")),
    "x": Returned(N_("the x modify_saved_value returned"), N_("the x an earlier call of modify_saved_value returned")),
}
"""Every leaf modify_saved_value returned in this run: the statement makes new leaves at each call,
and leaves kept in globals and refilled through ``.data`` are told by their identity."""


def _saved(sub, w: float, x: float, times: int, combine) -> dict:
    called: list[bool] = []
    changed_first: list[bool] = []
    as_b: list[object] = []  # the Values it was given as b (kept alive)
    a_twice: list[bool] = []  # whether it was given one Value as both a and b

    def given(a: object, b: object) -> object:
        """The combine handed to the student: ``combine`` itself, noting that it ran, whether the
        Value it was given as a had been changed in place already, that Value (whose version
        counter the call's first pass samples), and the one given as b."""
        called.append(True)
        changed_first.append(isinstance(a, Value) and a._version > 0)
        call.sampled.append(a)
        as_b.append(b)
        a_twice.append(a is b)
        return combine(a, b)

    named = call_text("modify_saved_value", "w", "x", times, _COMBINE_TEXT[combine])
    with watching(sub, named, made=True, clears=True, errors=True) as call:  # made: whether it changed a through a detached copy
        r = plain_dict(sub.modify_saved_value(w, x, times, given))
    if type(r) is not dict or not {"w", "x", "a", "y", "error"} <= set(r):
        raise shape_error('modify_saved_value must return {"w", "x", "a", "y", "error"}',
                          "modify_saved_value", r)
    order = {CONTEXT + "backward_first": any(call.changed_after_first_pass(a) for a in call.sampled),
             CONTEXT + "changed_first": any(changed_first)}  # why no error was raised, if none was
    return {
        "error": {**error_of(r["error"], f"the error {named} returned", call), **order},
        "passed": _passed_as_a(r["a"], call.sampled, as_b, in_call("a", named), call),
        "a": retains_as_context(value_of(r["a"], in_call("a", named), call)),  # a.grad is not asked for
        "a_graph": {**graph(r["a"], {"w": r["w"], "x": r["x"]}, label=in_call("a", named), flat=False),
                    **({ALIASED: "w"} if r["x"] is r["w"] else {})},  # one leaf under both names: told as that
        "b_leaves": _b_leaves(as_b, {"w": r["w"], "x": r["x"]}, in_call("b", named)), "changed": _changed_a(call, as_b, r["a"]),
        "y": retains_as_context(value_of(r["y"], in_call("y", named))),
        "root": returned_root(r["y"], call, "modify_saved_value"),  # not a y built again after the changes
        "grads": [grad_of(r["w"], in_call("w.grad", named)), grad_of(r["x"], in_call("x.grad", named))],
        "new": [returned.new(r[name]) for name, returned in _LEAVES_RETURNED.items()],
        "combine": {**check(Check.COMBINE_CALLED, bool(called) and not any(a_twice), named),
                    CONTEXT + "a_twice": any(a_twice)},  # combine(a, a): the b made from w never used
        "leaves": leaf_per_name({"w": r["w"], "x": r["x"]}, named, graph_leaves([r["a"]])),
        "call": [call.fact, none_detached(call, [r[name] for name in ("w", "x", "a", "y")], "modify_saved_value"),
                 _leaves_new(call)],
    }


def _b_leaves(given_b: list[object], names: dict[str, object], label: str) -> dict[str, Any] | None:
    """The GRAPH fact of the b handed to combine, its leaves alone: b built from x where the
    statement builds it from w is told by the leaves it reaches; how b is computed from w
    (``w + 1``, ``1 + w``, ``w - (-1)``) is not asked, and y's number tells a b of another
    number.  None where combine never ran (``COMBINE_CALLED`` tells it)."""
    if not given_b:
        return None
    fact = graph(given_b[0], names, label=label, flat=False)
    return {**{key: fact[key] for key in (FACT, LABEL, "type", "leaves") if key in fact}, "nodes": []}


def _changed_a(call: Call, given_b: list[object], a: object) -> dict[str, Any]:
    """The CHANGED_A fact: where the call changed in place the Value it passed to combine as b, it
    changed the one passed as a too (``b.add_(1)`` for ``a.add_(1)``: a's version counter never moves,
    told by the Value changed).  None where combine never ran (``COMBINE_CALLED`` tells it) or was given
    as b the Value returned as ``a`` (``combine(b, a)``: the a changed is the student's own a)."""
    changed_b = any(call.changed_in_place.get(id(b)) is b for b in given_b)
    changed_a = any(call.changed_in_place.get(id(a)) is a for a in call.sampled)
    judged = given_b and not any(b is a for b in given_b)
    return check(Check.CHANGED_A, (changed_a or not changed_b) if judged else None, "modify_saved_value")


def _leaves_new(call: Call) -> dict[str, Any]:
    """The LEAVES_NEW fact of one call: its first backward pass found no leaf it writes into
    holding a gradient an earlier pass left (a leaf an earlier call made and kept, in a global,
    ``b = w + ONE`` with a module-level ONE that requires grad); None where no pass ran."""
    new = None if not call.clears else not call.kept_earlier[0]
    return check(Check.LEAVES_NEW, new, "modify_saved_value")


def _passed_as_a(a: object, given_a: list[object], given_b: list[object], label: str, call: Call) -> dict:
    """The CHECK fact: the a returned is the Value the student's code passed to combine as a
    (``a.add_`` changes that very object), with ``~as_b`` where it is the one passed as b (its
    version counter, number and graph are then another Value's, told as that), ``~as_data`` where
    what it passed as a is the returned a's ``.data``, which the student's code read (a Value sharing
    a's number, not its version counter, with no grad: y's graph is cut there), and ``~as_detached``
    where it is a detach() of a (sharing a's version counter too).  None where combine never ran
    (``COMBINE_CALLED`` tells it)."""
    if not given_a:
        return check(Check.RETURNED_AS_PASSED, None, label)
    passed = any(a is v for v in given_a)
    cut = [] if passed or not isinstance(a, Value) else [  # Values with a's number and no graph, passed as a
        v for v in given_a if isinstance(v, Value) and not v.requires_grad and v.grad_fn is None and shares_storage(v, a)]
    return {**check(Check.RETURNED_AS_PASSED, passed, label),
            CONTEXT + "as_b": not passed and any(a is v for v in given_b),
            CONTEXT + "as_data": call.through_data.get(id(a)) is a and any(not shares_version_counter(v, a) for v in cut),
            CONTEXT + "as_detached": any(shares_version_counter(v, a) for v in cut)}


SAVED_FEEDBACK = ("Build y = combine(a, b), then call a.add_(1) exactly `times` times (in place, "
                  "with grad mode on, so the graph records it), then try y.backward() once and "
                  "return the RuntimeError it raises, or None.")


@EXERCISE.test("changing a saved value breaks backward", points=2, public=True,
               feedback=SAVED_FEEDBACK)
def saved_public(sub):
    return [_saved(sub, 0.5, 1.5, 1, micrograph.mul), _saved(sub, 2.0, -1.0, 1, micrograph.add)]


@EXERCISE.test("saved values on other inputs", points=3, feedback=SAVED_FEEDBACK)
def saved_hidden(sub):
    cases = [(-2.0, 3.0, 2), (1.25, -0.5, 3), (0.0, 1.0, 1), (-1.0, 0.0, 2)]
    runs = [_saved(sub, w, x, t, c) for (w, x, t), c in zip(cases, SAVING)]
    # the first case's numbers once more: leaves kept per (w, x) are returned again
    runs.append(_saved(sub, *cases[0], NOT_SAVING[0]))
    # the boundaries the statement names: a times of zero (a left as it is, so the product's
    # backward works), and w equal to x (two leaves all the same: each gets its own gradient)
    runs += [_saved(sub, 0.75, -1.25, 0, SAVING[0]), _saved(sub, 1.5, 1.5, 1, NOT_SAVING[0])]
    return {"runs": runs,
            "apart": calls_apart(sub, lambda m, case: m.modify_saved_value(*case), seen_all,
                                 (1.5, -1.0, 1, NOT_SAVING[0]), (-0.5, 2.0, 2, SAVING[0]), "modify_saved_value")}


@EXERCISE.test("an unsaved value may change", points=2, feedback=SAVED_FEEDBACK)
def unsaved_hidden(sub):
    cases = [(0.5, -2.5, 1), (2.0, 1.0, 2), (-0.75, 3.5, 1), (-1.0, 1.0, 3), (1.5, -0.5, 2)]
    return [_saved(sub, w, x, t, c) for (w, x, t), c in zip(cases, NOT_SAVING)]


@EXERCISE.diagram
def draw(sub):
    r = plain_dict(sub.modify_saved_value(0.5, 1.5, 1, micrograph.mul))
    # a name handed back as a number (the float w given) names nothing in the drawing
    return [r["y"], r["a"]], {k: r[k] for k in ("w", "x", "a", "y") if isinstance(r[k], Value)}
