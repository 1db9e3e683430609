"""An error raised after the student's code called a function the probe gave it with grad mode off.

ex09's sgd_step is given loss_fn by the probe; ex04's backward_twice calls the build_graph given with
the exercise.  Called inside the student's ``no_grad`` block, such a function computes a result
that no graph records, and the backward from it raises the engine's "element 0 of tensors does
not require grad and does not have a grad_fn" at the backward line, which names neither no_grad
nor the function.  The probe gives the call a ``ModeNoted`` loss_fn, or watches build_graph with
``grader.spec.given.given_calls``; each notes the grad mode of each call; an error of that kind
raised after its last call ran with grad mode off is raised again as ``GivenUnderNoGrad``
(``grader.judge.explain`` tells it with that fact).  ex15's train is given a model, which the
probe cannot wrap (the student's code uses it as the Module it is): where train raised that error,
the same call is made again on a new model of the same make, with a profile hook noting the grad
mode and the student's line of each call of that model (a hook around every call would slow the
training of every correct answer).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from sys import getprofile, setprofile  # bound now: a submission may rebind sys's names (seal.SYS)
from types import FrameType, FunctionType
from typing import Any, Protocol, TypeVar

import micrograph

from grader.spec.engine_code import INFERENCE_ENTER, NO_GRAD_ENTER, PASS_THROUGH, SET_GRAD_ENABLED, in_mode_switch
from grader.spec.made_untracked import DECORATED, INFERENCE, NO_GRAD, SET_GRAD
from grader.spec.probe import raised_again_as
from grader.spec.raised import NO_GRAD_FN


UNLINED = "-"
"""The line's place in the message where the call's line is not known (a function the probe wrapped)."""
RETAIN_UNTRACKED = "can't retain_grad on Tensor that has requires_grad=False"
"""The engine's error from retain_grad() on a Value that requires no grad (one computed with grad mode off)."""
UNSPELLED = "unspelled"
"""The given name's suffix where the code turned grad mode off with several spellings, or none the probe saw
(``loss_fn:unspelled``): the sentence names none."""
_MODULE_CALL = micrograph.nn.Module.__call__.__code__  # how a Module is called: model(inputs)
_NN_NAMESPACE = micrograph.nn.Module.__call__.__globals__  # its frames' globals, read before their code (audited)
M = TypeVar("M")


class GivenUnderNoGrad(Exception):
    """The function a test called raised the engine's "does not have a grad_fn" after it called
    the function it was given with grad mode off.  Its message is ``"<function> <given> <line or
    -> <error's text>"``; it is raised with the error's traceback, so the grader sees the line it
    came from."""


class ModeNoted:
    """A function given to the student's code, which notes whether grad mode was on at each call, and
    what each call returned (kept alive: a copy the student's code made of it, a detach(), is told by
    what it shares with one of them)."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn = fn
        self.modes: list[bool] = []
        self.results: list[Any] = []

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.modes.append(micrograph.is_grad_enabled())
        result = self.fn(*args, **kwargs)
        self.results.append(result)
        return result


class Noted(Protocol):
    """A given function's record of the grad mode at each of its calls (``ModeNoted``, ``GivenCalls``)."""

    modes: list[bool]


def told_if_untracked(given: Noted, function: str, name: str, offs: set[str] | None = None) -> AbstractContextManager[None]:
    """While the student's ``function`` runs with ``given`` (its argument ``name``): the engine's
    "does not have a grad_fn", or its refusal of retain_grad() on a Value that requires no grad,
    raised after the last call of ``given`` ran with grad mode off is raised again as
    ``GivenUnderNoGrad``; ``offs``, the spellings the watched call turned grad mode off with
    (``Call.offs``): where set_grad_enabled(False), inference_mode() or one function of the student's
    decorated to run with grad mode off is the only one, the given name carries it (``loss_fn:set_grad_enabled``,
    ``loss_fn:inference_mode``, ``loss_fn:decorated:_graph``)."""
    def words(exc: Exception) -> str | None:
        kind = NO_GRAD_FN in str(exc) or RETAIN_UNTRACKED in str(exc)
        off = kind and bool(given.modes) and not given.modes[-1]
        spelled = _spelled(offs or set())
        return f"{function} {name}{spelled} {UNLINED}" if off else None
    return raised_again_as(GivenUnderNoGrad, words)


def told_if_module_untracked(make: Callable[[], M], call: Callable[[M], object], filename: str, function: str,
                             name: str) -> AbstractContextManager[None]:
    """While the student's ``function`` runs, given a Module (its argument ``name``): the engine's
    "does not have a grad_fn" it raises is raised again as ``GivenUnderNoGrad`` where ``call`` on a
    new Module (``make()``) raises that error too, after the last call its file (``filename``) made
    of that Module ran with grad mode off: with that call's line, and the spelling (``model:set_grad_enabled``,
    ``model:inference_mode``) where set_grad_enabled(False) or inference_mode() is the only switch its file made."""
    def words(exc: Exception) -> str | None:
        if NO_GRAD_FN not in str(exc):
            return None
        module = make()
        modes: list[tuple[bool, int]] = []
        offs: set[str] = set()  # how the file switched grad mode off (``_spelled_off``)
        previous = getprofile()

        def sample(frame: FrameType, event: str, arg: object) -> None:
            if previous is not None:
                previous(frame, event, arg)
            if event != "call":
                return
            if in_mode_switch(frame):
                offs.add(_spelled_off(frame, filename))
            elif (frame.f_globals is _NN_NAMESPACE and frame.f_locals.get("self") is module
                    and frame.f_code is _MODULE_CALL and frame.f_back is not None
                    and frame.f_back.f_code.co_filename == filename):
                modes.append((micrograph.is_grad_enabled(), frame.f_back.f_lineno))

        setprofile(sample)
        try:
            call(module)
        except Exception as again:  # noqa: BLE001 - the error again, or another: only the first is told
            off = NO_GRAD_FN in str(again) and bool(modes) and not modes[-1][0]
            made = offs - {""}
            spelled = _spelled(made)
            return f"{function} {name}{spelled} {modes[-1][1]}" if off else None
        finally:
            setprofile(previous)
        return None
    return raised_again_as(GivenUnderNoGrad, words)


def _spelled(offs: set[str]) -> str:
    """The given name's suffix for the spellings ``offs`` the code turned grad mode off with: the only one, where
    it is set_grad_enabled(False), inference_mode() or a function of the student's decorated (named); none where
    it is no_grad (the sentence's own word); ``UNSPELLED`` where there are several, or none seen."""
    only = min(offs) if len(offs) == 1 else ""
    if only in (SET_GRAD, INFERENCE) or only.startswith(DECORATED + ":"):
        return f":{only}"
    return "" if only in (NO_GRAD, DECORATED) else f":{UNSPELLED}"


def _spelled_off(frame: FrameType, filename: str) -> str:
    """How ``frame``, a grad mode switch's, turned grad mode off where the file ``filename`` made it:
    ``no_grad`` entered, ``set_grad_enabled(False)`` made, ``inference_mode()`` entered (its own switch), a
    function of the file decorated with ``@no_grad()`` called (``decorated:<its name>``); "" for anything else
    (a switch on, the engine's)."""
    caller = frame.f_back
    if caller is not None and frame.f_code is SET_GRAD_ENABLED and caller.f_code in PASS_THROUGH:
        fn, student = caller.f_locals.get("fn"), caller.f_back
        named = (type(fn) is FunctionType and fn.__name__.isidentifier() and student is not None
                 and student.f_code.co_filename == filename)
        return f"{DECORATED}:{fn.__name__}" if named and frame.f_locals.get("mode") is False else ""
    inference = caller is not None and caller.f_code is INFERENCE_ENTER
    student = caller.f_back if inference and caller is not None else caller
    if student is None or student.f_code.co_filename != filename:
        return ""
    code = frame.f_code
    if code is NO_GRAD_ENTER and isinstance(frame.f_locals.get("self"), micrograph.no_grad):
        return "no_grad"
    if code is SET_GRAD_ENABLED and frame.f_locals.get("mode") is False:
        return INFERENCE if inference else SET_GRAD
    return ""
