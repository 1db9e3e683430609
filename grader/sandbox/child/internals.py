"""The names of grading's internals: what the parent's reading of a submission's source looks
for (``grader.sandbox.reach``) and what the submission's own ``getattr`` refuses to look up by
a computed name (``grader.sandbox.child.guard``).  One table, so that the two never disagree."""

from __future__ import annotations

from typing import Final

from grader.sandbox.child.wire import Touch

WRAPPING: Final = ("update_wrapper", "wraps")
"""``functools``' copiers of attributes: they look up, with the real ``getattr``, the names they
are given (``assigned=("f_back", "f_globals")`` copies a frame's caller and the test module's
namespace onto an object of the submission's).  Called with literal names that are none of
grading's internals they copy only those (``grader.sandbox.reach``); by any other name, refused."""

NAMES: Final[dict[str, Touch]] = {
    **dict.fromkeys(("_getframe", "_current_frames", "f_back", "f_locals", "f_globals", "f_code",
                     "f_builtins", "tb_frame", "gi_frame", "cr_frame", "ag_frame", "gi_code",
                     "currentframe", "walk_stack", "walk_tb", "extract_stack", "__traceback__"),
                    Touch.FRAMES),
    **dict.fromkeys(("setprofile", "getprofile", "settrace", "gettrace", "addaudithook"),
                    Touch.HOOKS),
    # ``observing``: the engine's observation seam, through which the probes see every pass
    **dict.fromkeys(("_passes", "_observers", "pass_started", "_grad_write", "_PassRecorder",
                     "note_grad_write", "write_grad", "Writer", "probe_held", "probe_made",
                     "probe_wrote", "observing"), Touch.OBSERVER),
    **dict.fromkeys(("__code__", "__globals__", "__closure__", "cell_contents", "__builtins__",
                     "co_filename", "co_code", "CodeType", "FunctionType", "__loader__", "__spec__",
                     "source_to_code"), Touch.CODE),
    **dict.fromkeys(("get_objects", "get_referrers", "get_referents"), Touch.MEMORY),
    # the modules themselves, the real ``builtins`` among them (whose ``getattr`` looks any name
    # up unguarded): ``sys`` as another module's attribute (``os.sys.modules``), ``builtins`` so
    # (``dataclasses.builtins``; ``collections._sys`` and ``enum.bltns`` are the names the
    # standard library's modules the worker loads give them), a module found by an object (``inspect.getmodule(len)``), or
    # loaded again by the import system's finders and loaders
    **dict.fromkeys(("sys", "_sys", "builtins", "bltns", "getmodule", "meta_path", "path_hooks", "path_importer_cache",
                     "load_module", "find_loader", "get_loader", "find_module"), Touch.MODULES),
    # a module the parent refuses to see imported, as another module's attribute
    # (``inspect.importlib``, ``zipimport.marshal``): the names no honest attribute has
    **dict.fromkeys(("importlib", "_imp", "_frozen_importlib", "_frozen_importlib_external", "imp",
                     "runpy", "pydoc", "doctest", "pdb", "bdb", "timeit", "shelve", "multiprocessing",
                     "cProfile"), Touch.DYNAMIC),
    **dict.fromkeys(("ctypes", "_ctypes", "gc", "mmap", "cffi"), Touch.MEMORY),
    **dict.fromkeys(("marshal", "pickle", "_pickle", "copyreg"), Touch.CODE),
    **dict.fromkeys(("__getattribute__", "__setattr__", "__delattr__", "__subclasses__", "__mro__",
                     "__bases__", "__base__", "__get__", "__set__", "__delete__", "__self__", "__func__",
                     "__wrapped__", "__objclass__", "__defaults__", "__kwdefaults__", "__reduce__",
                     "__reduce_ex__", "attrgetter", "methodcaller", "resolve_name", "get_field",
                     "getmembers", "getmembers_static", "getattr_static", "getclosurevars",
                     "get_type_hints", "get_annotations", "ForwardRef", "Formatter",
                     "classify_class_attrs", "resolve_dotted_attribute", "eval_str", "__annotations__",
                     *WRAPPING),
                    Touch.DYNAMIC),
    "EXERCISE": Touch.TESTS,
}
"""Attribute (or imported) names, by what they reach.  The last DYNAMIC ones are the standard
library's own ways of looking attributes up by a computed name (``pkgutil.resolve_name``,
``string.Formatter().get_field``, and ``Formatter`` itself, whose ``format`` looks a field's
attributes up so, ``inspect.getmembers``, ``xmlrpc.server.resolve_dotted_attribute``, and
``WRAPPING`` but with literal names...; annotations evaluated, ``eval_str``, which run the
strings a function's ``__annotations__`` was given as it ran); a descriptor's ``__get__`` applies
what a class's namespace holds (``ModuleType``'s own ``__dict__``) to any object; what is behind
a method (``print.__self__`` is the builtins module, a method's ``__reduce_ex__`` hands out
``getattr``: the real ones, not the submission's own); annotations evaluated in a namespace the
caller gives (``typing.get_type_hints``, ``inspect.get_annotations(eval_str=True)``) are
``eval`` with the real builtins."""

SYS: Final[dict[str, Touch]] = {"modules": Touch.MODULES}
"""Names of ``sys`` that reach the process's modules."""

OS: Final[dict[str, Touch]] = dict.fromkeys(
    ("write", "writev", "pwrite", "dup", "dup2", "close", "closerange", "fdopen", "fstat", "pipe",
     "read", "lseek", "set_blocking"), Touch.WIRE)
"""Names of ``os`` that reach the grader's pipes (raw descriptors)."""

INSPECT: Final[dict[str, Touch]] = dict.fromkeys(
    ("stack", "trace", "getouterframes", "getinnerframes", "getframeinfo", "getgeneratorlocals",
     "getcoroutinelocals"), Touch.FRAMES)
"""Names of ``inspect`` that hand out frames (``inspect.signature`` and the like are fine)."""

HIDDEN_DUNDERS: Final = frozenset({"__dict__"})
"""A special name that hands out a namespace: written out, the parent tells a read from a
write (``grader.sandbox.reach``); looked up by a computed name, it is refused."""


def ungraded(name: str) -> bool:
    """Whether a name written out in the source is none of grading's internals and no special
    name (``__x__``): what a method may write into its own object's namespace
    (``grader.sandbox.written_out.own_key``) and what ``getattr`` given it written out may read
    (``grader.sandbox.child.guard``), by this one test, so that the two never disagree."""
    return name not in NAMES and name not in HIDDEN_DUNDERS and not (name.startswith("__") and name.endswith("__"))
