"""A real browser for the course autograder's pages: headless Chromium, when installed
(``apt-get install -y chromium``), loads a page, runs its scripts and takes a screenshot."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run")


def chromium() -> str | None:
    return next((p for n in ("chromium", "chromium-browser", "google-chrome")
                 if (p := shutil.which(n))), None)


def _run(page: Path, *args: str, timeout: float = 60) -> str:
    browser = chromium()
    assert browser is not None
    with tempfile.TemporaryDirectory(prefix="chromium-") as profile:
        proc = subprocess.run([browser, *FLAGS, f"--user-data-dir={profile}", *args,
                               page.resolve().as_uri()],
                              capture_output=True, text=True, timeout=timeout)
    return proc.stdout


def dump_dom(page: Path, width: int | None = None) -> str:
    """The page's DOM after its scripts ran (a script can write what it measured into it), in a
    window ``width`` px wide where given."""
    size = () if width is None else (f"--window-size={width},900", "--hide-scrollbars")
    return _run(page, "--virtual-time-budget=5000", *size, "--dump-dom")


def screenshot(page: Path, png: Path, width: int = 1000, height: int = 900) -> Path:
    _run(page, f"--screenshot={png}", f"--window-size={width},{height}",
         "--hide-scrollbars")
    return png


MEASURE = """<script>
window.addEventListener("load", () => {
  const out = [];
  for (const el of document.querySelectorAll("svg.diagram, img")) {
    const box = el.getBoundingClientRect();
    const texts = el.tagName === "IMG" ? (el.naturalWidth > 0 ? 1 : 0)
                                       : el.querySelectorAll("text").length;
    out.push(`${el.tagName}:${Math.round(box.width)}x${Math.round(box.height)}:${texts}`);
  }
  const p = document.createElement("pre");
  p.id = "measured";
  p.textContent = out.join(" ");
  document.body.appendChild(p);
});
</script>"""
