"""What a context sentence explains: it is told only beside a difference it accounts for.

A sentence from a context field (``~kept_graph``, ``~grad_mode_off``: a fact the exercise is not
about) is told only where it explains another difference of the test (``explains``).
"""

from __future__ import annotations

from grader.judge.cause_groups import OTHER_ERRORS, with_nan
from grader.judge.given_sentences import SayGiven
from grader.judge.read_sentences import SayRead
from grader.judge.sentences import Say, Sentence

# What a kept or freed graph explains, when retain_graph is context only (the exercise is not
# about it): keeping a graph nobody runs again changes nothing, so the sentence is said only
# next to a difference it accounts for.  Likewise grad mode, where the exercise is not about
# no_grad: it decides what the graph records (and whether an in-place change of a leaf that
# requires grad is refused), not a version counter: ``x.add_(1)`` under no_grad, where the
# statement writes through ``.data``, is told as the in-place change it is, without no_grad.
_RECORDED = {Say.UNTRACKED, Say.IS_LEAF, Say.NOT_LEAF, Say.OTHER_OP, Say.REQUIRES_GRAD,
             Say.NO_GRAPH, Say.NODE_OP, Say.NODE_RSUB, Say.ROOT_RSUB, Say.NODE_INPUTS, Say.ROOT_OP, Say.ROOT_INPUTS, Say.NODE_SWAPPED, Say.ROOT_SWAPPED,
             Say.OP_FEWER, Say.OP_MORE, Say.NO_LEAF,
             Say.EXTRA_LEAF, Say.DATA_LEAF, Say.MISSING_LEAF, Say.MISSING_LEAVES, Say.LEAF_ELSEWHERE, Say.GRAD_NEVER_WRITTEN, Say.RETAINED_NEVER_WRITTEN,
             Say.NO_ERROR, Say.AN_ERROR, *OTHER_ERRORS}
_EXPLAINED_BY = with_nan({
    **dict.fromkeys((Say.KEPT_FEWER, Say.FREED_AGAINST_GIVEN), {Say.AN_ERROR, *OTHER_ERRORS, Say.FREED, Say.GRAD_NUMBER}),
    **dict.fromkeys((Say.KEPT_MORE, Say.KEPT_ON_LAST, Say.KEPT_BY_CREATE, Say.KEPT_AGAINST_GIVEN), {Say.NO_ERROR, Say.KEPT, Say.GRAD_NUMBER}),
    **dict.fromkeys((Say.GRAD_MODE_OFF, Say.GRAD_MODE_OFF_SET, Say.GRAD_MODE_OFF_INFERENCE, Say.GRAD_MODE_OFF_DECORATED), _RECORDED),
    Say.INPUTS_GIVEN: {Say.GRAD_NEVER_WRITTEN, Say.GRAD_NUMBER, Say.RESULT_NONE, Say.RESULT_NUMBER},  # other leaves unwritten
    **dict.fromkeys((SayRead.EDGES_UNREAD, SayRead.NODE_UNREAD), {Say.RESULT_NUMBER}),  # a walk of none or part of the graph
    Say.GRAD_MODE_ON: _RECORDED, Say.GRAD_MODE_FLAG: _RECORDED,
    # a .grad cleared between passes where the statement's accumulate (zero_grad at the top of every step), or kept
    **dict.fromkeys((Say.CLEARED_BETWEEN, Say.NOT_CLEARED), {Say.RESULT_NUMBER, Say.RESULT_ALIKE, Say.GRAD_NUMBER}),
})


# A given function's edit that still builds the given graph (retain_grad() on a node of it) costs
# nothing alone: it is told beside any other difference of the test, which the retained node may cause.
_BESIDE_ANY = {SayGiven.RETAINED}


def explains(context: Sentence, said: set[Sentence]) -> bool:
    """Whether the context sentence ``context`` accounts for one of the differences ``said``."""
    if context in _BESIDE_ANY:
        return bool(said - {context})
    return bool(said & _EXPLAINED_BY.get(context, frozenset()))
