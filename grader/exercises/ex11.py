"""ex11 vjp: tests for backward with a gradient argument (a vector-Jacobian product) through
``mm``, the documents' one-row-per-backward experiment, and why x.grad must be zeroed between.

The probes build their own graphs (``_graph``) for ``vjp`` and ``jacobian_rows``, so those are
judged apart from ``build`` (observed in ``grader.spec.mm_built``), on shapes and numbers not in the
exercise text; a test that calls a function several times names each call's inputs apart (``x_a``, ``loss_a``,
``x_b`` ...), so that a sentence about an entry says which call it belongs to.  They observe how each result
came about: the graph behind each entry of loss, who wrote each ``.grad`` (backward, or an assignment) and
whether it was zeroed in place since, and how many backward passes the student's code ran.  An error the
student's code raises (a second backward on a freed graph) is told as raised, with its line.  ``vjp`` and
``jacobian_rows`` are called again on other graphs and on the first once more (``grader.spec.repeat``): a record
list kept between calls and handed out again shows.  The given ``x_grads`` is watched where they call it
(``grader.spec.given``): an edit made there is told as x_grads's.
"""

from __future__ import annotations

from typing import Any, Callable

import micrograph
from micrograph import Value
from micrograph.i18n import N_  # a probe's label, translated where it is shown

from grader.spec import Exercise
from grader.spec.facts import CONTEXT, Check
from grader.spec.call import Call
from grader.spec.given import given_returns, x_grads as given_x_grads
from grader.spec.graph_freed import answer_at_a_freed_id
from grader.spec.held import held
from grader.spec.one_hot import one_hot_facts
from grader.spec.equal_leaves import read_per_leaf
from grader.spec.matrices import as_list, flat, matrix
from grader.spec.mm_built import built, built_apart
from grader.spec.probe import by_key, entries, num, show
from grader.spec.origins import handed_to_hooks, read_from_grad, read_in_turn, remember
from grader.spec.provenance import check, float_of, grad_of, list_kept, result_of, watching
from grader.spec.appended import appended_later
from grader.spec.defaults import Earlier, default_after, default_kept
from grader.spec.repeat import calls_apart, fresh_copy
from grader.spec.returned_detached import graph_leaves

EXERCISE = Exercise("ex11", "backward(gradient): the vector-Jacobian product", module="ex11_vjp")

# (x_row, y_rows): x is 1 x n, y is n x m; none of them is in the exercise text.
SQUARE = [([0.5, -1.5], [[2.0, 1.0], [-1.0, 3.0]]), ([-2.0, 0.25], [[1.5, -4.0], [2.0, 0.5]])]
OTHER_SHAPES = [
    ([1.0, -2.0, 0.5], [[2.0, -1.0], [0.5, 3.0], [-4.0, 1.0]]),
    ([3.0, 1.5], [[1.0, -2.0, 0.5, 4.0], [-1.0, 2.5, 3.0, -0.5]]),
    ([-0.75], [[2.0, -3.0, 5.0]]),
]

# x's leaves of one value: a leaf looked up with == (`leaf in zeroed`) is zeroed once, not each time;
# y's columns equal: two equal rows of the Jacobian, each recorded (not a row kept once only);
# loss's entries equal from other columns: an entry's place looked up with == (`loss[0].index(entry)`) is
# the first equal one's, and its one-hot picks another row of the Jacobian.
EQUAL_ENTRIES, EQUAL_COLUMNS = ([1.5, 1.5], [[2.0, -1.0], [0.5, 3.0]]), ([1.5, -2.0], [[2.0, 2.0, -1.0], [0.5, 0.5, 3.0]])
EQUAL_LOSSES = ([1.5, 0.5], [[1.0, 2.0, 1.0], [1.0, -2.0, 3.0]])
COLUMNS_NOTE, LOSSES_NOTE = N_("y with two equal columns"), N_("two equal entries of loss")  # notes of calls' labels


def _graph(x_row: list[float], y_rows: list[list[float]], y_grad: bool = False):
    """The probe's own x (leaves that require grad), y and loss = mm(x, y), held (``held``): an answer kept by
    id(loss) meets an earlier graph's only in ``answer_at_a_freed_id`` (graphs of ``_let_go``), not by chance."""
    held(graph := _let_go(x_row, y_rows, y_grad))
    return graph


def _let_go(x_row: list[float], y_rows: list[list[float]], y_grad: bool = False):
    """``_graph``'s x, y and loss, not held: freed once the probe lets go of them."""
    x = [[Value(v, requires_grad=True) for v in x_row]]
    y = [[Value(v, requires_grad=y_grad) for v in row] for row in y_rows]
    return x, y, micrograph.mm(x, y)


def _x_grads(x: list[list[Value]], name: str = "x") -> list[dict[str, Any]]:
    return [grad_of(leaf, f"{name}[0][{k}].grad") for k, leaf in enumerate(x[0])]


def _floats(xs: object, label: str) -> list[dict[str, Any]] | None:
    """The type of each number of a list returned where the statement asks for floats (a Value
    kept is told as one); a result that is no list is told by the result itself."""
    return [float_of(x, f"{label}[{k}]") for k, x in enumerate(xs)] if type(xs) is list else None


CALL_LETTERS = "abcdefg"


def _named(count: int) -> list[str]:
    """The names of a test's calls' inputs: x and loss for one call; x_a, loss_a, x_b, loss_b ...
    for several, so that each sentence names the call its entry belongs to (by a letter: a
    digit, as in x4, would read as a number the feedback gives away)."""
    return [""] if count == 1 else [f"_{CALL_LETTERS[n]}" for n in range(count)]


BUILD_FEEDBACK = ("x is [[...]], one row of new leaves that require grad; y is a list of rows of "
                  "Values that do not; loss = micrograph.mm(x, y), and no backward yet.")
BUILD_KEYS = {
    "x": "x must be one row [[...]] of new leaves Value(v, requires_grad=True)",
    "y": "y's entries are plain Values: the documents' y does not require grad",
    "loss": "loss = micrograph.mm(x, y): one row with an entry per column of y, each a sum of "
    "products of x's entries",
    "call": "build only builds the graph: no backward yet",
}


@EXERCISE.test("build makes loss = mm(x, y)", points=2, public=True, feedback=BUILD_FEEDBACK,
               key_feedback=BUILD_KEYS)
def build_public(sub):
    return {**by_key([built(sub, x_row, y_rows) for x_row, y_rows in (SQUARE[0], OTHER_SHAPES[1])]),
            "apart": built_apart(sub, SQUARE[0], SQUARE[1])}


@EXERCISE.test("build on other shapes", points=1, feedback=BUILD_FEEDBACK, key_feedback=BUILD_KEYS)
def build_hidden(sub):
    cases = (SQUARE[1], *OTHER_SHAPES[::2], SQUARE[1], EQUAL_ENTRIES, EQUAL_COLUMNS)  # the first again, then equal
    # entries of x, then of y: new Values for each
    return {**by_key([built(sub, x_row, y_rows) for x_row, y_rows in cases]),
            "apart": built_apart(sub, SQUARE[1], SQUARE[0])}


def _vjp(sub, x_row, y_rows, v: list[float], y_grad: bool = False, n: str = "") -> dict[str, Any]:
    """One call of vjp on the probe's own graph, its inputs named x{n}, loss{n} and v{n}."""
    x, y, loss = _graph(x_row, y_rows, y_grad)
    given = list(v)  # the caller's list, read again after the call: vjp only reads it
    with given_returns(sub, "x_grads", given_x_grads) as kept, \
            watching(sub, "vjp", started_from=loss[0], grad_numbers=True) as call:
        grads = sub.vjp(x, loss, v)
    label = f"vjp(x{n}, loss{n}, v{n})"
    returned = as_list(grads, num)  # not a list: told as vjp's result, once
    out = {"returned": result_of(returned, label),  # a list in another order than x[0] is told as such
           "floats": _floats(grads, label), "read": read_from_grad(grads, call, label),
           "x_grads": [{**fact, **kept.changed_by(leaf)} for fact, leaf in zip(_x_grads(x, f"x{n}"), x[0])],
           "call": {**call.fact, "by_backward": call.by_backward},  # a pass of grad() writes no .grad: told so
           "given_kept": kept.read_fact({**call.probe_held, **call.hook_numbers}),
           "given": check(Check.GAVE_V, _gave(call.root_grads, v), label), "v_kept": list_kept(v, given, label, "v")}
    if y_grad:
        out["y_grads"] = entries(y, f"y{n}", lambda v, label: grad_of(v, f"{label}.grad"))
    out["hooks"] = appended_later(grads, x[0], label, f"x{n}")  # last: it writes x's .grad
    return out


def _gave(passes: list[tuple[float, ...]], v: list[float]) -> bool | None:
    """Whether the one backward pass started from the gradient v (given as [v]); None when there
    was not exactly one pass (told by the call's own fact)."""
    return passes[0] == tuple(v) if len(passes) == 1 else None


def _vjps(sub, cases: list[tuple[tuple[list[float], list[list[float]]], list[float]]],
          y_grad: bool = False) -> dict:
    """``_vjp`` of each ((x_row, y_rows), v), each call's inputs named apart."""
    return by_key([_vjp(sub, x_row, y_rows, v, y_grad, n)
                   for ((x_row, y_rows), v), n in zip(cases, _named(len(cases)))])


VJP_FEEDBACK = ("Backpropagate once, passing v in loss's shape, [v], as the gradient: "
                "micrograph.backward(loss, [v]); then read x's gradients.")
VJP_KEYS = {
    "returned": "return x's gradients, as written by that one backward",
    "read": "read x's gradients from .grad (leaf.grad.item()), not computed",
    "x_grads": "let backward write x's .grad: one pass from every entry of loss at once, "
    "with the gradient [v]",
    "y_grads": "one backward from loss reaches every leaf that requires grad, y's too",
    "call": "one backward pass, from all of loss at once, with the gradient [v]",
    "v_kept": "read the list v you are given; leave it as it is",
}


@EXERCISE.test("v times the Jacobian", points=1, public=True, feedback=VJP_FEEDBACK,
               key_feedback=VJP_KEYS)
def vjp_public(sub):
    return _vjps(sub, [(SQUARE[0], [0.5, 2.0]), (OTHER_SHAPES[2], [1.0, -1.0, 2.0])])


@EXERCISE.test("a gradient vector gives v times the Jacobian", points=2, feedback=VJP_FEEDBACK,
               key_feedback=VJP_KEYS)
def vjp_vectors(sub):
    cases = [(SQUARE[0], [1.0, 0.0]), (SQUARE[0], [1.0, 1.0]), (SQUARE[1], [2.0, -0.5]),
             (OTHER_SHAPES[0], [0.0, 3.0]), (OTHER_SHAPES[1], [1.0, -1.0, 0.5, 2.0]), (SQUARE[1], [0.0, 0.0])]
    return {**_vjps(sub, cases),
            "apart": calls_apart(sub, _vjp_again, lambda grads: as_list(grads, num), cases[2],
                                 cases[3], "vjp"),
            "freed": answer_at_a_freed_id(sub, lambda: _let_go(*SQUARE[1]), lambda: _let_go(*SQUARE[0]),
                                          lambda m, g: m.vjp(g[0], g[2], [1.0, -0.5]), lambda grads: as_list(grads, num),
                                          "vjp", "vjp(x, loss, v)")}


def _vjp_again(sub, case: tuple[tuple[list[float], list[list[float]]], list[float]]) -> object:
    """vjp on a new graph of ``case`` ((x_row, y_rows), v), for ``calls_apart``."""
    (x_row, y_rows), v = case
    x, _, loss = _graph(x_row, y_rows)
    return sub.vjp(x, loss, v)


@EXERCISE.test("y gets its gradient too when it requires grad", points=1, public=True,
               feedback=VJP_FEEDBACK, key_feedback=VJP_KEYS)
def vjp_y_grad(sub):
    cases = [(SQUARE[1], [1.0, 1.0]), (OTHER_SHAPES[0], [2.0, -1.0])]
    return _vjps(sub, cases, y_grad=True)


def _rows(sub, x_row, y_rows, zero_between: bool, n: str = "", label: str = "") -> dict[str, Any]:
    """One call of jacobian_rows on the probe's own graph, its inputs named x{n} and loss{n} (or its ``label``)."""
    x, _, loss = _graph(x_row, y_rows)
    with given_returns(sub, "x_grads", given_x_grads) as kept, \
            watching(sub, "jacobian_rows", started_from=loss[0], grad_numbers=True, clears=True,
                     retain_graph=True) as call:  # retain_graph: which passes kept the graph
        rows = sub.jacobian_rows(x, loss, zero_between)  # an error is the student's own
    label = label or f"jacobian_rows(x{n}, loss{n}, {zero_between})"
    earlier = rows[:-1] if type(rows) is list else rows  # the last row is read after the last pass anyway
    floats = [_floats(row, f"{label}[{j}]") for j, row in enumerate(rows)] if type(rows) is list else None
    hooked = handed_to_hooks(rows, call, {f"x{n}[0][{k}]": leaf for k, leaf in enumerate(x[0])})  # a hook's records
    one_list = _one_list(rows)  # rows that are one list: told so wherever the rows differ, zeroed or not
    jacobian = [list(map(float, column)) for column in zip(*y_rows)]  # row j of d loss / d x: y's column j
    read = read_from_grad(rows, call, label)
    return {"rows": {**result_of(matrix(rows, num), label), **hooked, CONTEXT + "rows_one_list": one_list},
            "floats": floats, "given_kept": kept.read_fact({**call.probe_held, **call.hook_numbers}),
            "read": read,
            "per_leaf": read_per_leaf(rows, call, x[0], [f"x{n}[0][{k}]" for k in range(len(x[0]))], label),
            "in_turn": read_in_turn(earlier, x[0], label, rows=True, rows_one_list=one_list),
            "x_grads": [{**fact, CONTEXT + "cleared_before_backward": call.cleared_between(leaf)}  # zeroed before
                        for fact, leaf in zip(_x_grads(x, f"x{n}"), x[0])],  # each backward, not after
            "call": _last_pass_kept({**{(CONTEXT + k if k == "cleared_between" else k): v for k, v in call.fact.items()},
                                     "by_backward": call.by_backward}),  # a pass of grad() writes no .grad: told so
            # the gradients the code gives its passes, whichever call shows it: one label for every call
            "one_hot": one_hot_facts(call.root_grads, f"jacobian_rows(x, loss, {zero_between})",
                                     zero_between and matrix(rows, num) == jacobian, tuple(v.item() for v in loss[0])),
            "uncleared": _uncleared(rows, call, x[0], read, label),
            "hooks": appended_later(rows, x[0], label, f"x{n}")}  # last: it writes x's .grad


def _one_list(rows: object) -> bool:
    """Whether two rows returned are one list object (``[[0.0] * n] * m``, or one list appended again)."""
    listed = [row for row in rows if type(row) is list] if type(rows) is list else []
    return len({id(row) for row in listed}) < len(listed)


def _last_pass_kept(fact: dict[str, Any]) -> dict[str, Any]:
    """A jacobian_rows CALL fact whose kept graphs are the last pass's alone: the statement keeps the
    graph for every pass but the last, and a pass that frees it early raises in the next (told as
    raised), or frees a graph no later pass needs (``loss[0][j].backward()``, changing nothing); one
    that keeps it on the last pass leaves mm's saved operands alive after the call returns (``~last_pass``)."""
    return {**fact, CONTEXT + "last_pass": True, **{key: fact[key][-1:] for key in ("kept_graph", CONTEXT + "created_graph")
                                                   if type(fact.get(key)) is list}}


def _uncleared(rows: object, call: Call, leaves: list[Value], read: dict[str, Any], label: str) -> dict[str, Any]:
    """The RECORDED_UNCLEARED fact of the rows (``_some_uncleared``); ``~rows_kept`` where their zeros are the
    engine's, yet the code read x's .grad only before zeroing it: the rows kept the .grad Values, or Values
    sharing their numbers (``.grad.data``), which the zeroing changed in place, and read them later;
    ``~rows_zeroed`` where no leaf's .grad was ever zeroed (the code zeroed its own records instead)."""
    uncleared = _some_uncleared(rows, call)
    zeroed_elsewhere = uncleared is False and bool(leaves) and all(call.never_cleared(leaf) for leaf in leaves)
    kept = uncleared is False and read.get("holds") is True and not any(call.read_cleared(leaf) for leaf in leaves)
    return {**check(Check.RECORDED_UNCLEARED, uncleared, label), CONTEXT + "rows": True,
            **({CONTEXT + "rows_zeroed": True} if zeroed_elsewhere else {CONTEXT + "rows_kept": True} if kept else {})}


def _some_uncleared(rows: object, call: Call) -> bool | None:
    """Whether some number of the rows returned is not 0, or is a 0 a backward pass wrote (a pass
    given zeros writes them): all of them are, read from gradients already zeroed, where each
    is a 0 no pass wrote.  None for what is no list of rows."""
    if type(rows) is not list or not all(type(row) is list for row in rows):
        return None
    numbers = [v.item() if isinstance(v, Value) else v for row in rows for v in row]
    return any(num(v) != 0.0 or call.pass_wrote(v) for v in numbers)


def _rows_of(sub, cases: list[tuple[list[float], list[list[float]]]], zero_between: bool) -> dict:
    """``_rows`` of each case, each call's inputs named apart, and whether the call read
    zero_between the right way round (judged on the first case)."""
    return {**by_key([_rows(sub, x_row, y_rows, zero_between, n)
                      for (x_row, y_rows), n in zip(cases, _named(len(cases)))]),
            "flag": _zero_between_read(sub, cases[0], zero_between)}


def _zero_between_read(sub, case: tuple[list[float], list[list[float]]], flag: bool) -> dict[str, Any]:
    """The CHECK fact: jacobian_rows with zero_between=True and False, each on a new graph, does
    not leave x's gradients kept by True and zeroed by False (the flag read the other way round),
    nor, in a test of ``flag`` False, zeroed by both (``~always``), nor, in a test of ``flag`` True,
    left by both as backward wrote them with the same rows returned (``~never``: the flag not read;
    a loop that zeroes before each later pass, not after the last, returns other rows for True and
    is told by that); unseen (``~raised_true``, ``~raised_false``) where a call raises.  Not judged
    where an entry of y is zero (a kept gradient could read as zeroed)."""
    if any(v == 0.0 for row in case[1] for v in row):
        return check(Check.ZERO_BETWEEN_READ, None, "jacobian_rows")
    zeroed, kept, returned = {}, {}, {}
    for zero_between in (True, False):
        x, _, loss = _graph(*case)
        try:  # in a fresh import: rows kept between calls neither change nor see these calls
            returned[zero_between] = matrix((fresh_copy(sub) or sub).jacobian_rows(x, loss, zero_between), num)
        except Exception:  # noqa: BLE001 - the student's error: the tests of that flag tell it
            unseen = "raised_true" if zero_between else "raised_false"
            return {**check(Check.ZERO_BETWEEN_READ, False, "jacobian_rows"), CONTEXT + unseen: True}
        zeroed[zero_between] = all(type(v.grad) is Value and v.grad.item() == 0.0 for v in x[0])
        kept[zero_between] = all(type(v.grad) is Value and v.grad.item() != 0.0 for v in x[0])
    always = zeroed[False] and zeroed[True] and not flag
    never = kept[False] and kept[True] and flag and returned[True] == returned[False]
    return {**check(Check.ZERO_BETWEEN_READ, not (zeroed[False] and not zeroed[True]) and not always and not never,
                    "jacobian_rows"), CONTEXT + "always": always, CONTEXT + "never": never}


ROWS_FEEDBACK = ("For each entry j of loss, backpropagate with the one-hot gradient "
                 "[[0, .., 1, .., 0]] keeping the graph (retain_graph=True) for the calls still "
                 "to come, record x's gradients, then, if zero_between, zero them with "
                 "leaf.grad.zero_().")
ROWS_KEYS = {
    "read": "each record is read from x's .grad (leaf.grad.item()), not computed",
    "x_grads": "let backward write x's .grad, and zero it in place (leaf.grad.zero_()) only "
    "when zero_between is True",
    "call": "one backward per entry of loss, each with its one-hot gradient",
    "default": "zero_between left out is zero_between=True, as in the stub's signature",
    "default_after": "zero_between left out is zero_between=True whatever an earlier call passed: keep no choice between calls",
}


def _rows_run(case: tuple[list[float], list[list[float]]]) -> Callable[..., object]:
    """``run(module, *zero_between)``: the module's jacobian_rows on a new graph of ``case``,
    zero_between passed or left out, the call the probes of its default make on each module."""
    def run(module: Any, *zero_between: bool) -> object:
        x, _, loss = _graph(*case)
        return module.jacobian_rows(x, loss, *zero_between)
    return run


def _zero_between_default(sub, case: tuple[list[float], list[list[float]]]) -> dict[str, Any]:
    """The DEFAULT_KEPT fact of jacobian_rows' zero_between: left out, as in the documents'
    experiment, it zeroes between the passes (the stub's ``zero_between=True``)."""
    run = _rows_run(case)
    return default_kept(sub, run, lambda module: run(module, True), lambda rows: matrix(rows, num),
                        N_("jacobian_rows(x, loss) (zero_between left out)"))


def _zero_between_after(sub, case: tuple[list[float], list[list[float]]]) -> dict[str, Any]:
    """The DEFAULT_KEPT fact of jacobian_rows with zero_between left out after a call that passed False
    (``defaults.default_after``): a choice kept from the last call adds the rows up where the default zeroes."""
    run = _rows_run(case)
    return default_after(sub, run, lambda rows: matrix(rows, num), N_("jacobian_rows(x, loss) (zero_between left out)"),
                         [Earlier("jacobian_rows", "zero_between", lambda module: run(module, False),
                                  lambda module: run(module, True))])


@EXERCISE.test("one Jacobian row per backward", points=2, public=True, feedback=ROWS_FEEDBACK,
               key_feedback=ROWS_KEYS)
def rows_public(sub):
    return {**_rows_of(sub, SQUARE, True), "default": _zero_between_default(sub, SQUARE[0])}


@EXERCISE.test("Jacobian rows for other shapes", points=2, feedback=ROWS_FEEDBACK,
               key_feedback=ROWS_KEYS)
def rows_shapes(sub):
    return {**_rows_of(sub, OTHER_SHAPES, True), "equal": _rows(sub, *EQUAL_ENTRIES, True),
            "columns": _rows(sub, *EQUAL_COLUMNS, True, label=f"jacobian_rows(x, loss, True) ({COLUMNS_NOTE})"),
            "losses": _rows(sub, *EQUAL_LOSSES, True, label=f"jacobian_rows(x, loss, True) ({LOSSES_NOTE})"),
            "apart": calls_apart(sub, _rows_again, lambda rows: matrix(rows, num), OTHER_SHAPES[0],
                                 SQUARE[1], "jacobian_rows"),
            "default_after": _zero_between_after(sub, OTHER_SHAPES[0]),
            "freed": answer_at_a_freed_id(sub, lambda: _let_go(*SQUARE[1]), lambda: _let_go(*SQUARE[0]),
                                          lambda m, g: m.jacobian_rows(g[0], g[2], True), lambda rows: matrix(rows, num),
                                          "jacobian_rows", "jacobian_rows(x, loss, True)")}


def _rows_again(sub, case: tuple[list[float], list[list[float]]]) -> object:
    """jacobian_rows (zeroing) on a new graph of ``case`` (x_row, y_rows), for ``calls_apart``."""
    x, _, loss = _graph(*case)
    return sub.jacobian_rows(x, loss, True)


@EXERCISE.test("rows without zeroing", points=1, public=True, feedback=ROWS_FEEDBACK,
               key_feedback=ROWS_KEYS)
def rows_not_zeroed_public(sub):
    return _rows_of(sub, [SQUARE[1]], False)


@EXERCISE.test("without zeroing the records add up", points=2, feedback=ROWS_FEEDBACK,
               key_feedback=ROWS_KEYS)
def rows_not_zeroed(sub):
    return _rows_of(sub, [SQUARE[0]] + OTHER_SHAPES[:2], False)


@EXERCISE.diagram
def draw(sub):
    g = sub.build([1.5, -0.5], [[2.0, 1.0], [0.5, -1.0]])
    x, loss = g["x"], g["loss"]
    row = loss[0] if type(loss) is list and loss and type(loss[0]) is list else loss  # loss's row,
    rows = type(x) is list and bool(x) and type(x[0]) is list  # x's row, or the row build returned as x
    xs = x[0] if rows else x if type(x) is list else []
    names = {**{f"x{k}": v for k, v in enumerate(xs)},  # or the row build returned as loss: as
             **{f"loss{k}": v for k, v in enumerate(row)}}  # many as build made, drawn as they are
    show(row, names)  # drawn as built if the backward calls fail
    # no matrix to backpropagate row by row, an entry no graph records (made under no_grad), or an x
    # that is not the leaves loss's graph holds: the tests tell what build returned; jacobian_rows
    # run on it would raise for build's slip (x_grads reading a .grad no pass wrote)
    recorded = all(isinstance(v, Value) and v.requires_grad for v in flat(loss))
    leaves = {id(v) for v in graph_leaves(flat(loss))}
    if row is loss or not rows or not recorded or not all(id(v) in leaves for v in xs):
        return row, names
    with watching(sub, "jacobian_rows", grad_numbers=True) as call:  # the diagram runs first:
        sub.jacobian_rows(x, loss)
    remember(call)  # a later test's call that returns these numbers returns kept state
    return row, names
