"""The backward pass: PyTorch's engine (``torch/csrc/autograd/engine.cpp``) in one loop.

``backward()`` and ``grad()`` both build a *graph task* and run it:

1. **Roots.**  Each output's gradient edge (``Value.gradient_edge``: its ``grad_fn``, or a
   leaf's ``AccumulateGrad``) gets the output's gradient, as torch's ``GraphRoot`` sends it.
2. **Dependencies** (``compute_dependencies``): for every node reachable from the roots, how
   many edges point at it.  A node runs once all of them have delivered.
3. **What to run** (``init_to_execute``), only with ``inputs``: the nodes on a path to an
   input.  ``grad()`` *captures* the inputs' gradients instead of running their accumulators.
4. **The loop** (``thread_main`` / ``evaluate_function``): take the ready node with the highest
   sequence number (the newest; ``AccumulateGrad`` first, in the order they became ready) from a heap; sum of what reached it
   is its *input buffer*; tensor hooks and ``retain_grad`` see it, then node pre-hooks, then
   ``apply`` (the op's formula, or writing ``.grad``), then post-hooks, then
   ``release_variables`` unless ``retain_graph``.  Each gradient it returns goes into the input
   buffer of the next node along that edge; a node whose count reaches 0 is ready.

Grad mode during the pass is ``create_graph``: a plain backward records nothing (hooks run with
grad mode off), ``create_graph=True`` records the backward formulas as a graph of their own.
"""

from __future__ import annotations

import heapq
import itertools
from typing import Any

from micrograph import anomaly, arguments, observe
from micrograph.grad_mode import set_grad_enabled
from micrograph.node import AccumulateGrad, Edge, Grad, Node
from micrograph.value import Value

UNUSED_INPUT = ("The differentiated Tensor at index {} appears to not have been used in the graph. "
                "Set allow_unused=True if this is the desired behavior.")
NO_GRAD_INPUT = "One of the differentiated Tensors does not require grad"


def backward(tensors: Any, grad_tensors: Any = None, retain_graph: bool | None = None, create_graph: bool = False,
             grad_variables: Any = None, inputs: Any = None) -> None:
    """Accumulate the gradients of ``tensors`` into the ``.grad`` of the leaves (or of ``inputs``)."""
    grad_tensors = arguments.grad_variables(grad_tensors, grad_variables)
    create_graph = arguments.flag(create_graph)
    keep_graph = create_graph if retain_graph is None else arguments.flag(retain_graph)
    outputs = arguments.outputs_of(tensors)
    grads = arguments.grads_for(tensors, outputs, grad_tensors)
    targets = None if inputs is None else arguments.check_inputs(arguments.inputs_of(inputs, "backward"))
    roots = _roots(outputs, grads, create_graph)
    if targets is not None:
        for v in targets:
            v.retain_grad()  # backward(inputs=non_leaf) fills its .grad, as torch's run_backward
        edges = [_input_edge(v) for v in targets]
    else:
        edges = None
    GraphTask(roots, keep_graph, create_graph, edges, accumulate=True).run()


def grad(outputs: Any, inputs: Any, grad_outputs: Any = None, retain_graph: bool | None = None,
         create_graph: bool = False, only_inputs: bool = True, allow_unused: bool | None = None,
         is_grads_batched: bool = False, materialize_grads: bool = False) -> Any:
    """The gradients of ``outputs`` with respect to ``inputs``, returned, not accumulated."""
    arguments.only_inputs(only_inputs)
    arguments.refuse_batched(is_grads_batched)
    create_graph = arguments.flag(create_graph)
    keep_graph = create_graph if retain_graph is None else arguments.flag(retain_graph)
    materialize_grads = arguments.flag(materialize_grads)
    allow_unused = None if allow_unused is None else arguments.flag(allow_unused)
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, "
                         "but got: allow_unused=False.")
    allow_unused = materialize_grads if allow_unused is None else allow_unused
    outs = arguments.outputs_of(outputs)
    targets = arguments.check_inputs(arguments.inputs_of(inputs, "grad"))
    grads = arguments.grads_for(outputs, outs, grad_outputs)
    roots = _roots(outs, grads, create_graph)
    for v in targets:
        if not v._requires_grad:
            raise RuntimeError(NO_GRAD_INPUT)
    edges = [_input_edge(v) for v in targets]
    captured = GraphTask(roots, keep_graph, create_graph, edges, accumulate=False).run()
    result = _grads_of(captured, allow_unused, materialize_grads)
    return dict(zip(inputs, result)) if type(inputs) is dict else result  # grad(y, {"a": a}) gives {"a": ...}


def _grads_of(captured: list[Grad], allow_unused: bool, materialize_grads: bool) -> tuple[Value | None, ...]:
    """The captured gradients as Values; an input no gradient reached is an error unless allowed."""
    result: list[Value | None] = []
    for i, g in enumerate(captured):
        if g is None:
            if not allow_unused:
                raise RuntimeError(UNUSED_INPUT.format(i))
            if materialize_grads:
                g = 0.0
        result.append(None if g is None else _as_value(g))
    return tuple(result)


def _roots(outputs: list[Value], grads: list[Any], create_graph: bool) -> list[tuple[Edge, Grad]]:
    """torch's ``_make_grads`` and the root checks of ``run_backward``."""
    roots = []
    for i, (out, g) in enumerate(zip(outputs, grads)):
        if not out._requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        if g is None:
            g = Value(1.0) if create_graph else 1.0
        elif not create_graph:
            g = g._storage[0]
        roots.append((out.gradient_edge(), g))
    return roots


def _input_edge(v: Value) -> Edge:
    if v.grad_fn is not None:
        return v.grad_fn, v.output_nr
    acc = None if v._accumulator is None else v._accumulator()
    return (acc, 0) if acc is not None else (None, 0)


def _as_value(g: Grad) -> Value:
    return g if type(g) is not float else Value.shared([g], None)


def _add(a: Grad, b: Grad) -> Grad:
    """Sum two gradients arriving at one input buffer (None is "nothing arrived")."""
    if a is None:
        return b
    if b is None:
        return a
    if type(a) is float and type(b) is float:
        return a + b
    return _as_value(a) + _as_value(b)


class GraphTask:
    """One backward pass (torch's ``GraphTask``): dependency counts, input buffers, the ready heap."""

    def __init__(self, roots: list[tuple[Edge, Grad]], keep_graph: bool, create_graph: bool,
                 inputs: list[Edge] | None, accumulate: bool) -> None:
        self.roots = roots
        self.keep_graph = keep_graph
        self.create_graph = create_graph
        self.inputs = inputs
        self.accumulate = accumulate
        self.dependencies = _dependencies(roots)
        # exec_info: with inputs, only the nodes on a path to one run; grad() captures at the inputs.
        self.captures: dict[Node, list[tuple[int, int]]] = {}
        self.needed: set[Node] | None = None
        if inputs is not None:
            self.needed = _needed(roots, inputs, accumulate, self.captures)
        self.captured: list[Grad] = [None] * (len(inputs) if inputs is not None else 0)
        self.pushed = itertools.count()  # ties (AccumulateGrad nodes) run in the order they became ready

    def run(self) -> list[Grad]:
        buffers: dict[Node, list[Grad]] = {}
        ready: list[tuple[int, int, Node]] = []
        for (fn, nr), g in self.roots:  # the GraphRoot's one run: send each root its gradient
            if fn is not None:
                # A single root is the graph root itself: queued even off every input's path.
                self._send(fn, nr, g, buffers, ready, always=len(self.roots) == 1)
        recorder = observe.pass_started(self, ready)
        with set_grad_enabled(self.create_graph):
            while ready:
                node = heapq.heappop(ready)[2]
                received = buffers.pop(node)
                try:
                    grads, outputs = self._evaluate(node, received)
                except BaseException as error:
                    if recorder is not None:
                        recorder.failed(node, error)
                    raise
                for (fn, nr), g in zip(node.next_edges, outputs):
                    if fn is not None:
                        self._send(fn, nr, g, buffers, ready)
                if recorder is not None:
                    recorder.step(node, received, grads, outputs)
        return self.captured

    def _send(self, fn: Node, nr: int, g: Grad, buffers: dict[Node, list[Grad]],
              ready: list[tuple[int, int, Node]], always: bool = False) -> None:
        """Add ``g`` to ``fn``'s input buffer; queue ``fn`` once every edge into it has delivered."""
        buffer = buffers.get(fn)
        if buffer is None:
            buffer = buffers[fn] = [None] * fn.num_outputs
        buffer[nr] = g if buffer[nr] is None else _add(buffer[nr], g)
        left = self.dependencies[fn] - 1
        self.dependencies[fn] = left
        if not left and (always or self.needed is None or fn in self.needed or fn in self.captures):
            heapq.heappush(ready, (-fn.sequence_nr, next(self.pushed), fn))

    def _evaluate(self, node: Node, grads: list[Grad]) -> tuple[list[Grad], list[Grad]]:
        """One node: hooks, capture, apply, post-hooks, release.  Returns (grads used, grads sent)."""
        if self.needed is not None and node not in self.needed:  # only captured: hooks, then capture
            grads = self._tensor_hooks(node, grads)
            for input_nr, i in self.captures.get(node, ()):
                self.captured[i] = grads[input_nr]
            return grads, []
        for input_nr, i in self.captures.get(node, ()):  # torch captures a node that runs before its hooks
            self.captured[i] = grads[input_nr]
        grads = self._tensor_hooks(node, grads)
        if node.pre_hooks:
            grads = _call_hooks(node.pre_hooks, grads, lambda h, gs: h(gs), self.create_graph)
        if type(node) is AccumulateGrad:
            outputs: list[Grad] = []
            _accumulate(node.variable, grads[0], self.create_graph)
        else:
            try:
                outputs = list(node.apply(grads))
                if anomaly.state.enabled and anomaly.state.check_nan:
                    anomaly.check_grads(node, outputs)
            except Exception:
                if anomaly.state.enabled:
                    anomaly.warn_failure(node)
                raise
            for i, (fn, _) in enumerate(node.next_edges):  # torch computes no gradient for these
                if fn is None or self.needed is not None and fn not in self.needed and fn not in self.captures:
                    outputs[i] = None
        if node.post_hooks:
            outputs = _call_hooks(node.post_hooks, outputs, lambda h, gs: h(gs, tuple(map(_hook_arg, grads))),
                                  self.create_graph)
        if not self.keep_graph:
            node.release()
        return grads, outputs

    def _tensor_hooks(self, node: Node, grads: list[Grad]) -> list[Grad]:
        """Tensor hooks on the node's outputs (a leaf's, for AccumulateGrad), then retain_grad."""
        if type(node) is AccumulateGrad:
            hooks = node.variable._hooks
            if hooks:
                grads = [_run_tensor_hooks(hooks, grads[0], self.create_graph)]
            return grads
        if node.tensor_hooks:
            grads = list(grads)
            for hook in list(node.tensor_hooks):
                grads[hook.output_nr] = _run_tensor_hooks((hook.fn,), grads[hook.output_nr], self.create_graph)
        if node.retained:
            for nr, ref in list(node.retained.items()):
                v = ref()
                if v is not None and grads[nr] is not None:
                    _write_grad(v, grads[nr], self.create_graph, observe.Writer.RETAIN_GRAD)
        return grads


def _run_tensor_hooks(hooks: Any, g: Grad, create_graph: bool) -> Grad:
    """Each hook sees the gradient as a Value (None stays None); what it returns replaces it,
    and what it changed in place stays changed."""
    for hook in list(hooks):
        arg = _hook_arg(g)
        result = hook(arg)
        if result is not None:
            if not isinstance(result, Value):
                arguments.refuse_hook_result(hook, result)
            arg = result
        g = arg if arg is None or create_graph else arg._storage[0]
    return g


def _call_hooks(hooks: list[Any], grads: list[Grad], call: Any, create_graph: bool) -> list[Grad]:
    """Node pre- or post-hooks: each may return a tuple of new gradients, checked as torch checks it."""
    for hook in list(hooks):
        args = tuple(map(_hook_arg, grads))
        result = call(hook, args)
        if result is None:
            result = args  # changed in place, or not at all
        if not isinstance(result, tuple):
            raise TypeError(f"expected tuple, but hook returned '{type(result).__name__}'")
        if len(result) != len(grads):
            name = getattr(hook, "__name__", type(hook).__name__)
            raise RuntimeError(f"hook '{name}' has returned an incorrect number of values "
                               f"(got {len(result)}, but expected {len(grads)})")
        for r, before in zip(result, grads):
            if r is not None and not isinstance(r, Value):
                raise TypeError(f"expected Variable, but hook returned '{type(r).__name__}'")
            if r is not None and before is None:
                raise RuntimeError("can't replace a None gradient with a non-None value")
        grads = [r if r is None or create_graph else r._storage[0] for r in result]
    return grads


def _hook_arg(g: Grad) -> Value | None:
    return None if g is None else _as_value(g)


def _accumulate(v: Value, g: Grad, create_graph: bool) -> None:
    """``AccumulateGrad::apply``: add ``g`` into the leaf's ``.grad``, then its post-accumulate hooks."""
    if g is None:
        return
    _write_grad(v, g, create_graph, observe.Writer.ACCUMULATE_GRAD)
    if v._post_accumulate_hooks:
        for hook in list(v._post_accumulate_hooks):
            result = hook(v)
            if isinstance(result, Value):
                raise RuntimeError("Tensor post accumulate grad hooks should return None.")
            if result is not None:
                raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")


def _write_grad(v: Value, g: Grad, create_graph: bool, writer: observe.Writer) -> None:
    """A first gradient is a new tensor (recorded as a clone under create_graph); later ones add:
    in place in a plain backward, out of place (recorded) under create_graph."""
    old = v._grad
    if old is None:
        v._grad = g.clone() if create_graph else Value.shared([g], None)
    elif create_graph:
        v._grad = old + g
    else:
        old._storage[0] += g if type(g) is float else g._storage[0]
        old.shared_vc()[0] += 1
    observe.wrote(v, writer)


def _dependencies(roots: list[tuple[Edge, Grad]]) -> dict[Node, int]:
    """For each reachable node, how many edges point at it (the roots' edges included)."""
    deps: dict[Node, int] = {}
    stack = []
    for (fn, _), _g in roots:
        if fn is not None:
            if fn not in deps:
                deps[fn] = 0
                stack.append(fn)
            deps[fn] += 1
    while stack:
        for nxt, _ in stack.pop().next_edges:
            if nxt is not None:
                if nxt not in deps:
                    deps[nxt] = 0
                    stack.append(nxt)
                deps[nxt] += 1
    return deps


def _needed(roots: list[tuple[Edge, Grad]], inputs: list[Edge], accumulate: bool,
            captures: dict[Node, list[tuple[int, int]]]) -> set[Node]:
    """torch's ``init_to_execute``: the nodes from which an input can be reached."""
    needed: set[Node] = set()
    for i, (fn, nr) in enumerate(inputs):
        if fn is None:
            continue
        if accumulate:
            needed.add(fn)
        else:
            captures.setdefault(fn, []).append((nr, i))
    targets = needed | set(captures)
    # A post-order walk: a node is needed when one of its next nodes is needed or captured.
    seen: set[Node] = set()
    for (root, _), _g in roots:
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


__all__ = ["GraphTask", "backward", "grad"]
