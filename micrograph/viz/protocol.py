"""Drawing a graph some other engine built, read through the protocol PyTorch's own objects speak.

micrograph's diagrams read micrograph's engine through ``internals`` (numbers of intermediates
no variable holds, saved values, versions).  An engine a student writes (the build track,
ex16-ex22), or PyTorch itself, is read through five public names only, the ones a student
sees in PyTorch:

    v.grad_fn               the node that made a value (None for a leaf)
    node.next_functions     ((node or None, input_nr), ...) per input
    node.name()             "MulBackward0", "torch::autograd::AccumulateGrad"
    node.variable           on an AccumulateGrad node: the leaf it writes to
    v.data, v.grad          a number (or something ``float()`` or ``item()`` reads), or None

plus ``v.requires_grad`` and ``v.retains_grad`` when present.  Only the values the caller names
(and the roots) show their numbers: the protocol has no way from a node to the number it
produced, so other intermediates read ``data ?``; nothing is saved, freed or versioned.

Every read is guarded: a value the protocol cannot read is drawn without it, never raised
from, because the objects may be a student's (the grader draws them in its sandboxed child).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from typing import Any, NamedTuple

from micrograph.viz.internals import Saved

ACCUMULATE_GRAD = "AccumulateGrad"  # torch's name ends so: "torch::autograd::AccumulateGrad"
MAX_EDGES = 64  # inputs read per node: a student's next_functions could be anything
MAX_OUTPUTS = 4096  # outputs of one node told apart (a layer's entries); any other number reads as the first


def _guarded(read: Any, default: Any = None) -> Any:
    """``read()``, or ``default`` when it raises anything but a KeyboardInterrupt."""
    try:
        return read()
    except Exception:  # noqa: BLE001 - a foreign object's property may raise anything
        return default


def _float(x: Any) -> float | None:
    """A plain number from a float, an int, or an object ``item()`` or ``float()`` reads."""
    if type(x) in (int, float):
        return float(x)
    item = getattr(type(x), "item", None)
    got = _guarded(lambda: item(x)) if callable(item) else _guarded(lambda: float(x))
    return float(got) if type(got) in (int, float) else None


def speaks_protocol(x: object) -> bool:
    """Whether ``x`` looks like a value of an engine that speaks the protocol."""
    return _guarded(lambda: hasattr(x, "grad_fn") and hasattr(x, "requires_grad"), False)


class Unpaired(NamedTuple):
    """An entry of a student's ``next_functions`` that is not a (node, input_nr) pair, or a pair
    whose node is a Value itself: drawn in its input's place as what it is, never as a constant
    PyTorch's ``(None, 0)`` stands for, nor as an op."""

    shown: str  # the node's name(), "None", or the entry's type
    node: bool  # a node given without its input number
    value: Any = None  # the Value a pair holds where a node belongs (a leaf's edge to itself)


class ProtocolReader:
    """The reads ``collect`` needs, through the protocol; ``known`` are the values the caller
    named or drew from (their numbers stand for their nodes' outputs)."""

    def __init__(self, known: Iterable[Any]) -> None:
        self.by_node: dict[Any, Any] = {}
        for v in known:
            fn = self.grad_fn(v)
            if fn is not None:
                _guarded(lambda fn=fn, v=v: self.by_node.setdefault(fn, v))

    @staticmethod
    def is_value(x: object) -> bool:
        return speaks_protocol(x)

    @staticmethod
    def grad_fn(v: Any) -> Any:
        return _guarded(lambda: v.grad_fn)

    @staticmethod
    def value_data(v: Any) -> float | None:
        return _float(_guarded(lambda: v.data))

    @staticmethod
    def value_grad(v: Any) -> float | None:
        """``v.grad`` as a number, without the non-leaf warning."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            g = _guarded(lambda: v.grad)
        return None if g is None else _float(g)

    @staticmethod
    def value_requires_grad(v: Any) -> bool:
        return _guarded(lambda: v.requires_grad, False) is True

    @staticmethod
    def node_inputs(n: Any) -> list[Any]:
        pairs = _guarded(lambda: tuple(n.next_functions)[:MAX_EDGES], ())
        return [p[0] if type(p) in (tuple, list) and len(p) == 2 else None for p in pairs]

    @classmethod
    def node_edges(cls, n: Any) -> list[tuple[Any, int]]:
        """Per input, its node and which output of it (0 where the pair gives no small int); an
        entry that is no pair, or a pair holding a Value where its node belongs, as ``Unpaired``:
        drawn as what it is rather than as a constant or an op."""
        pairs = _guarded(lambda: tuple(n.next_functions)[:MAX_EDGES], ())
        return [((Unpaired(type(p[0]).__name__[:60], node=False, value=p[0]) if speaks_protocol(p[0]) else p[0]),
                 p[1] if type(p[1]) is int and 0 <= p[1] < MAX_OUTPUTS else 0)
                if type(p) in (tuple, list) and len(p) == 2 else (cls.unpaired(p), 0) for p in pairs]

    @classmethod
    def unpaired(cls, entry: Any) -> Unpaired:
        """What an entry of ``next_functions`` that is no (node, input_nr) pair is: a node given
        without its input number (named as the node names itself), None, or another object (its type)."""
        if entry is None:
            return Unpaired("None", node=False)
        if _guarded(lambda: hasattr(entry, "next_functions"), False):
            return Unpaired(cls.node_name(entry), node=True)
        return Unpaired(type(entry).__name__[:60], node=False)

    @staticmethod
    def value_output_nr(v: Any) -> int:
        nr = _guarded(lambda: v.output_nr, 0)
        return nr if type(nr) is int and 0 <= nr < MAX_OUTPUTS else 0

    @staticmethod
    def node_name(n: Any) -> str:
        name = _guarded(lambda: n.name())
        return name[:60] if type(name) is str else type(n).__name__[:60]

    def leaf_of(self, n: Any) -> Any:
        """The Value an AccumulateGrad node writes to, None for other nodes (and for an
        AccumulateGrad without a readable ``variable``: drawn as an op then).  A variable that
        requires no grad, which PyTorch never gives one, is returned too: ``collect`` draws it
        as the constant it is, below the node, so the node is seen where PyTorch has none."""
        if not self.node_name(n).endswith(ACCUMULATE_GRAD):
            return None
        leaf = _guarded(lambda: n.variable)
        return leaf if speaks_protocol(leaf) else None

    def node_output(self, n: Any, known: Any) -> float | None:
        """The number ``n`` produced: the protocol knows it only from a Value the caller gave."""
        return None if known is None or not speaks_protocol(known) else self.value_data(known)

    def node_retained(self, n: Any) -> Any:
        """The Value ``n`` made, where it retains its grad: its ``retains_grad`` true as an engine's
        ``if`` reads it (a student's 1 as much as PyTorch's True), a method left uncalled aside."""
        known = self.by_node.get(n)
        flag = None if known is None else _guarded(lambda: known.retains_grad)
        return known if not callable(flag) and _guarded(lambda: bool(flag), False) else None

    @staticmethod
    def node_freed(n: Any) -> bool:
        return False

    @staticmethod
    def node_saved(n: Any) -> list[Saved]:
        return []

    @staticmethod
    def input_operand(n: Any, i: int) -> Any:
        """What ``n`` saved of its input ``i``: nothing the protocol can tell."""
        return None
