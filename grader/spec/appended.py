"""Whether a list a call returned is still being filled after the call: by hooks of the
student's, registered on the leaves it was given, which append to it at every backward pass.

A hook that records (``w.register_hook(lambda g: history.append(g.item()))``) runs whenever a
backward pass reaches its leaf, not when the student's code reads the gradient: registered once
per step it runs once more at each later step, and the entries come in the order the pass
reaches the leaves, not in the leaves' order.  The list it fills says neither; a backward pass
the probe runs through the leaves after the call shows the hooks at work, since the list grows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import micrograph
from micrograph import Value, mul

from grader.spec.facts import CONTEXT, Check
from grader.spec.provenance import check


def appended_later(answer: object, leaves: Sequence[Value], label: str, leaf: str) -> dict[str, Any]:
    """The CHECK fact that a backward pass through each of ``leaves`` (named ``leaf`` in the
    sentence), run after the call, leaves the list the call returned as long as it was.  It
    writes the leaves' .grad: a probe takes it after every other fact of the call."""
    if type(answer) is not list:
        return check(Check.UNAPPENDED, None, label)
    length = len(answer)
    for v in leaves:
        if isinstance(v, Value) and v.requires_grad:
            try:
                with micrograph.enable_grad():
                    mul(v, 1.0).backward()
            except Exception:  # noqa: BLE001 - a hook of the student's that raises: nothing to tell
                return check(Check.UNAPPENDED, None, label)
    return {**check(Check.UNAPPENDED, len(answer) == length, label), CONTEXT + "leaf": leaf}
