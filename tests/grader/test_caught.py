"""An engine error the student's code caught and went on from is seen by any watched call, with the
engine function that raised and the student's function that caught it, and told where the
statement's code caught none; one that went on out of the student's code is not told as caught."""

from __future__ import annotations

import types

import micrograph
from micrograph import Value

from grader.judge.caught_sentences import SayCaught
from grader.judge.differences import find
from grader.spec.provenance import watching
from grader.spec.facts import CONTEXT

CAUGHT = CONTEXT + "caught"


def _student() -> types.ModuleType:
    module = types.ModuleType("student")
    module.__file__ = __file__  # this file plays the student's
    return module


def rows() -> list[float]:
    """backward twice on one graph, the error passed over (``try: ... except RuntimeError: pass``)."""
    try:
        _second_backward_here()
    except RuntimeError:
        pass
    return [1.0]


def _second_backward_here() -> None:
    w = Value(2.0, requires_grad=True)
    y = w * w
    micrograph.backward(y)
    micrograph.backward(y)  # the graph is freed: the engine raises


def helper_caught() -> None:
    """The error caught in a helper of the student's, which the function tested calls."""
    rows()


def not_caught() -> None:
    _second_backward_here()


def test_an_engine_error_caught_and_passed_over_is_seen_and_told():
    with watching(_student(), "rows") as call:
        rows()
    assert call.fact[CAUGHT] == ["backward", "rows"]
    with watching(_student(), "helper_caught") as helped:
        helper_caught()
    assert helped.fact[CAUGHT] == ["backward", "rows"]
    with watching(_student(), "plain") as plain:
        micrograph.backward(Value(2.0, requires_grad=True) * 3)  # nothing raised: nothing caught
    assert CAUGHT not in plain.fact
    want = {k: v for k, v in call.fact.items() if k != CAUGHT}
    assert [d.say for d in find(want, call.fact)] == [SayCaught.CAUGHT]
    assert [d.say for d in find(dict(want, label="helper_caught"), helped.fact)] == [SayCaught.CAUGHT_IN]
    assert find(call.fact, call.fact) == []  # the statement's code caught one too: nothing to tell


def test_an_engine_error_that_leaves_the_students_code_is_not_told_as_caught():
    try:
        with watching(_student(), "not_caught") as call:
            not_caught()
    except RuntimeError:
        pass
    assert call.engine_raised and CAUGHT not in call.fact
