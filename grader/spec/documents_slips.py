"""ex01's sums over paths on the documents' graph y = (x + w) * (w + 1), as slips make them.

The public test of ``grad_by_paths`` ships in the student release, and so does whatever it uses:
a walker that sums over the paths of any graph would hand the student the function they are
asked to write.  So the public test names a slip from formulas of this one graph in a's and b's
data (``documents_graph`` builds a = x + w, b = w + 1, y = a * b), not from a walker; the hidden
test, which never ships, matches its other graphs with a walker of its own.
"""

from __future__ import annotations

from math import fsum  # bound now: a submission may rebind math's names (math.isclose = ...)
from collections.abc import Callable
from itertools import combinations

from micrograph import Value

from grader.spec.facts import CONTEXT, Check
from grader.spec.probe import close
from grader.spec.provenance import check

# (dy/dw, dy/dx) from a's and b's data, right (the statement's) and as each slip makes them: a
# product's own input's data as its local factor, one as a product's factor, a path counted at
# any leaf, one derivative kept per node name (w's AccumulateGrad then takes x's, reached first,
# and b's AddBackward0 takes a's), a's own data as y's factor on both edges (the first input's data
# for both, or a factor's data found by its node's name: b's is a's, the one Value this graph's
# answers cannot tell apart, so what is told is what both do), and the paths through each node's
# last input left out (y's through b, a's through w: w is reached by none); b's own data as y's factor
# on both edges (the last input's data for both, or a factor's data found by its node's name, the last
# Value of that name as a dict keyed by name keeps: a's is b's); y's own data (a * b) as its factor on both edges;
# each path's product times the leaf's own data (w = b - 1, x = a - w), where a path stops at the leaf; the
# products along the paths multiplied together, not added.
ON_DOCUMENTS: dict[str, Callable[[float, float], tuple[float, float]]] = {
    "right": lambda a, b: (b + a, b), "own": lambda a, b: (a + b, a), "one": lambda a, b: (2.0, 1.0),
    "any_leaf": lambda a, b: (2 * b + a, 2 * b + a), "by_name": lambda a, b: (0.0, 2 * (a + b)),
    "first_own": lambda a, b: (2 * a, a), "last_input": lambda a, b: (0.0, b),
    "last_own": lambda a, b: (2 * b, b), "result": lambda a, b: (2 * a * b, a * b),
    "leaf_data": lambda a, b: ((b + a) * (b - 1), b * (a - b + 1)), "paths_multiplied": lambda a, b: (b * a, b)}


# The product of the local derivatives along each path from y to w (through a, then through b)
# and to x (through a), from a's and b's data: what a sum that left paths out is matched against.
PATHS_ON_DOCUMENTS: Callable[[float, float], tuple[list[float], list[float]]] = lambda a, b: ([b, a], [b])


def paths_kept(answer: object, products: list[float]) -> str | None:
    """Which paths ``answer`` is the sum of, given the product along each path from y to the leaf
    (a running total replaced at each path or input, not added to, keeps one path, or none):
    ``all``, ``one_path`` (the product along one of several alone), ``no_path`` (zero, though paths
    reach the leaf), ``some_paths``; None where it is the sum of no set of them."""
    if type(answer) is not float:
        return None
    if close(answer, fsum(products)):
        return "all"
    if products and close(answer, 0.0):  # zero first: a path through a factor of 0 is zero too
        return "no_path"
    if len(products) > 1 and any(close(answer, product) for product in products):
        return "one_path"
    some = (kept for n in range(2, len(products)) for kept in combinations(products, n))
    return "some_paths" if any(close(answer, fsum(kept)) for kept in some) else None


def documents_slip_facts(answered: list[tuple[list[tuple], dict[str, Value]]]) -> list[list[dict]]:
    """For each run (its answers beside what they were asked about, and its graph), the CHECK
    fact of each answer that it is not the number a slip makes on the documents' graph: False,
    with the slip named, where the number differs from the statement's and every answer of the
    test is that slip's; or, where every answer is the sum over some of its paths (``paths_kept``),
    False with how many it kept named, for each answer that is not the sum over all of them."""
    def of(g: dict[str, Value], factor: str) -> tuple[float, float]:
        return ON_DOCUMENTS[factor](g["a"].item(), g["b"].item())

    def matches(slip: str) -> bool:
        return all(type(item[0]) is float and close(item[0], made)
                   for items, g in answered for item, made in zip(items, of(g, slip)))

    slip = next((name for name in ON_DOCUMENTS if name != "right" and matches(name)), None)
    kept = [[paths_kept(item[0], products) for item, products in zip(items, PATHS_ON_DOCUMENTS(g["a"].item(), g["b"].item()))]
            for items, g in answered]
    dropped = slip is None and all(None not in run for run in kept)  # every answer a sum over some of its paths
    facts = []
    for (items, g), run in zip(answered, kept):
        wrong = [slip is not None and not close(item[0], right) for item, right in zip(items, of(g, "right"))]
        told = [slip if slipped else paths if dropped and paths != "all" else None for slipped, paths in zip(wrong, run)]
        facts.append([{**check(Check.PRODUCT_FACTOR, key is None, item[4]), **({CONTEXT + key: True} if key else {})}
                      for item, key in zip(items, told)])
    return facts
