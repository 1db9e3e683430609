"""Calls that look a name up, read as what they stand for when every name they are given is
written out in the source: ``__import__("math")`` as ``import math``, ``attrgetter("data")`` as
``x.data``, ``functools.wraps(g)`` as copying the attributes it names.  What such a call then
reaches is what the statement would, and ``grader.sandbox.reach`` finds it the same way; a call
given any other name (computed as the code runs, or private) is read as a reach of its own."""

from __future__ import annotations

import ast

from grader.sandbox.child.internals import HIDDEN_DUNDERS, NAMES, ungraded

GETTERS = ("attrgetter", "methodcaller")
"""``operator``'s lookups of an attribute (and a call of it) by the name they are given: with
public names written out, the lookup ``x.name`` written out would make."""
WRITTEN_OUT = ("__import__", *GETTERS)
"""The calls refused only where a name they are given is not written out (or not public), or
where they are handed on uncalled: what a refusal of one of them names."""


def literal_strings(nodes: list[ast.expr]) -> list[str]:
    """The strings ``nodes`` are, where every one is a string written out; else none."""
    strings = [n.value for n in nodes if isinstance(n, ast.Constant) and type(n.value) is str]
    return strings if len(strings) == len(nodes) else []


def getter_names(node: ast.Call, attrgetter: bool) -> list[str] | None:
    """The attribute names a call of ``operator.attrgetter`` (else ``methodcaller``) looks up,
    split at their dots, where each is written out and public (``"data"``, ``"grad_fn.name"``):
    the names ``x.data`` or ``x.grad_fn.name`` written out would look up; None for a call given
    any other name (computed, starred, private or special: ``"_grad"``, ``"__dict__"``)."""
    if attrgetter and node.keywords:
        return None
    given = node.args if attrgetter else node.args[:1]  # methodcaller's others are the call's arguments
    strings = literal_strings(given)
    parts = [part for name in strings for part in (name.split(".") if attrgetter else [name])]
    if not strings or not all(p.isidentifier() and not p.startswith("_") for p in parts):
        return None
    return parts


def imported_name(node: ast.Call) -> str | None:
    """The module a call of ``__import__`` imports, where it is ``__import__("name")`` with only
    a module's dotted name written out: it binds what ``import name`` would; None for any other
    call (a computed name, ``fromlist``, ``globals()``...)."""
    strings = literal_strings(node.args) if len(node.args) == 1 and not node.keywords else []
    if not strings or not all(part.isidentifier() for part in strings[0].split(".")):
        return None
    return strings[0]


def copies_literal_names(node: ast.Call, update_wrapper: bool) -> bool:
    """Whether a call of ``functools.update_wrapper`` (else ``wraps``) copies only attributes it
    names by literal strings, none of them grading's internals, a namespace or a private name
    (or the defaults, which are such): the names ``assigned`` and ``updated`` are looked up with
    the real ``getattr``."""
    if any(k.arg is None for k in node.keywords) or any(isinstance(a, ast.Starred) for a in node.args):
        return False
    named = [k.value for k in node.keywords if k.arg in ("assigned", "updated")]
    given = node.args[2 if update_wrapper else 1:] + named
    return all(isinstance(names, (ast.Tuple, ast.List)) and all(plain_name(e) for e in names.elts) for names in given)


def plain_name(node: ast.AST) -> bool:
    """Whether ``node`` is a literal attribute name that reaches nothing of grading's."""
    if not isinstance(node, ast.Constant) or type(node.value) is not str:
        return False
    name = node.value
    private = name.startswith("_") and not (name.startswith("__") and name.endswith("__"))
    return name not in NAMES and name not in HIDDEN_DUNDERS and not private


def own_key(node: ast.AST) -> bool:
    """Whether ``node`` is a literal name a method may write into its own object's namespace
    (``'was_enabled'``, ``'_memo'``): none of grading's names and no special name.  Writing it is
    what ``self._memo = ...`` and ``setattr(self, '_memo', ...)`` do, both allowed; a module's or
    a class's namespace handed in as ``self`` is a view that refuses every write (``child.guard``)."""
    return isinstance(node, ast.Constant) and type(node.value) is str and ungraded(node.value)


MAGIC_CALLS = ("run_line_magic", "run_cell_magic", "magic")  # IPython's, as Jupyter's export writes a magic


def magic_name(node: ast.Call, own: set[str]) -> list[ast.expr]:
    """The magic's name ``get_ipython().run_line_magic("timeit", ...)`` (or ``run_cell_magic``,
    ``magic``) is given, written out and public, as Jupyter's "Download as .py" writes ``%timeit
    f()``: a magic's name, not an attribute's.  Only where the source binds no ``get_ipython``
    of its own (``own``): the call then raises NameError before it runs, no module a submission
    may import defining it.  None for any other call: an empty list."""
    func = node.func
    name = node.args[0] if node.args else None
    return [name] if (isinstance(func, ast.Attribute) and func.attr in MAGIC_CALLS and isinstance(func.value, ast.Call)
                      and isinstance(func.value.func, ast.Name) and func.value.func.id == "get_ipython"
                      and "get_ipython" not in own and not func.value.args and not func.value.keywords
                      and isinstance(name, ast.Constant) and type(name.value) is str and name.value.isidentifier()
                      and not name.value.startswith("_")) else []
