"""What the file's own source adds to the sentence of an error its code raised, each rule read from
its syntax tree: a name an ``except ... as`` handler deleted (``unbound``), an imported name a later
top-level line bound again (``shadowed``), a function the tests call that the file spells otherwise
(``near_name``)."""

from __future__ import annotations

from typing import Callable

from grader.judge.near_name import near_name_told
from grader.judge.shadowed import shadowed_told
from grader.judge.unbound import deleted_told
from grader.sandbox.child.wire import ErrorRecord


def from_source(source: str | None, error: ErrorRecord, named: Callable[[int], str]) -> str:
    """Every rule's sentence that holds for ``error`` in ``source``, in that order ("" for none).
    ``named`` names a line of the file."""
    return deleted_told(source, error, named) + shadowed_told(source, error, named) + near_name_told(source, error, named)
