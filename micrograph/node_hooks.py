"""Hooks on nodes and after accumulation: ``grad_fn.register_prehook`` / ``register_hook``,
``v.register_post_accumulate_grad_hook``, called by the engine as torch's engine calls them.

For a node that runs: the tensor hooks of its output first (``v.register_hook``),
then its pre-hooks ``hook(grad_outputs)``, then the node, then its hooks
``hook(grad_inputs, grad_outputs)``; a returned tuple replaces those
gradients.  For a leaf: after its ``.grad`` was written, its post-accumulate
hooks ``hook(leaf)`` (which must return None), then its ``AccumulateGrad``'s
hooks with ``grad_inputs == ()``.  The engine pays one ``is None`` test per
node when no such hook exists.
"""

from __future__ import annotations

from typing import Any

from micrograph import observe
from micrograph.node import Grad, Node
from micrograph.value import Value


def _as_values(grads: tuple[Grad, ...], create_graph: bool) -> tuple[Value | None, ...]:
    return tuple(g if g is None or create_graph else Value._shared([g], None) for g in grads)


def _back(v: Any, create_graph: bool) -> Grad:
    return v if v is None or create_graph else v.item()


def _replacement(hook: Any, result: Any, expected: int) -> tuple[Any, ...]:
    if not isinstance(result, tuple):
        raise TypeError(f"expected tuple, but hook returned '{type(result).__name__}'")
    if len(result) != expected:
        raise RuntimeError(
            f"hook '{getattr(hook, '__name__', hook)}' has returned an incorrect number of values "
            f"(got {len(result)}, but expected {expected})"
        )
    for item in result:
        if item is not None and not isinstance(item, Value):
            raise TypeError(f"expected Variable, but hook returned '{type(item).__name__}'")
    return result


def pre(node: Node, g: Grad, create_graph: bool, held: Any = None) -> tuple[Grad, Any]:
    """``node``'s pre-hooks on ``(grad_output,)`` (one per output, for a node with several: ``Slots``);
    the gradient the node will run with, and its record.  A gradient someone else holds too (``held``:
    its record in grad_objects, e.g. the Value passed to ``backward``) is handed over as that very
    tensor, as torch's; once a hook returns another, the node runs with that one, which has no record."""
    if held is not None and not create_graph and not isinstance(g, list):
        outputs: tuple[Any, ...] = (Value._shared(held.storage, held.vc),)
    else:
        outputs = _as_values(_outputs(g), create_graph)
    for hook in list(node._prehooks or ()):
        result = hook(outputs)
        if result is not None:
            outputs = _replacement(hook, result, len(outputs))
    back = [_back(v, create_graph) for v in outputs]
    if held is not None and (outputs[0] is None or outputs[0]._storage is not held.storage):
        held.release()
        held = None
    return (type(g)(back) if isinstance(g, list) else back[0]), held


def _outputs(g: Grad) -> tuple[Grad, ...]:
    """The gradients of a node's outputs: ``(g,)``, or each of a ``multi_output.Slots``."""
    return tuple(g) if isinstance(g, list) else (g,)


def post(node: Node, grads: tuple[Grad, ...], g: Grad, create_graph: bool,
         needed: set[Node] | None) -> tuple[Grad, ...]:
    """``node``'s hooks on ``(grad_inputs, grad_outputs)``; the gradients it sends along its edges."""
    if needed is not None:  # grad(): an edge that leads to no input carries nothing, as torch shows it
        grads = tuple(gi if nxt is not None and nxt in needed else None for nxt, gi in zip(node, grads))
    inputs, outputs = _as_values(grads, create_graph), _as_values(_outputs(g), create_graph)
    for hook in list(node._posthooks or ()):
        result = hook(inputs, outputs)
        if result is not None:
            replaced = _replacement(hook, result, len(inputs))
            if any(old is None and new is not None for old, new in zip(inputs, replaced)):
                raise RuntimeError("can't replace a None gradient with a non-None value")
            inputs = replaced
    return tuple(_back(v, create_graph) for v in inputs)


def called_with_none(node: Node) -> None:
    """A node no gradient reached does not run, but torch calls its tensor hooks with None."""
    for hook in list(node._hooks or ()):
        hook(None)


def after_accumulate(node: Any, g: Grad, create_graph: bool, accumulated: bool) -> None:
    """After an ``AccumulateGrad`` ran: its leaf's post-accumulate hooks (if it wrote ``.grad``), then its hooks."""
    if accumulated:
        _post_accumulate(node.variable)
    if node._posthooks is not None:
        post(node, (), g, create_graph, None)


def _post_accumulate(leaf: Value) -> None:
    """The leaf's post-accumulate-grad hooks, each called with the leaf once its ``.grad`` is written."""
    for hook in list(leaf._post_accumulate_hooks or ()):
        result = hook(leaf)
        if result is not None:
            if isinstance(result, Value):
                raise RuntimeError("Tensor post accumulate grad hooks should return None.")
            raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")


def retain(retained: Value | None, g: Grad, create_graph: bool) -> None:
    """``retain_grad``'s write into a non-leaf's ``.grad`` (of a node's output, or of one output of a
    node with several): a new Value each time, as torch's, summed with what it held."""
    if retained is None or g is None:
        return
    old = retained._grad
    if create_graph:
        retained._grad = g.clone() if old is None else old + g
    else:
        retained._grad = Value._shared([g if old is None else old._storage[0] + g], None)
    observe.wrote(retained, observe.Writer.RETAIN_GRAD)
