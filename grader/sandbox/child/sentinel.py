"""The worker's sentinel: an audit hook that blocks submitted code from grading's internals and
tells the relay it tried, before the attempt can do anything.

The probes run in the process that runs the submission, so what they observe is only as good
as the state they read.  The interpreter raises an audit event (PEP 578) for the ways to reach
that state without naming it: stack frames (where the probes' locals and the test module's
helpers live), profile and trace hooks, new code objects and functions (code compiled under
the engine's file name), ``ctypes`` and the garbage collector (every object, and memory).  An
audit hook cannot be removed once added, and its closure is reachable by none of those ways,
so:

* when such an event comes from the submission (the first frame, outward past the standard
  library, is not the grader's, the test module's or the engine's), the hook writes what it
  was on the *flag pipe*, then raises ``PermissionError``: the attempt never happens;
* a write refused by a sealed module (``grader.sandbox.child.seal``), or a name refused by the
  submission's own ``getattr`` (``grader.sandbox.child.guard``), is flagged as it is;
* compiling code under a file name of the grader, the engine, the standard library or the
  test module is refused unless the import system reads a module's file (the frames that code
  would make are how the hook tells the submission from the rest);
* the relay holds the pipe's other end: a flag, once written, cannot be taken back, and a
  pipe closed early (so that later flags would be lost) is itself a flag on ``the grader's
  pipes``;
* what the submission tries on the machine outside its sandbox (a lock on a shared file,
  another process, a file outside its scratch folder: ``grader.sandbox.child.outside``),
  which the kernel refuses where the worker alone would see it, is flagged the same way.

What the audit events do not cover (writing a module's globals, an object's attributes) the
parent finds in the source (``grader.sandbox.reach``): naming those internals, or any attribute
by a computed name, forfeits the run there.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from types import FunctionType
from typing import Any, NamedTuple

from grader.sandbox.child.guard import GUARDED
from grader.sandbox.child.outside import EVENTS as OUTSIDE_EVENTS
from grader.sandbox.child.outside import Outside
from grader.sandbox.child.seal import SEALED, touched
from grader.sandbox.child.unaudited import SIGNAL
from grader.sandbox.child.unaudited import WRAPPED as RAISED_BY_WRAPPERS
from grader.sandbox.child.wire import TOUCHES, Touch

_EVENTS = {
    "sys._getframe": Touch.FRAMES, "sys._current_frames": Touch.FRAMES,
    "object.__getattr__": Touch.FRAMES,  # of _FRAME_ATTRIBUTES: the rest is read from what one holds
    "sys.setprofile": Touch.HOOKS, "sys.settrace": Touch.HOOKS, "sys.addaudithook": Touch.HOOKS,
    SIGNAL: Touch.SIGNALS,  # a handler is called with the frame it interrupted (``unaudited``)
    "code.__new__": Touch.CODE, "function.__new__": Touch.CODE,
    "object.__setattr__": Touch.CODE, "object.__delattr__": Touch.CODE,  # f.__code__ = ...
    "gc.get_objects": Touch.MEMORY, "gc.get_referrers": Touch.MEMORY,
    "gc.get_referents": Touch.MEMORY,
    "marshal.loads": Touch.CODE, "marshal.load": Touch.CODE,  # a code object of any file name
}
_CTYPES = frozenset({"ctypes.dlopen", "ctypes.dlsym", "ctypes.dlsym/handle", "ctypes.addressof",
                     "ctypes.call_function", "ctypes.cdata", "ctypes.cdata/buffer",
                     "ctypes.create_string_buffer", "ctypes.create_unicode_buffer",
                     "ctypes.get_errno", "ctypes.set_errno", "ctypes.get_last_error",
                     "ctypes.set_last_error", "ctypes.seh_exception", "ctypes.string_at",
                     "ctypes.wstring_at", "ctypes.PyObj_FromPtr"})
# Making a class sets names of its own (a dataclass its __doc__, a namedtuple its __module__ and its
# __new__'s __defaults__): no reach when the object is neither the engine's nor the grader's
_METADATA = frozenset({"__doc__", "__module__", "__qualname__", "__name__", "__bases__", "__defaults__"})
_OURS = ("micrograph", "grader")
_TYPE_MODULE, _FUNCTION_MODULE = type.__dict__["__module__"], FunctionType.__dict__["__module__"]
# every event the hook looks at: any other (``builtins.id``, raised by each ``id()``: hundreds of
# thousands in a probe that walks a graph) returns at the first comparison
_WATCHED = frozenset({*_EVENTS, *_CTYPES, *OUTSIDE_EVENTS, "compile", "open", "import", SEALED, GUARDED})
# where an object audited on reading hands out a frame (``frame.f_code`` or ``f.__code__`` are
# audited too, but need a frame or a function in hand: reading them every call, as the probes'
# profile hook does, costs one comparison here)
_FRAME_ATTRIBUTES = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame"})
_FROZEN = "<frozen "  # the import system's own frames
_CACHED = f".{sys.implementation.cache_tag}.pyc"  # a compiled module's cache file ends so
_ZIPIMPORT = ("<frozen zipimport>", "zipimport.py")  # the import system's reader of archives
# library modules that hand frames to their caller (``asyncio.base_tasks._task_get_stack``
# follows ``f_back`` from the frame of any generator it is given as a task's coroutine;
# ``functools.update_wrapper`` copies the attributes it is told to, ``tb_frame`` too)
_HANDING = ("inspect.py", "traceback.py", "functools.py", os.path.join("asyncio", "base_tasks.py"))
_STRINGS = frozenset({"print_exc", "format_exc", "print_exception", "format_exception",
                      "print_tb", "format_tb", "extract_tb", "print_stack", "format_stack",
                      "extract_stack", "print_last"})  # ... but these only text


def _name(filename: Any) -> str:
    """A file name as ``compile`` takes it (str, bytes or a path) as text."""
    try:
        return os.fsdecode(filename)
    except TypeError:
        return str(filename)


class _Where(NamedTuple):
    """The file names the sentinel tells apart (prefixes, as ``str.startswith`` takes them)."""

    ours: tuple[str, ...]  # the grader's and the engine's folders
    library: tuple[str, ...]  # the standard library's
    handing: tuple[str, ...]  # its modules that hand frames out (``_HANDING``)
    borrowed: tuple[str, ...]  # names no code the submission compiles may take
    roots: tuple[str, ...]  # the folders the import system may load code from
    submission: str  # the one file of the scratch folder it may read: the submission's
    tests_file: str  # the test module's
    outside: Outside  # the scratch folder and the worker's process: what lies past them
    archives: frozenset[str]  # ``sys.path`` as the sentinel was set: the archives it may hold


def _submitted(frame: Any, where: _Where, frames_only: bool) -> bool:
    """Whether the submission asked for what raised the event: the first frame outward that
    is neither the standard library's nor the import system's is its own.  The import system
    running a module's body is that module's business; for a frame (``frames_only``) a library
    function that keeps it to itself is too, unless it hands frames out (``inspect``,
    ``traceback`` but for its text)."""
    while frame is not None:
        code = frame.f_code
        name = code.co_filename
        if name.startswith(where.ours) or name == where.tests_file or name.startswith(_FROZEN):
            return False
        if not name.startswith(where.library):
            return True
        if name.startswith(where.handing):
            if code.co_name in _STRINGS:
                return False
        elif frames_only:
            return False
        frame = frame.f_back
    return False


def _disguised(event: str, args: tuple[Any, ...], where: _Where, opener: str) -> bool:
    """Whether the import system (or anyone) is about to load code under a name that is not
    where it lies: a path through a folder of the grader's, the engine's or the standard
    library's that leads out of it (``micrograph/../../scratch/x.py``: the sentinel and the
    probes tell the engine's code by its file name), or a module's compiled file that has no
    source beside it (its code objects keep whatever file name they were compiled with; a
    cache file's are set to its source's), alone or in an archive the import system reads
    (``opener``, the file of the code that opens it, is ``zipimport``'s) that was not on
    ``sys.path`` before the submission ran.  Or code the parent never read: a module the
    import system reads (``opener`` is its own frozen code) or an extension module it loads
    (the ``import`` event naming its file) from anywhere but the grader's, the engine's and
    the standard library's folders (a helper written into the scratch folder at run time and
    imported runs with the real builtins, unread by the parent)."""
    if event == "import":
        return len(args) > 1 and args[1] is not None and not _name(args[1]).startswith(where.roots)
    if event not in ("open", "compile"):
        return False
    if event == "open" and opener.endswith(_ZIPIMPORT) and args[0] not in where.archives:
        return True
    path = args[0] if event == "open" else args[1]
    if type(path) is int:
        return False
    name = _name(path)
    if opener.startswith(_FROZEN) and not name.startswith(where.roots) and name != where.submission:
        return True
    if name.startswith(where.borrowed) and ("/../" in name or name.endswith("/..")):
        return True
    if event != "open" or not name.endswith(".pyc"):
        return False
    folder, file = os.path.split(name)
    return os.path.basename(folder) != "__pycache__" or not file.endswith(_CACHED)


def _made_here(target: Any, name: Any) -> bool:
    """Whether setting ``name`` on ``target`` names a class or function the submission made
    (read through the C descriptors: no code of the submission runs inside the hook)."""
    if name not in _METADATA:
        return False
    reader = _TYPE_MODULE if isinstance(target, type) else _FUNCTION_MODULE if type(target) is FunctionType else None
    module = reader.__get__(target) if reader is not None else None
    return type(module) is str and not module.startswith(_OURS)


def _touch(event: str, args: tuple[Any, ...], where: _Where) -> Touch | None:
    """What a watched event reaches for, or None when it reaches for nothing of grading's."""
    touch = _EVENTS.get(event)
    if touch is Touch.CODE and event.startswith("object.") and _made_here(args[0], args[1]):
        return None
    if touch is not None:
        return touch
    if event in _CTYPES:
        return Touch.MEMORY
    if event == "compile" and _name(args[1]).startswith(where.borrowed):
        return Touch.CODE
    if event == "open" and type(args[0]) is int:
        return Touch.WIRE
    if event == SEALED:  # raised only by a refused write, whoever wrote
        return touched(args[0])
    if event == GUARDED:  # raised only by the submission's own getattr, refusing a name
        return TOUCHES[args[0]]
    if event in OUTSIDE_EVENTS and where.outside.reached(event, args):
        return Touch.MACHINE
    return None


def install(flags: int, trusted: Sequence[str], library: Sequence[str], tests_file: str,
            submission: str) -> None:
    """Add the hook: ``flags`` is the flag pipe's write end (-1: none, only block), ``trusted``
    the folders of the grader and the engine, ``library`` the standard library's,
    ``tests_file`` the test module's file name, ``submission`` the submission's file, in the
    folder the worker may write."""
    getframe, write, touch_of, submitted = sys._getframe, os.write, _touch, _submitted  # bound now
    disguised = _disguised
    where = _Where(tuple(trusted), tuple(library),
                   tuple(os.path.join(d, name) for d in library for name in _HANDING),
                   (*trusted, *library, _FROZEN, "<tests"), (*trusted, *library), submission,
                   tests_file, Outside(os.path.dirname(submission), os.getpid()),
                   frozenset(sys.path))
    busy: list[bool] = []  # the hook's own frame walk raises events: they pass

    def hook(event: str, args: tuple[Any, ...], watched: frozenset[str] = _WATCHED) -> None:
        if event not in watched or (event == "object.__getattr__" and args[1] not in _FRAME_ATTRIBUTES):
            return
        opener = getframe(1).f_code.co_filename if event in ("open", "compile") else ""
        loading = disguised(event, args, where, opener)  # whoever loads it, the import system too
        touch = Touch.CODE if loading else touch_of(event, args, where)
        if touch is None or busy:
            return
        busy.append(True)
        try:
            caller = getframe(2 if event in RAISED_BY_WRAPPERS else 1)  # the wrapper's caller
            if not loading and event == "compile" and caller.f_code.co_filename.startswith(_FROZEN):
                return  # the import system reading a module's file (Landlock says which)
            if (not loading and event not in ("compile", SEALED, GUARDED)
                    and not submitted(caller, where, touch is Touch.FRAMES)):
                return
        finally:
            busy.pop()
        if flags >= 0:
            try:
                write(flags, touch.value.encode() + b"\n")
            except OSError:
                pass  # closed by the submission: the relay sees the pipe end early
        raise PermissionError(f"the grader does not let submitted code reach {touch.value}")

    sys.addaudithook(hook)
