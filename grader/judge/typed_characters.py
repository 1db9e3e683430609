"""A file that does not compile because of a character a Chinese input method types: said in the
student's terms.

Python 3.11 names such a character by its code point only ("invalid non-printable character
U+3000" for the full-width space that indents a line, "invalid character '（' (U+FF08)" for a
full-width parenthesis), which a student who sees a space, or a parenthesis, in the editor cannot
act on; so is a no-break space (U+00A0) copied with code from a web page.  The feedback names what
the character is, where, and the ASCII one Python reads in its place, then Python's own message.
"""

from __future__ import annotations

import re

from grader.i18n import N_, _

_NAMED = re.compile(r"invalid (?:non-printable )?character (?:'(.)' )?\(?U\+([0-9A-F]{4,6})\)?")
FULL_WIDTH = range(0xFF01, 0xFF5F)  # the full-width forms of ASCII's '!' to '~', in its order
ASCII_OFFSET = 0xFF01 - 0x21
OTHERS = {  # other characters of a Chinese input method, and the ASCII one each stands for
    0x3001: ("、", ","), 0x3002: ("。", "."), 0x2018: ("‘", "'"), 0x2019: ("’", "'"),
    0x201C: ("“", '"'), 0x201D: ("”", '"'), 0x300A: ("《", "<"), 0x300B: ("》", ">"), 0x3010: ("【", "["),
    0x3011: ("】", "]"),
}
SPACE, NO_BREAK_SPACE = 0x3000, 0x00A0  # NO-BREAK SPACE: a space copied along with text from a web page
SPACE_SAID = N_("full-width space U+3000 at {line}: outside strings and comments Python takes only the ASCII "
                "space, so the file does not compile (SyntaxError: {message})")
NO_BREAK_SAID = N_("no-break space U+00A0 at {line}: outside strings and comments Python takes only the ASCII "
                   "space, so the file does not compile (SyntaxError: {message})")
CHARACTER_SAID = N_("full-width '{character}' (U+{code}) at {line}: outside strings and comments Python takes "
                    "only the ASCII '{ascii}', so the file does not compile (SyntaxError: {message})")
OTHER_SAID = N_("Chinese punctuation mark '{character}' (U+{code}) at {line}: outside strings and comments Python "
                "takes only the ASCII '{ascii}', so the file does not compile (SyntaxError: {message})")


def typed_character(message: str, line: str) -> str | None:
    """A SyntaxError's ``message`` about a full-width character (or another a Chinese input method
    types) said in the student's terms, at ``line`` (a line as feedback names it); None for any
    other message."""
    found = _NAMED.fullmatch(message or "")
    if found is None:
        return None
    code = int(found[2], 16)
    if code in (SPACE, NO_BREAK_SPACE):
        return _(SPACE_SAID if code == SPACE else NO_BREAK_SAID, line=line, message=message)
    if code in FULL_WIDTH:
        said, character, ascii_form = CHARACTER_SAID, chr(code), chr(code - ASCII_OFFSET)
    elif code in OTHERS:
        said, (character, ascii_form) = OTHER_SAID, OTHERS[code]
    else:
        return None
    return _(said, character=character, code=f"{code:04X}", line=line, ascii=ascii_form, message=message)
