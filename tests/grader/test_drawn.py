"""A diagram drawn once is replayed, byte for byte, for an identical request; anything else is drawn."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest

from grader.sandbox import drawn
from grader.sandbox.renderer import Renderer

viz = pytest.importorskip("micrograph.viz")


def _graph(x: float) -> dict:
    import micrograph

    a = micrograph.Value(x, requires_grad=True)
    return viz.graph_json(a * 3.0, names={"a": a})


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_an_identical_request_gets_the_same_files_without_the_worker(tmp_path: Path) -> None:
    renderer = Renderer()
    try:
        first = renderer.render(_graph(2.0), tmp_path / "alice", "graph", ("svg",), 10.0)
        worker = renderer._proc
        renderer._kill()  # a request that needed the worker now would start another one
        second = renderer.render(_graph(2.0), tmp_path / "bob", "graph", ("svg",), 10.0)
        assert renderer._proc is None
        assert [Path(p).name for p in second] == [Path(p).name for p in first]
        assert all(Path(p).parent == tmp_path / "bob" for p in second)
        assert _files(tmp_path / "bob") == _files(tmp_path / "alice")
        assert worker is not None
    finally:
        renderer.close()


def test_a_different_graph_or_worker_setting_is_drawn_again(tmp_path: Path, monkeypatch) -> None:
    renderer = Renderer()
    try:
        renderer.render(_graph(2.0), tmp_path / "a", "graph", ("svg",), 10.0)
        renderer._kill()
        renderer.render(_graph(5.0), tmp_path / "b", "graph", ("svg",), 10.0)
        assert renderer._proc is not None  # drawn by a worker
        assert _files(tmp_path / "a")["graph.gv"] != _files(tmp_path / "b")["graph.gv"]
        renderer._kill()
        monkeypatch.setenv("PATH", str(tmp_path) + ":" + os.environ.get("PATH", ""))
        renderer.render(_graph(2.0), tmp_path / "c", "graph", ("svg",), 10.0)
        assert renderer._proc is not None  # another PATH may find another dot: drawn again
    finally:
        renderer.close()


def test_replay_removes_what_the_worker_removes_and_keys_ignore_only_the_folder(tmp_path: Path) -> None:
    cache = drawn.Drawn()
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "graph.gv").write_text("digraph {}")
    key = drawn.key({"graph": 1, "directory": str(tmp_path / "a"), "stem": "graph"}, "en")
    assert key == drawn.key({"graph": 1, "directory": "elsewhere", "stem": "graph"}, "en")
    assert key != drawn.key({"graph": 1, "directory": "elsewhere", "stem": "graph"}, "zh")
    assert key != drawn.key({"graph": 2, "directory": "elsewhere", "stem": "graph"}, "en")
    cache.keep(key, tmp_path / "a", [str(tmp_path / "a" / "graph.gv")])
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "graph.svg").write_text("an old picture")
    paths = cache.replay(key, tmp_path / "b", ("graph.svg",))
    assert paths == [str(tmp_path / "b" / "graph.gv")]
    assert _files(tmp_path / "b") == {"graph.gv": b"digraph {}"}
    assert cache.replay("another", tmp_path / "b", ()) is None


def test_files_written_elsewhere_are_not_kept_and_the_cache_is_capped(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x.gv").write_bytes(b"x" * 10)
    cache = drawn.Drawn(max_bytes=25)
    cache.keep("outside", tmp_path, [str(tmp_path / "a" / "x.gv")])
    assert cache.replay("outside", tmp_path / "c", ()) is None
    for key in ("one", "two", "three"):
        cache.keep(key, tmp_path / "a", [str(tmp_path / "a" / "x.gv")])
    assert cache.replay("one", tmp_path / "c", ()) is None  # the oldest went first
    assert cache.replay("three", tmp_path / "c", ()) == [str(tmp_path / "c" / "x.gv")]


def test_a_running_worker_draws_in_the_language_of_each_request(tmp_path: Path, monkeypatch) -> None:
    """A notebook's check("ex04", lang="zh") after an English one: each request names its
    language, so the same worker draws the Chinese graph (and an identical request in another
    language is drawn again, not replayed)."""
    from micrograph.i18n import ENV_VAR

    monkeypatch.setenv(ENV_VAR, "en")
    renderer = Renderer()
    try:
        renderer.render(_graph(2.0), tmp_path / "en", "graph", ("svg",), 10.0)
        english = renderer._proc
        monkeypatch.setenv(ENV_VAR, "zh")
        renderer.render(_graph(2.0), tmp_path / "zh", "graph", ("svg",), 10.0)
        assert renderer._proc is english and english is not None
        assert "输出" in (tmp_path / "zh" / "graph.gv").read_text(encoding="utf-8")
        assert "输出" not in (tmp_path / "en" / "graph.gv").read_text(encoding="utf-8")
    finally:
        renderer.close()


def test_close_kills_the_worker_without_waiting_for_it(tmp_path: Path) -> None:
    """Started early for a diagram that did not come, a worker may still be importing: it is
    not waited for (one whose input ends leaves with status 0 once its imports are done)."""
    renderer = Renderer()
    renderer.start()
    worker = renderer._proc
    renderer.close()
    assert worker is not None and renderer._proc is None
    assert worker.returncode == (1 if sys.platform == "win32" else -signal.SIGKILL)
