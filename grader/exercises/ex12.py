"""ex12 linear: tests for the documents' nn.Linear(3, 4) graph: the summed loss, the second
backward's error, and retain_graph=True doubling every parameter's gradient.

The probes make the nets themselves (``manual_seed`` then ``nn.Linear``), with seeds, sizes and
inputs not in the exercise text, and read the parameters' gradients from their own net, so a
submission is judged on what happened to the net, not only on what it returns: who wrote each
parameter's ``.grad`` (backward, or an assignment), the graph behind the loss (built from the
net given and the input leaves), how many backward passes ran, and whether the returned error
was raised by the engine.
``grads_twice`` is called again on other nets and on the first one once more
(``grader.spec.repeat``): records kept between calls show.  ``second_backward_error`` is given a net
whose parameters hold gradients, after the tests' other calls and as the first call of a fresh
import: clearing them on one and not the other shows a call count kept between calls.
"""

from __future__ import annotations

from typing import Any, Callable

import micrograph
from micrograph import nn
from micrograph.i18n import N_  # a probe's message, translated where it is shown

from grader.spec import Exercise
from grader.spec.caller_grads import hold, kept_through
from grader.spec.graph import graph, graph_below
from grader.spec.probe import by_key, caught, entries, grad_fn, num, shape_error, show, type_name
from grader.spec.origins import grads_of, handed_to_hooks, read_from_grad, read_in_turn
from grader.spec.call import Call
from grader.spec.errors import caught_in, error_of
from grader.spec.facts import CONTEXT, Check
from grader.spec.given_untracked import told_if_untracked
from grader.spec.one_leaf import leaf_per_entry
from grader.spec.linear_net import (FORWARD, calling_forward, in_statement_order, input_names, make_net, new_input,
                                    output_names, param_facts, param_names, summed, summed_by_engine,
                                    input_unhooked)
from grader.spec.rows import in_order, net_rows, rows_fact
from grader.spec.entries_reached import every_entry
from grader.spec.provenance import check, float_of, result_of, retains_as_context, value_of, watching
from grader.spec.repeat import calls_apart, fresh_copy, remembered

EXERCISE = Exercise("ex12", "nn.Linear: backward twice and retain_graph", module="ex12_linear")

Case = tuple[int, int, int, list[list[float]]]  # (seed, in_features, out_features, rows)
DOCUMENTS = [
    (3, 3, 4, [[0.5, -1.0, 2.0], [1.5, 0.25, -3.0]]),
    (11, 3, 4, [[2.0, 1.0, -0.5]]),
    (7, 3, 4, [[1.0, 0.0, 2.0], [-1.0, 3.0, 0.5], [0.25, 0.25, 4.0]]),
]
OTHER_SIZES = [
    (5, 2, 3, [[1.5, -2.0], [0.5, 3.0]]),  # unequal column sums: a weight read by columns gives other gradients
    (9, 4, 1, [[1.0, -1.0, 2.0, 0.5]]),
]


def _list(xs: object, observe: Callable[[Any], Any]) -> list | str:
    if type(xs) not in (list, tuple):
        return f"not a list: {type_name(xs)}"
    return [observe(item) for item in xs]


def _forward(sub, seed: int, n_in: int, n_out: int, rows: list[list[float]]) -> dict[str, Any]:
    net = make_net(seed, n_in, n_out)
    with FORWARD.watched(sub, "forward"), watching(sub, "forward") as call:
        r = sub.forward(net, rows)
    if type(r) is not tuple or len(r) != 3:
        raise shape_error(N_("forward must return (input, output, loss)"), "forward", r)
    r, order = in_statement_order(r)  # parts in another order: each told as what it is, and the order once
    new = new_input(r)
    inputs, output, loss = r
    names = param_names(net)
    if type(inputs) is list and all(type(row) is list for row in inputs):
        names.update({f"input[{i}][{j}]": v for i, row in enumerate(inputs) for j, v in enumerate(row)})
    return {
        "input": entries(inputs, "input", value_of),
        "leaves": leaf_per_entry(inputs, "input"), "order": in_order(inputs, rows),
        "rows": rows_fact(output),
        "output_order": {**in_order(output, net_rows(net, inputs), "output", "net(input)", False), CONTEXT + "of_net": True},
        "output": entries(output, "output", lambda v, label: retains_as_context(value_of(v, label))),  # no .grad read
        "loss": [graph(loss, names, label="loss", drawn=output_names(output)), result_of(grad_fn(loss), "loss.grad_fn")],
        "summed": every_entry(output, loss, "loss", "output"), "engine_sum": summed_by_engine(output, loss),
        "unhooked": input_unhooked(inputs),
        "new": new,
        "call": call.fact,
        "parts": {**check(Check.PARTS_IN_ORDER, order is None, "forward"), **({CONTEXT + "order": order} if order else {})},
    }


FORWARD_FEEDBACK = ("Make the input rows of new leaves that require grad, output = net(input) "
                    "with the net given, and loss = the sum of every entry of output; no backward yet.")
FORWARD_KEYS = {
    "input": "the input is the rows as new leaves Value(v, requires_grad=True), as the "
    "documents' requires_grad=True input",
    "leaves": "each entry of the input is a new leaf of its own, whatever its number",
    "output": "output is net(input) with the net you are given: one row of out_features Values "
    "per input row",
    "loss": "loss is one Value, the sum of every entry of output made by micrograph.sum (one "
    "node, as the documents' torch.sum), from the net's parameters and the input",
    "call": "forward only builds the graph: no backward yet",
    "parts": "forward returns (input, output, loss), in that order",
    "held": "forward only builds the graph: the parameters' .grad stay as the caller left them",
}


@EXERCISE.test("forward gives input leaves, output rows, summed loss", points=2, public=True,
               feedback=FORWARD_FEEDBACK, key_feedback=FORWARD_KEYS)
def forward_public(sub):
    return {**by_key([_forward(sub, *case) for case in DOCUMENTS[:2]]),
            "apart": _forward_apart(sub, DOCUMENTS[0], [DOCUMENTS[1][3][0], [-0.5, 2.5, 1.0]]),
            "held": _forward_held(sub, DOCUMENTS[1])}


@EXERCISE.test("forward on other nets", points=1, feedback=FORWARD_FEEDBACK,
               key_feedback=FORWARD_KEYS)
def forward_hidden(sub):
    return {**by_key([_forward(sub, *case) for case in (DOCUMENTS[2], *OTHER_SIZES)]),
            "apart": _forward_apart(sub, DOCUMENTS[2], [*DOCUMENTS[0][3], [1.0, -2.0, 0.5]]),
            "held": _forward_held(sub, OTHER_SIZES[0])}


def _forward_held(sub, case: Case) -> dict[str, Any]:
    """The VALUE_KEPT fact of forward on a net whose parameters hold gradients the caller accumulated:
    forward leaves them (the public test too, so that a student with the release sees a .grad it changed)."""
    net = make_net(*case[:3])
    return kept_through("forward(net, rows)", {f"net.{name}": p for name, p in param_names(net).items()},
                        lambda: sub.forward(net, case[3]))


CALLS_APART = 3  # calls_apart's calls in the student's module: first, second, first again


def _forward_apart(sub, case: tuple[int, int, int, list[list[float]]], other_rows: list[list[float]]
                   ) -> list[dict[str, Any]]:
    """forward called on one net with the rows of ``case``, then other rows of the same shape (a
    training loop's next batch), then the first again (``calls_apart``): a result kept from an
    earlier call (a cache keyed by the net, a global input, leaves kept per shape and refilled)
    shows as state."""
    net = make_net(*case[:3])
    new: list[dict[str, Any] | None] = []

    def forward(module: Any, rows: list[list[float]]) -> object:
        if module is not sub:  # a fresh copy's call, for comparison
            return module.forward(net, rows)
        with FORWARD.watched(sub, "forward"):
            r = sub.forward(net, rows)
        new.append(new_input(r))  # the first inputs again: new leaves, not the earlier call's
        return r
    apart = calls_apart(sub, forward, _forward_numbers, case[3], other_rows, "forward")
    return [*apart, *new, *[None] * (CALLS_APART - len(new))]  # as many facts whichever call raised


def _forward_numbers(r: object) -> list[Any] | str:
    """The numbers of forward's (input, output, loss)."""
    if type(r) is not tuple or len(r) != 3:
        return "not a triple"
    return [entries(r[0], "input", lambda v, _: num(v)), entries(r[1], "output", lambda v, _: num(v)), num(r[2])]


def _failed(sub, seed: int, n_in: int, n_out: int, rows: list[list[float]]) -> dict[str, Any]:
    """second_backward_error on a fresh net: the error, and the net's gradients afterwards."""
    net = make_net(seed, n_in, n_out)
    with FORWARD.watched(sub, "second_backward_error"), \
            watching(sub, "second_backward_error", one_graph=True, made=True) as call, \
            told_if_untracked(FORWARD, "second_backward_error", "forward", call.offs):  # made: a detach_() seen
        e = sub.second_backward_error(net, rows)
    return {"error": error_of(e, "the error returned", call), "net": param_facts(net), "call": call.fact,
            "summed": summed(call.first_root)}


# The functions below take the net, not a loss.  A public probe names public tests only: data a
# public probe uses ships in the release whole.
WITH_FORWARD_PUBLIC = {"forward": ("forward gives input leaves, output rows, summed loss",)}
WITH_FORWARD = {"forward": (*WITH_FORWARD_PUBLIC["forward"], "forward on other nets")}


FAILED_FEEDBACK = ("Call loss.backward() twice without retain_graph on the loss of the net you "
                   "are given; catch the second call's RuntimeError (raised by the engine) and "
                   "return it.")
FAILED_KEYS = {
    "error": "the first backward frees the saved values, so the second raises: catch that "
    "RuntimeError and return it",
    "net": "the second call fails before it writes any gradient: the parameters keep what "
    "the first backward wrote",
    "call": "two calls of loss.backward(), the first without retain_graph",
    "held": "the first backward adds to the gradients the net's parameters already hold, on every call",
}


@EXERCISE.test("a second backward raises", points=2, public=True, feedback=FAILED_FEEDBACK,
               key_feedback=FAILED_KEYS,
               runs_with=WITH_FORWARD_PUBLIC)
def second_raises(sub):
    return {**by_key([_failed(sub, *case) for case in DOCUMENTS[:2]]),
            "apart": _failed_apart(sub, DOCUMENTS[:2])}


@EXERCISE.test("a failed backward adds nothing", points=1, feedback=FAILED_FEEDBACK,
               key_feedback=FAILED_KEYS,
               runs_with=WITH_FORWARD)
def failed_adds_nothing(sub):
    return {**by_key([_failed(sub, *case) for case in DOCUMENTS[1:] + OTHER_SIZES]),
            "apart": _failed_apart(sub, [DOCUMENTS[2], OTHER_SIZES[0]]), "held": _held_alike(sub, DOCUMENTS[1])}


def _clears_held(module: Any, case: Case) -> bool | None:
    """Whether ``module``'s second_backward_error, given a net whose parameters hold gradients
    (``hold``: a caller's, accumulated over earlier passes), found them cleared (None or zero) as
    its first backward pass started; None where it raised or ran no pass (its other calls tell it)."""
    net = make_net(*case[:3])
    hold(param_names(net))
    try:
        with watching(module, "second_backward_error", leaves=net.parameters()) as call:
            calling_forward(module, "second_backward_error", net, case[3])
    except Exception:  # noqa: BLE001 - the student's error, told by the test's other calls
        return None
    return call.cleared[0] if call.cleared else None


def _held_alike(sub, case: Case) -> dict[str, Any]:
    """The CLEARS_ALIKE fact: second_backward_error, given a net whose parameters hold gradients,
    clears them (or leaves them) when called after the test's other calls as it does as the first
    call of a fresh import: whether it clears does not hang on state kept between calls (a call
    count).  The statement's adds to them on every call; ``~later``: the later call cleared them."""
    later = _clears_held(sub, case)
    fresh = None if later is None else fresh_copy(sub)
    first = None if fresh is None else _clears_held(fresh, case)
    return {**check(Check.CLEARS_ALIKE, None if first is None else first == later, "second_backward_error"),
            CONTEXT + "later": later is True}


def _failed_apart(sub, cases: list[tuple[int, int, int, list[list[float]]]]) -> list[dict[str, Any]]:
    """second_backward_error on one net, another, then the first net again (``calls_apart``):
    a loss kept per net (a cache keyed by the net) is backpropagated again, freed, and raises."""
    nets = [make_net(*case[:3]) for case in cases]  # kept alive: no id reused between the calls
    return calls_apart(sub, lambda m, i: calling_forward(m, "second_backward_error", nets[i], cases[i][3]),
                       caught, 0, 1, "second_backward_error")


def _twice(sub, seed: int, n_in: int, n_out: int, rows: list[list[float]]) -> dict[str, Any]:
    """grads_twice on a fresh net: what it returned, and the net's own gradients afterwards."""
    net = make_net(seed, n_in, n_out)
    with FORWARD.watched(sub, "grads_twice"), \
            watching(sub, "grads_twice", retain_graph=True, one_graph=True, grad_numbers=True, errors=True,
                     leaves=net.parameters()) as call, \
            told_if_untracked(FORWARD, "grads_twice", "forward", call.offs):  # each pass's retain_graph compared: the second frees the graph
        answer = sub.grads_twice(net, rows)
    if type(answer) is not tuple or len(answer) != 2:
        raise shape_error(N_("grads_twice must return a pair (first gradients, second gradients)"), "grads_twice", answer)
    return {"first": result_of(_list(answer[0], num), "grads_twice(net, rows)[0]"),
            "floats": [_floats(part, f"grads_twice(net, rows)[{i}]") for i, part in enumerate(answer)],
            "in_turn": _read_in_turn(answer, net, call),
            "ran_through": {**check(Check.PASSES_RAN_THROUGH, not any(call.raised_in), "grads_twice"),  # ~helper: who
                            **_caught_by(caught_in(call.raised, call.filename)),  # caught it, if not grads_twice
                            CONTEXT + "later_pass": True in call.raised_in[:-1]},  # a pass began after one raised
            "second": {**result_of(_list(answer[1], num), "grads_twice(net, rows)[1]"),
                       **handed_to_hooks(answer[1], call, param_names(net)),
                       **grads_of(answer[1], input_names(FORWARD.last), "net.parameters()")},
            "read": read_from_grad(answer, call, "grads_twice(net, rows)"), "net": param_facts(net), "summed": summed(call.first_root),
            "call": call.fact, "walked": graph_below(call.first_root, label="grads_twice's backward",
                                                     drawn={**param_names(net), **input_names(FORWARD.last)})}


def _caught_by(helper: str | None) -> dict[str, Any]:
    return {} if helper is None or helper == "grads_twice" or not helper.isidentifier() else {CONTEXT + "in_helper": True, CONTEXT + "helper": helper}


def _floats(part: object, label: str) -> list[dict[str, Any]] | None:
    """The type of each gradient of one list grads_twice returned (floats are asked for)."""
    return [float_of(g, f"{label}[{k}]") for k, g in enumerate(part)] if type(part) in (list, tuple) else None


def _read_in_turn(answer: tuple[Any, Any], net: nn.Linear, call: Call) -> dict[str, Any]:
    """The CHECK fact: the first list was read before the second backward, not afterwards from
    .grad Values kept (a Value's item() hands out the very float .grad holds, and each backward
    makes new ones: a list read at the end holds the last pass's float objects).  It holds where
    fewer than two passes ran to their end (``passes``; one that raised wrote nothing): the last
    pass that wrote is then the one the list records (the count, or the error caught, tells).
    ``~one_list``: the two lists returned are one object (the second pass's numbers written into
    the first's list); ``~swapped``: the second list holds floats an earlier pass wrote, none of
    them what .grad holds now (the two lists returned in the other order)."""
    if call.raised_in.count(False) < 2:
        return check(Check.READ_IN_TURN, True, "grads_twice(net, rows)[0]")
    last = [p.grad.item() if p.grad is not None else None for p in net.parameters()]
    other = answer[1]
    swapped = type(other) is list and len(other) == len(last) > 0 and all(
        type(x) is float and call.pass_wrote(x) and x is not y for x, y in zip(other, last))
    return read_in_turn([answer[0]], net.parameters(), "grads_twice(net, rows)[0]",
                        one_list=type(answer[0]) is list and answer[0] is answer[1], swapped=swapped)


TWICE_FEEDBACK = ("Call loss.backward(retain_graph=True), record [p.grad.item() for p in "
                  "net.parameters()], call loss.backward() and record again.")
TWICE_KEYS = {
    "first": "after one backward, each parameter's .grad is d loss/d parameter, with the "
    "loss summed over every output entry of the rows given",
    "second": "the second backward works only if the first kept the graph "
    "(retain_graph=True), and it adds to .grad: record after it, without clearing",
    "read": "each list is [p.grad.item() for p in net.parameters()] read after its call, "
    "not computed from the first",
    "net": "both backward calls write every weight and bias of the net you are given",
    "call": "two backward passes from the same loss, the first with retain_graph=True",
    "walked": "run both backward calls on the loss forward made: the gradients come from its graph, "
    "not from one built to carry other numbers",
}


@EXERCISE.test("the gradients after each call", points=1, public=True, feedback=TWICE_FEEDBACK,
               key_feedback=TWICE_KEYS,
               runs_with=WITH_FORWARD_PUBLIC)
def twice_public(sub):
    return {**by_key([_twice(sub, *case) for case in DOCUMENTS[:1]]),
            "apart": _twice_apart(sub, DOCUMENTS[0], (4, 2, 3, [[0.5, -2.0], [1.0, 3.0]])),
            "same_net": _twice_on_one_net(sub, DOCUMENTS[1], [[-1.0, 0.5, 3.0]])}


@EXERCISE.test("with retain_graph=True, the gradients after each call", points=2,
               feedback=TWICE_FEEDBACK, key_feedback=TWICE_KEYS,
               runs_with=WITH_FORWARD)
def retained_returns(sub):
    return by_key([_twice(sub, *case) for case in DOCUMENTS[1:]])


@EXERCISE.test("other layer sizes", points=2, feedback=TWICE_FEEDBACK, key_feedback=TWICE_KEYS,
               runs_with=WITH_FORWARD)
def other_sizes(sub):
    return {**by_key([_twice(sub, *case) for case in OTHER_SIZES]), "apart": _twice_apart(sub, OTHER_SIZES[0], DOCUMENTS[0])}


ON_ONE_NET = N_("grads_twice(net, rows) on a net an earlier call was given")


def _twice_on_one_net(sub, case: Case, other_rows: list[list[float]]) -> list[dict[str, Any]]:
    """grads_twice on a net, then on that very net with other rows, its .grad cleared between the
    calls (a net given again, as new as the statement's calls take it): the second call's lists,
    and the ANEW_ON_OBJECT fact, which fails where the second call returned the first call's
    lists again (the very ones, or their numbers): a result kept on the net (an attribute) or
    between calls.  A third call, on the first rows, returns the first call's numbers anew: not the
    very floats the first returned (a result kept by the net and rows, handed out in new lists)."""
    net = make_net(*case[:3])  # each call's numbers remembered: a later test's call that returns them kept them
    call = remembered(sub, lambda module, rows: calling_forward(module, "grads_twice", net, rows), "grads_twice")
    first = call(sub, case[3])
    seen = _both_lists(first)
    net.zero_grad()  # what the first call left in .grad is not this call's to add to
    second = call(sub, other_rows)
    net.zero_grad()
    third = call(sub, case[3])
    again = second is first or _both_lists(second) == seen or third is first or any(
        a is b for a, b in zip(_floats_in(first), _floats_in(third)))
    return [result_of(_both_lists(second), ON_ONE_NET),
            {**check(Check.ANEW_ON_OBJECT, not again, "grads_twice"), CONTEXT + "object": "net"}]


def _floats_in(answer: object) -> list[object]:
    """The floats of both lists grads_twice returned, as the objects they are (none if not a pair of lists)."""
    if type(answer) is not tuple or not all(type(part) is list for part in answer):
        return []
    return [x for part in answer for x in part if type(x) is float]


def _twice_apart(sub, first: Case, second: Case) -> dict[str, Any]:
    """grads_twice called on a new net of ``first``, of ``second``, and of ``first`` again
    (``calls_apart``): a list the hooks or the calls keep in the module shows."""
    return calls_apart(sub, lambda m, case: calling_forward(m, "grads_twice", make_net(*case[:3]), case[3]),
                       _both_lists, first, second, "grads_twice")


def _both_lists(answer: object) -> list[Any] | str:
    """The two lists of gradients grads_twice returned, as numbers."""
    if type(answer) is not tuple or len(answer) != 2:
        return "not a pair"
    return [_list(part, num) for part in answer]


@EXERCISE.diagram
def draw(sub):
    inputs, output, loss = sub.forward(make_net(3, 3, 4), [[0.5, -1.0, 2.0]])
    names = {f"x{k}": v for k, v in enumerate(inputs[0])}
    if type(output) is list and output and type(output[0]) is list:  # each entry its own box, named
        names.update({f"output[0][{j}]": v for j, v in enumerate(output[0]) if isinstance(v, micrograph.Value)})
    if not isinstance(loss, micrograph.Value):  # a number returned as loss: the layer's outputs, as built
        roots = [v for name, v in names.items() if name.startswith("output")] or [loss]
        return roots, names
    names["loss"] = loss
    show([loss], names)  # drawn as built if backward fails
    loss.backward()
    return [loss], names
