"""Diagrams of the computational graph (计算图): what a student would rather look at than read.

Three calls, one code path::

    draw(y, names={"w": w, "x": x, "y": y})        # a graphviz.Digraph; shows inline in Jupyter
    graph = graph_json(y, names=...)                 # plain JSON data: nodes, edges, labels
    trace_backward(y, names=...).save_html("b.html")  # watch y.backward() run, step by step
    render_json(graph, "out", "y", formats=("svg", "png"))   # out/y.gv, out/y.svg, out/y.png

``draw`` is ``graph_json`` followed by the same DOT builder that ``render_json``
uses; the grader calls ``graph_json`` in its sandboxed child and ``render_json``
in the parent.  Modules: ``collect`` walks the graph, ``internals`` is the only
place that reads engine internals, ``schema`` checks a graph dict (``graph_format``
names what the dict promises), ``drawing`` writes files from plain data without the
engine, ``dot`` builds the DOT source (``dot_text`` writes it), ``render`` runs the
renderer, ``diagram`` is the notebook's ``graphviz.Digraph``, ``labels`` holds the label
helpers and the translator: labels follow ``micrograph.i18n.language()`` (``MICROGRAPH_LANG=zh``
draws them in Chinese).

graphviz (the Python package) is imported only by ``draw``, for the ``Digraph`` a notebook
shows (``diagram``): ``graph_json`` runs in the grader's sandbox, which should stay light, and
``render_json`` writes the DOT text itself (``dot_text``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from micrograph.value import Value
from micrograph.viz.collect import DEFAULT_MAX_NODES, drawable, graph_json
from micrograph.viz.drawing import english_source, render_json
from micrograph.viz.trace_record import BackwardTrace, first_backward, trace_backward

if TYPE_CHECKING:
    from micrograph.viz.diagram import Diagram


def draw(
    *roots: Value,
    names: Mapping[str, Value] | None = None,
    show_saved: bool = False,
    legend: bool = True,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> Diagram:
    """The graph behind ``roots`` as a ``graphviz.Digraph`` (displays inline in Jupyter).

    ``names`` labels values (``{"w": w, "y": y}``); ``show_saved`` lists what each
    op saved for backward, with versions; at most ``max_nodes`` nodes are drawn.
    To save files: ``render_json(graph_json(y), "out", "y", formats=("png",))``.
    """
    from micrograph.viz import diagram, dot, schema

    graph = schema.validate(graph_json(*roots, names=names, max_nodes=max_nodes))
    return diagram.diagram(dot.build(graph, show_saved=show_saved, legend=legend),
                           english_source(graph, show_saved, legend))


__all__ = ["BackwardTrace", "draw", "drawable", "first_backward", "graph_json", "render_json", "trace_backward"]
