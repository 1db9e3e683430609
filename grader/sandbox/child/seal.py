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

The generic ``object.__setattr__`` (which a frozen dataclass's ``__init__`` applies, to a module
too) finds each name held by the module's own class first (``_Held``), and is refused there.
A refused write raises the audit event ``SEALED``: the sentinel flags it for the instructor
(``grader.sandbox.child.sentinel``), and it is refused whether or not the sentinel is set.
"""

from __future__ import annotations

import builtins
import copyreg
import itertools
import operator
import sys
import types
from collections.abc import Iterable
from typing import Any, Final, NamedTuple

from grader.sandbox.child import freeze
from grader.sandbox.child.internals import NAMES
from grader.sandbox.child.wire import Touch

SEALED = "grader.sealed"
"""The audit event of a refused write: the module's name and the attribute's."""

ANSWER_PATH = ("json", "json.encoder", "json.decoder", "json.scanner", "os")
"""The standard library's modules a probe's answer passes through on its way to the relay
(encoded by ``json.dumps``, written by ``os.write``): rebinding one (``json.dumps = ...``, or
``posixpath.os.write = ...``) would rewrite every answer after the probes made it."""

_namespace = types.ModuleType.__dict__["__dict__"].__get__  # the real namespace, for sealed code only
_audit = sys.audit  # bound now: a submission may rebind sys's names (``SYS_REBOUND``)


_MISSING = object()  # what a name lost reads as: no module's object is this one


def _private(name: str) -> bool:
    """A private name, or one of grading's internals (``pass_started``): left out of the view."""
    return (name.startswith("_") and not (name.startswith("__") and name.endswith("__"))) or name in NAMES


class Sealed(types.ModuleType):
    """A module whose attributes nobody outside it may change (see the module doc)."""

    def __setattr__(self, name: str, value: Any) -> None:
        namespace = _namespace(self)
        full = f"{namespace.get('__name__')}.{name}"
        submodule = (name not in namespace and not name.startswith("__") and isinstance(value, types.ModuleType)
                     and sys.modules.get(full) is value)  # the import system's
        if not submodule:
            refuse(namespace.get("__name__"), name)
        namespace[name] = value

    def __delattr__(self, name: str) -> None:
        refuse(_namespace(self).get("__name__"), name)

    @property  # type: ignore[misc]  # a read-only view in place of the writable namespace
    def __dict__(self) -> types.MappingProxyType[str, Any]:  # type: ignore[override]
        return types.MappingProxyType({k: v for k, v in _namespace(self).items() if not _private(k)})


def refuse(module: object, name: str) -> None:
    """Refuse a write of ``name`` to ``module`` (a sealed module, or a class of the engine's
    ``freeze`` made immutable), with the audit event the sentinel flags."""
    _audit(SEALED, str(module), str(name))
    raise PermissionError(f"the grader does not let submitted code change the module {module}")


_SYS_TOUCHES: Final = {
    **dict.fromkeys(("audit", "addaudithook", "setprofile", "getprofile", "settrace", "gettrace", "monitoring",
                     "call_tracing"), Touch.HOOKS),  # how the probes flag and watch
    **dict.fromkeys(("_getframe", "_current_frames"), Touch.FRAMES),
    **dict.fromkeys(("modules", "meta_path", "path_hooks", "path_importer_cache"), Touch.MODULES),
}
"""What a name of ``sys`` bound again reaches for; any other name is ``Touch.SYS``, itself."""


def touched(module: str) -> Touch:
    """What changing the module named ``module`` reaches for; ``sys.<name>`` for a name of ``sys``
    (``Snapshot``), which names the part of grading that name is."""
    root, _dot, name = module.partition(".")
    if root == "micrograph":
        return Touch.OBSERVER
    if root == "sys":
        return _SYS_TOUCHES.get(name, Touch.SYS)
    if root in ("json", "os"):
        return Touch.WIRE
    return Touch.CODE if root == "builtins" else Touch.TESTS


SYS_REBOUND: Final = ("stdout", "stderr", "stdin", "displayhook", "excepthook", "unraisablehook",
                      "breakpointhook", "last_type", "last_value", "last_traceback", "ps1", "ps2",
                      "tracebacklimit", "dont_write_bytecode", "argv", "path")
"""The names of ``sys`` the standard library, the worker or a student's own code rebinds
(``contextlib.redirect_stdout``; ``sys.argv = [""]``, a notebook's habit before ``argparse``;
``sys.path = sys.path + ["."]``, which reaches no further than ``sys.path.insert``, let already).  ``sys`` cannot be sealed (the import system makes every new
module with ``type(sys)``), and a frozen dataclass's ``__init__`` applied to it writes any name
(``sys.audit``, through which every refusal is flagged; ``sys.setprofile``, which the probes set
their hook with): the grader binds what it calls of ``sys`` when it is loaded, and a snapshot
compares every other name of ``sys`` after each step."""

REBOUND: Final = {"micrograph.engine": ("_warned",),
                  "micrograph.value": ("_float_warned",), "micrograph.seeding": ("_seed",),
                  "builtins": ("_",), "sys": SYS_REBOUND}
"""The names a module's own code rebinds (``global``), or the standard library rebinds in
``sys``: the only ones a snapshot lets change."""


HELD_DUNDERS: Final = ("__builtins__", "__file__", "__spec__", "__loader__", "__package__",
                       "__cached__", "__path__", "__all__")
"""A module's own names of the import system's that its class holds too (``_Held``), refused to
the generic ``object.__setattr__``: none means anything on a class.  ``__name__`` and ``__doc__``
do (the class's own), and ``__getattr__`` or ``__dir__`` in a class would answer every lookup
the namespace misses: those are compared after each step, and a new one is seen there too."""

_NEW_DUNDERS_LET = frozenset({"__warningregistry__"})  # ``warnings`` keeps its registry so


_HEAP, _MUTABLE = 1 << 9, 1 << 9 | 1 << 8  # Py_TPFLAGS_HEAPTYPE, and IMMUTABLETYPE beside it:
# a class made by a class statement takes attributes; the interpreter's own (``int``) do not


class Snapshot:
    """What each of some modules' namespaces, and each of their own classes' namespaces, held
    when it was taken (the sealed modules and the builtins module, before the submission runs),
    compared by identity with what they hold now.  A class takes any attribute it is given
    (``Value.item = ...``, ``json.JSONEncoder.encode = ...``), so only a comparison sees that.

    A sealed module refuses ``setattr``, and its class's ``_Held`` names the generic
    ``object.__setattr__`` (a frozen dataclass's ``__init__`` called on a module); the classes
    are made immutable where ``freeze`` can; the builtins module, which every module of the
    grader looks names up in last, is an ordinary module. No submission can take back what a
    comparison of every name's object sees after each step;
    ``changed`` makes it with the functions it was given when the snapshot was taken.

    The comparison is ``operator.is_`` over the objects kept, not of their ``id``: every ``id()``
    raises the audit event ``builtins.id``, which calls the sentinel's hook (a Python function).
    The 2,237 names of the worker's snapshot compared after each of a submission's 200 steps
    took 1.5 billion instructions so, 0.34 billion with ``is_``, which raises nothing and runs
    in C (docs/benchmarks.md, "Batch throughput").  The comparison is one pass over every name
    of every namespace (``_first_changed``): with the classes unfrozen (their namespaces
    compared too) it counts 28% fewer instructions than a pass per namespace, 3% fewer with them
    frozen (docs/grader.md)."""

    def __init__(self, modules: Iterable[types.ModuleType]) -> None:
        rows: list[tuple[str, Any, str]] = []  # (module's name, namespace, name in it)
        self._modules: list[tuple[str, dict[str, Any], frozenset[str]]] = []
        self.seen: str | None = None  # what ``check`` found changed within a step
        for module in modules:
            namespace = _namespace(module)
            name = str(namespace.get("__name__"))
            rows += [(f"sys.{k}" if name == "sys" else name, namespace, k)  # sys by name (``touched``)
                     for k in namespace if k not in REBOUND.get(name, ())]
            self._modules.append((name, namespace, frozenset(namespace)))
            for space in (value.__dict__ for value in own_classes([module])):
                rows += [(name, space, k) for k in space]
        # every name of every namespace in one row, compared in one pass (``_first_changed``)
        self._owners = tuple(owner for owner, _, _ in rows)
        self._spaces = tuple(space for _, space, _ in rows)
        self._keys = tuple(key for _, _, key in rows)
        self._values = tuple(map(operator.getitem, self._spaces, self._keys))  # kept alive
        self._namespaces = tuple(namespace for _, namespace, _ in self._modules)
        self._lengths = list(map(len, self._namespaces))

    def _first_changed(self, _next: Any = next, _compress: Any = itertools.compress,
                       _map: Any = map, _is_not: Any = operator.is_not,
                       _item: Any = operator.getitem, _zip: Any = zip) -> str | None:
        """The module of the first name that holds another object than it did, in one pass
        over every name of every namespace, in C; None when none does."""
        try:
            return _next(_compress(self._owners, _map(_is_not, _map(_item, self._spaces, self._keys),
                                                      self._values)), None)
        except KeyError:  # a name lost: looked for name by name
            rows = _zip(self._owners, self._spaces, self._keys, self._values)
            return _next((owner for owner, space, key, value in rows
                          if space.get(key, _MISSING) is not value), self._owners[-1])

    def settle(self) -> None:
        """Take the names each module holds now as known (not what they hold: that is kept
        as it was): a snapshot reused by a worker forked after it was taken (``seal_loaded``)
        counts the names its test module's loading added, before any submitted code ran."""
        self._modules = [(name, namespace, frozenset(namespace)) for name, namespace, _ in self._modules]
        self._lengths = list(map(len, self._namespaces))

    def check(self) -> None:
        """Compare within a step (where the engine's classes could not be made immutable): a
        change found here is kept, and ``changed`` says it after the step, put back or not."""
        if self.seen is None:
            self.seen = self.changed()

    def check_grown(self, _map: Any = map, _len: Any = len, _list: Any = list) -> None:
        """Look within a step (as each pass starts and each watched call ends, where the
        engine's classes are immutable) only for a new dunder in a module's namespace: a
        ``__getattr__`` a frozen dataclass's ``__init__`` wrote there, present while the
        engine or a probe looks a name up, is seen even if it is gone when the step ends."""
        if self.seen is None and _list(_map(_len, self._namespaces)) != self._lengths:
            self.seen = self._new_dunder()

    def changed(self, _map: Any = map, _len: Any = len, _list: Any = list) -> str | None:
        """The first module whose namespace holds another object under a name than it did (or
        lost it), or that ``check`` found so within the step; else None."""
        if self.seen is not None:
            return self.seen
        changed = self._first_changed()
        if changed is not None or _list(_map(_len, self._namespaces)) == self._lengths:
            return changed
        return self._new_dunder()

    def _new_dunder(self) -> str | None:
        """The first module whose namespace grew by a new dunder; the lengths of those that
        grew otherwise (a submodule bound) are taken as known."""
        for number, (name, namespace, known) in enumerate(self._modules):
            if len(namespace) != self._lengths[number]:  # grown: a submodule bound, or any new name
                if any(k.startswith("__") and k not in _NEW_DUNDERS_LET for k in set(namespace) - known):
                    return name  # a new dunder (``__getattr__``) written past the seal
                self._lengths[number] = len(namespace)
        return None


class _Held:
    """One name of a sealed module, held by the module's own class (a data descriptor without
    ``__get__``: a read still finds the module's namespace, at no cost).  The generic
    ``object.__setattr__`` (a frozen dataclass's ``__init__`` applied to a module) looks in the
    object's class first, finds this, and is refused here: no write of a name the engine's code
    reads, put back before a step ends, goes unseen by the comparison after it."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __set__(self, module: Any, value: Any) -> None:
        refuse(_namespace(module).get("__name__"), self.name)

    def __delete__(self, module: Any) -> None:
        refuse(_namespace(module).get("__name__"), self.name)


_HELD: dict[str, _Held] = {n: _Held(n) for n in vars(builtins) if not n.startswith("__")}
_HOLDING = type("Sealed", (Sealed,), dict(_HELD))
# a name a module's code looks up in builtins when its namespace lacks it: written into the
# namespace, it would stand in for the builtin; every held module's class derives from this one


def seal(modules: Iterable[types.ModuleType], held: Iterable[str] = ("micrograph", *ANSWER_PATH)) -> None:
    """Seal each of ``modules`` (plain modules only: a package's own class is left alone); those
    named by ``held`` (a package's name covers its modules), which the submission can reach,
    each with a class of its own that holds its names (``_Held``)."""
    reached = tuple(held)
    for module in modules:
        if type(module) is not types.ModuleType:
            continue
        name = str(_namespace(module).get("__name__"))
        if name not in reached and not name.startswith(tuple(f"{r}." for r in reached)):
            module.__class__ = Sealed
            continue
        names = [k for k in _namespace(module) if not k.startswith("__") or k in HELD_DUNDERS]
        for key in names:
            if key not in _HELD:
                _HELD[key] = _Held(key)
        module.__class__ = type("Sealed", (_HOLDING,), {n: _HELD[n] for n in names})


def own_classes(modules: Iterable[types.ModuleType]) -> list[type]:
    """The classes each of ``modules`` made itself that take attributes (a class statement's,
    not the interpreter's own)."""
    found = []
    for module in modules:
        name = _namespace(module).get("__name__")
        found += [v for v in list(_namespace(module).values())
                  if isinstance(v, type) and v.__module__ == name and v.__flags__ & _MUTABLE == _HEAP]
    return found


OURS = ("grader", "micrograph")
"""The packages whose modules are sealed (with the test module and ``ANSWER_PATH``)."""
_OURS_BELOW = tuple(f"{p}." for p in OURS)  # their modules' names start so


class Sealing(NamedTuple):
    """The engine's modules as ``seal_loaded`` found them, and the snapshot compared after each
    step (of them and of the builtins module)."""

    engine: tuple[types.ModuleType, ...]
    snapshot: Snapshot
    frozen: bool  # the engine's classes made immutable (``freeze``): not where ctypes is missing


def ours(tests_name: str) -> list[str]:
    """The names in ``sys.modules`` of the engine's and the grader's modules, and of the test
    module ``tests_name``."""
    return [n for n in sys.modules if n in (tests_name, *OURS) or n.startswith(_OURS_BELOW)]


def seal_loaded(tests_name: str, before: Sealing | None = None, freezing: bool = True) -> Sealing:
    """Seal the modules loaded now (``ours`` and ``ANSWER_PATH``) and freeze the engine's
    classes (``freeze``): those ``before`` holds were sealed and frozen already, by the
    process this one was forked from (a batch's child, once for all its exercises, before any
    submitted code ran), and its snapshot is kept when no module of the engine was loaded since;
    sealing and a snapshot took about a third of each exercise's process before its steps.
    ``freezing`` False leaves the classes mutable, as where ctypes is missing (``$GRADE_FREEZE=off``)."""
    modules = [sys.modules[n] for n in (*ours(tests_name), *ANSWER_PATH) if n in sys.modules]
    seal(modules)  # a module sealed before is left as it is
    engine = tuple(m for m in modules if str(_namespace(m).get("__name__")).split(".")[0] == "micrograph")
    if before is not None and before.engine == engine and before.frozen == freezing:
        before.snapshot.settle()  # a new dunder the test module's loading made is not the submission's
        return before
    frozen = {id(m) for m in before.engine} if before is not None and before.frozen else set()
    classes = own_classes([m for m in engine if id(m) not in frozen])
    for cls in classes:  # what copy.copy(v) of a Value writes to its class the first time
        copyreg._slotnames(cls)  # (``__slotnames__``, copyreg's cache): written now, as the engine's
    made = freezing and freeze.freeze(classes, refuse)  # no write, even one put back
    # compared: what the submission can name (the engine's modules and classes, builtins);
    # the grader's and the test module's modules leave sys.modules, and the answers' path is
    # bound already (``codec``)
    return Sealing(engine, Snapshot([*engine, builtins, sys]), made)
