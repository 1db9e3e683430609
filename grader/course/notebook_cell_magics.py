"""What a notebook cell that starts with a cell magic (``%%timeit``, ``%%capture out``,
``%%writefile f.py``) becomes in the graded file (``grader.course.notebook``): kept apart from the
line-by-line conversion because a cell magic decides for its whole cell (Python run once, or none of
it graded), and what a ``%%writefile`` cell writes is graded where the notebook runs that file.
"""

from __future__ import annotations

import os

from grader.course.notebook_lines import timed_statement
from grader.i18n import _

# Cell magics whose body is still Python run once (the magic only times or captures it).
_PYTHON_CELL_MAGICS = {"time", "timeit", "capture", "prun"}
CAPTURED = "_CapturedIO"
CAPTURED_STAND_IN = "class {name}: stdout = stderr = ''; outputs = []; show = __call__ = lambda self: None"
"""What ``%%capture out`` binds ``out`` to when graded: IPython's ``CapturedIO``, holding no
output (the cell's output is printed, as the grade shows it), so that a cell that reads it or
shows it (``out.stdout``, ``out.show()``) runs."""


def run_path(path: str) -> str:
    """``path`` as ``%run`` finds it: ``./ex03.py`` and ``ex03`` are ``ex03.py``."""
    path = os.path.normpath(path.strip("\"'"))
    return path if path.endswith((".py", ".ipy")) else path + ".py"


def cell_magic(line: str, dropped: set[str], stood_in: dict[str, str], run: set[str]) -> str | None:
    """What a cell magic's line becomes, the cell being Python (None: it is not, and none of it
    is graded): the setup statement a ``%%timeit`` line runs first (``%%timeit x = [1, 2]``), the
    name a ``%%capture`` line binds (``CAPTURED_STAND_IN``), else ``pass``.  The code a
    ``%%writefile`` cell writes is graded where the notebook runs that file (``%run``): it runs
    where the cell is, since the graded file cannot hold it at the ``%run`` line."""
    words = line.lstrip()[2:].split()
    name = words[0] if words else ""
    if name == "writefile" and len(words) > 1 and run_path(words[-1]) in run:
        dropped.add(_("%%writefile {file} (its code runs where the cell is: %run {file} runs it)",
                      file=words[-1].strip("\"'")))
        return "pass"
    if name not in _PYTHON_CELL_MAGICS:
        dropped.add(_("%%{name} cells", name=name))
        return None
    setup = timed_statement(line.lstrip()[1:])
    if setup is not None and setup[1] != "pass":
        dropped.add(_("%%{name} (its setup line and its cell run once, untimed)", name=name))
        return setup[1]
    output = [word for word in words[1:] if not word.startswith("-")]
    if name == "capture" and output and output[0].isidentifier():
        stood_in[CAPTURED] = CAPTURED
        dropped.add(_("%%capture {output} (the cell's output is shown, not captured: {output} holds none)",
                      output=output[0]))
        return f"{output[0]} = {CAPTURED}()"
    dropped.add(_("%%{name} lines", name=name))
    return "pass"
