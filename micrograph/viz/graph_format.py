"""What a graph dict promises its readers: the format's name, how many saved items an op shows,
and when a saved item is stale.

``collect`` writes graph dicts and ``schema`` and ``dot`` read them: these few names live here,
not in ``collect``, so that the reading side (the grader's renderer worker) imports none of the
engine that walking a graph needs.
"""

from __future__ import annotations

from typing import Any

FORMAT = "micrograph.viz/1"
MAX_SAVED = 8  # saved items drawn per op: nn.Linear's one node saves a whole row's operands


def is_stale(s: Any) -> bool:
    """A saved Value changed in place since it was saved: backward through this op fails."""
    return s.saved_version is not None and s.version is not None and s.version != s.saved_version
