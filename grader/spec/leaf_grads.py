"""The facts of ex02's ``leaf_grads(w, x, w_flag, x_flag)``: which leaves its backward wrote
into, where its gradients were read from, and what its answer says of them.

The graph is the student's own (their ``build_graph``, watched while leaf_grads runs), so its
leaves are told by identity where they can be, and by their numbers where they cannot.  The
inputs are the test module's.
"""

from __future__ import annotations

from typing import Any

from micrograph import Value

from grader.spec.facts import CONTEXT, Check
from grader.spec.grad_unwritten import told_if_grad_unwritten
from grader.spec.graph import graph_below
from grader.spec.helpers import results_of
from grader.spec.origins import read_from_grad, read_from_leaf, seeded_one
from grader.spec.probe import num, plain_dict, type_name
from grader.spec.raised_in_call import told_in_call
from grader.spec.provenance import check, float_of, grad_of, keys_asked, result_of, watching


def answer_grads(answer: object) -> dict[str, Any] | str:
    """leaf_grads' answer, each gradient a number or None; a dict of other keys is told by its
    KEYS_ASKED fact, which names them."""
    if type(answer) is not dict:
        return f"not a dict: {type_name(answer)}"
    if set(answer) != {"w", "x"}:
        return f"not a dict with keys w and x: {type_name(answer)}"
    return {k: None if answer[k] is None else num(answer[k]) for k in ("w", "x")}


def _floats(answer: object, label: str) -> dict[str, Any] | None:
    """The type of each gradient returned (a float asked for; a None is told by the result)."""
    if type(answer) is not dict or set(answer) != {"w", "x"}:
        return None
    return {k: float_of(answer[k], f"{label}[{k!r}]") for k in ("w", "x") if answer[k] is not None}


def leaf_grads_runs(sub_module: Any, cases: list[tuple[tuple[bool, bool], float, float]]) -> list[dict[str, Any]]:
    """The facts of one leaf_grads call a case (its flags, w and x), each labelled with the flags
    (and ``(w == x)`` where the two numbers are one): a case's slip is told by its own call."""
    out = []
    for flags, w, x in cases:
        label = f"leaf_grads(w, x, {flags[0]}, {flags[1]})" + (" (w == x)" if w == x else "")
        with told_in_call(label), results_of(sub_module, "build_graph") as built, \
                watching(sub_module, "leaf_grads", grad_numbers=True) as call, \
                told_if_grad_unwritten(call, "leaf_grads", lambda: dict(zip(("w", "x"), _built_leaves(built) or ()))):
            answer = plain_dict(sub_module.leaf_grads(w, x, *flags))
        out.append({"keys": keys_asked(answer, ("w", "x"), label),
                    "grads": {**result_of(answer_grads(answer), label),
                              **_held(answer, _built_leaves(built), call, built)},
                    "floats": _floats(answer, label),
                    "backward": call.fact,
                    "read": read_from_grad(answer, call, label),
                    "leaf": _from_leaf(answer, call, _built_leaves(built), label),
                    "walked": graph_below(call.first_root, label="leaf_grads"),
                    "flags": _flags_kept(call, flags, (w, x), label, _built_leaves(built)),
                    "as_written": _read_as_written(answer, _built_leaves(built), label),
                    "seed": seeded_one(call.root_grads, label)})
    return out


def _held(answer: object, leaves: tuple[Any, Any] | None, call: Any, built: list[Any]) -> dict[str, Any]:
    """Context of leaf_grads' answer: the names it returned None for where that leaf of the graph
    its build_graph returned last held a gradient after the call (``~held``: a gradient read, then
    dropped, such as a Value of zero taken as false by ``if w.grad``); ``~other_build``: those of
    them whose .grad the call read on the leaf of an earlier build_graph call, still None (the
    graph built twice, backward run through the second)."""
    if type(answer) is not dict or leaves is None:
        return {}
    held = [k for k, leaf in zip(("w", "x"), leaves) if answer.get(k, 0) is None and leaf.grad is not None]
    read = list(call.grad_reads.values())
    other = [k for k in held if any(type(g) is dict and isinstance(g.get(k), Value) and g[k].grad is None
                                    and any(r is g[k] for r in read) for g in map(plain_dict, built[:-1]))]
    return {CONTEXT + "held": held, **({CONTEXT + "other_build": other} if other else {})} if held else {}


def _from_leaf(answer: object, call: Any, leaves: tuple[Any, Any] | None, label: str) -> list[dict[str, Any]]:
    """The READ_FROM_LEAF fact of each gradient leaf_grads returned: not the other leaf's gradient
    (``g["w"].grad`` read for "x" too), where its build_graph's graph gives both leaves; the
    entry told by its key."""
    if type(answer) is not dict or leaves is None:
        return []
    facts = []
    for name in ("w", "x"):
        fact = read_from_leaf([answer.get(name)], call, dict(zip(("w", "x"), leaves)), name, label)
        entry = fact.pop(CONTEXT + "entry", None)
        facts.append({**fact, CONTEXT + "at": f"[{name!r}]"} if entry is not None else fact)
    return facts


def _read_as_written(answer: object, leaves: tuple[Any, Any] | None, label: str) -> list[dict[str, Any]]:
    """The READ_AS_WRITTEN fact of each gradient leaf_grads returned: not the very number a leaf's
    .grad holds after the call where the code changed that .grad in place since backward wrote it
    (``w.grad.zero_()`` "to clean up" before the read), told by the entry and the leaf (``~leaf``).
    A number read before the change is another object than the one the change left: it passes."""
    if type(answer) is not dict or leaves is None:
        return []
    facts = []
    for name, leaf in zip(("w", "x"), leaves):
        entry, held = answer.get(name), leaf.grad
        number = entry.item() if isinstance(entry, Value) else entry
        changed = isinstance(held, Value) and grad_of(leaf, name).get("changed") is True and held.item() is number
        fact = check(Check.READ_AS_WRITTEN, not changed, f"{label}[{name!r}]")
        facts.append({**fact, CONTEXT + "leaf": name} if changed else fact)
    return facts


def _built_leaves(built: list[Any]) -> tuple[Any, Any] | None:
    """The w and x of the graph build_graph last returned during a leaf_grads call, where it
    returned a dict holding two Values under those names (None otherwise)."""
    g = plain_dict(built[-1]) if built else None
    if type(g) is not dict or not all(isinstance(g.get(name), Value) for name in ("w", "x")):
        return None
    return g["w"], g["x"]


def _flags_kept(call: Any, flags: tuple[bool, bool], numbers: tuple[float, float],
                label: str, leaves: tuple[Any, Any] | None = None) -> dict[str, Any]:
    """The CHECK fact that the call's backward wrote into the leaves its flags set to True, and
    no other (judged of a call that ran backward), a hook of the student's on a leaf or not: the
    leaf's AccumulateGrad ran, so its graph was recorded with that leaf requiring grad.  The leaves are the student's own: the w and
    x its build_graph returned (``leaves``), told by identity, else by their numbers (w's and
    x's); where they cannot be (equal numbers, a leaf of another number), by how many were
    written.  A leaf against its flag is named as context: one written for a False flag
    (``~wrote``) or not written for a True one (``~missed``), or, not written for a True one
    where another leaf was, not the leaf the graph was built from (``~apart``: a copy of w
    returned as w); a leaf written that is neither w nor x, one the student's code made
    (``~other``)."""
    if not call.fact["passes"]:
        return check(Check.FLAGS_KEPT, None, label)
    if leaves is not None:
        written = list(call.accumulated.values())
        wrote = {name for name, leaf in zip("wx", leaves) if any(v is leaf for v in written)}
        other = len(written) > len(wrote)
    else:
        numbers_written = [v.item() for v in call.accumulated.values()]
        if numbers[0] == numbers[1] or not all(n in numbers for n in numbers_written):
            return check(Check.FLAGS_KEPT, len(numbers_written) == sum(flags), label)
        wrote, other = {name for name, number in zip("wx", numbers) if number in numbers_written}, False
    against = next((name for name, flag in zip("wx", flags) if (name in wrote) != flag), None)
    fact = check(Check.FLAGS_KEPT, against is None and not other, label)
    if against is not None:
        fact[CONTEXT + ("wrote" if against in wrote else "apart" if other else "missed")] = against
    elif other:
        fact[CONTEXT + "other"] = True
    return fact
