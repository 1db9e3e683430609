"""A Jupyter notebook handed in as an exercise: its code cells joined into one Python file.

A ``.ipynb`` is untrusted JSON, read as data only (``json``, never ``nbformat`` and never
executed here): its size is capped, every field the conversion reads must have the type the
notebook format (version 4) gives it, and anything else is one clear sentence.

Why line by line: the graded file must keep one line per notebook line, so that an error at
line N of the joined file can be named back as "cell C, line L" (``Converted.where``).  IPython
syntax that is not Python (``%magic``, ``!shell``, ``%%cell`` magics) becomes ``pass`` at the
same indentation, and each kind dropped is said in the feedback; so do IPython's help lines
(``x?``, ``x??``, ``?x``), which run in Jupyter and are no Python.  A timing magic keeps its
statement, a ``%%timeit`` cell its setup line, and a name assigned a magic or a shell line is
still bound, and a call of ``get_ipython()`` that spells a magic or a shell line
(``get_ipython().run_line_magic('timeit', 'f()')``) is that line (``notebook_lines``).  IPython
is not installed where the file is graded, yet a cell that ran in the notebook should run when
graded: ``display``, a name every Jupyter, VS Code and
Colab kernel defines, is defined in the graded file where a cell calls it (it prints the repr of
each object it is given), and so are the common names of ``IPython.display`` a cell imports
(``STAND_INS``: ``Markdown`` and its kin hold their text, ``clear_output`` does nothing), taken
out of their import (``notebook_imports``).  Any other IPython name (``get_ipython()``,
``Audio``) is left to fail, and the notes say which name it is and that the cells run without
IPython.  The course's ``grader.check`` stands in too (``GRADER_STAND_INS``): it does nothing.
``from __future__`` imports (allowed at the top of any cell) move to one first line of their own.
Cells are counted from the top of the notebook, Markdown cells included, as a student counts
them when scrolling, and named with the execution count Jupyter and Colab show beside a cell that
ran (``cell 3 (In [7])``); the cells of a kernel's history (``grader.check``) by that count alone
(``In [7]``).
"""

from __future__ import annotations

import ast
import bisect
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from grader.course.notebook_imports import (GRADER_STAND_INS, MODULE, PACKAGE, STAND_INS, grader_kind,
                                            ipython_kind, not_there, split)
from grader.course.notebook_cell_magics import CAPTURED, CAPTURED_STAND_IN, cell_magic, run_path
from grader.course.notebook_lines import (TIMEIT_ONCE, TIMEIT_STAND_IN, assigned_magic, by_logical_line,
                                          cell_magic_spelled, ipython_spelled, run_lines, timed_statement)
from grader.i18n import _
from grader.spec.limits import size

MAX_NOTEBOOK_BYTES = 16 << 20  # outputs (plots) make notebooks larger than a source file
MAX_CELLS = 2_000
SUFFIX = ".ipynb"
HISTORY = "input history"  # the notebook metadata's "micrograph" key in a kernel's history

_MAGIC = re.compile(r"^(\s*)(%|!)")
_HELP = re.compile(r"^(\s*)(?:\?{1,2}[\w.*]+|[\w.*]+\?{1,2})\s*$")  # IPython's help: x?, x??, ?x
_GET_IPYTHON = re.compile(r"\bget_ipython\s*\(")
_DISPLAY_CALL = re.compile(r"(?<![\w.])display\s*\(")  # display(...), not a module's ipd.display(...)
_DISPLAY_OWN = re.compile(r"^\s*(?:def\s+display\b|display\s*=[^=])")  # the student's own display: theirs is called
_FUTURE = re.compile(r"^from __future__ import [\w, ()]+\s*(?:#.*)?$")
_NO_MODULE = re.compile(r"ModuleNotFoundError\b.*?No module named '(\w+)'")
_UNDEFINED = re.compile(r"NameError\b.*?name '(\w+)' is not defined")
MAX_RUN_BYTES = 1 << 20  # a file run by %run, read for its names only
_TOP_DEF = re.compile(r"^(?:async\s+)?def\s+(\w+)\s*\(")  # a function of the cell's top level
_GRADER_CALL = re.compile(r"\bgrader\.(?:notebook_check\.)?check\s*\(")


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
    stood_in: dict[str, str] = field(default_factory=dict)  # the names defined (``STAND_INS``), as IPython's
    missing: list[tuple[int, str]] = field(default_factory=list)  # (line, names) of IPython's not stood in for
    named: bool = False  # ``where`` named a cell: the notes say how cells are counted
    twice: dict[str, list[int]] = field(default_factory=dict)  # a function defined in several cells: their indices
    runs: list[tuple[int, str]] = field(default_factory=list)  # (line, file) of each %run line not run
    defines: dict[str, set[str]] = field(default_factory=dict)  # what each such file beside it defines
    written: dict[str, int] = field(default_factory=dict)  # module -> line of the %%writefile cell writing it

    def _stand_in_notes(self) -> list[str]:
        """What the names of IPython's defined in the graded file do, and which ones a cell uses
        that are not there when graded (each with its line)."""
        used = set(self.stood_in.values())
        notes = [_("display() is Jupyter's own: when graded, it prints the repr of each object it is given")
                 ] if "display" in used else []
        texts = [name for name in ("Markdown", "HTML", "Latex", "Math") if name in used]
        notes += [_("{names}, from IPython.display, hold their text when graded: display() prints it",
                    names=_(", ").join(texts))] if texts else []
        notes += [_("clear_output(), from IPython.display, does nothing when graded")] if "clear_output" in used else []
        notes += [_("IPython.display, imported as {names}, holds only display, Markdown, HTML, Latex, Math and "
                    "clear_output when graded: display() prints the repr of each object it is given", names=_(", ").join(
                        bound for bound, kind in self.stood_in.items() if kind == MODULE))] if MODULE in used else []
        notes += [_("IPython.display holds only display, Markdown, HTML, Latex, Math and clear_output when graded: "
                    "display() prints the repr of each object it is given")] if PACKAGE in used else []
        notes += [_("grader.check() does nothing when graded: the cells are what is graded")
                  ] if used & set(GRADER_STAND_INS) else []
        if self.missing:
            said = _(", ").join(_("{names} ({where})", names=names, where=self.where(line)) for line, names in self.missing)
            notes.append(_("the grader runs your cells as plain Python, without IPython, standing in only for "
                           "display, Markdown, HTML, Latex, Math and clear_output; not there when graded: {names}",
                           names=said))
        return notes

    def where(self, line: int) -> str:
        """Line ``line`` of the joined source as the student sees it: ``cell 3 (In [7]),
        line 2``."""
        index = bisect.bisect_right(self.starts, line) - 1
        if index < 0:
            return _("line {line}", line=line)
        self.named = True
        if self.history:  # "In [7]" alone, where Chinese says which cell in words: 单元格 In [7] 第 2 行
            return _("{run}, line {line}", run=self.cells[index], line=line - self.starts[index] + 1)
        return _("{cell}, line {line}", cell=self.cells[index], line=line - self.starts[index] + 1)

    def _run_note(self, line: int, file: str, failure: str | None) -> str:
        """What a ``%run`` line not run leaves out: the names its file defines, the one the
        cells' NameError (``failure``) names first when that file defines it."""
        missing = _UNDEFINED.search(failure or "")
        if missing is not None and missing.group(1) in self.defines.get(file, ()):
            return _("{name}, which the NameError names, is defined in {file}, which %run {file} ({where}) ran in "
                     "Jupyter: the notebook is graded alone, without the files beside it, and that line is not run; "
                     "copy the code the cells need from {file} into a cell", name=missing.group(1), file=file,
                     where=self.where(line))
        return _("%run {file} ({where}) is not run when graded: the notebook is graded alone, without the files "
                 "beside it, so what {file} defines is not there in the cells below it; copy the code they need "
                 "from {file} into a cell", file=file, where=self.where(line))

    def notes(self, failure: str | None = None) -> list[str]:
        """What the feedback says about the lines that were not graded, and, when it named a
        cell, how the cells are counted; ``failure``: the feedback of the tests (a NameError for a
        name that a file run by ``%run`` defines is tied to that line)."""
        notes = []
        if self.dropped:
            notes.append(_("not graded (not Python, or grading itself): {kinds}",
                           kinds=_(", ").join(self.dropped)))
        notes += self._stand_in_notes()
        notes += [self._run_note(line, file, failure) for line, file in self.runs]
        imported = _NO_MODULE.search(failure or "")
        if imported is not None and imported.group(1) in self.written:
            notes.append(_("{module}.py is written by the %%writefile cell ({where}) when Jupyter runs it; graded, that "
                           "cell writes no file, so the import of {module} finds nothing: put its code in a cell "
                           "instead of writing it to a file", module=imported.group(1),
                           where=self.where(self.written[imported.group(1)])))
        for name, cells in self.twice.items():  # the kernel ran the one run last, the hand-in runs the lowest
            self.named = True
            notes.append(_("{name} is defined in {cells}: the cells are graded from the top, so the one in {cell} "
                           "is graded", name=name, cells=_(", ").join(self.cells[i] for i in cells),
                           cell=self.cells[cells[-1]]))
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
        document = json.loads(data.decode("utf-8-sig"))  # a BOM (PowerShell, Notepad) is no JSON error
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


def _not_stood_in(line: str) -> str | None:
    """The names of IPython's a line of the graded file uses that are not there when graded: an
    import from IPython left in it (``notebook_imports.split`` took out the names with a
    stand-in), or get_ipython() (with the cell magic it is called to run: ``notebook_lines.cell_magic_spelled``)."""
    names = not_there(line)
    if names:
        return _(", ").join(names)
    magic = cell_magic_spelled(line)
    if magic is not None:
        return _("get_ipython(), called to run the cell magic %%{name}", name=magic)
    return "get_ipython()" if _GET_IPYTHON.search(line) and not line.lstrip().startswith("#") else None


def _clean(lines: list[str], dropped: set[str], stood_in: dict[str, str], run: set[str]) -> list[str]:
    """The cell's lines with IPython-only lines turned into ``pass`` (same indentation), the
    names of IPython's whose import was dropped put in ``stood_in``; only a line that starts a
    logical line can be IPython's (``notebook_lines``)."""
    if lines and lines[0].lstrip().startswith("%%"):
        first = cell_magic(lines[0], dropped, stood_in, run)
        if first is None:
            return ["pass" for _ in lines]
        lines = [first] + lines[1:]
    return by_logical_line(lines, lambda logical: _rewritten(logical, dropped, stood_in))


def _rewritten(lines: list[str], dropped: set[str], stood_in: dict[str, str]) -> list[str] | None:
    """What a logical line becomes when it is IPython's (None: it is kept): a timing magic its
    statement, an assignment from a magic or shell line that assignment (``notebook_lines``), any
    other magic, shell line or help line ``pass``; an import of names with a stand-in loses them."""
    spelled = ipython_spelled(lines)
    if spelled is not None:  # get_ipython().run_line_magic('timeit', 'f()'): the %timeit line it is
        said = _rewritten([spelled], dropped, stood_in)
        return None if said is None else said + [""] * (len(lines) - 1)
    line, indent = lines[0], lines[0][:len(lines[0]) - len(lines[0].lstrip())]
    timed = timed_statement(line)
    if timed is not None:
        dropped.add(_("%{name} (its statement runs once, untimed)", name=timed[0]))
        return [timed[1]] + lines[1:]
    assigned = assigned_magic(line)
    if assigned is not None:
        dropped.update(assigned[1])
        if TIMEIT_ONCE in assigned[0]:
            stood_in[TIMEIT_ONCE] = TIMEIT_ONCE
        return [assigned[0]] + lines[1:]
    magic, asked = _MAGIC.match(line), _HELP.match(line)
    if magic or asked:
        dropped.add(_("help lines (?)") if asked else _("magics (%)") if magic.group(2) == "%" else _("shell lines (!)"))
        return [indent + "pass"] + lines[1:]
    found = split(lines, ipython_kind)
    if found is not None:
        dropped.add(_("imports from IPython"))
    found = found or split(lines, grader_kind)
    if found is None:
        return None
    stood_in.update(found.stood_in)
    return [indent + (found.kept or "pass")] + [""] * (len(lines) - 1)


def convert(data: bytes, shown: str) -> Converted:
    """The notebook's code cells, in order, as one Python source (raises NotebookError)."""
    cells, history = _cells(data, shown)
    converted = Converted("", history=history)
    dropped: set[str] = set()
    out: list[str] = []
    futures: list[str] = []
    code = [(number, cell, _text(cell.get("source", ""), _("cell {cell} of {file}", cell=number, file=shown)))
            for number, cell in enumerate(cells, start=1) if cell.get("cell_type") == "code"]
    run = {run_path(file) for _number, _cell, text in code for _offset, file in run_lines(text)}
    firsts = [text.lstrip().split("\n", 1)[0].split() for _number, _cell, text in code]
    written = {run_path(words[-1]) for words in firsts if len(words) > 1 and words[0] == "%%writefile"}
    for number, cell, text in code:
        lines = _clean(text.splitlines(), dropped, converted.stood_in, run)
        converted.runs += [(len(out) + offset + 1, file.strip("\"'")) for offset, file in run_lines(text)
                           if run_path(file) not in written and offset < len(lines) and lines[offset] == "pass"]
        futures += [line for line in lines if _FUTURE.match(line)]
        converted.starts.append(len(out) + 1)
        converted.cells.append(_label(number, cell, converted.history))
        out += [("pass" if _FUTURE.match(line) else line) for line in lines] or ["pass"]
        for name in dict.fromkeys(found.group(1) for found in map(_TOP_DEF.match, lines) if found):
            converted.twice.setdefault(name, []).append(len(converted.cells) - 1)
    converted.twice = {name: cells for name, cells in converted.twice.items() if len(cells) > 1 and not history}
    if (any(_DISPLAY_CALL.search(line) for line in out) and not any(_DISPLAY_OWN.match(line) for line in out)
            and "display" not in converted.stood_in):
        converted.stood_in["display"] = "display"
    if any(_GRADER_CALL.search(line) for line in out):
        converted.stood_in.setdefault("grader", "grader")
    stand_ins = STAND_INS | GRADER_STAND_INS | {TIMEIT_ONCE: TIMEIT_STAND_IN, CAPTURED: CAPTURED_STAND_IN}
    prelude = [stand_ins[name].format(name=bound) for bound, name in converted.stood_in.items()]
    if futures:  # each cell may start with one; the joined file only on its first line
        prelude.insert(0, "; ".join(dict.fromkeys(f.split("#")[0].strip() for f in futures)))
    converted.missing = [(number + len(prelude), names) for number, names in
                         ((number, _not_stood_in(line)) for number, line in enumerate(out, start=1)) if names]
    out[:0] = prelude
    converted.starts = [start + len(prelude) for start in converted.starts]
    converted.runs = [(line + len(prelude), file) for line, file in converted.runs]
    converted.written = {Path(words[-1].strip("\"'")).stem: converted.starts[index] for index, words in enumerate(firsts)
                         if len(words) > 1 and words[0] == "%%writefile" and words[-1].strip("\"'").endswith(".py")}
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
    converted = convert(data, shown)
    converted.defines = {file: _defined(path.parent / file) for _line, file in converted.runs
                         if Path(file).name == file and file not in (".", "..")}
    return converted


def _defined(path: Path) -> set[str]:
    """The names the top level of the file at ``path`` binds (functions, classes, assignments,
    imports): what ``%run`` of it defined for the cells below, read, never run; none for a file
    that cannot be read as Python."""
    try:
        if path.stat().st_size > MAX_RUN_BYTES:
            return set()
        body = ast.parse(path.read_bytes()).body
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError, SystemError):
        return set()  # SystemError: CPython's recursion counter, shared by threads parsing at once
    names = {node.name for node in body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    names |= {alias.asname or alias.name.split(".")[0] for node in body
              if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}
    targets = [t for node in body if isinstance(node, ast.Assign) for t in node.targets]
    targets += [node.target for node in body if isinstance(node, (ast.AnnAssign, ast.AugAssign))]
    return names | {n.id for target in targets for n in ast.walk(target) if isinstance(n, ast.Name)}


def is_notebook(path: Path) -> bool:
    return path.suffix.lower() == SUFFIX
