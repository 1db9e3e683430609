"""Every read of engine state that the diagrams need, through the core's public read views.

The diagram shows what PyTorch hides: the data of intermediates no variable holds any more
(``Node.output_data``), which saved values a backward freed (``saved_released``), the version
a value was saved at (``saved_versions``).  Reading them here, in one module, keeps the rest of
``viz`` on plain numbers and names.

Every function only *reads*: no warning (``value.peek_grad`` reads a non-leaf's ``.grad`` without
the property's warning), no version counter created, no node allocated.

The drawing names saved items as PyTorch's nodes name them, ``grad_fn._saved_self`` (the first
operand), ``_saved_other`` or ``_saved_exponent`` (the second), ``_saved_result`` (the op's
output): never by a letter, which a student reads as one of their own variables (``saved b``
beside the node whose output they called b).  A custom Function's or a layer's items are named
by position, as ``ctx.saved_tensors`` holds them (``saved_tensors[0]``, ...).
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from micrograph import value as value_module
from micrograph.node import AccumulateGrad, Node
from micrograph.ops import Op
from micrograph.value import Value

SLOT_ORDER = ("_saved_self", "_saved_other", "_saved_exponent", "_saved_result")
OPERAND_CONSTANTS = ("self", "exponent")  # a Python-number operand torch keeps as a Scalar (2 ** w, w ** 2)


class Saved(NamedTuple):
    """One item an op saved for backward, as it stands now."""

    slot: str  # torch's attribute, "_saved_self" ... ("saved_tensors[0]" ... for a custom Function)
    data: float | None  # None once freed
    saved_version: int | None  # the version it was saved at (None: a number, not a Value)
    version: int | None  # its version now (None: a number, or freed)


def value_data(v: Value) -> float:
    return v.item()


def value_grad(v: Value) -> float | None:
    """The number in ``v.grad`` (None when there is none), without the non-leaf warning."""
    g = value_module.peek_grad(v)
    return None if g is None else g.item()


def value_requires_grad(v: Value) -> bool:
    return v.requires_grad


def node_inputs(n: Node) -> list[Node | None]:
    """``next_functions`` without the input numbers: one entry per input, None for a constant."""
    return [fn for fn, _ in n.next_functions]


def node_edges(n: Node) -> list[tuple[Node | None, int]]:
    """``next_functions``: per input, its node (None for a constant) and which output of it."""
    return [(fn, nr) for fn, nr in n.next_functions]


def value_output_nr(v: Value) -> int:
    """Which output of its ``grad_fn`` a value is (a layer's node makes one per entry)."""
    return v.output_nr


def leaf_of(n: Node) -> Value | None:
    """The leaf an ``AccumulateGrad`` node writes to; None for any other node."""
    return n.variable if type(n) is AccumulateGrad else None


def node_name(n: Node) -> str:
    return n.name()


def node_output_data(n: Node) -> float | None:
    """The number ``n`` produced, even when no variable holds that value any more."""
    return n.output_data()


def node_retained(n: Node) -> Value | None:
    """The output value when ``retain_grad()`` was called on it (and it is alive)."""
    for ref in (n.retained or {}).values():
        v = ref()
        if v is not None:
            return v
    return None


def node_freed(n: Node) -> bool:
    """True once a backward without ``retain_graph`` released what ``n`` saved."""
    return n.saved_released


def _torch_inputs(n: Node) -> tuple[str, ...]:
    """torch's names of ``n``'s inputs, in ``next_functions`` order; () for an n-ary node."""
    op = type(n)
    if not issubclass(op, Op):
        return ()
    second = "exponent" if "exponent" in (*op.saves, *op.constants) else "other"
    return tuple(name for name in ("self", second) if name not in op.constants)[:len(n.next_functions)]


def node_input_slot(n: Node, i: int) -> str | None:
    """torch's name of input ``i`` of ``n`` (``"self"``, ``"other"``, ``"exponent"``); None for an
    n-ary node (a sum, a layer, a custom Function)."""
    names = _torch_inputs(n)
    return names[i] if i < len(names) else None


def _saved_by_name(n: Node) -> list[tuple[str, Any, int]]:
    """(torch's name, item, version when saved) of each item ``n`` saved, and of the numbers it keeps
    as operands; items are None once freed.  A custom Function's items get their position as name."""
    items = n.saved_items()
    versions = n.saved_versions()
    names = type(n).saves
    count = len(items) if items is not None else len(versions)
    out: list[tuple[str, Any, int]] = []
    for i in range(count):
        item = None if items is None else items[i]
        if i < len(versions) and versions[i] is None:
            continue  # a slot the op chose not to keep (mul keeps self only for other's gradient)
        name = names[i] if i < len(names) else str(i)
        out.append((name, item, versions[i] if i < len(versions) else 0))
    for name in getattr(type(n), "constants", ()):
        if name in OPERAND_CONSTANTS:
            out.append((name, float(getattr(n, "_saved_" + name)), 0))  # a number is saved at version 0
    return out


def _slot(name: str) -> str:
    """The drawn name of the item ``_saved_by_name`` calls ``name``: torch's attribute for it."""
    return f"saved_tensors[{name}]" if name.isdigit() else f"_saved_{name}"


def node_saved(n: Node) -> list[Saved]:
    """What ``n`` saved, slot by slot (``_saved_self``, ``_saved_other``, ...), with versions
    (data None once freed).

    A slot the op chose not to save (mul keeps ``self`` only if ``other`` needs a gradient) is
    left out.
    """
    items: list[Saved] = []
    for name, item, saved_version in _saved_by_name(n):
        slot = _slot(name)
        if n.saved_released:
            items.append(Saved(slot, None, saved_version, None))
        elif isinstance(item, Value):
            items.append(Saved(slot, item.item(), saved_version, item._version))
        else:
            items.append(Saved(slot, float(item), None, None))
    return sorted(items, key=lambda s: SLOT_ORDER.index(s.slot) if s.slot in SLOT_ORDER else len(SLOT_ORDER))


def node_saved_operand(n: Node, name: str | None) -> Any:
    """The saved item for input ``name`` (a number or a Value), or None if not saved or freed."""
    if name is None:
        return None
    return next((item for saved_name, item, _ in _saved_by_name(n) if saved_name == name), None)


def input_operand(n: Node, i: int) -> Any:
    """The saved item for input ``i`` of ``n`` (a number or a Value), or None."""
    return node_saved_operand(n, node_input_slot(n, i))


def is_value(x: object) -> bool:
    return isinstance(x, Value)


def grad_fn(v: Value) -> Node | None:
    return v.grad_fn


def node_output(n: Node, known: Value | None) -> float | None:
    """The number drawn for the value ``n`` made: the one ``known`` holds now, where it is still
    that value (an in-place change under no_grad, or through ``.data``, keeps its ``grad_fn``, and
    a student printing it sees the new number); else the number ``n`` produced, which the node
    keeps when no variable holds that value any more (or an in-place op made it a new node's)."""
    if known is not None and known.grad_fn is n and known.output_nr == 0:
        return known.item()
    return n.output_data()


class EngineReader:
    """The reads ``collect`` makes, on micrograph's own engine (``protocol.ProtocolReader``
    makes the same on an engine read through PyTorch's public names)."""

    is_value = staticmethod(is_value)
    grad_fn = staticmethod(grad_fn)
    value_data = staticmethod(value_data)
    value_grad = staticmethod(value_grad)
    value_requires_grad = staticmethod(value_requires_grad)
    node_inputs = staticmethod(node_inputs)
    node_edges = staticmethod(node_edges)
    value_output_nr = staticmethod(value_output_nr)
    node_name = staticmethod(node_name)
    leaf_of = staticmethod(leaf_of)
    node_output = staticmethod(node_output)
    node_retained = staticmethod(node_retained)
    node_freed = staticmethod(node_freed)
    node_saved = staticmethod(node_saved)
    input_operand = staticmethod(input_operand)


def stand_in(n: Node) -> Value:
    """A Value to draw the graph from when only its node is known (a backward pass's root).

    The engine's roots are nodes: the output Value is not referenced by its node.
    A leaf's ``AccumulateGrad`` stands for the leaf itself.
    """
    if type(n) is AccumulateGrad:
        return n.variable
    data = n.output_data()
    return Value(math.nan if data is None else data).as_output_of(n)
