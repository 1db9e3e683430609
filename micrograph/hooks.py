"""What the engine does around ``apply``: hooks, ``retain_grad``, and writing ``.grad``.

* **Tensor hooks** (``register_hook``) live on the node of the value they were registered on (for a leaf, on the leaf;
  its ``AccumulateGrad`` runs them), keyed by output: torch's ``tensor_pre_hooks``.  Each sees the gradient as a Value;
  what it returns replaces it, and what it changes in place stays changed.  ``retain_grad`` runs after them, whatever
  the order they were registered in (torch's ``retains_grad_hooks``).
* **Node hooks** (``grad_fn.register_prehook`` / ``register_hook``) see and may replace the node's gradients, checked
  as torch checks them.
* **Writing** ``.grad`` (``AccumulateGrad::accumulateGrad``, ``retain_grad``'s hook): a first gradient becomes a new
  Value (under ``create_graph`` a recorded copy into a new leaf, or a non-leaf's clone); later ones are added, out
  of place (recorded) under ``create_graph``, else in place into a leaf's ``.grad`` and into a new Value for a retained
  one.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from micrograph import observe
from micrograph.node import AccumulateGrad, Grad, Node
from micrograph.value import Value


def as_value(g: Grad) -> Value | None:
    """A gradient as the user sees it: a Value (None stays None)."""
    return g if g is None or type(g) is not float else Value.shared([g], None)


def add(a: Grad, b: Grad) -> Grad:
    """Two gradients meeting in one input buffer slot (None: nothing arrived)."""
    if a is None or b is None:
        return b if a is None else a
    return a + b if type(a) is float and type(b) is float else as_value(a) + as_value(b)


def tensor_hooks(node: Node, grads: list[Grad], create_graph: bool) -> list[Grad]:
    """The hooks registered on the node's outputs (a leaf's, for AccumulateGrad), then retain_grad."""
    leaf = type(node) is AccumulateGrad
    hooks = [(0, h) for h in node.variable._hooks or ()] if leaf else [(h.output_nr, h.fn) for h in node.tensor_hooks or ()]
    for nr, hook in hooks:
        arg = as_value(grads[nr])
        result = hook(arg)
        if result is not None and not isinstance(result, Value):
            raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
        arg = arg if result is None else result  # changed in place, or replaced
        grads = [*grads[:nr], arg if arg is None or create_graph else arg._storage[0], *grads[nr + 1:]]
    for nr, ref in list((node.retained or {}).items()):
        if ref() is not None and grads[nr] is not None:
            write_grad(ref(), grads[nr], create_graph, observe.Writer.RETAIN_GRAD)
    return grads


def node_hooks(hooks: list[Callable[..., Any]], grads: list[Grad], received: Sequence[Grad] | tuple[()],
               create_graph: bool) -> list[Grad]:
    """Pre-hooks (``received`` empty: ``hook(grad_outputs)``) or post-hooks (``hook(grad_inputs, grad_outputs)``)."""
    for hook in list(hooks):
        args = tuple(map(as_value, grads))
        result = hook(args, tuple(map(as_value, received))) if received else hook(args)
        if result is None:
            result = args  # changed in place, or not at all
        if not isinstance(result, tuple):
            raise TypeError(f"expected tuple, but hook returned '{type(result).__name__}'")
        if len(result) != len(grads):
            name = getattr(hook, "__name__", type(hook).__name__)
            raise RuntimeError(f"hook '{name}' has returned an incorrect number of values "
                               f"(got {len(result)}, but expected {len(grads)})")
        for r, before in zip(result, grads):  # torch's check_single_result: the None slot first, then the type
            if r is not None and before is None:
                raise RuntimeError("can't replace a None gradient with a non-None value")
            if r is not None and not isinstance(r, Value):
                raise TypeError(f"expected Variable, but hook returned '{type(r).__name__}'")
        grads = [r if r is None or create_graph else r._storage[0] for r in result]
    return grads


def accumulate(v: Value, g: Grad, create_graph: bool) -> list[Grad]:
    """``AccumulateGrad::apply``: ``g`` into the leaf's ``.grad`` (not once its requires_grad was turned off
    after the graph was recorded), then its post-accumulate hooks; it sends nothing on (it has no edges)."""
    if g is not None and v._requires_grad:
        write_grad(v, g, create_graph, observe.Writer.ACCUMULATE_GRAD)
    if g is not None and v._post_accumulate_hooks:
        post_accumulate(v)
    return []


def post_accumulate(v: Value) -> None:
    for hook in list(v._post_accumulate_hooks):
        result = hook(v)  # None, or the leaf itself (``p.add_(...)`` returns it)
        if result is not None and result is not v:
            if not isinstance(result, Value):
                raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
            raise RuntimeError("Tensor post accumulate grad hooks should return None.")


def write_grad(v: Value, g: Grad, create_graph: bool, writer: observe.Writer) -> None:
    old = v._gradient
    if old is None and create_graph:  # torch: a leaf's new_empty_strided(...).copy_(grad), a non-leaf's clone()
        v._gradient = Value.shared([0.0], None).copy_(g) if writer is observe.Writer.ACCUMULATE_GRAD else g.clone()
    elif old is None or create_graph or writer is observe.Writer.RETAIN_GRAD:  # retain_grad adds out of place
        v._gradient = Value.shared([g], None) if old is None else old + g
    else:
        old._storage[0] += g  # in place, as torch's (the gradient object's version is not modelled)
    observe.note_grad_write(v, writer)
