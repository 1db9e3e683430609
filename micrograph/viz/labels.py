"""Label pieces shared by the diagram builders: translation, HTML-like markup, width for CJK text.

Graphviz sizes a node from its text, but graphviz-pure (the renderer a plain
``pip install`` gets) measures every non-ASCII character as a space, so a
Chinese label would overflow its box.  ``min_width`` gives such a node a minimum
width measured the way a browser draws it (a CJK character is one em wide);
labels without wide characters get no width, so English diagrams are unchanged.
"""

from __future__ import annotations

import html as _html_module
import re
import unicodedata
from pathlib import Path

from micrograph.i18n import Translator

_ = Translator("micrograph", Path(__file__).resolve().parents[1] / "locale")

WIDE_EM = 1.0  # a CJK character
NARROW_EM = 0.6  # Helvetica's widest common Latin letters, so the estimate errs on the roomy side
MARGIN_IN = 0.25  # the node's left and right margins (node_attr margin 0.1) and the border, in inches
CJK_SPACER = '<FONT POINT-SIZE="3"> </FONT><BR/>'
_TAG = re.compile(r"<[^>]*>")
_SIZE = re.compile(r'POINT-SIZE="(\d+(?:\.\d+)?)"')


def html(lines: list[str]) -> str:
    """An HTML-like DOT label: one line per item; a line of CJK text gets a little more room above it.

    Graphviz spaces lines by Latin metrics, and CJK glyphs stand taller: without
    the thin spacer line a Chinese line touches the line above it.
    """
    out = lines[:1]
    for line in lines[1:]:
        out.append(CJK_SPACER + line if any(is_wide(ch) for ch in line) else line)
    return "<" + "<BR/>".join(out) + ">"


def small(text: str, color: str) -> str:
    """A second-rank line: smaller and coloured (``text`` already escaped)."""
    return f'<FONT POINT-SIZE="9" COLOR="{color}">{text}</FONT>'


def is_wide(ch: str) -> bool:
    """A character a terminal or a browser draws two columns (one em) wide: CJK, fullwidth forms."""
    return unicodedata.east_asian_width(ch) in ("W", "F")


def text_width(text: str, size: float) -> float:
    """The drawn width of plain ``text`` in points at font ``size``."""
    return sum(size * (WIDE_EM if is_wide(ch) else NARROW_EM) for ch in text)


def min_width(lines: list[str], size: float) -> dict[str, str]:
    """``{"width": inches}`` for a label holding wide characters, else ``{}``."""
    if not any(is_wide(ch) for line in lines for ch in line):
        return {}
    widest = 0.0
    for line in lines:
        found = _SIZE.search(line)
        plain = _html_module.unescape(_TAG.sub("", line))
        widest = max(widest, text_width(plain, float(found.group(1)) if found else size))
    return {"width": f"{widest / 72 + MARGIN_IN:.2f}"}
