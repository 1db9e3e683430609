"""Submissions that forge the facts that make grading graph-aware, one per way of reaching them.

Each is the *honest wrong* ex01 (``HONEST_WRONG``: ``backprop`` computes its numbers by a
formula, never reading a .grad backward wrote, and ``grad_by_paths`` asks the engine instead of
walking the paths), plus one trick that would make a probe report the facts the right answer
earns: numbers read from .grad, one backward pass, no pass where only a walk is allowed.
Whatever the trick, the file must score no more than ``HONEST_WRONG``, and be flagged for the
instructor; ``runtime`` names the tricks the child's sentinel must also have blocked as they ran
(the flag says "caught while running").
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from grader.sandbox.child.wire import Touch

SOLUTION = (Path(__file__).resolve().parents[2] / "solutions" / "ex01_graph.py").read_text()

_BACKPROP = '''def backprop(w: float, x: float) -> tuple[float, float]:
    """Build the graph, backpropagate from y, and return (dy/dw, dy/dx) as two floats."""
    g = build_graph(w, x)
    g["y"].backward()
    return g["w"].grad.item(), g["x"].grad.item()
'''
_BY_PATHS = 'def grad_by_paths(y: Value, leaf: Value, values: list[Value]) -> float:\n'

FORMULA = '''def backprop(w: float, x: float) -> tuple[float, float]:
    dw, dx = float((w + 1) + (x + w)), float(w + 1)
    forge(dw, dx)
    return dw, dx


def forge(dw: float, dx: float) -> None:
    pass
'''
ENGINE = '''def grad_by_paths(y: Value, leaf: Value, values: list[Value]) -> float:
    return hide(lambda: micrograph.grad(y, [leaf], retain_graph=True)[0].item())


def hide(run):
    return run()


def grad_by_paths_walked(y: Value, leaf: Value, values: list[Value]) -> float:
'''
HONEST_WRONG = SOLUTION.replace(_BACKPROP, FORMULA).replace(_BY_PATHS, ENGINE)
# the right answer, printing a traceback as a student debugging it does: no reach
DEBUGGING = SOLUTION.replace(_BACKPROP, _BACKPROP.replace(
    '    g["y"].backward()\n',
    '    g["y"].backward()\n    import traceback\n    try:\n        float("not a number")\n'
    '    except ValueError:\n        traceback.print_exc()\n'))
# the right answer with the records a student makes for its results: making a class sets its
# own __doc__, __module__ or __qualname__ (audit events, as a function's code swapped): no reach
CLASSES = SOLUTION.replace(_BACKPROP, _BACKPROP.replace(
    '    return g["w"].grad.item(), g["x"].grad.item()\n',
    '    pair = Pair(Grad(g["w"].grad.item()), Grad(g["x"].grad.item()))\n'
    '    return Point(*pair).w.value, Frozen(pair.second.value).value\n')) + '''

import collections
import dataclasses
import typing


@dataclasses.dataclass
class Grad:
    value: float


@dataclasses.dataclass(frozen=True)
class Frozen:
    value: float


class Pair(typing.NamedTuple):
    first: Grad
    second: Grad = Grad(0.0)


Point = collections.namedtuple("Point", "w x", defaults=(0.0,))
'''
# the right answer with what a student writes to look around: attributes by a computed name, a
# namespace read, a signature, the exception being handled, a breakpoint left in, its own
# objects' attributes in a format string, sys's own functions: no reach
READING = SOLUTION.replace(_BACKPROP, _BACKPROP.replace(
    '    g["y"].backward()\n', '    g["y"].backward()\n    describe(g["w"])\n')) + '''

def describe(v, fields=("data", "requires_grad", "is_leaf")):
    import inspect, sys
    shown = {name: getattr(v, name) for name in fields if hasattr(v, name)}
    print(shown, "grad" in v.__dict__, inspect.signature(describe))
    for key in v.__dict__:
        v.__dict__.get(key)
    try:
        float("not a number")
    except ValueError:
        print(sys.exc_info()[0].__name__)
    breakpoint()
    node = Node()
    print(hasattr(node, "_backward"), getattr(node, "_" + "prev"))
    print("{0._prev} {1.data:.2f} {2:>4}".format(node, v, "ok"), ("{n." + "_prev}").format_map({"n": node}))
    sys.setrecursionlimit(sys.getrecursionlimit())


class Node:  # micrograd's names: its own objects' private names are the student's
    def __init__(self):
        self._backward = lambda: None
        self._prev = ()
'''
assert HONEST_WRONG.count("def forge") == 1 and HONEST_WRONG.count("def hide") == 1
assert DEBUGGING.count("print_exc") == 1


@dataclass(frozen=True)
class Forgery:
    name: str
    kind: str | None  # what it reaches for, as the flag names it; None: it changes nothing graded
    code: str  # the honest wrong answer with ``forge`` or ``hide`` replaced
    runtime: bool  # the sentinel blocks it as it runs, too


def _forge(body: str, prelude: str = "") -> str:
    return HONEST_WRONG.replace("def forge(dw: float, dx: float) -> None:\n    pass\n",
                                prelude + "def forge(dw: float, dx: float) -> None:\n" + body)


def _hide(body: str, prelude: str = "") -> str:
    return HONEST_WRONG.replace("def hide(run):\n    return run()\n",
                                prelude + "def hide(run):\n" + body)


# the probes' observer caught by a function put in the place of ``observe.observing``, and the
# pass counter replaced: public names only, so the parent's reading finds nothing
_SPY = '''from micrograph import observe as seen
calls = []
real_observing = seen.observing
def spy(observer):
    calls.append(observer)
    return real_observing(observer)
count = [0]
try:
    seen.observing = spy
    seen.passes = lambda: count[0]
except PermissionError:
    pass


'''


# the same spy, and the pass counter, written past the seal: the generic ``object.__setattr__``
# that ``object``'s namespace hands out by a computed key writes a sealed module's namespace
_GENERIC_SETATTR = '''from micrograph import observe as seen
calls, count = [], [0]
real_observing, real_passes = seen.observing, seen.passes
def spy(observer):
    calls.append(observer)
    return real_observing(observer)
write = vars(object)["__set" + "attr__"]
write(seen, "observing", spy)
write(seen, "passes", lambda: real_passes() + count[0])


'''
# the builtins module every grader module looks names up in last, found among the modules
_BUILTINS = '''import sys
real = vars(sys)["mod" + "ules"]["built" + "ins"]
real.isinstance = lambda x, kind, check=real.isinstance: check(x, kind)


'''


FORGERIES = [
    Forgery("floats_held_and_passes_bumped", Touch.OBSERVER.value, _forge('''
    from micrograph import observe
    call = observe._observers[-1] if observe._observers else None  # the innermost: the probe's
    if call is not None:
        call.probe_held[id(dw)] = dw
        call.probe_held[id(dx)] = dx
    observe._passes += 1  # no such attribute: the count lives in a closure
'''), runtime=False),
    # ``vars(object)`` is the submission's own guarded view: the generic setattr is refused there
    Forgery("a_sealed_module_written_by_object_setattr", Touch.DYNAMIC.value, _forge('''
    count[0] += 1
    if calls:
        numbers = vars(calls[-1])["probe_held"]
        numbers[id(dw)] = dw
        numbers[id(dx)] = dx
''', _GENERIC_SETATTR), runtime=True),
    # ``vars(sys)`` too: its ``modules`` is refused there
    Forgery("the_builtins_module_rewritten", Touch.MODULES.value, _forge("    pass\n", _BUILTINS),
            runtime=True),
    Forgery("the_observer_by_computed_names", Touch.DYNAMIC.value, _forge('''
    from micrograph import observe
    calls = getattr(observe, "_ob" + "servers")
    call = calls[-1] if calls else None
    if call is not None:
        getattr(call, "he" + "ld").update({id(dw): dw, id(dx): dx})
    setattr(observe, "_pa" + "sses", observe.passes() + 1)
'''), runtime=True),
    Forgery("the_profile_hook_holds_the_observer", Touch.HOOKS.value, _forge('''
    import sys
    sample = sys.getprofile()
    if sample is not None:
        sample.__self__.probe_held.update({id(dw): dw, id(dx): dx})
'''), runtime=False),
    Forgery("test_helpers_replaced_through_frames", Touch.FRAMES.value, _forge('''
    import sys
    def holds(numbers, call, label):
        return {"fact": "check", "label": label, "check": "read_from_grad", "holds": True}
    try:
        frame = sys._getframe(1)
        while frame is not None and "read_from_grad" not in frame.f_globals:
            frame = frame.f_back
        if frame is not None:
            frame.f_globals["read_from_grad"] = holds
    except PermissionError:
        pass
'''), runtime=True),
    Forgery("frames_from_a_traceback", Touch.FRAMES.value, _forge('''
    try:
        raise ValueError
    except ValueError as exc:
        try:
            frame = exc.__traceback__.tb_frame.f_back
            frame.f_globals["read_from_grad"] = lambda numbers, call, label: {
                "fact": "check", "label": label, "check": "read_from_grad", "holds": True}
        except PermissionError:
            pass
'''), runtime=True),
    Forgery("profile_hook_removed_and_passes_rewound", Touch.HOOKS.value, _hide('''
    import sys
    from micrograph import observe
    try:
        sys.setprofile(None)
    except PermissionError:
        pass
    before = observe.passes()
    result = run()
    observe._passes = before
    return result
'''), runtime=True),
    Forgery("pass_started_swapped", Touch.OBSERVER.value, _hide('''
    from micrograph import observe
    real = observe.pass_started
    observe.pass_started = lambda *args: None
    try:
        return run()
    finally:
        observe.pass_started = real
'''), runtime=True),
    # compile is refused as the submission's module looks it up (its name in the source is
    # refused too); the sentinel refuses the engine's file name for code the import system
    # compiles (disguise_attacks.py)
    Forgery("error_compiled_under_the_engines_name", Touch.DYNAMIC.value, _forge('''
    import micrograph.engine
    try:
        exec(compile("raise RuntimeError('element 0 of tensors does not require grad')",
                     micrograph.engine.__file__, "exec"))
    except (RuntimeError, PermissionError):
        pass
'''), runtime=True),
    Forgery("grad_write_rewritten", Touch.OBSERVER.value, _forge('''
    from micrograph import Value, observe
    leaf = Value(0.0, requires_grad=True)
    leaf.grad = Value(dw)
    leaf._grad_write = (observe.Writer.ACCUMULATE_GRAD, observe.passes(), leaf.grad, 0, dw)
'''), runtime=False),
    Forgery("the_observer_found_by_the_garbage_collector", Touch.MEMORY.value, _forge('''
    import gc
    try:
        for thing in gc.get_objects():
            if type(thing).__name__ == "Call":
                thing.probe_held.update({id(dw): dw, id(dx): dx})
    except PermissionError:
        pass
'''), runtime=True),
    Forgery("memory_through_ctypes", Touch.MEMORY.value, _forge('''
    import ctypes
    try:
        ctypes.CDLL(None)
    except PermissionError:
        pass
'''), runtime=True),
    Forgery("the_test_module_by_name", Touch.TESTS.value, _forge('''
    import sys
    for module in list(sys.modules.values()):
        if hasattr(module, "EXERCISE"):
            module.read_from_grad = lambda numbers, call, label: {
                "fact": "check", "label": label, "check": "read_from_grad", "holds": True}
'''), runtime=True),
    Forgery("the_observer_caught_by_a_spy_on_observing", Touch.OBSERVER.value, _forge('''
    count[0] += 1
    if calls:
        calls[-1].hold(dw)
        calls[-1].hold(dx)
''', _SPY), runtime=True),
    Forgery("the_pass_counter_replaced", Touch.OBSERVER.value, _hide('''    return run()
''', '''from micrograph import observe as seen
try:
    seen.passes = lambda: 0
except PermissionError:
    pass


'''), runtime=True),
    Forgery("the_grad_writer_query_replaced", Touch.OBSERVER.value, _forge('''    pass
''', '''import micrograph.observe
try:
    del micrograph.observe.grad_write
except PermissionError:
    pass


'''), runtime=True),
    Forgery("the_observe_namespace_written", Touch.DYNAMIC.value, _hide('''    return run()
''', '''from micrograph import observe as seen
try:
    vars(seen)["passes"] = lambda: 0
except (TypeError, PermissionError):
    pass


'''), runtime=True),
    Forgery("the_observer_by_a_computed_getattr", Touch.OBSERVER.value, _forge('''
    from micrograph import observe
    call = getattr(observe, "_ob" + "servers")[-1]
    call.hold(dw)
    call.hold(dx)
'''), runtime=True),
    Forgery("the_observe_namespace_through_globals", Touch.CODE.value, _hide('''    return run()
''', '''from micrograph import observe as seen
try:
    getattr(seen.passes, "__glo" + "bals__")["passes"] = lambda: 0
except PermissionError:
    pass


'''), runtime=True),
    Forgery("the_observer_through_resolve_name", Touch.DYNAMIC.value, _forge('''
    import pkgutil
    call = pkgutil.resolve_name("micrograph.observe:_ob" + "servers")[-1]
    call.hold(dw)
    call.hold(dx)
'''), runtime=False),
    Forgery("the_profile_hook_by_a_computed_getattr", Touch.HOOKS.value, _forge('''
    import sys
    sample = getattr(sys, "get" + "profile")()
    if sample is not None:
        owner = getattr(sample, "__se" + "lf__")
        owner.hold(dw)
        owner.hold(dx)
'''), runtime=True),
    Forgery("the_real_getattr_behind_print", Touch.DYNAMIC.value, _forge('''
    real = print.__self__.getattr
    from micrograph import observe
    call = real(observe, "_ob" + "servers")[-1]
    call.hold(dw)
    call.hold(dx)
    real(observe.passes, "__glo" + "bals__")["_pa" + "sses"] += 1
'''), runtime=False),
    Forgery("the_real_getattr_from_a_reduce", Touch.DYNAMIC.value, _forge('''
    real = (1.0).hex.__reduce_ex__(2)[0]
    from micrograph import observe
    call = real(observe, "_ob" + "servers")[-1]
    call.hold(dw)
    call.hold(dx)
    real(observe.passes, "__glo" + "bals__")["_pa" + "sses"] += 1
'''), runtime=True),
    Forgery("code_run_by_timeit", Touch.DYNAMIC.value, _forge('''
    import timeit
    timeit.timeit("import micrograph.observe as o\\nc = getattr(o, '_ob' + 'server')\\n"
                  "c.hold(dw)\\nc.hold(dx)\\n"
                  "getattr(o.passes, '__glo' + 'bals__')['_pa' + 'sses'] += 1",
                  globals={"dw": dw, "dx": dx}, number=1)
'''), runtime=False),
    Forgery("annotations_evaluated_with_the_real_builtins", Touch.DYNAMIC.value, _forge('''
    import typing
    from micrograph import observe

    def spot(x: "getattr(observe, '_ob' + 'server')"):
        pass
    call = typing.get_type_hints(spot, globalns={"observe": observe})["x"]
    call.hold(dw)
    call.hold(dx)
'''), runtime=False),
    Forgery("a_submodule_bound_before_the_import_system", Touch.OBSERVER.value, _forge('''    pass
''', '''import types
import micrograph
try:
    micrograph.not_yet_imported = types.ModuleType("micrograph.not_yet_imported")
except PermissionError:
    pass


'''), runtime=True),
    Forgery("answers_rewritten_by_json_dumps", Touch.WIRE.value, _forge('''    pass
''', '''import json

real_dumps = json.dumps


def rewrite(x):
    if isinstance(x, dict):
        out = {k: rewrite(v) for k, v in x.items()}
        if out.get("holds") is False:
            out["holds"] = True
        if "passes" in out:
            out["passes"] = 1 if out.get("label") == "backprop" else 0
        return out
    return [rewrite(v) for v in x] if isinstance(x, list) else x


try:
    json.dumps = lambda obj, **options: real_dumps(rewrite(obj), **options)
except PermissionError:
    pass


'''), runtime=True),
    Forgery("answers_rewritten_by_the_os_module_of_posixpath", Touch.WIRE.value, _forge('''    pass
''', '''import posixpath

real_write = posixpath.os.write
try:
    posixpath.os.write = lambda fd, data: real_write(fd, bytes(data).replace(b"false", b"true "))
except PermissionError:
    pass


'''), runtime=True),
    Forgery("objects_getattribute_and_setattr_by_vars", Touch.DYNAMIC.value, _forge('''
    from micrograph import observe
    read, write = vars(object)["__getattri" + "bute__"], vars(object)["__set" + "attr__"]
    call = read(observe, "_ob" + "servers")[-1]
    call.hold(dw)
    call.hold(dx)
    write(observe, "_pa" + "sses", read(observe, "_pa" + "sses") + 1)
'''), runtime=True),
    Forgery("objects_namespace_through_an_alias", Touch.DYNAMIC.value, _forge('''
    from micrograph import observe
    base = object
    read = base.__dict__["__getattri" + "bute__"]
    call = read(observe, "_ob" + "servers")[-1]
    call.hold(dw)
    call.hold(dx)
'''), runtime=True),
    # a frozen dataclass's __init__ is object.__setattr__ under another name, past the seal: the
    # count lives in observe's closure, so the name it writes is read by nothing graded (making
    # the class is no reach: an honest answer makes dataclasses too)
    Forgery("the_pass_count_written_by_a_frozen_dataclass", None, _hide('''
    from micrograph import observe
    before = observe.passes()
    result = run()
    Rewind.__init__(observe, before)
    return result
''', '''import dataclasses


@dataclasses.dataclass(frozen=True)
class Rewind:
    _passes: int


'''), runtime=False),
    Forgery("an_engine_class_rewritten", Touch.OBSERVER.value, _forge("    pass\n", '''import micrograph

real_item = micrograph.Value.item
micrograph.Value.item = lambda self: real_item(self)


'''), runtime=True),
    Forgery("answers_rewritten_by_the_json_encoder_class", None, _forge("    pass\n", '''import json

real_encode = json.JSONEncoder.encode
json.JSONEncoder.encode = lambda self, o: real_encode(self, o).replace("false", "true")


'''), runtime=False),
    Forgery("every_pipe_closed_first", Touch.WIRE.value, _forge('''  # its answers' pipe too: a death
    import os, sys
    for fd in range(3, 64):
        try:
            os.close(fd)
        except OSError:
            pass
    try:
        sys._getframe()
    except PermissionError:
        pass
'''), runtime=False),
]
