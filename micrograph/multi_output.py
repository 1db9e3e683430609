"""Nodes with several outputs: one ``grad_fn`` shared by several Values, as torch's.

A custom ``Function`` whose ``forward`` returns a tuple, and ``nn.Linear``'s
``AddmmBackward0``, make one node for all their outputs.  As in torch, each
output's ``grad_fn`` is that node and its ``output_nr`` says which output it
is; an edge into the node carries that number (``next_functions`` shows
``(node, 1)``), and the node's input buffer keeps one gradient per output
(torch's ``InputBuffer``), so gradients sent to different outputs are never
added together.  The node runs once, with every output's gradient (``None``
where none arrived: its ``apply`` decides what that means).

What the engine does differently for such a node, all of it here:

* a gradient sent along an edge into it travels as :class:`Slots`, a list with
  the gradient at the output's place and ``None`` elsewhere; buffers add Slots
  place by place, so the engine's ordinary ``buffer + gradient`` works;
* each output keeps its own tensor hooks and ``retain_grad`` (``node.OutputSlot``),
  called in output order before the node runs, with ``None`` for an output no
  gradient reached, as torch calls them.

Gradient objects of such a node's outputs are plain new tensors: the class-3
bookkeeping of shared gradient objects (``grad_objects.py``) does not follow
them through the node.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from micrograph import node as node_module
from micrograph import node_hooks
from micrograph.node import Grad, Node
from micrograph.value import Value


class Slots(list):  # type: ignore[type-arg]
    """The gradients waiting for a node with several outputs: one place per output, None if none came."""

    __slots__ = ()

    @classmethod
    def one(cls, size: int, place: int, g: Grad) -> Slots:
        slots = cls([None] * size)
        slots[place] = g
        return slots

    def __add__(self, other: Any) -> Slots:  # type: ignore[override]
        """Place by place: what torch's input buffer does when a second gradient reaches an output."""
        return Slots(a if b is None else b if a is None else a + b for a, b in zip(self, other))


def attach(node: Node, size: int, outputs: dict[int, Value]) -> None:
    """Make ``node``, a node with ``size`` outputs, the ``grad_fn`` of ``outputs[i]`` as its output ``i``."""
    node._outputs = size
    node_module.several_outputs_exist()
    for i, v in outputs.items():
        v.grad_fn = node
        v._requires_grad = True
        v._output_nr = i


def sent(node: Node, grads: Iterable[Grad]) -> tuple[Grad, ...]:
    """``grads`` as they travel: the one along an edge into a node with several outputs as Slots."""
    assert node._next_nr is not None
    return tuple(
        Slots.one(nxt._outputs, nr, gi) if nxt is not None and nxt._outputs and gi is not None else gi
        for nxt, nr, gi in zip(node, node._next_nr, grads)
    )


def root(node: Node, v: Value, g: Grad) -> Grad:
    """The root gradient of ``v``: as Slots when its ``grad_fn`` has several outputs."""
    return Slots.one(node._outputs, v.output_nr, g) if node._outputs else g


def per_output(nodes: list[Node | None], inputs: Sequence[Value], capture: dict[Any, Grad]) -> list[Any]:
    """``grad()``'s keys for its inputs: the node, or ``(node, output_nr)`` for an output of a node
    with several, whose captured gradient (the node's whole buffer) is then split into ``capture``."""
    keys: list[Any] = []
    for node, v in zip(nodes, inputs):
        if node is None or not node._outputs:
            keys.append(node)
            continue
        key = (node, v.output_nr)
        slots = capture.get(node)
        if isinstance(slots, Value):  # the engine's gradient object around the buffer
            slots = slots._storage[0]
        capture[key] = None if slots is None else slots[key[1]]
        keys.append(key)
    return keys


def call_hooks(node: Node, slots: Slots, create_graph: bool, ledger: object = None) -> Slots:
    """Each output's tensor hooks, then its ``retain_grad``, in output order (torch's tensor pre-hooks):
    ``engine._call_hooks`` for a node with several outputs (the ledger of gradient objects is not used).

    A hook receives the output's gradient, or None when no gradient reached that
    output, and may return a replacement; a retained output keeps a new Value.
    """
    slots = Slots(slots)
    for place, slot in sorted(node.__dict__.get("_slots", {}).items()):
        g = slots[place]
        for hook in list(slot._hooks or ()):
            v = None if g is None else g if create_graph else Value._shared([g], None)
            replaced = hook(v)
            if replaced is not None:
                if not isinstance(replaced, Value):
                    raise TypeError(f"expected Variable, but hook returned '{type(replaced).__name__}'")
                g = replaced if create_graph else replaced.item()
        slots[place] = g
        node_hooks.retain(slot._retained() if slot._retained is not None else None, g, create_graph)
    return slots


def materialized(slots: Sequence[Grad], create_graph: bool, where: Sequence[bool] | bool) -> list[Grad]:
    """Zeros where no gradient reached an output and ``where`` says so (torch's default for a
    ``Function``'s tensor outputs; ``True`` for every output, ``False`` for none)."""
    if where is False:
        return list(slots)
    zero: Any = (lambda: Value(0.0)) if create_graph else (lambda: 0.0)
    return [zero() if g is None and (where is True or where[i]) else g for i, g in enumerate(slots)]
