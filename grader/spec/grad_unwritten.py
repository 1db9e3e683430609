"""An error raised on a ``.grad`` the student's code read before any backward pass wrote it.

A step that forgets ``loss.backward()`` goes on to ``w -= lr * w.grad``: w.grad is still None,
and Python raises "unsupported operand type(s) for *: 'float' and 'NoneType'", which names
neither the backward that never ran nor w.grad.  A probe that watched the call raises such an
error again as ``GradUnwritten`` where the call ran no backward pass before it, and the student's
code read the .grad of a Value the probe gave it, which is None as the error is raised
(``grader.judge.explain`` tells it with that fact).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from micrograph.value import peek_grad

from grader.spec.call import Call
from grader.spec.probe import raised_again_as

NONE_TYPE = "NoneType"
"""What Python's error names where an operation met None (``* 'NoneType'``, ``'NoneType' object
has no attribute 'item'``): only such an error can come of a .grad that is None."""


class GradUnwritten(Exception):
    """The function a test called raised on None, having read the .grad of a Value that holds
    None, before any backward pass of the call.  Its message is ``"<function> <name> <error's text>"``
    (``name`` the probe's name of that Value); it is raised with the error's traceback, so the
    grader sees the line it came from."""


def told_if_grad_unwritten(call: Call, function: str,
                           given: dict[str, Any] | Callable[[], dict[str, Any]]) -> AbstractContextManager[None]:
    """While the watched ``call`` of ``function`` runs (grad mode sampled, so that its reads of
    .grad are seen): an error on None raised where no backward pass has started, after the
    student's code read the .grad of a Value among ``given`` (by the probe's names) whose .grad
    is None (an assignment of None, or nothing written yet), is raised again as ``GradUnwritten``.
    ``given`` may be a function giving them when the error is raised: Values the call made itself
    (the leaves of the graph backprop had build_graph make)."""
    def words(exc: Exception) -> str | None:
        named = given() if callable(given) else given
        name = next((name for name, v in named.items() if call.grad_reads.get(id(v)) is v
                     and peek_grad(v) is None), None)
        return None if call.roots or name is None or NONE_TYPE not in str(exc) else f"{function} {name}"
    return raised_again_as(GradUnwritten, words)
