"""Graph nodes: the backward functions that ``grad_fn`` points at.

A node is PyTorch's ``torch::autograd::Node``: it knows the nodes of its inputs
(``next_functions``, the edges the engine follows), the values it *saved* during
the forward pass to compute its gradient later, and the hooks registered on its
output.  It does **not** hold its output ``Value``: the output holds the node
(``grad_fn``), so a graph is a tree of plain references with no cycles, and it
is freed by reference counting alone, as soon as the output goes.

Saved values and their versions live here too.  A saved ``Value`` remembers the
version of its data at save time; if an in-place operation has changed it since,
unpacking raises PyTorch's "modified by an inplace operation" error.  After a
backward pass without ``retain_graph`` the saved values are released, and a
node that needs them again raises "Trying to backward through the graph a second
time".  A node that saved nothing (``+``, ``-``) can run any number of times.

:func:`make_node` builds an op's node: its edges (:func:`gradient_edge`) and
what it saves, each with its version.
"""

from __future__ import annotations

import enum
import itertools
import re
import weakref
from typing import TYPE_CHECKING, Any, Callable, ClassVar, NoReturn

from micrograph import inference
from micrograph.handles import RemovableHandle, add_hook
from micrograph.saved_errors import DETACHED_IN_PLACE, SECOND_BACKWARD, modified_inplace_error

if TYPE_CHECKING:
    from micrograph.value import Value

Grad = Any  # a float during a plain backward, a Value when create_graph=True

sequence = itertools.count()  # numbers nodes in creation order (PyTorch's sequence_nr)
ALL_AT_ZERO = ((), (0,), (0, 0), (0, 0, 0))  # the usual versions of 0-3 saved items, shared, not made per node

_detached_in_place = False  # whether any non-leaf was detached in place (detach_()) in this process


def note_detached_in_place() -> None:
    """Called by ``Value.detach_`` on a non-leaf: from now on unpacking checks every saved Value
    for it (until then none can be one, and unpacking skips that attribute read)."""
    global _detached_in_place
    _detached_in_place = True


def _short_name(node: Node | None) -> str | None:
    """'MulBackward0' -> 'Mul', 'PowBackward1' -> 'Pow1', as PyTorch's message names an op."""
    if node is None:
        return None
    name = node.name()
    match = re.fullmatch(r"(\w+)Backward(\d*)", name)
    if match is None:
        return name
    return match[1] if match[2] in ("", "0") else match[1] + match[2]


class Sends(enum.Enum):
    """How a node's outgoing gradients relate to the incoming one, as torch's formulas make them."""

    SAME = "same"  # an output that *is* the incoming gradient is the same tensor (add, sub's first input, clone)
    EXPAND = "expand"  # every output is a view of the incoming gradient's memory (sum: grad.expand, unbind)
    SPREAD = "spread"  # every output a view of one new tensor, an element each (mean: grad.expand / n, unbind)
    MASKED = "masked"  # a new tensor written in place once (max/min: zeros, then masked_fill_): version 1
    KEEP = "keep"  # AccumulateGrad: sends nothing, keeps the gradient object as the leaf's .grad


class _SavedAccessor(property):
    """A generated ``_saved_<name>`` property; an op's own property of that name (a number torch keeps
    as a Scalar, readable after freeing) is left in place, in its subclasses too."""


class Node(list):
    """A backward function.  Subclasses in ``ops.py`` (and ``ops_math.py``) declare one op each.

    A node *is* the list of its edges: the nodes its gradients flow to, one per input
    (``next_functions`` without the input numbers; None for an input that needs no gradient),
    as torch's ``Node`` holds its ``next_edges_`` inside itself.  The engine walks a graph with
    ``for nxt in node``.  A separate tuple of edges would be a second object per op for Python's
    cyclic garbage collector to walk again and again while the graph lives: that walking was
    most of the forward pass's time in a process with many objects.  A node compares,
    hashes and tests true as an object, not as a list.

    An op class sets ``inputs`` (which operands, ``"a"`` and ``"b"``, are graph
    inputs), ``saves`` (which of ``"a"``, ``"b"`` and its result ``"out"`` it
    keeps for backward), ``forward`` (floats in, float out) and
    ``backward(grad, *saved)`` (one gradient per input).  ``backward`` is
    written with arithmetic that works on floats and on Values alike, so with
    ``create_graph=True`` the same formula records a graph of its own.
    """

    # Hooks and retain_grad are rare: class-level defaults, set per node (in its
    # __dict__, made only then) when used, so creating a node stays cheap.
    __slots__ = ("_saved", "_versions", "_result", "_seq", "__dict__", "__weakref__")
    _hooks: list[Callable[[Value], Value | None]] | None = None
    _retained: weakref.ref[Value] | None = None
    _prehooks: list[Callable[..., Any]] | None = None  # grad_fn.register_prehook: see engine.node_hooks
    _posthooks: list[Callable[..., Any]] | None = None  # grad_fn.register_hook
    # A node with several outputs (``multi_output.py``) sets how many: its gradient buffer is then a
    # ``Slots`` list, one gradient per output.  Edges into such nodes carry the output's number.
    _outputs = 0
    _next_nr: tuple[int, ...] | None = None  # per edge, the output number (torch's input_nr); None: all 0

    inputs: ClassVar[tuple[str, ...]] = ()
    saves: ClassVar[tuple[str, ...]] = ()
    # A saved operand that only one input's gradient needs, e.g. mul's ``a`` is
    # needed only for ``b``'s gradient: saved only when that input requires grad
    # (else it is None), so changing it in place later is no error, as in PyTorch.
    saves_only_for: ClassVar[dict[str, str]] = {}
    # Per saved item, whether it is this node's own output (unpacked with this
    # node as its grad_fn); a custom Function sets its own per call.
    saved_is_output: tuple[bool, ...] = ()
    # How the gradients this node sends relate to the one it received, for torch's gradient
    # objects (``grad_objects``); None: each is a new tensor.
    sends: ClassVar[Sends | None] = None

    _saved: tuple[Any, ...] | None  # None once released
    _versions: tuple[int, ...]  # each saved item's version when it was saved (0 for a number)
    _result: float | None  # the number this node produced (for diagrams), not its output Value
    _seq: int  # creation order: the engine runs the most recent node first, as PyTorch

    forward: ClassVar[Callable[..., float]]
    backward: ClassVar[Callable[..., tuple[Grad, ...]]]

    # Per saved operand: the index in ``inputs`` of the one input whose gradient
    # needs it (from ``saves_only_for``), None if every gradient does.
    save_rules: ClassVar[tuple[tuple[str, int | None], ...]] = ()
    # Read from ``inputs`` once per class, not once per node by ``make_node``: whether both
    # operands are inputs, else whether the one input is ``b`` (``2 ** w``).
    two_inputs: ClassVar[bool] = False
    input_is_b: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.two_inputs, cls.input_is_b = cls.inputs == ("a", "b"), cls.inputs == ("b",)
        only = cls.saves_only_for
        cls.save_rules = tuple((n, cls.inputs.index(only[n]) if n in only else None) for n in cls.saves)
        cls.saved_is_output = tuple(name == "out" for name in cls.saves)
        for i, name in enumerate(cls.saves):  # torch's accessors, as properties: grad_fn._saved_self ...
            accessor = "_saved_" + cls.torch_names.get(name, name)
            if isinstance(getattr(cls, accessor, None), (_SavedAccessor, type(None))):  # else the op wrote its own
                setattr(cls, accessor, _SavedAccessor(lambda self, i=i: self._read_saved(i)))
        for name in getattr(cls, "consts", ()):  # a constant of an ops_extra node (alpha, a bound)
            setattr(cls, "_saved_" + name, property(lambda self, name=name: getattr(self, name)))
        for name, number in cls.saved_constants.items():  # add's _saved_alpha: the same for every node
            setattr(cls, "_saved_" + name, number)

    def __init__(self, next_nodes: tuple[Node | None, ...], result: float | None = None,
                 saved: tuple[Any, ...] = (), versions: tuple[int, ...] = ()) -> None:
        list.__init__(self, next_nodes)  # sized: the edges get exactly their room, no spare
        self._result = result
        self._seq = next(sequence)
        self._saved = saved
        self._versions = versions

    # Not a list's equality, hash, truth or order: a node is one object (a set of nodes, an
    # ``AccumulateGrad`` without edges that is still a node, torch's TypeError for ``<``).
    __eq__, __ne__, __hash__ = object.__eq__, object.__ne__, object.__hash__
    __lt__ = __le__ = __gt__ = __ge__ = object.__lt__

    def __bool__(self) -> bool:
        return True

    def __add__(self, other: Any) -> Any:
        """Not a list's ``+`` and ``*``: ``y * y.grad_fn`` is torch's "unsupported operand" TypeError."""
        return NotImplemented

    __radd__ = __iadd__ = __mul__ = __rmul__ = __imul__ = __add__

    # -- what PyTorch's Node shows ------------------------------------------------
    def name(self) -> str:
        return type(self).__name__

    def register_prehook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """``hook(grad_outputs)`` before this node runs; a returned tuple replaces the gradients."""
        return add_hook(self, "_prehooks", hook)

    def register_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """``hook(grad_inputs, grad_outputs)`` after this node ran; a returned tuple replaces ``grad_inputs``."""
        return add_hook(self, "_posthooks", hook)

    @property
    def metadata(self) -> dict[str, Any]:
        """A dict for the user's notes, as torch's ``Node.metadata``; anomaly mode keeps the forward stack here."""
        return self.__dict__.setdefault("_metadata", {})

    @property
    def next_functions(self) -> tuple[tuple[Node | None, int], ...]:
        """``(node, input number)`` per edge: the number of the output of ``node`` the edge leads to
        (0 but for nodes with several outputs); a new tuple per call, as torch's.  Written out for one
        and two edges (every op node): a graph walk reads this once or twice per node (ex13's probes:
        700,000 times on their 100,000-op chain), and the generic ``tuple(zip(...))`` costs three times as much."""
        if self._next_nr is not None:
            return tuple(zip(self, self._next_nr))
        if len(self) == 2:
            return ((self[0], 0), (self[1], 0))
        if len(self) == 1:
            return ((self[0], 0),)
        return tuple([(n, 0) for n in self])

    def _output_slot(self, v: Value) -> Node | OutputSlot:
        """Where the tensor hooks and ``retain_grad`` of ``v`` (whose ``grad_fn`` this is) live:
        on this node, or, when it has several outputs, on ``v``'s own output."""
        if not self._outputs:
            return self
        if self._hooks is None:
            self._hooks = []  # so the engine calls the outputs' hooks: engine._call_hooks, multi_output.call_hooks
        return self.__dict__.setdefault("_slots", {}).setdefault(v.output_nr, OutputSlot())

    def __repr__(self) -> str:
        return f"<{self.name().rsplit('::', 1)[-1]} object at {id(self):#x}>"

    # -- torch's accessors: grad_fn._saved_self, _saved_other, _saved_result ... -------
    # (properties each op class gets in __init_subclass__: a __getattr__ would send every
    # attribute read of every node through a slow path, the engine's included)
    # torch's names for what ``saves`` calls a, b and out (pow's b is its "exponent")
    torch_names: ClassVar[dict[str, str]] = {"a": "self", "b": "other", "out": "result"}
    # numbers torch also shows as saved attributes (add's ``_saved_alpha``)
    saved_constants: ClassVar[dict[str, Any]] = {}

    def _read_saved(self, i: int) -> Any:
        """What ``_saved_<name>`` returns: saved item ``i``, checked as backward checks it.

        A saved input comes back as itself, a saved result as a new Value whose
        ``grad_fn`` is this node, an operand that was not needed as None; after a
        freeing backward, torch's "backward through the graph a second time" error.
        """
        if self._saved is None:
            _, needed_by = self.save_rules[i]
            if needed_by is not None and self[needed_by] is None:
                return None  # never saved (no gradient needed it): torch's empty slot reads None, freed or not
            raise RuntimeError(SECOND_BACKWARD)
        item = self._saved[i]
        if item is None or type(item) is float:
            return item
        self._refuse_if_stale(i)
        return item._as_output_of(self) if self.saved_is_output[i] else item

    # -- saved values: PyTorch's SavedVariable, for ops and custom Functions alike --
    def save(self, saved: tuple[Any, ...], versions: tuple[int, ...]) -> None:
        """Keep ``saved`` (Values, numbers, or None for "not needed") with their versions now."""
        self._saved = saved
        self._versions = versions

    @property
    def saved_released(self) -> bool:
        """True once a backward without ``retain_graph`` freed what this node saved."""
        return self._saved is None and bool(self._versions)

    def release(self) -> None:
        self._saved = None

    def unpack(self, as_values: bool) -> list[Any]:
        """The saved items, each checked against the version it was saved at: floats for a
        plain backward; Values for create_graph and a custom Function's ``backward`` (a saved
        output comes back with this node as its ``grad_fn``)."""
        saved = self._saved
        if saved is None:
            raise RuntimeError(SECOND_BACKWARD)
        if as_values:
            self._check_in_torch_order()
            return [self._read_saved(i) for i in range(len(saved))]
        # An item is None (not needed), a number, or a Value; a Value without a version counter was
        # never changed in place, so it is still at the version it was saved at.  (The hot path of
        # every backward: a counted index and a copy filled in place cost less than zip/enumerate.)
        unpacked = list(saved)
        i = 0
        for item in saved:
            if item is not None and type(item) is not float:
                if (item._vc is not None and item._vc[0] != self._versions[i]
                        or _detached_in_place and item._detached_at > self._seq):
                    self._check_in_torch_order()
                unpacked[i] = item._storage[0]
            i += 1
        return unpacked

    def _check_in_torch_order(self) -> None:
        """Refuse the changed saved value torch's generated ``apply`` unpacks first, if any: the saved
        inputs by name (``exponent``, ``max``, ``min``, ``other`` before ``self``), then the result."""
        saved, names = self._saved, self.saves
        order = range(len(saved))
        if len(names) == len(saved):  # (a Linear keeps one item per number, not per name)
            order = sorted(order, key=lambda i: (self.saved_is_output[i], self.torch_names.get(names[i], names[i])))
        for i in order:
            self._refuse_if_stale(i)

    def _refuse_if_stale(self, i: int) -> None:
        """Refuse saved item ``i`` if it is a Value changed (or detached) in place since it was saved:
        the check of the accessors and of a create_graph backward (``unpack``'s float loop, the hot
        path, writes it out and comes here only once it found one)."""
        item, version = self._saved[i], self._versions[i]  # type: ignore[index]
        if item is not None and type(item) is not float and (
                item._vc is not None and item._vc[0] != version or item._detached_at > self._seq):
            self._refuse(item, version, self.saved_is_output[i])

    def _refuse(self, item: Value, expected: int, is_output: bool) -> NoReturn:
        """Raise PyTorch's error for a saved value changed (or detached) in place since."""
        if item._detached_at > self._seq:  # detach_() after this node saved it
            raise RuntimeError(DETACHED_IN_PLACE)
        owner = _short_name(self) if is_output else _short_name(item.grad_fn)
        raise modified_inplace_error(owner, item._version, expected, item._output_nr if is_output else item.output_nr)

    def apply(self, grad: Grad, create_graph: bool) -> tuple[Grad, ...]:
        """Gradients for each of ``next_functions``, given the output's gradient."""
        if not self.saves:
            return self.backward(grad)
        saved = self.unpack(create_graph)
        if len(saved) == 2:  # the usual sizes spelled out: a call with *saved costs more (chain backward: 9%)
            return self.backward(grad, saved[0], saved[1])
        if len(saved) == 1:
            return self.backward(grad, saved[0])
        return self.backward(grad, *saved)


class OutputSlot:
    """The tensor hooks and retained gradient of one output of a node with several outputs."""

    __slots__ = ("_hooks", "_retained")

    def __init__(self) -> None:
        self._hooks: list[Callable[[Value], Value | None]] | None = None
        self._retained: weakref.ref[Value] | None = None


class AccumulateGrad(Node):
    """The node that writes a leaf's ``.grad``; one per leaf, shared by every use of it.

    It holds its leaf strongly (``variable``); the leaf holds it only weakly,
    so the graph and the node die together.  Like PyTorch's, it runs as soon as
    it is ready: a leaf's gradient is written as soon as it is complete.  The
    leaf's hooks live on the leaf (``register_hook`` on a leaf), read here.
    """

    __slots__ = ("variable",)
    sends = Sends.KEEP

    def __init__(self, variable: Value) -> None:
        super().__init__(())
        self.variable = variable

    @property  # type: ignore[override]
    def _hooks(self) -> list[Callable[[Value], Value | None]] | None:
        return self.variable._hooks

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"


# -- making a node: what ``value._record`` calls for each op --------------------------------
def gradient_edge(x: Any) -> Node | None:
    """Where a gradient for ``x`` flows (torch's ``gradient_edge``): grad_fn, or the leaf's AccumulateGrad."""
    if type(x) is float or not x._requires_grad:
        return None
    if x.grad_fn is not None:
        return x.grad_fn
    node = x._accumulator() if x._accumulator is not None else None
    if node is None:
        node = AccumulateGrad(x)
        x._accumulator = weakref.ref(node)
    return node


def make_node(op: type[Node], a: Any, b: Any, out: Value, saved_a: Any, b_version: int | None) -> Node | None:
    """``op``'s node for ``out = op(a, b)``, or None when no input requires grad.

    ``saved_a`` is what the node keeps of ``a``: ``a`` itself, or for an in-place op a copy of
    the old number.  A saved result is ``out.detach()`` (the node never holds its own output).
    Each saved Value is stamped with its version; an in-place op passes ``b``'s version from
    before its own bump, so that ``a.mul_(a)`` finds its saved ``a`` modified, as PyTorch does.
    """
    if op.two_inputs:
        edge_a, edge_b = gradient_edge(a), gradient_edge(b)
        if edge_a is None and edge_b is None:
            return None
        edges: tuple[Node | None, ...] = (edge_a, edge_b)
    else:
        edge = gradient_edge(b if op.input_is_b else a)
        if edge is None:
            return None
        edges = (edge,)
    if not op.saves:
        node = op(edges, out._storage[0])
    else:
        saved = []
        usual = b_version is None  # no Value saved here was changed in place or made in inference mode
        for name, needed_by in op.save_rules:
            item = None  # unless some gradient needs it
            if needed_by is None or edges[needed_by] is not None:
                item = saved_a if name == "a" else b if name == "b" else out.detach()
                if usual and type(item) is not float and ((item._vc is not None and item._vc[0]) or item._inference):
                    usual = False
            saved.append(item)
        versions = ALL_AT_ZERO[len(saved)] if usual else _versions(op, saved, b_version)
        node = op(edges, out._storage[0], tuple(saved), versions)
    return node if not several_outputs else numbered(node, (a, b))


def _versions(op: type[Node], saved: list[Any], b_version: int | None) -> tuple[int, ...]:
    """Each saved item's version now (0 for a number or None), refusing an inference value:
    what ``make_node`` asks only when some saved Value was changed in place or came from
    inference mode.  Versions all 0 (never changed in place) are a shared tuple, not one more
    object per node for the garbage collector to count."""
    versions = []
    for name, item in zip(op.saves, saved):
        if item is not None and type(item) is not float and item._inference:
            inference.check_save(item)
        vc = None if item is None or type(item) is float else item._vc  # no counter yet: version 0
        versions.append(b_version if name == "b" and b_version is not None else 0 if vc is None else vc[0])
    return tuple(versions) if any(versions) else ALL_AT_ZERO[len(versions)]


several_outputs = False  # set once a node with several outputs exists: until then nobody pays for numbering


def several_outputs_exist() -> None:
    """From now on :func:`make_node` numbers edges into nodes with several outputs."""
    global several_outputs
    several_outputs = True


def numbered(node: Node, inputs: tuple[Any, ...]) -> Node:
    """``node`` with the output number of each of its edges (torch's ``Edge.input_nr``), needed
    when an input is one of several outputs of its ``grad_fn`` (``multi_output.py``).

    ``inputs`` are the node's inputs in the order of its edges (an op's ``a`` and ``b``, of
    which a one-input op uses the first its ``inputs`` names).
    """
    if any(e is not None and e._outputs for e in node):
        if len(node) == 1 and len(inputs) == 2:
            inputs = (inputs[0] if node.inputs[0] == "a" else inputs[1],)
        node._next_nr = tuple(x.output_nr if e is not None else 0 for e, x in zip(node, inputs))
    return node
