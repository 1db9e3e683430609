"""State a student's function leaves on the graph it is given: an attribute set on the nodes (a
``visited`` flag, a buffer kept on the node), which a second call on the same graph meets.

A fresh import of the student's module meets it too (the state is the graph's, not the
module's), so ``helpers.RaisedOnlyAgain`` cannot tell it, and the error a later call raises (a
``KeyError`` naming a node by its address) says nothing of the earlier call.  While a probe runs
``on_graphs_told(sub, names)``, each call of those functions on a Value notes which nodes of its
graph the call set attributes on (compared by identity, before and after the call), and an error
a later call raises on a graph holding such a node is raised again as
``helpers.ArgumentChanged``, told with that earlier call (``grader.judge.explain``).
"""

from __future__ import annotations

import contextlib
import functools
import inspect
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import micrograph

from grader.spec.helpers import ArgumentChanged, in_place_of
from grader.spec.probe import error_text

GRAPH = "graph"  # the kind of argument ArgumentChanged names: the nodes of a Value's graph


def _nodes(value: micrograph.Value) -> list[micrograph.Node]:
    """Every node reachable from ``value.grad_fn`` (the probe's own walk, no recursion)."""
    start = value.grad_fn
    if start is None:
        return []
    seen = {id(start)}
    nodes, stack = [start], [start]
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is not None and id(child) not in seen:
                seen.add(id(child))
                nodes.append(child)
                stack.append(child)
    return nodes


def _graphs_given(function: Callable[..., Any], args: tuple[object, ...], kwargs: dict[str, object]
                  ) -> dict[str, list[micrograph.Node]]:
    """The nodes of the graph of each Value argument of a call, by the name of its parameter
    (none where the call does not fit the signature: the function raises on it itself)."""
    try:
        bound = inspect.signature(function).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return {}
    return {name: _nodes(value) for name, value in bound.arguments.items() if isinstance(value, micrograph.Value)}


def _attributes(node: micrograph.Node) -> dict[str, object]:
    """A copy of the attributes set on a node (its ``__dict__``: the engine keeps only rare state there)."""
    return dict(getattr(node, "__dict__", {}))


def _changed(node: micrograph.Node, before: dict[str, object]) -> bool:
    now = getattr(node, "__dict__", {})
    return now.keys() != before.keys() or any(now[k] is not before[k] for k in now)


@contextlib.contextmanager
def on_graphs_told(sub: ModuleType, names: tuple[str, ...]) -> Iterator[None]:
    """While the block runs, each of the student's functions ``names`` (those it defines) notes
    the nodes a call that returned set attributes on; an error a later call raises on a graph
    holding such a node is raised again as ``ArgumentChanged``."""
    changed: dict[int, micrograph.Node] = {}  # by id, each node kept alive: no id is reused

    def told(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(original)
        def call(*args: Any, **kwargs: Any) -> Any:
            graphs = _graphs_given(original, args, kwargs)
            before = {param: [(node, _attributes(node)) for node in nodes] for param, nodes in graphs.items()}
            try:
                result = original(*args, **kwargs)
            except (NotImplementedError, ArgumentChanged):
                raise  # a stub, or told already by the function it called
            except Exception as exc:
                hit = next((p for p, nodes in graphs.items() if any(id(n) in changed for n in nodes)), None)
                if hit is None:
                    raise
                raise ArgumentChanged(f"{name} {name} {hit} {GRAPH} {error_text(exc)}"
                                      ).with_traceback(exc.__traceback__) from None
            changed.update((id(node), node) for snap in before.values() for node, attrs in snap if _changed(node, attrs))
            return result
        return call

    with contextlib.ExitStack() as stack:
        for name in names:
            stack.enter_context(in_place_of(sub, name, functools.partial(told, name)))
        yield


def graph_state_told(names: tuple[str, ...]) -> Callable[[Callable[[ModuleType], Any]], Callable[[ModuleType], Any]]:
    """A probe run inside ``on_graphs_told(sub, names)``."""
    def wrap(probe: Callable[[ModuleType], Any]) -> Callable[[ModuleType], Any]:
        @functools.wraps(probe)
        def observed(sub: ModuleType) -> Any:
            with on_graphs_told(sub, names):
                return probe(sub)
        return observed
    return wrap
