"""The imports of a notebook cell that the graded file stands in for: IPython's display names and
the course's ``grader.check``.

Why ``ast``, over the whole logical line: an import is one statement however it is written
(``from IPython.display import (`` on one line and its names on the next ones, ``as`` names,
several names of which only some have a stand-in), and Python's own reading of it is the only one
that cannot disagree with what ran in the notebook.  The names that have a stand-in are taken out
of the import; the rest stay imported, as written, so the import fails when graded only for them
and the notes name only them.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Callable

_DISPLAY_MODULES = ("IPython.display", "IPython.core.display")
MODULE = "IPython.display"  # the module itself, imported under a name of its own (``import IPython.display as ipd``)
PACKAGE = "IPython"  # the package, bound by ``import IPython.display`` (``IPython.display.display(...)``)
_GRADER_MODULES = ("grader", "grader.notebook_check")
_TEXT = 'class {name}: __init__ = lambda self, data=None, *args, **options: setattr(self, "data", data); ' \
        '__repr__ = lambda self: str(self.data)'
_DISPLAY = ("type('display', (), {{'display': staticmethod(lambda *objects, **options: print(*map(repr, objects), "
            "sep='\\n')), 'clear_output': staticmethod(lambda *args, **options: None), **dict.fromkeys(('Markdown', "
            "'HTML', 'Latex', 'Math'), type('Text', (), {{'__init__': lambda self, data=None, *args, **options: "
            "setattr(self, 'data', data), '__repr__': lambda self: str(self.data)}}))}})")
STAND_INS = {
    "display": 'def {name}(*objects, **options): print(*map(repr, objects), sep="\\n")',
    **dict.fromkeys(("Markdown", "HTML", "Latex", "Math"), _TEXT),
    "clear_output": "def {name}(*args, **options): pass",
    MODULE: "{name} = " + _DISPLAY,
    PACKAGE: "class {name}: display = " + _DISPLAY + "; core = type('core', (), {{'display': display}})",
}
"""The graded file's first lines (after its ``__future__`` imports), one per name of IPython's a
cell uses, bound to the name the cell gave it: Jupyter's own display shows each object it is
given, its repr where the object has no richer form (a Value, a dict of them), which this prints
to the output the grade shows; a Markdown (HTML, Latex, Math) is shown as its text; clearing the
output of a cell has nothing to clear in a grade; the module imported under a name of its own
holds those names (``ipd.display(...)``, ``ipd.Markdown(...)``), and so does the package's
``display`` (and ``core.display``) where ``import IPython.display`` bound the package."""
_CHECK = "staticmethod(lambda *args, **options: None)"
GRADER_STAND_INS = {
    "grader": f"class {{name}}: check = {_CHECK}; notebook_check = type('notebook_check', (), {{{{'check': check}}}})",
    "check": "def {name}(*args, **options): return None",
}
"""The course's ``grader`` (or its ``notebook_check`` module) and its ``check``, bound to the
names a cell imported them as (or ``grader`` where a cell calls ``grader.check`` without
importing it): checking is what the notebook did for itself while the student worked; when
graded, the cells are what is graded, so every spelling of the call (``print(grader.check(...))``,
``result = check(...)``, ``g.check``, ``grader.notebook_check.check``) runs and does nothing, and
its import, which a submission may not make, is no longer there."""


@dataclass
class Import:
    """One import statement split: the (bound name, stand-in kind) pairs taken out of it, and the
    statement left of it (None when nothing is left)."""

    stood_in: list[tuple[str, str]] = field(default_factory=list)
    kept: str | None = None


def _statement(lines: list[str]) -> ast.Import | ast.ImportFrom | None:
    """The import a logical line is, when it is one import statement and nothing else."""
    if not any("import" in line for line in lines):  # most lines: no parse
        return None
    try:
        body = ast.parse("\n".join([lines[0].lstrip()] + lines[1:])).body
    except (SyntaxError, ValueError):
        return None
    return body[0] if len(body) == 1 and isinstance(body[0], (ast.Import, ast.ImportFrom)) else None


def ipython_kind(statement: ast.Import | ast.ImportFrom, alias: ast.alias) -> str | None:
    """The stand-in an imported name of IPython's gets (``STAND_INS``): the names of
    ``IPython.display`` there, display imported from IPython itself, and the module
    ``IPython.display`` imported as a name of its own, or the package its import binds."""
    if isinstance(statement, ast.Import):
        return None if alias.name not in _DISPLAY_MODULES else MODULE if alias.asname else PACKAGE
    if statement.level or alias.name not in STAND_INS:
        return None
    module = statement.module or ""
    return alias.name if module in _DISPLAY_MODULES or alias.name == "display" and module in (
        "IPython", "IPython.core") else None


def grader_kind(statement: ast.Import | ast.ImportFrom, alias: ast.alias) -> str | None:
    """The stand-in an imported name of the course's grader gets: ``check`` for the function,
    ``grader`` for the package or its ``notebook_check`` module (each has ``check``)."""
    if isinstance(statement, ast.Import):
        return "grader" if alias.name in _GRADER_MODULES else None
    if statement.level or statement.module not in _GRADER_MODULES:
        return None
    if alias.name == "check":
        return "check"
    return "grader" if statement.module == "grader" and alias.name == "notebook_check" else None


def _bound(statement: ast.Import | ast.ImportFrom, alias: ast.alias) -> str:
    """The name an imported name is bound to in the cell (``import grader.notebook_check`` binds
    ``grader``)."""
    return alias.asname or (alias.name.split(".")[0] if isinstance(statement, ast.Import) else alias.name)


def split(lines: list[str], kind_of: Callable[[ast.Import | ast.ImportFrom, ast.alias], str | None]
          ) -> Import | None:
    """The logical line ``lines`` split into what is stood in and what is kept, when it imports
    names that have a stand-in (``kind_of`` gives an imported name's: ``ipython_kind``,
    ``grader_kind``); None when it does not."""
    statement = _statement(lines)
    if statement is None:
        return None
    found = Import()
    kept = []
    for alias in statement.names:
        kind = kind_of(statement, alias)
        if kind is None:
            kept.append(alias)
        else:
            found.stood_in.append((_bound(statement, alias), kind))
    if not found.stood_in:
        return None
    if kept:
        statement.names = kept
        found.kept = ast.unparse(statement)
    return found


def not_there(line: str) -> list[str]:
    """The names an import of IPython's left in the graded file imports (none of them has a
    stand-in: ``split`` took those out); none for a line that is no such import."""
    statement = _statement([line])
    if isinstance(statement, ast.ImportFrom) and not statement.level and _ipython(statement.module or ""):
        return [f"{statement.module}.*" if alias.name == "*" else alias.name for alias in statement.names]
    return ["IPython"] if isinstance(statement, ast.Import) and any(_ipython(a.name) for a in statement.names) else []


def _ipython(module: str) -> bool:
    """Whether ``module`` is IPython or one of its modules (not a module named IPythonish)."""
    return module == "IPython" or module.startswith("IPython.")
