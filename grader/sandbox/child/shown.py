"""Which warnings reach the submission's printed output, and what of them.

The engine warns at the line that did something (``stacklevel``): reading a non-leaf's ``.grad`` in the
grader's own test code, to compare it with the statement's, warns at the test's line. Printed, that warning
would stand under "the submission printed" as if the student's code had raised it, and would name a hidden
test's module and line. So the child shows only the warnings raised at lines outside the grader's code;
recording them (``warnings.catch_warnings(record=True)``, the probes' ``caught_warnings``) is unchanged,
since that replaces ``warnings.showwarning`` for its block.

A warning raised outside the grader's code may still hold the grader's frames in its text: anomaly mode left
on by the submission (``set_detect_anomaly(True)`` at import) makes a failing backward warn with the stack
of the forward call that made the node, which runs from the child's start through a test's probe to the
student's function. Those frames are taken out of the text shown, so no hidden test's module or line is
printed; the student's own frames, and the engine's, stay.
"""

from __future__ import annotations

import os
import re
import warnings
from typing import TextIO

from grader.sandbox.child.located import GRADER_DIR
from grader.sandbox.child.wire import TESTS_FILE_PREFIX

BOOT_FILE = "<string>"  # the child's own start (``python -c``): a submission may not compile code of its own
FRAME = re.compile(r'  File "([^"\n]*)", line \d+, in [^\n]*\n(?:    [^\n]*\n)?')  # traceback's format of a frame


def graders_line(filename: str) -> bool:
    """Whether a warning raised at a line of ``filename`` was raised by the grader's code: a test module
    (compiled under ``<tests ...>``) or a helper in the ``grader`` package."""
    return filename.startswith(TESTS_FILE_PREFIX) or os.path.abspath(filename).startswith(GRADER_DIR)


def without_graders_frames(text: str) -> str:
    """``text`` without the stack frames (``  File "...", line N, in f`` and the source line under it) of the
    grader's code or the child's start."""
    return FRAME.sub(lambda frame: "" if frame[1] == BOOT_FILE or graders_line(frame[1]) else frame[0], text)


def show_only_the_submissions() -> None:
    """From now on, print a warning only when raised outside the grader's code, as Python prints it, and
    without the grader's frames in its text."""
    show = warnings.showwarning

    def shown(message: Warning | str, category: type[Warning], filename: str, lineno: int,
              file: TextIO | None = None, line: str | None = None) -> None:
        if not graders_line(filename):
            text = str(message)
            kept = without_graders_frames(text)
            show(message if kept == text else kept, category, filename, lineno, file, line)

    warnings.showwarning = shown
