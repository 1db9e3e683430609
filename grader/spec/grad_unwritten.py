"""An error raised on a ``.grad`` the student's code read before any backward pass wrote it, or
after its own code set it to None past the call's backward pass.

A step that forgets ``loss.backward()`` goes on to ``w -= lr * w.grad``: w.grad is still None,
and Python raises "unsupported operand type(s) for *: 'float' and 'NoneType'", which names
neither the backward that never ran nor w.grad.  A probe that watched the call raises such an
error again as ``GradUnwritten`` where the student's code read the .grad of a Value the probe gave
it, which is None as the error is raised, and either the call ran no backward pass before it
(``unwritten``), or the last write of that .grad is the student's ``= None``, made once a pass of
the call had started (``cleared``: the step's "clear the old gradient" put after its backward), or
a pass ran but that Value requires no grad, so no pass writes its .grad (``untracked``: ``.item()``
read on the gradient of a leaf made with ``requires_grad=False``), or the passes it ran go through
graphs that never reach that Value (``unreached``: backward called on the y of one graph, the .grad
read of a leaf of another, built again);
``grader.judge.explain`` tells it with that fact.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any

from micrograph import observe
from micrograph.value import peek_grad

from grader.spec.call import Call
from grader.spec.probe import raised_again_as

NONE_TYPE = "NoneType"
"""What Python's error names where an operation met None (``* 'NoneType'``, ``'NoneType' object
has no attribute 'item'``): only such an error can come of a .grad that is None."""


UNWRITTEN, CLEARED, UNTRACKED, UNREACHED = "unwritten", "cleared", "untracked", "unreached"
"""Why the .grad read is None: no backward pass of the call ran, the student's code set it to None after one,
the Value requires no grad, or no pass's graph reaches it."""


class GradUnwritten(Exception):
    """The function a test called raised on None, having read the .grad of a Value that holds
    None, before any backward pass of the call or after its code set it to None past one.  Its message is
    ``"<function> <name> <why> <error's text>"`` (``name`` the probe's name of that Value, ``why`` UNWRITTEN or
    CLEARED); it is raised with the error's traceback, so the grader sees the line it came from."""


def told_if_grad_unwritten(call: Call, function: str,
                           given: dict[str, Any] | Callable[[], dict[str, Any]]) -> AbstractContextManager[None]:
    """While the watched ``call`` of ``function`` runs (grad mode sampled, so that its reads of
    .grad are seen): an error on None raised after the student's code read the .grad of a Value
    among ``given`` (by the probe's names) whose .grad is None, where no backward pass has started
    (an assignment of None, or nothing written yet) or where the student's code set it to None once
    one had, is raised again as ``GradUnwritten``.  ``given`` may be a function giving them when
    the error is raised: Values the call made itself (the leaves of the graph backprop had build_graph make)."""
    def words(exc: Exception) -> str | None:
        named = given() if callable(given) else given
        order = list(call.grad_reads)[::-1]  # the Value read last first: the one the error met
        read = sorted(((name, v) for name, v in named.items() if call.grad_reads.get(id(v)) is v and peek_grad(v) is None),
                      key=lambda pair: order.index(id(pair[1])))
        if not read or NONE_TYPE not in str(exc):
            return None
        if not call.roots:
            return f"{function} {read[0][0]} {UNWRITTEN}"
        if not read[0][1].requires_grad:  # the Value read last: no pass writes its .grad
            return f"{function} {read[0][0]} {UNTRACKED}"
        first = observe.passes() - call.started + 1  # the number of the call's first pass
        cleared = next((f"{function} {name} {CLEARED}" for name, v in read if _cleared_since(v, first)), None)
        if cleared is None and not call.past_listed and not any(_reaches(roots, read[0][1]) for roots in call.root_nodes):
            return f"{function} {read[0][0]} {UNREACHED}"
        return cleared
    return raised_again_as(GradUnwritten, words)


def _reaches(roots: tuple[Any, ...], v: Any) -> bool:
    """Whether the graph below a pass's ``roots`` (the edges stay when saved values are freed) holds
    ``v``'s AccumulateGrad node: a pass from there may write ``v.grad``."""
    seen, stack = set(), list(roots)
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if getattr(node, "variable", None) is v:
            return True
        stack.extend(child for child, _ in node.next_functions)
    return False


def _cleared_since(v: Any, first: int) -> bool:
    """Whether the last write of ``v.grad`` is an assignment of None by the student's code made once the
    pass numbered ``first`` had started."""
    record = observe.grad_write(v)
    return (record is not None and not record.by_engine and record.grad is None
            and record.pass_number >= first)
