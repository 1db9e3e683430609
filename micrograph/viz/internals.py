"""Every read of the engine's private state that the diagrams need, and nothing else.

The diagram shows what PyTorch hides: the data of intermediates no variable
holds any more, which saved values a backward freed, the version a value was
saved at.  Those live in private fields of ``Value`` and ``Node``; reading them
here, in one module, means a renamed field is fixed in one place.

Every function only *reads*: no warning (a non-leaf's ``.grad`` property warns,
so ``_grad`` is read instead), no version counter created, no node allocated.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

from micrograph.node import AccumulateGrad, Node
from micrograph.value import Value


class Saved(NamedTuple):
    """One item an op saved for backward, as it stands now."""

    slot: str  # "a", "b" or "out"
    data: float | None  # None once freed
    saved_version: int | None  # the version it was saved at (None: a number, not a Value)
    version: int | None  # its version now (None: a number, or freed)


def value_data(v: Value) -> float:
    return v._storage[0]


def value_grad(v: Value) -> float | None:
    """The number in ``v.grad`` (None when there is none), without the non-leaf warning."""
    g = v._grad
    return None if g is None else g._storage[0]


def value_requires_grad(v: Value) -> bool:
    return v._requires_grad


def node_inputs(n: Node) -> list[Node | None]:
    """``next_functions`` without building the pairs: one entry per input, None for a constant."""
    return n


def leaf_of(n: Node) -> Value | None:
    """The leaf an ``AccumulateGrad`` node writes to; None for any other node."""
    return n.variable if type(n) is AccumulateGrad else None


def node_name(n: Node) -> str:
    return n.name()


def node_output_data(n: Node) -> float | None:
    """The number ``n`` produced, even when no variable holds that value any more."""
    return n._result


def node_retained(n: Node) -> Value | None:
    """The output value when ``retain_grad()`` was called on it (and it is alive)."""
    ref = n._retained
    return None if ref is None else ref()


def node_freed(n: Node) -> bool:
    """True once a backward without ``retain_graph`` released what ``n`` saved."""
    return n.saved_released


def node_input_slot(n: Node, i: int) -> str | None:
    """Which operand ("a" or "b") input ``i`` of ``n`` is; None for an n-ary op like sum."""
    inputs = type(n).inputs
    return inputs[i] if i < len(inputs) else None


def node_saved(n: Node) -> list[Saved]:
    """What ``n`` saved, slot by slot, with versions (data None once freed).

    Slots are named by the op's ``saves`` ("a", "b", "out"); a custom
    Function's ``save_for_backward`` items by position ("0", "1", ...).  A slot
    the engine chose not to save (mul keeps ``a`` only if ``b`` needs a
    gradient) is left out.
    """
    saved = n._saved
    versions = n._versions
    names = type(n).saves
    count = len(saved) if saved is not None else len(versions) if versions is not None else len(names)
    items: list[Saved] = []
    for i in range(count):
        slot = names[i] if i < len(names) else str(i)
        saved_version = versions[i] if versions is not None else 0
        if saved is None:
            items.append(Saved(slot, None, saved_version, None))
            continue
        item: Any = saved[i]
        if item is None:
            continue
        if isinstance(item, Value) and not item._wrapped_number:  # a wrapped Python number is drawn as one
            items.append(Saved(slot, item._storage[0], saved_version, item._version))
        else:
            items.append(Saved(slot, float(item), None, None))  # float(): a wrapped number's too
    return items


def node_saved_operand(n: Node, slot: str | None) -> Any:
    """The saved item for operand ``slot`` (a number or a Value), or None if not saved or freed."""
    saved = n._saved
    if slot is None or saved is None or slot not in type(n).saves:
        return None
    item = saved[type(n).saves.index(slot)]
    return item._storage[0] if isinstance(item, Value) and item._wrapped_number else item  # drawn as the number


def stand_in(n: Node) -> Value:
    """A Value to draw the graph from when only its node is known (a backward pass's root).

    The engine's roots are nodes: the output Value is not referenced by its node.
    A leaf's ``AccumulateGrad`` stands for the leaf itself.
    """
    if type(n) is AccumulateGrad:
        return n.variable
    v = Value._shared([n._result if n._result is not None else math.nan], None)
    v.grad_fn = n
    v._requires_grad = True
    return v
