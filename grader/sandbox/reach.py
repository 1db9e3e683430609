"""What a submission's source reaches for that grading depends on, read by the parent.

The probes observe a submission in its own process, so a submission that rewrites what they
read (the engine's observation records, the probes' helpers through stack frames, the profile
hook, the grader's pipes) could report facts it did not earn.  No exercise needs any of that:
the parent reads the source it hands to the child and lists every place that names one of these
internals, or reaches attributes by a computed name (the way to name them without writing
them).  A submission that does forfeits the run's tests and is flagged for the instructor
(``grader.judge.grading``); the child's sentinel (``grader.sandbox.child.sentinel``) blocks the
same reaches at run time where the interpreter can see them.

The parent's own reading: nothing the submission runs can change what is found here.
"""

from __future__ import annotations

import ast
import builtins
import threading
from collections.abc import Callable
from typing import NamedTuple

from grader.sandbox.child.guard import GUARDED_VARS
from grader.sandbox.child.internals import HIDDEN_DUNDERS, INSPECT, NAMES, OS, SYS, WRAPPING
from grader.sandbox.refused_modules import module_touch
from grader.sandbox.source_nodes import binding_line, bound_names, in_order
from grader.sandbox.string_code import annotations_as_code, field_attributes
from grader.sandbox.child.wire import Touch
from grader.sandbox.written_out import GETTERS, copies_literal_names, getter_names, imported_name, magic_name, own_key

MAX_FOUND = 5
"""Places named per run: enough for the instructor to look, not a list of every line."""
TOO_DEEP = "nested deeper than the grader reads"
_PARSING = threading.Lock()  # one ast.parse at a time in this process (``reaches``)

# names a string may not hold: the private ones, which nothing but reaching needs
_PRIVATE = tuple(n for n in NAMES if n.startswith("_") and len(n) > 5)
ENGINE_PACKAGE = "micrograph"  # the course's engine, which a build-track stage is to be written without
# fine with a literal, public name; ``getattr`` and ``hasattr`` are fine with any name: the
# submission's own refuse grading's internals as they run (``grader.sandbox.child.guard``)
_BY_NAME = ("setattr", "delattr")
_DYNAMIC_CALLS = ("globals", "locals", "eval", "exec", "compile", "__import__")
_BY_MODULE = {"os": OS, "posix": OS, "sys": SYS, "inspect": INSPECT}  # posix: what os re-exports
# the modules that are another's attribute: ``os.path`` (``posixpath``), whose own ``os`` is os
# again, so that ``import os.path as p`` then ``p.os.write`` is read as ``os.write``
_MODULE_ATTRIBUTES = {"os": {"path": "os.path"}, "os.path": {"os": "os"}}
_SAME_MODULE = {"posixpath": "os.path"}  # os.path by its own name
_ATTRIBUTE_NAMES = frozenset(name for names in _MODULE_ATTRIBUTES.values() for name in names)
# where ``x.__dict__`` (or ``vars(x)``) is only read: indexed, asked for its items, searched,
# walked or printed (or a method's own object written under a literal name, none of grading's)
_READING_METHODS = frozenset({"items", "keys", "values", "get", "copy"})
_BUILTIN_CLASSES = frozenset(n for n, v in vars(builtins).items() if isinstance(v, type))
_READING_CALLS = frozenset({"print", "dict", "list", "len", "sorted", "repr", "str", "set", "tuple",
                            "iter", "any", "all", "pprint"})


def proc_touch(path: str) -> Touch:
    """What a /proc path reaches for: descriptors (``/fd``) the grader's pipes, the process's own
    memory every object, any other entry (``/proc/1/cmdline``) the machine outside the sandbox."""
    if "/fd" in path:
        return Touch.WIRE
    own = path.startswith(("/proc/self/", "/proc/thread-self/"))
    return Touch.MEMORY if own and ("/mem" in path or "/maps" in path) else Touch.MACHINE


class Reach(NamedTuple):
    """One place in the source: what it reaches for, its line, the name written there, and
    whether that name is a module it imports (a debugger or doctest left in is one)."""

    touch: Touch
    line: int
    name: str
    imported: bool = False


class _Finder:
    """Each node's ``visit_<its class>``, in the order of ``source_nodes.in_order`` (a node after
    its parents: a call or a loop marks the ``__dict__`` it only reads before that node is visited)."""

    def __init__(self, own: set[str], own_engine: bool) -> None:
        self.own = own  # names the source binds itself: a bare one is its own, never the engine's
        self.own_engine = own_engine  # the submission is an engine of its own (the build track)
        self.found: list[Reach] = []
        self.aliases: dict[str, str] = {}  # a local name -> "os", "sys", "inspect" or "os.path"
        # (``import os as o``, ``import os.path``, which binds ``os``, ``from os import path``)
        self.reading: set[int] = set()  # ids of ``x.__dict__`` nodes that are only read
        self.literal_names: set[int] = set()  # ids of the Name nodes of getattr("x", "name")
        self.bases: set[int] = set()  # ids of the Name nodes an attribute is read from (``sys.x``)
        self.written_out: set[int] = set()  # ids of ``functools.wraps``, ``__import__``... called
        # with names written out (``grader.sandbox.written_out``): read where they are called
        self.modules: set[int] = set()  # ids of the strings ``__import__("name")`` imports, or a magic's: names

    def visit(self, nodes: list[ast.AST]) -> None:
        visitors: dict[type, Callable[[ast.AST], None] | None] = {}
        for node in nodes:
            kind = type(node)
            if kind not in visitors:
                visitors[kind] = getattr(self, f"visit_{kind.__name__}", None)
            visit = visitors[kind]
            if visit is not None:
                visit(node)

    def add(self, touch: Touch, node: ast.AST, name: str, imported: bool = False) -> None:
        self.found.append(Reach(touch, getattr(node, "lineno", 0), name, imported))

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            touch = self._engine(alias.name) or module_touch(alias.name)
            if touch is not None:
                self.add(touch, node, alias.name, imported=True)
            bound = alias.name if alias.asname else alias.name.split(".")[0]  # import os.path binds os
            module = _SAME_MODULE.get(bound, bound)
            if module in _BY_MODULE or module in _MODULE_ATTRIBUTES:
                self.aliases[alias.asname or bound] = module

    def _engine(self, name: str) -> Touch | None:
        """``Touch.ENGINE`` for ``micrograph`` (or one of its modules) where the submission is
        to be an engine of its own: importing the course's engine is importing the answer."""
        return Touch.ENGINE if self.own_engine and name.split(".")[0] == ENGINE_PACKAGE else None

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        touch = self._engine(node.module or "") or module_touch(node.module or "")
        for alias in node.names if touch is None else ():  # from logging import config
            touch = module_touch(f"{node.module}.{alias.name}")
        if touch is not None:
            self.add(touch, node, node.module or "", imported=True)
        extra = _BY_MODULE.get(node.module or "", {})
        if extra and any(alias.name == "*" for alias in node.names):
            self.add(Touch.MODULES, node, f"{node.module}.*")  # sys.modules as a bare name
        within = _MODULE_ATTRIBUTES.get(_SAME_MODULE.get(node.module or "", node.module or ""), {})
        for alias in node.names:
            if alias.name in within:  # from os import path
                self.aliases[alias.asname or alias.name] = within[alias.name]
            touch = NAMES.get(alias.name) or extra.get(alias.name)
            if alias.name in (*WRAPPING, *GETTERS) and alias.asname in (None, alias.name):
                touch = None  # its calls are read where they are made
            if touch is not None:
                self.add(touch, node, alias.name)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self.bases.add(id(node.value))
        touch = None if id(node) in self.written_out else NAMES.get(node.attr)
        if node.attr == "__dict__" and (id(node) not in self.reading or _super(node.value)
                                        or self._a_class(node.value)):
            touch = Touch.DYNAMIC  # written through, handed on, or the namespace a class hides
        if touch is None:
            touch = _BY_MODULE.get(self._module(node.value) or "", {}).get(node.attr)
        if touch is None and id(node) not in self.bases and isinstance(node.ctx, ast.Load) and self._module(node):
            touch = Touch.MODULES  # a module handed on (``f = os.path``), as a bare alias is
        if touch is not None:
            self.add(touch, node, node.attr)

    def _module(self, node: ast.AST) -> str | None:
        """The module of ``aliases`` that ``node`` names, or None: an alias, or such a module's
        attribute that is one too (``os.path``, ``p.os``)."""
        attributes = []
        while isinstance(node, ast.Attribute):
            if node.attr not in _ATTRIBUTE_NAMES:
                return None
            attributes.append(node.attr)
            node = node.value
        module = self.aliases.get(node.id) if isinstance(node, ast.Name) else None
        for attribute in reversed(attributes):
            module = _MODULE_ATTRIBUTES.get(module or "", {}).get(attribute)
        return module

    def visit_Subscript(self, node: ast.Subscript) -> None:
        if isinstance(node.ctx, ast.Load) or (own_key(node.slice) and _of_self(node.value)):
            self._read(node.value)  # read, or an object's own attribute written under a literal name

    def visit_Compare(self, node: ast.Compare) -> None:
        for op, right in zip(node.ops, node.comparators):
            if isinstance(op, (ast.In, ast.NotIn)):
                self._read(right)

    def visit_For(self, node: ast.For) -> None:
        self._read(node.iter)

    def visit_comprehension(self, node: ast.comprehension) -> None:
        self._read(node.iter)

    def visit_FormattedValue(self, node: ast.FormattedValue) -> None:
        self._read(node.value)

    def _a_class(self, node: ast.AST) -> bool:
        """Whether ``node`` names a class the source did not write: a builtin one (``object``,
        ``type``...), ``type(x)``, ``x.__class__``, or one of ``types``.  Its namespace holds the
        generic ``__getattribute__`` and ``__setattr__`` (any object's attributes by a computed
        name) and the descriptors that apply one class's attributes to another object."""
        if isinstance(node, ast.Name):
            return node.id in _BUILTIN_CLASSES and node.id not in self.own
        if isinstance(node, ast.Call):
            return isinstance(node.func, ast.Name) and node.func.id == "type"
        return isinstance(node, ast.Attribute) and (
            node.attr == "__class__" or (isinstance(node.value, ast.Name) and node.value.id == "types"))

    def _read(self, node: ast.AST) -> None:
        if isinstance(node, ast.Attribute) and node.attr == "__dict__":
            self.reading.add(id(node))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "vars":
            self.reading.add(id(node.func))

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in _READING_METHODS:
            self._read(func.value)
        elif (isinstance(func, ast.Attribute) and func.attr == "setdefault" and _of_self(func.value)
              and node.args and own_key(node.args[0])):
            self._read(func.value)  # self.__dict__.setdefault("_memo", {}): a literal name, as self._memo
        if isinstance(func, ast.Name) and func.id in _READING_CALLS:
            for arg in node.args:
                self._read(arg)
        called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        if called in WRAPPING and copies_literal_names(node, called == WRAPPING[0]):
            self.written_out.add(id(func))
        elif called in GETTERS:
            self._getter(node, called == GETTERS[0])
        elif isinstance(func, ast.Name) and func.id == "__import__":
            self._import(node)
        self.modules.update(map(id, magic_name(node, self.own)))  # get_ipython().run_line_magic("timeit", ...)
        if isinstance(func, ast.Name) and func.id in _BY_NAME and len(node.args) >= 2:
            name = node.args[1]
            if isinstance(name, ast.Constant) and type(name.value) is str:
                self.literal_names.add(id(func))

    def _getter(self, node: ast.Call, attrgetter: bool) -> None:
        """``attrgetter("grad_fn.name")`` as ``x.grad_fn.name`` written out: each name found as
        an attribute's would be; any other name, the call is refused where it is named."""
        names = getter_names(node, attrgetter)
        if names is not None:
            self.written_out.add(id(node.func))
            for name in names:
                if name in NAMES:
                    self.add(NAMES[name], node, name)

    def _import(self, node: ast.Call) -> None:
        """``__import__("grader")`` as ``import grader``; ``os``, ``sys`` and ``inspect``, whose
        names are found through an import statement's alias, and any other call are refused
        where ``__import__`` is named."""
        module = imported_name(node)
        if module is None or module.split(".")[0] in _BY_MODULE:
            return
        self.written_out.add(id(node.func))
        self.modules.add(id(node.args[0]))
        touch = self._engine(module) or module_touch(module)
        if touch is not None:
            self.add(touch, node, module, imported=True)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in self.aliases and id(node) not in self.bases and isinstance(node.ctx, ast.Load):
            self.add(Touch.MODULES, node, node.id)  # the module handed on: its names read unseen
        if node.id in WRAPPING or node.id in GETTERS:
            if id(node) not in self.written_out and isinstance(node.ctx, ast.Load):
                self.add(Touch.DYNAMIC, node, node.id)  # handed on, or given names to copy
        elif node.id in _BY_NAME and id(node) not in self.literal_names:
            self.add(Touch.DYNAMIC, node, node.id)
        elif (node.id in _DYNAMIC_CALLS and id(node) not in self.written_out) or (
                node.id == "vars" and id(node) not in self.reading):
            self.add(Touch.DYNAMIC, node, node.id)
        elif node.id in NAMES and node.id not in self.own:
            self.add(NAMES[node.id], node, node.id)

    def visit_Constant(self, node: ast.Constant) -> None:
        if type(node.value) is not str or id(node) in self.modules:
            return
        for name in _PRIVATE:
            if name in node.value:
                self.add(NAMES[name], node, name)
        for name in HIDDEN_DUNDERS:
            if name in node.value:
                self.add(Touch.DYNAMIC, node, name)
        if node.value in NAMES:
            self.add(NAMES[node.value], node, node.value)
        if "{" in node.value and "." in node.value:
            for name in field_attributes(node.value):
                self.add(NAMES.get(name, Touch.DYNAMIC), node, name)
        if "/proc/" in node.value or node.value.startswith("<tests"):
            self.add(proc_touch(node.value) if "/proc/" in node.value else Touch.TESTS, node, node.value[:40])

    def visit_keyword(self, node: ast.keyword) -> None:
        switched_off = isinstance(node.value, ast.Constant) and node.value.value is False
        if node.arg in NAMES and not switched_off:  # eval_str=True
            self.add(NAMES[node.arg], node, node.arg)

    def visit_MatchClass(self, node: ast.MatchClass) -> None:
        for name in node.kwd_attrs:
            if name in NAMES:
                self.add(NAMES[name], node, name)


def _of_self(node: ast.AST) -> bool:
    """Whether ``node`` is ``self.__dict__`` or ``vars(self)``: a method's own object, whose
    attribute it may set as ``self.name = ...`` does (a module's namespace is never ``self``)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "vars" and len(node.args) == 1:
        node = node.args[0]
    elif isinstance(node, ast.Attribute) and node.attr == "__dict__":
        node = node.value
    else:
        return False
    return isinstance(node, ast.Name) and node.id == "self"


def _super(node: ast.AST) -> bool:
    """Whether ``node`` is a call of ``super``: its ``__dict__`` is what the object's own class
    (a sealed module's) would not hand out."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"


def reaches(source: str, own_engine: bool = False) -> list[Reach]:
    """Every place in ``source`` that reaches for grading's internals, in source order (the
    first ``MAX_FOUND``); none for a source that does not parse (its import error says why).
    ``own_engine``: the source is to be an engine of its own, which may not import the course's.
    A source nested too deep for this reading (``ast.parse`` makes an object of every node,
    and stops sooner than the child's ``compile``, by a margin that depends on how deep each
    process's stack already is) is read as a reach: what it names is not known.  ``ast.parse``
    runs under a lock: CPython 3.11 counts the depth of the objects it makes in one counter
    for every thread, and two threads parsing at once (``grade batch``) may raise
    ``SystemError: AST constructor recursion depth mismatch`` (CPython issue 106905)."""
    try:
        with _PARSING:
            tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    except (RecursionError, MemoryError):
        return [Reach(Touch.DYNAMIC, 1, TOO_DEEP)]
    nodes = in_order(tree)
    nodes += [n for text in annotations_as_code(nodes) for n in in_order(text)]
    own = bound_names(nodes)
    finder = _Finder(own, own_engine)
    finder.visit(nodes)
    if GUARDED_VARS in own:  # its namespace reads would go through the source's own
        finder.found.append(Reach(Touch.DYNAMIC, binding_line(tree, GUARDED_VARS), GUARDED_VARS))
    unique = sorted(set(finder.found), key=lambda r: (r.line, r.touch.value, r.name))
    return unique[:MAX_FOUND]
