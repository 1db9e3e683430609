"""One explained difference, as the judge finds it: a sentence of ``grader.judge.sentences`` and
the fields that fill it, cleaned for printing (everything from the child is untrusted: strings
are cut and made printable), and for a graph the node the diagram marks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from grader.judge.labels import LABEL_FIELDS
from grader.judge.sentences import Sentence

MAX_FIELD = 120
MAX_LABEL = 200  # a probe's label (a program of the build track runs past 120): cut, it would read half a step


@dataclass(frozen=True)
class Difference:
    """One explained difference; for a graph, ``node`` is the first differing node of the
    submission's graph ``graph`` (a GRAPH fact; the index in its canonical order), which the
    grader draws with that node marked."""

    say: Sentence
    fields: tuple[tuple[str, str], ...]
    node: int | None = field(default=None, compare=False)
    graph: dict[str, Any] | None = field(default=None, compare=False, repr=False)
    context: bool = field(default=False, compare=False)  # from a ``~`` key: told only to explain
    follows_calls: bool = field(default=False, compare=False)  # of a fact the test's other calls move

    def sentence(self) -> str:
        """The sentence as its table writes it: the feedback it is told in gives it its capital
        (``grader.judge.capitals``)."""
        return self.say(**dict(self.fields))


@dataclass(frozen=True)
class ToldOnce:
    """One difference told once for the several places it was seen at: ``first`` whole, then
    the ``others`` named in a clause a subclass words (per graph, per label, per read)."""

    first: Difference
    others: tuple[str, ...]

    @property
    def say(self) -> Sentence:
        return self.first.say

    def first_said(self) -> str:
        """``first``'s sentence without its full stop, for the clause that names the others."""
        return self.first.sentence().rstrip(".\u3002")


def clean(text: object, limit: int = MAX_FIELD) -> str:
    """A string from the child, safe to print: printable, one line, bounded (``limit``: a probe's
    label ``MAX_LABEL``, so that its every step is said and it reads in the student's language,
    whose forms match whole labels only); a longer one ends at a whole word, with "…" (a quoted
    error cut inside a word reads as another message)."""
    printable = "".join(c if c.isprintable() else "?" for c in str(text))
    if len(printable) <= limit:
        return printable
    cut = printable[:limit - 2]
    return (cut.rsplit(" ", 1)[0] if " " in cut else cut) + " …"


def difference(say: Sentence, node: int | None = None, *, graph: dict[str, Any] | None = None,
               context: bool = False, **fields: object) -> Difference:
    """A Difference whose fields are cleaned for printing."""
    return Difference(say, tuple((k, clean(v, MAX_LABEL if k in LABEL_FIELDS else MAX_FIELD)) for k, v in fields.items()),
                      node, graph, context)
