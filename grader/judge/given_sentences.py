"""The sentences about a function given with the exercise that the student edited, where the
edit is not one ``grader.judge.sentences`` words by the graph or the result it changed: a
``build_graph`` that calls retain_grad() on a node (the documents' spelling), which builds the
given graph and is told only beside a difference of the test (``grader.judge.causes``).

What the edit did is what ``grader.spec.given`` observed on the graph the student's copy
returned; the sentences follow the rules of ``grader.judge.sentences``.
"""

from __future__ import annotations

from micrograph.i18n import N_

from grader.judge.sentences import Sentence


class SayGiven(Sentence):
    """What an edited given function does that the given one does not."""

    RETAINED = N_("{label} was edited: called by your code in this test, it calls retain_grad() on {where}, "
                  "which the {label} given with the exercise does not: a backward pass then keeps {where}'s "
                  "gradient in {where}.grad.")
