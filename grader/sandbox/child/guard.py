"""The submission's own ``getattr`` and ``hasattr``: a computed name that is one of grading's
internals is refused as it is looked up.

Looking an attribute up by a name the code computes is ordinary Python (``for name in fields:
getattr(v, name)``); it is also the way to reach grading's internals without writing their
names, so the parent's reading of the source (``grader.sandbox.reach``) cannot judge it.  The
submission's module is therefore run with builtins of its own, in which these two look at the
name first: a private one of another module or of the engine's or the grader's objects
(``_observer``; the submission's own objects' are its own), a special name that hands out a
namespace or what is behind a method (``__globals__``, ``__dict__``, ``__self__``), or a name of
``grader.sandbox.child.internals`` raises the audit event ``GUARDED`` (the sentinel flags it
for the instructor) and ``PermissionError``.  Every other name is looked up as usual.  The
engine, the probes and the standard library keep the real builtins.  ``breakpoint()`` left in
while debugging does nothing.
"""

from __future__ import annotations

import builtins
import importlib.util
import sys
import types
from typing import Any

from grader.sandbox.child.internals import HIDDEN_DUNDERS, INSPECT, NAMES, OS, SYS
from grader.sandbox.child.wire import Touch

GUARDED = "grader.guarded"
"""The audit event of a refused name: what it reaches for (a ``Touch`` value) and the name."""

_BY_MODULE = {"os": OS, "sys": SYS, "inspect": INSPECT}


_OURS = ("micrograph", "grader")  # the packages whose private names are grading's


def refused(owner: object, name: object, own: str) -> Touch | None:
    """What looking up ``name`` on ``owner`` by a computed name would reach, or None; ``own``
    is the submission's module name (its own objects' private names are its business)."""
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
    return Touch.DYNAMIC if private and _foreign(owner, own) else None


def _foreign(owner: object, own: str) -> bool:
    """Whether ``owner`` is another module than the submission's, or an object (or class)
    of the engine's or the grader's: where a private name is one of grading's internals."""
    if isinstance(owner, types.ModuleType):
        return _getattr(owner, "__name__", None) != own
    home = _getattr(owner if isinstance(owner, type) else type(owner), "__module__", None)
    return type(home) is not str or home.split(".")[0] in _OURS


_getattr, _hasattr = builtins.getattr, builtins.hasattr


def _check(owner: object, name: object, own: str) -> None:
    touch = refused(owner, name, own)
    if touch is not None:
        sys.audit(GUARDED, touch.value, name)
        raise PermissionError(f"the grader does not let submitted code reach {touch.value}")


def _no_debugger(*args: object, **kwargs: object) -> None:
    """``breakpoint()``: no debugger in a sandbox (pdb would set a trace hook and wait on a
    terminal there is not), so a call left in while debugging does nothing."""


def submission_builtins(own: str) -> dict[str, Any]:
    """The builtins the submission's module ``own`` runs with: the real ones, ``getattr`` and
    ``hasattr`` guarded, ``breakpoint`` a no-op."""

    def guarded_getattr(owner: object, name: str, *default: Any) -> Any:
        _check(owner, name, own)
        return _getattr(owner, name, *default)

    def guarded_hasattr(owner: object, name: str) -> bool:
        _check(owner, name, own)
        return _hasattr(owner, name)

    names = dict(vars(builtins))
    names.update(getattr=guarded_getattr, hasattr=guarded_hasattr, breakpoint=_no_debugger)
    return names


def import_submission(path: str, name: str) -> types.ModuleType:
    """Import the submission's file as the module ``name``, with its own builtins."""
    module_spec = importlib.util.spec_from_file_location(name, path)
    assert module_spec is not None and module_spec.loader is not None
    module = importlib.util.module_from_spec(module_spec)
    module.__builtins__ = submission_builtins(name)  # type: ignore[attr-defined]
    sys.modules[name] = module
    module_spec.loader.exec_module(module)
    return module
