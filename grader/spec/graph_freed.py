"""A call on a new graph put where an earlier graph of other numbers was, with its ids, once that
one was handed to the same call and let go of (ex11's ``vjp`` and ``jacobian_rows``).

An answer kept between calls by ``id(loss)``, ``id(x[0])`` or ``id(loss[0][0])`` is right while
the graphs given live, and wrong once CPython gives a new graph's list or Value a freed one's id:
on one run and not on the next, unless the probe puts it there (``freed.at_a_freed_id``, checked).
The probe does so once for each object a key is plausibly made from, each alone, since a search
that stops at the first part to match could meet a leaf's id where the code keys by the list's."""

from __future__ import annotations

from types import ModuleType
from typing import Any, Callable, Sequence

from grader.spec.facts import CONTEXT, Check
from grader.spec.freed import at_a_freed_id
from grader.spec.held import held
from grader.spec.provenance import check
from grader.spec.repeat import remembered

Graph = tuple[Any, Any, Any]
"""(x, y, loss): x a 1 x n matrix of leaves, y an n x m matrix, loss = mm(x, y), nested lists."""

KEYS: Sequence[Callable[[Graph], object]] = (
    lambda graph: graph[2], lambda graph: graph[2][0], lambda graph: graph[0], lambda graph: graph[0][0],
    lambda graph: graph[2][0][0], lambda graph: graph[0][0][0])
"""What a key by id is plausibly made from: loss, its row, x, its row, loss's first entry, x's first leaf."""

CANDIDATES = 16
"""Graphs made after each answered one in the search for one at a freed id: a freed list's block goes to
the next list made, often one of a graph made before the key's, so with one graph a try the search for a
list key ran all its tries and met none; making a graph costs far less than the student's call."""


def answer_at_a_freed_id(sub: ModuleType, make: Callable[[], Graph], earlier: Callable[[], Graph],
                         call: Callable[[ModuleType, Graph], object], seen: Callable[[object], object],
                         name: str, label: str) -> dict[str, Any]:
    """The READ_ANEW fact (context ``~graph``) of ``call`` (the student's function ``name`` on a graph,
    what it returned made plain by ``seen``) on a graph of ``make``'s one of whose objects (``KEYS``)
    took the id of the same object of an earlier graph of ``earlier``'s, answered and let go of: it
    fails where it returns what the earlier graph got and not what a twin of the new graph, alive all
    along, gets.  Each call is watched and its gradient numbers remembered (``repeat.remembered``): a
    later test's result holding them is told as kept between calls.  The twin and each graph
    answered last are held (``held``), so no later test meets their ids by chance."""
    watched = remembered(sub, call, name)

    def answer(graph: Graph) -> object:
        return seen(watched(sub, graph))
    twin = make()
    held(twin)
    own = answer(twin)
    for key in KEYS:
        got: list[object] = [None]  # the latest earlier graph's answer alone: each one replaces it

        def use(graph: Graph) -> None:
            got[0] = answer(graph)
        graph = at_a_freed_id(make, use, lambda graph: (key(graph),), earlier=earlier, candidates=CANDIDATES)
        held(graph)
        now = answer(graph)
        if now == got[0] and now != own:
            return {**check(Check.READ_ANEW, False, label), CONTEXT + "graph": True}
    return {**check(Check.READ_ANEW, True, label), CONTEXT + "graph": True}
