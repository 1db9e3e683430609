"""How an ERROR fact's difference is told (``grader.judge.fact_differences.BY_KIND``): the error a
call raised, caught or returned, against the statement's.  Kept apart because an error has many
reasons to be missing (a change in place made too early, too late, or with grad mode off), each
told by a sentence of its own; fields come from the student's side, never the statement's.
"""

from __future__ import annotations

from typing import Any

from grader.judge.explained import Difference
from grader.judge.explained import difference as _diff
from grader.judge.inplace_sentences import SayInPlace
from grader.judge.results import from_difference, parted_after
from grader.judge.sentences import Say
from grader.judge.state_sentences import SayState
from grader.spec.facts import CONTEXT


def error_differences(want: dict[str, Any], got: dict[str, Any], label: str) -> list[Difference]:
    """How the error a call raised or returned differs from the statement's: none where it has one
    (told by why nothing was refused), one where it has none, another one, or the same one raised by
    another than the engine."""
    we, ge = want.get("error"), got.get("error")
    if type(ge) is str and ge.startswith("not an exception: "):  # the statement's: an error caught, or None
        return [_diff(Say.NOT_AN_ERROR if we is not None else Say.NONE_NOR_ERROR, label=label,
                      type=ge.removeprefix("not an exception: "))]
    if type(ge) is str and ge.startswith("an exception class: "):
        return [_diff(Say.ERROR_CLASS, label=label, type=ge.removeprefix("an exception class: "))]
    # none caught: a change in place made before the graph saved it, or after backward?
    if we is not None and ge is None:
        why = next((say for key, say in _NOTHING_TO_REFUSE if got.get(CONTEXT + key) is True), Say.NO_ERROR)
        helper = got.get(CONTEXT + "leaf_in_decorated")  # grad mode off by a function of the student's, decorated
        if why is SayInPlace.LEAF_UNDER_NO_GRAD and type(helper) is str and helper.isidentifier():
            return [_diff(SayInPlace.LEAF_IN_DECORATED, label=label, function=helper)]
        dropped = got.get(CONTEXT + "caught")
        if why is Say.NO_ERROR and type(dropped) is str:
            return [_diff(Say.CAUGHT_NOT_RETURNED, label=label, function=dropped)]
        return [_diff(why, label=label)]
    if we is None and ge is not None and got.get("raised_by") == "earlier":  # one kept from an earlier call
        return [_diff(SayState.KEPT_ERROR, label=label)]
    if ge is not None and we != ge and got.get(CONTEXT + "on_detached") is True:  # refused: a Value of no graph
        return [_diff(SayInPlace.ERROR_ON_DETACHED, label=label, error=from_difference(we, ge))]
    if we is None and ge is not None:  # one this call's passes raised
        return [_diff(Say.AN_ERROR, label=label, error=ge)]
    if we != ge:
        place = parted_after(we, ge)
        if place is not None:
            return [_diff(Say.OTHER_ERROR_AFTER, label=label, error=from_difference(we, ge), text=place)]
        return [_diff(Say.OTHER_ERROR, label=label, error=from_difference(we, ge))]
    if want.get("raised_by") == "engine" and got.get("raised_by") == "earlier":
        return [_diff(Say.RAISED_EARLIER, label=label)]
    if want.get("raised_by") == "engine" and got.get("raised_by") != "engine":
        return [_diff(Say.NOT_RAISED, label=label)]
    return []


_NOTHING_TO_REFUSE = (("changed_first", SayInPlace.CHANGED_BEFORE_SAVED),
                      ("backward_first", SayInPlace.BACKWARD_FIRST), ("leaf_unchanged", SayInPlace.NEVER_CHANGED),
                      ("leaf_under_set_grad", SayInPlace.LEAF_UNDER_SET_GRAD),
                      ("leaf_under_inference", SayInPlace.LEAF_UNDER_INFERENCE),
                      ("leaf_under_no_grad", SayInPlace.LEAF_UNDER_NO_GRAD),
                      ("leaf_not_yet_requiring", SayInPlace.LEAF_NOT_YET_REQUIRING),
                      ("leaf_through_detached", SayInPlace.LEAF_THROUGH_DETACHED))
"""Why no error was raised where the statement's call has one refused: the change came before the
node saved it, or after the pass had run, or the leaf the statement changes in place was never
changed in place, or was changed with grad mode off, while it did not yet require grad, or through a
detach() of it (context of the ERROR fact)."""
