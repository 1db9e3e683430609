"""Objects a program of the probes made (a build-track graph, the lists ex15 hands to train), kept
alive until the child ends.

CPython gives a freed object's memory, and so its ``id()``, to the next object of its size.  An
engine that knows what backward released by ``id(node)`` (a set of released ids, not a flag on
the node) refuses a new node put where a released one was; whether a later program meets that
depends on where the allocator put its nodes, which depends on everything run before: the same
answer then scored differently from run to run.  The programs of the stage checks, the diagram
and ex20's probes keep their roots here, so no node a backward ran is freed by chance; ex20's
probe of new graphs frees one on purpose and checks that a new node took its place.  So do
ex18's programs with every value they retain: an engine that knows retained nodes by their ids
meets a freed one only in the probe that frees one on purpose (``grader.spec.freed``); so do
ex15's lists of rows, for a loop that keeps a batch by ``id(inputs)``; so does every Value handed
to ex14's Functions while a probe runs (``grader.spec.applied``), for a backward that keeps an
answer by ``id(x)``.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")

_HELD: list[Any] = []


def kept(value: T) -> T:
    """``value``, held (``held``): a root made and backpropagated through at once
    (``kept(w * w).backward()``), whose node no later root is put at."""
    _HELD.append(value)
    return value


def held(*values: Any) -> None:
    """Keep ``values`` (and what they refer to: through a Value's ``grad_fn``, the nodes behind
    it) alive until the child ends."""
    _HELD.extend(values)
