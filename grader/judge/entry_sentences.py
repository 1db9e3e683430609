"""The sentences about which entries of a matrix of Values a result is computed from: a loss
that sums only some rows or entries of a layer's output, or none of the output returned; an
input made from only some of the rows given.

A layer's entries are all made by one node of the engine, so the graph's own sentences can say
only that a sum takes other inputs; the probe (``grader.spec.entries_reached``) names the row or
entry that does not reach the result.  They follow the rules of ``grader.judge.sentences``:
placeholders carry only what the student's run shows or the probe named, never a number.
"""

from __future__ import annotations

from micrograph.i18n import N_

from grader.judge.sentences import Sentence


class SayEntries(Sentence):
    """Which entries of a matrix a result is computed from, where the statement's takes them all."""

    ENTRY_LEFT_OUT = N_("{label} is computed from only some entries of {of}: {name} does not reach it, where "
                        "the statement's {label} is the sum of every entry.")
    ROW_LEFT_OUT = N_("{label} is computed from only some rows of {of}: no entry of {name} reaches it, where "
                      "the statement's {label} is the sum of every entry.")
    NONE_REACHED = N_("{label} is not computed from the {of} returned with it: none of its entries reaches {label}.")
    ROWS_FEWER_OTHER = N_("{label} has fewer rows than the rows given.")
    ROWS_FEWER = N_("{name} has fewer rows than the rows it was made from: it holds the numbers of {leaf} only, and no "
                    "row for the others.")
