"""Grad mode on again after each call a probe makes of the student's code, whatever the call left.

A function that switches grad mode off and never back (``set_grad_enabled(False)`` called as a
function, a ``__enter__`` with no ``__exit__``) leaves every graph its caller builds next unrecorded:
a probe that goes on to build one, or to call the student's next function on it, meets an error
that is the probe's, not the one the student made.  ``restored`` puts grad mode back on as the call
returns or raises, and notes the call in ``LEFT_OFF``; a watched call (``provenance.watching``)
counts what its block noted there, so the test that watched it says the mode was left off, and no
later step of the probe runs under it.  Inference mode is left as it is: no exercise's function
turns it on without a block of its own.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import micrograph

LEFT_OFF: list[str] = []
"""The label of each call of the student's code, made through ``restored``, that returned (or
raised) with grad mode off, in order: a watched block compares its length before and after."""

Result = TypeVar("Result")


@contextlib.contextmanager
def restored(label: str) -> Iterator[None]:
    """The student's call ``label`` made in the block, grad mode on again after it where it was
    left off (noted in ``LEFT_OFF``); a mode the call found off and left off is noted too: the
    probe calls with the mode on, unless it turned it off itself, which ``restored`` is not for."""
    try:
        yield
    finally:
        if not micrograph.is_grad_enabled():
            LEFT_OFF.append(label)
            micrograph.set_grad_enabled(True)


def called(label: str, function: Callable[..., Result], *args: Any, **kwargs: Any) -> Result:
    """``function(*args, **kwargs)``, a call of the student's code named ``label``, under ``restored``."""
    with restored(label):
        return function(*args, **kwargs)


def noted_since(count: int) -> bool:
    """Whether a call noted a mode left off since ``LEFT_OFF`` held ``count`` labels."""
    return len(LEFT_OFF) > count
