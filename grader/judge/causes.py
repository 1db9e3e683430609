"""Which differences are causes, told first, and what a context sentence explains.

A test's sentences come causes first (``order``): what the call did explains the numbers it
returned.  A sentence from a context field (``~kept_graph``, ``~grad_mode_off``: a fact the
exercise is not about) is told only beside a difference it accounts for (``explains``).
"""

from __future__ import annotations

from typing import Any

from grader.judge.sentences import Say
from grader.spec.facts import FACT, Check, Kind

# The student's own error first (an exception their code caught and returned), then causes
# before consequences: what the call did (no backward, no_grad) explains a missing gradient,
# which explains a graph that is not the statement's.
_ORDER = {Kind.ERROR.value: 0, Kind.CALL.value: 0, Kind.VALUE.value: 1, Kind.IDENTITY.value: 1,
          Kind.CHECK.value: 1, Kind.RESULT.value: 2, Kind.GRAD.value: 2, Kind.GRAPH.value: 3}
# State kept between calls is a cause too: it explains every number of a later call that differs.
_STATE_CHECKS = {Check.SAME_AGAIN.value, Check.FIRST_KEPT.value, Check.SAME_FRESH.value,
                 Check.EARLIER_KEPT.value, Check.SAME_SECOND_TIME.value,
                 Check.SAME_FRESH_EFFECT.value}


def order(want: dict[str, Any]) -> int:
    """Where a fact's sentences come among a test's (``_ORDER``; state kept between calls first)."""
    if want[FACT] == Kind.CHECK.value and want.get("check") in _STATE_CHECKS:
        return 0
    return _ORDER.get(want[FACT], 4)


# What a kept or freed graph explains, when retain_graph is context only (the exercise is not
# about it): keeping a graph nobody runs again changes nothing, so the sentence is said only
# next to a difference it accounts for.  Likewise grad mode, where the exercise is not about
# no_grad: it decides what the graph records (and whether an in-place change of a leaf that
# requires grad is refused), not a version counter: ``x.add_(1)`` under no_grad, where the
# statement writes through ``.data``, is told as the in-place change it is, without no_grad.
_RECORDED = {Say.UNTRACKED, Say.IS_LEAF, Say.NOT_LEAF, Say.OTHER_OP, Say.REQUIRES_GRAD,
             Say.NO_GRAPH, Say.NODE_OP, Say.NODE_INPUTS, Say.NO_LEAF, Say.EXTRA_LEAF,
             Say.MISSING_LEAF, Say.GRAD_NEVER_WRITTEN, Say.RETAINED_NEVER_WRITTEN, Say.NO_ERROR, Say.AN_ERROR,
             Say.OTHER_ERROR}
_EXPLAINED_BY: dict[Say, set[Say]] = {
    Say.KEPT_FEWER: {Say.AN_ERROR, Say.OTHER_ERROR, Say.FREED, Say.GRAD_NUMBER},
    Say.KEPT_MORE: {Say.NO_ERROR, Say.KEPT, Say.GRAD_NUMBER},
    Say.GRAD_MODE_OFF: _RECORDED,
    Say.GRAD_MODE_ON: _RECORDED,
}


def explains(context: Say, said: set[Say]) -> bool:
    """Whether the context sentence ``context`` accounts for one of the differences ``said``."""
    return bool(said & _EXPLAINED_BY.get(context, set()))
