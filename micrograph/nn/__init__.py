"""Network building blocks on scalar Values, named and behaving as ``torch.nn``'s.

A torch weight of shape ``[out, in]`` is here ``out`` rows of ``in`` Parameters, and a batch is a list of rows. A
``Linear`` call is one node, as in torch (``linear.py``). Activations and losses are the engine's ordinary ops. A
module's parameters are the ``Parameter``s among its attributes (a ``Linear``'s: its weight rows and bias), in the order
the attributes were assigned, its own before its children's (the ``Module``s among them), each once, as torch lists
them: a plain list of Parameters or Modules is not registered, as in torch. torch's rules on assigning them hold.
"""

from __future__ import annotations

import math
from typing import Any, Callable, Iterator, Sequence

from micrograph import linear
from micrograph.nn import functional
from micrograph.nn.functional import Nested, mse_loss
from micrograph.optim import zero_grads
from micrograph.seeding import uniform
from micrograph.value import Value


class Parameter(Value):
    """A leaf that requires grad, reported by ``parameters()``: a subclass, as torch's, so that a Module
    can tell its weights from other Values it holds.  ``Parameter(v)`` shares ``v``'s number, as torch's; torch
    detaches what it is given, so a number is refused as torch refuses it."""

    __slots__ = ()

    def __new__(cls, data: Any, requires_grad: bool = True) -> Parameter:
        if not isinstance(data, Value):
            raise AttributeError(f"'{type(data).__name__}' object has no attribute 'detach'")
        return cls.alias(data)

    def __init__(self, data: Value, requires_grad: bool = True) -> None:
        self.requires_grad_(requires_grad)

    def __repr__(self) -> str:
        return "Parameter" + super().__repr__()[len("Value"):]

    def __deepcopy__(self, memo: dict[int, Any]) -> Parameter:
        """torch's ``Parameter.__deepcopy__``: a new Parameter of the same number and requires_grad, without the
        ``.grad`` a Value's deepcopy copies; so a module whose gradients hold a graph (``create_graph=True``) copies,
        as torch's does, where copying such a ``.grad`` raises."""
        copied = type(self).shared([self.item()], None).requires_grad_(self.requires_grad)
        memo[id(self)] = copied
        return copied


class Module:
    """Base class of layers and models, as ``torch.nn.Module``."""

    def __init__(self) -> None:  # training: train() / eval(); no layer here reads it, a student's own may
        object.__setattr__(self, "training", True)  # as torch's, set here: its presence says __init__ ran

    def __setattr__(self, name: str, value: Any) -> None:
        """torch's rules: no Parameter or Module before ``Module.__init__()``; a Parameter's (a child's) name takes a
        Parameter (a Module) or None: ``m.a = m.a - lr * m.a.grad`` is refused."""
        if isinstance(value, (Parameter, Module)) and "training" not in self.__dict__:
            raise AttributeError(f"cannot assign {'parameters' if isinstance(value, Parameter) else 'module'} "
                                 "before Module.__init__() call")
        for kind, what in ((Parameter, "parameter"), (Module, "child module")):
            if isinstance(self.__dict__.get(name), kind) and not isinstance(value, (Parameter, kind, type(None))):
                got = "torch.DoubleTensor" if isinstance(value, Value) else type(value).__name__
                raise TypeError(f"cannot assign '{got}' as {what} '{name}' (torch.nn.{kind.__name__} or None expected)")
        object.__setattr__(self, name, value)

    def train(self, mode: bool = True) -> Module:
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for module in self.modules():
            module.training = mode
        return self

    def eval(self) -> Module:
        return self.train(False)

    def forward(self, *args: Any) -> Any:
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.forward(*args, **kwargs)

    def named_children(self) -> Iterator[tuple[str, Module]]:
        return ((name, attr) for name, attr in vars(self).items() if isinstance(attr, Module))

    def children(self) -> Iterator[Module]:
        return (child for _, child in self.named_children())

    def named_modules(self, prefix: str = "") -> Iterator[tuple[str, Module]]:
        """This module, then every module below it, depth first, each once, named by its path (``""``, ``"0"``)."""
        seen: set[int] = set()
        stack: list[tuple[str, Module]] = [(prefix, self)]
        while stack:
            path, module = stack.pop()
            if id(module) not in seen:
                seen.add(id(module))
                yield path, module
                stack.extend(reversed([(f"{path}.{n}" if path else n, c) for n, c in module.named_children()]))

    def modules(self) -> Iterator[Module]:
        return (module for _, module in self.named_modules())

    def own_parameters(self) -> Iterator[tuple[tuple[Any, ...], Parameter]]:
        """The Parameters this module registers itself (torch's ``_parameters``), each with its name's parts: its
        attributes that are one.  The parts are joined only when asked (``named_parameters``): ``parameters()``,
        which every ``zero_grad()`` walks, never formats a name."""
        return (((name,), attr) for name, attr in vars(self).items() if isinstance(attr, Parameter))

    def named_parameters(self, prefix: str = "", recurse: bool = True) -> Iterator[tuple[str, Parameter]]:
        """``(path, parameter)`` pairs, each parameter once, in the order first met (a generator, as torch's)."""
        first: dict[int, tuple[str, Parameter]] = {}
        for path, module in self.named_modules(prefix) if recurse else [(prefix, self)]:
            for parts, p in module.own_parameters():
                first.setdefault(id(p), (".".join(filter(None, (path, *map(str, parts)))), p))
        yield from first.values()

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        found = (p for m in (self.modules() if recurse else [self]) for _, p in m.own_parameters())
        yield from {id(p): p for p in found}.values()  # each once, in the order first met; a generator, as torch's

    def requires_grad_(self, requires_grad: bool = True) -> Module:  # the notes' way to freeze a whole layer
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Drop (or zero) every parameter's gradient; see ``optim.zero_grads``."""
        zero_grads(self.parameters(), set_to_none)

    def extra_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        lines = [f"({name}): " + repr(child).replace("\n", "\n  ") for name, child in self.named_children()]
        extra = self.extra_repr()
        if not lines:
            return f"{type(self).__name__}({extra})"
        return f"{type(self).__name__}(\n  " + "\n  ".join(([extra] if extra else []) + lines) + "\n)"


class Linear(Module):
    """``y = x Wᵀ + b`` per row ``x`` (torch's ``nn.Linear``): ``weight`` is ``out_features`` rows of
    ``in_features`` Parameters, ``bias`` ``out_features`` Parameters (or None), drawn from ±1/sqrt(in_features)
    (torch's bound), weight row by row first, from micrograph's generator (``manual_seed``)."""

    def __init__(self, in_features: int, out_features: int, bias: bool = True) -> None:
        for name, n in (("in_features", in_features), ("out_features", out_features)):
            if isinstance(n, bool) or not isinstance(n, int) or n < 1:
                raise ValueError(f"Linear: {name} must be a positive int, got {n!r}")
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        bound = 1.0 / math.sqrt(in_features)
        self.weight = [[Parameter(Value(uniform(-bound, bound))) for _ in range(in_features)] for _ in range(out_features)]
        self.bias = [Parameter(Value(uniform(-bound, bound))) for _ in range(out_features)] if bias else None

    def own_parameters(self) -> Iterator[tuple[tuple[Any, ...], Parameter]]:  # torch's weight and bias: entries
        yield from ((("weight", i, j), p) for i, row in enumerate(self.weight) for j, p in enumerate(row)
                    if isinstance(p, Parameter))
        yield from ((("bias", i), p) for i, p in enumerate(self.bias or []) if isinstance(p, Parameter))
        yield from super().own_parameters()

    def forward(self, x: Sequence[Any]) -> list[Any]:
        """A batch (a list of rows) gives a list of rows; one row gives one row, as torch does for 1-D input."""
        if not isinstance(x, (list, tuple)):
            raise TypeError(f"Linear takes a row (a list of numbers or Values) or a batch (a list of rows), "
                            f"got {type(x).__name__}")
        single = not x or not isinstance(x[0], (list, tuple))
        rows = [x] if single else x
        for row in rows:
            if not isinstance(row, (list, tuple)):
                raise TypeError(f"Linear: a batch holds rows (lists), got a {type(row).__name__} among them")
            if len(row) != self.in_features:
                raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({len(rows)}x{len(row)} and "
                                   f"{self.in_features}x{self.out_features})")
        out = linear.forward(rows, self.weight, self.bias)
        return out[0] if single else out

    def extra_repr(self) -> str:
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class _Elementwise(Module):
    """An activation: one function applied to every entry of a Value, a row or a batch."""

    fn: Callable[[Any], Value]

    def forward(self, x: Nested) -> Nested:
        if isinstance(x, (list, tuple)):  # a row or a batch: its numbers are entries, as a tensor's
            return [self.forward(Value(item) if isinstance(item, (int, float)) else item) for item in x]
        return type(self).fn(x)  # a bare number is torch's TypeError: tanh(): argument 'input' ... must be Tensor


class Tanh(_Elementwise):
    fn = staticmethod(functional.tanh)


class ReLU(_Elementwise):
    fn = staticmethod(functional.relu)


class Sigmoid(_Elementwise):
    fn = staticmethod(functional.sigmoid)


class Sequential(Module):
    """Modules applied one after the other; ``seq[i]`` is the i-th, as in torch."""

    def __init__(self, *modules: Module) -> None:
        super().__init__()
        for i, module in enumerate(modules):
            if not isinstance(module, Module):
                raise TypeError(f"{type(module).__name__} is not a Module subclass")
            setattr(self, str(i), module)  # torch names them "0", "1", ...: so does the repr

    def forward(self, x: Any) -> Any:
        for module in self.children():
            x = module(x)
        return x

    def __getitem__(self, index: int) -> Module:
        return list(self.children())[index]

    def __len__(self) -> int:
        return len(list(self.children()))

    def __iter__(self) -> Iterator[Module]:
        return self.children()


class MLP(Sequential):
    """``Linear`` layers through ``sizes``, an activation (a Module class or instance) between each two:
    ``MLP([2, 8, 1])`` is ``Sequential(Linear(2, 8), Tanh(), Linear(8, 1))``."""

    def __init__(self, sizes: Sequence[int], activation: type[Module] | Module = Tanh, bias: bool = True) -> None:
        sizes = list(sizes)
        if len(sizes) < 2:
            raise ValueError(f"MLP needs at least two sizes (inputs and outputs), got {sizes}")
        layers: list[Module] = []
        for n_in, n_out in zip(sizes, sizes[1:]):
            if layers:
                layers.append(activation if isinstance(activation, Module) else activation())
            layers.append(Linear(n_in, n_out, bias))
        super().__init__(*layers)


class MSELoss(Module):
    """``mse_loss`` as a module: ``criterion = nn.MSELoss(); loss = criterion(pred, target)``."""

    def __init__(self, reduction: str = "mean") -> None:
        super().__init__()
        self.reduction = reduction

    def forward(self, input: Nested, target: Nested) -> Any:  # noqa: A002 - torch's name
        return mse_loss(input, target, self.reduction)
