"""The backward pass: PyTorch's engine (``torch/csrc/autograd/engine.cpp``) in one loop.

``backward()`` and ``grad()`` (torch's ``torch/autograd/__init__.py``) both build a
:class:`GraphTask` and run it:

1. **Roots.**  Each output's gradient edge (``Value.gradient_edge``: its ``grad_fn``, or a leaf's
   ``AccumulateGrad``) gets the output's gradient, as torch's ``GraphRoot`` sends it.
2. **Dependencies** (``compute_dependencies``): for every node reachable from the roots, how many
   edges point at it.  A node runs once all of them have delivered.
3. **What to run** (``init_to_execute``), only with ``inputs``: the nodes on a path to an input.
   ``grad()`` *captures* the inputs' gradients instead of running their accumulators.
4. **The loop** (``thread_main`` / ``evaluate_function``): take the ready node with the highest
   sequence number (the newest) from a heap of sequence numbers; ``AccumulateGrad``, whose
   sequence number is the largest there is, first, in the order they became ready.  What reached
   it is its *input buffer*; tensor hooks and ``retain_grad`` see it, then node pre-hooks, then
   ``apply`` (the op's formula, or writing ``.grad``), then post-hooks, then ``release_variables``
   unless ``retain_graph``.  Each gradient it returns is added into the input buffer of the next
   node along that edge; a node whose count reaches 0 is ready.

Gradients are floats in a plain backward and Values under ``create_graph=True``, when grad mode
stays on during the pass so the formulas record a graph of their own.  Otherwise grad mode is off
while the pass runs, hooks included, as in torch.
"""

from __future__ import annotations

import heapq
import warnings
from collections import deque
from typing import Any

from micrograph import anomaly, arguments, hooks, observe
from micrograph.grad_mode import set_grad_enabled
from micrograph.node import AccumulateGrad, Edge, Grad, Node
from micrograph.value import Value

CREATE_GRAPH_WARNING = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter "
    "and its gradient which can cause a memory leak. We recommend using autograd.grad when creating "
    "the graph to avoid this. If you have to use this function, make sure to reset the .grad fields "
    "of your parameters to None after use to break the cycle and avoid the leak."
)
UNUSED_INPUT = ("The differentiated Tensor at index {} appears to not have been used in the graph. "
                "Set allow_unused=True if this is the desired behavior.")


def backward(tensors: Any, grad_tensors: Any = None, retain_graph: bool | None = None, create_graph: bool = False,
             grad_variables: Any = None, inputs: Any = None) -> None:
    """Accumulate the gradients of ``tensors`` into the ``.grad`` of the leaves (or of ``inputs``)."""
    outputs, grads, create_graph, keep = arguments.roots(tensors, grad_tensors, retain_graph, create_graph, grad_variables)
    if create_graph:
        _warn_once()
    targets = None if inputs is None else arguments.inputs_of(inputs, "backward")
    task = (AnomalyTask if anomaly.state.enabled else GraphTask)(outputs, grads, keep, create_graph, True)
    if targets is not None:  # each input fills its .grad, a non-leaf's too (run_backward's retain_grad)
        task.restrict([v.retain_grad() or v.gradient_edge(create=False) for v in arguments.check_inputs(targets)])
    task.run()


def grad(outputs: Any, inputs: Any, grad_outputs: Any = None, retain_graph: bool | None = None,
         create_graph: bool = False, only_inputs: bool = True, allow_unused: bool | None = None,
         is_grads_batched: bool = False, materialize_grads: bool = False) -> Any:
    """The gradients of ``outputs`` with respect to ``inputs``, returned, not accumulated."""
    allow_unused, materialize_grads = arguments.grad_flags(only_inputs, is_grads_batched, allow_unused,
                                                           materialize_grads)
    outs, grads, create_graph, keep = arguments.roots(outputs, grad_outputs, retain_graph, create_graph)
    targets = arguments.inputs_of(inputs, "grad")
    task = (AnomalyTask if anomaly.state.enabled else GraphTask)(outs, grads, keep, create_graph, False)
    task.restrict([v.gradient_edge(create=False) for v in arguments.check_inputs(targets, needs_grad=True)])
    captured = task.run()
    for i, g in enumerate(captured):
        if g is None and not allow_unused:
            raise RuntimeError(UNUSED_INPUT.format(i))
    result = tuple(Value(0.0, requires_grad=create_graph) if g is None and materialize_grads  # torch's zeros_like
                   else hooks.as_value(g) for g in captured)
    return dict(zip(inputs, result)) if type(inputs) is dict else result  # grad(y, {"a": a}) gives {"a": ...}


_warned = False


def _warn_once() -> None:
    """torch warns about ``backward(create_graph=True)`` once per process."""
    global _warned
    if not _warned:
        _warned = True
        warnings.warn(CREATE_GRAPH_WARNING, UserWarning, stacklevel=3)


class GraphTask:
    """One backward pass (torch's ``GraphTask``): dependency counts, input buffers, the ready queue."""

    def __init__(self, outputs: list[Value], grads: list[Any], keep_graph: bool, create_graph: bool,
                 accumulate: bool) -> None:
        for i, out in enumerate(outputs):
            if not out._requires_grad:
                raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        self.edges = [out.gradient_edge() for out in outputs]  # what torch's GraphRoot sends, and where
        self.grads = [(Value(1.0) if create_graph else 1.0) if g is None else g if create_graph else g.item()
                      for g in grads]  # torch's _make_grads: 1 for an output given no gradient
        self.keep_graph, self.create_graph, self.accumulate = keep_graph, create_graph, accumulate
        self.dependencies = _dependencies(self.edges)
        self.needed: set[Node] | None = None  # with inputs: the nodes that run (torch's exec_info)
        self.queued: set[Node] | None = None  # ... and those that only capture, and a single root
        self.captures: dict[Node, list[tuple[int, int]]] = {}  # grad(): node -> (its input_nr, which input)
        self.captured: list[Grad] = []

    def restrict(self, inputs: list[Edge]) -> None:
        """Run only what leads to ``inputs``; ``grad()`` captures their gradients instead of accumulating."""
        self.needed = _needed([fn for fn, _ in self.edges], inputs, self.accumulate, self.captures)
        self.captured = [None] * len(inputs)
        self.queued = self.needed | set(self.captures) | {fn for fn, _ in self.edges if len(self.edges) == 1}

    def run(self) -> list[Grad]:
        """Send gradients along edges into the next nodes' input buffers, run the newest ready node;
        again, until none is ready.  A node without hooks takes the short branch."""
        buffers: dict[Node, list[Grad]] = {}  # the input buffers of nodes still waiting for an edge
        ready, ready_nodes = [], {}  # the ready queue: a heap of -sequence_nr; -sequence_nr -> (node, buffer)
        leaves: deque[tuple[Node, list[Grad]]] = deque()  # ready AccumulateGrad nodes: first, in turn
        deps, queued, release = self.dependencies, self.queued, not self.keep_graph
        plain = queued is None and not self.create_graph and not anomaly.state.enabled  # else evaluate() runs each node
        node = recorder = received = grads = None
        edges, outputs = self.edges, self.grads
        with set_grad_enabled(self.create_graph):
            while True:
                for (fn, nr), g in zip(edges, outputs):  # the chain rule: into the next node's input buffer
                    if fn is not None:
                        left = deps[fn] = deps[fn] - 1
                        buffer = buffers.pop(fn, None) or [None] * fn.num_outputs
                        buffer[nr] = g if buffer[nr] is None else hooks.add(buffer[nr], g)
                        if left:
                            buffers[fn] = buffer
                        elif type(fn) is AccumulateGrad and (queued is None or fn in queued):
                            leaves.append((fn, buffer))
                        elif queued is None or fn in queued:
                            ready_nodes[-fn.sequence_nr] = fn, buffer
                            heapq.heappush(ready, -fn.sequence_nr)
                if node is None:
                    recorder = observe.pass_started(self, leaves, ready_nodes)
                elif recorder is not None:
                    recorder.step(node, received, grads, outputs)
                if not leaves and not ready:
                    return self.captured
                node, received = leaves.popleft() if leaves else ready_nodes.pop(heapq.heappop(ready))
                grads, edges = received, node.next_edges
                try:
                    if node.hooked or not plain or recorder is not None:
                        grads, outputs = self.evaluate(node, grads)
                    elif type(node) is AccumulateGrad:
                        outputs = hooks.accumulate(node.variable, grads[0], False)
                    else:
                        outputs = node.apply(grads)
                        if release:
                            node.release()
                except BaseException as error:
                    if recorder is not None:
                        recorder.failed(node, error)
                    raise

    def evaluate(self, node: Node, grads: list[Grad]) -> tuple[list[Grad], list[Grad]]:
        """One node (``evaluate_function``): returns the gradients it used and the ones it sends."""
        runs = self.needed is None or node in self.needed
        if runs:  # torch captures for a node that runs before its hooks, for one that does not after
            self.capture(node, grads)
        grads = hooks.tensor_hooks(node, grads, self.create_graph) if node.hooked else grads
        if not runs:
            self.capture(node, grads)
            return grads, []
        if node.pre_hooks:
            grads = hooks.node_hooks(node.pre_hooks, grads, (), self.create_graph)
        if type(node) is AccumulateGrad:
            outputs: list[Grad] = hooks.accumulate(node.variable, grads[0], self.create_graph)
        else:
            outputs = node.apply(grads)
        if node.post_hooks or self.queued is not None:  # torch computes no gradient along these edges
            outputs = [g if fn is not None and (self.queued is None or fn in self.queued) else None
                       for (fn, _), g in zip(node.next_edges, outputs)]
        if node.post_hooks:
            outputs = hooks.node_hooks(node.post_hooks, outputs, grads, self.create_graph)
        if not self.keep_graph:
            node.release()
        return grads, outputs

    def capture(self, node: Node, grads: list[Grad]) -> None:
        for input_nr, i in self.captures.get(node, ()):
            self.captured[i] = grads[input_nr]


class AnomalyTask(GraphTask):
    """Anomaly mode's pass (torch's ``evaluate_function``, ``GraphTask::set_exception``): an error in a node's turn,
    its hooks included, first warns where the node was made; a nan it sends after its post-hooks is an error."""

    def evaluate(self, node: Node, grads: list[Grad]) -> tuple[list[Grad], list[Grad]]:
        try:
            grads, outputs = super().evaluate(node, grads)
            anomaly.check_nan(node, outputs)
        except BaseException:
            anomaly.warn_failure(node)
            raise
        return grads, outputs


def _dependencies(edges: list[Edge]) -> dict[Node, int]:
    """For each node reachable along ``edges``, how many edges point at it (``edges`` included)."""
    deps: dict[Node, int] = {}
    stack = [edges]
    while stack:
        for nxt, _ in stack.pop():
            if nxt is not None:
                deps[nxt] = count = deps.get(nxt, 0) + 1
                if count == 1:  # first seen: its own edges next
                    stack.append(nxt.next_edges)
    return deps


def _needed(roots: list[Node | None], inputs: list[Edge], accumulate: bool,
            captures: dict[Node, list[tuple[int, int]]]) -> set[Node]:
    """torch's ``init_to_execute``: the inputs' nodes (``backward``) and every node that leads to one."""
    needed: set[Node] = set()
    for i, (fn, nr) in enumerate(inputs):
        if fn is not None:
            if accumulate:
                needed.add(fn)
            else:
                captures.setdefault(fn, []).append((nr, i))
    targets = needed | set(captures)
    seen: set[Node] = set()
    for root in roots:  # a post-order walk: a node is needed when a next node is needed or captured
        if root is None or root in seen:
            continue
        seen.add(root)
        stack = [(root, iter(root.next_edges))]
        while stack:
            node, edges = stack[-1]
            for nxt, _ in edges:
                if nxt is not None and nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, iter(nxt.next_edges)))
                    break
            else:
                stack.pop()
                if any(n in needed or n in targets for n, _ in node.next_edges if n is not None):
                    needed.add(node)
    return needed


__all__ = ["AnomalyTask", "GraphTask", "backward", "grad"]
