"""State a student's function leaves on the graph it is given: an attribute set on the nodes (a
``visited`` flag, a buffer kept on the node), which a second call on the same graph meets.

A fresh import of the student's module meets it too (the state is the graph's, not the
module's), so ``helpers.RaisedOnlyAgain`` cannot tell it, and the error a later call raises (a
``KeyError`` naming a node by its address) says nothing of the earlier call.  While a probe runs
``on_graphs_told(sub, names)``, each call of those functions on a Value notes which nodes of its
graph the call set attributes on (compared by identity, before and after the call), and an error
a later call raises on a graph holding such a node is raised again as
``helpers.ArgumentChanged``, told with that earlier call (``grader.judge.explain``).

State the module keeps instead (a module-level ``seen`` set, never cleared) shows the same way,
on a second call on one graph, and not on a fresh import: each call that returned also notes the
nodes of the graph it was given, and an error a later call of the same function raises on such a
graph, where the same call returns as the first of a fresh import, is raised again as
``WalkedAgain``.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import micrograph

from grader.spec.helpers import ArgumentChanged, in_place_of, returns_when_fresh
from grader.spec.probe import error_text

GRAPH = "graph"  # the kind of argument ArgumentChanged names: the nodes of a Value's graph


class WalkedAgain(Exception):
    """The student's function raised on a graph an earlier call of it was given and returned on,
    where the same call returns as the first call of a fresh copy of their module: what it does
    depends on state it keeps between calls.  Its message is ``"<function> <parameter> <error's
    text>"``; it is raised with the error's traceback, so the grader sees the line the error came
    from."""


def graph_nodes(value: micrograph.Value) -> list[micrograph.Node]:
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
    return {name: graph_nodes(value) for name, value in bound.arguments.items() if isinstance(value, micrograph.Value)}


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
    holding such a node is raised again as ``ArgumentChanged``; one a later call raises on a graph
    an earlier call of the same function was given, where a fresh import's same call returns, as
    ``WalkedAgain``."""
    changed: dict[int, micrograph.Node] = {}  # by id, each node kept alive: no id is reused
    walked: dict[str, dict[int, micrograph.Node]] = {name: {} for name in names}  # by function, as changed

    def told(name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(original)
        def call(*args: Any, **kwargs: Any) -> Any:
            graphs = _graphs_given(original, args, kwargs)
            before = {param: [(node, _attributes(node)) for node in nodes] for param, nodes in graphs.items()}
            try:
                result = original(*args, **kwargs)
            except (NotImplementedError, ArgumentChanged, WalkedAgain):
                raise  # a stub, or told already by the function it called
            except Exception as exc:
                hit = next((p for p, nodes in graphs.items() if any(id(n) in changed for n in nodes)), None)
                if hit is not None:
                    raise ArgumentChanged(f"{name} {name} {hit} {GRAPH} {error_text(exc)}"
                                          ).with_traceback(exc.__traceback__) from None
                again = next((p for p, nodes in graphs.items() if any(id(n) in walked[name] for n in nodes)), None)
                if again is None or not returns_when_fresh(sub, name, args, kwargs):
                    raise
                raise WalkedAgain(f"{name} {again} {error_text(exc)}").with_traceback(exc.__traceback__) from None
            changed.update((id(node), node) for snap in before.values() for node, attrs in snap if _changed(node, attrs))
            walked[name].update((id(node), node) for nodes in graphs.values() for node in nodes)
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
