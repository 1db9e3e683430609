"""A Jupyter notebook handed in as an exercise: its code cells joined into one Python file.

A ``.ipynb`` is untrusted JSON, read as data only (``json``, never ``nbformat`` and never
executed here): its size is capped, every field the conversion reads must have the type the
notebook format (version 4) gives it, and anything else is one clear sentence.

Why line by line: the graded file must keep one line per notebook line, so that an error at
line N of the joined file can be named back as "cell C, line L" (``Converted.where``).  IPython
syntax that is not Python (``%magic``, ``!shell``, ``%%cell`` magics) and calls of
``grader.check`` (which would grade the notebook again inside the sandbox) become ``pass`` at the
same indentation, and each kind dropped is said in the feedback; so do IPython's help lines
(``x?``, ``x??``, ``?x``), which run in Jupyter and are no Python.  ``display``, a name every
Jupyter, VS Code and Colab kernel defines, is defined in the graded file too (it prints the repr
of each object it is given) where a cell calls it: a cell that ran in the notebook runs when
graded, and an import of it from IPython, which is not installed where the file is graded, is
dropped.  ``from __future__`` imports
(allowed at the top of any cell) move to one first line of their own.  Cells are counted from the top
of the notebook, Markdown cells included, as a student counts them when scrolling, and named
with the execution count Jupyter and Colab show beside a cell that ran (``cell 3 (In [7])``);
the cells of a kernel's history (``grader.check``) by that count alone (``In [7]``).
"""

from __future__ import annotations

import bisect
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from grader.i18n import _
from grader.spec.limits import size

MAX_NOTEBOOK_BYTES = 16 << 20  # outputs (plots) make notebooks larger than a source file
MAX_CELLS = 2_000
SUFFIX = ".ipynb"
HISTORY = "input history"  # the notebook metadata's "micrograph" key in a kernel's history

# Cell magics whose body is still Python run once (the magic only times or captures it).
_PYTHON_CELL_MAGICS = {"time", "timeit", "capture", "prun"}
_MAGIC = re.compile(r"^(\s*)(%|!)")
_HELP = re.compile(r"^(\s*)(?:\?{1,2}[\w.*]+|[\w.*]+\?{1,2})\s*$")  # IPython's help: x?, x??, ?x
_DISPLAY_IMPORT = re.compile(r"^(\s*)from IPython(?:\.core)?(?:\.display)? import display\s*(?:#.*)?$")
_DISPLAY_CALL = re.compile(r"\bdisplay\s*\(")
_DISPLAY_OWN = re.compile(r"^\s*(?:def\s+display\b|display\s*=[^=])")  # the student's own display: theirs is called
DISPLAY = 'def display(*objects, **options): print(*map(repr, objects), sep="\\n")'
"""The graded file's first line (after its ``__future__`` imports) where a cell calls display:
Jupyter's own display shows each object it is given, its repr where the object has no richer
form (a Value, a dict of them), which this prints to the output the grade shows."""
_FUTURE = re.compile(r"^from __future__ import [\w, ()]+\s*(?:#.*)?$")
_CHECK = re.compile(r"^(\s*)(?:(?:\w+\s*=\s*)?grader\.check\(.*\)|import grader"
                    r"|from grader import check)"
                    r"\s*(?:#.*)?$")


class NotebookError(Exception):
    """The notebook cannot be read as one; the message is one sentence for the feedback."""


@dataclass
class Converted:
    """The joined source, where each code cell starts in it, how the student finds that cell,
    and what was dropped."""

    source: str
    starts: list[int] = field(default_factory=list)  # first line (1-based) of each code cell
    cells: list[str] = field(default_factory=list)  # that cell's label (``_label``)
    dropped: list[str] = field(default_factory=list)  # kinds of lines dropped, for the notes
    history: bool = False  # the cells are a kernel's input history (``grader.check``)
    displayed: bool = False  # a cell calls display: the graded file defines it (``DISPLAY``)
    named: bool = False  # ``where`` named a cell: the notes say how cells are counted

    def where(self, line: int) -> str:
        """Line ``line`` of the joined source as the student sees it: ``cell 3 (In [7]),
        line 2``."""
        index = bisect.bisect_right(self.starts, line) - 1
        if index < 0:
            return _("line {line}", line=line)
        self.named = True
        return _("{cell}, line {line}", cell=self.cells[index], line=line - self.starts[index] + 1)

    def notes(self) -> list[str]:
        """What the feedback says about the lines that were not graded, and, when it named a
        cell, how the cells are counted."""
        notes = []
        if self.dropped:
            notes.append(_("not graded (not Python, or grading itself): {kinds}",
                           kinds=_(", ").join(self.dropped)))
        if self.displayed:
            notes.append(_("display() is Jupyter's own: when graded, it prints the repr of each object it is given"))
        if self.named and self.history:
            notes.append(_("In [N] is the number Jupyter and Colab showed left of the cell when it "
                           "ran; lines count from 1 in each cell"))
        elif self.named:
            notes.append(_("cells are counted from the top of the notebook, Markdown cells "
                           "included; In [N] is the number Jupyter and Colab show left of a cell "
                           "that ran; lines count from 1 in each cell"))
        return notes


def _label(number: int, cell: dict[str, object], history: bool) -> str:
    """How the student finds a code cell: its place from the top (``cell 3``) with the
    execution count Jupyter and Colab show beside it once it ran (``In [7]``); a kernel's
    history has only the execution count."""
    count = cell.get("execution_count")
    ran = isinstance(count, int) and not isinstance(count, bool) and 0 < count < 10**9
    if history:
        return f"In [{count if ran else number}]"
    if ran:
        return _("cell {cell} (In [{count}])", cell=number, count=count)
    return _("cell {cell}", cell=number)


def _text(value: object, what: str) -> str:
    """A cell's ``source``: a string or a list of strings (the format allows both)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(part, str) for part in value):
        return "".join(value)
    raise NotebookError(_("{what} is not text: not a valid notebook", what=what))


def _cells(data: bytes, shown: str) -> tuple[list[dict[str, object]], bool]:
    """The notebook's cells, and whether they are a kernel's input history (``HISTORY``)."""
    if len(data) > MAX_NOTEBOOK_BYTES:
        raise NotebookError(_("{file} is larger than {size}: clear the outputs (Kernel > Restart & Clear "
                              "Output) and hand it in again", file=shown, size=size(MAX_NOTEBOOK_BYTES)))
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise NotebookError(_("{file} is not a notebook (not JSON text): save it from Jupyter again",
                              file=shown)) from None
    if not isinstance(document, dict):
        raise NotebookError(_("{file} is not a notebook (no cells)", file=shown))
    if "worksheets" in document and "cells" not in document:
        raise NotebookError(_("{file} is an old notebook (format 3): open and save it in a current Jupyter",
                              file=shown))
    cells = document.get("cells")
    if not isinstance(cells, list) or not all(isinstance(c, dict) for c in cells):
        raise NotebookError(_("{file} is not a notebook (no list of cells)", file=shown))
    if len(cells) > MAX_CELLS:
        raise NotebookError(_("{file} holds {count} cells (more than {limit}): refused",
                              file=shown, count=len(cells), limit=MAX_CELLS))
    metadata = document.get("metadata")
    return cells, isinstance(metadata, dict) and metadata.get("micrograph") == HISTORY


def _clean(lines: list[str], dropped: set[str]) -> list[str]:
    """The cell's lines with IPython-only lines turned into ``pass`` (same indentation)."""
    if lines and lines[0].lstrip().startswith("%%"):
        magic = lines[0].lstrip()[2:].split(maxsplit=1)
        name = magic[0] if magic else ""
        dropped.add(_("%%{name} cells", name=name) if name not in _PYTHON_CELL_MAGICS
                    else _("%%{name} lines", name=name))
        if name not in _PYTHON_CELL_MAGICS:
            return ["pass" for _ in lines]
        lines = ["pass"] + lines[1:]
    cleaned = []
    for line in lines:
        magic, check, asked = _MAGIC.match(line), _CHECK.match(line), _HELP.match(line)
        if magic:
            dropped.add(_("magics (%)") if magic.group(2) == "%" else _("shell lines (!)"))
        elif check:
            dropped.add("grader.check")
        elif asked:
            dropped.add(_("help lines (?)"))
        elif _DISPLAY_IMPORT.match(line):
            dropped.add(_("display's import from IPython"))
        match = magic or check or asked or _DISPLAY_IMPORT.match(line)
        cleaned.append(match.group(1) + "pass" if match else line)
    return cleaned


def convert(data: bytes, shown: str) -> Converted:
    """The notebook's code cells, in order, as one Python source (raises NotebookError)."""
    cells, history = _cells(data, shown)
    converted = Converted("", history=history)
    dropped: set[str] = set()
    out: list[str] = []
    futures: list[str] = []
    for number, cell in enumerate(cells, start=1):
        if cell.get("cell_type") != "code":
            continue
        lines = _clean(_text(cell.get("source", ""), _("cell {cell} of {file}", cell=number, file=shown)).splitlines(),
                       dropped)
        futures += [line for line in lines if _FUTURE.match(line)]
        converted.starts.append(len(out) + 1)
        converted.cells.append(_label(number, cell, converted.history))
        out += [("pass" if _FUTURE.match(line) else line) for line in lines] or ["pass"]
    converted.displayed = (any(_DISPLAY_CALL.search(line) for line in out)
                           and not any(_DISPLAY_OWN.match(line) for line in out))
    if converted.displayed:
        out.insert(0, DISPLAY)
    if futures:  # each cell may start with one; the joined file only on its first line
        out.insert(0, "; ".join(dict.fromkeys(f.split("#")[0].strip() for f in futures)))
    converted.starts = [start + bool(futures) + converted.displayed for start in converted.starts]
    converted.source = "\n".join(out) + "\n"
    converted.dropped = sorted(dropped)
    return converted


def convert_file(path: Path, shown: str) -> Converted:
    """``convert`` on a file, reading at most one byte past the cap."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_NOTEBOOK_BYTES + 1)
    except OSError as exc:
        raise NotebookError(_("cannot read {file}: {why}", file=shown, why=exc.strerror or exc)) from None
    return convert(data, shown)


def is_notebook(path: Path) -> bool:
    return path.suffix.lower() == SUFFIX
