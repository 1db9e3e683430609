"""Forgeries that reach the probes through stack frames the interpreter hands over without the
audit events the sentinel watches, and through the standard library's own lookups and writes
of attributes by a name it is given, whose ``getattr`` and ``setattr`` are the real ones.  Each
is the honest wrong ex01 (``provenance_attacks.HONEST_WRONG``) plus one trick; each must score
no more than it and be flagged.

* a frame: given to a signal handler (a timer rings while the submission's ``grad_by_paths``
  waits: the frame it interrupted is its own, whose callers are the probes'); found by
  ``asyncio.base_tasks._task_get_stack`` from a generator passed as a task's coroutine; or
  copied off a traceback by ``functools.update_wrapper(box, tb, assigned=("tb_frame",))``.
  From there, ``update_wrapper`` with computed names copies ``f_back``, ``f_globals`` and
  ``f_locals``: the test module's namespace, in which ``watching`` is replaced by one that
  reports no backward pass, and the facts already made (``runs``), rewritten;
* no frame: ``update_wrapper`` copies the cell of ``observe``'s pass count out of
  ``observe.passes.__closure__`` and, with its own ``setattr``, writes the count back into it
  after ``grad_by_paths`` asked the engine; or ``from operator import *`` binds ``attrgetter``
  among the module's globals, read back by a computed key from ``vars()`` (no argument: the
  module's namespace), which copies the same cell out, and ``copy.copy`` of an object whose
  ``__reduce_ex__`` names that cell and its new ``cell_contents`` writes the count back
  (``copy._reconstruct`` sets the state it is given with ``setattr``);
* nothing of the library: the file rewritten in its scratch folder, which a fresh copy of the
  module (``grader.spec.repeat.fresh_copy``) read again, running code the parent never read;
  or a module written there at run time and imported (with the real builtins, unread), or an
  extension module (native code), which the import system loads from anywhere on
  ``sys.path``; or an annotation, given as the code runs or written as a string, that
  ``inspect.signature(f, eval_str=True)`` evaluates with the module's builtins
  (``exec(source)``).
"""

from __future__ import annotations

from grader.sandbox.child.wire import Touch
from provenance_attacks import Forgery, _hide

_COPY = '''import functools

BACK, GLOBALS, LOCALS = "f_b" + "ack", "f_g" + "lobals", "f_l" + "ocals"


class Box(dict):
    def __setattr__(self, name, value):
        self[name] = value


def copied(source, *names):
    box = Box()
    functools.update_wrapper(box, source, assigned=names, updated=())
    return box


'''
# from a frame of the submission's own, outward: the test module's ``watching`` replaced, the
# facts made so far rewritten
_OUTWARD = '''import contextlib


def forged(real):
    @contextlib.contextmanager
    def watching(*args, **kwargs):
        with real(*args, **kwargs) as call:
            yield call
        if args[1:2] == ("grad_by_paths",):
            call.fact["passes"] = 0
    return watching


def rewrite(frame):
    seen = copied(frame, BACK, GLOBALS, LOCALS)
    tests = seen[GLOBALS]
    if "grad_of" in tests and "watching" in tests and "forged" not in str(tests["watching"]):
        tests["watching"] = forged(tests["watching"])
    for run_so_far in seen[LOCALS].get("runs", ()):
        run_so_far["walk_only"][0]["passes"] = 0
    return seen[BACK]


def outward(frame):
    while frame is not None:
        frame = rewrite(frame)


'''
_SIGNAL = _COPY + _OUTWARD + '''import signal

RUNG = []


def ring(signum, frame):
    RUNG.append(frame)


def own_frame():
    previous = signal.signal(signal.SIGALRM, ring)
    left, _ = signal.setitimer(signal.ITIMER_REAL, 0.0001)
    while not RUNG:
        pass
    signal.signal(signal.SIGALRM, previous)
    if left > 0:
        signal.setitimer(signal.ITIMER_REAL, left)
    return RUNG.pop()


'''
_TRACEBACK = _COPY + _OUTWARD + '''import sys


def own_frame():
    try:
        raise ValueError("a traceback")
    except ValueError:
        return copied(sys.exc_info()[2], "tb_fr" + "ame")["tb_fr" + "ame"]


'''
_TASK = _COPY + _OUTWARD + '''from asyncio.base_tasks import _task_get_stack


class Task:
    pass


def stack():
    task = Task()
    task._coro = running
    yield _task_get_stack(task, None)  # the generator's callers, outermost first


running = stack()


def outward(_):
    global running
    frames = next(running)
    running = stack()
    for frame in frames:
        rewrite(frame)


'''
_HELPER = '''from micrograph import observe


def undo_passes(run):
    cell = observe.passes.__closure__[0]
    before = cell.cell_contents
    result = run()
    cell.cell_contents = before
    return result
'''
_ANNOTATED = '''import inspect

SOURCE = bytes.fromhex("0a66726f6d206d6963726f677261706820696d706f7274206f6273657276650a0a0a64656620726577696e642872756e293a0a2020202063656c6c203d206f6273657276652e7061737365732e5f5f636c6f737572655f5f5b305d0a202020206265666f7265203d2063656c6c2e63656c6c5f636f6e74656e74730a20202020726573756c74203d2072756e28290a2020202063656c6c2e63656c6c5f636f6e74656e7473203d206265666f72650a2020202072657475726e20726573756c740a").decode()
LOADED = {}


def loader(x):
    pass


'''
_EVALUATE = '''try:
    inspect.signature(loader, eval_str=True)
except PermissionError:
    pass


'''
_EVALUATED = "    return LOADED[\"rewind\"](run) if LOADED else run()\n"
_REWRITTEN = '''

def undo_passes(run):
    from micrograph import observe
    cell = observe.passes.__closure__[0]
    before = cell.cell_contents
    result = run()
    cell.cell_contents = before
    return result


__builtins__["undo_passes"] = undo_passes
'''
_FRAMED = "    result = run()\n    outward(own_frame())\n    return result\n"
_STACKED = "    result = run()\n    outward(None)\n    return result\n"

LIBRARY = [
    Forgery("pass_count_written_by_update_wrapper", Touch.DYNAMIC.value, _hide('''
    from micrograph import observe
    count = copied(observe.passes, "__clo" + "sure__")["__clo" + "sure__"][0]
    before = types.SimpleNamespace(**{"cell_" + "contents": observe.passes()})
    result = run()
    try:
        functools.update_wrapper(count, before, assigned=("cell_" + "contents",), updated=())
    except AttributeError:  # a cell takes no __wrapped__, once its count is written
        pass
    return result
''', "import types\n" + _COPY), runtime=False),
    Forgery("a_frame_given_to_a_signal_handler", Touch.SIGNALS.value, _hide(_FRAMED, _SIGNAL), runtime=True),
    Forgery("a_traceback_frame_copied_by_update_wrapper", Touch.FRAMES.value, _hide(_FRAMED, _TRACEBACK),
            runtime=True),
    Forgery("a_frame_from_a_task_stack", Touch.FRAMES.value, _hide(_STACKED, _TASK), runtime=True),
    Forgery("pass_count_written_through_a_star_import", Touch.DYNAMIC.value, _hide('''
    count = GET("__clo" + "sure__")(observe.passes)[0]
    before = observe.passes()
    result = run()
    copy.copy(Put(count, "cell_" + "contents", before))
    return result
''', '''import copy
from operator import *
from micrograph import observe

GET = vars()["attrg" + "etter"]


class Put:
    def __init__(self, target, name, value):
        self.target, self.name, self.value = target, name, value

    def __reduce_ex__(self, protocol):
        return (self.found, (), (None, {self.name: self.value}))

    def found(self):
        return self.target


'''), runtime=True),
    # no frame, no lookup: the file rewritten in the scratch folder, so that the fresh copy the
    # repeat probes make of the module runs code the parent never read, which puts a function
    # of its own among the builtins both copies share
    Forgery("the_file_rewritten_for_its_fresh_copy", None, _hide('''    try:
        return undo_passes(run)  # among the builtins once this file ran again
    except NameError:
        return run()
''', f'''TAIL = bytes.fromhex("{_REWRITTEN.encode().hex()}").decode()
with open(__file__, encoding="utf-8") as handle:
    WRITTEN = handle.read()
if TAIL not in WRITTEN:
    with open(__file__, "a", encoding="utf-8") as handle:
        handle.write(TAIL)


'''), runtime=False),
    # a module written into the scratch folder and imported: code the parent never read, run
    # with the real builtins
    Forgery("a_helper_module_written_and_imported", Touch.CODE.value, _hide(
        "    return helper_d.undo_passes(run)\n", f'''import os
import sys

with open("helper_d.py", "w", encoding="utf-8") as handle:
    handle.write(bytes.fromhex("{_HELPER.encode().hex()}").decode())
sys.path.insert(0, os.getcwd())
try:
    import helper_d
except PermissionError:
    helper_d = None


''').replace("    return helper_d.undo_passes(run)\n",
                 "    return run() if helper_d is None else helper_d.undo_passes(run)\n"), runtime=True),
    # an extension module written there: native code, loaded (here not even a shared object:
    # the import is refused before the file is opened)
    Forgery("an_extension_module_written_and_imported", Touch.CODE.value, _hide("    return run()\n", '''import os
import sys
import sysconfig

with open("helper_e" + sysconfig.get_config_var("EXT_SUFFIX"), "wb") as handle:
    handle.write(b"not a shared object")
sys.path.insert(0, os.getcwd())
try:
    import helper_e
except (ImportError, PermissionError):
    pass


'''), runtime=True),
    # an annotation is code when something evaluates it: here with the module's builtins, by
    # inspect.signature(..., eval_str=True), given as it runs or written as a string
    Forgery("code_in_annotations_given_as_it_runs", Touch.DYNAMIC.value, _hide(_EVALUATED,
            _ANNOTATED + "loader.__annotations__ = {\"x\": \"exec(SOURCE, LOADED)\"}\n" + _EVALUATE), runtime=True),
    Forgery("code_in_annotations_written_as_strings", Touch.DYNAMIC.value, _hide(_EVALUATED,
            _ANNOTATED.replace("def loader(x):", "def loader(x: \"exec(SOURCE, LOADED)\"):") + _EVALUATE).replace(
                "from __future__ import annotations\n", ""), runtime=True),
]
