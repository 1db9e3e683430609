"""The sentences about how a custom Function's backward ran and what it handed back (ex14): a
backward the decorator ``@once_differentiable`` ran with grad mode off, and a backward that
returned None for an input that requires grad, so that the engine wrote no gradient there.

What the student wrote (a decorator, a None returned) is what the probe observed on the node and
the class (``grader.spec.custom``); the sentences follow the rules of ``grader.judge.sentences``.
"""

from __future__ import annotations

from micrograph.i18n import N_

from grader.judge.sentences import Sentence


class SayFunction(Sentence):
    """How a custom Function's backward ran, and what it returned for its input."""

    ONCE_DIFFERENTIABLE = N_("{label} is decorated with @once_differentiable, which runs it with grad mode off: "
                             "under create_graph=True the gradient it returned has no graph back to x or to grad to "
                             "differentiate again.")
    DIGITS_LOST_FAR = N_("backward wrote {label}, but its number differs from the statement's, though backward's "
                         "gradient agrees with sigmoid(x) near 0: it is computed another way than sigmoid(x) itself, "
                         "one that loses its digits far from 0, where sigmoid(x) is tiny (a difference quotient, "
                         "f(x + h) - f(x - h) divided by twice h, or a formula that subtracts nearly equal numbers).")
    RETURNED_NONE = N_("backward never wrote {label}: it is still None, since {function} returned None as x's "
                       "gradient, though x requires grad (its entry of ctx.needs_input_grad is True): None passes nothing back.")
    BOUNDS_UNUSED = N_("{label} gave each x the same number with another interval [low, high] as well: your Clip does "
                       "not use the low and high it is given, where the statement's clips x to them.")
