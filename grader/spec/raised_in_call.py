"""An error raised by one of a test's several calls of the same function, told with that call.

A test that calls ``grad_warning`` on a non-leaf, on a leaf and on a retained node, and fails on
only one of them, is told by the student's error alone ("IndexError at line 88 (in
grad_warning)"), which names the function but not which of its calls raised: the one given a
leaf, whose read of ``.grad`` recorded no warning.  ``told_in_call`` raises such an error again
as ``RaisedInCall``, whose message holds the call's label before the error's text;
``grader.judge.caused_errors`` tells it.
"""

from __future__ import annotations

from contextlib import AbstractContextManager

from grader.spec.probe import raised_again_as

_OWN_KINDS = (MemoryError, RecursionError, OSError, ImportError)
"""Errors told as what they are, never as one call's: the memory limit, a recursion too deep, and what
the sandbox refused (a file, a module), which the grader tells with where its refusal was met."""


class RaisedInCall(Exception):
    """The student's code raised a built-in error during one call the probe made.  Its message is
    ``"<length of the label> <label> <error's text>"`` (a label may hold spaces: ``grad_warning(data *
    3)``); it is raised with the error's traceback, so the grader sees the line it came from."""


def told_in_call(label: str) -> AbstractContextManager[None]:
    """While the block (one call of the student's function, ``label``) runs: a built-in error it
    raises is raised again as ``RaisedInCall`` naming the call.  The probes' own errors and the
    other errors told with their cause are not built-in, and are raised as they were."""
    def words(exc: Exception) -> str | None:
        plain = type(exc).__module__ == "builtins" and not isinstance(exc, _OWN_KINDS)
        return f"{len(label)} {label}" if plain else None
    return raised_again_as(RaisedInCall, words)
