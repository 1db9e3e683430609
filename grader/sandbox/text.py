"""Text that came from the child, made safe to show: no terminal control, no lone surrogates,
a bounded length that says what was cut.

Everything a submission can put in front of a person (its printed output, its exception
messages and names) passes through ``clean`` when the parent receives it, so the terminal
report, ``--json``, results.json and the HTML report all get the same safe text: escape
sequences (clear screen, window title, OSC 52 clipboard writes), other C0/C1 controls and
bidirectional overrides are removed, lone surrogates (which
``json.loads`` accepts from ``\\ud800``) become U+FFFD, and text past ``limit`` characters is cut
with ``[truncated, N more characters]``.

What the submission printed is also rid of the grader's stack frames (``without_graders_frames``): a
stack printed in the child (anomaly mode's warning of the forward call that made a node, the student's
own ``traceback.print_stack()``) runs from the child's start through a test's probe, and would name a
hidden test's module, functions and lines. The student's own frames, and the engine's, stay.
``ShownLines`` counts the lines left, as they arrive, past the output's cap too: "the submission
printed N lines" counts what the student is shown, not the frames taken out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from grader.sandbox.child.shown import graders_line

# ESC-introduced sequences first (CSI, OSC up to BEL/ST, two-character escapes), then any
# single control character except tab and newline, C1 controls, bidi overrides and isolates.
_ESCAPES = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-_]?)"
                      r"|\x9b[0-?]*[ -/]*[@-~]|\x9d[^\x07\x9c]*[\x07\x9c]?")
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_SURROGATES = re.compile(r"[\ud800-\udfff]")


def clean(text: str, limit: int) -> str:
    """``text`` without terminal control and lone surrogates, cut to ``limit`` characters."""
    text = _SURROGATES.sub("\ufffd", text)
    text = _CONTROLS.sub("", _ESCAPES.sub("", text.replace("\r\n", "\n")))
    if len(text) > limit:
        text = text[:limit] + f"\n[truncated, {len(text) - limit} more characters]"
    return text


BOOT_FILE = "<string>"  # the child's own start (``python -c``): a submission may not compile code of its own
_FRAME_START = '  File "'  # how a traceback frame's first line starts
_SOURCE_INDENT = "    "  # how the source line under it starts
_FRAME_HEAD = _FRAME_START + r'([^"\n]*)", line \d+, in [^\n]*'  # a frame's first line, its file the group
_FRAME = re.compile(r"^" + _FRAME_HEAD + r"\n(?:" + _SOURCE_INDENT + r"[^\n]*\n)?", re.MULTILINE)  # and its source
_CUT_FRAME = re.compile(r"^" + _FRAME_START + r"[^\n]*\Z", re.MULTILINE)  # cut by the cap: whose, unknown
_FRAME_LINE = re.compile(_FRAME_HEAD)  # one line of ``_FRAME``
_LONGEST_FRAME_LINE = 1 << 16  # a longer line is no frame's: its text is not kept to be matched


def _graders_file(filename: str) -> bool:
    """Whether a frame of ``filename`` is the grader's: its code (a test module, the ``grader``
    package) or the child's start."""
    return filename == BOOT_FILE or graders_line(filename)


def without_graders_frames(text: str) -> str:
    """``text`` without the stack frames (``  File "...", line N, in f`` and the source line under it) of the
    grader's code (a test module, the ``grader`` package) or of the child's start, nor a frame's line cut
    off at its end."""
    kept = _FRAME.sub(lambda frame: "" if _graders_file(frame[1]) else frame[0], text)
    return _CUT_FRAME.sub("", kept)


@dataclass
class ShownLines:
    """The lines of what the child printed that ``without_graders_frames`` leaves, counted as the
    output arrives (all of it: the lines past the cap are said as "N more lines"): a line of the
    grader's frame and the source line under it are not counted, nor an unfinished last line that
    begins a frame."""

    count: int = 0
    partial: bytearray = field(default_factory=bytearray)  # the line not yet ended (its start)
    long: bool = False  # the line not yet ended is longer than any frame's
    source_next: bool = False  # the line before was a grader's frame: a source line under it goes too

    def feed(self, chunk: bytes) -> None:
        """Count the lines ``chunk`` ends."""
        *ended, rest = chunk.split(b"\n")
        for line in ended:
            self._line(self.partial + line)
            self.partial, self.long = bytearray(), False
        self.partial += rest[:max(0, _LONGEST_FRAME_LINE - len(self.partial))]
        self.long = self.long or len(self.partial) >= _LONGEST_FRAME_LINE

    def _line(self, line: bytes) -> None:
        text = "" if self.long else line.decode("utf-8", errors="replace").removesuffix("\r")
        if self.source_next and text.startswith(_SOURCE_INDENT):
            self.source_next = False
            return
        frame = _FRAME_LINE.fullmatch(text)
        self.source_next = frame is not None and _graders_file(frame[1])
        self.count += not self.source_next

    def total(self) -> int:
        """The lines counted, and the unfinished last one unless it begins a frame (cut off)."""
        unfinished = bool(self.partial) and (self.long or not self.partial.startswith(_FRAME_START.encode()))
        return self.count + unfinished


@dataclass
class Output:
    """The child's stdout and stderr as read: the first ``limit`` bytes kept, the rest counted
    (their lines too, ``ShownLines``)."""

    limit: int
    kept: bytearray = field(default_factory=bytearray)
    dropped: int = 0
    lines: ShownLines = field(default_factory=ShownLines)  # counted before the cap

    def add(self, chunk: bytes) -> None:
        self.lines.feed(chunk)
        room = max(0, self.limit - len(self.kept))
        self.kept += chunk[:room]
        self.dropped += len(chunk) - min(room, len(chunk))

    def shown(self, limit: int) -> tuple[str, int]:
        """What the child printed as the student is shown it (without the grader's stack frames,
        made safe, cut), and how many lines that is, past the cap too (``ShownLines``)."""
        text = clean(without_graders_frames(self.kept.decode("utf-8", errors="replace")), limit)
        return text + (f"\n[truncated, {self.dropped} more bytes]" if self.dropped else ""), self.lines.total()
