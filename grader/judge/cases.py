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
from grader.judge.leaf_sentences import SayLeaf
from grader.judge.sentences import Say
from grader.spec.facts import CONTEXT, LABEL

# "losses[3]", "vjp(x1, loss1, v1)[0]", "x[0][1]": one entry of a list, whatever names the list
_ENTRY = re.compile(r"(?P<base>.+)\[\d+\]")
# "input[1][2]": one entry of a matrix, each entry of which the statement's observation labels
_MATRIX = re.compile(r"(?P<base>[A-Za-z_]\w*)(?P<at>(?:\[\d+\]){2})")
EVERY_ENTRY = "each entry of {matrix}"  # the label of a difference every entry of a matrix shows


def _facts(want: Any, got: Any) -> dict[str, list[bool]]:
    """By label, for each fact of the statement's observation (``want``), whether the student's
    (``got``, in its place) differs from it in a field the comparison reads (not context)."""
    if type(want) is dict and type(want.get(LABEL)) is str:
        compared = {k: v for k, v in want.items() if not k.startswith(CONTEXT)}
        return {want[LABEL]: [type(got) is not dict or compared != {k: v for k, v in got.items() if not k.startswith(CONTEXT)}]}
    facts: dict[str, list[bool]] = {}
    places = (want.items() if type(want) is dict else enumerate(want) if type(want) is list else ())
    for at, part in places:
        inside = got.get(at) if type(got) is dict else got[at] if type(got) is list and at < len(got) else None
        for label, differs in _facts(part, inside).items():
            facts.setdefault(label, []).extend(differs)
    return facts


def _matrix_key(d: Difference, facts: dict[str, list[bool]]) -> tuple[Any, ...] | None:
    """What the difference ``d`` shares with the same difference of another entry of its matrix
    (kind, matrix, other fields), for a label naming an entry of a matrix the statement's
    observation labels entry by entry (``input[0][1]``); None for any other label."""
    label = dict(d.fields).get(LABEL, "")
    matrix = _MATRIX.fullmatch(label)
    if matrix is None or label not in facts:
        return None
    return d.say, matrix.group("base"), tuple(f for f in d.fields if f[0] != LABEL)


def _whole_said(d: Difference) -> bool:
    """Whether ``d``'s sentence reads right of a whole matrix ("each entry of input has ..."): its
    label is not owned ("{label}'s graph": of each entry, not of an entry's graph)."""
    return "{label}'s" not in str(d.say.value)


def _matrices(found: list[Difference], facts: dict[str, list[bool]]) -> list[Difference]:
    """A difference every entry of a matrix shows, told once of the whole matrix ("each entry of
    input has requires_grad=False"): where every fact of each of its entries differs (in every
    call of the test that labels it so) and this is the only difference told of its entries.
    Where only some entries show it, each of them is told (``per_graph`` names them in one
    sentence), never the first of each row alone, which read as if the others agreed.  Lists
    of other kinds are ``_first_entries``'."""
    shown: dict[tuple[Any, ...], set[str]] = {}
    for d in found:
        key = _matrix_key(d, facts)
        if key is not None:
            shown.setdefault(key, set()).add(dict(d.fields)[LABEL])
    whole = {key for key, labels in shown.items() if len(labels) > 1 and labels == _entries(key[1], facts)
             and all(all(facts[label]) for label in labels) and [k[1] for k in shown].count(key[1]) == 1
             and _whole_said(next(d for d in found if _matrix_key(d, facts) == key))}
    kept, told = [], set()
    for d in found:
        key = _matrix_key(d, facts)
        if key not in whole:
            kept.append(d)
        elif key not in told:
            told.add(key)
            kept.append(replace(d, fields=tuple((k, EVERY_ENTRY.format(matrix=key[1]) if k == LABEL else v)
                                                for k, v in d.fields)))
    return kept


def _entries(matrix: str, facts: dict[str, list[bool]]) -> set[str]:
    """The labels of the entries of ``matrix`` the statement's observation holds."""
    return {label for label in facts if (m := _MATRIX.fullmatch(label)) is not None and m.group("base") == matrix}


def _unreached(found: list[Difference], facts: dict[str, list[bool]]) -> list[Difference]:
    """A graph that never reaches any entry of a matrix the statement's observation labels entry
    by entry, where the statement's graph reaches each (``loss's graph never reaches input[0][0]``,
    and each other entry), told once of the whole matrix: one sentence for what was observed, not
    one an entry, which crowded out the test's other sentences."""
    missing: dict[tuple[str, str], set[str]] = {}
    for d in found:
        entry = _MATRIX.fullmatch(dict(d.fields).get("leaf", "")) if d.say is Say.NO_LEAF else None
        if entry is not None:
            missing.setdefault((dict(d.fields).get(LABEL, ""), entry.group("base")), set()).add(entry.group(0))
    whole = {key for key, leaves in missing.items() if len(leaves) > 1 and leaves == _entries(key[1], facts)}
    kept, told = [], set()
    for d in found:
        entry = _MATRIX.fullmatch(dict(d.fields).get("leaf", "")) if d.say is Say.NO_LEAF else None
        key = None if entry is None else (dict(d.fields).get(LABEL, ""), entry.group("base"))
        if key not in whole:
            kept.append(d)
        elif key not in told:
            told.add(key)
            kept.append(replace(d, say=SayLeaf.NO_ENTRY_REACHED, fields=((LABEL, key[0]), ("of", key[1]))))
    return kept


def _first_entries(found: list[Difference], facts: dict[str, list[bool]]) -> list[Difference]:
    """A difference told for the first entry of a list it holds for ("losses[1] holds a
    different number"), not again for each later entry; an entry of a matrix the statement's
    observation labels entry by entry is ``_matrices``'."""
    told: set[tuple[Any, ...]] = set()
    kept = []
    for d in found:
        if _matrix_key(d, facts) is not None:
            kept.append(d)
            continue
        entry = _ENTRY.fullmatch(dict(d.fields).get("label", ""))
        key = None if entry is None else (d.say, entry.group("base"),
                                           tuple(f for f in d.fields if f[0] != "label"))
        if key is None or key not in told:
            kept.append(d)
        if key is not None:
            told.add(key)
    return kept


def _key(d: Difference, base: str) -> tuple[Any, ...]:
    """What makes two cases' differences one sentence: the sentence, the label without its case
    note, the other fields."""
    return d.say, base, tuple(f for f in d.fields if f[0] != "label")


def cases_merged(found: list[Difference], want: Any = None, got: Any = None) -> list[Difference]:
    """One sentence for a difference seen in several cases of a test, each labelled with a
    note on its case ("y (x > 0)", "y (x = 0)"): its label lists the cases ("y (x > 0; x = 0)"),
    so that the cases that differ are named without the sentence told once for each.  The
    entries of a list and of a matrix are told as ``_first_entries`` and ``_matrices`` say, of
    the facts of the statement's observation ``want`` and the student's ``got``."""
    merged: list[Difference] = []
    facts = _facts(want, got)
    found = _first_entries(_matrices(_unreached(found, facts), facts), facts)
    notes: dict[tuple[Any, ...], tuple[int, list[str]]] = {}  # a difference's key: its place, its cases
    labels = [dict(d.fields).get("label", "") for d in found]
    cases = [CASE_NOTE.fullmatch(label) for label in labels]
    plain = {_key(d, label) for d, label, case in zip(found, labels, cases) if case is None}
    for d, case in zip(found, cases):
        if case is None:
            merged.append(d)
            continue
        key = _key(d, case.group("base"))
        if key in plain:  # "b was made by ..." told of the test's own case says it of "b (w == x)" too
            continue
        at, seen = notes.setdefault(key, (len(merged), []))
        if not seen:
            merged.append(d)
        if case.group("note") not in seen:
            seen.append(case.group("note"))
        label = f"{case.group('base')} ({CASES.join(seen)})"
        merged[at] = replace(merged[at], fields=tuple((k, label if k == "label" else v)
                                                      for k, v in merged[at].fields))
    return merged
