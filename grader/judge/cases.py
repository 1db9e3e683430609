"""One sentence for a difference seen in several cases of one test.

A probe that runs a function on the boundary cases the statement names labels each result with
a note on its case ("y (x = 0)", "x.grad from Clip.apply (x = low)"), so that the feedback says
which case differs.  The same difference in several cases is then one sentence whose label
lists them ("y (x < 0; x = 0) was made by MulBackward0 ..."), not one sentence a case.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from grader.judge.sentences import CASES, Difference

# "y (x = 0)", "x.grad from Clip.apply (x = low)": a Value, and a note on which case it is of
_CASE_NOTE = re.compile(r"(?P<base>\S+(?: from \S+)?) \((?P<note>[^()]*)\)")


def cases_merged(found: list[Difference]) -> list[Difference]:
    """One sentence for a difference seen in several cases of a test, each labelled with a
    note on its case ("y (x > 0)", "y (x = 0)"): its label lists the cases ("y (x > 0; x = 0)"),
    so that the cases that differ are named without the sentence told once for each."""
    merged: list[Difference] = []
    notes: dict[tuple[Any, ...], tuple[int, list[str]]] = {}  # a difference's key: its place, its cases
    for d in found:
        case = _CASE_NOTE.fullmatch(dict(d.fields).get("label", ""))
        if case is None:
            merged.append(d)
            continue
        key = (d.say, case.group("base"), tuple(f for f in d.fields if f[0] != "label"))
        at, seen = notes.setdefault(key, (len(merged), []))
        if not seen:
            merged.append(d)
        if case.group("note") not in seen:
            seen.append(case.group("note"))
        label = f"{case.group('base')} ({CASES.join(seen)})"
        merged[at] = replace(merged[at], fields=tuple((k, label if k == "label" else v)
                                                      for k, v in merged[at].fields))
    return merged
