"""What a plain result that differs from the statement's is, where a sentence can say more than that it
differs: a text or an object where the statement's is None, names in the statement's order reversed.

``results._shape`` asks these; fields come from the student's side, never the statement's.
"""

from __future__ import annotations

from typing import Any

from grader.i18n import _
from grader.judge.compare import same
from grader.judge.explained import Difference
from grader.judge.explained import difference as _diff
from grader.judge.sentences import Say
from grader.spec.facts import NOT_PLAIN


def not_none(got: str, label: str) -> Difference:
    """A text where the statement's result is None: the text quoted, or for a result that is no plain
    value (a list of warning records, a generator: ``NOT_PLAIN``) its type, which says what was returned."""
    if got.startswith(NOT_PLAIN):
        return _diff(Say.RESULT_TYPED_NOT_NONE, label=label, type=_("of type {type}", type=got[len(NOT_PLAIN):]))
    return _diff(Say.RESULT_TEXT_NOT_NONE, label=label, text=got)


def reversed_names(want: list[Any], got: list[Any]) -> bool:
    """Whether ``got``, names (a path, a chain of nodes) in another order than the statement's, is the
    statement's order reversed: the slip of a walk that lists from the far end."""
    return all(type(e) is str for e in got) and same(list(reversed(want)), got)
