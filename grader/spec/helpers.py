"""Which of the student's own helpers a test's probe ran, for a test that cannot build the
tested function's inputs itself (``backprop(root)`` calls the student's ``topological_order``).

``Exercise.test(runs_with=...)`` names such helpers.  While the probe runs, each is replaced
in the student's module by a wrapper that notes it was called and calls it; the probe's
observation (a dict: a list of runs goes under ``runs``) then gets the context key ``~runs_with``: the helpers that ran (never compared,
since the reference's calls are its own).  The parent names the combination only for a helper
that ran (``grader.judge.grading``), whether the function tested called it or the probe did
(a test that builds its graph with the student's ``build_graph``).
"""

from __future__ import annotations

import contextlib
import functools
import inspect
from collections.abc import Callable, Iterable, Iterator
from types import ModuleType
from typing import Any

from grader.spec.facts import CONTEXT

HELPERS_RAN = CONTEXT + "runs_with"


def noting(probe: Callable[[ModuleType], Any], helpers: Iterable[str]) -> Callable[[ModuleType], Any]:
    """``probe``, noting in its observation (a dict) which of ``helpers`` ran while it ran."""
    names = tuple(helpers)

    @functools.wraps(probe)
    def observed(sub: ModuleType) -> Any:
        ran: set[str] = set()
        originals = {name: getattr(sub, name) for name in names if callable(getattr(sub, name, None))}
        for name, original in originals.items():
            setattr(sub, name, _noted(original, name, ran))
        try:
            observation = probe(sub)
        finally:
            for name, original in originals.items():
                setattr(sub, name, original)
        if type(observation) is not dict:
            observation = {"runs": observation}  # a list of runs: the note needs a key of its own
        return {**observation, HELPERS_RAN: sorted(ran)}

    return observed


def _noted(function: Callable[..., Any], name: str, ran: set[str]) -> Callable[..., Any]:
    @functools.wraps(function)  # its signature is the helper's (``arguments_of`` binds to it)
    def call(*args: Any, **kwargs: Any) -> Any:
        ran.add(name)
        return function(*args, **kwargs)
    return call


@contextlib.contextmanager
def arguments_of(sub: ModuleType, name: str) -> Iterator[list[list[Any]]]:
    """The arguments each call of the student's ``name`` got while the ``with`` block ran, in
    the order of its parameters (keyword arguments put in their place): which numbers the
    function tested passed on to the helper it calls (``backprop`` calling
    ``build_graph(x, w)`` shows)."""
    passed: list[list[Any]] = []
    original = getattr(sub, name, None)
    if not callable(original):
        yield passed
        return

    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            bound = inspect.signature(original).bind(*args, **kwargs)
            passed.append(list(bound.arguments.values()))
        except (TypeError, ValueError):  # arguments the helper does not take: it raises itself
            passed.append(list(args))
        return original(*args, **kwargs)

    setattr(sub, name, call)
    try:
        yield passed
    finally:
        setattr(sub, name, original)
