"""The share of the time a fresh copy's top level runs under (``grader.spec.repeat.fresh_copy``).

A fresh copy runs the student's file again, its top level included: a demo that trains at import
runs once more, inside the test that made the copy.  The first import ran under a share of its
own (``Limits.import_share``); on a loaded machine a demo that fits there several times over does
not fit in one test's share of the clock, and a correct answer lost that test.  So the sandbox's
child gives each copy's top level a share like the import's (``copies_under``, around each step)
and the test's own share waits meanwhile: the test pays only for the test.  Elsewhere (the
parent, the grader's own tests) a copy's top level runs untimed.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager

import micrograph

_SHARES: list[Callable[[], AbstractContextManager[object]]] = []
"""The shares given by the ``copies_under`` blocks running now, the innermost last."""


@contextlib.contextmanager
def copies_under(share: Callable[[], AbstractContextManager[object]]) -> Iterator[None]:
    """Within the block, each fresh copy's top level runs under ``share()``."""
    _SHARES.append(share)
    try:
        yield
    finally:
        _SHARES.pop()


def copy_time() -> AbstractContextManager[object]:
    """What a fresh copy's top level runs under now: the innermost ``copies_under``'s share, or
    nothing outside any."""
    return _SHARES[-1]() if _SHARES else contextlib.nullcontext()


def nowhere() -> io.TextIOWrapper:
    """Where a fresh copy's top level prints (its import showed that once): a text stream as
    ``sys.stdout`` is, with ``reconfigure`` and ``buffer``.  A file that calls
    ``sys.stdout.reconfigure(encoding="utf-8")`` at import, or wraps ``sys.stdout.buffer`` in a
    ``TextIOWrapper`` (the Windows habit for printing Chinese), raised AttributeError on a
    ``StringIO``: the copy was lost, and with it what the tests tell by it."""
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8")


@contextlib.contextmanager
def grad_mode_kept(keep: bool) -> Iterator[None]:
    """micrograph's grad mode after the block as before it, unless ``keep`` (the copy's mode is what is
    asked).  A release of the build track alone ships micrograph's grad mode cut (``grader.publish.core_cut``:
    its functions raise NotImplementedError); the engine a copy runs is then the student's, with no
    mode of micrograph's to keep, and the copy is made all the same."""
    try:
        mode = micrograph.is_grad_enabled()
    except NotImplementedError:
        keep = True
    try:
        yield
    finally:
        if not keep:
            micrograph.set_grad_enabled(mode)
