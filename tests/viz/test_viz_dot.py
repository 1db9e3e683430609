"""The DOT source: golden files, escaping, markings, and one builder for draw and render_json."""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

import graphviz
import pytest

from micrograph import Value
from micrograph.viz import draw, graph_json, render_json
from micrograph.viz import render as render_module

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("MICROGRAPH_UPDATE_GOLDEN") == "1"  # regenerate after an intended change
SVG = "{http://www.w3.org/2000/svg}"


def check_golden(name: str, source: str) -> None:
    path = GOLDEN / f"{name}.gv"
    if UPDATE:
        path.write_text(source, encoding="utf-8")
    assert source == path.read_text(encoding="utf-8"), f"{path} differs (MICROGRAPH_UPDATE_GOLDEN=1 to accept)"


def test_golden_forward(doc) -> None:
    g = doc()
    check_golden("documents_forward", draw(g["y"], names=g).source)


def test_golden_retain_grad_after_backward(doc) -> None:
    g = doc()
    g["a"].retain_grad()
    g["y"].backward()
    check_golden("documents_retain_grad", draw(g["y"], names=g).source)


def test_golden_freed_with_saved(doc) -> None:
    g = doc()
    g["y"].backward()
    check_golden("documents_freed_saved", draw(g["y"], names=g, show_saved=True).source)


def test_golden_inplace_with_saved(doc) -> None:
    g = doc()
    g["b"].add_(1)
    check_golden("documents_inplace_saved", draw(g["y"], g["b"], names=g, show_saved=True).source)


def test_freed_marking(doc) -> None:
    g = doc()
    g["y"].backward(retain_graph=True)
    assert "saved values freed" not in draw(g["y"]).source
    g["y"].backward()
    source = draw(g["y"]).source
    assert source.count("saved values freed") == 2  # MulBackward0 and the legend
    assert "MulBackward0<BR/>" in source


def test_stale_saved_value_is_marked_without_show_saved(doc) -> None:
    g = doc()
    g["b"].add_(1)
    assert "_saved_other (2nd operand) modified in place" in draw(g["y"]).source


def test_grad_none_differs_from_zero() -> None:
    w = Value(3.0, requires_grad=True)
    y = w * 0.0
    before = draw(w, legend=False).source
    y.backward()
    after = draw(w, legend=False).source
    assert "<I>grad None</I>" in before and "grad 0>" in after


def test_draw_is_a_digraph_that_shows_in_jupyter(doc, renderer: str) -> None:
    g = doc()
    d = draw(g["y"], names=g)
    assert isinstance(d, graphviz.Digraph)
    bundle = d._repr_mimebundle_()
    ET.fromstring(bundle["image/svg+xml"].encode("utf-8"))


def test_jupyter_without_renderer_says_so(doc, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render_module, "find_renderer", lambda: None)
    bundle = draw(doc()["y"])._repr_mimebundle_()
    assert list(bundle) == ["text/plain"] and "no renderer found" in bundle["text/plain"]


def test_draw_and_render_json_share_the_builder(doc, tmp_path: Path) -> None:
    g = doc()
    paths = render_json(graph_json(g["y"], names=g), tmp_path, "y", formats=())
    assert paths == [str(tmp_path / "y.gv")]
    assert Path(paths[0]).read_text(encoding="utf-8") == draw(g["y"], names=g).source


HOSTILE = 'a<b>"c" {d|e} &amp;\nf]; g [label=x] \x00\ud800'


def test_labels_are_escaped(renderer: str, tmp_path: Path) -> None:
    w = Value(1.0, requires_grad=True)
    y = w * 2.0
    source = draw(y, names={HOSTILE: w, "y\n}": y}).source
    assert "a&lt;b&gt;&quot;c&quot; {d|e} &amp;amp; f]; g [label=x]" in source
    assert "\x00" not in source and "\ud800" not in source
    paths = render_json(graph_json(y, names={HOSTILE: w, "y\n}": y}), tmp_path, "hostile", formats=("svg",))
    svg = ET.parse(paths[1]).getroot()
    texts = [t.text for t in svg.iter(f"{SVG}text")]
    assert any(t.startswith('a<b>"c" {d|e} &amp; f]; g [label=x]') for t in texts if t)  # the name, as typed
    nodes = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "node"]
    assert len(nodes) == 5  # w, the constant 2, MulBackward0, y, legend: nothing injected


def test_the_legend_shows_the_mark_as_the_drawing_draws_it(doc, tmp_path: Path) -> None:
    """A node the grader marked has a thick blue border; the legend then shows that border too,
    and only then."""
    g = doc()
    data = graph_json(g["y"], names=g)
    plain = Path(render_json(data, tmp_path, "plain", formats=())[0]).read_text(encoding="utf-8")
    op = next(node for node in data["nodes"] if node["kind"] == "op")
    op["marked"] = True
    marked = Path(render_json(data, tmp_path, "marked", formats=())[0]).read_text(encoding="utf-8")
    assert "where your graph first differs" not in plain
    assert "color=blue3" in marked and "penwidth=4" in marked
    assert 'BGCOLOR="white" COLOR="blue3" BORDER="4"' in marked and "where your graph first differs" in marked


def test_a_marked_freed_op_has_the_legends_solid_border(doc, tmp_path: Path) -> None:
    """A freed op is drawn dashed; marked, its border is the legend's solid blue one, so that the
    mark is not read as another kind of border (the fill and its note still say freed)."""
    g = doc()
    g["y"].backward()
    data = graph_json(g["y"], names=g)
    op = next(node for node in data["nodes"] if node["kind"] == "op" and node["freed"])
    op["marked"] = True
    source = Path(render_json(data, tmp_path, "marked", formats=())[0]).read_text(encoding="utf-8")
    line = next(text for text in source.splitlines() if "color=blue3" in text)
    assert "dashed" not in line and "mistyrose" in line and "saved values freed" in line


def test_a_non_leaf_that_holds_a_grad_it_does_not_retain_is_drawn_as_what_it_shows(doc, tmp_path: Path) -> None:
    """A student's engine may write a non-leaf's .grad without setting retains_grad: its box,
    which shows that grad, is not drawn in the colour whose legend says .grad stays None, but
    in one of its own, with its legend row; a non-leaf whose .grad is None keeps the white box."""
    g = doc()
    data = graph_json(g["y"], names=g)
    a = next(node for node in data["nodes"] if node.get("name") == "a")
    assert (a["role"], a["grad"]) == ("intermediate", None)
    plain = Path(render_json(data, tmp_path, "plain", formats=())[0]).read_text(encoding="utf-8")
    a["grad"] = 1.5
    holding = Path(render_json(data, tmp_path, "holding", formats=())[0]).read_text(encoding="utf-8")
    assert "yet holds a .grad" not in plain and "thistle1" not in plain
    assert "yet holds a .grad" in holding and "grad 1.5> fillcolor=thistle1" in holding
    assert ".grad stays None (not kept)" in holding  # b: a non-leaf with no grad, white as before
