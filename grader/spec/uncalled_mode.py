"""A ``with`` statement given a grad mode class itself, not called: ``with micrograph.no_grad:``.

``no_grad`` is a class, as torch's: ``no_grad()`` makes the context manager a ``with`` needs.
Given the class itself, Python raises "'type' object does not support the context manager
protocol" (a TypeError; in 3.10 an AttributeError, "__enter__"), as for ``torch.no_grad`` (the
same type and text), which names neither no_grad nor the missing call.  The object the ``with`` met is read again from the instructions the student's
frame ran just before it (its names looked up in that frame: loads of names and attributes of
modules only, so no code of the submission runs), where the error was raised at the ``with``.
A probe that watched the call raises such an error again as ``ModeUncalled``, with the function
whose ``with`` it was, the expression as the code wrote it and the arguments its call takes; ``grader.judge.explain`` tells it.
"""

from __future__ import annotations

import dis
import inspect
from contextlib import AbstractContextManager
from types import FrameType

import micrograph

from grader.spec.probe import raised_again_as

MODES = {micrograph.no_grad: "()", micrograph.enable_grad: "()", micrograph.inference_mode: "()",
         micrograph.set_grad_enabled: "(mode)"}
"""The grad mode classes, each with the arguments of the call that makes its context manager (torch's names)."""
_WITH = {"BEFORE_WITH", "SETUP_WITH", "BEFORE_ASYNC_WITH"}  # the instruction that enters a with (3.10: SETUP_WITH)
_NAMES = {"LOAD_GLOBAL", "LOAD_NAME", "LOAD_FAST", "LOAD_DEREF"}
_MISSING = object()


class ModeUncalled(Exception):
    """The function a test called raised at a ``with`` given a grad mode class, not called.  Its
    message is ``"<function> <expression> <arguments> <error's text>"`` (``arguments`` as in ``MODES``);
    it is raised with the error's traceback, so the grader sees the line it came from."""


def told_if_mode_uncalled(filename: str) -> AbstractContextManager[None]:
    """While the block runs: a TypeError raised at a ``with`` of the student's file (``filename``)
    whose object is one of ``MODES`` is raised again as ``ModeUncalled``."""
    def words(exc: Exception) -> str | None:
        if not _with_refused(exc):
            return None
        entries = [(frame, lasti) for frame, lasti in _entries(exc) if frame.f_code.co_filename == filename]
        if not entries or not entries[-1][0].f_code.co_name.isidentifier():
            return None
        frame, lasti = entries[-1]
        written = _uncalled(frame, lasti)
        return None if written is None else f"{frame.f_code.co_name} {written[0]} {written[1]}"
    return raised_again_as(ModeUncalled, words)


def _with_refused(exc: Exception) -> bool:
    """Whether ``exc`` is what Python raises at a ``with`` given an object that is no context
    manager: a TypeError from Python 3.11 on, an AttributeError naming ``__enter__`` in 3.10 (the
    instruction it was raised at says whether a ``with`` raised it, ``_uncalled``)."""
    return type(exc) is TypeError or type(exc) is AttributeError and str(exc) == "__enter__"


def _entries(exc: BaseException) -> list[tuple[FrameType, int]]:
    """Each traceback entry's frame and the offset of the instruction it was at, outermost first."""
    entries, tb = [], exc.__traceback__
    while tb is not None:
        entries.append((tb.tb_frame, tb.tb_lasti))
        tb = tb.tb_next
    return entries


def _uncalled(frame: FrameType, lasti: int) -> tuple[str, str] | None:
    """The dotted expression (``micrograph.no_grad``) a ``with`` at offset ``lasti`` of ``frame``
    entered, and its call's arguments in ``MODES``, where the instructions before it load a name and
    its attributes alone and the object they give is one of ``MODES``; None otherwise (a call, a
    subscript, another object)."""
    instructions = list(dis.get_instructions(frame.f_code))
    at = next((k for k, ins in enumerate(instructions) if ins.offset == lasti), None)
    if at is None or instructions[at].opname not in _WITH:
        return None
    attributes: list[str] = []
    for ins in reversed(instructions[:at]):
        if ins.opname == "LOAD_ATTR":
            attributes.insert(0, str(ins.argval))
        elif ins.opname in _NAMES:
            found = _resolved(frame, str(ins.argval), attributes)
            args = next((args for mode, args in MODES.items() if found is mode), None)
            return None if args is None else (".".join([str(ins.argval), *attributes]), args)
        else:
            return None
    return None


def _resolved(frame: FrameType, name: str, attributes: list[str]) -> object:
    """What ``name.attr...`` is in ``frame``: the name from its locals, globals or builtins, and
    each attribute read from a module's namespace only (no property or ``__getattr__`` of the submission's runs)."""
    scopes = (frame.f_locals, frame.f_globals, frame.f_builtins)
    found = next((scope[name] for scope in scopes if name in scope), _MISSING)
    for attribute in attributes:
        found = vars(found).get(attribute, _MISSING) if inspect.ismodule(found) else _MISSING
    return found
