"""What one sandboxed run may use: the single place every limit of the sandbox is declared.

An exercise declares its ``Limits`` (``Exercise(..., limits=Limits(time=30))``); the same value
goes whole to the parent side of the sandbox (wall clock, output cap), over the request to the
child (rlimits, each probe's share of the time, the diagram's share), and to the explanations
of a limit hit ("used more than 1 GiB of memory").  Changing a default here changes it
everywhere.

The child reads this module too, so it is standard library only.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, fields
from typing import Any

KIB, MIB, GIB = 1 << 10, 1 << 20, 1 << 30


@dataclass(frozen=True)
class Limits:
    """Bounds of one child: it runs every probe of one exercise on one submission.

    ``time``           seconds of CPU the probes share (each gets its part: ``child.alarm``);
    ``wall_factor``    how many times ``time`` the run may take on the wall clock (the parent kills
                       at ``wall_seconds``): room for a loaded machine, a stop for a child that waits;
    ``cpu``            seconds of CPU (RLIMIT_CPU); ``None``: ``time``, rounded up, plus 1;
    ``memory``         bytes of address space (RLIMIT_AS);
    ``file_size``      bytes of any one file the submission writes (RLIMIT_FSIZE);
    ``open_files``     file descriptors (RLIMIT_NOFILE);
    ``output``         bytes of what the submission prints that the grader keeps (the rest is cut);
    ``diagram_share``  the share of ``time`` the diagram probe may take;
    ``import_share``   the share of ``time`` importing the submission may take (its top level: a
                       demo that trains runs there), in CPU and, ``wall_factor`` times longer, on
                       the clock: a top level that waits is stopped and told as such there, not
                       left to the parent's kill at ``wall_seconds``; the top level of each fresh
                       copy of the module a probe makes gets the same share again;
    ``scratch``        bytes the submission may keep in its scratch folder (a tmpfs of that size
                       in the namespaces mode, measured by the parent otherwise);
    ``scratch_entries`` files and folders in it.
    """

    time: float = 10.0
    wall_factor: float = 4.0
    cpu: int | None = None
    memory: int = GIB
    file_size: int = 16 * MIB
    open_files: int = 64
    output: int = 10_000
    diagram_share: float = 0.3
    import_share: float = 0.5
    scratch: int = 32 * MIB
    scratch_entries: int = 2_048

    def __post_init__(self) -> None:
        if type(self.time) not in (int, float) or not self.time > 0:
            raise ValueError(f"limit time must be a positive number of seconds, not {self.time!r}")
        for name in ("memory", "file_size", "open_files", "output", "scratch", "scratch_entries"):
            value = getattr(self, name)
            if type(value) is not int or value <= 0:
                raise ValueError(f"limit {name} must be a positive int, not {value!r}")
        if type(self.wall_factor) not in (int, float) or not self.wall_factor >= 1:
            raise ValueError(f"limit wall_factor must be a number of at least 1, not {self.wall_factor!r}")
        if self.cpu is not None and (type(self.cpu) is not int or self.cpu <= 0):
            raise ValueError(f"limit cpu must be a positive int or None, not {self.cpu!r}")
        for name in ("diagram_share", "import_share"):
            if not 0 < getattr(self, name) < 1:
                raise ValueError(f"limit {name} must be between 0 and 1, not {getattr(self, name)!r}")

    @property
    def wall_seconds(self) -> float:
        """The wall clock the whole run may take: the parent kills the child at this."""
        return self.time * self.wall_factor

    @property
    def cpu_seconds(self) -> int:
        """The CPU rlimit: ``cpu``, else ``time`` rounded up plus one second."""
        return self.cpu if self.cpu is not None else math.ceil(self.time) + 1

    @property
    def diagram_seconds(self) -> float:
        return self.time * self.diagram_share

    @property
    def import_seconds(self) -> float:
        """The CPU seconds importing the submission may take (the clock: ``wall_factor`` times more)."""
        return self.time * self.import_share

    def to_json(self) -> dict[str, Any]:
        """Plain data for the child's request."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Limits:
        """The inverse of ``to_json`` (unknown keys are refused, missing ones take defaults)."""
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown limits: {sorted(unknown)}")
        return cls(**data)


def size(n_bytes: int) -> str:
    """``1073741824`` -> ``"1 GiB"``, ``268435456`` -> ``"256 MiB"``: how limits are shown."""
    for unit, scale in (("GiB", GIB), ("MiB", MIB), ("KiB", KIB)):
        if n_bytes >= scale:
            return f"{n_bytes / scale:g} {unit}"
    return f"{n_bytes} bytes"
