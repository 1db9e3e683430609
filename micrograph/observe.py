"""Watch the engine work: a small, read-only observation seam.

The engine's results are the same whether anyone watches or not; this module only *reports* what it did, for the
grader and the backward trace (``micrograph.viz.trace_backward``):

* ``grad_write(v)``: who last wrote ``v.grad``: the engine (a leaf's ``AccumulateGrad``, or ``retain_grad`` on a
  non-leaf) or an assignment ``v.grad = ...``, with the pass number and the gradient's version and number right after
  the write, so a later change is visible (``record.intact(v)``).
* ``passes()``: how many backward / ``grad()`` passes the engine has started in this process.
* ``observing(observer)``: while active, the engine tells ``observer`` when a pass starts (``PassStart``), after each
  node it runs (``Step``) and when a node fails (``Failure``); nested, every active observer hears it, outer first.

The engine calls ``pass_started`` (counts the pass; a recorder, or None when nobody watches) and ``note_grad_write`` after each
``.grad`` it writes (a tuple in ``GradWrite``'s field order).  Cost when nobody observes: one increment per pass, one
small record per ``.grad`` written.  An observation aid, not a security boundary (the grader's is ``docs/grader.md``).
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NamedTuple

from micrograph.node import AccumulateGrad, Node

if TYPE_CHECKING:
    from micrograph.engine import GraphTask
    from micrograph.value import Value

Grad = Any  # a float during a plain backward, a Value when create_graph=True


class Writer(enum.Enum):
    """Who wrote a ``.grad``."""

    ACCUMULATE_GRAD = "AccumulateGrad"  # the engine, into a leaf
    RETAIN_GRAD = "retain_grad"  # the engine, into a non-leaf that called retain_grad()
    USER = "assignment"  # ``v.grad = ...``


class PassKind(enum.Enum):
    BACKWARD = "backward"  # accumulates into .grad
    GRAD = "grad"  # autograd.grad(): captures the inputs' gradients, writes no leaf's .grad


class GradWrite(NamedTuple):
    """The last write of one value's ``.grad``."""

    writer: Writer
    pass_number: int  # the pass that wrote it; for an assignment, the passes started before it
    grad: Value | None  # the object written (None: ``.grad`` was set to None)
    version: int | None  # ``grad``'s version right after the write
    data: float | None  # its number then (``.data.copy_`` changes it without a version bump)

    @property
    def by_engine(self) -> bool:
        return self.writer is not Writer.USER

    def intact(self, v: Value) -> bool:
        """True if ``v.grad`` is still the object written, unchanged in place since."""
        grad = self.grad
        if v._gradient is not grad or grad is None:
            return v._gradient is grad
        now = grad.item()
        same = now == self.data or (now != now and self.data != self.data)  # NaN stays NaN
        return same and (0 if grad._vc is None else grad._vc[0]) == self.version


class Send(NamedTuple):
    """What a node sent along one of its edges (``next_functions[i]``)."""

    to: Node | None  # None: the input needs no gradient (a constant)
    grad: Grad | None  # None: nothing sent
    followed: bool  # False for a None edge, or one outside the part ``grad(inputs=...)`` needs


class PassStart(NamedTuple):
    number: int  # 1 for the first pass in this process, as ``passes()`` counts
    kind: PassKind
    roots: tuple[tuple[Node, Grad], ...]  # the nodes backward starts from, with their gradients
    dependencies: Mapping[Node, int]  # edges from other nodes pointing at each node (none: absent)
    retain_graph: bool
    create_graph: bool
    restricted_to: frozenset[Node] | None  # grad() / backward(inputs=): the nodes that run
    ready: tuple[Node, ...]  # the ready queue before the first step, in the order the engine takes it


class Step(NamedTuple):
    """One node taken from the ready queue; reported after it ran."""

    pass_number: int
    index: int  # 0, 1, ... within the pass: the engine's order
    node: Node
    received: Grad | None  # the input buffer: roots' gradients plus everything sent to it
    contributions: int  # how many gradients were summed into ``received``
    grad: Grad | None  # what the node used: ``received`` after tensor hooks
    sent: tuple[Send, ...]  # one per edge, in next_functions order (empty for AccumulateGrad)
    waiting: tuple[tuple[Node, int], ...]  # for each followed edge: dependencies still pending there
    wrote: Value | None  # the value whose .grad this step wrote (a leaf, or a retained non-leaf)
    write: GradWrite | None
    released: bool  # it freed its saved values (no retain_graph)
    ready: tuple[Node, ...]  # the ready queue after the step, in the order the engine takes it


class Failure(NamedTuple):
    pass_number: int
    index: int  # the step that failed
    node: Node | None
    error: BaseException


class Observer:
    """Subclass and override what you need; the engine calls these while ``observing``.  An observer
    that has seen enough sets ``finished`` (later passes are only counted); one that only wants to
    know how passes start sets ``wants_steps = False``."""

    finished = False
    wants_steps = True

    def pass_started(self, start: PassStart) -> None:
        pass

    def step(self, step: Step) -> None:
        pass

    def failed(self, failure: Failure) -> None:
        pass


_observers: tuple[Observer, ...] = ()  # the observers ``observing`` set, outermost first


def grad_write(v: Value) -> GradWrite | None:
    """Who last wrote ``v.grad`` (None: nobody since ``v`` was made)."""
    raw = v._grad_write
    return None if raw is None else GradWrite._make(raw)


@contextmanager
def observing(observer: Observer) -> Iterator[Observer]:
    """Report every pass the engine runs inside the block to ``observer``, as well as to the observers of the
    blocks around it (a trace recorded around code that watches passes of its own loses none of them)."""
    global _observers
    if not isinstance(observer, Observer):
        raise TypeError(f"observing() takes an Observer, got {type(observer).__name__}")
    previous, _observers = _observers, (*_observers, observer)
    try:
        yield observer
    finally:
        _observers = previous


def _counting() -> tuple[Callable[[], int], Callable[[Value, Writer], None], Callable[..., _PassRecorder | None]]:
    """``passes`` and the engine's ``note_grad_write`` and ``pass_started``: the pass count lives in their closure."""
    count = 0  # where no assignment to this module's attributes can set it back

    def passes() -> int:
        return count

    def note_grad_write(v: Value, writer: Writer) -> None:
        grad = v._gradient
        v._grad_write = (writer, count, None, None, None) if grad is None else (writer, count, grad, 0 if grad._vc is None else grad._vc[0], grad._storage[0])

    def pass_started(task: GraphTask, leaves: Sequence[Any], ready_nodes: Mapping[int, Any]) -> _PassRecorder | None:
        nonlocal count
        count += 1
        return _start(count, task, leaves, ready_nodes) if _observers else None
    return passes, note_grad_write, pass_started


passes, note_grad_write, pass_started = _counting()


def _queue(leaves: Sequence[Any], ready_nodes: Mapping[int, Any]) -> tuple[Node, ...]:
    """The ready queue in the order the engine takes it: the ready leaves' accumulators, then the
    other ready nodes (``ready_nodes``: -sequence_nr -> (node, input buffer)), newest first."""
    return tuple([item[0] for item in leaves] + [ready_nodes[key][0] for key in sorted(ready_nodes)])


def _start(number: int, task: GraphTask, leaves: Sequence[Any], ready_nodes: Mapping[int, Any]) -> _PassRecorder | None:
    observers = [o for o in _observers if not o.finished]  # one that has seen enough is only counted
    deps = {node: count for node, count in task.dependencies.items() if count > 0}  # edges between nodes left
    roots = tuple((fn, g) for (fn, _), g in zip(task.edges, task.grads) if fn is not None)
    kind = PassKind.BACKWARD if task.accumulate else PassKind.GRAD
    restricted = None if task.needed is None else frozenset(task.needed | set(task.captures))
    start = PassStart(number, kind, roots, deps, task.keep_graph, task.create_graph, restricted, _queue(leaves, ready_nodes))
    for observer in observers:
        observer.pass_started(start)
    stepping = tuple(o for o in observers if o.wants_steps and not o.finished)
    return _PassRecorder(stepping, start, task, leaves, ready_nodes) if stepping else None


class _PassRecorder:
    """Turns the engine's loop variables into ``Step`` records for one pass."""

    def __init__(self, observers: tuple[Observer, ...], start: PassStart, task: GraphTask, leaves: Sequence[Any],
                 ready_nodes: Mapping[int, Any]) -> None:
        self.observers, self.number, self.task, self.leaves, self.ready_nodes = observers, start.number, task, leaves, ready_nodes
        self.index = 0
        self.arrived = Counter(node for node, _ in start.roots)  # gradients that reached each node
        self.holding = {n for n in task.dependencies if n._saved}

    def step(self, node: Node, received: list[Grad], grads: list[Grad], outputs: list[Grad]) -> None:
        sent = []
        for (to, _), g in zip(node.next_edges, outputs or [None] * len(node.next_edges)):
            followed = to is not None and (self.task.needed is None or to in self.task.needed or to in self.task.captures)
            if followed and g is not None:
                self.arrived[to] += 1
            sent.append(Send(to, g if followed else None, followed))
        if type(node) is AccumulateGrad:
            sent = []
        waiting = tuple((s.to, self.task.dependencies[s.to]) for s in sent if s.followed)
        target, write = self._written(node)
        count = self.arrived[node] if received[0] is not None else 0
        step = Step(self.number, self.index, node, received[0], count, grads[0] if grads else None, tuple(sent),
                    waiting, target, write, node in self.holding and node._saved is None, _queue(self.leaves, self.ready_nodes))
        self.index += 1
        for observer in self.observers:
            observer.step(step)

    def failed(self, node: Node | None, error: BaseException) -> None:
        for observer in self.observers:
            observer.failed(Failure(self.number, self.index, node, error))

    def _written(self, node: Node) -> tuple[Value | None, GradWrite | None]:
        if type(node) is AccumulateGrad:
            target, writer = node.variable, Writer.ACCUMULATE_GRAD
        elif node.retained:
            target, writer = next(iter(node.retained.values()))(), Writer.RETAIN_GRAD
        else:
            return None, None
        write = None if target is None else grad_write(target)
        if write is None or write.writer is not writer or write.pass_number != self.number:
            return None, None
        return target, write


__all__ = ["Failure", "GradWrite", "Observer", "PassKind", "PassStart", "Send", "Step", "Writer", "grad_write",
           "observing", "passes"]
