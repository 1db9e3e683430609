"""A generator of ``model.parameters()`` an optimizer was made of, still held by the student's code
under a name: the optimizer read it to its end, so a later loop over that name gets no parameter.

``params = model.parameters()`` then ``optim.SGD(params, lr=lr)`` trains right, but a clearing loop
of the student's own over ``params`` (``for p in params: p.grad = None``) runs zero times: nothing
is cleared, and the loop looks as if it cleared.  The run shows only that no ``.grad`` was cleared;
``spent_kept`` observes the rest: the generator the optimizer was handed (``Optimizer.__init__``
reads it with ``list``), and a frame of the student's module that still held that very object
under a name when it returned.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from sys import getprofile, setprofile  # bound now: a submission may rebind sys's names (seal.SYS)
from types import FrameType, GeneratorType
from typing import Any

from micrograph import optim

_INIT_CODE = optim.Optimizer.__init__.__code__
_OPTIM_NAMESPACE = optim.Optimizer.__init__.__globals__  # a frame's code is read (audited) only under it
_PARAMETERS = "Module.parameters"  # the qualified name of the generators model.parameters() returns


@contextlib.contextmanager
def spent_kept(namespace: dict[str, Any] | None) -> Iterator[list[str]]:
    """While the block runs: the names under which a frame of the student's module (its globals
    ``namespace``) held, as it returned, a generator of ``model.parameters()`` that an optimizer was
    made of.  The profile hook before it still hears every event."""
    spent: list[GeneratorType] = []
    names: list[str] = []
    previous = getprofile()

    def sample(frame: FrameType, event: str, arg: object) -> None:
        if previous is not None:
            previous(frame, event, arg)
        if event == "call" and frame.f_globals is _OPTIM_NAMESPACE and frame.f_code is _INIT_CODE:
            given = frame.f_locals.get("params")
            if type(given) is GeneratorType and given.__qualname__ == _PARAMETERS:
                spent.append(given)
        elif event == "return" and spent and namespace is not None and frame.f_globals is namespace:
            names.extend(name for name, held in frame.f_locals.items()
                         if name not in names and any(held is g for g in spent))

    setprofile(sample)
    try:
        yield names
    finally:
        setprofile(previous)
