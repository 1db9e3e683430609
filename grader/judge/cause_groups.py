"""Sentences that come in variants, named once as a group, for the tables of what explains what.

A sentence with a twin (the same finding told another way: of one entry or of both, of a change
made before or after another) is explained, or explains, wherever its twin is: a table names the
group, so a variant added later is told alike everywhere without being listed at each place.
"""

from __future__ import annotations

from grader.judge.clear_sentences import SayClear
from grader.judge.inplace_sentences import SayInPlace
from grader.judge.leaf_sentences import SayLeaf
from grader.judge.sentences import Say, Sentence
from grader.judge.shape_sentences import SayShape

OTHER_LEAVES = frozenset({Say.OTHER_LEAF, SayLeaf.AT, SayLeaf.COPY, SayLeaf.FOR_NUMBER, SayLeaf.UNRECORDED})
"""A leaf the statement's graph has not, told as it is found: anywhere, or at the op that takes it."""

RESULTS_ALIKE = frozenset({Say.RESULT_ALIKE, Say.RESULT_BOTH_ALIKE})
"""Entries that are all alike where the statement's differ: of one list, or the two lists of a result."""

RESULTS_MORE = frozenset({Say.RESULT_MORE, Say.RESULT_MORE_LAST})
"""More entries than the statement's result: told alone, or with the last one too many."""

RESULTS_FEWER = frozenset({Say.RESULT_FEWER, Say.RESULT_EMPTY})
"""Fewer entries than the statement's result: some, or none at all."""

OTHER_ERRORS = frozenset({Say.OTHER_ERROR, Say.OTHER_ERROR_AFTER})
"""Another error than the statement's: told alone, or with where its message parts from it."""

IN_PLACE_CHANGES = frozenset({SayInPlace.IN_PLACE, SayInPlace.IN_PLACE_DETACHED})
"""A Value changed in place: directly, or through a detach() of it (which shares its version counter)."""

NOT_FLOATS = frozenset({Say.NOT_A_FLOAT, Say.NOT_A_FLOAT_STAR, Say.NOT_A_FLOAT_IMPORTED, Say.NOT_A_FLOAT_INT_SEED})
"""A number returned that is not a float: told alone, or with what in the code made it so (an import, an int seed)."""

GRAD_ROWS = frozenset({SayClear.ROWS_RECORDED_CLEARED, SayClear.ROWS_KEPT_GRAD, SayClear.ROWS_ZEROED_ELSEWHERE})
"""Rows of a .grad recorded all zeros: read after the zeroing, or kept as Values the zeroing changed
in place."""


def with_nan(table: dict[Sentence, set[Sentence]]) -> dict[Sentence, frozenset[Sentence]]:
    """``table`` where a nan is told as what it is wherever another number is told as a different
    one: what accounts for the one accounts for the other."""
    return {say: frozenset(told | {SayShape.NAN} if Say.RESULT_NUMBER in told else told)
            for say, told in table.items()}
