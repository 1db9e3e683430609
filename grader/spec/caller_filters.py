"""ex03's grad_warning under a caller's warnings filters: what it answers where the caller ignores warnings.

A caller may run under filters that ignore warnings (pytest, a notebook, ``python -W ignore``);
``warnings.simplefilter("always")`` inside ``catch_warnings(record=True)`` still records there, so
grad_warning answers as without them.  Its public test asks this, so it ships in the student release.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

from micrograph import Value

from grader.spec.facts import CONTEXT, Check
from grader.spec.mode_restored import called
from grader.spec.provenance import check


def caller_ignores(sub: ModuleType, twin: Callable[[], Value], name: str, seen: Callable[[Any], Any]) -> dict[str, Any]:
    """The CHECK fact that grad_warning(v) answers the same (``seen``) where the caller's filters
    ignore warnings as without them.  Each call is given a Value of its own, made alike by ``twin``
    (a call that changes the Value it is given, or keeps state, answers otherwise the second time
    on one Value, whatever the filter), both made before either call: a call that leaves grad mode
    off would leave the second unrecorded, a leaf that never warns.  Where it does not answer the
    same, whether it answered None there."""
    first, second = twin(), twin()
    with warnings.catch_warnings():  # each call's grad mode on again after it (``mode_restored``): a watched call tells it
        warnings.simplefilter("ignore")
        ignored = seen(called("grad_warning", sub.grad_warning, first))
    again = seen(called("grad_warning", sub.grad_warning, second))
    fact = check(Check.SAME_UNDER_FILTERS, ignored == again, f"grad_warning({name})")
    return {**fact, CONTEXT + "none": ignored is None}
