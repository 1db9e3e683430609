"""ex16 build_value: the student's own Value records grad_fn, next_functions, is_leaf and
requires_grad as PyTorch does.

Each probe builds a graph with the student's ``Value`` and observes, node by node, what PyTorch shows on one-element
tensors (``grader.spec.build``); the expected answers are the reference engine's, PyTorch's (``test_build_track.py``).
"""

from __future__ import annotations

from typing import Any, Callable

from micrograph.i18n import N_

from grader.spec import Exercise
from grader.spec.build import MissingMethod, claim, described, documents_drawn, fact, operand, regroup
from grader.spec.build_reads import edge_node
from grader.spec.build_flags_set import flag_set, fresh_leaf, inputs_kept
from grader.spec.build_edges import (accumulator_name, apart, count, flag_back_on, leaf_edge, one_accumulator,
                                      rebuilt, renewed, second_edge)
from grader.spec.build_operands import (given_itself, names_swapped, number_made, saved_a_value, through_record,
                                         unrecorded_after)
from grader.spec.number_operand import number_operand_told
from grader.spec.probe import by_key
from grader.spec.saved import kept_apart, nodes_apart, saved_as, saved_operands, with_zero

EXERCISE = Exercise("ex16", "Build an engine: values that record their graph",
                    module="ex16_build_value", rules=True, own_engine=True)

KEYS = {
    "data": "a result holds the number its operation computes",
    "grad_fn": "an operation with an input that requires grad records a node, named as PyTorch "
               "names it: AddBackward0 for +, MulBackward0 for *",
    "recorded_some": "an operation records a node as soon as one of its inputs requires grad, whatever the others "
                     "(recording(*inputs) is True then), named as PyTorch names it: AddBackward0 for +, "
                     "MulBackward0 for *",
    "recorded_zero": "an operation with an input that requires grad records a node whatever the numbers: a product "
                     "with a factor that is 0 is recorded as any other, its edges and saved operands too",
    "unrecorded_after": "whether an operation records a node depends on its own inputs alone: recording keeps nothing "
                        "between calls, so an operation none of whose inputs requires grad records nothing, whatever "
                        "was recorded before it",
    "unrecorded": "an operation none of whose inputs requires grad records nothing: its result's "
                  "grad_fn stays None",
    "leaf_grad_fn": "a leaf, made by Value(...), has no grad_fn",
    "operand_data": "an operation leaves its operands as they were: a leaf holds the number it was made with, whatever "
                    "operations use it",
    "next_functions": "a node's next_functions holds an entry for an input that requires no grad (a "
                      "Python number too) as well: (None, 0), in that input's place",
    "leaf_edge": "a leaf that requires grad has the entry (its AccumulateGrad, 0) in next_functions, beside an input "
                 "that requires no grad too (gradient_edge gives it): (None, 0) is the entry of an input that requires "
                 "no grad alone",
    "grad_edges": "a node's next_functions holds one (node, 0) per input, in input order: the "
                  "input's grad_fn, or a leaf's AccumulateGrad",
    "accumulator_name": "a leaf's AccumulateGrad is named as PyTorch names its node: by the name() the AccumulateGrad "
                        "class you were given returns",
    "is_leaf": "a value is a leaf exactly when no recorded operation made it",
    "requires_grad": "a result requires grad when one of its inputs does",
    "saved": "MulBackward0 saves only what its backward needs: the other operand (\"other\") when "
             "self requires grad, self (\"self\") when the other operand does, and no more",
    "add_saved": "AddBackward0 saves nothing: its backward passes the gradient on to each input as it is, "
                 "needing neither operand (PyTorch's AddBackward0 has no _saved_self or _saved_other)",
    "saved_names": "MulBackward0 saves each operand under its own name, self as \"self\" and other as \"other\": its "
                   "backward reads \"other\" for self's gradient and \"self\" for other's",
    "saved_itself": "MulBackward0 saves the operand itself, the very Value it was given, neither its number nor a new "
                    "Value made of it: PyTorch's y.grad_fn._saved_other is b itself, for y = a * b",
    "own_saved": "each node keeps what it saves in a dict of its own, self.saved, made by the given Node.__init__: "
                 "one dict shared by several nodes holds what every one of them saved",
    "saved_zero": "MulBackward0 saves the operand its backward needs whatever that operand's number: a factor "
                  "that is 0 is saved as any other (ex20 frees it, ex21 checks its version)",
    "again": "a node's next_functions holds the edges of its own inputs only, however many operations "
             "were recorded before: record keeps nothing between calls",
    "reordered": "a node's next_functions holds its inputs' entries in input order, the same order each time a graph is "
                 "built: an order that changes from one build to the next is not the inputs' order in every build",
    "one_accumulator": "gradient_edge must give a leaf the same AccumulateGrad node every time: make it "
                       "once and keep it on the leaf",
    "new_node": "every operation gets a node of its own from record, as in PyTorch: two operations on the "
                "same inputs have two nodes, each with its own saved operands; a node kept between calls is "
                "an earlier operation's",
    "tuples": "a node's next_functions is a tuple of one (node, 0) tuple per input, as PyTorch's is",
    "saved_value": "MulBackward0 saves a Python number as the Value as_value made of it (PyTorch's "
                   "(w * 3).grad_fn._saved_other is a tensor): ex17's apply reads what was saved with item()",
    "own_accumulator": "each leaf has an AccumulateGrad of its own, whose .variable is that leaf: a node "
                       "found by the leaf's number, or kept from an earlier leaf, belongs to another leaf",
    "new_value": "every operation makes a new Value with a node of its own, whatever the numbers: w + 0 and w * 1 "
                 "hold w's number, yet are new values, never w itself",
    "new_constant": "every operation makes a new Value, whether it records a node or not: c + 0 and c * 1 of a c "
                    "that requires no grad hold c's number, yet are new values, never c itself",
    "inputs_kept": "an operation leaves its inputs as they were: it sets requires_grad on the result it makes, never on "
                   "an input, so a Value made with requires_grad=False keeps it False whatever it is used in",
    "number": "a Python number in an operation is a constant: made a Value, it requires no grad, whatever the "
              "other input does, so it gets no AccumulateGrad and its entry in next_functions is (None, 0)",
    "flag_set": "a leaf's edge follows its requires_grad as it is when the operation runs, however it was set: "
                "set True after the leaf was made, the leaf gets its AccumulateGrad then; set False, its entry is "
                "(None, 0), whatever node it had before",
    "kept_accumulator": "a leaf keeps its AccumulateGrad for its whole life, whatever its requires_grad is set to "
                        "meanwhile: switched off, then on again, it is reached through the node it had before",
    "second_operand": "+ and * record an edge to each of their two inputs, self and other: a node whose second edge "
                      "leads to its first input's node was handed that input for both",
    "through_record": "+ and * make every result through record, one with a Python number too (as_value makes the "
                      "number a Value): record gives the result its node whenever recording is True for the inputs",
    "operand_itself": "+ and * hand record the very Values they are given (as_value leaves a Value as it is): a new "
                      "Value made from one, such as Value(w), requires no grad, so the node's edge for it is (None, 0) "
                      "and no gradient can reach the operand",
}


RECORDED, UNRECORDED, LEAF = "grad_fn", "unrecorded", "leaf_grad_fn"  # what made a value: its grad_fn's key
RECORDED_SOME = "recorded_some"  # ... an operation of which only some inputs require grad
RECORDED_ZERO = "recorded_zero"  # ... a product with a factor the program makes 0
MADE_BY = (RECORDED, RECORDED_SOME, RECORDED_ZERO, UNRECORDED, LEAF)


def _made(v: object, label: str, made_by: str, all_grad: bool = False, when: str = "") -> dict[str, Any]:
    """``described``, its grad_fn keyed by what made the value (``RECORDED``: an operation with
    an input that requires grad; ``RECORDED_SOME``: one with an input that does not as well, which
    a ``recording`` that asks all inputs leaves unrecorded; ``UNRECORDED``: one without; ``LEAF``), which the probe knows
    from the program it runs: a grad_fn that differs then brings the rule of that case alone.
    Likewise the edges of an operation whose inputs all require grad (``all_grad``) bring the
    rule without (None, 0), which no input of theirs has, and those of one with an input that
    requires no grad the rule of that input's (None, 0) alone.  ``when`` names the program's numbers
    where they matter (``with a = 0``: a product of a zero factor, ``RECORDED_ZERO``)."""
    some = made_by == RECORDED and not all_grad  # recording must look at any input, not all
    keys = {"grad_fn": RECORDED_SOME if some else made_by, "next_functions": "grad_edges" if all_grad else "next_functions",
            "data": "operand_data" if made_by == LEAF else "data"}  # a leaf's number changed: by an operation on it
    return {keys.get(key, key): seen for key, seen in described(v, label, when).items()}


Kept = tuple[str, str, str, Any]  # a product, what its node saves ("self", "other"), that operand's code and Value


def _saved(made: dict[str, object], kept: list[Kept], zeros: tuple[str, ...] = ()) -> dict[str, list[Any]]:
    """Which operands each product's node saved, as PyTorch shows them, and ``_itself``.  An
    operand the program makes 0 (``zeros``, by its code) is told under ``saved_zero``, with its
    product's list, their labels naming it: a node that saves nothing for a zero factor ("its
    gradient is 0 anyway") is told that PyTorch saves it whatever its number, not the rule of
    saving no more than backward needs."""
    told: dict[str, list[Any]] = {"saved": [], "saved_zero": []}
    for label, v in made.items():
        zero = [code for of, _, code, _ in kept if of == label and code in zeros]
        said = with_zero(zero, f"the list of operands that {operand(label)}.grad_fn saved")
        told["saved_zero" if zero else "saved"].append(fact(saved_operands(getattr(v, "grad_fn", None)), said))
    itself = _itself(made, kept, zeros)
    return {**told, "saved_itself": itself["saved_itself"], "saved_zero": told["saved_zero"] + itself["saved_zero"],
            "saved_names": names_swapped(made, kept)}


def _added(made: dict[str, object]) -> dict[str, list[Any]]:
    """Which operands each sum's node saved, as PyTorch shows them: none (its backward needs
    neither), where a node that keeps them holds them alive until ex20's release."""
    return {"add_saved": [fact(saved_operands(getattr(v, "grad_fn", None)),
                               f"the list of operands that {operand(label)}.grad_fn saved") for label, v in made.items()]}


def _itself(made: dict[str, object], kept: list[Kept], zeros: tuple[str, ...] = ()) -> dict[str, list[Any]]:
    """Whether what a product's node saved of an operand that is a Value is that Value itself, as
    PyTorch's ``y.grad_fn._saved_other is b``: a number saved instead (``other.item()``) gives
    ex17's backward what it needs today, yet nothing ex20 can free nor ex21 check by version.
    An operand the program makes 0 (``zeros``) is told under ``saved_zero``."""
    told: dict[str, list[Any]] = {"saved_itself": [], "saved_zero": []}
    for label, name, code, value in kept:
        zero = [code] if code in zeros else []
        said = with_zero(zero, f"{operand(label)}.grad_fn saved {operand(code)} itself as \"{name}\"")
        told["saved_zero" if zero else "saved_itself"].append(
            claim(saved_as(getattr(made[label], "grad_fn", None), name) is value, said))
    return told


# a node recorded, or not, or under another name: its result's edges, flags and saved operands differ
# with it, and the rules about those would blame the wrong part; so does a result's requires_grad
# for the (None, 0) that stands for it as an input and for what a product saves of it
CAUSED_BY = {key: MADE_BY for key in ("next_functions", "grad_edges", "is_leaf", "requires_grad", "saved", "saved_itself",
                                      "add_saved")}
CAUSED_BY["next_functions"] += ("requires_grad",)
CAUSED_BY["saved"] += ("requires_grad", "own_saved", "new_node")  # one saved dict shared; an earlier operation's node
CAUSED_BY["saved_itself"] += ("requires_grad", "saved", "new_node", "own_saved")  # an operand not saved at all: the rule of what is saved
CAUSED_BY["next_functions"] += ("again", "reordered")  # edges piled up by earlier calls: that rule alone
CAUSED_BY["grad_edges"] += ("again", "reordered")
CAUSED_BY["one_accumulator"] = ("again",)
CAUSED_BY["tuples"] = MADE_BY  # no node: no next_functions at all
CAUSED_BY[RECORDED] = (RECORDED_SOME,)
CAUSED_BY[RECORDED_ZERO] = (RECORDED, RECORDED_SOME)  # recording wrong whatever the numbers: that rule alone  # an input not recorded, so requiring no grad: the rule of recording's any
CAUSED_BY["grad_edges"] += ("own_accumulator", "tuples")  # an edge to another leaf's node; edges in no tuple
CAUSED_BY["next_functions"] += ("tuples",)  # edges in no tuple (a generator): the tuple's rule alone
CAUSED_BY["own_accumulator"] = ("again",)
CAUSED_BY["next_functions"] += ("number",)  # a number made a Value that requires grad: that rule alone
CAUSED_BY["saved"] += ("number",)
CAUSED_BY["saved_itself"] += ("number", "saved_names")  # the Value saved, under the other's name: that rule alone
CAUSED_BY["saved_zero"] = CAUSED_BY["saved_itself"] + ("saved_itself",)  # a zero factor told apart only where others are right
CAUSED_BY = {**CAUSED_BY, "add_saved": CAUSED_BY["add_saved"] + ("own_saved",), "saved_names": ("own_saved",)}
OPERAND_FOLLOWS = ("next_functions", "grad_edges", "requires_grad", "saved", "saved_itself", "saved_zero",
                   "one_accumulator", "own_accumulator", "is_leaf", RECORDED, RECORDED_SOME)
# an operand replaced by a new Value that requires no grad: its edge, what is saved of it, and recording follow
CAUSED_BY = {**CAUSED_BY, **{key: CAUSED_BY.get(key, ()) + ("operand_itself",) for key in OPERAND_FOLLOWS}}
# the first operand recorded twice: the edges, the (None, 0) of b = w + 1 and the leaves' nodes follow from it
CAUSED_BY = {**CAUSED_BY, **{key: CAUSED_BY.get(key, ()) + ("second_operand",)
                             for key in ("next_functions", "grad_edges", "one_accumulator", "own_accumulator")}}
CAUSED_BY["flag_set"] = MADE_BY + ("again", "tuples", "own_accumulator", "number", "requires_grad", "next_functions",
                                   "leaf_edge")
CAUSED_BY["kept_accumulator"] = CAUSED_BY["flag_set"] + ("flag_set", "one_accumulator")
CAUSED_BY["leaf_edge"] = CAUSED_BY["next_functions"]  # w's entry as (None, 0) beside a constant's: that rule alone
CAUSED_BY[UNRECORDED] = CAUSED_BY.get(UNRECORDED, ()) + ("unrecorded_after",)  # a flag kept on: that rule alone
# + or * that leaves record out where recording is right: its grad_fn, edges, leaf and saved operands follow
CAUSED_BY = {**CAUSED_BY, **{key: CAUSED_BY.get(key, ()) + ("through_record",) for key in OPERAND_FOLLOWS + ("leaf_edge",)}}
CAUSED_BY["next_functions"] += ("leaf_edge",)
# an input marked as requiring grad by the operation: its edges, flag and what is saved of it follow
CAUSED_BY = {**CAUSED_BY, **{key: CAUSED_BY.get(key, ()) + ("inputs_kept",)
                             for key in ("next_functions", "requires_grad", "saved", "saved_itself", "saved_zero",
                                         "leaf_edge", "flag_set")}}
CAUSED_BY = {**CAUSED_BY, **{key: CAUSED_BY[key] + ("accumulator_name",)  # a leaf's node misnamed in every edge to it
                             for key in ("next_functions", "grad_edges", "leaf_edge", "flag_set")}}
FEEDBACK = "Record each operation as PyTorch does: its node, its edges, and the flags of its result."


def _documents(sub: Any, w: float, x: float) -> dict[str, Any]:
    wl, xl = sub.Value(w, requires_grad=True), sub.Value(x, requires_grad=True)
    a = xl + wl
    b = wl + 1
    y = a * b
    zeros = tuple(code for code, made in (("a", x + w), ("b", w + 1)) if made == 0)  # the program's numbers
    by_zero = (RECORDED_ZERO, True, f"with {zeros[0]} = 0") if zeros else (RECORDED, True)
    nodes = regroup([_made(wl, "w", LEAF), _made(xl, "x", LEAF),
                     _made(a, "a", RECORDED, all_grad=True), _made(b, "b", RECORDED),
                     _made(y, "y", *by_zero)])
    nodes.setdefault(RECORDED_ZERO, [])  # a key of every program (``by_key`` takes the first program's keys)
    nodes["is_leaf"].append(fresh_leaf(sub))  # a leaf no operation used yet, which has no AccumulateGrad
    in_order = getattr(edge_node(a.grad_fn, 1), "variable", None) is wl  # leaves' edges alike by kind
    in_order = in_order or count(getattr(a.grad_fn, "next_functions", None)) is None  # no tuple: told as that
    nodes["grad_edges"].append(claim(in_order, N_("a.grad_fn.next_functions[1][0].variable is w")))
    nodes["second_operand"] = [claim(second_edge(a, xl), N_("a.grad_fn.next_functions[1][0] is not [0][0], x's "
                                                               "AccumulateGrad (a = x + w: an edge to each input)")),
                               claim(second_edge(y, a), N_("y.grad_fn.next_functions[1][0] is not [0][0], a.grad_fn "
                                                            "(y = a * b: an edge to each input)"))] if w != x else []
    own = [claim(apart(a), N_("with x and w two leaves of the same number, "
                               "a.grad_fn.next_functions[0][0] and [1][0] are two nodes"))] if w == x else []
    given = [given_itself(sub, a, "AddBackward0", "a", xl, wl), given_itself(sub, y, "MulBackward0", "y", a, b)]
    return {"own_saved": claim(kept_apart(a, b, y), SAVED_APART["documents"]), "number": [number_made(b, wl, "b")], "through_record": [through_record(sub, b, wl, 1.0, "b")], "leaf_edge": leaf_edge("b", b), "operand_itself": given, **nodes,
            "accumulator_name": accumulator_name(sub, wl, a, b),
            **_saved({"y": y}, [("y", "self", "a", a), ("y", "other", "b", b)], zeros), **_added({"a": a, "b": b}),
            "tuples": _tuples({"b": b, "y": y}),
            "own_accumulator": [*own, renewed(sub, w, x)],
            "one_accumulator": claim(one_accumulator(wl, a, b), N_("w's AccumulateGrad in "
                                              "a.grad_fn.next_functions is the one in b.grad_fn.next_functions"))}


SAVED_APART = {"documents": N_("a.grad_fn, b.grad_fn and y.grad_fn keep what they saved apart"),
               "numbers": N_("the nodes of 3 * w, w * 3, 2 + w, w + 6.5 and w * w keep what they saved apart"),
               "numbers_nodes": N_("3 * w, w * 3, 2 + w, w + 6.5 and w * w have a node each, five nodes"),
               "constants": N_("the nodes of c * w, w + c, (c * 3) * w and w * c keep what they saved apart")}
TUPLES = {"b": N_("b.grad_fn.next_functions is a tuple of (node, 0) tuples"),
          "y": N_("y.grad_fn.next_functions is a tuple of (node, 0) tuples"),
          "w * 3": N_("(w * 3).grad_fn.next_functions is a tuple of (node, 0) tuples"),
          "c * w": N_("(c * w).grad_fn.next_functions is a tuple of (node, 0) tuples"),
          "v5": N_("v5.grad_fn.next_functions is a tuple of (node, 0) tuples")}


def _tuples(made: dict[str, Any]) -> list[Any]:
    """Whether the edges of each node (b's with a (None, 0) among them) are tuples, as the
    statement shows them and PyTorch makes them: a list is no tuple, whatever it holds, and a
    generator none either (it can be read only once)."""
    def tuples(v: Any) -> bool:
        fn = getattr(v, "grad_fn", None)
        pairs = getattr(fn, "next_functions", None)
        return fn is None or type(pairs) is tuple and all(type(pair) is tuple for pair in pairs)  # no node: told so
    return [claim(tuples(v), TUPLES[label]) for label, v in made.items()]


@EXERCISE.test("the documents' graph y = (x + w) * (w + 1)", points=3, public=True,
               feedback=FEEDBACK, key_feedback=KEYS, caused_by=CAUSED_BY)
@number_operand_told
def documents_public(sub):
    return {**rebuilt(sub, 0.5, -3.0), **_documents(sub, 0.5, -3.0)}


@EXERCISE.test("the documents' graph on other inputs", points=2, feedback=FEEDBACK,
               key_feedback=KEYS, caused_by=CAUSED_BY)
@number_operand_told
def documents_hidden(sub):
    return {**rebuilt(sub, 2.0, 4.0), **by_key([_documents(sub, w, x) for w, x in [(2.0, 4.0), (0.0, 0.0), (-1.25, 2.5)]])}


# A number on the left: Python calls the Value's __rmul__ / __radd__, and raises TypeError itself
# when there is none that takes it (the error then comes from no line of the student's file).
NO_REFLECTED = {"*": N_("3 * w: your Value has no __rmul__ that takes a Python number on the left of *"),
                "+": N_("2 + w: your Value has no __radd__ that takes a Python number on the left of +")}


def _number_first(op: str, compute: Callable[[], Any]) -> Any:
    """``compute()`` (``3 * w``, ``2 + w``); a TypeError Python raised for want of a reflected
    method is told as that, naming the method, not as the test's own failure."""
    try:
        return compute()
    except TypeError as exc:
        innermost = exc.__traceback__
        while innermost is not None and innermost.tb_next is not None:
            innermost = innermost.tb_next
        if innermost is not None and innermost.tb_frame.f_code is compute.__code__:  # raised by Python at the operator
            raise MissingMethod(NO_REFLECTED[op]) from None
        raise


NEW_VALUE = {"0 + w": N_("0 + w is a new value"), "w + 0": N_("w + 0 is a new value"),  # "not w itself" would
             "w * 1": N_("w * 1 is a new value")}  # read as a double negation before "but not in your engine"


@EXERCISE.test("Python numbers on either side", points=2, feedback=FEEDBACK,
               key_feedback=KEYS, caused_by=CAUSED_BY)
@number_operand_told
def numbers(sub):
    w = sub.Value(1.5, requires_grad=True)
    made = {"3 * w": _number_first("*", lambda: 3 * w), "w * 3": w * 3, "2 + w": _number_first("+", lambda: 2 + w),
            "w + 6.5": w + 6.5, "w * w": w * w}
    products = {label: made[label] for label in ("3 * w", "w * 3", "w * w")}
    return {"own_saved": claim(kept_apart(*made.values()), SAVED_APART["numbers"]),
            "new_node": claim(nodes_apart(*made.values()), SAVED_APART["numbers_nodes"]),
            "through_record": [through_record(sub, made[code], w, n, code) for code, n in (("w + 6.5", 6.5), ("w * 3", 3.0))],
            **rebuilt(sub, 1.5, -1.0), "new_value": [claim(_number_first("+", lambda: 0 + w) is not w, NEW_VALUE["0 + w"]),
                                                            claim(w + 0 is not w, NEW_VALUE["w + 0"]),
                                                            claim(w * 1 is not w, NEW_VALUE["w * 1"])],
            "number": [number_made(made[label], w, label) for label in ("3 * w", "w * 3", "2 + w", "w + 6.5")],
            "leaf_edge": leaf_edge("numbers", *(made[label] for label in ("3 * w", "w * 3", "2 + w", "w + 6.5"))),
            "accumulator_name": accumulator_name(sub, w, *made.values()),
            "operand_itself": [given_itself(sub, made["w * w"], "MulBackward0", "w * w", w, w)],
            "saved_value": saved_a_value(made["w * 3"], made["3 * w"]),
            **regroup([_made(v, operand(label), RECORDED, all_grad=label == "w * w") for label, v in made.items()]),
            **_saved(products, [("w * w", "self", "w", w), ("w * w", "other", "w", w)]),
            **_added({label: made[label] for label in ("2 + w", "w + 6.5")}), "tuples": _tuples({"w * 3": made["w * 3"]})}


@EXERCISE.test("values that require no grad", points=2, feedback=FEEDBACK,
               key_feedback=KEYS, caused_by=CAUSED_BY)
@number_operand_told
def constants(sub):
    c = sub.Value(-2.0)
    w = sub.Value(0.75, requires_grad=True)
    c3 = c * 3
    made = {"c": c, "c * 3": c3, "c + c": c + c, "c * w": c * w, "w + c": w + c, "(c * 3) * w": c3 * w}
    products = {label: made[label] for label in ("c * w", "(c * 3) * w")}
    products["w * c"] = w * c
    made_by = {"c": LEAF, "c * 3": UNRECORDED, "c + c": UNRECORDED}
    twice = [c * w, c * w]  # both kept: one node shared between them would be an earlier operation's
    nodes = [getattr(v, "grad_fn", None) for v in twice]
    apart = kept_apart(*(made[label] for label in ("c * w", "w + c", "(c * 3) * w")), products["w * c"])
    return {"own_saved": claim(apart, SAVED_APART["constants"]), **rebuilt(sub, 0.75, -2.0), "operand_itself": [given_itself(sub, twice[0], "MulBackward0", "c * w", c, w)],
            **regroup([_made(v, operand(label), made_by.get(label, RECORDED)) for label, v in made.items()]),
            **_saved(products, [("c * w", "self", "c", c), ("(c * 3) * w", "self", "c * 3", c3),
                                ("w * c", "other", "c", c)]),
            **_added({"w + c": made["w + c"]}), "tuples": _tuples({"c * w": made["c * w"]}),
            "new_node": claim(None in nodes or nodes[0] is not nodes[1], TWICE), "flag_set": flag_set(sub),
            "kept_accumulator": flag_back_on(sub), "unrecorded_after": unrecorded_after(sub),
            "inputs_kept": inputs_kept(sub), "accumulator_name": accumulator_name(sub, w, made["c * w"]),
            "new_constant": [claim(c + 0 is c, "c + 0 is c, c = Value(-2)"), claim(c * 1 is c, "c * 1 is c, c = Value(-2)")],
            "leaf_edge": leaf_edge("constants", *(made[label] for label in ("c * w", "w + c", "(c * 3) * w")))}


TWICE = N_("c * w made twice, both results kept, has two nodes")
@EXERCISE.test("a chain and a leaf used many times", points=2, feedback=FEEDBACK,
               key_feedback=KEYS, caused_by=CAUSED_BY)
@number_operand_told
def chain(sub):
    w = sub.Value(0.5, requires_grad=True)
    x = sub.Value(-1.5, requires_grad=True)
    v, parts, given, made = w, [], [], []
    for i in range(6):
        v = v * x if i % 2 else v + w
        made.append(v)
        parts.append(_made(v, f"v{i}", RECORDED, all_grad=True))
        given = given or [given_itself(sub, v, "AddBackward0", "v0", w, w)]
    second = [claim(second_edge(made[1], made[0]), N_("v1.grad_fn.next_functions[1][0] is not [0][0], v0.grad_fn "
                                                       "(v1 = v0 * x: an edge to each input)")),
              claim(second_edge(made[2], made[1]), N_("v2.grad_fn.next_functions[1][0] is not [0][0], v1.grad_fn "
                                                       "(v2 = v1 + w: an edge to each input)"))]
    return {**rebuilt(sub, 0.5, -1.5), "operand_itself": given, **regroup(parts), "second_operand": second,
            "accumulator_name": accumulator_name(sub, w, *made),
            "tuples": _tuples({"v5": v}), "one_accumulator": claim(one_accumulator(x, w + x, v), N_(
        "x's AccumulateGrad in (w + x).grad_fn.next_functions is the one in v5.grad_fn.next_functions"))}


@EXERCISE.diagram
def draw(sub):
    return documents_drawn(sub, 1)
