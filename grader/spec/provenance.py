"""Facts about how a result came to be: who wrote a ``.grad``, what a call of the student's code
did to the engine, what a returned Value is.

    grad_of(w, "w.grad")           GRAD fact: the number, who wrote it (backward / by hand /
                                   nobody), whether it changed in place since
    value_of(x, "x")               VALUE fact: type, data, flags, grad_fn, version
    float_of(g, "f(x)[0]")         VALUE fact of a number asked for as a Python float, its type
                                   only (the result beside it judges the number)
    same_object(x_out, x, "the x returned", "the leaf x given")   IDENTITY fact
    result_of(paths, "paths(y, w)")  RESULT fact: a plain result (numbers, names, lists, dicts)
    check(Check.EACH_ONCE, ok, "your order")   CHECK fact: a property judged by the probe
    (ERROR facts, of an exception the student returned: ``grader.spec.errors``)
    with watching(sub, "train") as call:   CALL fact in call.fact afterwards: backward passes
        sub.train(...)                     started (and which kept the graph), whether grad
                                           mode was off while the student's code ran, whether
                                           it was left off; with ``leaves=`` (the parameters
                                           the call was given), for each pass: whether their
                                           .grad were cleared before it, whether it was a
                                           backward (not grad()), whether it reached them all
    (and what a watched call saw of where its results came from: ``grader.spec.origins``)

The engine reports who wrote a ``.grad`` and counts backward passes through its read-only seam
``micrograph.observe``; grad mode is sampled at every call made from (or into) the student's
file while the block runs (``sys.setprofile``: slower, so only around the call observed).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping, Sequence
from sys import getprofile, setprofile  # bound now: a submission may rebind sys's names (seal.SYS)
from types import ModuleType
from typing import Any

import micrograph
from micrograph import observe
from grader.spec.call import Call
from grader.spec.call_fields import asked_fields, detached_given, freed_then_raised, kept_why, nodes_of, switched_off
from grader.spec.call_records import is_value
from grader.spec.errors import remember_raised
from grader.spec.flag_gradient import told_if_flag_as_gradient
from grader.spec.facts import ABSENT, CONTEXT, FACT, LABEL, NOT_PLAIN, SHARED, By, Check, Kind
from grader.spec.graph import graph
from grader.spec.hooked import WRITES
from grader.spec.mode_restored import LEFT_OFF, noted_since
from grader.spec.probe import grad as grad_number
from grader.spec.probe import dict_of, grad_fn, num, plain_dict, type_name
from grader.spec.uncalled_mode import told_if_mode_uncalled

MAX_RESULT_DEPTH = 4
MAX_RESULT_ITEMS = 1000
MAX_RESULT_TEXT = 200


def _writer(v: Any) -> tuple[By, bool, bool]:
    """Who last wrote ``v.grad``, whether it changed in place since, and whether the student's
    code set it to None (``v.grad = None``, told apart from a .grad nothing ever wrote).

    ``v.grad = None`` writes nothing: a .grad that is None counts as written by nobody, so a
    loop that skips the leaves without a gradient equals one that sets them to None again.
    """
    record = observe.grad_write(v)
    if record is None or record.grad is None:
        return By.NOBODY, False, record is not None
    by = (By.CHOSEN if WRITES.chose(v, record) else By.BACKWARD) if record.by_engine else By.HAND
    return by, not record.intact(v), False


def _zero_kept_zero(v: Any, record: observe.GradWrite | None) -> bool:
    """Whether ``v.grad`` was written as 0 and is 0 now: then ``.grad.zero_()`` and
    ``.grad.data.zero_()`` (no version bump, the same number) cannot be told apart, and
    "changed" is context only."""
    return (record is not None and record.grad is not None and record.data == 0.0
            and grad_number(v) == 0.0)


def grad_of(v: object, label: str) -> dict[str, Any]:
    """The GRAD fact of ``v.grad`` (read without the non-leaf warning); whether ``v`` retains its
    grad is context (a .grad never written although retain_grad() was called)."""
    fact: dict[str, Any] = {FACT: Kind.GRAD.value, LABEL: label}
    if not is_value(v):
        return {**fact, "type": type_name(v), "grad": None, "by": By.NOBODY.value,
                "changed": False}
    by, changed, set_to_none = _writer(v)
    record = observe.grad_write(v)
    changed_key = CONTEXT + "changed" if _zero_kept_zero(v, record) else "changed"
    return {**fact, "type": "Value", "grad": grad_number(v), "by": by.value, changed_key: changed,
            CONTEXT + "set_to_none": set_to_none,
            CONTEXT + "seeded": by is By.CHOSEN and record is not None and WRITES.added_to_theirs(v, record),
            CONTEXT + "retains_grad": bool(v.retains_grad)}  # type: ignore[attr-defined]


def value_of(v: object, label: str, call: Call | None = None) -> dict[str, Any]:
    """The VALUE fact of ``v``: what a student can see on it, with its version counter; with the
    watched ``call`` that made or changed it, whether the student's code reached its ``.data``
    (context: a change through it moves no version counter, which explains one that did not)."""
    fact: dict[str, Any] = {FACT: Kind.VALUE.value, LABEL: label, "type": type_name(v)}
    if not is_value(v):
        number = num(v)
        return {**fact, "data": number if type(number) is float else None}
    if call is not None:
        fact[CONTEXT + "through_data"] = call.through_data.get(id(v)) is v
    inference = bool(v.is_inference())  # type: ignore[attr-defined]  # made under inference_mode: no version counter
    return {
        **fact,
        "type": "Value",
        "data": num(v),
        "requires_grad": bool(v.requires_grad),  # type: ignore[attr-defined]
        "is_leaf": bool(v.is_leaf),  # type: ignore[attr-defined]
        "grad_fn": grad_fn(v),
        "retains_grad": bool(v.retains_grad),  # type: ignore[attr-defined]
        "version": None if inference else int(v._version),  # type: ignore[attr-defined]
        **({CONTEXT + "inference": True} if inference else {}),
    }


def retains_as_context(fact: dict[str, Any]) -> dict[str, Any]:
    """A VALUE fact with whether the Value retains its gradient as context only, where no test
    reads its ``.grad``: a retain_grad() the student added there changes nothing the statement
    asks of it (the documents call ``a.retain_grad()`` where they build ex01's graph), so it costs
    nothing."""
    if "retains_grad" not in fact:
        return fact
    kept = {k: v for k, v in fact.items() if k != "retains_grad"}
    return {**kept, CONTEXT + "retains_grad": fact["retains_grad"]}


def float_of(x: object, label: str) -> dict[str, Any]:
    """The VALUE fact of a number the statement asks for as a Python float, without the number,
    which the result beside it already judges (a second sentence about it would only repeat
    it): it tells a float read with ``.item()`` from a Value kept, which is the gradient object
    itself when it is a ``.grad`` (the next backward changes it in place)."""
    return {**value_of(x, label), "data": None}


def same_object(v: object, other: object, label: str, of: str) -> dict[str, Any]:
    """The IDENTITY fact: is ``v`` the very object ``other`` (identity, never ``==``)?  Only
    Values are compared: for anything else (two equal ints may or may not be one object) the
    fact says what ``v`` is instead.  A Value is not ``other`` where that is no Value (its own
    fact says what it is), never "of type Value, not a Value"."""
    fact = {FACT: Kind.IDENTITY.value, LABEL: label, "of": of}
    if not is_value(v):
        return {**fact, "same": None, "type": type_name(v)}
    return {**fact, "same": is_value(other) and v is other}


def _plain(x: object, depth: int = 0) -> Any:
    """A student's result as exact JSON types: a Value becomes its number, anything else that
    is not plain becomes ``"not plain: <type>"`` (never the object itself)."""
    kind = type(x)
    if x is None or kind in (bool, int, float):
        return x
    if kind is str:
        return x[:MAX_RESULT_TEXT]  # type: ignore[index]
    if is_value(x):
        return num(x)
    if depth < MAX_RESULT_DEPTH and kind in (list, tuple):
        return [_plain(item, depth + 1) for item in list(x)[:MAX_RESULT_ITEMS]]  # type: ignore[call-overload]
    x = plain_dict(x)  # an OrderedDict is the dict asked for
    if depth < MAX_RESULT_DEPTH and type(x) is dict and all(type(k) is str for k in x):
        return {k: _plain(v, depth + 1) for k, v in list(x.items())[:MAX_RESULT_ITEMS]}
    return f"{NOT_PLAIN}{kind.__name__}"


def result_of(x: object, label: str) -> dict[str, Any]:
    """The RESULT fact of a plain result: compared as it is, explained by its shape (a missing
    entry, another order, a different number), so the feedback names the kind of difference."""
    return {FACT: Kind.RESULT.value, LABEL: label, "value": _plain(x)}


def lists_of(x: object, label: str) -> dict[str, Any]:
    """The RESULT fact of a list of lists (``paths(y, w)``), with the CONTEXT ``shared``: the
    indices of entries that are one list object, each group of two or more, so that a list
    appended again and again, not a copy of it (each entry then shows it as it is at the end),
    is told as that where the result differs (``judge.results``)."""
    groups: dict[int, list[int]] = {}
    for i, entry in enumerate(x if type(x) is list else []):
        if type(entry) is list:
            groups.setdefault(id(entry), []).append(i)
    shared = [indices for indices in groups.values() if len(indices) > 1]
    return {**result_of(x, label), **({SHARED: shared} if shared else {})}


def entry_of(x: object, of: str, key: str, present: bool) -> dict[str, Any]:
    """The RESULT fact of the entry ``key`` of a dict ``of`` returned (``backprop(g)[w]``): one the
    dict has no key for is None, with ``ABSENT`` beside it, so that it is told as missing, not
    as an entry that holds None."""
    fact = result_of(x if present else None, f"{of}[{key}]")
    return fact if present else {**fact, ABSENT: [of, key]}


def check(which: Check, holds: bool | None, label: str) -> dict[str, Any]:
    """The CHECK fact of a property the probe judged (None: it could not be judged, e.g. the
    result was not a list; another check says why)."""
    return {FACT: Kind.CHECK.value, LABEL: label, "check": which.value, "holds": holds}


KEYS_SHOWN = 6  # keys of a returned dict named in a sentence at most


def keys_asked(answer: object, asked: Sequence[str], label: str, extra: bool = False) -> dict[str, Any]:
    """The KEYS_ASKED fact of the dict the call ``label`` returned: it has the keys the
    statement's docstring names (``asked``), none fewer and (unless ``extra``) no other; where it
    does not, its own keys and the asked ones as context (``~keys``, ``~asked``), told as they
    are: keys are the statement's words and the student's, never a value computed.  Not a dict:
    not judged here."""
    answer = plain_dict(answer)
    if type(answer) is not dict:
        return check(Check.KEYS_ASKED, None, label)
    if set(answer) == set(asked) or extra and set(asked) <= set(answer):
        return check(Check.KEYS_ASKED, True, label)
    keys = [repr(k) for k in list(answer)[:KEYS_SHOWN]] + (["…"] if len(answer) > KEYS_SHOWN else [])
    return {**check(Check.KEYS_ASKED, False, label), CONTEXT + "keys": ", ".join(keys),
            CONTEXT + "asked": ", ".join(map(repr, asked)), **({CONTEXT + "empty": True} if not answer else {})}


def list_kept(given: object, items: list[Any], label: str, name: str) -> dict[str, Any]:
    """The LIST_KEPT fact: the list ``given`` to the call ``label`` as its argument ``name`` (context
    ``~name``) still holds ``items``, the very objects, in the order given.  The statement's code
    only reads such a list; a call that empties it (``while leaves: leaves.pop()``) did its job on
    every item, but a caller that reads the list again afterwards finds nothing there.  One that
    holds every item in another order (``names.sort()``) has the context ``~reordered``."""
    kept = type(given) is list and len(given) == len(items) and all(a is b for a, b in zip(given, items))
    reordered = not kept and type(given) is list and sorted(map(id, given)) == sorted(map(id, items))
    return {**check(Check.LIST_KEPT, kept, label), CONTEXT + "name": name, **({CONTEXT + "reordered": True} if reordered else {})}


def rows_kept(given: object, before: list[tuple[Any, list[Any]]], label: str, name: str) -> dict[str, Any]:
    """The LIST_KEPT fact of a list of rows given to the call ``label`` as its argument ``name``,
    ``before`` holding each row list given beside a copy of its entries, made before the call: of
    the list itself where it no longer holds those very rows, else of the first row whose entries
    the call replaced, added or removed, named ``name[i]`` (a build that turns the floats of
    y_rows[0] into Values in place).  The statement's code only reads them."""
    whole = list_kept(given, [row for row, _ in before], label, name)
    changed = next((i for i, (row, items) in enumerate(before)
                    if len(row) != len(items) or any(a is not b for a, b in zip(row, items))), None)
    if whole["holds"] is False or changed is None:
        return whole
    return list_kept(before[changed][0], before[changed][1], label, f"{name}[{changed}]")


@contextlib.contextmanager
def watching(sub: ModuleType, label: str, *, grad_mode: bool | None = False,
             retain_graph: bool = False, leaves: Sequence[Any] = (), reads_grad: bool = False,
             started_from: list[Any] | None = None, one_graph: bool = False,
             engine_walk: bool = False, saves: bool = False, reads_edges: bool = False,
             grad_numbers: bool = False, made: bool = False, errors: bool = False,
             clears: bool = False) -> Iterator[Call]:
    """Observe the student's code run in the block: passes, grad mode (see the module doc).

    Grad mode counts only with ``grad_mode=True`` (an exercise about no_grad), and each pass's
    retain_graph only with ``retain_graph=True`` (an exercise about retain_graph); otherwise
    they are context (``~`` keys): told when something else differs (no_grad explains a
    missing graph), never a reason to fail on their own, since clearing gradients under
    no_grad, or keeping a graph nobody runs again, changes no result.
    ``grad_mode=None`` does not sample grad mode (a profile hook on every call makes a training
    loop about ten times slower, and an optimizer's ``step`` turns grad mode off where the
    hook cannot see it): only whether the block left it off counts.
    With ``reads_grad=True`` the fact also says whether the student's code read a ``.grad``
    (a text "from the warning" written down without reading has not), and whether it read one
    after its last backward pass (a last record computed, not read, has not).  With
    ``started_from`` (Values given to the student) it says whether every pass started from
    them (not from a Value the student made of them: ``sum(v[j] * loss[j]).backward()`` is no
    vector-Jacobian product by backward); with ``one_graph`` whether every pass started from
    the first pass's roots (a second backward on a graph built again needs no retain_graph);
    with ``engine_walk`` whether it called a function of the engine's own walk (its order or
    node runner, in ``micrograph/engine.py``), however it reached it.  With ``saves``
    the call keeps what each node had saved when a pass found it, for ``detached_from``; with
    ``grad_numbers`` every gradient number the engine made, for ``read_from_grad``; with
    ``made`` (and grad mode sampled) every Value an engine operation returned, for ``made_by_op``;
    with ``errors`` every exception its backward passes raised, for ``error_of``; with ``clears``
    whether each pass started from a leaf's .grad the student's code had cleared since a write; with
    ``reads_edges`` (context) whether it read some node's next_functions (a formula reads no graph).
    Grad mode left off (``set_grad_enabled(False)``, no way back: at the block's end, or as a call in it returned)
    counts whatever ``grad_mode`` is (the caller's next graphs record nothing) and is restored: later probes observe as before.  ``leaves`` adds the per-pass ``Call.leaf_facts``, compared.
    """
    mode, kept = ("" if grad_mode else CONTEXT), ("" if retain_graph else CONTEXT)
    call = Call(label, str(getattr(sub, "__file__", "")), leaves, saves, grad_numbers, made, errors, clears)
    call.nodes_read = {} if reads_edges else None
    before, previous, noted = observe.passes(), getprofile(), len(LEFT_OFF)  # a call restored in it: ``mode_restored``
    given = nodes_of(started_from)  # as given: a Value the code detaches in place (detach_()) loses its own
    if grad_mode is not None:
        setprofile(call.sample)
    try:
        with observe.observing(call), told_if_mode_uncalled(call.filename), told_if_flag_as_gradient(call.filename):
            yield call
    finally:
        if grad_mode is not None:
            setprofile(previous)
        WRITES.checkpoint()
        call.hold_grads()
        remember_raised(call.raised or {})
        left_off = not micrograph.is_grad_enabled() or noted_since(noted)
        micrograph.set_grad_enabled(True)
        sampled = {} if grad_mode is None else {mode + "grad_mode_off": call.grad_mode_off, **switched_off(call)}
        call.fact = {FACT: Kind.CALL.value, LABEL: label, "passes": observe.passes() - before,
                     kept + "kept_graph": call.kept, **sampled,
                     **kept_why(call), **(freed_then_raised(call) if retain_graph else {}),
                     "grad_mode_left_off": left_off,
                     **call.leaf_facts(), **asked_fields(call, reads_grad, given, one_graph, engine_walk),
                     **detached_given(started_from, given), **call.caught.fact()}


def built(values: dict[str, Any], root: str, names: tuple[str, ...], function: str,
          note: str = "", data: Mapping[str, float] | None = None, freeing: bool = True) -> dict[str, Any]:
    """What a "build this graph" test observes of the dict of Values ``function`` returned: the
    GRAPH fact of ``values[root]`` (named by ``names``, and by ``data`` the Values the statement
    makes as data inside the call: ``graph``) and the VALUE fact of each named Value, each
    labelled with ``note`` on the call when a test makes several ("b (second call)").
    A Value returned under two names says so (``~is``, the other name): which of the two holds it
    rightly is the judge's to say, by the statement's graph and facts.  ``freeing`` as ``graph``'s."""
    checked = dict_of(values, names, function)
    named = {n: checked[n] for n in names}
    label = (lambda n: f"{n} ({note})") if note else (lambda n: n)

    def fact(n: str) -> dict[str, Any]:
        alias = next((k for k in names if k != n and is_value(named[n]) and named[k] is named[n]), None)
        return {**value_of(named[n], label(n)), **({CONTEXT + "is": alias} if alias else {})}

    return {"graph": graph(named[root], named, label=label(root), data=data, freeing=freeing), "nodes": [fact(n) for n in names]}
