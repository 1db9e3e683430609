"""Where a result came from, judged from what a watched call (``provenance.watching``) saw:
the engine's own objects, not a value written down that happens to be equal.

    read_from_grad(numbers, call, "w.grad")  CHECK fact: every number returned is one the engine
                                           made as a gradient during the call (read, not computed)
    read_from_leaf(numbers, call, leaves, "w", "h")  CHECK fact: no number returned is one only
                                           another leaf's .grad held (x.grad read for w.grad)
    handed_to_hooks(numbers, call, leaves)  context: the leaf whose hooks were handed a number
                                           returned, which no .grad held (a hook's record)
    grads_of(numbers, others, asked)        context: the Value among ``others`` (not among
                                           ``asked``) whose .grad holds a number returned
    made_by_op(y, call, "y")                CHECK fact: y was returned by an engine operation the
                                           student's code called (not Value(...) of a number)
    made_from(y, (w, x), call, "y")         CHECK fact: ... and made from w or x through such
                                           operations (not Value(formula) * 1)
    read_on_the_way(y, call)                the Values the call's operations read to make y,
                                           nearest first (y's own operation's inputs first)
    unrecorded_on_the_way(y, call, "y")     CHECK fact: y, unrecorded, was made from no Value the
                                           graph recorded (not a + b recorded, then y = a * b under no_grad)
    read_in_turn(records, leaves, "rows")   CHECK fact: records of earlier backward passes are
                                           not the leaves' last .grad floats (read at the end)
    returned_root(y, call, "f")             CHECK fact: the y returned is a root a backward pass of
                                           the call started from (not a y built again)

What came through a ``detach()`` is told by ``detach_origins``.
Equal numbers cannot tell these apart; object identity can: ``w.grad.item()`` hands out the
very float .grad holds, a formula makes a new one.
"""

from __future__ import annotations

import warnings
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import micrograph
from micrograph.value import shares_storage
from grader.spec.facts import CONTEXT, Check
from grader.spec.call import Call
from grader.spec.probe import rounded_to
from grader.spec.provenance import MAX_RESULT_DEPTH, MAX_RESULT_ITEMS, check
from grader.spec.replayed import alias_of, depends


def _is_value(v: object) -> bool:
    return isinstance(v, micrograph.Value)


def read_from_grad(numbers: object, call: Call, label: str, held: Sequence[object] = ()) -> dict[str, Any]:
    """The CHECK fact: every float (or Value) in ``numbers`` (nested lists, tuples, dict values)
    is the very number object the engine made as a gradient during the watched ``call`` (made
    with ``grad_numbers=True``): one a leaf's .grad held, or one a node received (what grad()
    returns).  ``w.grad.item()``, ``float(w.grad)``, ``.tolist()``, ``.data`` and ``.clone()`` hand out the
    object .grad holds, and a sum or mean of it alone (``w.grad.sum().item()``) counts as it (``Call.hold_reduced``); a
    formula of the same value makes a new one, so a gradient written down (``2 * g``) instead
    of read is told apart from one read, however .grad was reached (``._grad`` too); a leaf
    returned itself, the Value backward wrote into, or its own number (``float(w)``), is told as such.  ``held``: the
    very numbers the given leaves' .grad held as the call began (written by the probe's own backward), read
    from .grad all the same.  None when there is no number to judge or the call ran more passes than it watches."""
    found = [x for x in _numbers_in(numbers, 0) if type(x) is float or _is_value(x)]
    if not found or call.past_listed:
        return check(Check.READ_FROM_GRAD, None, label)
    objects = [x.item() if _is_value(x) else x for x in found]  # item(): the very float a Value holds
    others = [x for x in objects if call.probe_held.get(id(x)) is not x and not any(x is h for h in held)
              and call.read_numbers.get(id(x)) is not x]  # round(w.grad.item(), 3) that changed nothing: read
    fact = check(Check.READ_FROM_GRAD, not others, label)
    if others and all(_EARLIER.get(id(x)) is x for x in others):
        fact[CONTEXT + "earlier_call"] = True  # read, but from what an earlier call left
    unread = [x for x, number in zip(found, objects) if call.probe_held.get(id(number)) is not number]
    if unread and all(_is_value(x) and call.written.get(id(x)) is x for x in unread):
        fact[CONTEXT + "leaf_itself"] = True  # the leaves backward wrote into, not their .grad
    elif unread and all(type(x) is float and any(v.item() is x for v in call.written.values()) for x in unread):
        fact[CONTEXT + "leaf_data"] = True  # the very number such a leaf holds: float(w), not float(w.grad)
    elif unread and all(type(x) is float and call.hook_numbers.get(id(x)) is x for x in unread):
        fact[CONTEXT + "hooked"] = True  # read from a .grad whose number a hook of the student's chose
    elif unread and all(type(x) is float and call.seeded_numbers.get(id(x)) is x for x in unread):
        fact[CONTEXT + "seeded"] = True  # read from a .grad backward wrote by adding to a number of the student's
    elif _rounded([x for x in objects if any(x is o for o in others)], list(call.probe_held.values())):
        fact[CONTEXT + "rounded"] = True  # round(w.grad.item(), 2): read, then rounded
    elif others and call.read_numbers and all(x in call.read_numbers.values() for x in others):
        fact[CONTEXT + "equal"] = True  # computed, but equal to a number read: not the one read
    elif others and call.read_numbers:
        fact[CONTEXT + "changed"] = True  # read with item() or float(), then another number returned
    remember(call)
    return fact


def _rounded(numbers: list[object], grads: list[float]) -> bool:
    """Whether every number of ``numbers`` (those not read from the engine) is one of the engine's
    gradients ``grads`` rounded to some number of digits, and one of them is not that gradient
    itself: rounding changed it, so no formula that happens to give the gradient is told so.  A
    whole number is never told as rounded: a literal 0.0 (or 1.0) the code wrote is one too."""
    rounded = [[g for g in grads if rounded_to(x, g)] for x in numbers]  # a whole number: none
    return bool(numbers) and all(rounded) and any(all(x != g for g in found) for x, found in zip(numbers, rounded))


def read_from_leaf(numbers: object, call: Call, leaves: dict[str, Any], name: str, label: str) -> dict[str, Any]:
    """The READ_FROM_LEAF fact: no float in the list ``numbers`` is one that only another leaf
    among ``leaves`` held in its .grad while the watched ``call`` (made with ``grad_numbers=True``)
    ran, where the statement records ``leaves[name]``'s: ``x.grad.item()`` read for
    ``w.grad.item()`` hands out x's gradient, a number read from the engine all the same.  Its
    context names the first such entry (``~entry``) and the two leaves (``~other``, ``~leaf``).
    None when there is no list of numbers or the call ran more passes than it watches."""
    found = [x.item() if _is_value(x) else x for x in numbers] if type(numbers) is list else []
    if not found or call.past_listed or not all(type(x) is float for x in found):
        return check(Check.READ_FROM_LEAF, None, label)
    others = [_other_holder(call.grad_holders(number), leaves, name) for number in found]
    first = next((i for i, other in enumerate(others) if other is not None), None)
    if first is None:
        return check(Check.READ_FROM_LEAF, True, label)
    return {**check(Check.READ_FROM_LEAF, False, label), CONTEXT + "entry": first,
            CONTEXT + "other": others[first], CONTEXT + "leaf": name}


def _other_holder(holders: list[Any], leaves: dict[str, Any], name: str) -> str | None:
    """The name of a leaf among ``leaves`` whose .grad held a number, where ``leaves[name]``'s
    never did (None where it did, or where no leaf named held it)."""
    if any(h is leaves[name] for h in holders):
        return None
    return next((n for n, leaf in leaves.items() if any(h is leaf for h in holders)), None)


def handed_to_hooks(numbers: object, call: Call, leaves: dict[str, Any]) -> dict[str, Any]:
    """Context for a result of numbers (``~hooked``: the name of a leaf among ``leaves``): a
    number returned is the very float a backward pass of the watched ``call`` (made with
    ``grad_numbers=True``) handed to a hook on that leaf, and no .grad held it.  A hook that
    records (``w.register_hook(lambda g: seen.append(g.item()))``) sees what one pass sends the
    leaf, before it is added to what .grad holds: where the records differ, that says why, even
    once the hook is removed.  Empty where no such number was returned."""
    found = [x.item() if _is_value(x) else x for x in _numbers_in(numbers, 0) if type(x) is float or _is_value(x)]
    hooked = [call.handed_to_hook(x) for x in found]
    name = next((n for n, leaf in leaves.items() if any(h is leaf for h in hooked)), None)
    return {} if name is None else {CONTEXT + "hooked": name}


def grads_of(numbers: object, others: dict[str, Any], asked: str) -> dict[str, Any]:
    """Context for a result of numbers (``~grads_of``: the name of a Value among ``others``, the
    Values whose gradients were not asked for, as ex12's input leaves beside the net's
    parameters, and ``~asked``: the code naming those asked for): a number returned is the very
    float that Value's .grad holds now, read with ``item()``.  Where the numbers differ, that
    says whose gradients they are.  Empty where no such number was returned."""
    found = {id(x.item() if _is_value(x) else x) for x in _numbers_in(numbers, 0) if type(x) is float or _is_value(x)}
    with warnings.catch_warnings():  # the probe's own read of a non-leaf's .grad: no warning of the student's
        warnings.simplefilter("ignore")
        held = {n: v.grad for n, v in others.items() if _is_value(v)}
    name = next((n for n, g in held.items() if g is not None and id(g.item()) in found), None)
    return {} if name is None else {CONTEXT + "grads_of": name, CONTEXT + "asked": asked}


def remember(call: Call) -> None:
    """Keep the gradient numbers the watched ``call`` (made with ``grad_numbers=True``) held as
    an earlier call's: a later result that returns one of them was read from state kept between
    calls.  Every watched call of a function whose results are judged by ``read_from_grad``
    must be remembered, the repeat probes' too, or a number it left would be told as computed.
    The gradients a pass was started with are not kept: those came from the student's code (a
    one-hot vector's 0.0 is a constant of its file, the very float a later return of that
    constant hands back), not from what backward made."""
    seeds = {id(number) for given in call.root_grads for number in given}
    _EARLIER.update((key, number) for key, number in call.probe_held.items() if key not in seeds)


_EARLIER: dict[int, float] = {}
"""Every gradient number earlier watched calls held (kept alive, so an id is never reused): a
number one call returns that an earlier call's backward made was read from state kept between
calls, not computed."""


def _numbers_in(x: object, depth: int) -> list[Any]:
    if type(x) in (list, tuple) and depth < MAX_RESULT_DEPTH:
        return [item for part in list(x)[:MAX_RESULT_ITEMS] for item in _numbers_in(part, depth + 1)]  # type: ignore[call-overload]
    if type(x) is dict and depth < MAX_RESULT_DEPTH:
        return _numbers_in(list(x.values()), depth)  # type: ignore[attr-defined]
    return [x]


def made_by_op(v: object, call: Call, label: str) -> dict[str, Any]:
    """The CHECK fact: ``v`` is a Value that an engine operation (``+``, ``micrograph.mul``,
    ``exp`` ...) returned to the student's code during the watched ``call`` (made with
    ``made=True`` and a sampled grad mode).  Under no_grad an operation records nothing, so
    its result looks like ``Value(number)``: only who returned it tells a Value the engine
    computed from one written from a Python formula; a Value that shares its number with one an
    operation returned is a copy of it (``copy.copy``).  None when ``v`` is no Value."""
    if not _is_value(v) or call.probe_made is None:
        return check(Check.MADE_BY_OP, None, label)
    if call.probe_made.get(id(v)) is v:
        return check(Check.MADE_BY_OP, True, label)
    copied = any(shares_storage(v, made) for made in call.probe_made.values())  # copy.copy(a + 1) shares its number
    return {**check(Check.MADE_BY_OP, False, label), **({CONTEXT + "copy": True} if copied else {})}


def made_from(v: object, sources: tuple[Any, ...], call: Call, label: str) -> dict[str, Any]:
    """The CHECK fact: ``v``, returned by an engine operation during the watched ``call`` (made
    with ``made=True``), was made from one of ``sources`` (the Values the statement computes it
    from), through the Values the operations the student's code called returned. An operation
    on a new Value made of a number (``Value(formula) * 1``) returns a Value too, but from that
    number only; an operation that adds one (``w * 0 + Value(formula)``) reaches ``w`` but
    does not compute from it: the operations, made again from fresh copies of the sources with
    grad on (``replayed.depends``), give the sources no gradient. A ``detach()`` (or ``.data``)
    of a source shares its number: an operation on it computes from that source. None when ``v`` was not
    returned by an operation (``made_by_op`` says so), or where a source is no Value (a float
    returned for one: its own fact says so; ``v`` may be computed from the leaf the code made of
    that number, which it did not return, and which the replay cannot make again)."""
    made = call.probe_made
    wanted = {id(s) for s in sources if _is_value(s)}
    if made is None or not _is_value(v) or made.get(id(v)) is not v or not all(_is_value(s) for s in sources):
        return check(Check.MADE_FROM, None, label)
    reached = walked_back(v, lambda x: made_of(call, x))
    hit = id(v) in wanted or any(id(x) in wanted or (made.get(id(x)) is not x and alias_of(x, sources) is not None)
                                 for x in reached)
    return check(Check.MADE_FROM, hit and depends(v, sources, call) is not False, label)


def read_on_the_way(v: object, call: Call) -> list[Any]:
    """The Values the operations of the watched ``call`` (made with ``made=True``) read to make
    ``v``, by identity, nearest first: ``v``'s own operation's inputs, then theirs, and the Value a
    ``detach()`` among them was taken of.  A Value no operation of the call returned (a leaf,
    ``Value(start)``) ends its branch."""
    def read(x: Any) -> tuple[Any, ...]:
        alias = call.aliased.get(id(x), (None, None))
        return made_of(call, x) if (call.probe_made or {}).get(id(x)) is x else (alias[1],) if alias[0] is x else ()
    return list(walked_back(v, read))


def unrecorded_on_the_way(v: object, call: Call, label: str) -> dict[str, Any]:
    """The CHECK fact: ``v``, a Value the graph did not record (no grad_fn), was made by the
    watched ``call``'s operations (made with ``made=True``) from no Value the graph recorded: all
    of it was computed under no_grad, not only its last operation.  ``~op``: the node of the
    nearest recorded Value it was made from.  None where ``v`` is no Value or is recorded itself
    (its own facts tell that)."""
    if call.probe_made is None or not _is_value(v) or v.grad_fn is not None:
        return check(Check.UNRECORDED_ON_THE_WAY, None, label)
    recorded = next((u for u in read_on_the_way(v, call) if u.grad_fn is not None), None)
    return {**check(Check.UNRECORDED_ON_THE_WAY, recorded is None, label),
            **({} if recorded is None else {CONTEXT + "op": str(recorded.grad_fn.name())})}


def walked_back(v: Any, read: Callable[[Any], tuple[Any, ...]]) -> Iterator[Any]:
    """The Values met walking back from ``v`` (not ``v`` itself), each once, nearest first:
    ``read(x)`` gives the Values the walk goes on to from ``x`` (the inputs an operation of the
    call made it from, say), an empty tuple where its branch ends.  Lazy: a caller that has
    found what it looks for stops the walk there."""
    seen, frontier = {id(v)}, deque([v])
    while frontier:
        for u in read(frontier.popleft()):
            if _is_value(u) and id(u) not in seen:
                seen.add(id(u))
                frontier.append(u)
                yield u


def made_of(call: Call, x: Any) -> tuple[Any, ...]:
    """The Values an operation of the watched ``call`` made ``x`` from; none where no operation
    of the call returned it (a leaf, ``Value(start)``)."""
    return call.inputs.get(id(x), ()) if (call.probe_made or {}).get(id(x)) is x else ()


def read_in_turn(records: object, leaves: list[Any], label: str, **context: bool) -> dict[str, Any]:
    """The READ_IN_TURN fact: the records of passes before the last (lists of numbers, or of
    Values) were not read at the end.  A float read with ``item()`` right after its pass is one
    that pass made; records holding the very floats the leaves' .grad hold after the last pass
    were read then (each ``.grad`` Value kept in every record and read at the end, or read once
    more after the loop; ``~grad_data``: Values sharing the ``.grad`` Values' numbers, ``.grad.data``).  ``context`` goes into the fact as ``~`` keys (which sentence tells it)."""
    grads = [leaf.grad for leaf in leaves]
    last = [None if g is None else g.item() for g in grads]
    if last and all(g == 0.0 for g in last):  # cleared: zero floats may be one shared object,
        return {**check(Check.READ_IN_TURN, None, label), **{CONTEXT + k: v for k, v in context.items()}}  # no clock
    kept = [[x.item() if _is_value(x) else x for x in record] for record in records
            if type(record) is list] if type(records) is list else []
    late = 0 < len(kept) == len(records) and all(  # type: ignore[arg-type]
        len(items) == len(last) > 0 and all(x is y for x, y in zip(items, last)) for items in kept)
    # the records hold the .grad Values themselves, which every later pass adds into in place
    values = late and all(type(record) is list and all(any(x is g for g in grads) for x in record)
                          for record in records)  # type: ignore[union-attr]
    # ... or Values sharing their numbers (g.data): the same additions show through them
    shared = late and not values and all(type(record) is list and all(
        _is_value(x) and any(_is_value(g) and shares_storage(x, g) for g in grads) for x in record)
        for record in records)  # type: ignore[union-attr]
    return {**check(Check.READ_IN_TURN, not late, label), **{CONTEXT + k: v for k, v in context.items()},
            CONTEXT + "grad_values": values, **({CONTEXT + "grad_data": True} if shared else {})}


def returned_root(y: object, call: Call, label: str) -> dict[str, Any]:
    """The RETURNED_ROOT fact: the y returned is a root a backward pass of the watched ``call``
    started from (None where no pass ran, which the call's fact tells).  A y built again after
    the backward (or after what changed its inputs) and returned is not the one backward ran on:
    what it holds tells nothing of that pass."""
    if not call.roots:
        return check(Check.RETURNED_ROOT, None, label)
    node = getattr(y, "grad_fn", None) if _is_value(y) else None
    held = node is not None and any(id(node) in roots for roots in call.roots)
    below = not held and node is not None and _below(call.first_root, node)
    return {**check(Check.RETURNED_ROOT, held, label), **({CONTEXT + "below_root": True} if below else {})}


def _below(root: object, node: object, most: int = 10_000) -> bool:
    """Whether ``node`` is in the graph under the pass's ``root`` node, by identity (``(y * 1).backward()``:
    the pass started from a Value computed from the y returned, ``~below_root``); a runaway graph is not
    walked past ``most`` nodes."""
    seen, todo = set(), [root]
    while todo and len(seen) < most:
        at = todo.pop()
        if at is node:
            return True
        if at is None or id(at) in seen:
            continue
        seen.add(id(at))
        todo.extend(child for child, _ in getattr(at, "next_functions", ()))
    return False


def read_written(call: Call, label: str, built: int) -> dict[str, Any]:
    """The READ_WRITTEN fact: of the leaves requiring grad whose .grad the watched ``call`` (made
    with ``reads_grad=True``) read, some is one its backward passes wrote into (None where no pass
    ran or no such leaf was read).  Where none is, the passes ran through another graph than the
    one whose leaves it read: with ``built`` (the calls of the given builder) above one, context
    ``~built_again``, the graph built again that backward ran on."""
    read = [v for v in call.grad_reads.values() if _is_value(v) and v.is_leaf and v.requires_grad]
    if not call.roots or not read:
        return check(Check.READ_WRITTEN, None, label)
    wrote = any(call.written.get(id(v)) is v for v in read)
    return {**check(Check.READ_WRITTEN, wrote, label), **({CONTEXT + "built_again": True} if not wrote and built > 1 else {})}


def seeded_one(passes: list[tuple[float, ...]], label: str) -> dict[str, Any]:
    """The CHECK fact that each backward pass of the call started from the gradient one, as
    ``y.backward()`` called without a gradient does (``~implicit``: the sentence says so, not
    that a v given was left out); not judged of a call that ran none."""
    started = check(Check.GAVE_V, all(grads == (1.0,) for grads in passes) if passes else None, label)
    return {**started, CONTEXT + "implicit": True}
