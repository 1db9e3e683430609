"""One sentence for a difference seen in several cases, or several entries, of one test.

A probe that runs a function on the boundary cases the statement names labels each result with
a note on its case ("y (x = 0)", "x.grad through Clip.backward (x = low)"), so that the feedback says
which case differs.  The same difference in several cases is then one sentence whose label
lists them ("y (x < 0; x = 0) was made by MulBackward0 ..."), not one sentence a case.  The
entries of a list ("losses[0]", "losses[1]" ..., "f(x)[0]", "x[0][1]") are told by the first that
differs.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from grader.judge.labels import CASE_NOTE, CASES
from grader.judge.explained import Difference

# "losses[3]", "vjp(x1, loss1, v1)[0]", "x[0][1]": one entry of a list, whatever names the list
_ENTRY = re.compile(r"(?P<base>.+)\[\d+\]")


def _first_entries(found: list[Difference]) -> list[Difference]:
    """A difference told for the first entry of a list it holds for ("losses[1] holds a
    different number"), not again for each later entry."""
    told: set[tuple[Any, ...]] = set()
    kept = []
    for d in found:
        entry = _ENTRY.fullmatch(dict(d.fields).get("label", ""))
        key = None if entry is None else (d.say, entry.group("base"),
                                           tuple(f for f in d.fields if f[0] != "label"))
        if key is None or key not in told:
            kept.append(d)
        if key is not None:
            told.add(key)
    return kept


def cases_merged(found: list[Difference]) -> list[Difference]:
    """One sentence for a difference seen in several cases of a test, each labelled with a
    note on its case ("y (x > 0)", "y (x = 0)"): its label lists the cases ("y (x > 0; x = 0)"),
    so that the cases that differ are named without the sentence told once for each."""
    merged: list[Difference] = []
    found = _first_entries(found)
    notes: dict[tuple[Any, ...], tuple[int, list[str]]] = {}  # a difference's key: its place, its cases
    for d in found:
        case = CASE_NOTE.fullmatch(dict(d.fields).get("label", ""))
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
