"""ex01's sums over paths on the documents' graph y = (x + w) * (w + 1), as slips make them.

The public test of ``grad_by_paths`` ships in the student release, and so does whatever it uses:
a walker that sums over the paths of any graph would hand the student the function they are
asked to write.  So the public test names a slip from formulas of this one graph in a's and b's
data (``documents_graph`` builds a = x + w, b = w + 1, y = a * b), not from a walker; the hidden
test, which never ships, matches its other graphs with a walker of its own.
"""

from __future__ import annotations

from math import isclose  # bound now: a submission may rebind math's names (math.isclose = ...)
from collections.abc import Callable

from micrograph import Value

from grader.spec.facts import CONTEXT, Check
from grader.spec.provenance import check

# (dy/dw, dy/dx) from a's and b's data, right (the statement's) and as each slip makes them: a
# product's own input's data as its local factor, one as a product's factor, a path counted at
# any leaf, one derivative kept per node name (w's AccumulateGrad then takes x's, reached first,
# and b's AddBackward0 takes a's), a's own data as y's factor on both edges (the first input's data
# for both, or a factor's data found by its node's name: b's is a's, the one Value this graph's
# answers cannot tell apart, so what is told is what both do), and the paths through each node's
# last input left out (y's through b, a's through w: w is reached by none).
ON_DOCUMENTS: dict[str, Callable[[float, float], tuple[float, float]]] = {
    "right": lambda a, b: (b + a, b), "own": lambda a, b: (a + b, a), "one": lambda a, b: (2.0, 1.0),
    "any_leaf": lambda a, b: (2 * b + a, 2 * b + a), "by_name": lambda a, b: (0.0, 2 * (a + b)),
    "first_own": lambda a, b: (2 * a, a), "last_input": lambda a, b: (0.0, b)}


def close(a: float, b: float) -> bool:
    """Whether two sums over paths agree: the same additions in another order."""
    return isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def documents_slip_facts(answered: list[tuple[list[tuple], dict[str, Value]]]) -> list[list[dict]]:
    """For each run (its answers beside what they were asked about, and its graph), the CHECK
    fact of each answer that it is not the number a slip makes on the documents' graph: False,
    with the slip named, where the number differs from the statement's and every answer of the
    test is that slip's."""
    def of(g: dict[str, Value], factor: str) -> tuple[float, float]:
        return ON_DOCUMENTS[factor](g["a"].item(), g["b"].item())

    def matches(slip: str) -> bool:
        return all(type(item[0]) is float and close(item[0], made)
                   for items, g in answered for item, made in zip(items, of(g, slip)))

    slip = next((name for name in ON_DOCUMENTS if name != "right" and matches(name)), None)
    facts = []
    for items, g in answered:
        wrong = [slip is not None and not close(item[0], right) for item, right in zip(items, of(g, "right"))]
        facts.append([{**check(Check.PRODUCT_FACTOR, not slipped, item[4]), **({CONTEXT + slip: True} if slipped else {})}
                      for item, slipped in zip(items, wrong)])
    return facts
