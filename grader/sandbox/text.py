"""Text that came from the child, made safe to show: no terminal control, no lone surrogates,
a bounded length that says what was cut.

Everything a submission can put in front of a person (its printed output, its exception
messages and names) passes through ``clean`` when the parent receives it, so the terminal
report, ``--json``, results.json and the HTML report all get the same safe text: escape
sequences (clear screen, window title, OSC 52 clipboard writes), other C0/C1 controls and
bidirectional overrides are removed, lone surrogates (which
``json.loads`` accepts from ``\\ud800``) become U+FFFD, and text past ``limit`` characters is cut
with ``[truncated, N more characters]``.
"""

from __future__ import annotations

import re

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
