"""The sentences about the shape of what a call returned where the statement's docstring names
it: a dict whose keys are not the ones asked for (``"dw"`` for ``"w"``; one key where two leaves
of one number were named by their numbers; the retained nodes alone, where all five are asked),
and a float that is no number at all (nan, from 0/0 or inf - inf), where the statement's is one.

The keys shown are the student's own and the statement's words (its docstring names them),
never a value computed; the sentences follow the rules of ``grader.judge.sentences``.
"""

from __future__ import annotations

from micrograph.i18n import N_

from grader.judge.sentences import Sentence


class SayShape(Sentence):
    """What a returned dict holds where the statement names its keys."""

    KEYS = N_("{label} is a dict whose keys are {text}, where the statement's are {name}.")
    EMPTY = N_("{label} is an empty dict, where the statement's has the keys {name}.")
    NAN = N_("{label} is nan (not a number), where the statement's is a number.")
