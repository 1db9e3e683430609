"""What to say when a notebook's cells raised as the grader ran them, and the student's kernel
most likely did not: the grader runs the cells as plain Python, top to bottom, as *Run All*
does, with micrograph and the standard library only.  Each sentence says which of these the
error met, read from the error itself (``import_error`` gives the cell and line)."""

from __future__ import annotations

import re

from grader.i18n import _

INPUT_EOF = "EOF when reading a line"  # what input() raises when its standard input is empty
NO_MODULE = re.compile(r"No module named '([^'.]+)")
# IPython's own names: the output history (``_``, ``__``, ``___``, ``_7``, ``Out``), the input
# history (``In``, ``_i``, ``_i7``) and the shell (``get_ipython``)
_IPYTHON_NAME = re.compile(r"name '(_{1,3}|_\d+|Out|In|_i{1,3}|_i\d+|get_ipython)' is not defined")


def without_ipython(kind: str, message: str) -> bool:
    """Whether a notebook's cells raised for a name of IPython's that Jupyter's kernel has and
    the grader, which runs them as plain Python, has not (``grader.course.notebook``)."""
    found = NO_MODULE.match(message or "")
    return (kind == "ModuleNotFoundError" and found is not None and found.group(1) == "IPython"
            or kind == "NameError" and _IPYTHON_NAME.search(message or "") is not None)


def read_nothing(kind: str, message: str) -> bool:
    """Whether the error is ``input()``'s with nothing to read: the grader's child has no
    keyboard (its standard input is empty), and that message is ``input``'s own."""
    return kind == "EOFError" and message == INPUT_EOF


def input_hint(kind: str, message: str | None) -> str:
    """What to add to an error a test met where it is ``input()``'s with nothing to read (the
    student's function asks for a value): that nothing is typed when graded; "" for any other."""
    if not read_nothing(kind, message or ""):
        return ""
    return _(". input() reads nothing when graded: no one types, so it raises; give the value as an argument or "
             "write it into the code instead of asking for it")


def notebook_raised(display: str, kind: str, at: str, message: str) -> str:
    """The cells raised ``kind`` at ``at`` (`` (cell 2 (In [1]), line 3)``): for an IPython name,
    that the grader runs them without IPython; for a module that is not there, that only
    micrograph and the standard library are; else that the cells run top to bottom and the first
    that raises stops them."""
    if without_ipython(kind, message):  # Jupyter's kernel has it; the grader does not
        said = _("{file} raised {kind} when its cells ran as plain Python, without IPython, as the grader runs "
                 "them{at}: {message}", file=display, kind=kind, at=at, message=message)
        output = _IPYTHON_NAME.search(message or "")
        return said if output is None or output.group(1) == "get_ipython" else _then(said, _(
            ". {name} is IPython's history of outputs or inputs, which plain Python has not: give the value a "
            "name of its own", name=output.group(1)))
    said = _("{file} raised {kind} when its cells ran{at}: {message}", file=display, kind=kind, at=at,
             message=message)
    if read_nothing(kind, message):
        return _then(said, _(". input() reads nothing when graded: no one types, so it raises; write the value into "
                             "the cell instead of asking for it, or take that cell out of the notebook you hand in"))
    module = NO_MODULE.match(message or "") if kind == "ModuleNotFoundError" else None
    if module is not None and module.group(1) == "google":  # Colab's google.colab: drive.mount, files.upload
        return _then(said, _(". google.colab exists only in Colab, and the cells are graded with micrograph and the "
                             "standard library only: take the Colab-only lines (from google.colab import drive, "
                             "drive.mount) out of the notebook you hand in"))
    if module is not None:
        return _then(said, _(". The cells are graded with micrograph and the standard library only: {module} is "
                             "not there, so the code that imports it cannot stay in the notebook you hand in",
                             module=module.group(1)))
    return _then(said, _(". The grader runs the cells from the top, as Run All does, and the first cell that "
                         "raises stops them all"))


def _then(said: str, more: str) -> str:
    """``said`` and the sentence after it, without a second full stop where the error's own
    message ended with one (torch's do)."""
    return (said[:-1] if said.endswith(".") else said) + more
