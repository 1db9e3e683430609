"""Big graphs draw under the cap, in bounded time, and say what they left out."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import micrograph as mg
from micrograph import Value
from micrograph.viz import draw, graph_json, render_json
from micrograph.viz.collect import DEFAULT_MAX_NODES


def test_a_graph_several_times_the_cap_is_capped(renderer: str, tmp_path: Path) -> None:
    """More than a thousand nodes left out (the count is told with its thousands separator)."""
    steps = DEFAULT_MAX_NODES  # five nodes a step: five times the cap
    x = Value(0.5, requires_grad=True)
    y = x
    for _ in range(steps):
        y = (y * 1.0001).tanh()  # 2 ops (4 drawn nodes) and a constant per step
    graph = graph_json(y, names={"x": x, "y": y})
    drawn = len(graph["nodes"]) - 1
    assert drawn <= DEFAULT_MAX_NODES and graph["omitted"] >= 1_000
    assert drawn + graph["omitted"] == 5 * steps + 1
    assert f"{graph['omitted']:,} more nodes not drawn" in draw(y).source
    paths = render_json(graph, tmp_path, "big", formats=("svg",), timeout=60)
    ET.parse(paths[1])


def test_a_wide_sum_is_capped() -> None:
    width = 1_000  # twenty times the cap
    terms = [Value(float(i), requires_grad=True) for i in range(width)]
    s = mg.sum(terms)
    graph = graph_json(s, max_nodes=50)
    assert len(graph["nodes"]) - 1 <= 50
    assert graph["omitted"] == width + 2 - 50
    assert [e for e in graph["edges"] if e["from"] == "omitted"] == [{"from": "omitted", "to": "f0"}]
