"""Which engine code a frame runs, seen by the probes' profile hook (``grader.spec.call.Call``).

The hook sees frames, not calls: these name the engine's code objects and files it looks for, by
identity, so a function the submission wrote under an engine name is never taken for the engine's.
"""

from __future__ import annotations

import dis
import sys
from types import CodeType, FrameType
from typing import Any

import micrograph
from micrograph import engine, grad_mode, hooks, node
from grader.spec.raise_site import ENGINE_DIR

GRAD_GETTER = micrograph.Value.grad.fget.__code__
NEXT_FUNCTIONS = node.Node.next_functions.fget.__code__  # type: ignore[attr-defined]  # a node's edges read
DETACH_IN_PLACE = micrograph.Value.detach_.__code__  # type: ignore[attr-defined]
# A reduction of one Value, its one entry (``w.grad.sum().item()`` reads the gradient, as torch's idiom does).
ONE_ENTRY = frozenset({micrograph.Value.sum.__code__, micrograph.Value.mean.__code__,
                       micrograph.sum.__code__, micrograph.mean.__code__})
# A Value's number handed out as a float (``w.grad.item()``, ``float(w.grad)``, ``.tolist()``): the very float it holds.
NUMBER_READS = frozenset({micrograph.Value.item.__code__, micrograph.Value.tolist.__code__,
                          micrograph.Value.__float__.__code__})
RECORD_IN_PLACE = micrograph.value.record_inplace.__code__  # every in-place op (fill_, add_, copy_ ...) runs it
# ``.data`` read or set: a change through it moves no version counter.
DATA_SET = micrograph.Value.data.fset.__code__  # type: ignore[attr-defined]  # ``v.data = other``: v's number replaced
DATA_ACCESS = frozenset({micrograph.Value.data.fget.__code__, DATA_SET})  # type: ignore[attr-defined]
# Grad mode switched off: a ``no_grad`` block entered (its ``__enter__``, which ``enable_grad`` shares), or a
# ``set_grad_enabled(mode)`` made (the decorators' wrappers make one too).
NO_GRAD_ENTER = micrograph.no_grad.__enter__.__code__
PASS_CHECKED = engine.GraphTask.__init__.__code__  # a backward pass's roots checked: "does not have a grad_fn"
SET_GRAD_ENABLED = micrograph.set_grad_enabled.__init__.__code__
INFERENCE_ENTER = micrograph.inference_mode.__enter__.__code__  # an inference_mode block entered: it makes one too
# The engine's backward walk: its order, its ready queue, its node runner and what runs around a
# node (ex13 asks for your own).
ENGINE_WALK = frozenset(ENGINE_DIR + name for name in ("engine.py", "hooks.py"))
# The namespaces of the modules that define the code above: a frame runs a function's code under
# that function's module's globals (other globals would take a function made of its code, and no
# submission may name ``__code__`` or ``FunctionType``), so a frame under none of them runs none of it.
_VALUE_NAMESPACE = micrograph.Value.grad.fget.__globals__
_WALK_NAMESPACES = (vars(engine), vars(hooks))
_MODE_NAMESPACE = vars(grad_mode)  # no_grad's and set_grad_enabled's
_NODE_NAMESPACE = vars(node)  # next_functions' getter's
# Engine functions that hand back a Value without computing it: an alias or a copy of a Value
# the student made (``Value(number).detach()`` is no operation on the inputs).
ALIASES = frozenset({"detach", "data", "clone", "detach_", "requires_grad_", "shared", "alias"})


def _plain() -> None: ...


def _generator() -> Any:
    yield


# The decorators' wrappers (``@micrograph.no_grad()``, ``@set_grad_enabled(...)``,
# ``@inference_mode()``) hand back what the student's own function returned: no operation of theirs
# made it, whatever that function did.
PASS_THROUGH = frozenset(wrapped.__code__ for wrapped in (
    micrograph.no_grad()(_plain), micrograph.no_grad()(_generator), micrograph.inference_mode()(_plain)))


def watched_code(frame: FrameType) -> CodeType | None:
    """The code ``frame`` runs when it may be the getter of ``.grad``, ``detach_``, the engine's
    walk or a grad mode switch, else None, told by the frame's globals: reading a frame's code raises an audit
    event (which the worker's sentinel hears, at some 2,700 instructions each), its globals none,
    and the probes' profile hook sees every call."""
    found = frame.f_globals
    if (found is _VALUE_NAMESPACE or found is _WALK_NAMESPACES[0] or found is _WALK_NAMESPACES[1]
            or found is _MODE_NAMESPACE):
        return frame.f_code
    return None


# Every engine module's namespace (by id: they live as long as the process), to tell an engine
# function's frame by its globals before its code is read (audited).
_ENGINE_NAMESPACES = frozenset(id(vars(m)) for name, m in list(sys.modules.items())
                               if name == "micrograph" or name.startswith("micrograph."))
_RETURNS = frozenset(dis.opmap[name] for name in ("RETURN_VALUE", "RETURN_CONST", "YIELD_VALUE") if name in dis.opmap)


def attribute_read(frame: FrameType) -> str | None:
    """The attribute ``frame`` is reading where it stands at an attribute load (``ctx.saved_tensors``:
    a property of the engine's, run as its getter), else None.  Read only of a frame an engine
    error raised into."""
    at = next((ins for ins in dis.get_instructions(frame.f_code) if ins.offset == frame.f_lasti), None)
    return at.argval if at is not None and at.opname == "LOAD_ATTR" and type(at.argval) is str else None


def reads_edges(frame: FrameType) -> bool:
    """Whether ``frame`` runs the getter of a node's ``next_functions``, its code read only under the
    node module's namespace (see ``watched_code``)."""
    return frame.f_globals is _NODE_NAMESPACE and frame.f_code is NEXT_FUNCTIONS


def raised_out(frame: FrameType) -> bool:
    """Whether ``frame``, returning None, is an engine function's that ended by raising."""
    return id(frame.f_globals) in _ENGINE_NAMESPACES and not returned_normally(frame)


def returned_normally(frame: FrameType) -> bool:
    """Whether ``frame``, returning, ended by a return (or a generator's yield): a profile hook
    sees an exception leave a frame as a return of None, and only the frame's last instruction,
    a ``raise`` or a call, not a return, tells the two apart."""
    code = frame.f_code
    return code.co_code[frame.f_lasti] in _RETURNS


def reads_number(frame: FrameType) -> bool:
    """Whether ``frame`` runs one of ``NUMBER_READS``, its code read only under the Value's namespace."""
    return frame.f_globals is _VALUE_NAMESPACE and frame.f_code in NUMBER_READS


def in_mode_switch(frame: FrameType) -> bool:
    """Whether ``frame`` runs code of the grad mode module (``no_grad``, ``set_grad_enabled``, their
    decorators' wrappers), told by its globals alone: a switch entered, left or made while grad
    mode is off computes nothing, so it is not the student's code running with recording off
    (``set_grad_enabled(True)`` made inside a ``no_grad`` block turns recording back on)."""
    return frame.f_globals is _MODE_NAMESPACE


def in_walk(frame: FrameType) -> bool:
    """Whether ``frame`` runs code of the engine's walk (``ENGINE_WALK``), its code read only
    under the walk's namespaces (see ``watched_code``)."""
    found = frame.f_globals
    return (found is _WALK_NAMESPACES[0] or found is _WALK_NAMESPACES[1]) and frame.f_code.co_filename in ENGINE_WALK


def engine_function(frame: FrameType, given: list[Any]) -> Any:
    """The engine function ``frame`` runs (a module's function or a Value's method), found by
    its code object, or None."""
    code = frame.f_code
    found = [frame.f_globals.get(code.co_name)]
    if given and isinstance(given[0], micrograph.Value):
        found.append(vars(type(given[0])).get(code.co_name))
    return next((f for f in found if getattr(f, "__code__", None) is code), None)


def run_by_engine(frame: FrameType) -> bool:
    """Whether the engine's backward walk is running ``frame`` (a hook or a Function's
    backward the student wrote): the engine turns grad mode off for it, the student did not."""
    caller = frame.f_back
    while caller is not None:
        if caller.f_code.co_filename in ENGINE_WALK:
            return True
        caller = caller.f_back
    return False


def one_entry(frame: FrameType) -> Any:
    """The one Value a frame of ``ONE_ENTRY`` reduces (``w.grad.sum()``, ``micrograph.sum(w.grad)``,
    ``micrograph.mean([w.grad])``): its number is the reduction's.  None where it reduces several."""
    local = frame.f_locals
    source = local.get("self", local.get("values"))
    if type(source) in (list, tuple) and len(source) == 1:
        source = source[0]
    return source if isinstance(source, micrograph.Value) else None
