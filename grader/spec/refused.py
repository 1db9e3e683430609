"""Which Value the engine refused, read from the error a call returned, and whether it is the one
the statement has the call try.

ex08 and ex09 ask for the error the engine raises on a given program (``z.backward()`` for a
detached z, ``w -= lr * w.grad`` outside no_grad).  The type and text of an error do not say which
Value raised it: ``Value(2.0).backward()`` raises the very error ``z.backward()`` does, and an
in-place change of any leaf that requires grad the very error of the update of w.  The raise site
does: the error's traceback keeps the engine frame that raised it, with its variables, which the
submission cannot reach (stack frames are refused to it).  So the Value refused is read there,
from the two places the engine refuses these: the start of a backward pass (torch's
``GraphTask``, an output that requires no grad) and an in-place operation (``record_inplace``,
a leaf that requires grad).

    refused_by_engine(e, PASS_START)           the Value the engine refused in raising e, or None
    refused_detached(e, call, "f")             CHECK fact: the backward that raised e was tried on
                                               a detach() of the call, or on a Value computed from one
    refused_given(e, w, "f")                   CHECK fact: the in-place change that raised e was
                                               tried on w itself
    changed_untracked(w, call)                 context: why an in-place change of the leaf w was not
                                               refused (w requiring no grad then, or a detach() of w)
"""

from __future__ import annotations

from types import CodeType
from typing import Any

from micrograph import Value, engine
from micrograph.value import LEAF_INPLACE, record_inplace, shares_storage, shares_version_counter

from grader.spec.call import Call
from grader.spec.facts import CONTEXT, Check
from grader.spec.origins import read_on_the_way
from grader.spec.provenance import check
from grader.spec.raise_site import innermost
from grader.spec.raised import NO_GRAD_FN

PASS_START = engine.GraphTask.__init__.__code__  # raises for outputs[i], which requires no grad
IN_PLACE = record_inplace.__code__  # raises for self, a leaf that requires grad
REFUSAL = {PASS_START: NO_GRAD_FN, IN_PLACE: LEAF_INPLACE}
"""The text of the RuntimeError each site raises in refusing a Value: the same frames raise other
errors too (``record_inplace`` a TypeError for an operand that is no number, a RuntimeError for an
inference Value changed outside inference mode), which refuse no leaf."""


def refused_by_engine(e: object, site: CodeType) -> Value | None:
    """The Value whose backward pass (``PASS_START``) or in-place change (``IN_PLACE``) the
    engine refused in raising ``e``: read from the frame ``e`` was raised in, where that is the
    raise site ``site`` and ``e`` that site's refusal (``REFUSAL``); None for any other error (or
    none).  The frame's variables are the engine's (``outputs`` and ``i``, ``self``):
    ``tests/grader/test_refused.py`` fails if they are renamed."""
    tb = innermost(e.__traceback__) if isinstance(e, BaseException) else None
    if tb is None or tb.tb_frame.f_code is not site:
        return None
    if type(e) is not RuntimeError or REFUSAL[site] not in str(e):
        return None
    local = tb.tb_frame.f_locals
    if site is PASS_START:
        outputs, i = local.get("outputs"), local.get("i")
        found = outputs[i] if isinstance(outputs, list) and isinstance(i, int) and 0 <= i < len(outputs) else None
    else:
        found = local.get("self")
    return found if isinstance(found, Value) else None


def refused_detached(e: object, call: Call, label: str) -> dict[str, Any]:
    """The REFUSED_ON_DETACHED fact of a call watched with ``made=True`` that detached a Value
    requiring grad: the backward pass the engine refused in raising ``e`` was tried on what
    detach() returned, on a Value computed from it, or on a Value an operation of the call made
    and ``detach_()`` then cut (``(w * 2).detach_()``); False for a Value no detach() of the call
    reaches (``Value(2.0 * w.item()).backward()``: the same error, on another Value).  None where
    the call detached nothing (``detached_some`` tells that) or ``e`` is no refused backward."""
    root = refused_by_engine(e, PASS_START)
    if call.probe_made is None or not call.detached_tracked or root is None:
        return check(Check.REFUSED_ON_DETACHED, None, label)
    cut_in_place = any(v is root for v, _ in call.cut_in_place) or call.detached_changed and call.probe_made.get(id(root)) is root
    from_detached = any(call.detach_of(v) for v in (root, *read_on_the_way(root, call)))
    return check(Check.REFUSED_ON_DETACHED, cut_in_place or from_detached, label)


def refused_given(e: object, w: object, label: str) -> dict[str, Any]:
    """The REFUSED_ON_GIVEN fact: the in-place change the engine refused in raising ``e`` was
    tried on ``w``, the leaf the call was given (``w -= lr * w.grad``), not on another leaf made
    for it (``Value(w.item(), requires_grad=True).sub_(...)``: the same error).  None where ``e``
    is no refused in-place change."""
    leaf = refused_by_engine(e, IN_PLACE)
    if leaf is None:
        return check(Check.REFUSED_ON_GIVEN, None, label)
    return check(Check.REFUSED_ON_GIVEN, leaf is w, label)


def changed_untracked(w: object, call: Call) -> dict[str, bool]:
    """Context of an ERROR fact about the leaf w: why the engine refused nothing where w, a leaf that
    requires grad now, was changed in place: w itself changed while it did not require grad (``w =
    Value(w)``, ``add_``, then ``requires_grad_()``, or requires_grad switched off around the change),
    or a ``detach()`` of w changed, which requires no grad and shares w's number and version counter."""
    if not isinstance(w, Value) or not w.requires_grad:
        return {}
    untracked = [v for v in call.changed_untracked.values() if isinstance(v, Value) and shares_storage(v, w)]
    itself = any(v is w for v in untracked)
    detached = not itself and any(shares_version_counter(v, w) for v in untracked)
    return {CONTEXT + "leaf_not_yet_requiring": itself, CONTEXT + "leaf_through_detached": detached}
