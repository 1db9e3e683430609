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
from typing import NamedTuple

from grader.sandbox.child.wire import Touch

MAX_FOUND = 5
"""Places named per run: enough for the instructor to look, not a list of every line."""

# attribute (or imported) names, by what they reach
_NAMES: dict[str, Touch] = {
    **dict.fromkeys(("_getframe", "_current_frames", "f_back", "f_locals", "f_globals", "f_code",
                     "f_builtins", "tb_frame", "gi_frame", "cr_frame", "ag_frame", "gi_code",
                     "currentframe", "walk_stack", "walk_tb", "extract_stack", "__traceback__",
                     "exc_info"), Touch.FRAMES),
    **dict.fromkeys(("setprofile", "getprofile", "settrace", "gettrace", "addaudithook"),
                    Touch.HOOKS),
    **dict.fromkeys(("_passes", "_observer", "pass_started", "_grad_write", "_PassRecorder",
                     "wrote", "write_grad", "Writer", "held", "made"), Touch.OBSERVER),
    **dict.fromkeys(("__code__", "__globals__", "__closure__", "cell_contents", "__builtins__",
                     "co_filename", "co_code", "CodeType", "FunctionType", "__loader__", "__spec__",
                     "source_to_code"), Touch.CODE),
    **dict.fromkeys(("get_objects", "get_referrers", "get_referents"), Touch.MEMORY),
    **dict.fromkeys(("__dict__", "__getattribute__", "__setattr__", "__delattr__",
                     "__subclasses__", "__mro__", "__bases__", "attrgetter", "methodcaller"),
                    Touch.DYNAMIC),
    "EXERCISE": Touch.TESTS,
}
# names a string may not hold: the private ones, which nothing but reaching needs
_PRIVATE = tuple(n for n in _NAMES if n.startswith("_") and len(n) > 5)
_MODULES: dict[str, Touch] = {
    "ctypes": Touch.MEMORY, "_ctypes": Touch.MEMORY, "cffi": Touch.MEMORY, "gc": Touch.MEMORY,
    "mmap": Touch.MEMORY, "inspect": Touch.FRAMES, "importlib": Touch.DYNAMIC,
    "marshal": Touch.CODE, "pickle": Touch.CODE, "_pickle": Touch.CODE, "copyreg": Touch.CODE,
    "builtins": Touch.CODE,  # the names every module, the probes' included, looks up last
    "grader": Touch.TESTS,
}
# functions of ``sys`` and ``os`` that reach the process's modules or the grader's pipes
_SYS = {"modules": Touch.MEMORY}
_OS = dict.fromkeys(("write", "writev", "pwrite", "dup", "dup2", "close", "closerange", "fdopen",
                     "fstat", "pipe", "read", "lseek", "set_blocking"),
                    Touch.WIRE)
_WORDS = ("held", "made", "wrote")  # names as attributes only: a string of them is just a word
_BY_NAME = ("getattr", "setattr", "delattr", "hasattr")  # fine with a literal, public name
_DYNAMIC_CALLS = ("vars", "globals", "locals", "eval", "exec", "compile", "__import__",
                  "breakpoint")


class Reach(NamedTuple):
    """One place in the source: what it reaches for, its line, the name written there."""

    touch: Touch
    line: int
    name: str


class _Finder(ast.NodeVisitor):
    def __init__(self, own: set[str]) -> None:
        self.own = own  # names the source binds itself: a bare one is its own, never the engine's
        self.found: list[Reach] = []
        self.aliases: dict[str, str] = {}  # a local name -> "os" or "sys" (``import os as o``)
        self.literal_names: set[int] = set()  # ids of the Name nodes of getattr("x", "name")

    def add(self, touch: Touch, node: ast.AST, name: str) -> None:
        self.found.append(Reach(touch, getattr(node, "lineno", 0), name))

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            root = alias.name.split(".")[0]
            if root in _MODULES:
                self.add(_MODULES[root], node, alias.name)
            if alias.name in ("os", "sys"):
                self.aliases[alias.asname or alias.name] = alias.name

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        root = (node.module or "").split(".")[0]
        if root in _MODULES:
            self.add(_MODULES[root], node, node.module or "")
        extra = {"os": _OS, "sys": _SYS}.get(node.module or "", {})
        for alias in node.names:
            touch = _NAMES.get(alias.name) or extra.get(alias.name)
            if touch is not None:
                self.add(touch, node, alias.name)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        touch = _NAMES.get(node.attr)
        if touch is None and isinstance(node.value, ast.Name):
            module = self.aliases.get(node.value.id)
            touch = {"os": _OS, "sys": _SYS}.get(module or "", {}).get(node.attr)
        if touch is not None:
            self.add(touch, node, node.attr)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Name) and func.id in _BY_NAME and len(node.args) >= 2:
            name = node.args[1]
            if isinstance(name, ast.Constant) and type(name.value) is str:
                self.literal_names.add(id(func))
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in _BY_NAME and id(node) not in self.literal_names:
            self.add(Touch.DYNAMIC, node, node.id)
        elif node.id in _DYNAMIC_CALLS:
            self.add(Touch.DYNAMIC, node, node.id)
        elif node.id in _NAMES and node.id not in _WORDS and node.id not in self.own:
            self.add(_NAMES[node.id], node, node.id)

    def visit_Constant(self, node: ast.Constant) -> None:
        if type(node.value) is not str:
            return
        for name in _PRIVATE:
            if name in node.value:
                self.add(_NAMES[name], node, name)
        if node.value in _NAMES and node.value not in _WORDS:
            self.add(_NAMES[node.value], node, node.value)
        if "/proc/" in node.value or node.value.startswith("<tests"):
            self.add(Touch.WIRE if "/proc/" in node.value else Touch.TESTS, node, node.value[:40])

    def visit_MatchClass(self, node: ast.MatchClass) -> None:
        for name in node.kwd_attrs:
            if name in _NAMES:
                self.add(_NAMES[name], node, name)
        self.generic_visit(node)


def _bound_names(tree: ast.AST) -> set[str]:
    """The names the source itself defines or assigns (``def write_grad``, ``held = []``, a
    parameter): reaching the engine's own needs an import or an attribute, both read apart."""
    own: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            own.add(node.name)
        elif isinstance(node, ast.arg):
            own.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            own.add(node.id)
    return own


def reaches(source: str) -> list[Reach]:
    """Every place in ``source`` that reaches for grading's internals, in source order (the
    first ``MAX_FOUND``); none for a source that does not parse (its import error says why)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    finder = _Finder(_bound_names(tree))
    finder.visit(tree)
    unique = sorted(set(finder.found), key=lambda r: (r.line, r.touch.value, r.name))
    return unique[:MAX_FOUND]
