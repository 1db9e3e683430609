"""A digraph's DOT source, written as ``graphviz.Digraph`` writes it, without importing graphviz.

The grader's renderer worker only needs the text it hands to ``dot``: importing the graphviz
package for it (``logging``, ``inspect``, ``platform``, ``urllib``) cost the worker about a
quarter of its start-up.  ``dot.build`` writes every diagram here; ``draw`` makes the
``graphviz.Digraph`` a notebook shows from the same lines (``micrograph.viz.diagram``), and a
test compares both sources.  Quoting follows graphviz 0.20's ``quoting.quote``: an HTML-like
label (``<...>``) as it is, an identifier or a number bare unless it is a DOT keyword,
anything else in double quotes with its unescaped quotes escaped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

_HTML = re.compile(r"<.*>$", re.DOTALL)
_ID = re.compile(r"([a-zA-Z_][a-zA-Z0-9_]*|-?(\.[0-9]+|[0-9]+(\.[0-9]*)?))$")
_KEYWORDS = frozenset({"node", "edge", "graph", "digraph", "subgraph", "strict"})
_UNESCAPED_QUOTE = re.compile(r'(?P<backslashes>(?:\\{2})*)\\?(?P<quote>")')


def quote(text: str) -> str:
    """``text`` as a DOT identifier (see the module doc)."""
    if _HTML.match(text):
        return text
    if not _ID.match(text) or text.lower() in _KEYWORDS:
        return '"' + _UNESCAPED_QUOTE.sub(r"\g<backslashes>\\\g<quote>", text) + '"'
    return text


def _endpoint(name: str) -> str:
    """An edge's end ``node[:port[:compass]]``, each part quoted (graphviz's ``quote_edge``)."""
    node, _, rest = name.partition(":")
    parts = [quote(node)]
    if rest:
        port, _, compass = rest.partition(":")
        parts.append(quote(port))
        if compass:
            parts.append(compass)
    return ":".join(parts)


def attributes(label: str | None, attrs: Mapping[str, str | None]) -> str:
    """`` [label=... a=b ...]``: the label first, then the attributes by name; "" for none."""
    items = [f"label={quote(label)}"] if label is not None else []
    items += [f"{quote(k)}={quote(v)}" for k, v in sorted(attrs.items()) if v is not None]
    return f" [{' '.join(items)}]" if items else ""


class DotText:
    """A digraph built node by node and edge by edge (``node``, ``edge``, as on a
    ``graphviz.Digraph``); ``source`` is its DOT text, ``body`` its statements."""

    def __init__(self, name: str, graph_attr: Mapping[str, str], node_attr: Mapping[str, str],
                 edge_attr: Mapping[str, str]) -> None:
        self.name = name
        self.graph_attr, self.node_attr, self.edge_attr = dict(graph_attr), dict(node_attr), dict(edge_attr)
        self.body: list[str] = []

    def node(self, name: str, label: str | None = None, **attrs: str) -> None:
        self.body.append(f"\t{quote(name)}{attributes(label, attrs)}\n")

    def edge(self, tail: str, head: str, **attrs: str) -> None:
        self.body.append(f"\t{_endpoint(tail)} -> {_endpoint(head)}{attributes(None, attrs)}\n")

    @property
    def source(self) -> str:
        head = [f"digraph {quote(self.name)} {{\n"]
        for kind, attrs in (("graph", self.graph_attr), ("node", self.node_attr), ("edge", self.edge_attr)):
            if attrs:
                head.append(f"\t{kind}{attributes(None, attrs)}\n")
        return "".join(head + self.body) + "}\n"
