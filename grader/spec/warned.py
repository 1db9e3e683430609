"""Reading a build-track value's ``.grad`` as a student does, and whether it warned as PyTorch
warns on a non-leaf that does not retain its gradient (``NON_LEAF_GRAD``'s text, a UserWarning):
the number read and the warning are observed together, on the student's engine and on torch's."""

from __future__ import annotations

import logging
import warnings
from typing import Any

from grader.spec.build import number
from grader.spec.probe import MAX_TEXT, first_line, printed
from grader.spec.raised import excerpt

NON_LEAF_GRAD = "is not a leaf Tensor is being accessed"
OTHER_WARNING = "not a UserWarning: "  # what reading .grad warned, when it warned PyTorch's text as another category
OTHER_TEXT = "another text: "  # ... when it warned, but not NON_LEAF_GRAD's text: then its own text, quoted
PRINTED = "printed, not warned"  # ... when it issued no warning, but printed NON_LEAF_GRAD's text
LOGGED = "logged, not warned"  # ... when it issued no warning, but logged NON_LEAF_GRAD's text (logging.warning)


class _Logged(logging.Handler):
    """Hears the log records made while ``.grad`` is read: one with NON_LEAF_GRAD's text is a
    warning's text handed to ``logging`` (``logging.warning``), which issues no Python warning."""

    def __init__(self) -> None:
        super().__init__(logging.NOTSET)
        self.heard = False

    def emit(self, record: logging.LogRecord) -> None:
        self.heard = self.heard or (type(record.msg) is str and NON_LEAF_GRAD in record.msg)


def grad_read(v: object) -> dict[str, Any]:
    """``v.grad`` as a number or None, and whether reading it warned as PyTorch does: True, False,
    ``OTHER_WARNING`` and the category it warned PyTorch's text as (a RuntimeWarning warns, but
    not as PyTorch does: "does not warn" would be untrue), or ``OTHER_TEXT`` and the first line
    of a warning without NON_LEAF_GRAD's text (a warning all the same), or ``PRINTED``: no
    warning, but NON_LEAF_GRAD's text printed (``print`` issues none), or ``LOGGED``: logged."""
    logged, root = _Logged(), logging.getLogger()
    root.addHandler(logged)
    try:
        with warnings.catch_warnings(record=True) as seen, printed() as out:
            warnings.simplefilter("always")
            g = v.grad  # type: ignore[attr-defined]
    finally:
        root.removeHandler(logged)
    ours = [w.category for w in seen if NON_LEAF_GRAD in str(w.message)]
    warned: bool | str = any(issubclass(kind, UserWarning) for kind in ours)
    if ours and not warned:
        warned = OTHER_WARNING + str(ours[0].__name__)[:MAX_TEXT]
    elif seen and not ours:
        warned = OTHER_TEXT + excerpt(first_line(str(seen[0].message)))
    elif not seen and NON_LEAF_GRAD in out.getvalue():
        warned = PRINTED
    elif not seen and logged.heard:
        warned = LOGGED
    return {"grad": number(g), "warned": warned}
