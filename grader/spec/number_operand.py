"""A Python number an operator of the student's Value handed on where a Value belongs.

``w + 1`` calls the student's ``Value.__add__`` with ``other`` the int 1; one that hands
``other`` on as it came (no ``as_value``) makes the engine read a Value's attribute of the number
(``gradient_edge`` reading ``v.grad_fn``), and Python's AttributeError ("'int' object has no
attribute 'grad_fn'") names neither the operator nor the number.  The error's ``obj`` (the
object whose attribute was missing, Python 3.10 on) is compared by identity with the arguments of
the operator's frame in the student's file (the grader reads frames; the submission cannot):
where it is one of them, a probe that watched the call raises the error again as
``NumberOperand``, with the operator and its argument's name; ``grader.judge.explain`` tells it.
"""

from __future__ import annotations

import functools
import traceback
from collections.abc import Callable
from types import ModuleType
from typing import Any

from grader.spec.probe import raised_again_as

OPERATORS = ("__add__", "__radd__", "__mul__", "__rmul__", "__iadd__", "add_")  # what takes a number as an operand


class NumberOperand(Exception):
    """An AttributeError raised on a Python number an operator of the student's Value was given
    and handed on.  Its message is ``"<Class.operator> <argument> <number's type> <error's text>"``;
    it is raised with the error's traceback, so the grader sees the line it came from."""


def number_words(exc: BaseException, filename: str) -> str | None:
    """``"<Class.operator> <argument> <type>"`` where ``exc`` is an AttributeError on a number
    that an operator's frame in the student's file (``filename``) holds as one of its arguments,
    the outermost such frame; None otherwise."""
    number = getattr(exc, "obj", None) if type(exc) is AttributeError else None
    if type(number) not in (int, float):
        return None
    for frame, _line in traceback.walk_tb(exc.__traceback__):
        code = frame.f_code
        if code.co_filename != filename or code.co_name not in OPERATORS:
            continue
        given = [name for name in code.co_varnames[1:code.co_argcount] if frame.f_locals.get(name) is number]
        if given and given[0].isidentifier() and all(part.isidentifier() for part in code.co_qualname.split(".")):
            return f"{code.co_qualname} {given[0]} {type(number).__name__}"
    return None


def number_operand_told(probe: Callable[[ModuleType], Any]) -> Callable[[ModuleType], Any]:
    """A test's probe run with an AttributeError on a number an operator handed on raised again as
    ``NumberOperand``."""
    @functools.wraps(probe)
    def run(sub: ModuleType) -> Any:
        filename = str(getattr(sub, "__file__", "") or "")
        with raised_again_as(NumberOperand, lambda exc: number_words(exc, filename)):
            return probe(sub)
    return run
