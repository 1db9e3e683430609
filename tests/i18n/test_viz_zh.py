"""Diagrams in Chinese: labels and legend from the catalogue, CJK fonts in the SVG, an English PNG fallback."""

from __future__ import annotations

from pathlib import Path

import pytest

from micrograph import Value
from micrograph.i18n import using
from micrograph.viz import draw, graph_json, render_json
from micrograph.viz import render as render_module
from micrograph.viz.labels import min_width, text_width


def freed_graph() -> dict:
    w = Value(1.5, requires_grad=True)
    x = Value(-2.0, requires_grad=True)
    a = x + w
    a.retain_grad()
    y = a * (w + 1)
    y.backward()
    return graph_json(y, names={"w": w, "x": x, "a": a, "y": y})


def test_zh_labels_and_legend_are_chinese_and_identifiers_stay() -> None:
    with using("zh"):
        zh = draw_source()
    en = draw_source()
    for text in ("叶子节点", "保留梯度", "已释放的保存值", "MulBackward0", "retain_grad()", "requires_grad"):
        assert text in zh
    assert "叶子节点" not in en and "leaf that requires grad" in en
    assert "leaf that requires grad" not in zh and "saved values freed" not in zh
    assert " width=" in zh and " width=" not in en  # CJK labels get a measured minimum width
    assert ' WIDTH="' in zh.split("_legend")[1] and "WIDTH=\"18\"> </TD><TD ALIGN=\"LEFT\" BORDER=\"0\">" in en


def draw_source() -> str:
    w = Value(1.5, requires_grad=True)
    a = (w + 1)
    a.retain_grad()
    y = a * w
    y.backward()
    return draw(y, names={"w": w, "a": a, "y": y}).source


def test_a_cjk_label_is_measured_one_em_per_character() -> None:
    assert text_width("叶子节点", 10) == 40
    assert text_width("ab", 10) == 12
    assert min_width(["data 1"], 11) == {}
    assert float(min_width(['<FONT POINT-SIZE="9" COLOR="red">已释放的保存值</FONT>'], 11)["width"]) == pytest.approx(63 / 72 + 0.25, abs=0.01)


def test_svg_declares_cjk_fonts_and_png_falls_back_to_english_without_a_cjk_renderer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    renderer = render_module.find_renderer()
    if renderer is None:
        pytest.skip("no renderer installed")
    monkeypatch.setattr(render_module, "draws_cjk", lambda _: False)
    with using("zh"):
        paths = render_json(freed_graph(), tmp_path, "y", formats=("svg", "png"))
    assert paths == [str(tmp_path / f"y.{ext}") for ext in ("gv", "svg", "png")]
    svg = (tmp_path / "y.svg").read_text(encoding="utf-8")
    assert "已释放的保存值" in svg and "Noto Sans CJK SC" in svg and "Microsoft YaHei" in svg
    assert 'font-family="Helvetica,sans-Serif"' not in svg
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "y.png" in err and "英文" in err  # one line, in the student's language
    assert not (tmp_path / "y.en.gv").exists()


def test_png_is_chinese_when_the_renderer_has_a_cjk_font(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What a PNG is drawn from: the Chinese source when the renderer can, else the English one."""
    given = []
    monkeypatch.setattr(render_module, "find_renderer", lambda: "/usr/bin/dot")
    monkeypatch.setattr(render_module, "run", lambda r, args, *a, **k: (given.append(Path(args[-1]).read_text()), (b"", "x"))[1])
    for can in (True, False):
        monkeypatch.setattr(render_module, "draws_cjk", lambda _, can=can: can)
        with using("zh"):
            render_json(freed_graph(), tmp_path, "y", formats=("png",))
    assert "叶子节点" in given[0] and "leaf that requires grad" in given[1]


def test_graphviz_pure_cannot_draw_cjk_pngs() -> None:
    assert not render_module.draws_cjk("/some/where/graphviz-pure")


def test_pure_svg_lines_of_chinese_are_recentred_and_the_legend_is_not() -> None:
    line = '<text xml:space="preserve" text-anchor="start" x="66.58" y="-4" font-family="F" font-size="9.00">已释放</text>'
    legend = '<g id="node9" class="node">\n<title>_legend</title>\n' + line + "\n</g>\n"
    svg = ('<svg><g id="node1" class="node">\n<title>n1</title>\n' + line + "\n</g>\n" + legend + "</svg>").encode()
    out = render_module.finish_svg(svg, "graphviz-pure").decode()
    shift = 3 * 9 * (1 - 3 * 0.278) / 2
    assert f'x="{66.58 - shift:.2f}"' in out and 'x="66.58"' in out  # the first moved, the legend's stayed
    assert render_module.finish_svg(svg, "/usr/bin/dot").decode().count('x="66.58"') == 2


def test_the_trace_script_writes_no_english_sentence_of_its_own() -> None:
    """Every sentence the trace page's script shows is a catalogue template (trace_page.SENTENCES)."""
    import re

    from leaks import english_sentences

    script = (Path(render_module.__file__).parent / "trace_page.js").read_text(encoding="utf-8")
    code = re.sub(r"//[^\n]*", "", script)
    literals = [a or b for a, b in re.findall(r'"([^"\\\n]*)"|`([^`]*)`', code)]
    texts = [re.sub(r"\$\{[^}]*\}", " ", text) for text in literals]
    assert len(texts) > 20
    assert [t for t in texts if english_sentences(t)] == []


def test_the_trace_page_is_chinese_in_a_zh_run_and_english_otherwise() -> None:
    import json

    from micrograph.viz import trace_backward
    from micrograph.viz.trace_page import SENTENCES

    w = Value(1.5, requires_grad=True)
    y = (w + 1) * w
    trace = trace_backward(y, names={"w": w, "y": y})
    with using("zh"):
        zh = trace.html(timeout=20)
    en = trace.html(timeout=20)
    assert '<html lang="zh-CN">' in zh and "<h2>就绪队列" in zh and "backward()，一步一步看</h1>" in zh
    assert "Ready queue" not in zh and "previous step" not in zh
    said = json.loads(zh.split('id="trace-data">')[1].split("</script>")[0])["say"]
    assert said.keys() == SENTENCES.keys() and all(said[k] != SENTENCES[k] for k in said if k != "list")
    assert '<html lang="en">' in en and "<h2>Ready queue" in en and "就绪队列" not in en
