"""The modules a submission may not import, and what importing each reaches for: memory, code
run from a string, the grader's own package. Apart from the reading of the source (``reach``)
because the student's guide lists the same modules (``grader.publish.rules``)."""

from __future__ import annotations

from grader.sandbox.child.wire import Touch

MODULES: dict[str, Touch] = {
    "ctypes": Touch.MEMORY, "_ctypes": Touch.MEMORY, "cffi": Touch.MEMORY, "gc": Touch.MEMORY,
    "mmap": Touch.MEMORY, "importlib": Touch.DYNAMIC, "imp": Touch.DYNAMIC,
    # the import system's own modules: a fresh module of a builtin (``_imp.create_builtin``), marshal
    "_imp": Touch.DYNAMIC, "_frozen_importlib": Touch.DYNAMIC, "_frozen_importlib_external": Touch.DYNAMIC,
    "marshal": Touch.CODE, "pickle": Touch.CODE, "_pickle": Touch.CODE, "copyreg": Touch.CODE,
    "builtins": Touch.CODE,  # the names every module, the probes' included, looks up last
    "grader": Touch.TESTS,
    # code run from a string, or objects unpickled, with the real builtins: eval by another name
    **dict.fromkeys(("timeit", "doctest", "code", "codeop", "pdb", "bdb", "cProfile", "profile",
                     "trace", "runpy", "pydoc", "unittest.mock", "logging.config", "shelve",
                     "multiprocessing"), Touch.DYNAMIC),
}


def module_touch(name: str) -> Touch | None:
    """What importing the module ``name`` reaches for (its package's or its own), or None."""
    parts = name.split(".")
    return MODULES.get(parts[0]) or MODULES.get(".".join(parts[:2]))


def refused_imports() -> list[str]:
    """The modules a submission may not import, as a student would write them (the import
    system's own private ones left out): what the student's guide lists."""
    return sorted((n for n in MODULES if not n.startswith("_")), key=str.lower)
