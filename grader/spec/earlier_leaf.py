"""The leaf a y kept between calls reaches: the probe hands a new leaf to each call of a function,
and a y kept from an earlier call (a cache keyed by x) is built on the leaf of the call that made it.
Named in y's graph, that leaf is told as the earlier call's (``the w given to an earlier call of
branch``), not as a leaf the student's code made."""

from __future__ import annotations

from typing import Any

from grader.spec.returned_detached import graph_leaves


class Handed:
    """The leaves handed to the calls of ``function`` as its argument ``name``, in order (kept
    alive, so that no later leaf takes the id of one)."""

    def __init__(self, function: str, name: str) -> None:
        self.function, self.name = function, name
        self.given: list[Any] = []

    def hand(self, leaf: Any) -> Any:
        """``leaf``, about to be handed to a call: kept, for the calls after it."""
        self.given.append(leaf)
        return leaf

    def named(self, y: object, leaf: object) -> dict[str, Any]:
        """The names of y's graph for the call just made with ``leaf`` (handed, see ``hand``):
        ``leaf`` under the argument's name, and an earlier call's leaf that y's graph reaches,
        named as such."""
        earlier = [v for v in graph_leaves([y]) if v is not leaf and any(v is given for given in self.given)]
        named = {self.name: leaf}
        if earlier:
            named[f"the {self.name} given to an earlier call of {self.function}"] = earlier[0]
        return named
