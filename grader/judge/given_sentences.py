"""The sentences about a function given with the exercise that the student edited, where the
edit is not one ``grader.judge.sentences`` words by the graph or the result it changed: a
``build_graph`` that calls retain_grad() on a node (the documents' spelling), which builds the
given graph and is told only beside a difference of the test (``grader.judge.context_causes``); an
``x_grads`` that returns floats it computed from the .grad it reads (rounded), equal to the given
one's numbers on the test's inputs, where the given one returns the engine's own floats.

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
    REMADE = N_("{label} was edited: called by your code in this test, it returned floats it computed from the "
                "numbers the .grad it reads hold (equal to them here), where the {label} given with the exercise "
                "returns the very floats .item() hands out: the numbers your code returned from it were not read "
                "from the engine.")
