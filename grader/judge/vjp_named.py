"""A custom Function whose backward is spelled ``vjp`` (torch's other name for it) is named by that spelling.

The probes' labels and the sentences name the method the engine runs at a Function's node
``<Class>.backward``, the statement's spelling; a class that defines ``vjp`` in its place has no
``backward`` of its own, and feedback naming one would send the student looking for code they never
wrote.  Which classes do is read from the file the child ran (``source_tree``), and their names are
rewritten in each test's feedback, in whichever language it was told (the method's name is code,
never translated)."""

from __future__ import annotations

import ast
import re

_METHOD = re.compile(r"\b(?P<cls>[A-Za-z_]\w*)\.backward\b")


def _defined(body: list[ast.stmt]) -> set[str]:
    """The names a class body binds itself: its methods, and names assigned at its top level."""
    names = {s.name for s in body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))}
    for s in body:
        targets = s.targets if isinstance(s, ast.Assign) else [s.target] if isinstance(s, ast.AnnAssign) else []
        names |= {t.id for t in targets if isinstance(t, ast.Name)}
    return names


def vjp_classes(tree: ast.Module | None) -> frozenset[str]:
    """The classes of ``tree`` whose own body defines ``vjp`` and no ``backward``: the engine runs their
    ``vjp`` (one defining both is refused with torch's error, which names both)."""
    if tree is None:
        return frozenset()
    return frozenset(node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
                     and {"vjp"} <= _defined(node.body) and "backward" not in _defined(node.body))


def vjp_named(feedback: str, classes: frozenset[str]) -> str:
    """``feedback`` with ``<Class>.backward`` said ``<Class>.vjp`` for each class of ``classes``."""
    if not classes:
        return feedback
    return _METHOD.sub(lambda m: f"{m['cls']}.vjp" if m["cls"] in classes else m[0], feedback)
