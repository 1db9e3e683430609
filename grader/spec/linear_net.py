"""ex12's nets and its forward as the other probes see them: the nets made from a seed, their
parameters by the names a student sees, the results forward returned in this run (``FORWARD``:
second_backward_error and grads_twice call it), and whether the loss a pass started from sums
every entry of forward's output.
"""

from __future__ import annotations

from typing import Any

import micrograph
from micrograph import nn
from micrograph.i18n import N_  # a probe's label, translated where it is shown

from grader.spec.entries_reached import every_entry
from grader.spec.facts import CONTEXT, Check
from grader.spec.helpers import Results
from grader.spec.mode_restored import called
from grader.spec.provenance import check, grad_of
from grader.spec.repeat import Returned


def make_net(seed: int, n_in: int, n_out: int) -> nn.Linear:
    """A new nn.Linear(n_in, n_out) made after manual_seed(seed): the probes make the nets themselves,
    so that what happened to each is read from the net, not only from what the student returned."""
    micrograph.manual_seed(seed)
    return nn.Linear(n_in, n_out)


def param_names(net: nn.Linear) -> dict[str, Any]:
    """The net's parameters by the names a student sees (indices stay small: no label can be
    read as a number some test expects)."""
    names = {f"weight[{r}][{c}]": p for r, row in enumerate(net.weight) for c, p in enumerate(row)}
    names.update({f"bias[{r}]": p for r, p in enumerate(net.bias or [])})
    return names


def param_facts(net: nn.Linear) -> list[dict[str, Any]]:
    """Who wrote each parameter's .grad, and its number, read by the probe from its own net."""
    return [grad_of(p, f"{name}.grad") for name, p in param_names(net).items()]


_INPUTS_RETURNED = Returned(N_("the input[0][0] forward returned"),
                            N_("the input[0][0] an earlier call of forward returned"))
"""Every first input leaf forward returned in this run: the statement makes the rows new leaves
at each call, and leaves cached on the rows (a training loop's batches would share them, and
their .grad) are told by their identity."""


FORWARD = Results("forward")
"""Everything forward returned in this run: second_backward_error and grads_twice call it, and a
graph it returns again (a cache keyed by the rows) makes them raise where they are right."""


PARTS = ("input", "output", "loss")
"""What forward returns, in the statement's order."""


def _part(x: object) -> str | None:
    """Which of forward's parts ``x`` is by its kind: the loss (one Value), the input (rows of
    leaves) or the output (rows of Values an operation made); None where its kind tells none."""
    if isinstance(x, micrograph.Value):
        return "loss"
    if type(x) is not list or not x or not all(type(row) is list and row for row in x):
        return None
    kinds = {(v.is_leaf and "input" or "output") if isinstance(v, micrograph.Value) else None for row in x for v in row}
    return next(iter(kinds)) if len(kinds) == 1 else None


def in_statement_order(r: object) -> tuple[object, str | None]:
    """``r``, what forward returned, with its three parts put in the statement's order where each
    is told by its kind and they came in another, and that other order by the statement's names
    of what each part holds ("output, input, loss"); ``r`` itself and None otherwise.  The facts
    of each part then tell what differs in it, not what another part holds by its place."""
    kinds = [_part(x) for x in r] if type(r) is tuple and len(r) == 3 else []
    if sorted(map(str, kinds)) != sorted(PARTS) or tuple(kinds) == PARTS:
        return r, None
    return tuple(r[kinds.index(part)] for part in PARTS), ", ".join(map(str, kinds))


def input_names(r: object) -> dict[str, Any]:
    """The input leaves forward returned by the names a student sees (input[0][0]), drawn only:
    grads_twice may build its input without calling forward."""
    r, _ = in_statement_order(r)
    inputs = r[0] if type(r) is tuple and len(r) == 3 else None
    rows = inputs if type(inputs) is list else []
    return {f"input[{i}][{k}]": v for i, row in enumerate(rows) if type(row) is list for k, v in enumerate(row)}


def new_input(r: object) -> dict[str, Any] | None:
    """The IDENTITY fact of forward's input[0][0] against the one an earlier call returned."""
    r, _ = in_statement_order(r)
    inputs = r[0] if type(r) is tuple and len(r) == 3 else None
    if type(inputs) is not list or not inputs or type(inputs[0]) is not list or not inputs[0]:
        return None  # the shape is told by the other facts
    return _INPUTS_RETURNED.new(inputs[0][0])


def output_names(output: object) -> dict[str, Any]:
    """The entries of forward's output by the names a student sees (output[0][1]), drawn only:
    each is one output of the layer's one node."""
    rows = output if type(output) is list else []
    return {f"output[{i}][{j}]": v for i, row in enumerate(rows) if type(row) is list for j, v in enumerate(row)}


def summed(first_root: object) -> dict[str, Any]:
    """The EVERY_ENTRY fact of the loss the last call of forward returned in this test's call,
    judged where the call's first backward pass started from that loss (``first_root``, its
    node): a loss that leaves entries out explains every gradient a backward through it wrote.
    A loss the function built itself, from forward's output, is not forward's: it holds then."""
    r, _ = in_statement_order(FORWARD.last)
    loss = r[2] if type(r) is tuple and len(r) == 3 else None
    fact = every_entry(r[1], loss, "loss", "output") if isinstance(loss, micrograph.Value) and \
        loss.grad_fn is not None and loss.grad_fn is first_root else None
    return fact if fact is not None and fact["holds"] is not None else check(Check.EVERY_ENTRY, True, "loss")


def summed_by_engine(output: object, loss: object) -> dict[str, Any]:
    """The ENGINE_SUM fact of forward's loss: it is not a chain of AddBackward0 nodes, one per entry of
    ``output``, the deepest adding an entry to a constant (no edge), which is what Python's ``sum()``
    makes of the entries (``0 + e0``, then ``+ e1`` ...) where the statement calls micrograph.sum; nor
    (``~by_hand``) a chain of one node fewer, the deepest adding two entries (``e0 + e1 + ...``)."""
    entries = [v for row in output for v in row] if type(output) is list and all(
        type(row) is list for row in output) else []
    node, adds = loss.grad_fn if isinstance(loss, micrograph.Value) else None, 0
    while node is not None and node.name() == "AddBackward0" and adds < len(entries):
        adds += 1
        (below, _), (other, _) = node.next_functions
        if other is None:
            return check(Check.ENGINE_SUM, adds != len(entries), "loss")
        node = below
    by_hand = 0 < adds == len(entries) - 1 and node is not None and node.name() != "AddBackward0"
    return {**check(Check.ENGINE_SUM, not by_hand, "loss"), CONTEXT + "by_hand": by_hand}


def input_unhooked(inputs: object) -> dict[str, Any]:
    """The INPUT_UNHOOKED fact of forward's input (``~leaf``: the first entry told): the gradient grad() gives each
    leaf entry from that entry times one is one, as for any leaf; a hook forward registered on it
    (``v.register_hook(lambda g: g * 0)``) changes it, in every backward through the input after forward too.
    grad() writes no .grad: the caller's leaves are left as they were."""
    rows = inputs if type(inputs) is list and all(type(row) is list for row in inputs) else []
    for i, row in enumerate(rows):
        for j, v in enumerate(row):
            if isinstance(v, micrograph.Value) and v.is_leaf and v.requires_grad and not _plain_leaf(v):
                return {**check(Check.INPUT_UNHOOKED, False, "forward"), CONTEXT + "leaf": f"input[{i}][{j}]"}
    return check(Check.INPUT_UNHOOKED, True, "forward")


def _plain_leaf(v: micrograph.Value) -> bool:
    """Whether grad() of ``v * 1.0`` with respect to the leaf ``v`` is one (a hook of the student's that raises: not)."""
    try:
        with micrograph.enable_grad():
            (g,) = micrograph.grad(v * 1.0, [v])
    except Exception:  # noqa: BLE001 - a hook of the student's raised in the probe's pass: it is there
        return False
    return isinstance(g, micrograph.Value) and g.item() == 1.0


def calling_forward(module: Any, function: str, net: nn.Linear, rows: list[list[float]]) -> object:
    """``module.function(net, rows)``, the forward it calls watched (``FORWARD``), grad mode on
    again after it (``mode_restored``)."""
    with FORWARD.watched(module, function):
        return called(function, getattr(module, function), net, rows)
