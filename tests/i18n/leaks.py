"""Finding English sentences in output that should be Chinese.

Allowed English: identifiers and code (``a.retain_grad()``, ``requires_grad=False``, ``True``), file
paths, exception names with the text Python or PyTorch gave them (students search for those),
and test names in --json.  Anything else made of three or more English words in a row is a
leak.
"""

from __future__ import annotations

import re

_EXCEPTION = re.compile(r"\b[A-Z]\w*(?:Error|Exception|Warning|Exit)\b(?::[^（）：；]*)?")
_PATH = re.compile(r"\S+\.(?:py|svg|png|gv|json|md)\b|\S*/\S*")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|`[^`]*`")
_SENTENCE = re.compile(r"(?<![\w.])[A-Za-z]{2,}(?:[ ,]+[A-Za-z]{2,}){2,}(?![\w(])")
_LITERAL = re.compile(r"\b(?:True|False|None)\b")  # Python's constants, as printed in an example
_ALLOWED = ("grade ex03 --submission FILE", "try / except RuntimeError as error")


def english_sentences(text: str) -> list[str]:
    """The runs of English words in ``text`` that are not code, paths or exception texts."""
    found = []
    for line in text.splitlines():
        for allowed in _ALLOWED:
            line = line.replace(allowed, " ")
        line = _LITERAL.sub(" ", _QUOTED.sub(" ", _PATH.sub(" ", _EXCEPTION.sub(" ", line))))
        found += [m.group(0) for m in _SENTENCE.finditer(line)]
    return found
