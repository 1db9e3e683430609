"""Watch the engine work: a small, read-only observation seam.

The engine's results are the same whether anyone watches or not; this module
only *reports* what it did.  Three questions, for the grader and the backward
trace (``micrograph.viz.trace_backward``):

* ``grad_write(v)``: who last wrote ``v.grad``?  The engine's backward (a
  leaf's ``AccumulateGrad``, or ``retain_grad`` on a non-leaf; ``backward(inputs=)``
  goes through the same two), or an assignment ``v.grad = ...``.  The record
  keeps the pass number and the grad Value's version right after the write, so
  a later in-place change (``v.grad.zero_()``, ``v.grad += 1``) or a swap of
  the object behind ``.grad`` is visible: ``record.intact(v)``.
* ``passes()``: how many backward / ``grad()`` passes the engine has started in
  this process (a pass that fails midway counts: it started).
* ``observing(observer)``: while active, the engine tells ``observer`` when a
  pass starts (``PassStart``), after each node it runs (``Step``) and when a
  node fails (``Failure``).  Records hold the engine's own objects (nodes,
  gradients as floats, or Values under ``create_graph``): read them, do not
  change them.

Why a seam instead of wrapping the engine: the grader must see backward passes
a student started through any alias of the engine's functions, and the trace
must see the engine's real order, not a re-implementation of it.

Cost when nobody observes: one counter increment per pass, one small record per
``.grad`` written, and one ``is None`` check per node run (``benchmarks``).

The observer is process-wide (like ``passes()``), not per thread.  This is an
observation aid, not a security boundary: code in the same process can forge a
record; ``intact`` only catches the ordinary ways of changing ``.grad``.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, NamedTuple

from micrograph.node import AccumulateGrad, Node

if TYPE_CHECKING:
    from micrograph.value import Value

Grad = Any  # a float during a plain backward, a Value when create_graph=True


class Writer(enum.Enum):
    """Who wrote a ``.grad``."""

    ACCUMULATE_GRAD = "AccumulateGrad"  # the engine, into a leaf
    RETAIN_GRAD = "retain_grad"  # the engine, into a non-leaf that called retain_grad()
    USER = "assignment"  # ``v.grad = ...`` (also optimizers' zero_grad(set_to_none=True))


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
        if v._grad is not grad:
            return False
        if grad is None:
            return True
        now = grad._storage[0]
        same = now == self.data or (now != now and self.data != self.data)  # NaN stays NaN
        return same and (0 if grad._vc is None else grad._vc[0]) == self.version  # _version raises for inference values


class Send(NamedTuple):
    """What a node sent along one of its edges (``next_functions[i]``)."""

    to: Node | None  # None: the input needs no gradient (a constant)
    grad: Grad | None  # None: nothing sent (the node did not run, or its backward said None)
    followed: bool  # False for a None edge, or one outside the part ``grad(inputs=...)`` needs


class PassStart(NamedTuple):
    number: int  # 1 for the first pass in this process, as ``passes()`` counts
    kind: PassKind
    roots: tuple[tuple[Node, Grad], ...]  # the nodes backward starts from, with their gradients
    dependencies: Mapping[Node, int]  # edges pointing at each node (nodes with none are absent)
    retain_graph: bool
    create_graph: bool
    restricted_to: frozenset[Node] | None  # grad() / backward(inputs=): the nodes that lead to an input
    ready: tuple[Node, ...]  # the ready queue before the first step, in the order the engine takes it


class Step(NamedTuple):
    """One node taken from the ready queue; reported after it ran."""

    pass_number: int
    index: int  # 0, 1, ... within the pass: the engine's order
    node: Node
    received: Grad | None  # the gradient buffer: roots' gradients plus everything sent to it
    contributions: int  # how many gradients were summed into ``received``
    grad: Grad | None  # what the node used: ``received`` after hooks (None: it did not run)
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
    """Subclass and override what you need; the engine calls these while ``observing``.

    An observer that has seen enough sets ``finished``: passes that start after
    that are only counted, as if nobody watched (a training loop's hundredth
    backward then costs nothing).  One that only wants to know how passes start
    sets ``wants_steps = False``: its passes then run unrecorded, as fast as unobserved.
    """

    finished = False
    wants_steps = True  # whether step() and failed() are wanted

    def pass_started(self, start: PassStart) -> None:
        pass

    def step(self, step: Step) -> None:
        pass

    def failed(self, failure: Failure) -> None:
        pass


_passes = 0
_observer: Observer | None = None


def passes() -> int:
    """How many backward / grad() passes the engine has started in this process."""
    return _passes


def grad_write(v: Value) -> GradWrite | None:
    """Who last wrote ``v.grad`` (None: nobody since ``v`` was made)."""
    raw = v._grad_write
    return None if raw is None else GradWrite._make(raw)


@contextmanager
def observing(observer: Observer) -> Iterator[Observer]:
    """Report every pass the engine runs inside the block to ``observer``."""
    global _observer
    if not isinstance(observer, Observer):
        raise TypeError(f"observing() takes an Observer, got {type(observer).__name__}")
    previous, _observer = _observer, observer
    try:
        yield observer
    finally:
        _observer = previous


# -- called by the engine --------------------------------------------------------------------
def wrote(v: Value, writer: Writer) -> None:
    """Record that ``writer`` just wrote ``v._grad``.

    Stored as a plain tuple in GradWrite's field order (``grad_write`` makes
    the record): the engine writes the same tuple inline for every leaf it
    accumulates into, where a function call and a NamedTuple cost too much.
    """
    grad = v._grad
    if grad is None:
        v._grad_write = (writer, _passes, None, None, None)
    else:
        v._grad_write = (writer, _passes, grad, 0 if grad._vc is None else grad._vc[0], grad._storage[0])


def pass_started(
    roots: list[tuple[Node, Grad]],
    order: list[Node],
    keep_graph: bool,
    create_graph: bool,
    needed: set[Node] | None,
    kind: PassKind,
) -> _PassRecorder | None:
    """Count a new pass; the recorder the engine reports its steps to, or None if nobody watches.

    ``order`` is every node the pass may run, in the engine's order.
    """
    global _passes
    _passes += 1
    if _observer is None or _observer.finished:
        return None
    deps: dict[Node, int] = {}  # what a ready queue counts: the edges pointing at each node
    for node in order:
        for nxt in node:
            if nxt is not None and (needed is None or nxt in needed):
                deps[nxt] = deps.get(nxt, 0) + 1
    position = {node: i for i, node in enumerate(order)}
    ready = sorted({n for n, _ in roots if n not in deps}, key=position.__getitem__)
    start = PassStart(
        _passes, kind, tuple(roots), deps, keep_graph, create_graph,
        None if needed is None else frozenset(needed), tuple(ready),
    )
    observer = _observer
    observer.pass_started(start)
    return None if observer.finished or not observer.wants_steps else _PassRecorder(observer, start, position)


class _PassRecorder:
    """Turns the engine's loop variables into ``Step`` records for one pass.

    It keeps what the engine does not: how many gradients reached each node,
    the dependency counts left, the nodes ready to run (all their gradients
    in, not run yet), and which nodes still held saved values.
    """

    def __init__(self, observer: Observer, start: PassStart, position: dict[Node, int]) -> None:
        self.observer = observer
        self.number = start.number
        self.needed = start.restricted_to
        self.index = 0
        self.pending = dict(start.dependencies)
        self.position = position  # each node's place in the engine's order
        self.arrived: dict[Node, int] = {}
        for node, _ in start.roots:
            self.arrived[node] = self.arrived.get(node, 0) + 1
        self.ready = set(start.ready)
        self.holding = {n for n in (*self.pending, *self.arrived) if n._saved is not None and n.saves}

    def step(self, node: Node, received: Grad | None, grad: Grad | None, grads: tuple[Grad, ...]) -> None:
        self.ready.discard(node)
        sent = tuple(self._send(to, g) for to, g in zip(node, grads))
        waiting = tuple((s.to, self.pending[s.to]) for s in sent if s.followed)
        target, write = self._written(node)
        released = node in self.holding and node._saved is None
        step = Step(
            self.number, self.index, node, received, self.arrived.get(node, 0) if received is not None else 0,
            grad, sent, waiting, target, write, released, tuple(sorted(self.ready, key=self.position.__getitem__)),
        )
        self.index += 1
        self.observer.step(step)

    def failed(self, node: Node | None, error: BaseException) -> None:
        self.observer.failed(Failure(self.number, self.index, node, error))

    def _send(self, to: Node | None, grad: Grad | None) -> Send:
        followed = to is not None and (self.needed is None or to in self.needed)
        if followed:
            assert to is not None
            self.pending[to] -= 1
            if not self.pending[to]:
                self.ready.add(to)
            if grad is not None:
                self.arrived[to] = self.arrived.get(to, 0) + 1
        return Send(to, grad if followed else None, followed)

    def _written(self, node: Node) -> tuple[Value | None, GradWrite | None]:
        if type(node) is AccumulateGrad:
            target, writer = node.variable, Writer.ACCUMULATE_GRAD
        elif node._retained is not None:
            target, writer = node._retained(), Writer.RETAIN_GRAD
        else:
            return None, None
        write = None if target is None else grad_write(target)
        if write is None or write.writer is not writer or write.pass_number != self.number:
            return None, None
        return target, write


__all__ = [
    "Failure", "GradWrite", "Observer", "PassKind", "PassStart", "Send", "Step", "Writer",
    "grad_write", "observing", "passes",
]
