"""The sentences of ex10's dynamic graph: which branch an if took, and how a while loop's count and
last y stand against its limit.

Each is said from a CHECK fact the probe judged on the student's run (``grader.exercises.ex10``):
the branch a graph is of, the count against the doublings y's graph records, y against the
limit.  The rules of ``grader.judge.sentences`` hold: placeholders carry only what the run shows.
"""

from __future__ import annotations

from micrograph.i18n import N_

from grader.judge.sentences import Sentence


class SayLoop(Sentence):
    """How a data-dependent graph (an if, a while loop) differs from the statement's."""

    PAST_THE_LIMIT = N_("{label} counts one doubling too many: your loop went on doubling when y equalled "
                        "the limit, where the statement's stops as soon as y is no longer below it.")
    DOUBLED_AT_THE_LIMIT = N_("{label} went through a doubling of a y that was no longer below the limit: your "
                              "code went on doubling y where the statement's loop stops.")
    SHORT_OF_THE_LIMIT = N_("{label} is still below the limit: your loop stopped doubling before y reached it, where "
                            "the statement's goes on while y is below the limit.")
    COUNT_NOT_RECORDED = N_("{label} is not the number of doublings the y returned went through: your count "
                            "differs from the doublings y's graph records.")
    COUNT_BELOW_ZERO = N_("{label} is below zero for {where}: a loop runs no number of times below zero, and your "
                          "count differs from the doublings the graph of the y returned records.")
    OTHER_BRANCH = N_("{label} is the other branch's y: your if picked the branch the statement takes on the other "
                      "side of x > 0.")
    BRANCH_DROPPED = N_("{label} is the other branch's y, though your code also computed the y the statement returns "
                        "for this x (an operation recorded it): that y was not returned, the other branch's was.")
