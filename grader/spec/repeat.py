"""Probes that see state carried between calls: a function called again, on other inputs and
then on the first inputs once more, with the first call's result kept alive meanwhile.

A module-level list, a mutable default argument, a leaf kept in a global and reused, or the
``.data`` of a shared Value overwritten all pass a probe that calls a function once; they show
when it is called again.  ``calls_apart`` makes three calls, ``make(first)``, ``make(second)``
and ``make(first)``, and judges two properties with CHECK facts:

* ``FIRST_KEPT``: what the first call returned, looked at again after the second call, is what
  it was (a result the second call changed shares its state), in the run and in a fresh copy's
  first two calls (a default list the very first call returns as it is); the first result is looked at
  twice before the second call, and the second look is the one compared, since looking may
  change it (its gradient taken through a backward that changes a saved input in place, which
  other facts tell, and which no later call did);
* ``SAME_AGAIN``: the third call, on the first inputs again, returns what the first did (a result
  that differs depends on the calls made before it; a call that raises where the first returned,
  a graph cached per inputs and backpropagated through once more, is told as raising), and a new
  list, dict or exception, not the very one the first returned (a result cached by its inputs),
  nor one holding an exception the first returned (an error kept per inputs, in a new dict);
* ``SAME_FRESH``: the first and the second call each return what the same call returns in a
  fresh copy of the student's module (their file run again, ``fresh_copy``), where no call was
  made before it.  State set by the very first call of the run (a learning rate kept in a
  default argument the first time, a result cached by an earlier test) makes every later call
  agree with the others, which the first two cannot see.

State kept on or for the inputs themselves, seen by calling again on the very same inputs, is
``inputs_again``'s to tell.

A function the statement asks to make new leaves at each call is also asked whether it returned
one an earlier call returned (``Returned``): a leaf cached on its inputs or kept in a mutable
default returns the same numbers every time, and only its identity tells it.

A result that is a graph is seen backpropagated too (``backprop_kept``): the Value a first call
returned keeps its number when a later call refills, through ``.data``, a Value its graph saved,
and only its gradient shows it.

``seen`` turns a result into plain JSON (the facts the test compares anyway, or ``seen_all``:
everything a student sees on it), copied as it is when looked at and compared exactly but for
a float's last digits (``grader.spec.seen``).
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import sys
import weakref
from collections.abc import Callable, Sequence
from importlib.machinery import ModuleSpec
from types import CodeType, ModuleType
from typing import Any, NamedTuple, TypeVar

import micrograph
from micrograph import Value

from grader.spec.copy_share import copy_time, grad_mode_kept, nowhere
from grader.spec.facts import CONTEXT, Check
from grader.spec.handed import carries_state, handed_again
from grader.spec.origins import remember
from grader.spec.probe import caught, num, type_name, value
from grader.spec.provenance import check, same_object, watching
from grader.spec.seen import Seen

Inputs = TypeVar("Inputs")
RAISED = CONTEXT + "raised"
"""A SAME_AGAIN fact's context: the call on the first inputs again raised, where the first returned."""
SAME_OBJECT = CONTEXT + "same_object"
"""A SAME_AGAIN fact's context: the call on the first inputs again returned an object the first returned."""
ERROR_INSIDE = CONTEXT + "error_inside"  # ... returned, in a new result, an error the first returned


@functools.cache
def _never_returned() -> Value:
    """What a Value no earlier call returned is compared with (an object no student code holds),
    made on first use: a release of the build track alone ships no Value that can be made."""
    return Value(0.0)


_compiled: dict[str, CodeType] = {}
"""The student's file compiled once per process, for every ``fresh_copy`` of its module (a millisecond a compile)."""


class _Imported(NamedTuple):
    """What the import of the student's file ran: its spec, code and builtins."""

    spec: ModuleSpec
    code: CodeType
    builtins: dict[str, Any]


_IMPORTED: weakref.WeakKeyDictionary[ModuleType, _Imported] = weakref.WeakKeyDictionary()
"""By the module, and by each of its fresh copies (a copy of a copy runs it too), what the sandbox's import ran."""


def imported(module: ModuleType, spec: ModuleSpec, code: CodeType, builtins: dict[str, Any]) -> None:
    """Remember what the import of the student's file ran (``grader.sandbox.child.guard``), for its ``fresh_copy``:
    the very code, spec and builtins, never the file or the module's ``__spec__`` read again.  The file in the
    scratch folder is the submission's to rewrite while it runs (and its module's attributes too): read again, it ran
    code the parent's reading never saw, which put a function of its own among the builtins both copies share."""
    _IMPORTED[module] = _Imported(spec, code, builtins)


def imported_code(module: ModuleType) -> CodeType | None:
    """The code the sandbox's import of the student's file ran (``imported``): what its top level did, as run."""
    return None if (kept := _IMPORTED.get(module)) is None else kept.code


class Returned:
    """Every Value one function returned under one name in this run, kept alive (so no id is reused): a Value
    a later call returns again, where the statement makes a new one at each call, is told by its IDENTITY fact,
    labelled ``label``, against ``of``; None or a small int, one object in calls that kept nothing, is not."""

    def __init__(self, label: str, of: str) -> None:
        self.label, self.of = label, of
        self.kept: list[object] = []

    def earlier(self, v: object) -> bool:
        """Whether ``v`` is a Value (or a list, dict or exception) an earlier call returned under this name."""
        return carries_state(v) and any(old is v for old in self.kept)

    def new(self, v: object, given: Sequence[object] = ()) -> dict[str, Any]:
        """The IDENTITY fact of ``v`` against the Value an earlier call returned, if it is one and not one of
        ``given``, this call's own inputs: a leaf handed in again and returned is no state kept between calls."""
        kept = self.earlier(v) and not any(v is g for g in given)
        self.kept.append(v)
        return {**same_object(v, v if kept else _never_returned(), self.label, self.of), CONTEXT + "earlier_call": kept}


def backprop_kept(output: object, leaves: Sequence[Value]) -> list[float | None] | str:
    """d output / d leaf for each of ``leaves``, by ``micrograph.grad`` keeping the graph: no
    .grad written, nothing freed, so a kept result is backpropagated again after a later call.
    A description where there is no such gradient (not a Value, or one that needs none)."""
    if not isinstance(output, Value) or not output.requires_grad:
        return f"no graph: {type_name(output)}"
    try:
        grads = micrograph.grad(output, list(leaves), retain_graph=True, allow_unused=True)
    except Exception as error:  # noqa: BLE001 - a graph already freed: told as what it raised
        return f"raised {type(error).__name__}"
    return [None if g is None else num(g) for g in grads]


ADDRESS_SIZED = 2 ** 32
AN_ID = "an int of an address's size: an id()"
"""What ``seen_all`` makes of an int as large as an address: CPython's ``id()`` is the object's
address, and an id returned for an object a call made says nothing of state kept between calls,
whether a later call's differs (a new object elsewhere) or equals it (the freed object's address
handed to the next one).  No number these exercises return is that large."""


def seen_all(x: object) -> Any:
    """Everything a student sees on a returned result, as plain data, for ``calls_apart``'s look
    at a first call's result again after another call: a Value's number, .grad, flags and
    grad_fn (``probe.value``), an error's text, a number, and so on into lists and dicts."""
    if isinstance(x, Value):
        return value(x)
    if x is None or isinstance(x, BaseException):
        return caught(x)
    if type(x) is int and abs(x) >= ADDRESS_SIZED:
        return AN_ID
    if type(x) in (int, float):
        return num(x)
    if type(x) in (bool, str):
        return x
    if type(x) in (list, tuple):
        return [seen_all(item) for item in x]
    if issubclass(type(x), dict):  # an OrderedDict too, read through dict's own methods
        return {key: seen_all(item) for key, item in dict.items(x) if type(key) is str}
    return type_name(x)


def calls_apart(sub: ModuleType, make: Callable[[ModuleType, Inputs], Any],
                seen: Callable[[Any], Any], first: Inputs, second: Inputs,
                label: str) -> list[dict[str, Any]]:
    """The FIRST_KEPT, SAME_AGAIN and SAME_FRESH facts of ``make(module, inputs)`` (see the
    module doc), labelled ``label`` (the function's name as the student wrote it).  Each call
    is watched and its gradient numbers remembered (``origins.remember``): a later test's
    result that returns one of them is told as state kept between calls, not as a number
    computed."""
    call = remembered(sub, make, label)
    given = _lists_in(first)
    kept = call(sub, first)
    changed = _changed(given)  # a list given, changed by the first call: the later calls get it as it is now
    before = Seen(seen(kept))
    settled = Seen(seen(kept))  # looked at again before any other call: a look that changes it
    later = Seen(seen(call(sub, second)))  # (a backward that changes its saved x in place) is no state
    after = Seen(seen(kept))
    try:
        returned = call(sub, first)
        again, handed = Seen(seen(returned)), handed_again(kept, returned, first)
    except Exception:  # noqa: BLE001 - the first call on these inputs returned: this one is told
        again, handed = None, None
    # inputs the first call changed, on which a later call raised: a fresh copy's call on them is no first call
    fresh_first, fresh_kept = (None, None) if again is None and changed else _first_of_fresh(
        sub, call, seen, first, second, before)
    return [check(Check.FIRST_KEPT, settled == after and fresh_kept is not False, label),
            {**check(Check.SAME_AGAIN, before == again and handed is None, label), RAISED: again is None,
             CONTEXT + "effect_only": before.returned_alike(again),  # the same returned, its inputs changed otherwise
             CONTEXT + "changed_raised": again is None and bool(changed), CONTEXT + "values_inside": handed == "values",
             SAME_OBJECT: handed == "whole", ERROR_INSIDE: handed == "error", **changed},
            {**check(Check.SAME_FRESH, fresh_first and as_if_first(sub, call, seen, [(second, later)]), label),
             **changed}]


def _lists_in(inputs: object, depth: int = 0) -> list[tuple[list[Any], list[Any]]]:
    """Each list among a call's inputs (nested in tuples and lists), beside a copy of its entries."""
    if type(inputs) not in (list, tuple) or depth > MAX_DEPTH:
        return []
    found = [(inputs, list(inputs))] if type(inputs) is list else []
    return found + [pair for item in inputs for pair in _lists_in(item, depth + 1)]


MAX_DEPTH = 3
"""How deep lists are looked for among a call's inputs."""


def _changed(given: list[tuple[list[Any], list[Any]]]) -> dict[str, bool]:
    """Context for a call made again on inputs whose lists the first call changed in place (its
    entries replaced, added or removed; ``emptied``: a list it left empty): the later call on
    "the same inputs" got them changed, so what it returned is told by that change, not as state
    kept between calls."""
    changed = [(now, was) for now, was in given if len(now) != len(was) or any(a is not b for a, b in zip(now, was))]
    if not changed:
        return {}
    return {CONTEXT + "changed_input": True, **({CONTEXT + "emptied": True} if any(not now for now, _ in changed) else {})}


def _first_of_fresh(sub: ModuleType, call: Callable[[ModuleType, Inputs], Any], seen: Callable[[Any], Any],
                    first: Inputs, second: Inputs, before: Seen) -> tuple[bool | None, bool | None]:
    """The first call of a fresh copy of the student's module, on the first inputs: whether it
    returned what the run's first call did (``before``: SAME_FRESH of those inputs), and whether
    what it returned stays as it was once the copy made its second call (FIRST_KEPT from a fresh
    start: a default list the very first call of a run returns as it is, where later calls return
    a slice of it, changes there and nowhere later in the run).  None: no copy could be made, or
    the copy's second call raised (the run's own calls tell that error)."""
    fresh = fresh_copy(sub)
    if fresh is None:
        return None, None
    kept = call(fresh, first)
    alike = Seen(seen(kept)) == before
    settled = Seen(seen(kept))  # looked at again before the second call, as the run's first result is
    try:
        call(fresh, second)
    except Exception:  # noqa: BLE001 - the student's error, told by the facts of the run's own calls
        return alike, None
    return alike, settled == Seen(seen(kept))


def each_as_if_first(sub: ModuleType, make: Callable[[ModuleType, Inputs], Any], seen: Callable[[Any], Any],
                     made: list[tuple[Inputs, Seen]], labels: list[str], function: str) -> list[dict[str, Any]]:
    """The SAME_FRESH fact of each call of ``function`` the run made (its inputs, and what it returned,
    seen: ``Seen``), labelled ``labels``.  One fresh copy makes every call, in the run's order (what
    the test's own calls leave is alike there); a call that returns something else there gets a copy
    of its own, where it is the first call.  A result kept by ``id(root)`` is handed to a new root at
    a freed root's id on one run and not on the next: where it is, it is told as state kept between
    calls, not only as a wrong result.  None: no copy could be made, or a copy's call raised."""
    call, screen = remembered(sub, make, function), fresh_copy(sub)
    facts = []
    for (inputs, returned), label in zip(made, labels):
        try:
            holds = None if screen is None else (
                Seen(seen(call(screen, inputs))) == returned or as_if_first(sub, call, seen, [(inputs, returned)]))
        except Exception:  # noqa: BLE001 - the student's error, told by the facts of the run's own calls
            holds = None
        facts.append(check(Check.SAME_FRESH, holds, label))
    return facts


def remembered(sub: ModuleType, make: Callable[[ModuleType, Inputs], Any], label: str) -> Callable[[ModuleType, Inputs], Any]:
    """``make`` watched, each call's gradient numbers remembered (``origins.remember``): a later call
    returning them returns state kept between calls, not numbers it computed."""
    def call(module: ModuleType, inputs: Inputs) -> Any:
        with watching(sub, label, grad_mode=None, grad_numbers=True) as watched:
            result = make(module, inputs)
        remember(watched)
        return result
    return call


def as_if_first(sub: ModuleType, call: Callable[[ModuleType, Inputs], Any], seen: Callable[[Any], Any],
                 made: list[tuple[Inputs, Seen]]) -> bool | None:
    """Whether each call made (its inputs and what it returned, seen) returned what the same call
    returns as the first call in a fresh copy of the student's module (None: no copy could be
    made).  The first inputs' call is not the run's first either: the tests and the diagram
    probe before it may have left state that it returns."""
    for inputs, returned in made:
        fresh = fresh_copy(sub)
        if fresh is None:
            return None
        if Seen(seen(call(fresh, inputs))) != returned:
            return False
    return True


def fresh_copy(sub: ModuleType, keep_mode: bool = False) -> ModuleType | None:
    """The student's file run again in a module of its own, with the builtins ``sub`` runs with and the code its
    import ran (in the sandbox, the guarded ones of ``grader.sandbox.child.guard``, as ``imported`` kept them;
    elsewhere what its spec's loader gives), or None when it cannot be (no file, or running it again raised: nothing
    is judged then).  The copy is ``sys.modules``' entry only while its code runs (a dataclass looks its module up
    there), then ``sub`` is again.  Grad mode is as it was before the copy ran (a file that switches it off at import
    would leave the probe's own graphs unrecorded, an error told as the student's; ``import_mode`` tells that
    import), unless ``keep_mode``.  What the file prints at its top goes nowhere: its import showed it once already.
    Its top level runs under a share of the time of its own (``grader.spec.copy_share``), not the test's."""
    kept = _IMPORTED.get(sub)
    if kept is not None:
        spec, code, builtins = kept.spec, kept.code, kept.builtins
    else:
        spec = sub.__spec__
        if spec is None or spec.loader is None or spec.origin is None:
            return None
        code = _compiled.get(spec.origin) or _compiled.setdefault(spec.origin, spec.loader.get_code(spec.name))
        builtins = vars(sub).get("__builtins__")
    fresh = importlib.util.module_from_spec(spec)
    if kept is not None:  # a fresh copy of this copy runs the same code, never the file read again
        _IMPORTED[fresh] = kept
    if builtins is not None:
        vars(fresh)["__builtins__"] = builtins
    previous = sys.modules.get(spec.name)
    sys.modules[spec.name] = fresh
    try:  # what the file prints at the top was shown once, by its import: not again for each copy
        with (grad_mode_kept(keep_mode), copy_time(), contextlib.redirect_stdout(nowhere()),
              contextlib.redirect_stderr(nowhere())):
            exec(code, vars(fresh))  # noqa: S102 - what the loader's exec_module runs
    except Exception:  # noqa: BLE001 - a file that cannot run twice is judged by the other facts
        return None
    finally:
        if previous is None:
            sys.modules.pop(spec.name, None)
        else:
            sys.modules[spec.name] = previous
    return fresh
