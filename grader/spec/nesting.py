"""How deep the student's own calls nest while a probe runs one of them.

A statement that asks for no recursion ("each node once, no recursion") is met or not by what
the walk does, not by whether it raised RecursionError: a file may raise Python's recursion
limit first (``sys.setrecursionlimit``), and on Python 3.11 a recursive walk then gets through
any chain a probe can afford.  So the probe counts the frames of the student's file on the
stack at once (``sys.setprofile``, only around the call observed): an engine's loop nests a few
(backward, apply, store_grad, Value), a recursive walk one per node of a chain.  A module with no
file of its own (PyTorch's stand-in, when the answers are recorded) nests none.
"""

from __future__ import annotations

from sys import getprofile, setprofile  # bound now: a submission may rebind sys's names (seal.SYS)
from types import FrameType
from typing import Any, Callable

NESTED = 100  # more frames of the student's file at once than any loop over a graph makes


def deepest(sub: Any, run: Callable[[], Any]) -> int:
    """``run()``, watched: the most frames of ``sub``'s file that were on the stack at once."""
    path = str(getattr(sub, "__file__", "") or "")
    depth = [0, 0]  # now, most

    def sample(frame: FrameType, event: str, _arg: object) -> None:
        if not path or frame.f_code.co_filename != path:
            return
        if event == "call":
            depth[0] += 1
            depth[1] = max(depth)
        elif event == "return":
            depth[0] -= 1

    previous = getprofile()
    setprofile(sample)
    try:
        run()
    finally:
        setprofile(previous)
    return depth[1]
