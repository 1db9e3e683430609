"""What a diagram probe hands the drawing beyond roots and names: the Values each op of the
student's graph was made from, as ``watching(made=True)`` saw the student's code pass them.

``next_functions`` holds None for an input that needs no grad (PyTorch keeps no reference to
it), so the drawing alone shows such an input as a nameless constant, and a named Value that is
that very input (ex02's w made without grad) apart from the graph, twice in one picture.  Given
the operands, it draws the input once, as the Value the student named.
"""

from __future__ import annotations

from typing import Any

from micrograph import Value
from micrograph.node import Node

from grader.spec.call import Call


def operands(call: Call) -> dict[Node, tuple[Value, ...]]:
    """For each Value an engine op returned to the student's code during ``call``, its node and
    the Values it was made from, in input order: only where the node's inputs are exactly those
    Values (each input that needs grad is the node ``next_functions`` reaches, each other one
    needs none), so a node an in-place op has given that Value since is never taken for them."""
    found: dict[Node, tuple[Value, ...]] = {}
    for key, v in (call.probe_made or {}).items():
        found.update(made_of(v.grad_fn, call.inputs.get(key, ())))
    return found


def made_of(node: Node | None, inputs: tuple[Value, ...]) -> dict[Node, tuple[Value, ...]]:
    """``{node: inputs}`` where ``node``'s inputs are exactly those Values, in input order (a
    probe that knows what an engine op of its own call took: a layer's biases, inputs and
    weights); else nothing, and the drawing shows what the node alone tells."""
    if node is None:
        return {}
    reached = [fn for fn, _ in node.next_functions]
    if len(reached) == len(inputs) and all(_is_input(fn, u) for fn, u in zip(reached, inputs)):
        return {node: inputs}
    return {}


def _is_input(fn: Any, u: Value) -> bool:
    """Whether ``u`` is what an entry ``fn`` of ``next_functions`` stands for: its grad_fn, its
    leaf's AccumulateGrad, or (None) a Value that needs no grad."""
    if fn is None:
        return not u.requires_grad
    return u.grad_fn is fn if u.grad_fn is not None else getattr(fn, "variable", None) is u
