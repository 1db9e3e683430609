"""The checks the build track's gates run (``grader.spec.build.needs``): one short program per stage,
on the student's engine, that must give PyTorch's answer before a later stage's tests run.

Each check returns None, or the finding (a msgid) that names what the stage's part of the engine
got wrong; ``tests/grader/test_build_errors.py`` runs every check on every later stage's reference
engine and watches which functions it runs (``grader.judge.stages.CHECK_RUNS``).
"""

from __future__ import annotations

import warnings
from typing import Any, Callable

from micrograph.i18n import N_  # a check's finding, translated where told

from grader.spec.build_again import sends_other_again
from grader.spec.build_backward_checks import FAULT_IN as BACKWARD_FAULT_IN, backward_rest
from grader.spec.build_carried import FAULT_IN as CARRIED_FAULT_IN
from grader.spec.build_carried import counts_every_edge, leaves_when_ready, not_retained_none, retained_every_backward
from grader.spec.build_freed_checks import FAULT_IN as FREED_FAULT_IN, freed_checks
from grader.spec.build_inplace_checks import FAULT_IN as IN_PLACE_FAULT_IN, in_place_checks
from grader.spec.build_order import run_order
from grader.spec.order_lists import too_early
from grader.spec.build_record_checks import FAULT_IN as RECORD_FAULT_IN, constant, recorded_as_torch, reflected
from grader.spec.build_reads import edge_node, edges, flag, grad_quiet, node_name, number
from grader.spec.build_retained import grad_after_zeroed
from grader.spec.held import held, kept
from grader.spec.repeat import fresh_copy
from grader.spec.saved import saved_as


SAVES_NUMBER = N_("w * 3 does not save 3 as \"other\", the factor w's gradient needs: a product saves each factor "
                  "for the other's gradient, a Python number too")


def _stage1(sub: Any) -> str | None:
    w = sub.Value(1.5, requires_grad=True)
    y = w * 2 + 1
    if getattr(y, "grad_fn", None) is None:
        return N_("w * 2 + 1 records no node, though w requires grad")
    if node_name(y.grad_fn) != "AddBackward0":
        return N_("w * 2 + 1 records another node than an AddBackward0")
    if number(y) != 4.0:
        return N_("w * 2 + 1 holds a different number from PyTorch's")
    leaves = (flag(w.is_leaf), flag(y.is_leaf))  # bools only: an object of the student's may equal anything
    if leaves != (True, False):
        return N_("is_leaf is not True for w and False for w * 2 + 1")
    if getattr(sub.Value(2.0) * w, "grad_fn", None) is None:  # recording asks every input, not the first
        return N_("c * w, c a Value that requires no grad, records no node, where an operation records one as soon "
                  "as one of its inputs requires grad")
    x = sub.Value(-0.5, requires_grad=True)
    product = getattr(w * x, "grad_fn", None)
    if saved_as(product, "self") is x or saved_as(product, "other") is w:  # the Values, under each other's name
        return N_("w * x saves an operand under the other's name: x as \"self\" or w as \"other\"")
    if (saved_as(product, "self") is w, saved_as(product, "other") is x) != (True, True):
        return N_("w * x does not save w and x themselves, the Values, as \"self\" and \"other\"")
    z = sub.Value(0.0, requires_grad=True)
    zero = getattr(w * z, "grad_fn", None)
    if (saved_as(zero, "self") is w, saved_as(zero, "other") is z) != (True, True):
        return N_("w * z, z a leaf holding 0, does not save w and z themselves as \"self\" and \"other\": an operand "
                  "is saved whatever its number")
    three = getattr(w * 3, "grad_fn", None)
    if number(saved_as(three, "other")) != 3.0:
        return SAVES_NUMBER
    if w + 0 is w or w * 1 is w:
        return N_("w + 0 or w * 1 is w itself, where every operation makes a new value with a node of its own")
    c = sub.Value(2.0)
    if c + 0 is c or c * 1 is c:
        return N_("c + 0 or c * 1, c a Value that requires no grad, is c itself, where every operation makes a new "
                  "value, whether it records a node or not")
    recorded = recorded_as_torch(sub, w, y, product, three) or reflected(w, three)
    if recorded is not None:
        return recorded
    named = (node_name(product), node_name(edge_node(product, 0)))  # the given classes' names, kept as given
    if named != ("MulBackward0", "torch::autograd::AccumulateGrad"):
        return N_("w * x records a node whose name() is not PyTorch's MulBackward0") if named[0] != "MulBackward0" \
            else N_("(w * x).grad_fn.next_functions[0][0], w's AccumulateGrad, has another name() than PyTorch's "
                    "\"torch::autograd::AccumulateGrad\"")
    placed = _edges_placed(y) or _operands_kept(sub)
    if placed is not None:
        return placed
    reached = [edge_node(product, 0), edge_node(getattr(w + 1, "grad_fn", None), 0)]  # w's one AccumulateGrad
    if None not in reached and reached[0] is not reached[1] and getattr(edge_node(product, 1), "variable", None) is w:
        return N_("(w * x).grad_fn.next_functions has its edge to w's AccumulateGrad in x's place, second: the entries "
                  "of next_functions come in another order than the inputs")
    if None not in reached and reached[0] is not reached[1]:
        return N_("w * x and w + 1 reach w through two AccumulateGrad nodes, where gradient_edge must give a leaf one, "
                  "made once and kept")
    c = sub.Value(2.0)  # leaves whose requires_grad is set after they were made (w's node made above)
    c.requires_grad = True
    found = _edges_after_flags(c, w, x)
    if found is not None:
        return found
    return constant(sub)  # last: it shifts no id reuse


def _edges_placed(y: Any) -> str | None:
    """Whether y = w * 2 + 1 reaches w * 2 through an AccumulateGrad whose .variable an operation
    made (gradient_edge asking requires_grad before grad_fn): told before w's AccumulateGrad is
    looked for, which such an engine also gives w * x as a second node."""
    inner = edge_node(getattr(y, "grad_fn", None), 0)
    if hasattr(inner, "variable") and getattr(inner.variable, "grad_fn", None) is not None:
        return N_("(w * 2 + 1).grad_fn.next_functions[0][0] is an AccumulateGrad whose .variable is w * 2, a value an "
                  "operation made, where that entry is (w * 2).grad_fn: gradient_edge gives an AccumulateGrad only to "
                  "a leaf that requires grad")
    return None


ADD_CHANGED = N_("w + 1 changes the number w holds, where an operation makes a new Value and leaves its operands as "
                 "they were")
MUL_CHANGED = N_("w * 2 changes the number w holds, where an operation makes a new Value and leaves its operands as "
                 "they were")


def _operands_kept(sub: Any) -> str | None:
    """Whether + and * leave their operand's number as it was: an operation that writes its result
    into self (as += would) keeps the number of w * 2 + 1 right, then changes a value saved for a
    later product, which ex17's gradients show as if backward summed wrong."""
    for said, op in ((ADD_CHANGED, lambda v: v + 1), (MUL_CHANGED, lambda v: v * 2)):
        v = sub.Value(1.5, requires_grad=True)
        held(op(v))
        if number(v) != 1.5:
            return said
    return None


def _edges_after_flags(c: Any, w: Any, x: Any) -> str | None:
    """Edges of leaves whose requires_grad changed after they were made: c switched on, then w
    switched off; each told by what the entries hold (missing, elsewhere, or still there)."""
    scaled = getattr(c * 3, "grad_fn", None)
    entries = edges(scaled)
    if type(entries) is list and len(entries) != 2:
        return N_("c * 3, c = Value(2) set to require grad after it was made, has another number of entries in "
                  "next_functions than its two inputs")
    if getattr(edge_node(scaled, 0), "variable", None) is not c:
        if getattr(edge_node(scaled, 1), "variable", None) is c:
            return N_("c * 3, c = Value(2) set to require grad after it was made, has its edge to c's "
                      "AccumulateGrad in the number 3's place: the entries of next_functions come in another "
                      "order than the inputs")
        return N_("c * 3, c = Value(2) set to require grad after it was made, has no edge to c's AccumulateGrad")
    w.requires_grad = False
    product = getattr(w * x, "grad_fn", None)
    entries = edges(product)
    if type(entries) is list and len(entries) != 2:
        return N_("w * x after w.requires_grad = False has another number of entries in next_functions than its "
                  "two inputs, where w's entry is (None, 0)")
    if edge_node(product, 0) is not None:
        return N_("w * x after w.requires_grad = False still has an edge to w's AccumulateGrad, where its entry is "
                  "(None, 0)")
    return None


def _stage2(sub: Any) -> str | None:
    w = sub.Value(1.5, requires_grad=True)
    y = w * w + w
    held(y)  # no node a backward ran is freed (``grader.spec.held``)
    y.backward()
    got = grad_quiet(w)
    if got == 4.0:
        plain = GRAD_REQUIRES_GRAD if getattr(w.grad, "requires_grad", None) is True else None
        return plain or _ran_in_order(sub) or leaves_when_ready(sub) or backward_rest(sub) or counts_every_edge(sub)
    if got is None:
        return N_("backward through w * w + w leaves w.grad None")
    return N_("backward through w * w + w gives w.grad a different number from PyTorch's") if type(got) is float \
        else N_("backward through w * w + w gives w.grad something that is not a number")


# The documents' graph y = (x + w) * (w + 1) twice, where the order of the ready list shows
# (``grader.spec.build_order``): after y's node, a = x + w's and b = w + 1's are ready together,
# a first in y's edges, and the older one first (a made first), then last (b made first).  Each
# with the order PyTorch runs the three operations' nodes in (the leaves' AccumulateGrad nodes
# aside: an engine that writes the leaves' gradients later, ex20's slip, is told by that stage)
# and what a backward that runs them otherwise, each node once after the nodes that feed it, is
# told.
_ORDERS = (
    (True, ["y.grad_fn", "b.grad_fn", "a.grad_fn"],
     N_("one backward through (x + w) * (w + 1) runs its nodes, each once and after the nodes that send it a "
        "gradient, in another order than PyTorch's: of the nodes ready to run, backward runs the one with the "
        "highest sequence_nr first (the newest)")),
    (False, ["y.grad_fn", "a.grad_fn", "b.grad_fn"],
     N_("one backward through (x + w) * (w + 1), w + 1 made before x + w, runs its nodes, each once and after the "
        "nodes that send it a gradient, in another order than PyTorch's: of the nodes ready to run, backward runs "
        "the one with the highest sequence_nr first (the newest)")),
)


def _ran_in_order(sub: Any) -> str | None:
    """The order one backward runs the nodes of y = (x + w) * (w + 1) in, watched, with either
    input made first: a ready list run first in first out, or last in first out, is ex17's slip
    in every later stage's file too, where that stage's own programs may not show it.  An engine
    whose nodes run unseen, or not each once after its feeders, is told by ex17's own tests.  Run
    on a fresh copy of the file (where it can be made): what its graphs leave in an engine that
    keeps state between calls (counts cached by a root's id) reaches no later program."""
    engine = fresh_copy(sub) or sub
    for a_first, expected, finding in _ORDERS:
        w, x = engine.Value(0.75, requires_grad=True), engine.Value(-2.5, requires_grad=True)
        if a_first:
            a, b = x + w, w + 1
        else:
            b = w + 1
            a = x + w
        y = a * b
        held(y)
        order, feeders, unseen = run_order(y, {"w": w, "x": x, "a": a, "b": b, "y": y}, y.backward)
        ran = [label for label in order if label in expected]
        if not unseen and ran != expected and sorted(ran) == sorted(expected) and len(set(order)) == len(order) \
                and too_early(order, feeders) is None:
            return finding
    return None


def _stage3(sub: Any) -> str | None:
    w = sub.Value(1.5, requires_grad=True)
    a = w * 3
    a.retain_grad()
    y = a * 2
    held(y)
    y.backward()
    if grad_quiet(a) is None:
        return N_("retain_grad() does not keep a's gradient: a.grad is None after a.retain_grad() and a backward")
    if grad_quiet(a) != 2.0:
        return N_("a.grad after a.retain_grad() and a backward is not the gradient a's node receives")
    top = w * 5
    top.retain_grad()
    held(top)
    top.backward()
    if grad_quiet(top) != 1.0:
        return N_("y.grad after y.retain_grad(); y.backward() is not the gradient backward starts from at y, its root")
    fresh = kept(w * 4)
    fresh.retain_grad()
    if _warns(fresh):
        return RETAINED_WARNS
    return NEVER_WARNS if not _warns(kept(w * 6)) else not_retained_none(sub) or retained_every_backward(sub)


def _warns(v: Any) -> bool:
    """Whether reading ``v.grad`` issues a warning: a getter that warns while no gradient was
    written (``_grad is None``) warns for a retained non-leaf before its backward, in every
    later stage's file too, where that stage's own programs read it only after one."""
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        v.grad  # noqa: B018 - the read is what is watched
    return bool(seen)


RETAINED_WARNS = N_("reading r.grad after r = w * 4; r.retain_grad(), before any backward, warns: a non-leaf that "
                    "retains its grad never warns, whether backward wrote its gradient yet or not")
NEVER_WARNS = N_("reading (w * 6).grad, a non-leaf that does not retain its grad, issues no warning, where PyTorch "
                 "warns, with a UserWarning whose text is NON_LEAF_GRAD, and gives None")
RETAINED_ZEROED = N_("a.grad.zero_() on a retained a between two backward calls does not leave a.grad the second "
                     "one's gradient alone: store_grad adds to the number a.grad holds, which zero_() set to 0")
GRAD_REQUIRES_GRAD = N_("the Value store_grad put in w.grad requires grad, where PyTorch's .grad requires none")
SENT_KEPT = N_("two backward calls do not leave w.grad the sum of their gradients: a second y.backward(), y = (d + d) "
               "+ w, d = w + x, had the nodes' apply calls return other gradients than the first, where PyTorch's return "
               "the same: what backward hands a node depends on state kept between calls")
RETAINED_TWICE = N_("b.retain_grad() called twice, then one backward, does not leave b.grad the gradient b's node "
                    "receives: Value.retain_grad called again must change nothing")
# A check's finding that names the one function at fault: no later stage's rewrite is suspected
# while that function is still the checked stage's answer, or an earlier one's.
FAULT_IN = {SAVES_NUMBER: "Value.__mul__", RETAINED_WARNS: "Value.grad", NEVER_WARNS: "Value.grad", GRAD_REQUIRES_GRAD: "store_grad",
            RETAINED_ZEROED: "store_grad", RETAINED_TWICE: "Value.retain_grad", SENT_KEPT: "backward",
            **{finding: "backward" for _first, _order, finding in _ORDERS},
            **CARRIED_FAULT_IN, **BACKWARD_FAULT_IN, **RECORD_FAULT_IN, **FREED_FAULT_IN, **IN_PLACE_FAULT_IN}


def _stage4(sub: Any) -> str | None:
    w = sub.Value(1.5, requires_grad=True)
    roots = (w * 2, w * 3, w * 4)
    held(*roots)
    roots[0].backward()
    roots[1].backward()
    if grad_quiet(w) != 5.0:  # w's AccumulateGrad, shared by both: handed what the first sent too, by buffers kept?
        return SENT_KEPT if sends_other_again(fresh_copy(sub) or sub) else \
            N_("two backward calls do not leave w.grad the sum of their two gradients")
    if getattr(w.grad, "requires_grad", None) is True:  # then zero_() on it is refused: store_grad's fault
        return GRAD_REQUIRES_GRAD
    w.grad.zero_()
    roots[2].backward()
    if grad_quiet(w) != 4.0:
        return N_("w.grad.zero_() then a backward does not start again from 0")
    v = sub.Value(-0.5, requires_grad=True)
    v.backward()
    v.backward()
    if grad_quiet(v) != 2.0:
        return N_("a second v.backward() from a leaf v does not add into v.grad")
    return _retained_sum(fresh_copy(sub) or sub)


def _retained_sum(sub: Any) -> str | None:
    """Two backward calls through a retained non-leaf, on a fresh copy of the file (the first
    keeps its graph, which an engine that keeps retain_graph=True between calls would carry into
    every later program): a.grad holds the sum; zeroed, the next backward adds into 0."""
    w = sub.Value(1.5, requires_grad=True)
    b = w * 2
    b.retain_grad()
    b.retain_grad()  # a second call changes nothing
    twice = b * 3
    held(twice)
    twice.backward()
    if grad_quiet(b) != 3.0:
        return RETAINED_TWICE
    a = w + 5
    a.retain_grad()
    tops = (a * 2, a * 4)
    held(*tops)
    tops[0].backward(retain_graph=True)  # a later stage's release leaves a's node to run again
    tops[1].backward()
    if grad_quiet(a) != 6.0:
        return N_("two backward calls through a retained a do not leave a.grad the sum of their two gradients")
    return None if grad_after_zeroed(sub, 1.5) == 1.5 else RETAINED_ZEROED


CHECKS: tuple[tuple[str, Callable[[Any], str | None]], ...] = (
    ("ex16", _stage1), ("ex17", _stage2), ("ex18", _stage3), ("ex19", _stage4),
    ("ex20", freed_checks), ("ex21", in_place_checks),
)
PROGRAMS = {  # what each check runs, as a student reads it
    "ex16": "w * 2 + 1",
    "ex17": N_("one backward through each of w * w + w, (x + w) * (w + 1), z = n * m, m = v + 1, n = k + v, "
               "and w * 3 + (w * w) * 2 + 2"),
    "ex18": N_("a.retain_grad() then one backward; reading r.grad after r.retain_grad(); a.grad of an a that "
               "did not call it, after a backward; two backward calls through a retained a"),
    "ex19": N_("two backward calls, then zero_() and one more; two through a retained non-leaf, then zero_() "
               "and one more"),
    "ex20": N_("two backward calls through w * 3, and through c * w; y.backward() after z.backward(), z = y * 2; "
               "two through a retained y = w + 2 and y = w * w; z.backward() twice after u.backward(), z = y * v, "
               "u = y * 2"),
    "ex21": N_("in-place changes of w through detach() and .data"),
}
STAGE_IDS = (*(exercise for exercise, _ in CHECKS), "ex22")
