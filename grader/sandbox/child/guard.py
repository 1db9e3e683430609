"""The submission's own ``getattr`` and ``hasattr``: a computed name that is one of grading's
internals is refused as it is looked up.

Looking an attribute up by a name the code computes is ordinary Python (``for name in fields:
getattr(v, name)``); it is also the way to reach grading's internals without writing their
names, so the parent's reading of the source (``grader.sandbox.reach``) cannot judge it.  The
submission's module is therefore run with builtins of its own, in which these two look at the
name first: a private one of another module or of the engine's or the grader's objects
(``_observers``; the submission's own objects' are its own), a special name that hands out a
namespace or what is behind a method (``__globals__``, ``__dict__``, ``__self__``), or a name of
``grader.sandbox.child.internals`` raises the audit event ``GUARDED`` (the sentinel flags it
for the instructor) and ``PermissionError``.  Every other name is looked up as usual.  The
engine, the probes and the standard library keep the real builtins.  ``breakpoint()`` left in
while debugging does nothing.
"""

from __future__ import annotations

import ast
import builtins
import importlib.machinery
import importlib.util
import sys
import types
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from grader.sandbox.child import formatting
from grader.sandbox.child.formatting import FORMAT_GUARD, FORMATTING
from grader.sandbox.child.internals import HIDDEN_DUNDERS, INSPECT, NAMES, OS, SYS, ungraded
from grader.sandbox.child.wire import Touch

GUARDED = "grader.guarded"
"""The audit event of a refused name: what it reaches for (a ``Touch`` value) and the name."""

_BY_MODULE = {"os": OS, "sys": SYS, "inspect": INSPECT}


_OURS = ("micrograph", "grader")  # the packages whose private names are grading's


def refused(owner: object, name: object, own: str, written: bool = False) -> Touch | None:
    """What looking up ``name`` on ``owner`` by a computed name would reach, or None; ``own``
    is the submission's module name (its own objects' private names are its business).  A name
    ``written`` out in the call (``getattr(a, "_version", None)``) is read as ``a._version``
    written out is: a private name of the engine's objects that is none of grading's internals
    is the submission's to read, as the parent's reading lets it read it written out."""
    if type(name) is not str:
        return None  # getattr says what is wrong with it
    touch = NAMES.get(name)
    if touch is None and isinstance(owner, types.ModuleType):
        touch = _BY_MODULE.get(_getattr(owner, "__name__", ""), {}).get(name)
    if touch is not None:
        return touch
    if name in HIDDEN_DUNDERS:
        return Touch.DYNAMIC
    private = name.startswith("_") and not (name.startswith("__") and name.endswith("__"))
    return Touch.DYNAMIC if private and not written and _foreign(owner, own) else None


def _foreign(owner: object, own: str) -> bool:
    """Whether ``owner`` is another module than the submission's, or an object (or class)
    of the engine's or the grader's: where a private name is one of grading's internals."""
    if isinstance(owner, types.ModuleType):
        return _getattr(owner, "__name__", None) != own
    home = _getattr(owner if isinstance(owner, type) else type(owner), "__module__", None)
    return type(home) is not str or home.split(".")[0] in _OURS


def _elsewhere(owner: object, own: str) -> bool:
    """Whether ``owner`` is a module or a class that the submission's module ``own`` did not
    make (``object`` included): its namespace is not the submission's to hand on."""
    if isinstance(owner, types.ModuleType):
        return _getattr(owner, "__name__", None) != own
    return isinstance(owner, type) and _getattr(owner, "__module__", None) != own


_getattr, _hasattr, _vars, _round = builtins.getattr, builtins.hasattr, builtins.vars, builtins.round


def _rounded(number: Any, ndigits: Any = None) -> Any:
    """The submission's ``round``: the builtin's result, through a frame of Python code, so that the
    probes see which number was rounded and what came of it (``ROUNDS``)."""
    return _round(number, ndigits)
_REFUSED_KEYS = frozenset(NAMES) | HIDDEN_DUNDERS
_caller = sys._getframe  # vars() without an argument: the caller's locals, as the real one gives
_audit = sys.audit  # bound now: a submission may rebind sys's names (``seal.SYS_REBOUND``)


class _Namespace(Mapping[str, Any]):
    """Another module's or class's namespace as ``vars`` hands it to the submission: every name
    but grading's internals, whose lookup is refused (``_check``) as ``getattr`` refuses it, and
    no write (``_refuse_write``).

    A class's namespace holds what its attributes are made of: ``vars(object)`` holds the
    generic ``__getattribute__`` and ``__setattr__`` that read and write any object's attributes,
    a sealed module's private ones included, by a name computed as the code runs, and a
    descriptor's ``__get__`` and ``__set__`` apply what another class's namespace holds to
    anything.  Read through this view, those names are refused and flagged."""

    def __init__(self, owner: object, namespace: Mapping[str, Any], own: str) -> None:
        self._owner, self._namespace, self._own = owner, namespace, own

    def __getitem__(self, name: str) -> Any:
        _check(self._owner, name, self._own)
        return formatting.guarded(self._owner, name, self._namespace[name],
                                  lambda owner, key: _check(owner, key, self._own))  # vars(str)["format"]

    def __contains__(self, name: object) -> bool:
        return name in self._namespace and refused(self._owner, name, self._own) is None

    def __iter__(self) -> Iterator[str]:
        return iter([k for k in self._namespace if refused(self._owner, k, self._own) is None])

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def copy(self) -> dict[str, Any]:
        return {k: self[k] for k in self}

    def __repr__(self) -> str:
        return repr(self.copy())

    def __setitem__(self, name: str, value: Any) -> None:
        _refuse_write(name)

    def __delitem__(self, name: str) -> None:
        _refuse_write(name)


def _refuse_write(name: object) -> None:
    """A write through the view (``vars(observe)["passes"] = ...``): refused and flagged, as
    ``setattr`` on a sealed module or an engine's class is, whatever the name (a literal
    public one is what ``setattr`` may write, but not here)."""
    _audit(GUARDED, Touch.DYNAMIC.value, name)
    raise PermissionError(f"the grader does not let submitted code reach {Touch.DYNAMIC.value}")


def _check(owner: object, name: object, own: str, written: bool = False) -> None:
    touch = refused(owner, name, own, written)
    if touch is not None:
        _audit(GUARDED, touch.value, name)
        raise PermissionError(f"the grader does not let submitted code reach {touch.value}")


def _no_debugger(*args: object, **kwargs: object) -> None:
    """``breakpoint()``: no debugger in a sandbox (pdb would set a trace hook and wait on a
    terminal there is not), so a call left in while debugging does nothing."""


_CODE_FROM_TEXT = ("exec", "eval", "compile")
"""Builtins that make code from text: the parent's reading refuses their names in the source,
so only a string evaluated with the module's builtins reaches them (an annotation that
``inspect.signature(f, eval_str=True)`` evaluates), to run code the parent never read."""


def _no_code_from_text(*args: object, **kwargs: object) -> None:
    """``exec``, ``eval`` and ``compile`` as the submission's module looks them up: refused
    and flagged (``_CODE_FROM_TEXT``)."""
    _audit(GUARDED, Touch.DYNAMIC.value, "exec")
    raise PermissionError(f"the grader does not let submitted code reach {Touch.DYNAMIC.value}")


def submission_builtins(own: str) -> dict[str, Any]:
    """The builtins the submission's module ``own`` runs with: the real ones, ``getattr`` and
    ``hasattr`` guarded, ``exec``, ``eval`` and ``compile`` refused, ``breakpoint`` a no-op, and
    ``FORMAT_GUARD``, which the submission's
    ``x.format`` reads go through (``grader.sandbox.child.formatting``)."""

    def check(owner: object, name: str) -> None:
        _check(owner, name, own)

    def guarded_getattr(owner: object, name: str, *default: Any) -> Any:
        _check(owner, name, own)
        return formatting.guarded(owner, name, _getattr(owner, name, *default), check)

    def format_method(owner: object, name: str) -> Any:
        return formatting.guarded(owner, name, _getattr(owner, name), check)

    def guarded_hasattr(owner: object, name: str) -> bool:
        _check(owner, name, own)
        return _hasattr(owner, name)

    def written_getattr(owner: object, name: str, *default: Any) -> Any:
        _check(owner, name, own, written=True)
        return formatting.guarded(owner, name, _getattr(owner, name, *default), check)

    def written_hasattr(owner: object, name: str) -> bool:
        _check(owner, name, own, written=True)
        return _hasattr(owner, name)

    def guarded_vars(*owner: object) -> Any:
        namespace = _vars(*owner) if owner else _caller(1).f_locals
        if namespace.keys() & _REFUSED_KEYS or (owner and _elsewhere(owner[0], own)):
            # another module's or class's; a dict given grading's internals by the standard
            # library (``functools.update_wrapper(f, object)`` copies object's generic
            # ``__getattribute__`` and ``__setattr__`` into ``f``'s); or, with no argument, the
            # module's own globals given them by ``from operator import *``: the guarded view
            return _Namespace(owner[0] if owner else None, namespace, own)
        return namespace  # the caller's locals, its own namespace, or an instance's data

    names = dict(vars(builtins))
    names.update(getattr=guarded_getattr, hasattr=guarded_hasattr, vars=guarded_vars, round=_rounded,
                 breakpoint=_no_debugger, **dict.fromkeys(_CODE_FROM_TEXT, _no_code_from_text))
    names[FORMAT_GUARD] = format_method
    names.update({WRITTEN_OUT["getattr"]: written_getattr, WRITTEN_OUT["hasattr"]: written_hasattr})
    return names


WRITTEN_OUT = {"getattr": "<getattr written out>", "hasattr": "<hasattr written out>"}
"""The builtins a ``getattr`` or ``hasattr`` call given a private name written out goes through
(``_ThroughVars``): not names any source can bind, so only the literal call reaches them."""
LOOKUPS: frozenset[types.CodeType] = frozenset(
    submission_builtins("")[name].__code__ for name in ("getattr", "hasattr", *WRITTEN_OUT.values()))
"""The code of the guarded ``getattr`` and ``hasattr``, the same in every submission's module: a
property getter they run is the submission's own lookup (``getattr(v, "grad")`` reads ``v.grad``
as ``v.grad`` does), so the probes take their caller for the getter's (``grader.spec.call``).
Grading's code calls the real builtins, never these."""


ROUNDS: frozenset[types.CodeType] = frozenset({_rounded.__code__})
"""The code of the submission's ``round``: a gradient the student's code read and rounded to a number
equal to it (``round(w.grad.item(), 3)`` that changed nothing) is still the one read
(``grader.spec.call``), where a formula of an equal value is not."""


class _ThroughVars(ast.NodeTransformer):
    """``x.__dict__`` read becomes ``vars(x)``: the same object for an instance or a class the
    submission made, the guarded view (``_Namespace``) for another module's or class's, however
    the class was named (``o = object; o.__dict__[name]``).  ``x.format`` and ``x.format_map``
    read go through ``FORMAT_GUARD`` (the same method, its fields' attributes guarded, when it
    is ``str``'s).  ``getattr(a, "_version", None)`` and ``hasattr`` given a private name written
    out go through ``WRITTEN_OUT``, unless the source binds the name itself (``own``)."""

    def __init__(self, own: frozenset[str]) -> None:
        self.own = own

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func, args = node.func, node.args
        if (isinstance(func, ast.Name) and func.id in WRITTEN_OUT and func.id not in self.own
                and not node.keywords and len(args) in ((2, 3) if func.id == "getattr" else (2,))
                and not any(isinstance(a, ast.Starred) for a in args) and _written_private(args[1])):
            node.func = ast.copy_location(ast.Name(id=WRITTEN_OUT[func.id], ctx=ast.Load()), func)
        return node

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.ctx, ast.Load) or node.attr not in ("__dict__", *FORMATTING):
            return node
        if node.attr == "__dict__":
            call = ast.Call(func=ast.Name(id=GUARDED_VARS, ctx=ast.Load()), args=[node.value], keywords=[])
        else:
            call = ast.Call(func=ast.Name(id=FORMAT_GUARD, ctx=ast.Load()),
                            args=[node.value, ast.Constant(node.attr)], keywords=[])
        return ast.copy_location(call, node)


def _written_private(node: ast.expr) -> bool:
    """Whether ``node`` is a private name written out (``"_version"``) that is none of
    grading's internals: what ``x._version`` written out may read."""
    return (isinstance(node, ast.Constant) and type(node.value) is str and node.value.startswith("_")
            and ungraded(node.value))


def _binds(tree: ast.AST) -> frozenset[str]:
    """Which of ``getattr`` and ``hasattr`` the source binds itself (assigned, defined, a
    parameter, imported, or possibly by a star import): its own calls of them are its own."""
    own: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            own.add(node.id)
        elif isinstance(node, ast.arg):
            own.add(node.arg)
        elif isinstance(node, ast.alias):
            own.update(WRITTEN_OUT if node.name == "*" else (node.asname or node.name,))
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            own.add(node.name)
    return frozenset(own & WRITTEN_OUT.keys())


GUARDED_VARS = "vars"
"""The builtin a namespace read goes through; the source may not bind the name
(``grader.sandbox.reach``)."""


def _names(code: types.CodeType, name: str) -> bool:
    """Whether ``code`` or a code object nested in it names ``name`` (an attribute read is
    compiled to a lookup of its name in ``co_names``, however the source spelled it)."""
    return name in code.co_names or any(
        _names(const, name) for const in code.co_consts if isinstance(const, types.CodeType))


class SubmissionLoader(importlib.machinery.SourceFileLoader):
    """The submission's loader: its code is always the source compiled here, with namespace
    reads through the guarded ``vars`` (``_ThroughVars``), never a ``.pyc`` beside it.  The
    module's fresh copies (``grader.spec.repeat.fresh_copy``) run the code its import compiled,
    never the file read again: only a source that names ``__dict__``, ``format``,
    ``format_map``, ``getattr`` or ``hasattr`` somewhere is parsed again and rewritten; any
    other compiles to what the rewrite gives."""

    def get_code(self, fullname: str) -> types.CodeType:
        source = self.get_data(self.path)
        code = compile(source, self.path, "exec", dont_inherit=True)
        if any(_names(code, name) for name in ("__dict__", *FORMATTING, *WRITTEN_OUT)):
            tree = ast.parse(source, self.path)
            tree = _ThroughVars(_binds(tree)).visit(tree)
            code = compile(ast.fix_missing_locations(tree), self.path, "exec", dont_inherit=True)
        return code


def import_submission(path: str, name: str,
                      ran: Callable[[types.ModuleType, importlib.machinery.ModuleSpec, types.CodeType,
                                     dict[str, Any]], None] | None = None) -> types.ModuleType:
    """Import the submission's file as the module ``name``, with its own builtins and its
    code from ``SubmissionLoader``; ``ran`` is told the module, spec, code and builtins first
    (``grader.spec.repeat.imported``: the module's fresh copies run those, never the file
    read again, which the submission may rewrite in its scratch folder)."""
    loader = SubmissionLoader(name, path)
    module_spec = importlib.util.spec_from_file_location(name, path, loader=loader)
    assert module_spec is not None
    module = importlib.util.module_from_spec(module_spec)
    own_builtins = submission_builtins(name)
    module.__builtins__ = own_builtins  # type: ignore[attr-defined]
    code = loader.get_code(name)
    if ran is not None:
        ran(module, module_spec, code, own_builtins)
    sys.modules[name] = module
    exec(code, vars(module))  # noqa: S102 - the submission's own code, as its import would run it
    return module
