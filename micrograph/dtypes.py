"""``dtype`` and ``device``: what ``v.dtype`` / ``v.device`` answer, as torch's objects print.

A Value is torch's ``float64`` 0-dim tensor on the CPU; a comparison's value is
``bool`` and a count ``int64`` (``integer.py``).  Nothing here converts between
dtypes: these objects only let a student ask, and compare the answers
(``w.dtype == micrograph.float64``, ``str(w.device) == "cpu"``), with torch's texts.
"""

from __future__ import annotations

from typing import Any


class dtype:  # noqa: N801 - torch's name
    """One of the three dtypes a Value can have; ``repr`` is torch's (``torch.float64``)."""

    __slots__ = ("name", "is_floating_point", "itemsize", "is_signed")

    def __init__(self, name: str, is_floating_point: bool, itemsize: int, is_signed: bool) -> None:
        self.name = name
        self.is_floating_point = is_floating_point
        self.itemsize = itemsize
        self.is_signed = is_signed

    def __repr__(self) -> str:
        return f"torch.{self.name}"


class device:  # noqa: N801 - torch's name
    """The CPU: ``device(type='cpu')``, ``str`` is ``'cpu'``; equal to another CPU device (not to the string)."""

    __slots__ = ("type", "index")

    def __init__(self, type: str = "cpu", index: int | None = None) -> None:  # noqa: A002 - torch's name
        if type != "cpu":
            raise RuntimeError(f"micrograph runs on the CPU only, not {type!r}")
        self.type = type
        self.index = index

    def __repr__(self) -> str:
        return f"device(type='{self.type}')"

    def __str__(self) -> str:
        return self.type

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, device) and (other.type, other.index) == (self.type, self.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))


float64 = double = dtype("float64", True, 8, True)
int64 = long = dtype("int64", False, 8, True)
bool_ = dtype("bool", False, 1, False)
CPU = device("cpu")

#: torch's name for a dtype in its error texts and ``type()`` strings -> the dtype
BY_TORCH_NAME = {"Double": float64, "Long": int64, "Bool": bool_}
