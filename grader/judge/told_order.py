"""Where each sentence comes among a test's, and which bare ones a judged sentence says better.

A test's sentences come causes first (``order``): what the call did explains the numbers it
returned.  A sentence that says only *that* something differs comes after those that say how
(``bare_last``), and is left out where a sentence the probe judged says it better (``judged``).
"""

from __future__ import annotations

import re
from typing import Any

from grader.judge.sentences import Say, Sentence
from grader.judge.shape_sentences import SayShape
from grader.judge.torch_sentences import SayTorch
from grader.spec.facts import FACT, Check, Kind

# The student's own error first (an exception their code caught and returned), then causes
# before consequences: what the call did (no backward, no_grad) explains a missing gradient,
# which explains a graph that is not the statement's; what the probe judged of how a result came
# about (a CHECK: flags swapped, records read late) explains the Values and numbers it shows.
_ORDER = {Kind.ERROR.value: 0, Kind.CALL.value: 0, Kind.CHECK.value: 1, Kind.VALUE.value: 2,
          Kind.IDENTITY.value: 2, Kind.RESULT.value: 3, Kind.GRAD.value: 3, Kind.GRAPH.value: 4}
# State kept between calls is a cause too: it explains every number of a later call that differs.
_STATE_CHECKS = {Check.SAME_AGAIN.value, Check.FIRST_KEPT.value, Check.SAME_FRESH.value, Check.READ_ANEW.value,
                 Check.EARLIER_KEPT.value, Check.SAME_SECOND_TIME.value,
                 Check.SAME_FRESH_EFFECT.value, Check.OWN_NOTES.value, Check.LEAVES_NEW.value, Check.ANSWER_ANEW.value,
                 Check.HANDED_NEW.value}


def order(want: dict[str, Any]) -> int:
    """Where a fact's sentences come among a test's (``_ORDER``; state kept between calls
    first, and before it a given function the student edited, which the call ran)."""
    if want[FACT] == Kind.CHECK.value and want.get("check") in (Check.GIVEN_KEPT.value, Check.OUTPUT_APART.value, Check.INPUT_KEPT.value,
                                                                         Check.INPUT_NUMBER_KEPT.value, Check.SAVED_READ.value):
        return -1  # a given function edited, a Function's input returned: what explains the rest
    if want[FACT] == Kind.CHECK.value and want.get("check") in _STATE_CHECKS:
        return 0
    return _ORDER.get(want[FACT], 5)



# Sentences that say only *that* something differs (its number, its kind, None, a flag, entries all alike,
# a .grad as backward left it): each comes after every sentence that says how (``bare_last``),
# and is left out where a sentence the probe judged on the same result, or on another entry of
# its list, says how that result came about (``judged``).
_BARE = {Say.RESULT_NUMBER, SayShape.NAN, SayTorch.TORCH_NUMBER, Say.DATA, Say.GRAD_NUMBER, Say.GRAD_HAND_NUMBER,
         Say.RESULT_TYPE, Say.RESULT_ALIKE, Say.RESULT_BOTH_ALIKE, SayTorch.TORCH_ALIKE, Say.RESULT_NONE, Say.RESULT_NOT_NONE, Say.NO_ENTRY, Say.EXTRA_ENTRY, Say.RESULT_FLAG,
         Say.REQUIRES_GRAD, Say.GRAD_NOT_CHANGED, Say.GRAD_WRITTEN}


def bare_last(order_of: int, say: Sentence) -> tuple[bool, int]:
    """A sentence's place among a test's: the bare ones after the rest, each by ``order``; a
    leaf's flag (only a leaf's can differ where the ops agree) first, as what decides the graph."""
    return say in _BARE and say is not Say.REQUIRES_GRAD, order_of


def judged(say: Sentence, label: str, judged_labels: set[str]) -> bool:
    """Whether the bare sentence ``say`` about ``label`` is said better by a judged one: about
    the same label, about another entry of the same list (``losses[0]`` for ``losses[1]``), or
    about an entry of it (``f(x)[0]`` read late, for the entries of ``f(x)`` all alike).  One
    about an entry of a judged call (``f(x)[u]`` beside ``f(x)``) still names which entry
    differs, after the judged one."""
    return say in _BARE and any(label == j or list_of(label) == list_of(j) != "" or j.startswith(label + "[")
                                for j in judged_labels)


_ENTRY = re.compile(r"(?P<list>.+)\[\d+\]")


def list_of(label: str) -> str:
    """The list a label is an entry of (``losses`` for ``losses[1]``), or "" for no entry."""
    entry = _ENTRY.fullmatch(label)
    return "" if entry is None else entry.group("list")
