"""Where a gradient the engine wrote was chosen by the student's code instead: a hook of theirs
in the pass, or a write to .grad after it.

A tensor hook (``w.register_hook(lambda g: Value(formula))``), a node's pre- or post-hook may
hand the engine any number in place of the gradient, and a post-accumulate hook may change the
.grad just written: what .grad then holds was written by the engine but computed by the hook.
A hook that only looks (``w.register_hook(lambda g: seen.append(g.item()))``) changes nothing.
A number the student's code assigns to .grad after a backward is its own too.  None of these is
a gradient read (``grader.spec.origins.read_from_grad``); an honest answer uses no hook, and a
formula passed through one earns what the formula earns.  ``retain_grad``, the engine's own
hook, is none of these.
"""

from __future__ import annotations

from typing import Any

from micrograph import observe
from micrograph import value as value_module
from micrograph.node import AccumulateGrad


def post_hooked(node: Any) -> bool:
    """Whether ``node`` runs a post-hook of the student's, which may replace what it sends (and
    no record shows what it would have sent): every number of such a pass is the hook's."""
    return bool(node.post_hooks)


def replaced(step: observe.Step) -> bool:
    """Whether a tensor hook or a pre-hook of the student's gave the node another gradient than
    the one that reached it (a hook that only looks, and returns None, gives the same object)."""
    node = step.node
    hooks = node.tensor_hooks or node.pre_hooks or (type(node) is AccumulateGrad and node.hooked)
    return bool(hooks) and step.grad is not step.received


def changed_after(step: observe.Step) -> bool:
    """Whether the .grad the step wrote holds another number than the write left it (a
    post-accumulate hook, which runs after the write, changed it in place)."""
    now = value_module.peek_grad(step.wrote) if step.wrote is not None else None
    return now is not None and step.write is not None and now.item() is not step.write.data


def engine_left(v: Any) -> bool:
    """Whether ``v.grad`` is what the engine last wrote there, or that zeroed in place: not a
    number the student's code put there."""
    record = observe.grad_write(v)
    if record is None or record.grad is None or not record.by_engine:
        return False
    now = value_module.peek_grad(v)
    return record.intact(v) or (now is not None and now.item() == 0.0)


class Chosen:
    """Whether a hook of the student's chose a gradient of the pass running: from that step on
    none of the pass's numbers is held, nor what its leaves' .grad hold afterwards."""

    def __init__(self) -> None:
        self.now = False
        self.leaves: dict[int, Any] = {}  # the leaves the pass running reaches, by id

    def started(self, nodes: tuple[Any, ...], written: dict[int, Any]) -> None:
        """A pass starts through ``nodes``; ``written`` is every leaf whose .grad is sampled."""
        self.leaves = {id(node.variable): node.variable for node in nodes if type(node) is AccumulateGrad}
        self.now = False
        written.update(self.leaves)
        if any(map(post_hooked, nodes)):
            self.chose(written)

    def chose(self, written: dict[int, Any]) -> None:
        self.now = True
        for key in self.leaves:
            written.pop(key, None)

    def step(self, step: observe.Step, written: dict[int, Any]) -> bool:
        """Whether the step's numbers are a hook's (then every later step's of the pass too)."""
        if not self.now and (replaced(step) or changed_after(step)):
            self.chose(written)
        return self.now
