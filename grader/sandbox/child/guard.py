"""The submission's own ``getattr`` and ``hasattr``: a computed name that is one of grading's
internals is refused as it is looked up.

Looking an attribute up by a name the code computes is ordinary Python (``for name in fields:
getattr(v, name)``); it is also the way to reach grading's internals without writing their
names, so the parent's reading of the source (``grader.sandbox.reach``) cannot judge it.  The
submission's module is therefore run with builtins of its own, in which these two look at the
name first: a private one (``_observer``), a special name that hands out a namespace or what
is behind a method (``__globals__``, ``__dict__``, ``__self__``), or a name of
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


def refused(owner: object, name: object) -> Touch | None:
    """What looking up ``name`` on ``owner`` by a computed name would reach, or None."""
    if type(name) is not str:
        return None  # getattr says what is wrong with it
    touch = NAMES.get(name)
    if touch is None and isinstance(owner, types.ModuleType):
        touch = _BY_MODULE.get(_getattr(owner, "__name__", ""), {}).get(name)
    if touch is not None:
        return touch
    dunder = name.startswith("__") and name.endswith("__")
    if name in HIDDEN_DUNDERS or (name.startswith("_") and not dunder):
        return Touch.DYNAMIC
    return None


_getattr, _hasattr = builtins.getattr, builtins.hasattr


def _check(owner: object, name: object) -> None:
    touch = refused(owner, name)
    if touch is not None:
        sys.audit(GUARDED, touch.value, name)
        raise PermissionError(f"the grader does not let submitted code reach {touch.value}")


def _guarded_getattr(owner: object, name: str, *default: Any) -> Any:
    _check(owner, name)
    return _getattr(owner, name, *default)


def _guarded_hasattr(owner: object, name: str) -> bool:
    _check(owner, name)
    return _hasattr(owner, name)


def _no_debugger(*args: object, **kwargs: object) -> None:
    """``breakpoint()``: no debugger in a sandbox (pdb would set a trace hook and wait on a
    terminal there is not), so a call left in while debugging does nothing."""


def submission_builtins() -> dict[str, Any]:
    """The builtins a submission's module runs with: the real ones, ``getattr`` and
    ``hasattr`` guarded, ``breakpoint`` a no-op."""
    own = dict(vars(builtins))
    own.update(getattr=_guarded_getattr, hasattr=_guarded_hasattr, breakpoint=_no_debugger)
    return own


def import_submission(path: str, name: str) -> types.ModuleType:
    """Import the submission's file as the module ``name``, with its own builtins."""
    module_spec = importlib.util.spec_from_file_location(name, path)
    assert module_spec is not None and module_spec.loader is not None
    module = importlib.util.module_from_spec(module_spec)
    module.__builtins__ = submission_builtins()  # type: ignore[attr-defined]
    sys.modules[name] = module
    module_spec.loader.exec_module(module)
    return module
