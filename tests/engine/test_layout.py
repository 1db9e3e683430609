"""The engine's package layout: the rules that keep it readable.

* no module is named like a standard-library module (``python`` run from inside
  the package would import ours instead of the standard one);
* grad mode is read and switched only through ``grad_mode``'s public functions;
* the modules import each other without a cycle, except the one documented seam:
  ``Value.backward`` imports the engine when called (the engine works on Values);
* docs/engine.md's reading path through ``y.backward()`` names real code, under 300 lines.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pathlib
import re
import sys

import micrograph

PACKAGE = pathlib.Path(micrograph.__file__).parent
SEAMS = {  # importer, imported: allowed late imports
    ("micrograph.value", "micrograph.engine"),
    # Value's extra methods (tensor_api, a base class of Value) hand over to the modules that
    # declare those ops, which build on Value.
    ("micrograph.tensor_api", "micrograph.boolean"),
    ("micrograph.tensor_api", "micrograph.ops_extra"),
    ("micrograph.tensor_api", "micrograph.reductions"),
    ("micrograph.tensor_api", "micrograph.ops_derivatives"),
    ("micrograph.tensor_shape", "micrograph.views"),
    ("micrograph.tensor_api", "micrograph.spread"),
}


def _modules() -> dict[str, ast.Module]:
    trees = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        trees[name] = ast.parse(path.read_text(encoding="utf-8"))
    return trees


def _imports(tree: ast.Module, module_level: bool) -> set[str]:
    """micrograph modules imported at module level (outside TYPE_CHECKING) or inside functions."""
    found: set[str] = set()

    def visit(node: ast.AST, in_function: bool) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)) and in_function != module_level:
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("micrograph"):
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    found.add(sub if sub in trees else node.module)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names if a.name.startswith("micrograph"))
        inside = in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        for child in ast.iter_child_nodes(node):
            visit(child, inside)

    visit(tree, False)
    return found


trees = _modules()


def test_no_module_shadows_the_standard_library() -> None:
    clashes = [name for name in trees if name.rsplit(".", 1)[-1] in sys.stdlib_module_names]
    assert clashes == []


def test_grad_mode_is_used_through_its_public_functions() -> None:
    readers = [
        name for name, tree in trees.items()
        if name != "micrograph.grad_mode"
        and any(isinstance(n, (ast.Name, ast.alias)) and getattr(n, "id", getattr(n, "name", "")) == "_mode"
                for n in ast.walk(tree))
    ]
    assert readers == []


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of ``graph`` (module -> modules it imports), or [] if there is none."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(name: str) -> list[str]:
        state[name] = 1
        path.append(name)
        for nxt in sorted(graph.get(name, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[name] = 2
        return []

    for name in sorted(graph):
        if name not in state and (found := visit(name)):
            return found
    return []


def test_module_imports_have_no_cycle_but_the_documented_seam() -> None:
    graph = {
        name: {m for m in _imports(tree, True) | _imports(tree, False)
               if m in trees and m != name and (name, m) not in SEAMS}
        for name, tree in trees.items()
    }
    graph["micrograph"] = set()  # the package re-exports; submodules only import their siblings
    assert _cycle(graph) == []


def test_the_seam_is_a_late_import() -> None:
    for importer, imported in SEAMS:
        assert imported not in _imports(trees[importer], True)
        assert imported in _imports(trees[importer], False)


READING_PATH_LINES = 300


def _reading_path() -> list[tuple[str, str]]:
    """(module, qualified name) for each entry of docs/engine.md's reading-path table, in order."""
    guide = (PACKAGE.parent / "docs" / "engine.md").read_text(encoding="utf-8")
    section = guide.split("## Reading `y.backward()` in one sitting", 1)[1].split("\n## ", 1)[0]
    entries = []
    for row in re.findall(r"^\| \d+ \| `([\w/]+)\.py` \| (.+?) \|", section, flags=re.M):
        module = row[0].replace("/", ".")
        entries += [(module, name) for name in re.findall(r"`([\w.]+)`", row[1])]
    return entries


def test_the_guide_reading_path_is_real_code_under_300_lines() -> None:
    entries = _reading_path()
    assert [m for m, _ in entries][:1] == ["micrograph.value"] and entries[-1][0] == "micrograph.ops"
    total = 0
    for module, name in entries:
        obj: object = importlib.import_module(module)
        for part in name.split("."):
            obj = getattr(obj, part)
        total += len(inspect.getsourcelines(obj)[0])  # type: ignore[arg-type]
    assert total <= READING_PATH_LINES
