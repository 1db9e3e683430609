"""ex02's ``node_info(v)``: its answer as plain data, checked for the types it promises, and the
facts of reading a Value's three attributes (is_leaf, requires_grad, grad_fn) without changing
them, nor deriving one from another.
"""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import Any

from micrograph import Value

from grader.spec.facts import CONTEXT, NOT_PLAIN, Check
from grader.spec.held import held
from grader.spec.mode_restored import called
from grader.spec.probe import plain_dict, type_name
from grader.spec.provenance import check


def _flag(x: object) -> bool | str:
    return x if type(x) is bool else f"not a bool: {type_name(x)}"


def _name(x: object) -> str | None:
    return x if x is None or type(x) is str else f"{NOT_PLAIN}{type_name(x)}"


def info_of(info: object) -> dict[str, Any] | str:
    """node_info's answer as plain data, checking the types it promises."""
    info = plain_dict(info)
    if type(info) is not dict:
        return f"not a dict: {type_name(info)}"
    keys = ("is_leaf", "requires_grad", "grad_fn")
    if set(info) != set(keys):
        return f"keys {sorted(map(str, info))}"
    return {"is_leaf": _flag(info["is_leaf"]), "requires_grad": _flag(info["requires_grad"]),
            "grad_fn": _name(info["grad_fn"])}


def asked_in_turn(sub_module: ModuleType, values: list[Value],
                  labels: tuple[str, ...]) -> tuple[list[dict[str, Any] | str], dict[str, Any]]:
    """node_info of each Value, each answer as it was when its call returned: one dict kept and
    refilled by every call is judged by what each call put in it, and the change a later call made
    to an earlier answer is told by ``calls_apart``, not as each answer's own slip.  And the
    VALUE_KEPT fact: no call changed the attributes of the Value it read (``requires_grad_()``
    taken for a getter sets the flag), labelled with the first such call, context ``attribute``."""
    infos, changed = [], None
    held(*values)  # no later Value takes one of their ids: an answer kept by id(v) is right for them
    for v, label in zip(values, labels):
        before = _attributes(v)
        infos.append(info_of(called("node_info", sub_module.node_info, v)))
        after = _attributes(v)
        differs = next((name for name in before if before[name] != after[name]), None)
        changed = changed or (differs and (label, differs))
    label, attribute = changed or (None, None)
    retained = {CONTEXT + "retained": True} if attribute == "retains_grad" else {}  # v.retain_grad() called
    return infos, {**check(Check.VALUE_KEPT, changed is None, "node_info"), CONTEXT + "value": label,
                   CONTEXT + "attribute": attribute, **retained}


def _attributes(v: Value) -> dict[str, Any]:
    """The three attributes node_info reads, as they are now, and whether ``v`` retains its gradient
    (``v.retain_grad()`` taken for a step of reading it changes what every later backward pass keeps)."""
    return {"requires_grad": v.requires_grad, "is_leaf": v.is_leaf, "grad_fn": type_name(v.grad_fn),
            "retains_grad": v.retains_grad}


def leaf_apart(infos: list[dict[str, Any] | str]) -> dict[str, Any]:
    """The CHECK fact that node_info's is_leaf is not just the opposite of its requires_grad on
    every Value asked about (x, a leaf that requires grad, tells them apart); not judged of an
    answer that is not such a dict."""
    pairs = [(i.get("is_leaf"), i.get("requires_grad")) for i in infos if type(i) is dict]
    if len(pairs) != len(infos) or not all(type(a) is bool and type(b) is bool for a, b in pairs):
        return check(Check.LEAF_APART_FROM_FLAG, None, "node_info")
    return check(Check.LEAF_APART_FROM_FLAG, not all(a is (not b) for a, b in pairs), "node_info")


def leaf_apart_from_grad(infos: list[dict[str, Any] | str], values: list[Value]) -> dict[str, Any]:
    """The CHECK fact that node_info's is_leaf is not just whether each Value asked about holds a
    .grad (a leaf made without one, or a non-leaf that retained its gradient, tells them apart);
    judged only where some of the Values held a .grad and some did not (an answer whose is_leaf
    is always False is not told as following .grad), and where the Values' own is_leaf does not
    follow their .grad too (then nothing here tells the rule from the statement's)."""
    with warnings.catch_warnings():  # a non-leaf's .grad is read here, not by the submission
        warnings.simplefilter("ignore")
        held_grad = [v.grad is not None for v in values]
    leaves = [i.get("is_leaf") for i in infos if type(i) is dict]
    shown = any(held_grad) and not all(held_grad) and not all(v.is_leaf is h for v, h in zip(values, held_grad))
    if not shown or len(leaves) != len(infos) or not all(type(a) is bool for a in leaves):
        return check(Check.LEAF_APART_FROM_GRAD, None, "node_info")
    return check(Check.LEAF_APART_FROM_GRAD, not all(a is h for a, h in zip(leaves, held_grad)), "node_info")
