"""Sealing the engine's, the grader's and the test module's modules before the submission runs.

The probes read the engine's observation seam through module attributes at the moment they
ask (``observe.passes()``, ``observe.observing(call)``, ``observe.grad_write(v)``), and the
engine's modules reach each other the same way.  A submission that rebinds one of them with a
public name (``observe.passes = lambda: 1``, a spy around ``observe.observing`` that keeps the
probe's observer and fills in the numbers it holds) would make the probes report facts it did
not earn, and names no internal the parent reads for; so would one that rebinds what the
answers pass through (``ANSWER_PATH``).  Sealed, such a module refuses every
attribute it is given or loses (the import system binding a submodule it has just loaded
excepted), and its ``__dict__`` (``vars``) is a read-only view without its private names and
grading's internals.  A
module's own code is untouched: ``global`` writes go to its namespace, not through these.

A refused write raises the audit event ``SEALED``: the sentinel flags it for the instructor
(``grader.sandbox.child.sentinel``), and it is refused whether or not the sentinel is set.
"""

from __future__ import annotations

import itertools
import operator
import sys
import types
from collections.abc import Iterable
from typing import Any, Final

from grader.sandbox.child.internals import NAMES
from grader.sandbox.child.wire import Touch

SEALED = "grader.sealed"
"""The audit event of a refused write: the module's name and the attribute's."""

ANSWER_PATH = ("json", "json.encoder", "json.decoder", "json.scanner", "os")
"""The standard library's modules a probe's answer passes through on its way to the relay
(encoded by ``json.dumps``, written by ``os.write``): rebinding one (``json.dumps = ...``, or
``posixpath.os.write = ...``) would rewrite every answer after the probes made it."""

_namespace = types.ModuleType.__dict__["__dict__"].__get__  # the real namespace, for sealed code only


_MISSING = object()  # what a name lost reads as: no module's object is this one


def _private(name: str) -> bool:
    """A private name, or one of grading's internals (``pass_started``): left out of the view."""
    return (name.startswith("_") and not (name.startswith("__") and name.endswith("__"))) or name in NAMES


class Sealed(types.ModuleType):
    """A module whose attributes nobody outside it may change (see the module doc)."""

    def __setattr__(self, name: str, value: Any) -> None:
        namespace = _namespace(self)
        full = f"{namespace.get('__name__')}.{name}"
        submodule = name not in namespace and sys.modules.get(full) is value  # the import system's
        if not submodule:
            _refuse(namespace.get("__name__"), name)
        namespace[name] = value

    def __delattr__(self, name: str) -> None:
        _refuse(_namespace(self).get("__name__"), name)

    @property  # type: ignore[misc]  # a read-only view in place of the writable namespace
    def __dict__(self) -> types.MappingProxyType[str, Any]:  # type: ignore[override]
        return types.MappingProxyType({k: v for k, v in _namespace(self).items() if not _private(k)})


def _refuse(module: object, name: str) -> None:
    sys.audit(SEALED, str(module), str(name))
    raise PermissionError(f"the grader does not let submitted code change the module {module}")


def touched(module: str) -> Touch:
    """What changing the module named ``module`` reaches for."""
    root = module.split(".")[0]
    if root == "micrograph":
        return Touch.OBSERVER
    if root in ("json", "os"):
        return Touch.WIRE
    return Touch.CODE if root == "builtins" else Touch.TESTS


REBOUND: Final = {"micrograph.engine": ("_warned",),
                  "micrograph.value": ("_float_warned",), "micrograph.seeding": ("_seed",),
                  "builtins": ("_",)}
"""The names a module's own code rebinds (``global``): the only ones a snapshot lets change."""


_HEAP, _MUTABLE = 1 << 9, 1 << 9 | 1 << 8  # Py_TPFLAGS_HEAPTYPE, and IMMUTABLETYPE beside it:
# a class made by a class statement takes attributes; the interpreter's own (``int``) do not


class Snapshot:
    """What each of some modules' namespaces, and each of their own classes' namespaces, held
    when it was taken (the sealed modules and the builtins module, before the submission runs),
    compared by identity with what they hold now.  A class takes any attribute it is given
    (``Value.item = ...``, ``json.JSONEncoder.encode = ...``), so only a comparison sees that.

    A sealed module refuses ``setattr``, but not the generic ``object.__setattr__`` that the
    standard library holds and may apply for the submission (a frozen dataclass's ``__init__``
    called on a module writes the fields it names): that writes the module's namespace as if
    the seal were not there. The builtins module, which every module of the grader looks names
    up in last, is an ordinary module. No submission can take back what a comparison of every
    name's object sees after each step;
    ``changed`` makes it with the functions it was given when the snapshot was taken.

    The comparison is ``operator.is_`` over the objects kept, not of their ``id``: every ``id()``
    raises the audit event ``builtins.id``, which calls the sentinel's hook (a Python function).
    The 2,237 names of the worker's snapshot compared after each of a submission's 200 steps
    take 1.5 billion instructions so, 0.34 billion with ``is_``, which raises nothing and runs
    in C (docs/benchmarks.md, "Batch throughput")."""

    def __init__(self, modules: Iterable[types.ModuleType]) -> None:
        self._kept: list[tuple[str, Any, tuple[str, ...], tuple[Any, ...]]] = []
        for module in modules:
            namespace = _namespace(module)
            name = str(namespace.get("__name__"))
            self._keep(name, namespace, tuple(k for k in namespace if k not in REBOUND.get(name, ())))
            for value in list(namespace.values()):
                if isinstance(value, type) and value.__module__ == name and value.__flags__ & _MUTABLE == _HEAP:
                    self._keep(name, value.__dict__, tuple(value.__dict__))

    def _keep(self, name: str, namespace: Any, keys: tuple[str, ...]) -> None:
        values = tuple(namespace[k] for k in keys)  # kept alive: what each name must still hold
        self._kept.append((name, namespace.get, keys, values))

    def changed(self, _map: Any = map, _is: Any = operator.is_, _all: Any = all,
                _missing: Any = itertools.repeat(_MISSING)) -> str | None:
        """The first module whose namespace holds another object under a name than it did (or
        lost it), or None."""
        for name, get, keys, values in self._kept:
            if not _all(_map(_is, _map(get, keys, _missing), values)):
                return name
        return None


def seal(modules: Iterable[types.ModuleType]) -> None:
    """Seal each of ``modules`` (plain modules only: a package's own class is left alone)."""
    for module in modules:
        if type(module) is types.ModuleType:
            module.__class__ = Sealed
