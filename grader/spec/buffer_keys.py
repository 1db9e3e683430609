"""The key a build-track backward kept two leaves' gradients under, where both went into one buffer.

Every AccumulateGrad has the same ``name()`` and the same ``sequence_nr``, so buffers kept under
either are one buffer for two leaves' nodes.  A lookup that raises names its key in its KeyError
(``grader.spec.shared_key``); one that takes a default (``buffers.pop(node.name(), 0.0)``) raises
nothing, and the gradients alone do not say which of the two the key was.  So backward is watched
(``sys.setprofile``, only around the call, the hook already set still called): each dict a function
of the student's file holds in a local name, or calls a method of (``get``, ``pop``: a ``c_call``
whose ``__self__`` is the dict), has its keys read at each builtin it calls and at its return,
plain numbers and str only; a key that is the name() or the sequence_nr of every node handed
names what the student's code keyed by.
"""

from __future__ import annotations

from sys import getprofile, setprofile  # bound now: a submission may rebind sys's names (seal.SYS)
from types import FrameType
from typing import Any, Callable

from grader.spec.build_reads import edge_node, grad_quiet

KEYED = "keyed: "  # before an EarlierStage's problem: "<function> <name() or sequence_nr> <one or each> | ", the key
# a fresh y = w * x's two leaves' gradients went under, and which leaf got them (``keyed_prefix``)
_PLAIN = (str, int, float)  # a key of the student's own type is never compared (its __eq__ runs code)
_MAX_KEYS = 1_000  # a one-operation graph's buffers hold a few: a runaway loop is not read whole
_READS = {"name()": lambda node: node.name(), "sequence_nr": lambda node: getattr(node, "sequence_nr", None)}


def keys_looked_up(sub: Any, run: Callable[[], Any]) -> dict[object, str]:
    """``run()``, watched: each plain key of a dict a function of ``sub``'s file held or called a
    method of, with the first such function (its name); what ``run`` raises goes on."""
    path = str(getattr(sub, "__file__", "") or "")
    seen: dict[object, str] = {}
    previous = getprofile()

    def sample(frame: FrameType, event: str, arg: object) -> None:
        if previous is not None:
            previous(frame, event, arg)
        if event not in ("c_call", "return") or not path or frame.f_code.co_filename != path or len(seen) > _MAX_KEYS:
            return
        held = [*frame.f_locals.values(), getattr(arg, "__self__", None) if event == "c_call" else None]
        for kept in held:
            if issubclass(type(kept), dict):  # the real type: an object's own __class__ is never asked
                for key in dict.keys(kept):
                    if type(key) in _PLAIN:
                        seen.setdefault(key, frame.f_code.co_name)

    setprofile(sample)
    try:
        run()
    finally:
        setprofile(previous)
    return seen


def shared_lookup(seen: dict[object, str], nodes: list[Any]) -> tuple[str, str] | None:
    """``(function, "name()" or "sequence_nr")`` where a key in ``seen`` is that of every one of
    ``nodes`` (two or more different ones), and the function that looked it up is named as Python names one;
    None otherwise, or where reading the student's nodes fails."""
    if len(nodes) < 2 or len({id(node) for node in nodes}) < len(nodes):  # one node at both edges: another slip
        return None
    for said, read in _READS.items():
        try:
            own = [read(node) for node in nodes]
        except Exception:  # noqa: BLE001 - the student's name(): a node that cannot say it shares nothing
            continue
        key = own[0] if type(own[0]) in _PLAIN and all(type(k) is type(own[0]) and k == own[0] for k in own) else None
        function = seen.get(key) if key is not None else None
        if function is not None and function.isidentifier():
            return function, said
    return None


def keyed_prefix(sub: Any) -> str:
    """``KEYED`` and ``"<function> <key> <one or each> | "`` where backward through a fresh y = w * x
    gives one leaf both gradients, summed, and the other 0, or each both, and a dict in the student's backward
    holds the key both leaves' AccumulateGrad nodes share: the cause of a gate's finding about a
    graph's gradients (ex17's check), told beside it; "" otherwise, or where that program raises."""
    try:
        w, x = sub.Value(0.5, requires_grad=True), sub.Value(-2.0, requires_grad=True)
        y = w * x
        seen = keys_looked_up(sub, y.backward)
        got = [grad_quiet(w), grad_quiet(x)]
        found = shared_lookup(seen, [edge_node(y.grad_fn, 0), edge_node(y.grad_fn, 1)])
    except Exception:  # noqa: BLE001 - a program that raises is the check's to tell
        return ""
    how = "one" if sorted(got, key=repr) == sorted([-1.5, 0.0], key=repr) else "each" if got == [-1.5, -1.5] else ""
    return f"{KEYED}{found[0]} {found[1]} {how} | " if how and found else ""  # x + w: the two gradients sent, summed
