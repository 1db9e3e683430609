"""Columns on a terminal: a CJK character takes two, so widths count columns, not characters.

``str.ljust`` and ``textwrap`` count characters: a Chinese feedback line would push the table's
columns out of line and run past the terminal's edge.  Here a character is as wide as the
terminal draws it (``unicodedata.east_asian_width``: W and F are two columns, combining marks
none), and lines break between words, or between any two CJK characters, never before a
closing punctuation mark such as ，or 。.
"""

from __future__ import annotations

import unicodedata

_NO_LINE_START = set("，。、；：！？）》」』】〕…,.;:!?)]}%")
_NO_LINE_END = set("（《「『【〔([{")  # an opening bracket stays with what follows it


def char_width(ch: str) -> int:
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def width(text: str) -> int:
    """The columns ``text`` takes on a terminal."""
    return sum(char_width(ch) for ch in text)


def pad(text: str, columns: int) -> str:
    """``text`` followed by spaces up to ``columns`` columns (``str.ljust`` by columns)."""
    return text + " " * max(0, columns - width(text))


IDEOGRAPHIC_SPACE = "\u3000"  # as wide as a CJK character wherever one is drawn


def shape(text: str) -> tuple[int, int]:
    """``text``'s columns of narrow characters and its number of wide ones."""
    wide = sum(1 for ch in text if char_width(ch) == 2)
    return width(text) - 2 * wide, wide


def column_width(cells: list[str]) -> int:
    """The terminal columns a column needs to hold each of ``cells``."""
    return max(width(cell) for cell in cells)


def column_shape(cells: list[str]) -> tuple[int, int]:
    """The narrow columns and the wide characters a column needs to hold each of ``cells``."""
    shapes = [shape(cell) for cell in cells]
    return max(n for n, _ in shapes), max(w for _, w in shapes)


def pad_shape(text: str, narrow: int, wide: int) -> str:
    """``text`` padded to ``narrow`` columns of narrow characters (with spaces) and ``wide``
    wide characters (with ideographic spaces).  A terminal draws a CJK character two columns
    wide, but a browser's monospace font with a CJK fallback (a Markdown page, a notebook's
    ``!grade``) draws it narrower than two spaces: cells padded so hold the same number of
    each kind, and line up in both."""
    n, w = shape(text)
    return text + " " * max(0, narrow - n) + IDEOGRAPHIC_SPACE * max(0, wide - w)


def _tokens(text: str) -> list[str]:
    """Spaces, words of narrow characters, and single wide characters (closing marks attached)."""
    tokens: list[str] = []
    for ch in text:
        previous = tokens[-1] if tokens else ""
        if ch.isspace():
            if previous.isspace():
                tokens[-1] += ch
            else:
                tokens.append(ch)
        elif previous and not previous.isspace() and (ch in _NO_LINE_START or previous[-1] in _NO_LINE_END):
            tokens[-1] += ch
        elif char_width(ch) == 2 or not previous or previous.isspace() or char_width(previous[-1]) == 2:
            tokens.append(ch)
        else:
            tokens[-1] += ch
    return tokens


def longest_word(text: str) -> int:
    """The columns of the widest piece ``wrap`` keeps whole (a word with its closing marks)."""
    return max((width(t) for t in _tokens(text) if not t.isspace()), default=0)


def _split(token: str, columns: int) -> list[str]:
    """A token wider than a line, cut into pieces of at most ``columns`` columns."""
    pieces, current = [], ""
    for ch in token:
        if current and width(current) + char_width(ch) > columns:
            pieces.append(current)
            current = ""
        current += ch
    return pieces + [current] if current else pieces


def wrap(text: str, columns: int) -> list[str]:
    """``text`` in lines of at most ``columns`` columns (``textwrap.wrap`` by columns)."""
    lines: list[str] = []
    current, spaced = "", False
    for token in _tokens(" ".join(text.split())):
        if token.isspace():
            spaced = bool(current)
            continue
        glue = " " if spaced else ""
        if width(current) + width(glue) + width(token) <= columns:
            current += glue + token
        else:
            if current:
                lines.append(current)
            *full, current = _split(token, columns) or [""]
            lines += full
        spaced = False
    return lines + [current] if current else lines
