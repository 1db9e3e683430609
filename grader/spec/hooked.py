"""Where a gradient the engine wrote was chosen by the student's code instead: a hook of theirs
in the pass, a number of theirs in .grad the pass added to, or a write to .grad after it.

A tensor hook (``w.register_hook(lambda g: Value(formula))``), a node's pre- or post-hook may
hand the engine any number in place of the gradient, and a post-accumulate hook may change the
.grad just written: what .grad then holds was written by the engine but computed by the hook.
A hook that only looks (``w.register_hook(lambda g: seen.append(g.item()))``) changes nothing.
A number the student's code assigns to .grad after a backward is its own too.  None of these is
a gradient read (``grader.spec.origins.read_from_grad``); an honest answer uses no hook, and a
formula passed through one earns what the formula earns.  ``retain_grad``, the engine's own
hook, is none of these.  Nor is a number the student's code put in .grad before a backward
(``w.grad = Value(formula)``, then ``(w * 0).backward()``): the engine adds to it in place and
records the sum as its own write.  ``WRITES`` sees every pass of a run, watched or not, and
tells a write of such a pass from the engine's (``chose``): who wrote a .grad is then "chosen"
(``grader.spec.provenance.grad_of``), not "backward".
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from micrograph import observe
from micrograph import value as value_module
from micrograph.function import BackwardCFunction
from micrograph.node import AccumulateGrad

from grader.spec.probe import grad as grad_number


def post_hooked(node: Any) -> bool:
    """Whether ``node`` runs a post-hook of the student's, which may replace what it sends (and
    no record shows what it would have sent): every number of such a pass is the hook's."""
    return bool(node.post_hooks)


def replaced(step: observe.Step) -> bool:
    """Whether a tensor hook or a pre-hook of the student's gave the node another gradient than
    the one that reached it: another number (a hook that only looks, and returns None, gives
    the same object; one that returns ``grad * 1.0`` a new one holding the very same number,
    from which the engine computes what it would have computed anyway)."""
    node = step.node
    hooks = node.tensor_hooks or node.pre_hooks or (type(node) is AccumulateGrad and node.hooked)
    return bool(hooks) and step.grad is not step.received and _exactly(step.grad) != _exactly(step.received)


def _exactly(grad: Any) -> str:
    """A gradient's number, exactly (``repr``: -0.0 and nan too)."""
    return repr(_number(grad))


def changed_after(step: observe.Step) -> bool:
    """Whether the .grad the step wrote holds another number than the write left it (a
    post-accumulate hook, which runs after the write, changed it in place)."""
    now = value_module.peek_grad(step.wrote) if step.wrote is not None else None
    return now is not None and step.write is not None and now.item() is not step.write.data


def engine_left(v: Any) -> bool:
    """Whether ``v.grad`` is what the engine last wrote there, or that zeroed in place: not a
    number the student's code put there, nor one a write of the engine's only carried."""
    record = observe.grad_write(v)
    if record is None or record.grad is None or not record.by_engine or WRITES.chose(v, record):
        return False
    now = value_module.peek_grad(v)
    return record.intact(v) or (now is not None and now.item() == 0.0)


def cleared(v: Any) -> bool:
    """Whether ``v.grad`` was cleared after it was written: None or zero now, and not what the
    engine last wrote there (``v.grad = None``, ``.grad.zero_()``, ``.grad.data.zero_()``, a
    new zero).  A gradient the engine wrote as zero and left alone was not cleared."""
    record = observe.grad_write(v)
    return (record is not None and grad_number(v) in (None, 0.0)
            and not (record.by_engine and record.intact(v)))


def seeded(v: Any) -> bool:
    """Whether the pass about to add into ``v.grad`` starts from a number the student's code
    put there: another one than 0, not left by the engine.  Zero, by hand or in place, is a
    reset (``w.grad = Value(0.0)``): what the pass adds is then all the engine's."""
    now = value_module.peek_grad(v)
    return now is not None and now.item() != 0.0 and not engine_left(v)


class Chosen:
    """Where a hook of the student's chose gradients in the pass running: the node whose
    gradient a hook replaced (or whose leaf's .grad it changed after the write, or whose post-hook
    may replace what it sends) and every node below it, to which that gradient flows.  None of
    their numbers is held, nor what their leaves' .grad hold afterwards; a gradient the hook's
    cannot reach (another leaf's, beside a hook on x) is still the engine's."""

    def __init__(self) -> None:
        self.below: set[int] = set()  # the nodes a chosen gradient reaches in the pass running, by id

    def started(self, nodes: tuple[Any, ...], written: dict[int, Any]) -> None:
        """A pass starts through ``nodes``; ``written`` is every leaf whose .grad is sampled."""
        self.below = set()
        written.update({id(node.variable): node.variable for node in nodes if type(node) is AccumulateGrad})
        for node in filter(post_hooked, nodes):
            self.chose(node, written)

    def chose(self, node: Any, written: dict[int, Any]) -> None:
        """Mark ``node`` and every node below it, and stop sampling their leaves' .grad."""
        stack = [node]
        while stack:
            here = stack.pop()
            if id(here) in self.below:
                continue
            self.below.add(id(here))
            if type(here) is AccumulateGrad:
                written.pop(id(here.variable), None)
            stack.extend(child for child, _ in getattr(here, "next_functions", ()) if child is not None)

    def step(self, step: observe.Step, written: dict[int, Any]) -> bool:
        """Whether the step's numbers are a hook's: its node is below one whose gradient a hook chose."""
        if id(step.node) not in self.below and (replaced(step) or changed_after(step)):
            self.chose(step.node, written)
        return id(step.node) in self.below


class Writes(observe.Observer):
    """Every backward pass of a run: the Values whose .grad a pass wrote with a number the
    student's code chose.  Set around each step of the worker, and told by a watched call
    (``grader.spec.call.Call``) while it observes, however many passes it looks at.

    A pass in which no code of the student's runs (no hook, no custom Function's backward)
    is judged as it starts: a leaf whose .grad holds a number of the student's is *seeded*.
    In a pass where the student's code runs, the engine records its steps (``wants_steps``),
    and every .grad it writes is checked: below a node whose gradient a hook chose (``Chosen``),
    changed by a post-accumulate hook after the write, or not the number the pass started from
    plus the gradient it added (a hook that only looks, or a Function's backward, may write
    another leaf's .grad before the engine adds into it)."""

    wants_steps = False

    def __init__(self) -> None:
        self.chosen: set[tuple[int, int]] = set()  # (pass number, id of the Value written)
        self.by_hook: set[tuple[int, int]] = set()  # ... those of them whose number a hook chose
        self.seeded: set[tuple[int, int]] = set()  # ... those a pass added to a number of the student's
        self.cleared: set[tuple[int, int]] = set()  # (pass number, id): a .grad a hook cleared while the pass ran
        self.functions = False  # the pass running goes through a custom Function's backward
        self.passing = Chosen()  # the pass running: the nodes a chosen gradient reaches
        self.starts: dict[int, float | None] = {}  # the pass running: each written Value's .grad number as it started
        self.compare: Callable[[], None] | None = None

    def checking(self, compare: Callable[[], None]) -> None:
        """Call ``compare`` as each pass starts and each watched call ends (``checkpoint``):
        the worker's comparison of what the submission can name, where the engine's classes
        could not be made immutable, so that a class rewritten for the length of a call is
        seen while it is."""
        self.compare = compare

    def checkpoint(self) -> None:
        if self.compare is not None:
            self.compare()

    def pass_started(self, start: observe.PassStart) -> None:
        self.checkpoint()
        nodes = (*(node for node, _ in start.roots), *start.dependencies)
        written = [v for node in nodes for v in _written_by(node)]
        self.seeded.update((start.number, id(v)) for v in written if seeded(v))
        self.chosen.update(self.seeded)
        self.wants_steps = any(node.hooked or isinstance(node, BackwardCFunction) for node in nodes)
        self.functions = any(isinstance(node, BackwardCFunction) for node in nodes)
        self.starts = {id(v): _number(value_module.peek_grad(v)) for v in written} if self.wants_steps else {}
        self.passing.started(nodes if self.wants_steps else (), {})

    def step(self, step: observe.Step) -> None:
        if not self.wants_steps:
            return  # a watched call asked for this pass's steps: no code of the student's runs in it
        below = self.passing.step(step, {})
        if step.wrote is not None and step.write is not None and not below and self.cleared_mid_pass(step):
            self.cleared.add((step.pass_number, id(step.wrote)))
        if step.wrote is not None and step.write is not None and (below or not self.summed(step)):
            self.chosen.add((step.pass_number, id(step.wrote)))
            if below:
                self.by_hook.add((step.pass_number, id(step.wrote)))

    def summed(self, step: observe.Step) -> bool:
        """Whether the .grad the step wrote holds the number it held as the pass started plus
        the gradient the step used, or that gradient alone: what the engine's write makes of them,
        nothing else (as ``seeded`` says, a .grad cleared to 0 or None is a reset, here one a hook
        of the student's made during the pass)."""
        v, write = step.wrote, step.write
        assert v is not None and write is not None
        if id(v) not in self.starts:
            return False  # retain_grad called while the pass ran: by a hook of the student's
        if type(step.node) is not AccumulateGrad and step.node.num_outputs != 1:
            return True  # which output's gradient it retained: the hooks' check above holds
        added, before = _number(step.grad), self.starts[id(v)]
        made = added if before is None or added is None else before + added
        if added == write.data:  # the gradient alone: .grad was None or 0 when the step wrote it, a
            return True  # reset (a hook of theirs may clear it mid-pass), and what the pass adds is all the engine's
        return made == write.data or (made != made and write.data != write.data)  # NaN stays NaN

    def cleared_mid_pass(self, step: observe.Step) -> bool:
        """Whether the .grad the step wrote held a number other than 0 as the pass started and holds
        the step's gradient alone now: a hook of the student's, the only code of theirs in a pass
        through no custom Function, cleared it (None, or zero) before the engine added to it."""
        v, write = step.wrote, step.write
        assert v is not None and write is not None
        before, added = self.starts.get(id(v)), _number(step.grad)
        return (not self.functions and before is not None and before != 0.0 and added is not None
                and added == write.data and before + added != write.data)

    def hook_cleared(self, passes: range, v: Any) -> bool:
        """Whether a hook of the student's cleared ``v.grad`` (kept alive by the caller) while a
        pass numbered in ``passes`` ran, before that pass added its gradient to it."""
        return any((number, id(v)) in self.cleared for number in passes)

    def chose(self, v: Any, record: observe.GradWrite) -> bool:
        """Whether ``record``, the engine's write of ``v.grad``, holds a number the student's
        code chose: written by a pass a hook of theirs chose its gradient in, or added to theirs."""
        return (record.pass_number, id(v)) in self.chosen

    def added_to_theirs(self, v: Any, record: observe.GradWrite) -> bool:
        """Whether ``record``, the engine's write of ``v.grad``, added to a number the student's
        code put there before the pass, where no hook of theirs chose a gradient: what the feedback names."""
        return (record.pass_number, id(v)) in self.seeded and (record.pass_number, id(v)) not in self.by_hook

    def hooked(self, passes: range, values: Sequence[Any]) -> bool:
        """Whether a pass numbered in ``passes`` wrote the .grad of one of ``values`` (kept alive
        by the caller, so their ids are theirs) from a gradient a hook of the student's chose."""
        return any((number, id(v)) in self.by_hook for number in passes for v in values)


def _number(grad: Any) -> float | None:
    """A gradient's number (a float in a plain pass, a Value under ``create_graph``; None), read
    with the engine's own ``item``: a hook may return a subclass of Value whose ``item`` is the
    student's."""
    return value_module.Value.item(grad) if isinstance(grad, value_module.Value) else grad


def _written_by(node: Any) -> list[Any]:
    """The Values whose .grad ``node`` writes: a leaf's, or those that called retain_grad."""
    if type(node) is AccumulateGrad:
        return [node.variable]
    return [v for v in (ref() for ref in (node.retained or {}).values()) if v is not None]


WRITES = Writes()
"""The run's one registry: a .grad's write record names its pass, whatever observed it."""
