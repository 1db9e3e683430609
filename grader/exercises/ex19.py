"""ex19 build_accumulation: in the student's engine gradients add up over backward calls, and
zero_() or .grad = None start again, as in PyTorch."""

from __future__ import annotations

import math
import warnings
from typing import Any

from micrograph.i18n import N_

from grader.spec import Exercise
from grader.spec.build import claim, documents_drawn, fact, flag, needs, number
from grader.spec.build_again import sent_again
from grader.spec.build_reads import grad_quiet
from grader.spec.build_retained import ZEROED, grad_after_zeroed
from grader.spec.build_repeats import dropped_kept, leaf_root, retained_again, retained_twice, seeded, zeroed_apart
from grader.spec.build_rerun import retained_rerun
from grader.spec.build_writes import BESIDE, CLEARED, REPLACED, store_watched, writes_beside_store
from grader.spec.facts import CONTEXT
from grader.spec.freed import apart, at_a_freed_id
from grader.spec.held import kept
from grader.spec.leaf_retained import RETAINED_LEAF, leaf_retained
from grader.spec.own_grad import OWN_GRAD, equal_leaves
from grader.spec.probe import close
from grader.spec.raised import raised
from grader.spec.repeat import fresh_copy

EXERCISE = Exercise("ex19", "Build an engine: gradients accumulate",
                    module="ex19_build_accumulation", rules=True, own_engine=True)

FEEDBACK = "Each backward adds into .grad; zero_() sets it to 0 in place; .grad = None drops it."
RESETS = {"zero_": "w.grad.zero_(); x.grad.zero_()", "None": "w.grad = None; x.grad = None"}  # before the third backward
ORDINALS = (N_("first"), N_("second"), N_("third"), N_("fourth"))  # words of a label
KEYS = {
    "grads": "each backward must add its gradient into .grad (a new Value only when .grad is None)",
    "leaf_number": "backward adds into .grad, never into the leaf itself: w.item() stays the number w was "
                   "made with, whatever backward calls ran",
    "zeroed": "zero_() sets the number to 0 in place, a float as every Value's number, and returns the Value itself",
    "dropped": "w.grad = None leaves w.grad None: the grad property's setter keeps what it is given",
    "renewed": "after .grad = None (a leaf's, or a retained non-leaf's), the next backward starts again from "
               "nothing, as PyTorch's does: nothing of the dropped gradient is kept between calls",
    "retained": "a later backward adds a retained non-leaf's gradient to the number its .grad holds, as a "
                "leaf's: .grad then holds the sum of both",
    "retained_zeroed": "a.grad.zero_() on a retained non-leaf sets its gradient to 0, as on a leaf: the next backward "
                       "adds into that 0, so a.grad is then that backward's gradient alone (store_grad adds to the "
                       "number .grad holds, never to a sum kept apart from it)",
    "fresh": "a backward sends the gradients of its own graph alone: after .grad is reset, the next "
             "backward writes into it what the first did, nothing of the earlier backward calls being "
             "kept between calls",
    "plain": "the Value store_grad puts in .grad requires no grad, as PyTorch's .grad does: it holds "
             "a number, and no graph is recorded through it",
    "rerun": "each backward must run every node of its own graph: nothing of an earlier backward's "
             "walk (its dependency counts, the nodes it ran) may be kept for the next call",
    "new_leaf": "a new leaf's first backward gives it a new Value in .grad, whatever leaves had one before: "
                "store_grad decides by the leaf's own .grad being None; ids kept between calls cannot tell a "
                "new leaf from a freed one, whose id it may take",
    "retained_leaf": RETAINED_LEAF,
    "own_grad": OWN_GRAD,
    "leaf_root": "a backward that starts at a leaf adds into its .grad as every backward does: a second w.backward() "
                 "adds into the Value the first wrote",
    "retained_once": "retain_grad() called again changes nothing: backward writes a retained non-leaf's gradient "
                     "once per backward, however many times retain_grad() was called",
    "seed": "backward seeds its root with 1 at every call, whatever the root's .grad holds: a third w.backward() "
            "adds 1 to what the two before wrote",
    "retained_again": "retain_grad() on a value that already retains its gradient changes nothing, after a backward "
                      "too: a.grad keeps what that backward wrote, and the next backward adds to it",
    "kept_grad": "after .grad = None the next backward gives .grad a new Value: a Value taken from .grad before "
                 "keeps its number, as PyTorch's tensor does",
    "retained_operand": "store_grad adds a retained non-leaf's new gradient to the number its .grad holds "
                        "(a.grad.item()), never to the non-leaf's own number (a.item())",
    "operand": "store_grad adds a leaf's new gradient to the number its .grad holds (w.grad.item()), never to the "
               "leaf's own number (w.item())",
    "zeroed_apart": "zero_() sets to 0 the number of the Value it is called on and of no other: each .grad keeps a "
                    "number of its own, so a backward that adds into w.grad leaves a zeroed x.grad as it was (one "
                    "place every zeroed Value is pointed at, kept between calls, joins them)",
    "one_grad": "reading .grad gives the Value it holds (a leaf's, or a retained non-leaf's), the same object at every "
                "read, as PyTorch's does: a getter that returns a new Value each time hands zero_() a copy, and .grad "
                "keeps its number",
    "sent_again": "each backward buffers the gradients of its own pass, anew at each call: a later backward through "
                  "the same graph hands every node what the first did",
}
ZERO_KEYS = ("zeroed", "zero_changes", "zeroed_number")  # zero_()'s: what it returned, whether it changed .grad, what it left
# the nodes a later backward ran, apart from the gradients it sent; apart too, each told unless a mistake told makes it so
# (``PRESUMES``): a retained a.grad after .grad = None, the gradients after a reset, the numbers zero_() left
KEYS = {**KEYS, "walk": KEYS["rerun"], "retained_renewed": KEYS["renewed"], "reset_grads": KEYS["grads"],
        **dict.fromkeys(ZERO_KEYS[1:], KEYS["zeroed"])}
# what zero_() or .grad = None left decides the sums after it; one .grad Value for two leaves (``own_grad``) spoils them all
CAUSED_BY = {**dict.fromkeys(("grads", "reset_grads"), (*ZERO_KEYS, "dropped", "fresh", "renewed", "leaf_number", "operand", "one_grad", "own_grad")),
             "fresh": (*ZERO_KEYS, "dropped", "renewed", "leaf_number", "operand", "grads", "reset_grads", "own_grad"),
             **{key: ("one_grad",) for key in ZERO_KEYS}, "leaf_root": ("operand", "own_grad"), "seed": ("leaf_root", "operand", "grads", "reset_grads"),
             "retained_again": ("retained", "retained_once", "rerun", "own_grad"),
             "kept_grad": ("renewed", "dropped", "fresh", "own_grad"),
             "retained_zeroed": ("retained", "rerun", "own_grad", *ZERO_KEYS, "retained_operand", "one_grad"),  # a zero_() that zeroes nothing: told as such
             "renewed": ("dropped", "retained", "own_grad", "retained_operand"),
             "retained_renewed": ("dropped", "retained", "own_grad", "retained_operand"),
             "retained": ("rerun", "own_grad", "retained_operand"), "retained_operand": ("own_grad",), "retained_leaf": ("grads", "reset_grads"),
             "rerun": ("grads", "reset_grads", "operand", "own_grad"),  # a sum made wrong: a second backward's gradient differs too
             "zeroed_apart": ("one_grad", "own_grad")}  # one .grad Value for two, not one place for two zeroed ones
# nodes a later backward skipped (``walk``) and zeroed gradients joined (``zeroed_apart``) change every later sum
CAUSED_BY = {key: causes + ("walk", "zeroed_apart") if key not in ("zeroed_apart", *ZERO_KEYS, "one_grad") else causes
             for key, causes in CAUSED_BY.items()}
# buffers of gradients kept between calls (``sent_again``) hand a node shared by two backward calls what both sent:
# every sum of a later backward differs, told as that state, not as store_grad's adding
CAUSED_BY = {**CAUSED_BY, **{key: CAUSED_BY.get(key, ()) + ("sent_again",) for key in KEYS
                            if key not in ("sent_again", *ZERO_KEYS, "one_grad", "dropped", "plain", "leaf_number")}}
# numbers a mistake told makes wrong, not told beside it: a sum made wrong (overwritten, added to a.item()), a copy zeroed, a
# zero_() or .grad = None that did not reset; every later gradient, after nodes skipped (walk) or buffers kept (sent_again)
PRESUMES = {"retained_renewed": ("retained", "retained_operand", "dropped"), "zeroed_number": ("zero_changes",),
            **dict.fromkeys(("fresh", "reset_grads"), (*ZERO_KEYS[1:], "dropped")), **dict.fromkeys(("renewed", "kept_grad"), ("dropped",)),
            "retained_zeroed": ("retained_operand", "one_grad", *ZERO_KEYS[1:]),
            **dict.fromkeys(("grads", "rerun", "retained", "leaf_root", "seed", "retained_again"), ())}
PRESUMES = {key: (*causes, "walk", "sent_again") if key != "zeroed_number" else causes for key, causes in PRESUMES.items()}


def _one_grad(sub: Any, w0: float, x0: float) -> list[Any]:
    """Whether two reads of w.grad, and of a retained a.grad, give one object, as PyTorch's: a getter
    that copies (a leaf's, or a non-leaf's alone) makes every zero_() and every in-place sum reach a
    copy.  On a fresh copy (``retained_rerun``'s reason)."""
    engine = fresh_copy(sub) or sub
    w, x = engine.Value(w0, requires_grad=True), engine.Value(x0, requires_grad=True)
    a = w * x
    a.retain_grad()
    (a + w).backward()
    said = "after a = w * x; a.retain_grad(); (a + w).backward()"
    return [claim(w.grad is w.grad, f"w.grad is w.grad {said}"), claim(a.grad is a.grad, f"a.grad is a.grad {said}")]


def _plain(sub: Any, w0: float, x0: float) -> list[Any]:
    """Whether the Values store_grad writes require no grad, as PyTorch's .grad: a leaf's and a
    retained non-leaf's, on a fresh copy's leaves (``retained_rerun``'s reason); after a second
    backward too, whose sum a store_grad may make by an op on a Value that requires grad."""
    engine = fresh_copy(sub) or sub
    w, x = engine.Value(w0, requires_grad=True), engine.Value(x0, requires_grad=True)
    a = w + x
    a.retain_grad()
    said = "after a = w + x; a.retain_grad(); (a * x).backward()"
    kept(a * x).backward()
    seen = [fact(_requires_grad(w), f"w.grad.requires_grad {said}"), fact(_requires_grad(a), f"a.grad.requires_grad {said}")]
    kept(a * w).backward()
    said += "; (a * w).backward()"
    return [*seen, fact(_requires_grad(w), f"w.grad.requires_grad {said}"),
            fact(_requires_grad(a), f"a.grad.requires_grad {said}")]


def _requires_grad(v: Any) -> bool | str:
    """``v.grad.requires_grad``, whatever reading ``v.grad`` warns."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return flag(getattr(v.grad, "requires_grad", None))


def _renewed(sub: Any, w0: float, x0: float) -> list[Any]:
    """Whether a backward after ``w.grad = None`` starts again from nothing: a gradient kept between calls (on the
    node, or by the leaf's id) and added into again shows here; on a fresh copy's leaves (``retained_rerun``'s reason)."""
    engine = fresh_copy(sub) or sub
    w, x = engine.Value(w0, requires_grad=True), engine.Value(x0, requires_grad=True)
    kept(w * x + w).backward()
    w.grad = None
    ran = raised(kept(w * w).backward, "(w * w).backward() after (w * x + w).backward(); w.grad = None")
    return [ran, fact(grad_quiet(w), "w.grad after (w * x + w).backward(); w.grad = None; (w * w).backward()")]


AT_A_FREED_ID = N_("(v * v).backward(), v a new leaf at the id of a freed leaf that had a .grad")


def _at_a_freed_id(sub: Any, w0: float) -> list[Any]:
    """The first backward of a new leaf v put where an earlier leaf was, with its id, once that one had been given a
    .grad and let go of (``at_a_freed_id``): an engine that keeps the ids of the leaves it wrote to (a set between
    calls) takes v for one that has a .grad already.  The leaves are a fresh copy's of the student's module (where it
    can be made): what earlier tests left in the run's module cannot meet a leaf first, at an id not seen here.  The
    roots of the leaves' backward calls, freed with them, are made apart from each other's ids (``apart``): counts
    kept by a root's id (``retained_rerun``'s slip) are not met here by chance."""
    engine = fresh_copy(sub) or sub
    roots: set[int] = set()

    def squared(leaf: Any) -> Any:
        y = apart(lambda: leaf * leaf, roots, lambda y: y.grad_fn)
        roots.add(id(y.grad_fn))
        return y
    # a first leaf's backward: an error there is the engine's own, told with its line
    v = at_a_freed_id(lambda: engine.Value(w0, requires_grad=True), lambda leaf: squared(leaf).backward())
    return [raised(squared(v).backward, AT_A_FREED_ID), fact(grad_quiet(v), f"v.grad after {AT_A_FREED_ID}")]


CHANGED = N_("w.grad.zero_() changes the number w.grad holds")


def _loop(sub: Any, w0: float, x0: float, steps: int, reset: str | None) -> dict[str, list[Any]]:
    """``(w * x + w).backward()`` ``steps`` times, each through a graph built anew (a second backward through one
    graph is ex20's error), resetting the grads before the third.  What zero_() left is read at once: a wrong zero_
    is told as zero_'s, and the later gradients it changes (``reset_grads``) are its consequence, not told again."""
    w, x = sub.Value(w0, requires_grad=True), sub.Value(x0, requires_grad=True)
    seen, reset_left = [], {}
    operand: list[Any] = []
    for step in range(steps):
        if reset == "zero_" and step == 2:
            before = grad_quiet(w)
            w.grad.zero_()
            x.grad.zero_()
            reset_left["zero_changes"] = [claim(before == 0.0 or grad_quiet(w) != before, CHANGED)]  # a zero_ that did
            # nothing, told so where it had something to change: a .grad already 0 is no zero_'s fault
            reset_left["zeroed_number"] = [fact(grad_quiet(w), "w.grad after w.grad.zero_()"),
                                           fact(grad_quiet(x), "x.grad after x.grad.zero_()")]
        if reset == "None" and step == 2:
            w.grad = None
            x.grad = None
            reset_left["dropped"] = [fact(grad_quiet(w), "w.grad after w.grad = None"),
                                     fact(grad_quiet(x), "x.grad after x.grad = None")]
        with writes_beside_store(sub) as beside:  # leaves whose AccumulateGrad.apply skipped store_grad
            if reset == "None" and step >= 2:  # an error after w.grad = None is told as that step's, the first one
                reset_left.setdefault("renewed", [raised(kept(w * x + w).backward, f"(w * x + w).backward() after {RESETS[reset]}")])
            else:
                kept(w * x + w).backward()
        said = f"after the {ORDINALS[step]} backward of w * x + w" + (f" ({RESETS[reset]} before the third)" if reset else "")
        seen += [_beside(fact(grad_quiet(v), f"{name}.grad {said}"), v, beside) for name, v in (("w", w), ("x", x))]
        if step == 1:  # the second: added to what the first left in w.grad, or to w's own number?
            operand.append(claim(_added_to_leaf(seen[-2]["value"], number(w), seen[0]["value"]), OPERAND))
        if reset and step == 2:  # the same graph's gradient on a reset .grad: the first backward's, as PyTorch's
            reset_left["fresh"] = [claim(seen[-2]["value"] == seen[0]["value"],
                                         f"the backward of w * x + w after {RESETS[reset]} gives w.grad the number the first gave")]
    return {"operand": operand, **reset_left, "leaf_number": [fact(number(w), f"w {said}")],
            **({"grads": seen[:4], "reset_grads": seen[4:]} if reset else {"grads": seen})}  # two facts a backward


def _beside(seen: dict[str, Any], leaf: Any, beside: list[Any]) -> dict[str, Any]:
    """A leaf's gradient fact, with whether its AccumulateGrad.apply wrote its .grad without
    store_grad as context (told with a difference, never compared)."""
    return {**seen, CONTEXT + "bypassed": True} if any(v is leaf for v in beside) else seen


OPERAND = N_("the second backward of w * x + w left w.grad holding w's own number (w.item()) plus its gradient")


def _added_to_leaf(got: Any, leaf: Any, first: Any) -> bool:
    """Whether ``got`` (w.grad after a second backward) is the leaf's number plus the first
    gradient, where that differs both from the sum of both gradients (w.item() is not the first
    gradient) and from the second gradient alone, which an overwrite leaves (w.item() is not 0):
    store_grad added to w.item()."""
    numbers = (got, leaf, first)
    return all(type(n) is float and math.isfinite(n) for n in numbers) and leaf not in (first, 0.0) and \
        close(got, leaf + first)


RETAINED_OPERAND = N_("the second backward through a = w + x left a.grad holding a's own number (a.item()) plus "
                      "that backward's gradient")


def _rerun(sub: Any, w0: float, x0: float, *only: str) -> dict[str, Any]:
    """``retained_rerun``'s observations (``only`` those keys, and the claim below), with whether
    its second backward, (a * w).backward(), left a.grad holding a's own number plus w: store_grad
    added a retained gradient to ``v.item()``, told as that, not as a sum kept between calls.
    a = w + x, so a's number is known here without the engine; told only where w and a are not 0
    (the sum of both and an overwrite then differ from it)."""
    seen = retained_rerun(sub, w0, x0)
    got = seen["retained"][1]["value"]
    own = claim(type(got) is float and 0.0 not in (w0, w0 + x0) and close(got, w0 + x0 + w0), RETAINED_OPERAND)
    return {**{key: told for key, told in seen.items() if not only or key in only}, "retained_operand": [own]}


def _joined(*runs: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """Several loops' observations as one list per key, what zero_() or .grad = None left told first."""
    out: dict[str, list[Any]] = {k: [] for k in ("operand", "leaf_number", *ZERO_KEYS, "dropped", "renewed", "fresh", "grads", "reset_grads")}
    for run in runs:
        for key, seen in run.items():
            out[key] += seen
    return {key: seen for key, seen in out.items() if seen}


@EXERCISE.test("gradients add up over backward calls", points=3, public=True, feedback=FEEDBACK,
               key_feedback=KEYS, caused_by=CAUSED_BY, presumes=PRESUMES)
def loop_public(sub):
    needs(sub, 4)
    return {"one_grad": _one_grad(sub, 1.5, -2.0), **_joined(_loop(sub, 1.5, -2.0, 3, None), _loop(sub, 2.0, 0.5, 4, "zero_")),
            "plain": _plain(sub, 1.5, -2.0), **_rerun(sub, 1.5, -2.0),
            "leaf_root": leaf_root(sub, 1.5), "retained_once": retained_twice(sub, 1.5),
            "own_grad": equal_leaves(sub), "zeroed_apart": zeroed_apart(sub, 1.5, -2.0), "sent_again": sent_again(sub)}


@EXERCISE.test("accumulation on other inputs", points=2, feedback=FEEDBACK, key_feedback=KEYS,
               caused_by=CAUSED_BY, presumes=PRESUMES)
def loop_hidden(sub):
    """The second loop drops the grads before its third backward: a backward that adds what
    earlier calls sent (``fresh``) is told so, not as store_grad's sum."""
    needs(sub, 4)
    return {"one_grad": _one_grad(sub, -0.5, 3.0), **_joined(_loop(sub, -0.5, 3.0, 4, None), _loop(sub, 0.0, 0.0, 3, "None")),
            "plain": _plain(sub, -0.5, 3.0), **_rerun(sub, -0.5, 3.0),
            "new_leaf": _at_a_freed_id(sub, 1.75), "retained_leaf": leaf_retained(sub, 2.5, -1.5),
            "leaf_root": leaf_root(sub, -0.5), "retained_once": retained_twice(sub, -0.5),
            "seed": seeded(sub, -0.5), "retained_again": retained_again(sub, -0.5), "sent_again": sent_again(sub)}


@EXERCISE.test("zero_() between backward calls", points=2, feedback=FEEDBACK, key_feedback=KEYS,
               caused_by=CAUSED_BY, presumes=PRESUMES)
def zero_between_calls(sub):
    needs(sub, 4)
    w = sub.Value(1.25, requires_grad=True)
    kept(w * w).backward()
    g = w.grad
    back = g.zero_()
    zeroed = {"zeroed": [claim(back is g, "w.grad.zero_() is w.grad"), _unsigned_zero(sub), claim(_item_type(g) is float, A_FLOAT)],
              "zeroed_number": [fact(number(g), "w.grad after w.grad.zero_()")]}
    return {"one_grad": _one_grad(sub, -1.5, 2.5), **_joined(zeroed, _loop(sub, -1.5, 2.5, 4, "zero_")),
            "retained_zeroed": [fact(grad_after_zeroed(sub, -1.5), ZEROED)], "zeroed_apart": zeroed_apart(sub, -1.5, 2.5),
            **_rerun(sub, -1.5, 2.5, "walk"), "sent_again": sent_again(sub)}


A_FLOAT = N_("w.grad.zero_() leaves a float as w.grad's number")


def _item_type(g: Any) -> type | None:
    """The type of what ``g.item()`` returns (PyTorch's is a float: ``number`` reads an int as
    one, so a zero_ that writes the int 0 is seen here alone), or None where there is no item()."""
    item = getattr(type(g), "item", None)
    return type(item(g)) if callable(item) else None


def _unsigned_zero(sub: Any) -> dict[str, Any]:
    """Whether zero_() on a negative gradient leaves 0.0, as PyTorch's does, not -0.0: equal as
    numbers, but the stub's repr shows Value(-0) where PyTorch shows tensor(0.) (``g *= 0``)."""
    w = sub.Value(-2.0, requires_grad=True)
    kept(w * w).backward()
    g = w.grad
    g.zero_()
    left = number(g)
    unsigned = math.copysign(1.0, left) > 0 if left == 0.0 else True  # not a zero at all: CHANGED tells it
    return claim(unsigned if type(left) is float else left,
                 N_("w.grad.zero_() on a negative w.grad leaves a zero without a minus sign"))


@EXERCISE.test("w.grad = None between backward calls", points=2, feedback=FEEDBACK, key_feedback=KEYS,
               caused_by=CAUSED_BY, presumes=PRESUMES)
def dropped(sub):
    needs(sub, 4)
    engine = fresh_copy(sub) or sub  # ``retained_rerun``'s reason: ids kept from the gates' programs meet none here
    seen = _joined(_loop(engine, 0.75, -4.0, 4, "None"), _loop(engine, 3.0, 1.0, 3, "None"))
    retained = _retained_dropped(engine, -1.25, 2.5)
    return {**seen, "retained": retained["retained"], "retained_renewed": retained["retained_renewed"],
            "kept_grad": dropped_kept(engine, 0.75),
            **_rerun(sub, 0.75, -4.0, "walk"), "sent_again": sent_again(engine),
            "renewed": [*seen.get("renewed", []), *_renewed(engine, 0.75, -4.0), *_renewed(engine, -2.5, 1.5),
                        *retained["renewed"]]}


RETAINED = "a = w + x; a.retain_grad()"
OVERWRITTEN = f"(a * w).backward() after {RETAINED}; (a * x).backward() adds to a.grad"  # not (a * w)'s alone


def _retained_dropped(sub: Any, w0: float, x0: float) -> dict[str, list[Any]]:
    """A retained non-leaf's .grad dropped between two pairs of backward calls: the second pair's sum starts again from
    nothing, as a leaf's does, so a sum kept apart from .grad (on the Value or its node) and added to after .grad =
    None shows here; the leaf programs never retain.  Whether the first pair's second backward overwrote a.grad is
    read too (``retained``): a backward that overwrites a retained gradient instead of adding to it is told by that
    rule, not as a dropped gradient kept (a sum wrong otherwise, gradients kept between calls, by that); where a.grad
    was None when that backward handed it to store_grad (``store_watched``'s ``CLEARED``), store_grad left the new
    gradient alone (``REPLACED``), or that backward wrote a.grad without store_grad (``BESIDE``), the claim is told
    with that.  Each backward is a step of its own, so an error is told as that step's."""
    w, x = sub.Value(w0, requires_grad=True), sub.Value(x0, requires_grad=True)
    a = w + x
    a.retain_grad()
    ran = [raised(kept(a * x).backward, f"(a * x).backward() after {RETAINED}")]
    with store_watched(sub, a) as how:
        ran.append(raised(kept(a * w).backward, f"(a * w).backward() after {RETAINED}; (a * x).backward()"))
    second = grad_quiet(a)  # not (a * w)'s gradient alone (w0): an overwrite; any other number is told below
    summed = {**claim(type(second) is not float or not math.isclose(second, w0), OVERWRITTEN),
              **{key: True for key in (CLEARED, REPLACED, BESIDE) if how.get(key)}}
    a.grad = None
    dropped = f"{RETAINED}; (a * x).backward(); (a * w).backward(); a.grad = None"
    ran += [raised(kept(a * x).backward, f"(a * x).backward() after {dropped}"),
            raised(kept(a * w).backward, f"(a * w).backward() after {dropped}; (a * x).backward()")]
    return {"retained": [summed], "renewed": ran,
            "retained_renewed": [fact(grad_quiet(a), f"a.grad after {dropped}; (a * x).backward(); (a * w).backward()")]}


@EXERCISE.test("two graphs sharing a leaf", points=1, feedback=FEEDBACK, key_feedback=KEYS,
               caused_by=CAUSED_BY, presumes=PRESUMES)
def two_graphs(sub):
    """Then w.grad is dropped and y1 built again: its backward gives w.grad what the first did,
    unless the engine keeps between calls what earlier backward calls sent (``fresh``)."""
    needs(sub, 4)
    w = sub.Value(-2.0, requires_grad=True)
    y1 = kept(w * w)
    y2 = kept((w + 1) * 3)
    y1.backward()
    first = fact(grad_quiet(w), "w.grad after y1.backward(), y1 = w * w")
    with writes_beside_store(sub) as beside:
        y2.backward()
    both = _beside(fact(grad_quiet(w), "w.grad after y1.backward(); y2.backward(), y2 = (w + 1) * 3"), w, beside)
    w.grad = None
    dropped = fact(grad_quiet(w), "w.grad after w.grad = None")
    ran = raised(kept(w * w).backward, "(w * w).backward() after y1.backward(); y2.backward(); w.grad = None")
    again = claim(grad_quiet(w) == first["value"],
                  "the backward of y1 = w * w after w.grad = None gives w.grad the number the first gave")
    return {"dropped": [dropped], "renewed": [ran], "fresh": [again], "grads": [first, both],
            "walk": retained_rerun(sub, -2.0, 0.5)["walk"], "sent_again": sent_again(sub)}


@EXERCISE.diagram
def draw(sub):
    return documents_drawn(sub, 4)
