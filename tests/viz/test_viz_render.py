"""render_json: files from a graph dict that may come from untrusted code, never failing the caller."""

from __future__ import annotations

import copy
import os
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from micrograph.viz import graph_json, render_json
from micrograph.viz import render as render_module

SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def graph(doc) -> dict[str, Any]:
    g = doc()
    g["y"].backward()
    return graph_json(g["y"], names=g)


def test_svg_and_png(graph: dict[str, Any], renderer: str, tmp_path: Path) -> None:
    paths = render_json(graph, tmp_path / "out", "y", formats=("svg", "png"))
    assert [Path(p).name for p in paths] == ["y.gv", "y.svg", "y.png"]
    svg = ET.parse(paths[1]).getroot()
    assert svg.tag == f"{SVG}svg"
    texts = {t.text for t in svg.iter(f"{SVG}text")}
    assert {"MulBackward0", "saved values freed", "grad 5"} <= texts
    assert Path(paths[2]).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_no_renderer_writes_the_source_and_says_so(
    graph: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(render_module, "find_renderer", lambda: None)
    assert render_json(graph, tmp_path, "y") == [str(tmp_path / "y.gv")]
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and "no renderer found" in captured.err


def fake_renderer(tmp_path: Path, body: str) -> str:
    script = tmp_path / "fake-dot"
    script.write_text(f"#!{sys.executable}\nimport sys, time\n{body}\n")
    script.chmod(0o755)
    return str(script)


@pytest.mark.skipif(os.name != "posix", reason="the fake renderer is a script with a #! line")
@pytest.mark.parametrize(
    "body, timeout, message",
    [
        ("time.sleep(30)", 0.5, "timed out after 0.5 s"),
        # renderers that end by themselves: a limit a loaded machine's Python start-up stays under
        ("sys.stderr.write('Error: syntax error in line 1\\nmore\\n'); sys.exit(1)", 60,
         "exited with status 1: Error: syntax error in line 1"),
        ("pass", 60, "the renderer wrote nothing"),
    ],
)
def test_a_failing_renderer_is_a_notice(
    graph: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    body: str, timeout: float, message: str,
) -> None:
    fake = fake_renderer(tmp_path, body)
    monkeypatch.setattr(render_module, "find_renderer", lambda: fake)
    (tmp_path / "y.svg").write_text("an old picture")
    assert render_json(graph, tmp_path, "y", timeout=timeout) == [str(tmp_path / "y.gv")]
    assert message in capsys.readouterr().err
    assert not (tmp_path / "y.svg").exists()  # no stale or half-written picture left behind


def broken(graph: dict[str, Any], change) -> dict[str, Any]:
    bad = copy.deepcopy(graph)
    change(bad)
    return bad


MALFORMED = [
    (lambda g: [g], "must be a dict"),
    (lambda g: broken(g, lambda b: b.pop("format")), "'format' must be"),
    (lambda g: broken(g, lambda b: b.update(nodes="x")), "graph.nodes must be a list"),
    (lambda g: broken(g, lambda b: b.update(nodes=[{}] * 20_001)), "more than the 20000"),
    (lambda g: broken(g, lambda b: b["nodes"].append(3)), "nodes[9] must be a dict"),
    (lambda g: broken(g, lambda b: b["nodes"][0].update(id="v 0")), "nodes[0].id"),
    (lambda g: broken(g, lambda b: b["nodes"][0].update(id="f0")), "ids must be unique"),
    (lambda g: broken(g, lambda b: b["nodes"][0].update(id="_legend")), "nodes[0].id"),
    (lambda g: broken(g, lambda b: b["nodes"][0].update(kind="script")), "nodes[0].kind"),
    (lambda g: broken(g, lambda b: b["nodes"][0].update(role="admin")), "nodes[0].role must be one of"),
    (lambda g: broken(g, lambda b: b["nodes"][0].update(data=[1])), "nodes[0].data must be a number"),
    (lambda g: broken(g, lambda b: b["nodes"][0].update(grad=True)), "nodes[0].grad must be a number"),
    (lambda g: broken(g, lambda b: b["nodes"][0].update(data=10**400)), "nodes[0].data must be a number"),
    (lambda g: broken(g, lambda b: b["nodes"][0].update(name=7)), "nodes[0].name must be a string"),
    (lambda g: broken(g, lambda b: b["nodes"][1].update(freed="yes")), "nodes[1].freed must be true or false"),
    (lambda g: broken(g, lambda b: b["nodes"][1].update(saved=None)), "nodes[1].saved must be a list"),
    (lambda g: broken(g, lambda b: b["nodes"][1]["saved"].append("x")), "nodes[1].saved[2] must be a dict"),
    (lambda g: broken(g, lambda b: b["nodes"][1]["saved"][0].update(version=-1)), "saved[0].version must be"),
    (lambda g: broken(g, lambda b: b["edges"].append({"from": "v0", "to": "nowhere"})), "join two node ids"),
    (lambda g: broken(g, lambda b: b["edges"].append([1, 2])), "edges[9] must be a dict"),
    (lambda g: broken(g, lambda b: b.update(omitted=-1)), "graph.omitted must be a non-negative integer"),
]


@pytest.mark.parametrize("make, message", MALFORMED)
def test_malformed_graphs_are_refused(graph: dict[str, Any], tmp_path: Path, make, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("[", r"\[").replace("]", r"\]")):
        render_json(make(graph), tmp_path, "y")
    assert not (tmp_path / "y.gv").exists()


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"stem": "../escape"}, "stem must be a plain file name"),
        ({"stem": ""}, "stem must be a plain file name"),
        ({"formats": ("pdf",)}, "formats must be"),
        ({"formats": "svg"}, "formats must be"),
        ({"timeout": 0}, "timeout must be"),
    ],
)
def test_bad_arguments(graph: dict[str, Any], tmp_path: Path, kwargs: dict[str, Any], message: str) -> None:
    arguments = {"directory": tmp_path, "stem": "y", **kwargs}
    with pytest.raises(ValueError, match=message):
        render_json(graph, **arguments)


def test_draw_renders_and_pipes_without_system_graphviz(tmp_path) -> None:
    import micrograph as mg
    from micrograph.viz import draw
    from micrograph.viz.render import find_renderer

    if find_renderer() is None:
        import pytest

        pytest.skip("no renderer installed")
    w = mg.Value(1.5, requires_grad=True)
    d = draw(w * w, names={"w": w})
    path = d.render(str(tmp_path / "g"), format="svg")
    assert path.endswith("g.svg") and "<svg" in open(path, encoding="utf-8").read()
    assert d.pipe("png").startswith(b"\x89PNG")
