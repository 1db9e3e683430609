"""The grader's layout keeps its promises: the trust boundary is a folder boundary,
modules import each other without a cycle, and every module and function stays small.

* code that runs inside the untrusted child (``grader/sandbox/child/``, ``grader/spec/`` and the
  exercise modules in ``grader/exercises/``) imports nothing from the parent side of ``grader``;
* importing the child's entry point loads no parent-side module (checked in a fresh process);
* no import cycle inside ``grader/``, counting imports inside functions too;
* no module over 400 lines, no function over 60.
"""

from __future__ import annotations

import ast
import functools
import graphlib
import json
import subprocess
import sys
from pathlib import Path

import grader

PACKAGE = Path(grader.__file__).resolve().parent
CHILD_SIDE = ("grader.sandbox.child", "grader.spec")  # the packages the child may load
MAX_MODULE_LINES, MAX_FUNCTION_LINES = 400, 60


def _name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
def _sources() -> dict[str, str]:
    """Each grader module's text, by module name: read when a test first asks, so that the
    pytest-xdist worker that only collects this module does not parse the whole grader."""
    return {_name(p): p.read_text(encoding="utf-8") for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(tree: ast.Module, modules: dict[str, str]) -> set[str]:
    """The grader modules (of ``modules``) a module imports, anywhere in it (functions included)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "grader")
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "relative imports hide where code comes from"
            if node.module and node.module.split(".")[0] == "grader":
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    found.add(sub if sub in modules else node.module)
    return found


def _long_functions(name: str, tree: ast.Module) -> dict[str, int]:
    """The functions of module ``name`` over ``MAX_FUNCTION_LINES`` lines (decorators counted), with their size."""
    long = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([d.lineno for d in node.decorator_list] + [node.lineno])
            size = (node.end_lineno or node.lineno) - first + 1
            if size > MAX_FUNCTION_LINES:
                long[f"{name}.{node.name}"] = size
    return long


@functools.cache
def _layout() -> tuple[dict[str, set[str]], dict[str, int]]:
    """Module -> the grader modules it imports (itself left out), and the functions too long:
    each module parsed once, and its tree let go.  Kept, the trees of the whole grader were half
    a million objects that every later garbage collection of the worker walked again (a probe
    run in the worker collects at each freed-id search: tens of times slower)."""
    graph: dict[str, set[str]] = {}
    long: dict[str, int] = {}
    for name, text in _sources().items():
        tree = ast.parse(text)
        graph[name] = {m for m in _imports(tree, _sources()) if m != name}
        long.update(_long_functions(name, tree))
    return graph, long


def _graph() -> dict[str, set[str]]:
    """Module -> the grader modules it imports (itself left out)."""
    return _layout()[0]


def _on_child_side(module: str) -> bool:
    return module == "grader" or any(module == p or module.startswith(p + ".") for p in CHILD_SIDE)


def test_child_side_code_imports_nothing_from_the_parent_side() -> None:
    runs_in_child = [m for m in _sources() if _on_child_side(m) or m.startswith("grader.exercises.")]
    assert "grader.sandbox.child.main" in runs_in_child and "grader.exercises.ex01" in runs_in_child
    crossing = {m: sorted(i for i in _graph()[m] if not _on_child_side(i)) for m in runs_in_child}
    assert {m: i for m, i in crossing.items() if i} == {}


def test_the_childs_entry_point_loads_no_parent_side_module() -> None:
    code = ("import json, sys\nimport grader.sandbox.child.main\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'grader')))")
    out = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True,
                         check=True, cwd=PACKAGE.parent)
    loaded = json.loads(out.stdout)
    assert "grader.sandbox.child.main" in loaded
    assert [m for m in loaded if not _on_child_side(m) and m != "grader.sandbox"] == []


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of ``graph`` (module -> modules it imports), or [] if there is none."""
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as exc:
        return list(exc.args[1])
    return []


def test_no_import_cycle_inside_the_grader() -> None:
    graph = {name: {m for m in imports if m in _sources()} for name, imports in _graph().items()}
    assert _cycle(graph) == []


def test_the_cycle_finder_finds_cycles() -> None:
    assert sorted(_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}})) == ["a", "a", "b", "c"]
    assert _cycle({"a": {"b"}, "b": set()}) == []


def test_modules_and_functions_stay_small() -> None:
    long_modules = {name: text.count("\n") for name, text in _sources().items()
                    if text.count("\n") > MAX_MODULE_LINES}
    assert long_modules == {} and _layout()[1] == {}
