"""Which of the student's own helpers a test's probe ran, for a test that cannot build the
tested function's inputs itself (``backprop(root)`` calls the student's ``topological_order``).

``Exercise.test(runs_with=...)`` names such helpers.  While the probe runs, each is replaced
in the student's module by a wrapper that notes it was called and calls it (a custom Function
class keeps its place, its ``apply`` is wrapped: ex14's graphs that use both Functions); the probe's
observation (a dict: a list of runs goes under ``runs``) then gets the context key ``~runs_with``: the helpers that ran (never compared,
since the reference's calls are its own).  The parent names the combination only for a helper
that ran (``grader.judge.grading``), whether the function tested called it or the probe did
(a test that builds its graph with the student's ``build_graph``), beside a difference or beside
an error the probe raised.

A helper that keeps state between calls (a cache keyed by its inputs, a global) can hand the
function tested what an earlier call of it returned, which then raises where the function tested
is right: ``Results`` keeps what the helper returned in this run, and such an error is raised
again as ``EarlierResult``, told with that fact (``grader.judge.explain``).  A helper that raises
where the same call returns in a fresh copy of the module (a mutable default argument grown by
earlier calls) is raised again as ``RaisedOnlyAgain``, told with that fact.  A helper that
raises on a list an earlier call of it changed in place (the caller's rows, their numbers replaced
by leaves) is raised again as ``ArgumentChanged``: the state is in the caller's list, so a fresh
import raises on it too, and the earlier call is what explains the error.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
from collections.abc import Callable, Iterable, Iterator
from types import ModuleType
from typing import Any

import micrograph

from grader.spec.applied import apply_in_place_of, own_function
from grader.spec.facts import CONTEXT, KEPT_BY, Check
from grader.spec.probe import error_text, num
from grader.spec.provenance import check
from grader.spec.repeat import calls_apart, fresh_copy

HELPERS_RAN = CONTEXT + "runs_with"

RAN_WHEN_RAISED: list[str] = []
"""The helpers that ran in a probe that then raised (``noting``): the child sends them as that
test's observation beside its error, so the parent names them beside the error too (a leaf_grads
that raises on the graph the student's build_graph made)."""


@contextlib.contextmanager
def in_place_of(sub: ModuleType, name: str, wrap: Callable[[Callable[..., Any]], Callable[..., Any]]
                ) -> Iterator[None]:
    """The student's ``name`` replaced by ``wrap`` of it while the ``with`` block runs (left
    alone where the module has no such function: the tested function's own error tells it)."""
    original = getattr(sub, name, None)
    if not callable(original):
        yield
        return
    setattr(sub, name, wrap(original))
    try:
        yield
    finally:
        setattr(sub, name, original)


def noting(probe: Callable[[ModuleType], Any], helpers: Iterable[str]) -> Callable[[ModuleType], Any]:
    """``probe``, noting in its observation (a dict) which of ``helpers`` ran while it ran."""
    names = tuple(helpers)

    @functools.wraps(probe)
    def observed(sub: ModuleType) -> Any:
        ran: set[str] = set()
        with contextlib.ExitStack() as noted:
            for name in names:
                cls, wrap = own_function(sub, name), functools.partial(_noted, name=name, ran=ran)
                noted.enter_context(in_place_of(sub, name, wrap) if cls is None else apply_in_place_of(cls, wrap))
            try:
                observation = probe(sub)
            except BaseException:
                RAN_WHEN_RAISED[:] = sorted(ran)
                raise
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

    def recording(original: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                bound = inspect.signature(original).bind(*args, **kwargs)
                passed.append(list(bound.arguments.values()))
            except (TypeError, ValueError):  # arguments the helper does not take: it raises itself
                passed.append(list(args))
            return original(*args, **kwargs)
        return call

    with in_place_of(sub, name, recording):
        yield passed


def passed_in_order(passed: list[list[Any]], w: float, x: float, label: str, helper: str) -> dict[str, Any]:
    """The PASSED_IN_ORDER fact: ``label`` did not call ``helper`` with the w and x it was given
    exchanged (``passed``: each call's arguments, from ``arguments_of``); not judged where
    w == x.  Code that builds the graph without calling ``helper`` (or with other numbers)
    exchanged nothing: it holds, and what that code built is told by its own facts.  One of the
    two given for both (``build_graph(w, w)``, never called with w and x) fails it too, told as
    that (``~one_for_both``, ``~repeated``: the one passed twice): a typo, where no call exchanged them."""
    numbers = [[num(a) for a in args[:2]] for args in passed]
    if w == x:
        return check(Check.PASSED_IN_ORDER, None, label)
    repeated = next((name for name, n in (("w", w), ("x", x)) if [n, n] in numbers and [w, x] not in numbers), None)
    fact = {**check(Check.PASSED_IN_ORDER, [x, w] not in numbers and repeated is None, label), CONTEXT + "helper": helper}
    if repeated is None or [x, w] in numbers:
        return fact
    return {**fact, CONTEXT + "one_for_both": True, CONTEXT + "repeated": repeated}


@contextlib.contextmanager
def results_of(sub: ModuleType, name: str) -> Iterator[list[Any]]:
    """What each call of the student's ``name`` returned while the ``with`` block ran: the very
    objects the function tested got from the helper it calls (the leaves ``leaf_grads`` got
    from ``build_graph``, told by identity, not by their numbers)."""
    returned: list[Any] = []

    def recording(original: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            result = original(*args, **kwargs)
            returned.append(result)
            return result
        return call

    with in_place_of(sub, name, recording):
        yield returned


class EarlierResult(Exception):
    """The function a test called raised after the student's helper it called returned what an
    earlier call of that helper returned (the same object, not a new one): the state is the
    helper's.  Its message is ``"<helper> <function> <error's text>"``; it is raised with the
    error's traceback, so the grader sees the line the error came from."""


class RaisedOnlyAgain(Exception):
    """The student's helper raised where the same call, the first in a fresh copy of their module
    (``repeat.fresh_copy``), returns: what it does depends on state earlier calls left (a mutable
    default argument that grows, a module-level list).  Its message is ``"<helper> <function>
    <error's text>"`` (``function`` is the helper itself where the test called it directly); it
    is raised with the error's traceback, so the grader sees the line the error came from."""


class ArgumentChanged(Exception):
    """The student's helper raised on an argument that an earlier call of it had changed in
    place: a list (entries replaced, added or removed), or the graph of a Value (attributes set on
    its nodes, ``grader.spec.graph_state``): the argument carries what that call did.  Its
    message is ``"<helper> <function> <parameter> <kind> <error's text>"``, the kind ``list`` or
    ``graph``; it is raised with the error's traceback, so the grader sees the line the error
    came from."""


def _lists_given(function: Callable[..., Any], args: tuple[object, ...], kwargs: dict[str, object]
                 ) -> dict[str, list[Any]]:
    """The list arguments of a call of ``function``, by the name of their parameter (none where
    the call does not fit its signature: the function raises on it itself)."""
    try:
        bound = inspect.signature(function).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return {}
    return {name: value for name, value in bound.arguments.items() if type(value) is list}


def _entries(value: object) -> object:
    """What a list holds, nested lists and tuples copied and every other entry kept as the object
    it is: a copy to tell, by identity, whether a call changed the list in place."""
    if type(value) in (list, tuple):
        return [_entries(item) for item in value]
    return value


def _same_entries(before: object, now: object) -> bool:
    """Whether ``now`` still holds what ``_entries`` copied of it: the same objects, in the same
    nested lists."""
    if type(now) in (list, tuple):
        return (type(before) is list and len(before) == len(now)
                and all(_same_entries(b, n) for b, n in zip(before, now)))
    return before is now


def returns_when_fresh(sub: ModuleType, helper: str, args: tuple[object, ...], kwargs: dict[str, object]) -> bool:
    """Whether ``helper(*args, **kwargs)`` returns, without raising, as the first call of a
    fresh copy of the student's module."""
    fresh = fresh_copy(sub)
    if fresh is None:
        return False
    try:
        getattr(fresh, helper)(*args, **kwargs)
    except Exception:  # noqa: BLE001 - it raises on a fresh import too: the error is its own
        return False
    return True


def _parts(result: object) -> list[object]:
    """The objects of a result a new call makes anew (a Value, a list or a dict, or such an item
    of a returned tuple): a number, a string or a tuple of constants may be one shared object."""
    made = [result] if type(result) is not tuple else list(result)
    return [p for p in made if isinstance(p, micrograph.Value) or type(p) in (list, dict)]


class Results:
    """Every result the student's ``helper`` returned in this run, kept alive (no id is reused)."""

    def __init__(self, helper: str) -> None:
        self.helper = helper
        self.kept: list[object] = []
        self.last: object = None  # what the last call returned (ex12 draws forward's input leaves by name)
        self.changed: list[object] = []  # the list arguments a call changed in place, kept alive
        self.modes: list[bool] = []  # grad mode at each call of this block's (``given_untracked.Noted``)

    def again(self, result: object, given: tuple[object, ...]) -> bool:
        """Whether ``result`` holds an object an earlier call returned (not one of the arguments
        ``given``, which a helper may return as it is); ``result`` is kept for later calls."""
        parts = [p for p in _parts(result) if not any(p is g for g in given)]
        earlier = any(p is old for p in parts for old in self.kept)
        self.kept.extend(parts)
        self.last = result
        return earlier

    @contextlib.contextmanager
    def watched(self, sub: ModuleType, function: str) -> Iterator[None]:
        """While the test calls ``function``: each call of the helper kept, and an error raised
        after one returned an earlier call's result raised again as ``EarlierResult``; one the
        helper raised where a fresh import's same call returns, as ``RaisedOnlyAgain``; one it
        raised on a list an earlier call of it changed in place, as ``ArgumentChanged``."""
        earlier: list[bool] = []
        only_again: list[BaseException] = []  # an error the helper raises, not on a fresh import
        on_changed: list[tuple[BaseException, str]] = []  # an error on a list an earlier call changed
        self.last, self.modes = None, []  # only this block's calls

        def keeping(original: Callable[..., Any]) -> Callable[..., Any]:
            def call(*args: Any, **kwargs: Any) -> Any:
                lists = _lists_given(original, args, kwargs)
                before = {name: _entries(value) for name, value in lists.items()}
                self.modes.append(micrograph.is_grad_enabled())  # off: what it makes no graph records
                try:
                    result = original(*args, **kwargs)
                except NotImplementedError:
                    raise
                except Exception as exc:
                    changed = [name for name, value in lists.items() if any(value is c for c in self.changed)]
                    if changed:
                        on_changed.append((exc, changed[0]))
                    elif returns_when_fresh(sub, self.helper, args, kwargs):
                        only_again.append(exc)
                    raise
                finally:
                    self.changed.extend(v for name, v in lists.items() if not _same_entries(before[name], v))
                earlier.append(self.again(result, (*args, *kwargs.values())))
                return result
            return call

        with in_place_of(sub, self.helper, keeping):
            try:
                yield
            except NotImplementedError:
                raise  # a stub: told as one
            except Exception as exc:
                for error, parameter in on_changed:
                    if error is exc:
                        raise ArgumentChanged(f"{self.helper} {function} {parameter} list {error_text(exc)}"
                                              ).with_traceback(exc.__traceback__) from None
                # the helper's own error, or a probe's telling of it (a .grad read as None, raised again from
                # it): the state first; a helper's state told by a watch inside this one stays as it was told
                told = exc.__context__ if type(exc) not in (EarlierResult, RaisedOnlyAgain, ArgumentChanged) else exc
                again = next((o for o in only_again if o is exc or o is told), None)
                if again is not None:
                    raise RaisedOnlyAgain(f"{self.helper} {function} {error_text(again)}"
                                          ).with_traceback(again.__traceback__) from None
                if any(earlier):
                    raise EarlierResult(f"{self.helper} {function} {error_text(exc)}"
                                        ).with_traceback(exc.__traceback__) from None
                raise


def apart_from(sub: ModuleType, helper: str, make: Callable[[ModuleType, Any], Any],
               seen: Callable[[Any], Any], first: Any, second: Any, label: str) -> list[dict[str, Any]]:
    """``calls_apart`` of ``make``, for a function that calls the student's ``helper``: where a
    fact fails, the three calls are made again with each call of ``helper`` made in a fresh copy
    of the module (nothing kept between its calls); where every fact then holds, the state is the
    helper's, and each failed fact names it (``KEPT_BY``), not only the function tested."""
    facts = calls_apart(sub, make, seen, first, second, label)
    if all(fact["holds"] is not False for fact in facts):
        return facts

    def each_fresh(original: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            copy = fresh_copy(sub)
            return (original if copy is None else getattr(copy, helper))(*args, **kwargs)
        return call

    with in_place_of(sub, helper, each_fresh):
        alone = calls_apart(sub, make, seen, first, second, label)
    if not all(fact["holds"] is True for fact in alone):
        return facts
    return [{**fact, KEPT_BY: helper} if fact["holds"] is False else fact for fact in facts]
