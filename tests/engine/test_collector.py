"""``collector.paused``: the engine's short loop runs with the cyclic GC off, and leaves it as it found it."""

from __future__ import annotations

import gc

import pytest

import micrograph as mg
from micrograph import collector


def test_off_inside_and_on_again_after() -> None:
    assert gc.isenabled()
    with collector.paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_on_again_after_an_error() -> None:
    with pytest.raises(ZeroDivisionError):
        with collector.paused():
            1 / 0
    assert gc.isenabled()


def test_left_off_when_the_caller_had_turned_it_off() -> None:
    gc.disable()
    try:
        with collector.paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_backward_and_a_failed_second_one_leave_it_on() -> None:
    """Whichever loop the process state picks (the short one pauses the collector)."""
    w = mg.Value(0.5, requires_grad=True)
    y = (w * w).exp()
    y.backward()
    assert gc.isenabled() and w.grad is not None
    with pytest.raises(RuntimeError):
        y.backward()  # the saved values are freed: torch's second-backward error, from inside the loop
    assert gc.isenabled()
