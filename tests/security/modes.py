"""The isolation modes the security tests run in, and skipping those this machine does not give."""

from __future__ import annotations

import os

import pytest

from grader.sandbox import isolation

# modes whose children switch to a uid of their own (as root): their promises need root
DROPPING = (isolation.UID_SECCOMP, isolation.LIMITS_ONLY)


def _why_not(mode: str) -> str | None:
    """Why children cannot run in ``mode`` here, with what that mode promises; None: they can."""
    best = isolation.available()
    if isolation.ORDER.index(best.mode) < isolation.ORDER.index(mode):
        return f"this machine gives {best.mode} ({best.reason})"
    if mode in DROPPING and os.geteuid() != 0:
        return f"{mode} gives a uid of its own to each child only as root"
    if os.geteuid() == 0 and isolation.refusal(mode) is not None:  # e.g. this Python is private
        return f"{mode} fails here: {isolation.refusal(mode)}"
    return None


def skip_unless(mode: str) -> None:
    """Skip the test unless children can run in ``mode`` here, with what that mode promises."""
    why = _why_not(mode)
    if why is not None:
        pytest.skip(why)


def strongest_here(mode: str) -> bool:
    """Whether ``mode`` is the strongest mode children run in here.  The modes differ in their
    kernel layers only: an attack on Python's objects alone (not on the process's pipes,
    memory or files) meets the same code in every mode, the sentinel included, and an entry
    the grader refuses or names before any child runs meets no mode.  Those are graded in this
    mode; the other modes' classes hold what a kernel layer could change."""
    return next((m for m in reversed(isolation.ORDER) if _why_not(m) is None), None) == mode


PYTHON_ALONE = "acts on Python's objects alone"
BEFORE_ANY_CHILD = "is settled by the grader before any child runs"


def skip_unless_strongest(mode: str, why: str = PYTHON_ALONE) -> None:
    """Skip the test of an attack that no mode's kernel layers meet (``why``) unless ``mode``
    is the strongest here (``strongest_here``: that mode's class grades it)."""
    if not strongest_here(mode):
        pytest.skip(f"{why}: graded in the strongest mode here, not {mode}")


def one_class_per_mode(name: str, modes: tuple[str, ...]) -> list:
    """The params of a module fixture that grades a class once per mode: the tests of one
    mode's class share a pytest-xdist group ``name-mode`` (one worker grades that class, once),
    and the modes' classes spread over the workers."""
    return [pytest.param(mode, marks=pytest.mark.xdist_group(f"{name}-{mode}")) for mode in modes]
