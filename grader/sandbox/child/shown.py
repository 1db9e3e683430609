"""Which warnings reach the submission's printed output.

The engine warns at the line that did something (``stacklevel``): reading a non-leaf's ``.grad`` in the
grader's own test code, to compare it with the statement's, warns at the test's line. Printed, that warning
would stand under "the submission printed" as if the student's code had raised it, and would name a hidden
test's module and line. So the child shows only the warnings raised at lines outside the grader's code;
recording them (``warnings.catch_warnings(record=True)``, the probes' ``caught_warnings``) is unchanged,
since that replaces ``warnings.showwarning`` for its block.

A warning raised outside the grader's code may still hold the grader's frames in its text (anomaly mode left
on by the submission warns with the stack of a forward call, which runs through a test's probe): the parent
takes every such frame out of what the child printed (``grader.sandbox.text.without_graders_frames``).
"""

from __future__ import annotations

import os
import warnings
from typing import TextIO

from grader.sandbox.child.located import GRADER_DIR
from grader.sandbox.child.wire import TESTS_FILE_PREFIX


def graders_line(filename: str) -> bool:
    """Whether a warning raised at a line of ``filename`` was raised by the grader's code: a test module
    (compiled under ``<tests ...>``) or a helper in the ``grader`` package."""
    return filename.startswith(TESTS_FILE_PREFIX) or os.path.abspath(filename).startswith(GRADER_DIR)


def show_only_the_submissions() -> None:
    """From now on, print a warning only when raised outside the grader's code, as Python prints it:
    once for each text, category and line. Python's default filter would do that by itself, but each
    probe's ``catch_warnings`` resets the registry that remembers what was shown, so a line the tests
    run twenty times would print its warning twenty times where the student's own run prints it once."""
    show = warnings.showwarning
    seen: set[tuple[str, type[Warning], str, int]] = set()

    def shown(message: Warning | str, category: type[Warning], filename: str, lineno: int,
              file: TextIO | None = None, line: str | None = None) -> None:
        where = (str(message), category, filename, lineno)
        if not graders_line(filename) and where not in seen:
            seen.add(where)
            show(message, category, filename, lineno, file, line)

    warnings.showwarning = shown
