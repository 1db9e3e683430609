"""One difference told once for every graph of a test it is true of.

Some probes read one function on several graphs, each label naming its graph ("for y = c - w,
grad_fn_chain(y)").  A function with one mistake differs the same way on most of them, and one
sentence per graph said the same thing again and again, crowding out the rest.  Differences of
one kind whose fields are the same but for the graph their label names are told once, whole for
the first graph, then naming the others.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from grader.i18n import _
from grader.judge.explained import Difference
from grader.judge.sentences import Say

_FOR_GRAPH = re.compile(r"for (y = .+), ([A-Za-z_][\w.]*\(.*)$")  # "for y = <graph>, <call>"
_END = ".。"


@dataclass(frozen=True)
class SameForGraphs:
    """``first`` whole, and the same difference for the graphs ``others`` (``y = c - w``)."""

    first: Difference
    others: tuple[str, ...]

    @property
    def say(self) -> Say:
        return self.first.say

    def sentence(self) -> str:
        said = self.first.sentence().rstrip(_END)
        return _("{sentence}; the same holds for {others}.", sentence=said, others=", ".join(self.others))


def per_graph(found: list[Difference]) -> list[Difference | SameForGraphs]:
    """``found`` in its order, where differences alike but for the graph their label names are
    one ``SameForGraphs``, at the place of the first."""
    groups: list[tuple[Difference, tuple[object, ...] | None, list[str]]] = []
    for d in found:
        key, graph = _alike_key(d)
        match = next((others for first, known, others in groups if key is not None and known == key), None)
        if match is not None and graph is not None:
            match.append(graph)
        else:
            groups.append((d, key, []))
    return [SameForGraphs(first, tuple(others)) if others else first for first, _key, others in groups]


def _alike_key(d: Difference) -> tuple[tuple[object, ...] | None, str | None]:
    """What two differences alike but for their graph share (their kind, the call their label
    names, their other fields), and the graph this one's label names; (None, None) for a label
    that names no graph."""
    fields = dict(d.fields)
    found = _FOR_GRAPH.match(fields.get("label", ""))
    if found is None:
        return None, None
    rest = tuple(f for f in d.fields if f[0] != "label")
    return (d.say, found.group(2), rest), found.group(1)
