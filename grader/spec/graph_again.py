"""An error raised in a backward pass through nodes of the graph an earlier pass of the same call
ran through.

A training loop that predicts once, before its loop, backpropagates one graph at every step:
with ``retain_graph=True`` the second pass runs, and meets the parameters that graph saved,
changed in place by the first update, and the engine raises its "modified by an inplace
operation".  The error names the backward line, not where the graph was built: a probe that
watched the call raises it again as ``GraphAgain`` (``grader.judge.caused_errors`` tells it with
that fact first).  A function that keeps its graph between calls (a ``functools.lru_cache`` of
the given build_graph) runs a later call's pass through the graph an earlier call's pass freed: that
is raised again as ``EarlierGraph``.
"""

from __future__ import annotations

import contextlib
import traceback
from collections.abc import Iterator
from contextlib import AbstractContextManager

from micrograph import AccumulateGrad, engine
from micrograph.node import SECOND_BACKWARD

from grader.spec.call import Call
from grader.spec.probe import raised_again_as


class GraphAgain(Exception):
    """The function a test called raised in a backward pass through nodes an earlier pass of it
    ran through.  Its message is ``"<function> <error's text>"``; it is raised with the error's
    traceback, so the grader sees the line it came from."""


MAX_NODES = 5000  # a graph walked further is a runaway loop's: not judged


def _ops(roots: tuple[object, ...]) -> set[object] | None:
    """The op nodes (not a leaf's AccumulateGrad) of the graph under ``roots``; None past MAX_NODES."""
    seen: dict[int, object] = {id(r): r for r in roots}
    stack = list(roots)
    while stack:
        for child, _ in getattr(stack.pop(), "next_functions", ()):
            if child is not None and id(child) not in seen and not isinstance(child, AccumulateGrad):
                if len(seen) >= MAX_NODES:
                    return None
                seen[id(child)] = child
                stack.append(child)
    return set(seen.values())


def _through_earlier(passes: list[tuple[object, ...]]) -> bool:
    """Whether the last pass's graph holds an op node an earlier pass's graph holds (every root
    is kept alive by the call's records: no id of a freed graph is another's)."""
    if len(passes) < 2:
        return False
    last = _ops(passes[-1])
    earlier = [_ops(roots) for roots in passes[:-1]]
    return last is not None and any(nodes is not None and any(n in nodes for n in last) for nodes in earlier)


def told_if_graph_again(call: Call, function: str) -> AbstractContextManager[None]:
    """While the watched ``call`` of ``function`` runs: an error raised inside the engine's
    backward walk, where the last pass ran through op nodes an earlier pass ran through, is
    raised again as ``GraphAgain``."""
    def words(exc: Exception) -> str | None:
        return function if in_pass(exc) and _through_earlier(call.root_nodes) else None
    return raised_again_as(GraphAgain, words)


class EarlierGraph(Exception):
    """The function a test called raised the engine's "backward through the graph a second time" in
    a pass through op nodes a pass of an earlier call of it ran through.  Its message is
    ``"<function> <error's text>"``; it is raised with the error's traceback."""


_EARLIER_PASSES: list[tuple[object, ...]] = []
"""The roots of every pass of the calls ``told_if_earlier_graph`` watched (kept alive, so that no
id of theirs is another graph's)."""


@contextlib.contextmanager
def told_if_earlier_graph(call: Call, function: str) -> Iterator[None]:
    """While the watched ``call`` of ``function`` runs: the engine's "backward through the graph a
    second time", where the call's last pass ran through op nodes a pass of an earlier watched call
    ran through, is raised again as ``EarlierGraph``; the call's passes are kept for the calls after it."""
    def words(exc: Exception) -> str | None:
        last = call.root_nodes[-1:]
        kept = in_pass(exc) and SECOND_BACKWARD in str(exc) and _through_earlier([*_EARLIER_PASSES, *last])
        return function if last and kept else None
    try:
        with raised_again_as(EarlierGraph, words):
            yield
    finally:
        _EARLIER_PASSES.extend(call.root_nodes)


def in_pass(exc: BaseException) -> bool:
    """Whether ``exc`` was raised inside the engine's backward walk (a frame of its traceback is the engine's)."""
    return any(frame.f_code.co_filename == engine.__file__ for frame, _ in traceback.walk_tb(exc.__traceback__))
