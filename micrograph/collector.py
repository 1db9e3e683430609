"""The cyclic garbage collector paused while the engine's short loop runs.

Python starts a collection every 700 or so new container objects, and now and then one of the
older generations, which walks every object alive, the whole graph included.  A plain backward
pass makes new objects (each leaf's ``.grad`` Value, the gradient records) but no reference
cycle, so those collections find nothing to free: the backward of a sum of 10,000 products spent
about a tenth of its time in them, and far more when a full collection fell inside it.  Paused,
the new objects are looked at once, by the first collection after the pass.

The collector's switch is one per process: a ``gc.disable()`` made by another thread while a pass
runs is undone when the pass ends (telling it apart from the pause would cost every pass more).
"""

from __future__ import annotations

import gc


class paused:  # noqa: N801 - used as a function: ``with collector.paused():``
    """The collector off inside the block, and on again after it unless it was off before."""

    __slots__ = ("_was_on",)

    def __enter__(self) -> None:
        self._was_on = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self._was_on:
            gc.enable()
