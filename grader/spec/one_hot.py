"""Whether the backward passes of a call started from the one-hot gradients, in turn: ex11's
jacobian_rows backpropagates from loss once per entry j, with the gradient that is 1 at entry j
and 0 elsewhere (the documents' [[1, 0]], then [[0, 1]]).

    one_hot_facts(call.root_grads, label)   the ONE_HOT fact (with what the first other gradient
                                            holds as context) and the ONES_IN_TURN fact
"""

from __future__ import annotations

from typing import Any

from grader.spec.facts import CONTEXT, Check
from grader.spec.provenance import check


def one_hot_facts(passes: list[tuple[float, ...]], label: str, any_order: bool = False,
                  numbers: tuple[float, ...] = ()) -> list[dict[str, Any]]:
    """The ONE_HOT fact of the gradients each pass of a call started from (``Call.root_grads``,
    one per entry of loss): every one is a one among zeros; and the ONES_IN_TURN fact: pass j's
    one is at entry j, unless ``any_order``: the rows returned are the statement's whichever order
    the passes ran in (each zeroed between and stored at its own entry), a loop the statement allows.
    Where it fails, ``_repeated`` says whether an entry was seeded twice (loss's ``numbers`` given)."""
    in_turn = any_order or _in_turn(passes)
    return [{**check(Check.ONE_HOT, all(map(_one_hot, passes)), label), **_not_one_hot(passes)},
            {**check(Check.ONES_IN_TURN, in_turn, label), **({} if in_turn else _repeated(passes, numbers))}]


def _repeated(passes: list[tuple[float, ...]], numbers: tuple[float, ...]) -> dict[str, bool]:
    """Context of one-hot gradients out of turn: ``~repeated`` where two passes had their one at the
    same entry (and so another entry had none), ``~by_number`` too where each pass had its one at the
    first entry of loss holding the number of entry j: a place found by comparing numbers
    (``loss[0].index(entry)``), not a one-hot left at entry zero."""
    ones = [grads.index(1.0) for grads in passes]
    repeated = len(set(ones)) < len(ones)
    by_number = repeated and len(numbers) == len(ones) and ones == [numbers.index(n) for n in numbers]
    return {CONTEXT + "repeated": repeated, CONTEXT + "by_number": by_number}


def _one_hot(grads: tuple[float, ...]) -> bool:
    """Whether a pass's gradients, one per entry of loss, are a one among zeros."""
    return sorted(grads) == [0.0] * (len(grads) - 1) + [1.0]


def _in_turn(passes: list[tuple[float, ...]]) -> bool:
    """Whether pass j's gradient has its one at entry j, where every pass's is one-hot and there is
    one pass per entry (other counts and gradients are told by their own facts)."""
    if not passes or len(passes) != len(passes[0]) or not all(map(_one_hot, passes)):
        return True
    return [grads.index(1.0) for grads in passes] == list(range(len(passes)))


def _not_one_hot(passes: list[tuple[float, ...]]) -> dict[str, bool]:
    """What the first gradient that is not one-hot holds instead, as context: several nonzero
    entries (a one-hot list filled and never reset), or one entry that is not 1."""
    wrong = next((grads for grads in passes if not _one_hot(grads)), ())
    nonzero = sum(g != 0.0 for g in wrong)
    return {CONTEXT + "several": nonzero > 1, CONTEXT + "scaled": nonzero == 1}
