"""Probes that see state carried between calls: a function called again, on other inputs and
then on the first inputs once more, with the first call's result kept alive meanwhile.

A module-level list, a mutable default argument, a leaf kept in a global and reused, or the
``.data`` of a shared Value overwritten all pass a probe that calls a function once; they show
when it is called again.  ``calls_apart`` makes three calls, ``make(first)``, ``make(second)``
and ``make(first)``, and judges two properties with CHECK facts:

* ``FIRST_KEPT``: what the first call returned, looked at again after the second call, is what
  it was (a result the second call changed shares its state);
* ``SAME_AGAIN``: the third call, on the first inputs again, returns what the first did (a result
  that differs depends on the calls made before it).

``seen`` turns a result into plain JSON (the facts the test compares anyway); the comparison is
exact, in the child: the same code on the same inputs gives the same floats.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeVar

from grader.spec.facts import Check
from grader.spec.origins import remember
from grader.spec.provenance import check, watching

Inputs = TypeVar("Inputs")


def calls_apart(sub: ModuleType, make: Callable[[Inputs], Any], seen: Callable[[Any], Any],
                first: Inputs, second: Inputs, label: str) -> list[dict[str, Any]]:
    """The FIRST_KEPT and SAME_AGAIN facts of ``make`` (see the module doc), labelled ``label``
    (the function's name as the student wrote it).  Each call is watched and its gradient
    numbers remembered (``origins.remember``): a later test's result that returns one of them
    is told as state kept between calls, not as a number computed."""
    def call(inputs: Inputs) -> Any:
        with watching(sub, label, grad_mode=None, grad_numbers=True) as watched:
            result = make(inputs)
        remember(watched)
        return result

    kept = call(first)
    before = repr(seen(kept))  # repr: exact, and nan equals itself
    call(second)
    after = repr(seen(kept))
    again = repr(seen(call(first)))
    return [check(Check.FIRST_KEPT, before == after, label),
            check(Check.SAME_AGAIN, before == again, label)]
