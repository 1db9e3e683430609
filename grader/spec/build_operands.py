"""Whether an operation of a build-track engine records the operands it was given: a Python
number as a constant (a Value that requires no grad), a Value as itself.  ``grader.exercises.ex16``
tells each as a claim with a rule of its own, so that the edges and saved operands that differ
with it are not blamed on gradient_edge or on what MulBackward0 saves.
"""

from __future__ import annotations

from typing import Any

from micrograph.i18n import N_

from grader.spec.build import claim, operand
from grader.spec.build_reads import edge_node, flag, number
from grader.spec.held import held
from grader.spec.repeat import fresh_copy
from grader.spec.saved import saved_as

NUMBER_MADE = {
    "b": N_("the number 1 in b = w + 1 became a Value that requires grad, whose AccumulateGrad is in "
            "b.grad_fn.next_functions"),
    "3 * w": N_("the number 3 in 3 * w became a Value that requires grad, whose AccumulateGrad is in "
                "(3 * w).grad_fn.next_functions"),
    "w * 3": N_("the number 3 in w * 3 became a Value that requires grad, whose AccumulateGrad is in "
                "(w * 3).grad_fn.next_functions"),
    "2 + w": N_("the number 2 in 2 + w became a Value that requires grad, whose AccumulateGrad is in "
                "(2 + w).grad_fn.next_functions"),
    "w + 6.5": N_("the number 6.5 in w + 6.5 became a Value that requires grad, whose AccumulateGrad is in "
                  "(w + 6.5).grad_fn.next_functions"),
}


CONSTANT = {"b": 1.0, "3 * w": 3.0, "w * 3": 3.0, "2 + w": 2.0, "w + 6.5": 6.5}  # the number in each operation


def number_made(made: Any, leaf: Any, label: str) -> dict[str, Any]:
    """Whether an edge of ``made``'s node (``leaf`` and a Python number) leads to the
    AccumulateGrad of a Value that requires grad, other than ``leaf``, holding that number: the
    number made a Value that requires grad (``Value(other, requires_grad=self.requires_grad)``),
    where PyTorch's number requires no grad and has the edge (None, 0).  An AccumulateGrad of
    another Value (another leaf's, found by ``leaf``'s number in a cache) is not the number's,
    and a number's Value that requires no grad, yet has an AccumulateGrad, is another mistake:
    the edges and their rules tell both (the probes' leaves never hold the number)."""
    fn = getattr(made, "grad_fn", None)
    variables = [getattr(edge_node(fn, i), "variable", None) for i in range(2)]
    return claim(any(v is not None and v is not leaf and flag(getattr(v, "requires_grad", None)) is True
                     and number(v) == CONSTANT[label] for v in variables), NUMBER_MADE[label])


GIVEN_ITSELF = {
    "a": N_("the inputs a = x + w records are the Values x and w themselves"),
    "y": N_("the inputs y = a * b records are the Values a and b themselves"),
    "w * w": N_("the inputs w * w records are the Value w itself, twice"),
    "c * w": N_("the inputs c * w records are the Values c and w themselves"),
    "v0": N_("the inputs v0 = w + w records are the Value w itself, twice"),
}


def given_itself(sub: Any, made: Any, op: str, label: str, *inputs: Any) -> dict[str, Any]:
    """Whether ``made`` (an operation of ``inputs``, Values that require grad) has as many edges
    to a node as the student's own ``record``, handed those inputs, gives (counted: edges in
    another order are told by the edges' own rule, not as a copy): an
    operation that hands record a new Value made from an operand (``Value(other)`` for a Value
    too, ``other.data``) records one that requires no grad, with the edge (None, 0), though
    record and gradient_edge are right.  Holds wherever that cannot be seen: record missing (a
    torch engine), raising, or itself giving no such edge (then the edges' own rules tell it), or
    no node made at all where the same operation of other numbers records one (a product with a
    factor 0 left unrecorded: its grad_fn tells that, not copies of the operands)."""
    record, node = getattr(sub, "record", None), getattr(sub, op, None)
    if not callable(record) or node is None:
        return claim(True, GIVEN_ITSELF[label])
    try:
        direct = getattr(record(node, 0.0, *inputs), "grad_fn", None)
    except Exception:  # noqa: BLE001 - a record that raises is told by the operation's own facts
        return claim(True, GIVEN_ITSELF[label])
    fn = getattr(made, "grad_fn", None)
    if fn is None and _records_elsewhere(sub, op, inputs):  # a shortcut for these numbers: told by grad_fn
        return claim(True, GIVEN_ITSELF[label])
    edges = [sum(edge_node(node, i) is not None for i in range(len(inputs))) for node in (fn, direct)]
    return claim(edges[0] >= edges[1], GIVEN_ITSELF[label])  # counted: edges in another order are their own rule's


SAVED_A_VALUE = N_("the number 3 that (w * 3).grad_fn and (3 * w).grad_fn saved as \"other\" is a Value")


def saved_a_value(*made: Any) -> dict[str, Any]:
    """Whether the products of w and the number 3 (``made``) saved the number as a Value, as
    torch's ``_saved_other`` is a tensor: a node that saves the number as it was given (an int)
    leaves ex17's apply an ``item()`` to call on it.  Holds where nothing was saved at all (the
    rules of what is saved tell that)."""
    kept = [saved_as(getattr(v, "grad_fn", None), "other") for v in made]
    return claim(all(type(k) not in (int, float) for k in kept), SAVED_A_VALUE)


OPERATIONS = {"AddBackward0": lambda a, b: a + b, "MulBackward0": lambda a, b: a * b}


def _records_elsewhere(sub: Any, op: str, inputs: tuple[Any, ...]) -> bool:
    """Whether the operation of node ``op`` records a node on new leaves that require grad as
    ``inputs`` do and hold no 0 nor 1: then what it left unrecorded was for the program's
    numbers, not for operands handed to record as copies (which require no grad whatever the
    numbers)."""
    leaves = [sub.Value(1.5 + i, requires_grad=flag(getattr(v, "requires_grad", None)) is True)
              for i, v in enumerate(inputs)]
    try:
        return getattr(OPERATIONS[op](*leaves), "grad_fn", None) is not None
    except Exception:  # noqa: BLE001 - an operation that raises is told by the operation's own facts
        return False


def names_swapped(made: dict[str, Any], kept: list[tuple[str, str, str, Any]]) -> list[dict[str, Any]]:
    """For each operand a product's node saves in PyTorch (``kept``: the product's label, the
    name, the operand's code, the Value), whether the student's node saved it under the other
    name (``save("self", other)``): the Value itself, kept, but where backward reads the other
    operand, which no rule of saving numbers or saving too much explains.  An operand that is
    both (w * w) is saved under both names, so it is not asked."""
    told = []
    for label, name, code, value in kept:
        swapped = "other" if name == "self" else "self"
        if any(of == label and n == swapped and v is value for of, n, _, v in kept):
            continue
        fn = getattr(made[label], "grad_fn", None)
        told.append(claim(saved_as(fn, swapped) is value, f"{operand(label)}.grad_fn saved {operand(code)} itself as \"{swapped}\""))
    return told


THROUGH_RECORD = {"b": N_("b = w + 1 has a node whenever recording(w, Value(1)) is True"),
                  "w + 6.5": N_("w + 6.5 has a node whenever recording(w, Value(6.5)) is True"),
                  "w * 3": N_("w * 3 has a node whenever recording(w, Value(3)) is True")}


def through_record(sub: Any, made: Any, w: Any, number: float, code: str) -> dict[str, Any]:
    """Whether ``made``, an operation of the leaf ``w`` and a Python number, has a node where the
    engine's own ``recording`` is True for those inputs: + or * that makes a result with a number
    some other way than through record (a Value made directly, w's requires_grad copied) leaves it
    a leaf while recording is right, told as that, not as recording's rule.  PyTorch has no
    ``recording``: there the claim holds."""
    recording, as_value = getattr(sub, "recording", None), getattr(sub, "as_value", None)
    try:
        asked = callable(recording) and callable(as_value) and recording(w, as_value(number)) is True
    except Exception:  # noqa: BLE001 - the student's recording raising is told where it is called
        asked = False
    return claim(not asked or getattr(made, "grad_fn", None) is not None, THROUGH_RECORD[code])


UNRECORDED_AFTER = N_("c * 3, c a Value that requires no grad, records no node after w * 3 recorded one, as before it")


def unrecorded_after(sub: Any) -> dict[str, Any]:
    """Whether an operation none of whose inputs requires grad records nothing after an operation
    that records one, where it recorded nothing before it, on a fresh copy of the file: a recording
    that keeps a flag an earlier call set (a global turned on once) records every later operation,
    state kept between calls, told as that rather than as the rule of unrecorded operations."""
    engine = fresh_copy(sub) or sub
    before = getattr(engine.Value(-2.0) * 3, "grad_fn", None) is None
    held(engine.Value(0.75, requires_grad=True) * 3)
    return claim(not before or getattr(engine.Value(-2.0) * 3, "grad_fn", None) is None, UNRECORDED_AFTER)
