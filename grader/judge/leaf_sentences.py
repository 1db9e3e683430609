"""The sentences that say where a leaf the statement's graph has not sits in the student's graph.

"A leaf the statement's does not" alone left the student to search for it; these name the op
that takes it, the Value that op made, and, where the statement's op of that name is known,
what it takes instead: the named leaf whose number the new one holds, an input that requires
no grad (a number, or a detached Value: the graph does not tell which), or nothing recorded at all.  They follow the rules of ``grader.judge.sentences``: placeholders
carry only what the student's run shows or the probe named, never a number.
"""

from __future__ import annotations

from micrograph.i18n import N_

from grader.judge.sentences import Sentence


class SayLeaf(Sentence):
    """Where a leaf the student's code made sits, the statement's graph having none there."""

    AT = N_("{label}'s graph reaches a leaf the statement's does not: the {op} that made {where} takes it.")
    COPY = N_("{label}'s graph reaches a leaf the statement's does not: the {op} that made {where} takes a "
              "second Value holding {leaf}'s number, where the statement's takes the leaf {leaf} itself.")
    FOR_NUMBER = N_("{label}'s graph reaches a leaf the statement's does not: the {op} that made {where} takes a "
                    "Value your code made requiring grad, where the statement's takes an input that requires no grad "
                    "(a number, or a Value that does not require grad), which no graph records.")
    UNRECORDED = N_("{label}'s graph reaches a leaf the statement's does not: the {op} that made {where} takes a "
                    "Value your code made requiring grad, where the statement's {where} requires no grad.")
    DETACHED_RETURNED = N_("{label} is a detach() of the {label} y was computed from, not that Value: it has no "
                           "grad_fn and requires no grad, where the statement returns the {label} y's graph holds.")
    DETACHED_LEAVES_RETURNED = N_("{label}'s entries are detach()es of the leaves {name} was computed from (new Values "
                                  "sharing their numbers), not those leaves: {name}'s graph never reaches them, where "
                                  "the statement returns the very leaves {name} is computed from.")
    # every entry of a matrix the statement's graph has as its leaves (``cases``): one sentence, not one an entry
    NO_ENTRY_REACHED = N_("{label}'s graph never reaches any entry of {of}.")
    COMPUTED_NOT_RETURNED = N_("{label} is not the Value your code computed for it: an operation of your code made a "
                               "Value with the statement's graph, and the call returned another Value in its place.")
    GIVEN_NOT_RETURNED = N_("{label} is the leaf w the call was given, returned in place of the Value your code "
                            "computed for it: an operation of your code made a Value with the statement's graph, "
                            "and that Value was not returned.")
    NONE_NOT_RETURNED = N_("{label} is None: an operation of your code made a Value with the statement's graph for "
                           "it, and the call returned None in its place (no return statement returned that Value).")
    GIVEN_NUMBER = N_("{label} is the very {type} your function was given, returned as it is: not a Value, where "
                      "the statement returns the leaf made from that number.")
    OTHER_LEAF_AT = N_("{label}'s graph differs at {where}: your {op} takes the leaf {leaf} where the "
                       "statement's takes {name}.")
    ROOT_OTHER_LEAF = N_("{label}'s graph differs at its root: your {op} there takes the leaf {leaf} where the "
                         "statement's takes {name}.")
    DETACHED_AT = N_("{label}'s graph differs at {where}: your {op} takes a detach() of the leaf {leaf} as an "
                     "input, a copy that shares {leaf}'s number but is no part of its graph.")
    ROOT_DETACHED = N_("{label}'s graph differs at its root: your {op} there takes a detach() of the leaf {leaf} as "
                       "an input, a copy that shares {leaf}'s number but is no part of its graph.")
    WRITTEN = N_("{label}'s backward pass wrote .grad into a leaf that is neither w nor x: a Value your code made "
                 "requiring grad, which the statement's graph does not have.")
    BUILD_GIVEN_MADE = N_("{label} passed build a Value your code made from the leaf with an operation ({op}), not "
                          "the leaf itself: that {op} stands in the graph of additions build makes, and the first "
                          "backward freed what it saved, so the second raised.")
    BUILD_UNCALLED = N_("{label} never called the build it was given: it ran backward on a graph your code made "
                        "itself, whose {op} saved a value; the first backward freed it, so the second raised, where "
                        "the graph build makes saves nothing.")
    BUILT_UNUSED = N_("{label} ran backward on a y that build did not return: a graph your code made itself, whose "
                      "{op} saved a value; the first backward freed it, so the second raised, where the graph build "
                      "makes saves nothing.")
    ONE_FOR_TWO = N_("{name} is the very Value {leaf} is in {label}: your code made one leaf for both, where the "
                     "statement makes a new leaf for each.")
    SHARED_COPY = N_("{label} is a new Value sharing the number of the leaf backward wrote into, not its version "
                     "counter (a copy, as copy.copy makes), not that leaf: no graph reaches {label}.")
