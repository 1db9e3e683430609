"""A test module with its hidden tests taken out: what a student release ships, and what
Gradescope's public run holds in memory.

Probes run inside the student's process, so whatever a test module holds can be read by the
submission (the probes' code objects and constants are right there in memory).  Shipping the
public tests only, and running them in a child that never saw the hidden ones, is what keeps
hidden tests hidden.

The module is rewritten from its syntax tree: the ``@EXERCISE.test(..., public=True)`` probes,
the ``@EXERCISE.diagram`` probe and the ``EXERCISE = Exercise(...)`` line stay, with exactly the
helpers, constants and imports they use (found by name, to a fixed point; a function's own
parameters and locals are its own, read from its symbol table); hidden probes,
helpers only they use, comments and the module docstring go.  The result is loaded and checked:
it must declare exactly the public tests, else ``StripError``.  (Module-level data shared by a
public and a hidden probe ships whole: keep hidden inputs out of shared constants.)
"""

from __future__ import annotations

import ast
import symtable
import sys
import tempfile
from pathlib import Path

from grader.course import catalog
from grader.course.catalog import CatalogError, LoadedExercise


class StripError(Exception):
    """A test module whose hidden tests cannot be removed safely; one line for the user."""


def _decorator_kind(node: ast.expr) -> tuple[str, bool | None] | None:
    """("test", public) for ``@EXERCISE.test(...)``, ("diagram", None) for
    ``@EXERCISE.diagram``, None for anything else."""
    target = node.func if isinstance(node, ast.Call) else node
    if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
            and target.value.id == "EXERCISE"):
        return None
    if target.attr == "diagram":
        return "diagram", None
    if target.attr != "test" or not isinstance(node, ast.Call):
        return None
    for keyword in node.keywords:
        if keyword.arg == "public":
            if not isinstance(keyword.value, ast.Constant) or type(keyword.value.value) is not bool:
                raise StripError("public= must be written True or False")
            return "test", keyword.value.value
    return "test", False


def _defined(node: ast.stmt) -> set[str]:
    """Names a top-level statement binds."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
        targets = [node.target]
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def _used(node: ast.AST, scopes: dict[tuple[str, int], symtable.SymbolTable]) -> set[str]:
    """The module-level names a top-level statement reads.  A function's body is read through
    its symbol table (``scopes``), so that a parameter or local of the same name as a hidden probe
    (``leaf``) does not keep that probe; its decorators, defaults and annotations are read at
    module level."""
    table = scopes.get((node.name, node.lineno)) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
    if table is None:
        return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    arguments = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs, node.args.vararg, node.args.kwarg]
    outside = [*node.decorator_list, *node.args.defaults, *(d for d in node.args.kw_defaults if d is not None),
               *(a.annotation for a in arguments if a is not None and a.annotation is not None),
               *([node.returns] if node.returns is not None else [])]
    return {n.id for part in outside for n in ast.walk(part) if isinstance(n, ast.Name)} | _globals_of(table)


def _globals_of(table: symtable.SymbolTable) -> set[str]:
    """The module-level names a function's scope, or a scope nested in it, reads."""
    own = {symbol.get_name() for symbol in table.get_symbols() if symbol.is_global() and symbol.is_referenced()}
    return own.union(*(_globals_of(child) for child in table.get_children()))


def _required(node: ast.stmt) -> bool:
    """Statements that always stay (None: keep only if something uses what they define)."""
    if isinstance(node, ast.ImportFrom) and node.module == "__future__":
        return True
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        kinds = [k for d in node.decorator_list if (k := _decorator_kind(d))]
        if kinds:
            return kinds[0][0] == "diagram" or bool(kinds[0][1])
        return False
    if "EXERCISE" in _defined(node):
        return True
    if isinstance(node, (ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign, ast.AugAssign)):
        return False
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
        return False  # the module docstring, or a stray string
    raise StripError(f"line {node.lineno}: only imports, assignments and definitions can be "
                     "separated into public and hidden tests")


def _public_statements(tree: ast.Module, source: str) -> list[ast.stmt]:
    scopes = {(t.get_name(), t.get_lineno()): t for t in symtable.symtable(source, "<tests>", "exec").get_children()
              if t.get_type() == "function"}
    keep = {i for i, node in enumerate(tree.body) if _required(node)}
    while True:
        used = set().union(*(_used(tree.body[i], scopes) for i in keep))
        more = {i for i, node in enumerate(tree.body) if i not in keep and _defined(node) & used}
        if not more:
            return [node for i, node in enumerate(tree.body) if i in keep]
        keep |= more


def _placeholder(count: int, points: int | float) -> str:
    return f"\n\nEXERCISE.hidden_elsewhere(count={count!r}, points={points!r})\n"


def public_source(ex: LoadedExercise, *, placeholder: bool) -> str:
    """The source of ``ex``'s test module with only its public tests (see the module doc).

    With ``placeholder``, one line declares how many hidden tests there are and their points
    (``Exercise.hidden_elsewhere``): the grade here shows them as one row "N hidden tests:
    graded on the course autograder", so passing the public tests never reads as full marks.
    """
    spec = ex.spec
    try:
        tree = ast.parse(ex.source)
        body = _public_statements(tree, ex.source)
    except (SyntaxError, StripError) as exc:
        raise StripError(f"{spec.id}: cannot strip its hidden tests: {exc}") from None
    header = (f'"""Public tests of {spec.id}, generated from its test module by the course '
              'autograder.\n\nHidden tests run only on the course autograder."""\n\n')
    source = header + ast.unparse(ast.Module(body=body, type_ignores=[])) + "\n"
    hidden = [t for t in spec.tests if not t.public]
    if placeholder and hidden:
        source += _placeholder(len(hidden), sum(t.points for t in hidden))
    _check(ex, source, placeholder and bool(hidden))
    return source


def _check(ex: LoadedExercise, source: str, placeholder: bool) -> None:
    """Load the generated module and make sure it declares exactly the public tests."""
    module_name = ex.module_name
    previous = sys.modules.get(module_name)
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / f"{ex.spec.id}.py").write_text(source, encoding="utf-8")
        try:
            loaded = catalog.load(ex.spec.id, Path(folder))
        except CatalogError as exc:
            raise StripError(f"{ex.spec.id}: the public-only test module does not load: "
                             f"{exc}") from None
        finally:
            if previous is not None:
                sys.modules[module_name] = previous
            else:
                sys.modules.pop(module_name, None)
    names = [t.name for t in loaded.spec.tests]
    wanted = [t.name for t in ex.spec.tests if t.public]
    declared = loaded.spec.elsewhere.count if loaded.spec.elsewhere else 0
    if names != wanted or declared != (ex.spec.hidden_count if placeholder else 0):
        raise StripError(f"{ex.spec.id}: the public-only test module declares {names}, "
                         f"not the public tests {wanted}")
