"""A build-track backward whose buffers are keyed by what two nodes share, not by the node.

Every AccumulateGrad has the same ``sequence_nr`` (the highest: torch runs a ready one first)
and the same ``name()``, so a buffer kept under either is one buffer for two leaves' nodes: the
first of them to run takes the gradients sent to both, and the second, looking its buffer up
(``buffers.pop(node.sequence_nr)``), meets a KeyError whose text is only that key ("inf"), which
names neither the buffers nor the nodes.  The key is read from the error, and the graph from the
frame of the student's file that raised it (the grader reads frames; the submission cannot):
where two different nodes of that graph have that key as their sequence_nr or name(), a probe
that watched the call raises the error again as ``SharedKey``, with the function that raised it,
which of the two the key is, and the nodes' class; ``grader.judge.explain`` tells it.
"""

from __future__ import annotations

import functools
import traceback
from collections.abc import Callable
from contextlib import AbstractContextManager
from types import FrameType, ModuleType
from typing import Any

from grader.spec.probe import raised_again_as

_MAX_NODES = 50_000  # a chain the probes build has some thousands: a runaway graph is not walked whole
_KEYS = {"sequence_nr": lambda node: getattr(node, "sequence_nr", None), "name()": lambda node: node.name()}


class SharedKey(Exception):
    """The student's backward raised KeyError on a key two different nodes of the graph it walked
    share (their sequence_nr, or their name()).  Its message is ``"<function> <sequence_nr or
    name()> <the nodes' class> <error's text>"``; it is raised with the error's traceback, so the
    grader sees the line it came from."""


def _graph(frames: list[FrameType]) -> list[Any]:
    """The nodes reachable through ``next_functions`` from the nodes the ``frames``' locals hold,
    and from the ``grad_fn`` of the values they hold (each node once, by identity)."""
    stack = [local if hasattr(local, "next_functions") else getattr(local, "grad_fn", None)
             for frame in frames for local in list(frame.f_locals.values())]
    found: dict[int, Any] = {}
    while stack and len(found) < _MAX_NODES:
        node = stack.pop()
        if node is None or id(node) in found or not hasattr(node, "next_functions"):
            continue
        found[id(node)] = node
        edges = node.next_functions
        stack.extend(pair[0] for pair in (edges if type(edges) in (tuple, list) else ())
                     if type(pair) in (tuple, list) and len(pair) == 2)
    return list(found.values())


def _sharing(nodes: list[Any], key: object, read: Callable[[Any], object]) -> list[Any]:
    """The nodes whose key (``read(node)``) is ``key``: a number or a str, compared as such."""
    def same(node: Any) -> bool:
        try:
            own = read(node)
        except Exception:  # noqa: BLE001 - the student's name(): a node that cannot say it shares nothing
            return False
        return type(own) in (int, float, str) and type(key) in (int, float, str) and own == key
    return [node for node in nodes if same(node)]


def told_if_shared_key(filename: str) -> AbstractContextManager[None]:
    """While the block runs: a KeyError raised in the student's file (``filename``) on a key that
    two different nodes of the graph its frames hold have as their sequence_nr or name() is raised
    again as ``SharedKey``."""
    return raised_again_as(SharedKey, lambda exc: shared_words(exc, filename))


def shared_words(exc: BaseException, filename: str) -> str | None:
    """``"<function> <sequence_nr or name()> <class>"`` where ``exc`` is a KeyError raised in the
    student's file (``filename``, its last frame there the function named) on a key two different
    nodes of one class in the graph its frames hold have as that; None otherwise.  A build-track
    gate (``grader.spec.build.needs``) tells an earlier stage's program meeting it so too."""
    frames = [frame for frame, _ in traceback.walk_tb(exc.__traceback__) if frame.f_code.co_filename == filename]
    if type(exc) is not KeyError or len(exc.args) != 1 or not frames or not frames[-1].f_code.co_name.isidentifier():
        return None
    shared = _shared_by(frames, exc.args[0])
    return None if shared is None else f"{frames[-1].f_code.co_name} {shared}"


def _shared_by(frames: list[FrameType], key: object) -> str | None:
    """``"<sequence_nr or name()> <class>"`` where two different nodes of one class in the graph
    ``frames`` hold have ``key`` as that; None otherwise, or where reading the student's objects
    fails (the KeyError is then told as it was, never replaced by an error of this reading)."""
    try:
        nodes = _graph(frames)
        for said, read in _KEYS.items():
            sharing = _sharing(nodes, key, read)
            classes = {type(node).__name__ for node in sharing}
            if len(sharing) > 1 and len(classes) == 1 and next(iter(classes)).isidentifier():
                return f"{said} {classes.pop()}"
    except Exception:  # noqa: BLE001 - a student's attribute that raises: nothing observed
        return None
    return None


def shared_key_told(probe: Callable[[ModuleType], Any]) -> Callable[[ModuleType], Any]:
    """A test's probe run with ``told_if_shared_key`` on the submission's file."""
    @functools.wraps(probe)
    def run(sub: ModuleType) -> Any:
        with told_if_shared_key(str(getattr(sub, "__file__", ""))):
            return probe(sub)
    return run
