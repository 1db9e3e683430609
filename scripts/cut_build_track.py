"""Cut the build track's stubs and solutions from its one marked reference engine.

The build track (ex16-ex22) has the student write a small engine, stage by stage.  Each stage's
solution is the reference engine ``solutions/build/engine.py`` cut at that stage, and each
stage's stub is that solution with the bodies the student writes replaced by a ``# TODO`` and
``raise NotImplementedError``.  Cutting both from one file keeps the seven stages and the
reference in step; ``tests/exercises/test_build_track.py`` fails when a committed file is not
what this script writes.

Markers are comments at the end of a line (a statement's first or last line, or a ``def``/
``class`` line, which then covers the whole definition):

    #@N   a function the student writes from stage N on (absent before it)
    #+N   given from stage N on (absent before it)
    #-N   given before stage N only (a simpler version a later stage replaces)
    #=N   a ``# TODO`` line shown only in stage N's stub

Inside a student's function, ``# TODO`` lines are the stub's and never the solution's; a stage
after the function's own shows its ``#=N`` lines, or says to paste the earlier answer.

    python scripts/cut_build_track.py          # write exercises/ex16_*.py ... and solutions/
    python scripts/cut_build_track.py --check  # exit 1 if a committed file differs
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "solutions" / "build" / "engine.py"
STATEMENTS = ROOT / "solutions" / "build" / "statements"
PLACEHOLDER = '"""STATEMENT"""'
MARKER = re.compile(r"\s*#([-+=@])(\d)\s*$")
TODO = re.compile(r"^\s*# TODO")


class Stage(NamedTuple):
    number: int
    id: str
    module: str


STAGES = (
    Stage(1, "ex16", "ex16_build_value"),
    Stage(2, "ex17", "ex17_build_backward"),
    Stage(3, "ex18", "ex18_build_retain_grad"),
    Stage(4, "ex19", "ex19_build_accumulation"),
    Stage(5, "ex20", "ex20_build_saved_values"),
    Stage(6, "ex21", "ex21_build_inplace"),
    Stage(7, "ex22", "ex22_build_no_grad_hooks"),
)
ID_OF = {s.number: s.id for s in STAGES}


@dataclass(frozen=True)
class Definition:
    """A ``def`` or ``class`` of the reference, with the marker on its line."""

    name: str  # qualified: "Value.__add__"
    first: int  # its first line (a decorator's), 1-based
    last: int
    body: int  # the first line after its docstring
    kind: str  # a marker's sign, or "" when unmarked
    stage: int


def _marker(line: str) -> tuple[str, int] | None:
    found = MARKER.search(line)
    return (found.group(1), int(found.group(2))) if found else None


def _definitions(tree: ast.Module, lines: list[str]) -> list[Definition]:
    found: list[Definition] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.ClassDef)):
                marker = _marker(lines[child.lineno - 1]) or ("", 0)
                first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                doc = child.body[0]
                has_doc = isinstance(doc, ast.Expr) and isinstance(doc.value, ast.Constant)
                body = (doc.end_lineno or doc.lineno) + 1 if has_doc else child.body[0].lineno
                found.append(Definition(prefix + child.name, first, child.end_lineno or child.lineno,
                                        body, marker[0], marker[1]))
                visit(child, prefix + child.name + ".")

    visit(tree, "")
    return found


def _present(kind: str, stage: int, at: int) -> bool:
    """Whether a line or definition with this marker is in stage ``at``."""
    if kind in ("@", "+"):
        return at >= stage
    if kind == "-":
        return at < stage
    return True


def _statement_ranges(tree: ast.Module, lines: list[str]) -> dict[int, tuple[int, str, int]]:
    """Each marked statement (not a definition) by its first line: (last line, sign, stage)."""
    ranges: dict[int, tuple[int, str, int]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and not isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            last = node.end_lineno or node.lineno
            marker = _marker(lines[last - 1]) or _marker(lines[node.lineno - 1])
            if marker is not None and marker[0] in "+-" and last > node.lineno:
                ranges[node.lineno] = (last, *marker)
    return ranges


def cut(reference: str, statement: str, at: int, *, stub: bool) -> str:
    """The reference engine at stage ``at``: its solution, or (``stub``) its stub."""
    lines = reference.splitlines()
    tree = ast.parse(reference)
    definitions = _definitions(tree, lines)
    dropped: set[int] = set()  # 1-based line numbers
    replaced: dict[int, list[str]] = {}  # a stub body's first line -> what stands for the body
    for d in definitions:
        if not _present(d.kind, d.stage, at):
            dropped.update(range(d.first, d.last + 1))
    for first, (last, kind, stage) in _statement_ranges(tree, lines).items():
        if not _present(kind, stage, at):
            dropped.update(range(first, last + 1))
    for number, line in enumerate(lines, 1):
        marker = _marker(line)
        if marker is None or number in dropped:
            continue
        kind, stage = marker
        if (kind == "=" and not (stub and stage == at)) or not _present(kind, stage, at):
            dropped.add(number)
    for d in definitions:
        if d.kind != "@" or not _present(d.kind, d.stage, at) or d.first in dropped:
            continue
        body = [n for n in range(d.body, d.last + 1) if n not in dropped]
        todos = [n for n in body if TODO.match(lines[n - 1])]
        dropped.update(todos)
        if not stub:
            continue
        shown = [lines[n - 1] for n in todos if _marker(lines[n - 1]) or d.stage == at]
        indent = re.match(r"\s*", lines[body[0] - 1]).group(0) if body else " " * 8
        last = _last_change(d, lines, at)  # the stage whose answer this body is: its error names it
        owner = at if any(_marker(t) for t in shown) else last
        if d.stage < at:  # paste the answer of the last stage that changed this body
            then = ", then:" if shown else ""
            shown = [f"{indent}# TODO: your {ID_OF[last]} answer{then}", *shown]
        replaced[d.body] = [*shown, f'{indent}raise NotImplementedError("{ID_OF[owner]}: {d.name}")']
        dropped.update(n for n in body)
    out: list[str] = []
    for number, line in enumerate(lines, 1):
        if number in replaced:
            out += [MARKER.sub("", t) for t in replaced[number]]
        if number not in dropped:
            out.append(MARKER.sub("", line))
    text = "\n".join(_tidy(out)) + "\n"
    return text.replace(PLACEHOLDER, '"""' + statement.strip() + '\n"""', 1)


def _last_change(d: Definition, lines: list[str], at: int) -> int:
    """The last stage before ``at`` whose solution of ``d`` differs from the stage before it: its
    own, or one whose ``+``/``-`` marker sits inside it (``=`` lines are the stubs' only)."""
    changes = [m[1] for n in range(d.first, d.last + 1) if (m := _marker(lines[n - 1])) and m[0] in "+-"]
    return max([d.stage, *(stage for stage in changes if stage < at)])


def _tidy(lines: list[str]) -> list[str]:
    """At most two blank lines in a row, one before an indented line (where a definition was cut),
    none at the end (where the last definitions were cut)."""
    out: list[str] = []
    for line in lines:
        if line.strip():
            blank = 0
            while out and not out[-1].strip():
                blank += 1
                out.pop()
            keep = min(blank, 1 if line.startswith(" ") else 2)
            out += [""] * keep
        out.append(line)
    while out and not out[-1].strip():
        out.pop()
    return out


PARTS = ROOT / "grader" / "spec" / "build_parts.py"
STUB_PART = re.compile(r'raise NotImplementedError\("(ex\d+): ([\w.]+)"\)')
PARTS_HEADER = '''"""Whose part of the engine each function of a build-track stage's file is: by stage, each
function the student writes and the stage whose answer it is (the stage's stub says so in its
NotImplementedError).  Written by scripts/cut_build_track.py: the grader names the stage of a
function that raised (grader.judge.explain).
"""

PARTS: dict[str, dict[str, str]] = {
'''


def parts_source(stubs: dict[str, str]) -> str:
    """``grader/spec/build_parts.py`` for the stubs of each stage (by exercise id)."""
    rows = []
    for exercise, text in stubs.items():
        found = dict((name, owner) for owner, name in STUB_PART.findall(text))
        rows.append(f"    {exercise!r}: {{\n" + "".join(f"        {n!r}: {o!r},\n" for n, o in found.items()) + "    },\n")
    return PARTS_HEADER + "".join(rows) + "}\n"


def files() -> dict[Path, str]:
    """Every file the track's stages are: stubs and solutions, by path, and the table of parts."""
    reference = REFERENCE.read_text(encoding="utf-8")
    written: dict[Path, str] = {}
    stubs: dict[str, str] = {}
    for stage in STAGES:
        statement = (STATEMENTS / f"{stage.id}.txt").read_text(encoding="utf-8")
        for folder, stub in (("exercises", True), ("solutions", False)):
            written[ROOT / folder / f"{stage.module}.py"] = cut(reference, statement, stage.number, stub=stub)
        stubs[stage.id] = written[ROOT / "exercises" / f"{stage.module}.py"]
    written[PARTS] = parts_source(stubs)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a committed file differs")
    args = parser.parse_args(argv)
    stale = []
    for path, text in files().items():
        current = path.read_text(encoding="utf-8") if path.is_file() else None
        if current == text:
            continue
        stale.append(path.relative_to(ROOT))
        if not args.check:
            path.write_text(text, encoding="utf-8")
    verb = "differs" if args.check else "written"
    for path in stale:
        print(f"{path}: {verb}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
