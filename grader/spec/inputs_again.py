"""A function called again on inputs it was called on before: state kept for the inputs.

A result kept for the inputs' identity (a dict keyed by ``id(root)``) is right for as long as
those inputs live, and wrong once CPython gives a new object a freed one's id, which happens on
one run and not on the next: ``grown_apart`` calls a function, changes its inputs in place (the
same objects, another graph) and calls it again, which sees such a cache on every run alike
(``leaf_stepped_apart``: a leaf a training step changed in place).

State can be kept on the inputs too (a memo set as an attribute of a graph's nodes), where a
fresh copy of the module, handed those inputs, finds it again: ``left_on_inputs`` calls a
function twice on one graph and compares the second call with the same call on a new graph.

Apart from the calls on other inputs (``repeat``) because the state told here is kept on or
for the very inputs: only the same objects, called on again, show it.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

import micrograph
from micrograph import Value

from grader.spec.facts import CONTEXT, Check
from grader.spec.provenance import check
from grader.spec.repeat import Inputs, as_if_first, fresh_copy, remembered
from grader.spec.seen import Seen

ON_INPUTS = CONTEXT + "on_inputs"
"""A SAME_FRESH fact's context: the call depends on something an earlier call left on its inputs (``left_on_inputs``)."""
AFTER = CONTEXT + "after"
"""Beside ``ON_INPUTS``: the label of the earlier call on those inputs."""
GROWN = CONTEXT + "grown"
"""A SAME_FRESH fact's context: the call was made again on inputs an in-place op changed (``grown_apart``)."""


def grown_apart(sub: ModuleType, make: Callable[[ModuleType, Inputs], Any], seen: Callable[[Any], Any],
                inputs: Inputs, grow: Callable[[Inputs], None], label: str) -> dict[str, Any]:
    """``make(module, inputs)``, then ``grow(inputs)`` changes the inputs in place (the same
    objects: a root an in-place op gave a new grad_fn), then ``make`` on them again: the SAME_FRESH
    fact of that second call, against the same call on the changed inputs as the first call of a
    fresh copy, with the CONTEXT ``grown``.  A result kept for the inputs' identity (a dict keyed
    by ``id(root)``) is returned again; a first call on other objects could only see that cache
    where CPython gave a later object a freed one's id, on one run and not on the next."""
    return {**_grown_again(sub, make, seen, inputs, grow, label), GROWN: True}


def left_on_inputs(sub: ModuleType, make: Callable[[ModuleType, Inputs, Any], Any], seen: Callable[[Any], Any],
                   build: Callable[[], Inputs], first: Any, second: Any, label: str, after: str) -> dict[str, Any]:
    """``make(module, inputs, first)``, then ``make(module, inputs, second)`` on the same inputs
    (one graph, ``build`` made), against ``make(module, new, second)`` on new inputs ``build``
    made again, where no call was made before: the SAME_FRESH fact of the second call, failed
    only where a fresh copy of the student's module, given the first inputs, returns what the
    second call did, with the CONTEXT ``on_inputs`` and ``after``, the first call's label.  The
    state is then on the inputs (a memo kept as an attribute of the graph's nodes), where
    ``calls_apart``'s fresh copy, handed those very inputs, sees it too; state kept in the module
    is ``calls_apart``'s to tell."""
    call = remembered(sub, lambda module, args: make(module, *args), label)
    given = build()
    call(sub, (given, first))
    later = Seen(seen(call(sub, (given, second))))
    alone = Seen(seen(call(sub, (build(), second))))
    fresh = fresh_copy(sub) if later != alone else None
    try:
        kept = fresh is not None and Seen(seen(call(fresh, (given, second)))) == later
    except Exception:  # noqa: BLE001 - the student's error, told by the facts of the run's own calls
        kept = False
    return {**check(Check.SAME_FRESH, not kept, label), ON_INPUTS: True, AFTER: after}


def leaf_stepped_apart(sub: ModuleType, make: Callable[[ModuleType, Value], Any], seen: Callable[[Any], Any],
                       w: float, label: str) -> dict[str, Any]:
    """``make`` on a leaf, then again on that very leaf once a step changed its number in place
    (under no_grad, as a training loop's update does): the SAME_FRESH fact of the second call.
    A result kept for the leaf (a dict keyed by ``id(w)``, or by ``w``) is returned again, where
    the same call in a fresh copy computes it from the leaf's new number."""
    def step(leaf: Value) -> None:
        with micrograph.no_grad():
            leaf.sub_(0.5)
    return _grown_again(sub, make, seen, Value(w, requires_grad=True), step, label)


def _grown_again(sub: ModuleType, make: Callable[[ModuleType, Inputs], Any], seen: Callable[[Any], Any],
                 inputs: Inputs, grow: Callable[[Inputs], None], label: str) -> dict[str, Any]:
    """The SAME_FRESH fact of ``make`` on ``inputs`` again, once ``grow`` changed them in place."""
    call = remembered(sub, make, label)
    call(sub, inputs)
    grow(inputs)
    again = Seen(seen(call(sub, inputs)))
    return check(Check.SAME_FRESH, as_if_first(sub, call, seen, [(inputs, again)]), label)
