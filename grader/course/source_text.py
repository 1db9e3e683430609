"""Whether a file handed in is source text Python can read: not too large, a notebook that
converts, bytes in the encoding its coding line declares (or UTF-8).  Apart from finding the
files (``intake``) because ``grade exNN`` asks it of the one file it is given, with the same
sentence a batch's intake says, before a child would meet it as a codec error in a SyntaxError."""

from __future__ import annotations

import codecs
import io
import re
import tokenize
from pathlib import Path

from grader.course import notebook
from grader.i18n import _
from grader.spec.limits import size

MAX_SOURCE_BYTES = 1 << 20  # one exercise file; anything larger is not a hand-written answer


def text_problem(path: Path, shown: str) -> str | None:
    """Why ``path`` is not source Python can read (too large, not UTF-8, not a notebook), or
    None: a batch's intake and ``grade exNN`` say it in the same sentence, before a child
    would meet it as a codec error inside a SyntaxError."""
    if notebook.is_notebook(path):
        try:
            notebook.convert_file(path, shown)
            return None
        except notebook.NotebookError as exc:
            return str(exc)
    try:
        if path.stat().st_size > MAX_SOURCE_BYTES:
            return _("{file} is larger than {size}: not graded", file=shown, size=size(MAX_SOURCE_BYTES))
        data = path.read_bytes()
    except OSError as exc:
        return _("cannot read {file}: {why}", file=shown, why=exc.strerror or exc)
    try:
        encoding, _lines = tokenize.detect_encoding(io.BytesIO(data).readline)
        data.decode(encoding)
        return None
    except (SyntaxError, LookupError, UnicodeDecodeError):
        pass
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _("{file} is not UTF-8 text (byte {byte} on line {line}): save it as UTF-8, the "
                 "encoding Python reads source files in", file=shown, byte=f"0x{data[exc.start]:02X}",
                 line=data.count(b"\n", 0, exc.start) + 1)
    return _coding_problem(data, shown)


_CODING = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)", re.ASCII)
"""A coding line (PEP 263), as ``tokenize`` finds it on the first or second line."""


def _declared(data: bytes) -> str | None:
    """The encoding the file's coding line names, as written there, or None."""
    for line in data.removeprefix(codecs.BOM_UTF8).splitlines()[:2]:
        match = _CODING.match(line)
        if match:
            return match.group(1).decode("ascii")
    return None


def _coding_problem(data: bytes, shown: str) -> str:
    """Why a file whose bytes are UTF-8 cannot be read as its coding line declares: Python knows
    no such encoding, or a UTF-8 byte order mark (which says UTF-8) begins the file, or the bytes
    are not text in the encoding named (a coding line copied from a template onto a file saved as
    UTF-8).  Removing the line lets Python read the file as the UTF-8 it is, in each case."""
    declared = _declared(data)
    try:
        codecs.lookup(declared or "")
    except LookupError:
        return _("{file} declares an encoding Python does not know ({encoding}): remove the coding line",
                 file=shown, encoding=declared or "?")
    if data.startswith(codecs.BOM_UTF8):
        return _("{file} starts with a UTF-8 byte order mark, which says it is UTF-8, but its coding line "
                 "declares {encoding}: remove the coding line", file=shown, encoding=declared)
    return _("{file} declares {encoding} in its coding line, but its bytes are not {encoding} text: they are "
             "UTF-8. Remove the coding line", file=shown, encoding=declared)
