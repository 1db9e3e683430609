"""The core is read in one sitting: what an ordinary program runs of it stays small.

Each program below is traced with ``sys.settrace`` and measured two ways, outside ``viz/`` (which
only draws): every micrograph function it enters, counted with all its lines (docstring included,
from ``def`` to its last line), which is what a reader following the program through the source
has to read; and the distinct lines it executes, which is what that reader must understand.
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path
from types import CodeType, FrameType
from typing import Any, Callable

import pytest

import micrograph as mg

PACKAGE = Path(mg.__file__).resolve().parent
TARGET = 300  # lines of micrograph functions one program should run
# What each program runs today, counted as whole functions, as a ceiling: it may shrink, never grow.  Two are over
# the target (docs/benchmarks.md, "Reading path"); a test that failed on them would stop every change.
CEILING = {"documents_program": 363, "second_backward": TARGET, "leaf_in_place": TARGET, "version_error": TARGET,
           "accumulation_with_hook": 393}
PACKAGE_TARGET = 4190  # lines of micrograph/ outside viz/ and i18n/


def _in_core(code: CodeType) -> bool:
    path = Path(code.co_filename)
    return PACKAGE in path.parents and "viz" not in path.relative_to(PACKAGE).parts


def _trace(program: Callable[[], None], tracer: Callable[[FrameType, str, Any], Any]) -> None:
    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        program()
    finally:
        sys.settrace(previous)


def _spans(program: Callable[[], None]) -> dict[CodeType, int]:
    """Each micrograph function ``program`` entered, with its number of source lines."""
    spans: dict[CodeType, int] = {}

    def tracer(frame: FrameType, event: str, arg: Any) -> None:
        code = frame.f_code
        if code not in spans and _in_core(code):
            last = max(line for _, _, line in code.co_lines() if line is not None)
            spans[code] = last - code.co_firstlineno + 1

    _trace(program, tracer)
    return spans


def _executed(program: Callable[[], None]) -> set[tuple[str, int]]:
    """The distinct micrograph source lines ``program`` executes (a function's ``def`` line for each call)."""
    lines: set[tuple[str, int]] = set()

    def local(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "line":
            lines.add((frame.f_code.co_filename, frame.f_lineno))
        return local

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        if not _in_core(frame.f_code):
            return None
        lines.add((frame.f_code.co_filename, frame.f_code.co_firstlineno))
        return local

    _trace(program, tracer)
    return lines


def documents_program() -> None:
    """The source documents' program: a = w + x, b = w + 1, y = a * b, with retain_grad."""
    w = mg.Value(1.0, requires_grad=True)
    x = mg.Value(2.0, requires_grad=True)
    a = mg.add(w, x)
    a.retain_grad()
    b = mg.add(w, 1)
    y = mg.mul(a, b)
    y.backward()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        print(w.grad, x.grad, a.grad, b.grad)


def second_backward() -> None:
    w = mg.Value(3.0, requires_grad=True)
    y = (w * w).exp()
    y.backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()


def leaf_in_place() -> None:
    w = mg.Value(1.0, requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        w.add_(1)


def version_error() -> None:
    w = mg.Value(1.5, requires_grad=True)
    a = w * 2
    y = a * a
    a.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()


def accumulation_with_hook() -> None:
    w = mg.Value(0.5, requires_grad=True)
    w.register_hook(lambda g: g * 2)
    for _ in range(3):
        loss = (w * w - 1.0) ** 2
        loss.backward()
    with mg.no_grad():
        w -= 0.1 * w.grad
    w.grad.zero_()


PROGRAMS = [documents_program, second_backward, leaf_in_place, version_error, accumulation_with_hook]


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__)
def test_a_program_runs_no_more_lines_of_micrograph_than_its_ceiling(program: Callable[[], None]) -> None:
    spans = _spans(program)
    total = sum(spans.values())
    biggest = sorted(((n, f"{Path(c.co_filename).name}:{c.co_name}") for c, n in spans.items()), reverse=True)[:5]
    assert total <= CEILING[program.__name__], f"{program.__name__} runs {total} lines of micrograph functions; " \
        f"the largest: {biggest}"


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__)
def test_a_program_executes_at_most_the_target_of_distinct_lines(program: Callable[[], None]) -> None:
    executed = _executed(program)
    assert len(executed) <= TARGET, f"{program.__name__} executes {len(executed)} distinct lines of micrograph"


def test_the_tracer_sees_the_engine() -> None:
    """The count is not vacuous: the documents' program enters the engine's loop and the op table."""
    names = {code.co_name for code in _spans(documents_program)}
    assert {"run", "record", "backward"} <= names
    assert len(_executed(documents_program)) > 100


def test_the_package_stays_small() -> None:
    lines = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in PACKAGE.rglob("*.py")
                if not {"viz", "i18n"} & set(p.relative_to(PACKAGE).parts))
    assert lines <= PACKAGE_TARGET, f"micrograph/ outside viz/ and i18n/ has {lines} lines"
    benchmarks = (PACKAGE.parent / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    assert f"is {lines:,} lines (target {PACKAGE_TARGET:,};" in benchmarks, "docs/benchmarks.md states another size"
