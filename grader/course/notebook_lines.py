"""Where a notebook cell's logical lines start, which is where IPython reads its own syntax.

IPython takes ``%magic``, ``!shell`` and ``x?`` only at the start of a logical line: a physical
line that continues a statement (inside brackets, a string, or after a backslash) is Python,
whatever it starts with, such as ``% (step, g))`` closing a %-format broken before its operator,
``!= other)`` or a docstring's line ``!!! note``.  Why ``tokenize``: it is the standard library's
own reading of where a logical line ends, strings and brackets included, so the grader cannot
disagree with Python about it.

A line magic that only times its statement (``%time x = f()``, ``%timeit f()``, ``%prun f()``)
becomes that statement, so that what it assigns exists in the cells below, as it did in the
notebook; its statement runs once, untimed, as the body of a ``%%time`` cell does.
"""

from __future__ import annotations

import re
import tokenize
from typing import Callable

# The line magics whose argument is a Python statement, with their options that take a value
# (IPython's option strings: timeit "n:r:tcp:qo", prun "D:l:rs:T:q"; time has none).
TIMING_MAGICS = {"time": None, "timeit": "nrp", "prun": "DlsT"}
_LINE_MAGIC = re.compile(r"^(\s*)%(\w+)(?:[ \t]+(.*))?$")
_OPTION = re.compile(r"^-(\w)(\S*)\s*")
_WORD = re.compile(r"^\S+\s*")
_OPENING, _CLOSING = "([{", ")]}"


def timed_statement(line: str) -> tuple[str, str] | None:
    """(magic name, the line as its statement at the same indentation) for a timing line magic
    (``%timeit -n 3 f()`` gives ``("timeit", "f()")``); None for any other line."""
    found = _LINE_MAGIC.match(line)
    if found is None or found.group(2) not in TIMING_MAGICS:
        return None
    valued, rest = TIMING_MAGICS[found.group(2)], (found.group(3) or "").strip()
    while valued is not None and (option := _OPTION.match(rest)):
        rest = rest[option.end():]
        if option.group(1) in valued and not option.group(2) and (word := _WORD.match(rest)):
            rest = rest[word.end():]
    return found.group(2), found.group(1) + (rest or "pass")


def _length(lines: list[str], start: int) -> int:
    """How many physical lines the logical line starting at ``lines[start]`` spans: up to the
    line its statement ends on, all the lines left when a bracket or string is never closed."""
    source = iter([lines[start].lstrip() + "\n"] + [line + "\n" for line in lines[start + 1:]])
    depth = 0
    try:
        for token in tokenize.generate_tokens(lambda: next(source, "")):
            if token.type == tokenize.OP and token.string in _OPENING:
                depth += 1
            elif token.type == tokenize.OP and token.string in _CLOSING:
                depth = max(depth - 1, 0)
            elif token.type == tokenize.NEWLINE or token.type == tokenize.NL and depth == 0:
                return token.start[0]
            elif token.type == tokenize.ENDMARKER:
                break
    except tokenize.TokenError:  # EOF inside a bracket or a string: Python will say where
        pass
    except (SyntaxError, ValueError):  # not Python the tokenizer reads: the line alone
        return 1
    return len(lines) - start


def by_logical_line(lines: list[str], rewrite: Callable[[str], str | None]) -> list[str]:
    """``lines`` with ``rewrite`` applied to each line that starts a logical line (it returns
    the line's replacement, or None to keep it); the lines that continue a statement are kept as
    they are.  A replacement is read as the logical line's start in its place (``%time f(a,``
    continues on the next line as ``f(a,`` does)."""
    out = list(lines)
    index = 0
    while index < len(out):
        replaced = rewrite(out[index])
        if replaced is not None:
            out[index] = replaced
        index += max(_length(out, index), 1)
    return out
