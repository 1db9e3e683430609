"""The backward engine: PyTorch's ``Engine::execute`` in one screen.

1. Find every node reachable from the roots and put them in the order they
   will run (:func:`_run_order`).  The walk uses an explicit stack: a chain of
   a million ops needs no recursion.
2. Run them in that order, each with the sum of the gradients its consumers
   sent it (the chain rule's sum over paths); a node that no gradient reached
   does not run.  The order is the one PyTorch's ready queue produces: the most
   recently created node first, and a leaf's ``AccumulateGrad`` as soon as the
   last node feeding it has run.  So hooks fire in torch's order, and a backward
   that fails midway has written the same leaves as torch's would.
3. Running a node: call the hooks on its output's gradient, keep it for
   ``retain_grad``, then either accumulate it into a leaf (``AccumulateGrad``)
   or call the node's backward and pass one gradient along each edge.
4. Without ``retain_graph`` each node releases its saved values once it ran.

``grad()`` runs the same loop but only on the part of the graph that leads to
its inputs, and captures their gradients instead of accumulating them.
"""

from __future__ import annotations

import operator
import warnings
from typing import Any, Sequence

from micrograph import anomaly, arguments, collector, grad_objects, multi_output, node_hooks, ready_queue
from micrograph import observe as _observe
from micrograph.grad_mode import set_grad_enabled
from micrograph.handles import needs_full_loop
from micrograph.node import AccumulateGrad, Grad, Node, gradient_edge
from micrograph.value import Value

CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter "
    "and its gradient which can cause a memory leak. We recommend using autograd.grad when creating "
    "the graph to avoid this. If you have to use this function, make sure to reset the .grad fields "
    "of your parameters to None after use to break the cycle and avoid the leak."
)

_create_graph_warned = False
_ACCUMULATED = _observe.Writer.ACCUMULATE_GRAD


# -- public entry points -----------------------------------------------------------------
def backward(
    tensors: Value | Sequence[Any],
    grad_tensors: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    grad_variables: Any = None,
    inputs: Value | Sequence[Value] | None = None,
) -> None:
    """Accumulate the gradients of ``values`` into the leaves' ``.grad``.

    ``tensors`` may be one Value, a list of them, or the nested rows that ``mm``
    returns (one matrix); ``grad_tensors`` then gives d(loss)/d(value) for each,
    in the same shape (the vector of a vector-Jacobian product).  Torch's names,
    positions and argument rules (``micrograph.arguments``): a gradient is a
    Value or None, never a bare number.
    """
    grad_tensors = arguments.grad_variables(grad_tensors, grad_variables)
    wanted = None if inputs is None else arguments.inputs_of(inputs, "backward")
    outputs = arguments.outputs_of(tensors)
    grads = arguments.grads_for(tensors, outputs, grad_tensors)
    keep = arguments.flag(create_graph if retain_graph is None else retain_graph)
    create_graph = arguments.flag(create_graph)
    global _create_graph_warned
    if create_graph and not _create_graph_warned:  # PyTorch warns once per process
        _create_graph_warned = True
        warnings.warn(CREATE_GRAPH_WARNING, UserWarning, stacklevel=3)
    roots = _roots(outputs, grads, create_graph)  # first, as torch: a root leaf's AccumulateGrad exists for inputs=
    targets = None if wanted is None else _backward_targets(wanted)
    needed = None if targets is None else _needed([n for n, _ in roots], targets)
    _execute(roots, keep, create_graph, needed, capture=None, seeds=grads)


def _backward_targets(wanted: list[Any]) -> set[Node]:
    """The nodes of ``backward(inputs=...)``: a non-leaf among them keeps its grad, as in torch."""
    targets = set()
    for v in arguments.check_inputs(wanted):
        if not v._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if v.grad_fn is not None:
            v.retain_grad()
        node = _node_of(v)
        if node is not None:
            targets.add(node)
    return targets


def grad(
    outputs: Value | Sequence[Any],
    inputs: Value | Sequence[Value],
    grad_outputs: Any = None,
    retain_graph: bool | None = None,
    create_graph: bool = False,
    only_inputs: bool = True,
    allow_unused: bool | None = None,
    is_grads_batched: bool = False,
    materialize_grads: bool = False,
) -> tuple[Value | None, ...]:
    """d(outputs)/d(inputs) as a tuple, without touching any ``.grad``; torch's signature."""
    if materialize_grads and allow_unused is False:
        raise ValueError(
            "Expected allow_unused to be True or not passed when materialize_grads=True, "
            "but got: allow_unused=False."
        )
    if allow_unused is None:
        allow_unused = materialize_grads
    outs = arguments.outputs_of(outputs)
    ins = arguments.inputs_of(inputs, "grad")
    arguments.only_inputs(only_inputs)
    grads = arguments.grads_for(outputs, outs, grad_outputs)
    keep = arguments.flag(create_graph if retain_graph is None else retain_graph)
    arguments.refuse_batched(is_grads_batched)
    create_graph = arguments.flag(create_graph)
    allow_unused = arguments.flag(allow_unused)
    materialize_grads = arguments.flag(materialize_grads)
    roots = _roots(outs, grads, create_graph)
    for v in arguments.check_inputs(ins):
        if not v._requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    nodes = [_node_of(v) for v in ins]
    targets = {n for n in nodes if n is not None}
    capture: dict[Node, Grad] = dict.fromkeys(targets)
    _execute(roots, keep, create_graph, _needed([n for n, _ in roots], targets), capture, seeds=grads)
    keys = multi_output.per_output(nodes, ins, capture)  # an output of a node with several: its own gradient
    result = _captured(keys, capture, create_graph, allow_unused, materialize_grads)
    return dict(zip(inputs, result)) if type(inputs) is dict else result


def _captured(nodes: list[Any], capture: dict[Any, Grad], create_graph: bool,
              allow_unused: bool, materialize_grads: bool) -> tuple[Value | None, ...]:
    """grad()'s answer: one gradient per input, the same object for an input asked for twice."""
    result: list[Value | None] = []
    made: dict[Any, Value | None] = {}
    for i, node in enumerate(nodes):
        if node is not None and node in made:
            result.append(made[node])
            continue
        g = capture.get(node) if node is not None else None
        if g is None:
            if materialize_grads:  # a zero leaf, which requires grad under create_graph (as torch's)
                g = Value(0.0, requires_grad=True) if create_graph else 0.0
            elif not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in the graph. "
                    "Set allow_unused=True if this is the desired behavior."
                )
        result.append(_as_value(g))
        if node is not None:
            made[node] = result[-1]
    return tuple(result)


# -- the loop ------------------------------------------------------------------------------
def _execute(roots: list[tuple[Node, Grad]], keep_graph: bool, create_graph: bool,
             needed: set[Node] | None, capture: dict[Node, Grad] | None, seeds: Sequence[Any] = ()) -> None:
    given = {n: s for (n, _), s in zip(roots, seeds) if isinstance(s, Value)}  # the caller's gradient objects
    if needed is not None and (len(roots) != 1 or roots[0][0] in needed):  # as torch: a lone root off every path
        roots = [(n, g) for n, g in roots if n in needed]  # to the inputs stays, for its tensor hooks alone
    buffers: dict[Node, Grad] = {}  # the gradients sent to each node so far, summed
    for node, g in roots:
        buffers[node] = buffers[node] + g if node in buffers else g
    order = _run_order([n for n, _ in roots], needed)
    ledger = grad_objects.Ledger(buffers, roots, order, create_graph, capture or (), given)  # who holds each gradient object
    kind = _observe.PassKind.BACKWARD if capture is None else _observe.PassKind.GRAD
    observer = _observe.pass_started(roots, order, keep_graph, create_graph, needed, kind)
    if (capture is None and needed is None and observer is None and not create_graph and not anomaly.state.enabled
            and not needs_full_loop):
        with collector.paused():  # floats only, no user code, no reference cycle: grad mode and the GC idle
            _run_plain(order, buffers, ledger, keep_graph)
    else:
        with set_grad_enabled(create_graph):  # the backward pass is itself recorded only for create_graph
            _run_full(order, buffers, ledger, keep_graph, create_graph, needed, capture, observer)


def _run_plain(order: list[Node], buffers: dict[Node, Grad], ledger: grad_objects.Ledger, keep_graph: bool) -> None:
    """The pass when it is the chain rule alone: no hook, ``retain_grad`` or custom Function alive, no
    ``grad()``, ``inputs=``, observer, anomaly mode or ``create_graph`` (:func:`_run_full` does the same
    with all of those).  No user code runs here, so nothing changes a gradient object it could see."""
    records, sums, shared = ledger.records, ledger.sums, ledger.active
    for node in order:
        g = buffers.pop(node, None)
        if g is None:  # no gradient reached it (every edge into it carried None): it does not run
            continue
        held = records.pop(node, None) if records else None  # a shared gradient's record
        if type(node) is AccumulateGrad:
            _accumulate(node.variable, g, False, ledger.new_grad(node, g, held))
            continue
        grads = node.apply(g, False)
        if node._saved and not keep_graph:  # a node that saved nothing has nothing to free
            node.release()
        if node._next_nr is not None:  # edges into a node with several outputs carry its Slots
            grads = multi_output.sent(node, grads)
        if node.sends is not None and shared and (held is not None or ledger.shows(node)):
            ledger.send(node, g, grads, held, None)  # what it passes on unchanged (or views of it) is seen
            continue
        if held is not None:  # new gradients: the shared gradient it received has one holder less
            held.release()
        i = 0
        for nxt in node:  # gi None: no gradient along this edge
            if nxt is not None and (gi := grads[i]) is not None:
                if (old := buffers.get(nxt)) is None:
                    buffers[nxt] = gi
                elif nxt in records:  # a gradient someone else may hold: in place or not
                    buffers[nxt] = ledger.add(nxt, old, gi)
                else:  # only this buffer holds it: torch sums into it in place
                    buffers[nxt], sums[nxt] = old + gi, sums.get(nxt, 0) + 1
            i += 1


def _run_full(order: list[Node], buffers: dict[Node, Grad], ledger: grad_objects.Ledger, keep_graph: bool,
              create_graph: bool, needed: set[Node] | None, capture: dict[Node, Grad] | None,
              observer: _observe._PassRecorder | None) -> None:
    """The pass with everything: tensor hooks, ``retain_grad``, node hooks, ``grad()``'s capture,
    ``inputs=``, anomaly mode, ``create_graph``, several outputs, and the observer told of each step."""
    records = ledger.records
    node: Node | None = None
    try:
        for node in order:
            received = g = buffers.pop(node, None)
            grads: tuple[Grad, ...] = ()
            if g is None:  # no gradient reached it (every edge into it carried None): it does not run
                grads = (None,) * len(node)
                if node._hooks:  # but its tensor hooks are called with None, as torch's
                    node_hooks.called_with_none(node)
            else:
                # grad() runs only nodes on a path to its inputs (no AccumulateGrad). As torch, it captures as it
                # arrives at a node that runs on, after tensor hooks at one that does not; node hooks only if it runs.
                runs = (capture is None and (needed is None or node in needed)
                        or capture is not None and type(node) is not AccumulateGrad
                        and any(n in needed for n in node if n is not None))  # type: ignore[operator]
                if runs and capture is not None and node in capture:
                    capture[node] = ledger.captured_before_hooks(node, g)
                if node._hooks is not None or node._retained is not None:
                    g = (multi_output.call_hooks if node._outputs else _call_hooks)(node, g, create_graph, ledger)
                held = records.pop(node, None) if records else None  # a shared gradient's record
                if not runs:
                    if capture is not None and node in capture:
                        capture[node] = ledger.captured(node, g, held)  # type: ignore[index]
                elif type(node) is AccumulateGrad:
                    if node._prehooks is not None:
                        g, held = node_hooks.pre(node, g, create_graph, held)
                    _accumulate(node.variable, g, create_graph, ledger.new_grad(node, g, held))
                    if node._posthooks is not None or node.variable._post_accumulate_hooks is not None:
                        node_hooks.after_accumulate(node, g, create_graph, True)
                else:
                    if node._prehooks is not None:
                        g, held = node_hooks.pre(node, g, create_graph, held)
                    grads = _apply_checked(node, g, create_graph) if anomaly.state.enabled else node.apply(g, create_graph)
                    if not keep_graph:
                        node.release()
                    if node._posthooks is not None:
                        grads = node_hooks.post(node, grads, g, create_graph, needed)
                    sent = grads if node._next_nr is None else multi_output.sent(node, grads)  # by output number
                    ledger.send(node, g, sent, held, needed)
            if observer is not None:  # micrograph.observe: someone watches this pass
                observer.step(node, received, g, grads)
    except BaseException as error:
        if observer is not None:
            observer.failed(node, error)
        raise


def _apply_checked(node: Node, g: Grad, create_graph: bool) -> tuple[Grad, ...]:
    """``node.apply`` in anomaly mode: say where a failing node was made; nan gradients are errors."""
    try:
        grads = node.apply(g, create_graph)
        if anomaly.state.check_nan:
            anomaly.check_grads(node, grads)
    except Exception:
        anomaly.warn_failure(node)
        raise
    return grads


def _call_hooks(node: Node, g: Grad, create_graph: bool, ledger: grad_objects.Ledger) -> Grad:
    """Tensor hooks may replace the gradient; ``retain_grad`` sees the final one."""
    hooks = node._hooks  # a leaf's hooks, for its AccumulateGrad
    if hooks:
        v = g if create_graph else ledger.wrap(node, g)  # the gradient object itself, as torch's
        for hook in list(hooks):
            replaced = hook(v)
            if replaced is not None:
                if not isinstance(replaced, Value) or replaced._dtype_name != "Double":
                    arguments.refuse_hook_result(hook, replaced)
                v = replaced
        g = v if create_graph else ledger.unwrap(node, v)
    node_hooks.retain(node._retained() if node._retained is not None else None, g, create_graph)
    return g


def _accumulate(leaf: Value, g: Grad, create_graph: bool, tensor: tuple[list[float], list[int] | None]) -> None:
    """Add ``g`` into ``leaf.grad`` (a first one on ``tensor``'s storage and counter); note who wrote it."""
    if not leaf._requires_grad:  # switched off after the graph was built
        return
    if create_graph:  # a recorded copy (CopyBackwards), never the gradient object itself
        leaf._grad = Value(0.0).copy_(g) if leaf._grad is None else leaf._grad + g
        _observe.wrote(leaf, _ACCUMULATED)
    elif leaf._grad is None:  # the summed gradient itself (its memory and version), or a new one
        storage, vc = tensor
        leaf._grad = grad = Value._shared(storage, vc)
        leaf._grad_write = (_ACCUMULATED, _observe._passes, grad, 0 if vc is None else vc[0], g)  # observe.grad_write
    else:
        grad = leaf._grad
        grad._storage[0] += g  # the same .grad object throughout, in place, as PyTorch
        vc = grad._shared_vc()
        vc[0] += 1
        leaf._grad_write = (_ACCUMULATED, _observe._passes, grad, vc[0], grad._storage[0])


# -- graph walks -----------------------------------------------------------------------------
def _run_order(roots: list[Node], needed: set[Node] | None) -> list[Node]:
    """The nodes reachable from ``roots`` (and ``needed``), in the order PyTorch runs them: the ready
    node with the highest sequence number, so for ops descending creation order (a sort, no queue); an
    ``AccumulateGrad`` as soon as the last (lowest-numbered) node feeding it ran, a root leaf fed by no
    node first.  The ops go in a list as the walk meets them, which is close to that order already."""
    reached: set[Node | None] = {None}  # the ops reached (and None: an edge to a constant)
    ops: list[Node] = []
    last_feeder: dict[Node, Node | None] = {}  # each AccumulateGrad: the node it runs after (None: the start)
    stack: list[Node] = []
    for root in roots:
        if type(root) is AccumulateGrad:
            last_feeder[root] = None
        elif root not in reached:
            reached.add(root)
            stack.append(root)
    while stack:
        node = stack.pop()
        ops.append(node)
        for nxt in node:
            if nxt in reached or needed is not None and nxt not in needed:
                continue
            if type(nxt) is not AccumulateGrad:  # first time reached: walk on from it
                reached.add(nxt)
                stack.append(nxt)
            elif (last := last_feeder.get(nxt)) is None or last._seq > node._seq:
                last_feeder[nxt] = node
    ops.sort(key=_sequence_number, reverse=True)
    return ready_queue.with_leaves(ops, last_feeder, roots)


_sequence_number = operator.attrgetter("_seq")


def _needed(roots: list[Node], targets: set[Node]) -> set[Node]:
    """The nodes from which some target can be reached (post-order walk, no recursion)."""
    needed: set[Node] = set()
    visited: set[Node] = set()
    stack: list[tuple[Node, bool]] = [(r, False) for r in roots]
    while stack:
        node, children_done = stack.pop()
        if children_done:
            if node in targets or any(n in needed for n in node if n is not None):
                needed.add(node)
            continue
        if node in visited:
            continue
        visited.add(node)
        stack.append((node, True))
        stack.extend((n, False) for n in node if n is not None and n not in visited)
    return needed


def _roots(outputs: list[Value], grads: list[Any], create_graph: bool) -> list[tuple[Node, Grad]]:
    roots: list[tuple[Node, Grad]] = []
    for i, (v, g) in enumerate(zip(outputs, grads)):
        if not v._requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        node = gradient_edge(v)
        assert node is not None
        roots.append((node, multi_output.root(node, v, _root_grad(g, create_graph))))
    return roots


def _root_grad(g: Any, create_graph: bool) -> Grad:
    if g is None:
        g = 1.0
    if isinstance(g, Value):
        return g if create_graph else g._storage[0]
    if isinstance(g, (int, float)) and not isinstance(g, bool):
        return Value(float(g)) if create_graph else float(g)
    raise TypeError(f"gradient must be a Value or a number, got {type(g).__name__}")


def _node_of(v: Value) -> Node | None:
    """The node whose gradient is ``v``'s: its grad_fn, or its leaf's existing AccumulateGrad."""
    if v.grad_fn is not None:
        return v.grad_fn
    return v._accumulator() if v._accumulator is not None else None


def _as_value(g: Grad | None) -> Value | None:
    if g is None or isinstance(g, Value):
        return g
    return Value._shared([g], None)
