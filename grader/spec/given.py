"""A function given with the exercise, watched where the student's code calls it.

ex03 and ex04 hand the student a finished ``build_graph`` ("given: you need not edit it") that
the functions they write call to build their graph.  A slip made in it would show in every test
of those functions as a difference of theirs ("backward_twice(...)[1][0] is a different
number"), blaming a function that is right.  ``given_calls`` puts a recorder in the given
function's place in the student's module while a probe calls the function tested: each graph
the student's copy returns is written down as it is built, and afterwards compared with the
graph the given function builds from the same arguments (``documents_graph``, made by the probe
itself).  The CHECK fact ``GIVEN_KEPT`` holds when every such graph was the given one (and
trivially when the function tested never called it); the parent tells a failed one first,
naming the function edited and the first named Value where its graph differs.

ex11's ``x_grads`` and ex13's ``local_grads`` are given too, and return numbers, not a graph:
``given_returns`` calls the given function's own code on the arguments each call of the
student's copy gets, just before it runs, and compares what the two return (``GIVEN_KEPT``, with
``~returned``: the sentence says the result differs, not a graph).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from micrograph import Node, Value, add, is_grad_enabled, mul, no_grad

from grader.spec.facts import CONTEXT, FACT, LABEL, Check, Kind
from grader.spec.given_arguments import argument_types, call_site, grads_changed, grads_in
from grader.spec.graph import graph
from grader.spec.helpers import in_place_of
from grader.spec.positions import matches
from grader.spec.probe import close, error_text, grad, plain_dict
from grader.spec.provenance import check, grad_of, same_object, value_of

NODES = ("w", "x", "a", "b", "y")
"""The Values of the documents' graph y = (x + w) * (w + 1), root last."""
LEAVES = ("w", "x")

Snapshot = dict[str, Any] | None  # a returned graph written down (None: not the dict of NODES)


def documents_graph(w: float, x: float) -> dict[str, Value]:
    """y = (x + w) * (w + 1) from two new leaves that require grad, built by the probe itself
    with the engine's operations: the graph the given ``build_graph`` returns."""
    w_leaf, x_leaf = Value(w, requires_grad=True), Value(x, requires_grad=True)
    a, b = add(x_leaf, w_leaf), add(w_leaf, 1.0)
    return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": mul(a, b)}


def _snapshot(values: object) -> Snapshot:
    """The graph a call returned, as it was when returned (a later backward frees its saved
    values): each named Value's fact, a leaf's .grad too (new leaves hold none: leaves kept from
    an earlier call hold its gradient), and the root's graph without the context keys."""
    if type(values) is not dict or not set(NODES) <= set(values):
        return None
    named = {n: values[n] for n in NODES}
    nodes = {n: {**value_of(named[n], n), "grad": grad(named[n]) if n in LEAVES else None}
             for n in NODES}
    shape = graph(named[NODES[-1]], named, label=NODES[-1])
    return {"nodes": nodes, "graph": [{k: v for k, v in node.items() if not k.startswith(CONTEXT)}
                                      for node in shape["nodes"]],
            "numbers": [{k: v for k, v in node.items() if not k.startswith(CONTEXT) or k == NUMBER}
                        for node in shape["nodes"]]}


NUMBER = CONTEXT + "data"
"""What a snapshot keeps of a graph's context: the number each node holds, to match its nodes by
position with the given graph's (``only_names``)."""


def only_names(mine: Snapshot, given: Snapshot) -> bool:
    """Whether the student's graph is the given one, node for node, and only the Values returned
    under its names differ (``{"a": b, "b": a}``)."""
    return mine is not None and given is not None and bool(matches(given["numbers"], mine["numbers"]))


def _same_fact(mine: dict[str, Any], given: dict[str, Any]) -> bool:
    """Two VALUE facts alike: their numbers close (the same sums in another order), the rest equal."""
    a, b = mine.get("data"), given.get("data")
    numbers = a == b or (type(a) is float and type(b) is float and math.isclose(a, b, rel_tol=1e-9))
    return numbers and {**mine, "data": None} == {**given, "data": None}


def _differs_at(mine: Snapshot, given: Snapshot) -> str | None:
    """The first named Value where the student's graph differs from the given one (the root's
    name when only the graph's shape does), or None when they are the same."""
    if mine is None or given is None:
        return NODES[-1]
    where = next((n for n in NODES if not _same_fact(mine["nodes"][n], given["nodes"][n])), None)
    if where is None and only_names(mine, given):  # names on equal Values in each other's place: not seen here
        return None
    return where or (NODES[-1] if mine["graph"] != given["graph"] else None)


def _held_grad(mine: Snapshot, given: Snapshot, where: str) -> bool:
    """Whether the leaf ``where`` differs only in holding a gradient already (a leaf kept from
    an earlier call), the given function's new leaf holding none."""
    if mine is None or given is None:
        return False
    a, b = mine["nodes"][where], given["nodes"][where]
    return a["grad"] is not None and b["grad"] is None and _same_fact({**a, "grad": None}, b)


def _given_snapshot(given: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Snapshot:
    """The given function's graph on the arguments the student's copy was called with; None
    when the given one takes no such arguments (the copy's were changed)."""
    try:
        return _snapshot(given(*args, **kwargs))
    except (TypeError, ValueError):
        return None


@dataclass
class GivenCalls:
    """The calls the student's code made of the given function while a probe watched."""

    name: str
    given: Callable[..., Any]
    seen: list[tuple[tuple[Any, ...], dict[str, Any], Snapshot]] = field(default_factory=list)
    returned: list[Any] = field(default_factory=list)  # what each call returned, as it is
    modes: list[bool] = field(default_factory=list)  # whether grad mode was on at each call (told_if_untracked)

    @property
    def fact(self) -> dict[str, Any]:
        """The GIVEN_KEPT fact: every graph the student's copy returned is the given one.  A
        copy that only calls retain_grad() on a node (as the documents do) built the given graph:
        it holds, and the node retained is context (``~retained``), told beside a difference of
        the test, which it may explain (that node's .grad kept), never costing points alone."""
        retained: list[str] = []
        for args, kwargs, mine in self.seen:
            given = _given_snapshot(self.given, args, kwargs)
            retained += [n for n in _retained(mine, given) if n not in retained]
            where = _differs_at(_unretained(mine, retained), given)
            if where is not None:
                return {**check(Check.GIVEN_KEPT, False, self.name), CONTEXT + "where": where,
                        CONTEXT + "held_grad": _held_grad(mine, given, where),
                        CONTEXT + "only_names": only_names(mine, given)}
        return {**check(Check.GIVEN_KEPT, True, self.name), **({CONTEXT + "retained": retained[0]} if retained else {})}


def _retained(mine: Snapshot, given: Snapshot) -> list[str]:
    """The named Values of the student's graph that retain their gradient (retain_grad() was
    called on them) where the given graph's do not."""
    if mine is None or given is None:
        return []
    return [n for n in NODES if mine["nodes"][n].get("retains_grad") is True
            and given["nodes"][n].get("retains_grad") is False]


def retained_after(graphs: list[Any], label: str) -> list[dict[str, Any]]:
    """Whether retain_grad() was called on a, b and y of the graph the function tested built
    with the given function (its last call's), as VALUE facts of that flag alone: a non-leaf's
    .grad that holds a gradient is told by that call, not only as a .grad that is not None."""
    last = graphs[-1] if graphs and type(graphs[-1]) is dict else {}
    return [{FACT: Kind.VALUE.value, LABEL: f"{n} in {label}", "type": "Value",
             "retains_grad": getattr(last.get(n), "retains_grad", None) is True} for n in ("a", "b", "y")]


def left_whole(graphs: list[Any], label: str, warned: int) -> list[dict[str, Any]]:
    """Whether a, b and y of the graph the function tested built with the given function (its
    last call's) still have a grad_fn when it returns, as CHECK facts: a node cut off its graph in
    place (``y.detach_()`` after backward) is a leaf, whose .grad read raises no warning, told as
    that cut, not as a .grad left unread.  A node that is no Value holds (other facts tell it), and
    every node where the call read the .grad of three non-leaves that warn (``warned``): a cut after
    those reads changed no answer."""
    last = graphs[-1] if graphs and type(graphs[-1]) is dict else {}
    kept = [warned >= 3 or not isinstance(last.get(n), Value) or last[n].grad_fn is not None for n in ("a", "b", "y")]
    return [check(Check.NODE_KEPT, holds, f"{n} in {label}") for n, holds in zip(("a", "b", "y"), kept)]


def _unretained(mine: Snapshot, names: list[str]) -> Snapshot:
    """``mine`` as it would be without retain_grad() on ``names``: what else differs then."""
    if mine is None or not names:
        return mine
    return {**mine, "nodes": {n: {**fact, "retains_grad": False} if n in names else fact
                              for n, fact in mine["nodes"].items()}}


@contextmanager
def given_calls(sub: ModuleType, name: str = "build_graph",
                given: Callable[..., Any] = documents_graph) -> Iterator[GivenCalls]:
    """Watch the student's ``name`` (a function given with the exercise) while the ``with``
    block runs: each call's graph is written down as returned, to be compared with ``given``'s
    on the same arguments (``GivenCalls.fact``)."""
    record = GivenCalls(name, given)

    def recording(original: Callable[..., Any]) -> Callable[..., Any]:
        def recorded(*args: Any, **kwargs: Any) -> Any:
            record.modes.append(is_grad_enabled())
            result = original(*args, **kwargs)
            record.seen.append((args, kwargs, _snapshot(result)))
            record.returned.append(result)
            return result
        return recorded

    with in_place_of(sub, name, recording):
        yield record


def x_grads(x: list[list[Value]]) -> list[float]:
    """ex11's x_grads as given: the gradients of x's entries as floats (x is one row)."""
    return [v.grad.item() for v in x[0]]


def local_grads(node: Node, grad: float) -> tuple[float | None, ...]:
    """ex13's local_grads as given: the gradients ``node`` passes to its inputs, unrecorded."""
    with no_grad():
        return tuple(node.apply([grad]))


def _same_result(mine: object, given: object) -> bool:
    """Two results of a given function alike: None and None, numbers close (a float kept as an
    int or in a Value is another result), or lists or tuples of such entries, one by one."""
    if isinstance(mine, (list, tuple)) and isinstance(given, (list, tuple)):
        return len(mine) == len(given) and all(map(_same_result, mine, given))
    if mine is None or given is None or isinstance(mine, Value) or isinstance(given, Value):
        return mine is given or (isinstance(mine, Value) and isinstance(given, Value)
                                 and _same_result(mine.item(), given.item()))
    if type(mine) is not float or type(given) is not float:
        return type(mine) is type(given) and mine == given
    return mine == given or close(mine, given)


UNWRITTEN = "unwritten"
"""A GivenRefused call's argument types where every Value among its arguments has a .grad of None: the
arguments may be the right ones, read before any gradient was there (the judge names that, not their types)."""


class GivenRefused(Exception):
    """The student's code called a given function with arguments the given code raises on too
    (ex13's ``local_grads`` on an AccumulateGrad node, or as ``local_grads(grad, node)``): the
    call is what differs, not the given function, whose line the error is raised at.  Its message
    is ``"<function> <caller:line> <argument types> <error's text>"`` (the caller as ``vjp:81``, or
    ``-``; the types as ``(AccumulateGrad,float)``, or ``unwritten`` where every .grad among them is None);
    it is raised with the error's traceback, so the grader sees the line the error came from."""


@dataclass
class GivenReturns:
    """Whether every call of the student's copy of a given function returned what the given
    one returns on the same arguments."""

    name: str
    kept: bool = True
    changed: list[Any] = field(default_factory=list)  # the Values whose .grad a call of the copy changed
    returned: list[Any] = field(default_factory=list)  # what each call of the copy returned

    @property
    def fact(self) -> dict[str, Any]:
        """The GIVEN_KEPT fact of a given function that returns numbers (``~returned``)."""
        return {**check(Check.GIVEN_KEPT, self.kept, self.name), CONTEXT + "returned": True}

    def read_fact(self, held: dict[int, float]) -> dict[str, Any]:
        """The GIVEN_KEPT fact of a given function that returns the gradients it reads (ex11's
        ``x_grads``), ``held`` the gradient floats the engine made during the watched call
        (``Call.probe_held``), and those a .grad took from a hook of the student's (``Call.hook_numbers``:
        the hook is told, x_grads still read the engine's .grad): where every call's numbers were the given one's but some float is not one
        of those, the copy made it (a .grad's number rounded, where it has no more digits here),
        and its caller's result is not read from the engine: ``~remade``."""
        remade = self.kept and any(type(x) is float and held.get(id(x)) is not x
                                   for result in self.returned for x in _floats_in(result))
        return {**check(Check.GIVEN_KEPT, self.kept and not remade, self.name), CONTEXT + "returned": True,
                **({CONTEXT + "remade": True} if remade else {})}

    def changed_by(self, v: Any) -> dict[str, Any]:
        """Context for the fact of ``v``'s .grad, which the caller reads: the copy's name
        (``~changed_by``) where a call of it changed that .grad, which the given one only reads (a
        leaf's .grad zeroed in the helper); its result may still be the given one's."""
        return {CONTEXT + "changed_by": self.name} if any(c is v for c in self.changed) else {}


def _floats_in(result: object) -> list[Any]:
    """The entries of a result, in lists and tuples too (a row of gradients)."""
    if isinstance(result, (list, tuple)):
        return [x for item in result for x in _floats_in(item)]
    return [result]


@contextmanager
def given_returns(sub: ModuleType, name: str, given: Callable[..., Any]) -> Iterator[GivenReturns]:
    """Watch the student's ``name`` (a function given with the exercise) while the ``with``
    block runs: ``given`` runs on each call's arguments just before the student's copy (which
    may change them), and the two results are compared.  Where the given one raises, the copy's result differs unless it raises too: its error then
    reaches the caller as ``GivenRefused``."""
    record = GivenReturns(name)

    def comparing(original: Callable[..., Any]) -> Callable[..., Any]:
        def compared(*args: Any, **kwargs: Any) -> Any:
            try:
                expected, raised = given(*args, **kwargs), False
            except Exception:  # noqa: BLE001 - the given code refuses these arguments
                expected, raised = None, True
            held = grads_in([*args, *kwargs.values()])  # as the given one left them
            try:
                result = original(*args, **kwargs)
            except Exception as exc:
                if raised:  # the given code refuses this call too: the caller's mistake (Values with no .grad yet)
                    types = UNWRITTEN if held and all(g is None for _v, g, *_ in held) else argument_types(args, kwargs)
                    raise GivenRefused(f"{name} {call_site(sys._getframe(1), sub)} {types} "
                                       f"{error_text(exc)}").with_traceback(exc.__traceback__) from None
                raise
            record.kept = record.kept and not raised and _same_result(result, expected)
            record.returned.append(result)
            record.changed += grads_changed(held, grads_in([*args, *kwargs.values()]))
            return result
        return compared

    with in_place_of(sub, name, comparing):
        yield record


def grad_left(returned: object, graphs: list[Any], name: str, label: str) -> dict[str, Any]:
    """The GRAD_LEFT fact of the Value returned for a leaf: where it is that leaf's .grad itself
    (the last graph the given build_graph returned), the code did not change it in place after
    backward wrote it (a .grad zeroed "to clean up" after it was read shows in the dict returned).
    None where it is not that .grad (``grad_itself`` and the results tell)."""
    graph = plain_dict(graphs[-1]) if graphs else None
    leaf = graph.get(name) if type(graph) is dict else None
    held = leaf.grad if isinstance(leaf, Value) else None
    if not isinstance(returned, Value) or returned is not held:
        return check(Check.GRAD_LEFT, None, label)
    fact = grad_of(leaf, label)
    return check(Check.GRAD_LEFT, not (fact["by"] == "backward" and fact.get("changed") is True), label)


def grad_itself(returned: object, graphs: list[Any], name: str, label: str) -> dict[str, Any]:
    """The IDENTITY fact that the Value returned for a leaf is that leaf's .grad itself, the leaf of
    the last graph the given build_graph returned (``graphs``: ``GivenCalls.returned``): the
    statement asks for exactly what .grad holds, and a copy (``.grad.detach()``) holds the number
    but is another Value.  Judged of a Value returned for a leaf whose .grad is one only: a float
    or None is told by its RESULT fact, and code that built its graph without build_graph by its
    own facts."""
    graph = plain_dict(graphs[-1]) if graphs else None
    leaf = graph.get(name) if type(graph) is dict else None
    held = leaf.grad if isinstance(leaf, Value) else None
    of = f"{name}.grad"
    if not isinstance(returned, Value) or not isinstance(held, Value):  # not judged here: as the statement's
        return {FACT: Kind.IDENTITY.value, LABEL: label, "of": of, "same": True}
    return same_object(returned, held, label, of)
