"""Graph nodes: the backward functions ``grad_fn`` points at, and the values they save.

A ``Node`` is PyTorch's ``torch::autograd::Node`` (``torch/csrc/autograd/function.h``):

* ``next_edges``: one edge per input of the forward op, ``(node, input_nr)``: where that input's gradient goes
  (``(None, 0)`` for an input that needs none).  ``next_functions`` shows them as torch does.
* ``sequence_nr``: a counter stamped at creation.  The engine's ready queue runs the most recent node first
  (``engine.cpp``, ``CompareNodeTaskTime``).
* saved values (``SavedVariable``, ``saved_variable.cpp``): what the backward formula needs, each with the version it
  had when saved.  ``unpack`` refuses a value changed in place since, and a node whose saved values were released by a
  backward pass without ``retain_graph`` (``release_variables``) refuses to run again.  A node that saved nothing runs
  any number of times.
* hooks: tensor hooks of its outputs (``tensor_pre_hooks``), node pre-hooks and post-hooks.

A node does not hold its output ``Value`` (the output holds the node), so a graph is freed by reference counting as soon
as its last output goes.
"""

from __future__ import annotations

import itertools
import operator
import weakref
from typing import TYPE_CHECKING, Any, Callable, ClassVar

from micrograph import anomaly

if TYPE_CHECKING:
    from micrograph.value import Value

Grad = Any  # a float in a plain backward, a Value under create_graph=True
Edge = tuple["Node | None", int]
NO_EDGE: Edge = (None, 0)

sequence = itertools.count()  # torch's sequence_nr: creation order
# The versions of 1-3 saved items when none was changed in place (the usual case): one tuple each, shared.
VERSIONS = {v: v for v in [(0,), (0, 0), (0, 0, 0), (None, 0), (0, None), (None, 0, 0), (0, None, 0)]}
ACCUMULATE_PRIORITY = (1 << 64) - 1  # AccumulateGrad's sequence_nr is UINT64_MAX in torch: run as soon as ready

SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)
DETACHED_IN_PLACE = (
    "Trying to use a saved tensor that has been detached in-place, i.e. with .detach_().This is not "
    "supported, please use out-of-place `.detach()` instead"
)
INFERENCE_SAVED = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in inference mode in "
    "computation tracked by autograd. To work around this, you can make a clone to get a normal tensor and use it "
    "in autograd, or use `torch.no_grad()` instead of `torch.inference_mode()`."
)
MODIFIED_INPLACE = ("one of the variables needed for gradient computation has been modified by an inplace operation: "
                    "[torch.DoubleTensor []]")
ENABLE_ANOMALY_HINT = (
    "enable anomaly detection to find the operation that failed to compute its gradient, with "
    "torch.autograd.set_detect_anomaly(True, check_nan=False)."
)
ANOMALY_HINT = (
    "the backtrace further above shows the operation that failed to compute its gradient. The variable in "
    "question was changed in there or anywhere later. Good luck!"
)


class ReadOnly(property):
    """An attribute torch defines with a getter only (a C getset): writing or deleting it raises CPython's
    AttributeError for such a getset (``Objects/descrobject.c``, ``getset_set``), naming the class that
    defines it as torch prints it (``owner``; None: the object's class, as each of torch's node classes)."""

    def __init__(self, fget: Callable[[Any], Any], owner: str | None = None, name: str = "", doc: str | None = None) -> None:
        super().__init__(fget)  # before Python 3.12 a property subclass drops a ``doc=``: the class docstring showed
        self.owner, self.attr, self.__doc__ = owner, name, doc or fget.__doc__

    def __set_name__(self, cls: type, name: str) -> None:
        self.attr = name

    def __set__(self, obj: Any, value: Any = None) -> None:
        raise AttributeError(f"attribute '{self.attr}' of '{self.owner or type(obj).__name__}' objects is not writable")

    __delete__ = __set__


def modified_inplace_error(owner: str | None, output_nr: int, version: int, expected: int) -> RuntimeError:
    """torch's text; it names the op as its kernel is named: ``MulBackward0`` -> ``Mul``, ``PowBackward1`` -> ``Pow1``,
    and a name with no number after "Backward" as it is (``CopyBackwards``: ``Node::forward_op_name``)."""
    if owner:
        op, _, nr = owner.rpartition("Backward")
        owner = (op + ("" if nr in ("", "0") else nr)) if op and (nr == "" or nr.isdigit()) else owner
    which = f", which is output {output_nr} of {owner}," if owner else ""
    hint = ANOMALY_HINT if anomaly.state.enabled else ENABLE_ANOMALY_HINT
    return RuntimeError(f"{MODIFIED_INPLACE}{which} is at version {version}; expected version {expected} instead. Hint: {hint}")


class RemovableHandle:
    """What ``register_hook`` returns: ``remove()`` takes the hook out of its list (torch.utils.hooks)."""

    __slots__ = ("_hooks", "_hook")

    def __init__(self, hooks: list[Any], hook: Any) -> None:
        self._hooks, self._hook = hooks, hook

    def remove(self) -> None:
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()


def add_hook(owner: Any, attribute: str, hook: Callable[..., Any]) -> RemovableHandle:
    """Append ``hook`` to ``owner.<attribute>`` (a list made on first use)."""
    hooks = getattr(owner, attribute)
    if hooks is None:
        hooks = []
        setattr(owner, attribute, hooks)
    accumulator = owner if isinstance(owner, Node) else owner.gradient_edge(create=False)[0]  # a leaf's: while used
    if accumulator is not None:  # the node runs the hook: the engine's long branch for it
        accumulator.hooked = True
    hooks.append(hook)
    return RemovableHandle(hooks, hook)


class Node:
    """A backward function.  Each op of ``ops.py`` is a subclass; ``apply`` maps the gradients
    of the node's outputs to the gradients of its inputs, one per ``next_edges`` entry."""

    # Rare state (hooks, retain_grad, anomaly traces) lives in __dict__, made only when used.
    __slots__ = ("next_edges", "sequence_nr", "_saved", "_versions", "_result", "__dict__", "__weakref__")
    # torch's names of the saved items, in the order torch's generated code unpacks them
    # (that decides which change a version error names); "result" is the node's own output.
    saves: ClassVar[tuple[str, ...]] = ()
    num_outputs: ClassVar[int] = 1
    tensor_hooks: list[Callable[..., Any]] | None = None  # hooks registered on its output(s)
    retained: dict[int, weakref.ref[Value]] | None = None  # output_nr -> the value that called retain_grad()
    pre_hooks: list[Callable[..., Any]] | None = None
    post_hooks: list[Callable[..., Any]] | None = None
    hooked = False  # any of the four above set: the engine takes its long branch for this node

    next_edges: tuple[Edge, ...]
    sequence_nr: int
    _saved: tuple[Any, ...] | None  # None once released
    _versions: tuple[int, ...]
    _result: float | None  # the number it produced, for diagrams (the output Value is not held)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """``grad_fn._saved_self`` and the like: a property per saved item.  (A ``__getattr__`` would
        do it in fewer lines, but would make every attribute read of every node slower.)"""
        super().__init_subclass__(**kwargs)
        for name in cls.saves:
            if not hasattr(cls, "_saved_" + name):
                setattr(cls, "_saved_" + name, ReadOnly(lambda node, name=name: node.saved_item(name), name="_saved_" + name))

    def __init__(self, next_edges: tuple[Edge, ...] = (), result: float | None = None) -> None:
        self.next_edges = next_edges
        self.sequence_nr = next(sequence)
        self._saved = ()
        self._versions = ()
        self._result = result
        if anomaly.state.enabled:
            anomaly.stamp(self)

    # -- what torch shows ------------------------------------------------------------
    def name(self) -> str:
        return type(self).__name__

    @ReadOnly
    def next_functions(self) -> tuple[Edge, ...]:
        return self.next_edges

    @ReadOnly
    def metadata(self) -> dict[str, Any]:
        return self.__dict__.setdefault("_metadata", {})

    def __repr__(self) -> str:  # torch's names the Python class: ``AccumulateGrad``, not its C++ name()
        return f"<{type(self).__name__} object at {id(self):#x}>"

    def __call__(self, *grads: Grad) -> Any:
        """``grad_fn(grad)``: run the backward formula by hand, as torch allows."""
        out = self.apply(list(grads))
        return out[0] if len(out) == 1 else tuple(out)

    def register_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """``hook(grad_inputs, grad_outputs)`` after the node ran; may return new grad_inputs."""
        return add_hook(self, "post_hooks", hook)

    def register_prehook(self, hook: Callable[..., Any]) -> RemovableHandle:
        """``hook(grad_outputs)`` before the node runs; may return new grad_outputs."""
        return add_hook(self, "pre_hooks", hook)

    # -- saved values (SavedVariable) --------------------------------------------------
    def save(self, items: tuple[Any, ...]) -> None:
        """Keep ``items`` (Values or numbers) with the version each has now (None: a slot not kept)."""
        versions = []  # a loop, not a comprehension and any(): every recorded op that saves comes here
        for x in items:
            if x is not None and type(x) is not float and x._inference:
                raise RuntimeError(INFERENCE_SAVED)
            versions.append(None if x is None else 0 if type(x) is float or x._vc is None else x._vc[0])
        self._saved, self._versions = items, VERSIONS.get(tuple(versions)) or tuple(versions)

    def unpack(self, create_graph: bool = False) -> list[Any]:
        """The saved items, checked: floats in a plain backward, Values under ``create_graph``."""
        saved = self._saved
        if saved is None:
            raise RuntimeError(SECOND_BACKWARD)
        out = []
        for x, expected in zip(saved, self._versions):
            if x is None or type(x) is float:
                out.append(x)
            elif x._vc is not None and x._vc[0] != expected:
                raise self._version_error(x, x._vc[0], expected)
            elif x.grad_fn is None and x._detached_at > self.sequence_nr:
                raise RuntimeError(DETACHED_IN_PLACE)
            else:
                out.append(self._as_value(x) if create_graph else x._storage[0])
        return out

    def _version_error(self, x: Value, version: int, expected: int) -> RuntimeError:
        owner = self if self._is_result(x) else x.grad_fn
        return modified_inplace_error(None if owner is None else owner.name(), x.output_nr, version, expected)

    def _is_result(self, x: Value) -> bool:
        saves = type(self).saves
        return "result" in saves and self._saved is not None and x is self._saved[saves.index("result")]

    def _as_value(self, x: Value) -> Value:
        """A saved item for a recorded backward: the node's own result comes back as its output."""
        return x.as_output_of(self) if self._is_result(x) else x

    def release(self) -> None:
        """Free the saved values (torch's ``release_variables``): a later run raises SECOND_BACKWARD."""
        if self._saved:
            self._saved = None

    @property
    def saved_released(self) -> bool:
        return self._saved is None

    def saved_item(self, name: str) -> Any:
        """``_saved_<name>`` as torch shows it: None for a slot not kept, else the item, checked."""
        i = type(self).saves.index(name)
        if self._versions and self._versions[i] is None:
            return None  # never saved, so never freed either
        if self._saved is None:
            raise RuntimeError(SECOND_BACKWARD)
        x = self._saved[i]
        if x is not None and type(x) is not float and x._vc is not None and x._vc[0] != self._versions[i]:
            raise self._version_error(x, x._vc[0], self._versions[i])
        return x if x is None or type(x) is float else self._as_value(x)

    # -- read-only views for tools that draw or grade a graph (viz, the grader) ---------------
    def saved_items(self) -> tuple[Any, ...] | None:
        """What the node saved, unchecked: Values or numbers, None for a slot it did not keep;
        None once released.  Reading it never raises, unlike ``unpack`` and ``_saved_<name>``."""
        return self._saved

    def saved_versions(self) -> list[int | None]:
        """The version of each saved item when it was saved (0 for a number, None for a slot not
        kept); kept after release."""
        return self._versions

    def output_data(self) -> float | None:
        """The number the node's forward produced (the node does not hold its output Value)."""
        return self._result

    # -- running ----------------------------------------------------------------------
    def apply(self, grads: list[Grad]) -> list[Grad]:
        raise NotImplementedError


class AccumulateGrad(Node):
    """The node of a leaf that requires grad: running it adds the gradient into ``variable.grad``.

    The leaf keeps its accumulator weakly and the graph keeps it strongly, as torch's
    ``impl::grad_accumulator`` does: one per leaf while a graph uses it.
    """

    __slots__ = ("_variable",)
    variable = ReadOnly(operator.attrgetter("_variable"), doc="The leaf whose ``.grad`` this node accumulates into.")

    def __init__(self, variable: Value) -> None:
        super().__init__()
        self._variable = variable
        self.sequence_nr = ACCUMULATE_PRIORITY
        if variable._hooks or variable._post_accumulate_hooks:  # the leaf's hooks run in it: the engine's long branch
            self.hooked = True

    def name(self) -> str:
        return "torch::autograd::AccumulateGrad"
