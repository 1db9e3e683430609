"""Running a ``dot`` program on DOT source, under a time limit, without ever failing the caller.

A fresh ``pip install`` has no system Graphviz, so the renderer is found in this
order: the system's Graphviz ``dot`` on PATH, else ``graphviz-pure`` (a
self-contained ``dot`` from PyPI, a dependency of micrograph) from this Python's
scripts folder or PATH.  When there is none, or it fails or runs out of time,
the caller gets a one-line notice on stderr and the ``.gv`` source, never an
exception: a missing picture must not break a grade.

Chinese labels: an SVG is drawn by the viewer's browser, so its ``font-family``
lists common CJK fonts after Helvetica (``FONT_FAMILY``).  A PNG is drawn here:
only a cairo/pango Graphviz (the system's ``dot``) with a CJK font installed
(``fc-list :lang=zh``, e.g. Debian's fonts-noto-cjk) can draw Chinese;
graphviz-pure cannot, so the PNG is then drawn from the English source with a
one-line notice.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import sysconfig
import time
from functools import lru_cache
from pathlib import Path

from micrograph.viz.labels import WIDE_EM, _, is_wide

FORMATS = ("svg", "png")
PNG_DPI = "150"  # sharp enough for a README; Graphviz's default 96 looks blurred
NOTEBOOK_TIMEOUT = 30.0
NO_RENDERER = "no renderer found: install Graphviz (dot) or `pip install graphviz-pure` to get pictures"
_STEM = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}")
FONT_FAMILY = ("Helvetica,Arial,'Noto Sans CJK SC','Source Han Sans SC','PingFang SC','Microsoft YaHei',"
               "'WenQuanYi Micro Hei','WenQuanYi Zen Hei',sans-serif")
_FONT_ATTR = re.compile(rb'font-family="[^"]*"')
_TEXT = re.compile(r'(<text [^>]*text-anchor="start" x=")([-\d.]+)("[^>]*font-size=")([\d.]+)("[^>]*>)([^<]*)</text>')
PURE_RENDERER = "graphviz-pure"
PURE_SPACE_EM = 0.278  # Helvetica's space, which graphviz-pure counts for each byte of a non-ASCII character
LEGEND_TITLE = "_legend"  # dot.LEGEND_ID: the legend's lines are aligned left, not centred


def find_renderer() -> str | None:
    """The path of a ``dot``-compatible program, or None."""
    system = shutil.which("dot")
    if system is not None:
        return system
    for folder in (sysconfig.get_path("scripts"), None):  # None: search PATH
        found = shutil.which("graphviz-pure", path=folder)
        if found is not None:
            return found
    return None


def finish_svg(svg: bytes, renderer: str) -> bytes:
    """The SVG with every ``font-family`` set to ``FONT_FAMILY`` and, from graphviz-pure, CJK lines recentred.

    graphviz-pure measures a character it has no metrics for as one space per
    UTF-8 byte: a CJK character (3 bytes) comes out 0.83 em wide where a browser
    draws 1 em, so a centred line of Chinese starts a little too far right.  Each
    such line moves left by half the difference; the legend's lines, aligned
    left, stay where they are.
    """
    svg = _FONT_ATTR.sub(f'font-family="{FONT_FAMILY}"'.encode(), svg)
    if not Path(renderer).name.startswith(PURE_RENDERER):
        return svg
    groups = svg.decode("utf-8").split('<g id="')
    for i, group in enumerate(groups):
        if f"<title>{LEGEND_TITLE}</title>" not in group:
            groups[i] = _TEXT.sub(_recentre, group)
    return '<g id="'.join(groups).encode("utf-8")


def _recentre(match: re.Match[str]) -> str:
    x, size, content = float(match.group(2)), float(match.group(4)), match.group(6)
    wide = sum(1 for ch in content if is_wide(ch))
    if not wide:
        return match.group(0)
    shift = wide * size * (WIDE_EM - 3 * PURE_SPACE_EM) / 2
    return f"{match.group(1)}{x - shift:.2f}{match.group(3)}{match.group(4)}{match.group(5)}{content}</text>"


@lru_cache(maxsize=8)
def draws_cjk(renderer: str) -> bool:
    """Whether ``renderer`` can put Chinese into a PNG: a fontconfig Graphviz and a CJK font."""
    if Path(renderer).name.startswith(PURE_RENDERER):
        return False  # its PNG fonts are Latin only
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return False
    try:
        found = subprocess.run([fc_list, ":lang=zh", "family"], capture_output=True, timeout=10).stdout
    except (OSError, subprocess.TimeoutExpired):
        return False
    return bool(found.strip())


def english_png_notice(picture: Path | str) -> str:
    return _("{picture}: drawn with English labels, since this renderer has no Chinese font "
             "(install Graphviz and fonts-noto-cjk to get Chinese PNGs; the SVG is in Chinese)", picture=picture)


def notice(message: str) -> None:
    """One line on stderr (stdout may be a JSON report)."""
    print(f"micrograph.viz: {message}", file=sys.stderr)


def write(
    source: str, directory: str | Path, stem: str, formats: tuple[str, ...], timeout: float,
    english: str | None = None,
) -> list[str]:
    """Write ``stem.gv``, then render each format within ``timeout`` seconds in all; the paths written.

    ``english``: the same diagram with English labels, for a PNG this renderer cannot draw in Chinese.
    """
    if not isinstance(stem, str) or not _STEM.fullmatch(stem):
        raise ValueError(f"stem must be a plain file name (letters, digits, _ . -), got {stem!r:.60}")
    if not isinstance(formats, (list, tuple)) or not all(f in FORMATS for f in formats):
        raise ValueError(f"formats must be a tuple drawn from {FORMATS}, got {formats!r:.60}")
    if not isinstance(timeout, (int, float)) or not timeout > 0:
        raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r:.60}")
    folder = Path(directory)
    folder.mkdir(parents=True, exist_ok=True)
    gv = folder / f"{stem}.gv"
    gv.write_text(source, encoding="utf-8")
    written = [str(gv)]
    plain = folder / f"{stem}.en.gv"
    plain.unlink(missing_ok=True)
    if not formats:
        return written
    renderer = find_renderer()
    if renderer is None:
        notice(f"{NO_RENDERER}; wrote {gv}")
        return written
    deadline = time.monotonic() + timeout
    for fmt in formats:
        out = folder / f"{stem}.{fmt}"
        out.unlink(missing_ok=True)  # a stale picture from an earlier run must not pass for this one
        extra = [f"-Gdpi={PNG_DPI}"] if fmt == "png" else []
        given = gv
        if fmt == "png" and english is not None and not draws_cjk(renderer):
            plain.write_text(english, encoding="utf-8")
            given = plain
            notice(english_png_notice(out))
        _output, error = run(renderer, [f"-T{fmt}", *extra, "-o", str(out), str(given)], deadline - time.monotonic(), timeout)
        plain.unlink(missing_ok=True)
        if error is None and out.is_file():
            if fmt == "svg":
                out.write_bytes(finish_svg(out.read_bytes(), renderer))
            written.append(str(out))
        else:
            out.unlink(missing_ok=True)  # a renderer killed mid-way leaves a broken file
            notice(f"could not render {out}: {error or 'the renderer wrote nothing'}")
    return written


def run(renderer: str, args: list[str], seconds: float, limit: float, stdin: bytes | None = None) -> tuple[bytes, str | None]:
    """(stdout, None) or (b"", a one-line reason); ``limit`` is the total budget, for the message."""
    if seconds <= 0:
        return b"", f"no time left of the {limit:g} s limit"
    try:
        proc = subprocess.run([renderer, *args], input=stdin, capture_output=True, timeout=seconds)
    except subprocess.TimeoutExpired:
        return b"", f"timed out after {limit:g} s"
    except OSError as exc:
        return b"", f"{renderer} could not run ({exc.strerror or exc})"
    if proc.returncode != 0:
        lines = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        return b"", f"{Path(renderer).name} exited with status {proc.returncode}" + (f": {lines[0]}" if lines else "")
    return proc.stdout, None
