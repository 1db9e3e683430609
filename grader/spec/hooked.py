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
