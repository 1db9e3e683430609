"""The sentences about which graph a later backward pass of a call ran on: a new graph where the
statement runs the first one again, or a node inside the first graph, not its root.

The watched call (``grader.spec.call``) notes each pass's root nodes and the nodes the first pass
ran through, so where a later pass started is observed, not guessed.  The sentences follow the
rules of ``grader.judge.sentences``: placeholders carry only what the student's run shows.
"""

from __future__ import annotations

from micrograph.i18n import N_

from grader.judge.sentences import Sentence


class SayPass(Sentence):
    """Where a later backward pass of a call started, otherwise than the statement's."""

    OTHER_PASS_ROOT = N_("{label} ran a backward pass from another root than its first pass's: it ran on a new "
                         "graph, not again on the one the first backward used.")
    INSIDE_FIRST_GRAPH = N_("{label} ran a later backward pass from a node inside the graph its first pass ran "
                            "through, not from the root that pass started from: a backward from that node runs only "
                            "the part of the graph below it.")
