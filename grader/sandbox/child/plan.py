"""What the grader asks the child's isolation to do (``Plan``), and how a step of it fails
(``IsolationError``): shared by ``isolate`` and ``namespaces``, so that neither imports the
other back."""

from __future__ import annotations

from dataclasses import dataclass


class IsolationError(Exception):
    """A step of the isolation failed; the message names it (one line)."""


@dataclass(frozen=True)
class Plan:
    """What the grader asked for (from the request; plain data)."""

    mode: str
    uid: int | None  # the child's own uid (None: keep the grader's)
    scratch: str  # the scratch folder's path (the same inside and outside)
    submissions: tuple[str, ...]  # file names of the submission's files inside scratch
    readable: tuple[str, ...]  # folders mounted read-only at their own paths
    scratch_bytes: int
    scratch_inodes: int
    landlock: bool  # False: skip Landlock, as on a kernel without it (``$GRADE_LANDLOCK=off``)
    sentinel: bool  # False: no sentinel in the worker (``$GRADE_SENTINEL=off``)
    freeze: bool  # False: the engine's classes left mutable, as without ctypes (``$GRADE_FREEZE=off``)

    @classmethod
    def from_request(cls, data: dict) -> "Plan":
        return cls(str(data["mode"]), data["uid"], str(data["scratch"]),
                   tuple(map(str, data["submissions"])), tuple(map(str, data["readable"])),
                   int(data["scratch_bytes"]), int(data["scratch_inodes"]),
                   data["landlock"] is not False, data.get("sentinel") is not False,
                   data.get("freeze") is not False)
