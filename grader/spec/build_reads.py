"""How the build track reads what a student's engine answers: a number, a flag, a node's name,
its edges, a ``.grad``, and the fact a reading is told as (``fact``).

Nothing here trusts the student's objects: a number is read with ``item()`` into a float or
described, a node's name must be a ``str``, a flag a ``bool``; anything else is described by its
type, so the same reading runs on a module whose ``Value`` makes ``torch.tensor``s.
"""

from __future__ import annotations

import warnings
from typing import Any

from micrograph.i18n import N_

from grader.spec.facts import A_CLASS, COUNTER_KIND, NAME_NOT_TEXT, NOT_PLAIN, PYTORCH, REFERENCE
from grader.spec.probe import MAX_TEXT, type_name
from grader.spec.provenance import result_of


def fact(x: Any, label: str) -> dict[str, Any]:
    """A plain observation as a RESULT fact labelled with the code that produced it, compared
    with PyTorch's answer (so its feedback names PyTorch, not a statement)."""
    return {**result_of(x, label), REFERENCE: PYTORCH}


def number(x: object) -> float | str | None:
    """None, or the float a Python number or a Value (through ``item()``) holds; else a description."""
    if x is None:
        return None
    if type(x) in (int, float):
        return float(x)  # type: ignore[arg-type]
    item = getattr(type(x), "item", None)
    if not callable(item):
        return f"not a number: {type_name(x)}"
    got = item(x)
    return float(got) if type(got) in (int, float) else f"not a number: its item() returns {type_name(got)}"


def version(v: Any) -> int | str:
    """``v._version`` as PyTorch's counter is, an int; any other kind (a float counter's 1.0, which
    equals PyTorch's 1 as a number) described by its type (``COUNTER_KIND``), told as a counter of
    another type than PyTorch's int, and only that: how the counter counts is another rule."""
    got = v._version
    return got if type(got) is int else COUNTER_KIND + type_name(got)


def flag(x: object) -> bool | str:
    """A True or False the engine answered, or a description of anything else."""
    return x if type(x) is bool else f"not a bool: {type_name(x)}"


def node_name(fn: object) -> str | None:
    """None, or ``fn.name()`` when it is a str; an object with no ``name()`` (a Value where a
    node belongs) as its type, told as the student's type, not as a node; a class (a node's
    class set as grad_fn, not a node made from it) as that, by its name."""
    if fn is None:
        return None
    if isinstance(fn, type):  # the node's class itself, whose name() would need an object of it
        return A_CLASS + fn.__name__[:MAX_TEXT]
    name = getattr(fn, "name", None)
    if not callable(name):
        return NOT_PLAIN + type_name(fn)
    got = name()
    return got[:MAX_TEXT] if type(got) is str else NAME_NOT_TEXT + type_name(got)


def edges(fn: object) -> list[Any] | str:
    """``fn.next_functions`` as ``[[name, input_nr], ...]``; anything else (a generator, which
    can be read only once) as the name of its type, told as the student's type."""
    pairs = getattr(fn, "next_functions", None)
    if type(pairs) not in (tuple, list):
        return NOT_PLAIN + type_name(pairs)
    out: list[Any] = []
    for pair in list(pairs)[:16]:
        if type(pair) not in (tuple, list) or len(pair) != 2:
            out.append(f"not a (node, input_nr) pair: {type_name(pair)}")
        else:
            out.append([node_name(pair[0]), pair[1] if type(pair[1]) is int else type_name(pair[1])])
    return out


def edge_node(fn: object, i: int) -> object:
    """The node of edge ``i`` of ``fn``, or None."""
    pairs = getattr(fn, "next_functions", None)
    if type(pairs) not in (tuple, list) or i >= len(pairs) or type(pairs[i]) not in (tuple, list):
        return None
    return pairs[i][0]


def grad_quiet(v: object) -> float | str | None:
    """``v.grad`` as a number or None, whatever reading it warns."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return number(v.grad)  # type: ignore[attr-defined]


SECOND_RUN = N_("a second time, after a first backward")  # a program's note: the same graph backward again
A_CONSTANT = N_("c a constant")  # a program's note: c = Value(...), whose number is no label's to show


def root_as_was(y: Any, program: str) -> list[dict[str, Any]]:
    """What a backward left of the Value it started from (``y``, of ``program``): its
    requires_grad and its node's name, which PyTorch's backward leaves as they were.  A second
    backward that fails because the first changed them (set requires_grad False, or dropped the
    node) is told by that change, not by a walk that kept state between calls."""
    return [fact(flag(y.requires_grad), f"y.requires_grad after y.backward(), {program}"),
            fact(node_name(y.grad_fn), f"y.grad_fn after y.backward(), {program}")]
