"""The isolation modes the security tests run in, and skipping those this machine does not give."""

from __future__ import annotations

import os

import pytest

from grader.sandbox import isolation

# modes whose children switch to a uid of their own (as root): their promises need root
DROPPING = (isolation.UID_SECCOMP, isolation.LIMITS_ONLY)


def skip_unless(mode: str) -> None:
    """Skip the test unless children can run in ``mode`` here, with what that mode promises."""
    best = isolation.available()
    if isolation.ORDER.index(best.mode) < isolation.ORDER.index(mode):
        pytest.skip(f"this machine gives {best.mode} ({best.reason})")
    if mode in DROPPING and os.geteuid() != 0:
        pytest.skip(f"{mode} gives a uid of its own to each child only as root")
    if os.geteuid() == 0 and isolation.refusal(mode) is not None:  # e.g. this Python is private
        pytest.skip(f"{mode} fails here: {isolation.refusal(mode)}")


def one_class_per_mode(name: str, modes: tuple[str, ...]) -> list:
    """The params of a module fixture that grades a class once per mode: the tests of one
    mode's class share a pytest-xdist group ``name-mode`` (one worker grades that class, once),
    and the modes' classes spread over the workers."""
    return [pytest.param(mode, marks=pytest.mark.xdist_group(f"{name}-{mode}")) for mode in modes]
