"""How a feedback sentence begins: with a capital where it begins with a plain English word.

A test's feedback is told as sentences, each with a capital after the full stop before it; one
that begins with code (``w.grad``, ``backward`` the student's function, ``y``, ``a is ...``)
keeps it as written, since a capital would name another thing.  Which words are plain English
depends on the track: elsewhere one word of a student's code may begin a sentence
(``backward wrote x.grad``, ``forward returned ...``), so only the words a sentence or its label
begins with that are never code count; in the build track the code that begins a sentence is
never one plain word (``w.grad``, ``store_grad``, ``retain_grad()``), and any word counts, its
rules' sentences too (``Backward frees ...``).  Capitals are given once, to the whole feedback
(``grader.judge.grading``); text quoted from the student's run keeps its letters, as do other
languages.
"""

from __future__ import annotations

import re

from micrograph.i18n import SOURCE_LANGUAGE, language

ENGLISH_WORDS = re.compile(r"(?:the|an?|no|what|every|each entry of|reading|inside|after|this) ")  # never code, anywhere
ANY_WORD = re.compile(r"[a-z]+ ")  # the build track: a plain word is never its code
_VALUE_NAME = re.compile(r"[b-z] |a (?:is|has|holds|was|=)\b|a in \w+\(|a \(")  # "y is", "a is g", "a (first call) is",
# "a in f(w, x, 1) has": a Value
_SENTENCE = re.compile(r"(?<=\. )|^")


def capitalized(text: str, words: re.Pattern[str] = ENGLISH_WORDS) -> str:
    """``text`` with each English sentence begun with a capital where it begins with one of
    ``words`` (not a Value's name), outside the student's own quoted text."""
    if language() != SOURCE_LANGUAGE:
        return text
    out, last = [], 0
    for found in _SENTENCE.finditer(text):
        start = found.end()
        rest = text[start:]
        if words.match(rest) and not _VALUE_NAME.match(rest) and text.count('"', 0, start) % 2 == 0:
            out += [text[last:start], rest[0].upper()]
            last = start + 1
    return "".join([*out, text[last:]])
