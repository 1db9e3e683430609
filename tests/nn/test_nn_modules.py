"""Module, Parameter, activations, Sequential, MLP and mse_loss."""

from __future__ import annotations

import math
import sys
from typing import Any

import pytest
from nn_expected import load, numbers

import micrograph as mg
from micrograph import nn

EXAMPLES = load("modules")["examples"]

# The same modules as record.py's examples, built with micrograph.
BUILT = {
    "Linear(3, 4)": lambda: nn.Linear(3, 4),
    "Linear(3, 4, bias=False)": lambda: nn.Linear(3, 4, bias=False),
    "Sequential(Linear(2, 3), Tanh(), Linear(3, 1))": lambda: nn.Sequential(nn.Linear(2, 3), nn.Tanh(),
                                                                            nn.Linear(3, 1)),
    "Sequential(Linear(2, 2), ReLU(), Sequential(Sigmoid(), Linear(2, 1)))": lambda: nn.Sequential(
        nn.Linear(2, 2), nn.ReLU(), nn.Sequential(nn.Sigmoid(), nn.Linear(2, 1))),
}


@pytest.mark.parametrize("source", list(EXAMPLES))
def test_repr_is_torchs(source: str) -> None:
    assert repr(BUILT[source]()) == EXAMPLES[source]["repr"]


@pytest.mark.parametrize("source", list(EXAMPLES))
def test_parameters_in_torchs_order(source: str) -> None:
    """torch's named parameters, in order, each flattened row by row, are micrograph's parameters."""
    module = BUILT[source]()
    expected: list[Any] = []
    for name, shape in EXAMPLES[source]["parameters"]:
        tensor: Any = module
        for part in name.split("."):
            tensor = getattr(tensor, part)
        flat = [p for row in tensor for p in row] if len(shape) == 2 else list(tensor)
        assert len(flat) == math.prod(shape)
        expected += flat
    assert [id(p) for p in module.parameters()] == [id(p) for p in expected]


class Affine(nn.Module):
    """A user's own module: a Parameter, a plain list of them (not registered, as in torch), a child module
    and a shared Parameter."""

    def __init__(self) -> None:
        super().__init__()
        self.head = nn.Linear(1, 1)
        self.scale = nn.Parameter(mg.Value(2.0))
        self.offsets = [nn.Parameter(mg.Value(0.5)), nn.Parameter(mg.Value(-0.5))]
        self.tied = self.scale  # the same Parameter twice: listed once
        self.note = mg.Value(3.0, requires_grad=True)  # not a Parameter: not listed

    def forward(self, x: Any) -> mg.Value:
        return self.head([x])[0] * self.scale + self.offsets[0] + self.offsets[1]


def test_own_parameters_before_the_childrens_each_once() -> None:
    m = Affine()
    assert [id(p) for p in m.parameters()] == [id(p) for p in [m.scale, m.head.weight[0][0], m.head.bias[0]]]
    assert [id(p) for p in m.parameters(recurse=False)] == [id(m.scale)]
    assert list(m.children()) == [m.head]
    assert list(m.modules()) == [m, m.head]


def test_a_graph_node_kept_on_a_module_is_not_searched_for_parameters() -> None:
    """parameters() does not walk a graph kept as an attribute (a 5,000-op chain: a recursive walk
    through it would overflow the stack, a diamond chain take exponential time)."""

    class Logged(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.layer = nn.Linear(2, 1)
            self.last: Any = None

    model = Logged()
    y = mg.Value(1.0, requires_grad=True)
    for _ in range(2 * sys.getrecursionlimit()):  # a walk into the graph would stop at the limit
        y = y * 1.0
    model.last = y.grad_fn
    assert [id(p) for p in model.parameters()] == [id(model.layer.weight[0][0]), id(model.layer.weight[0][1]),
                                                    id(model.layer.bias[0])]
    model.last = [y.grad_fn]
    assert len(list(model.parameters())) == 3


def test_zero_grad_drops_grads_or_zeroes_them_in_place() -> None:
    m = Affine()
    m(1.5).backward()
    assert all(p.grad is not None for p in m.parameters())
    grad = m.scale.grad
    m.zero_grad(set_to_none=False)
    assert m.scale.grad is grad and grad.item() == 0.0  # the same object, zeroed, as torch
    m.zero_grad()
    assert all(p.grad is None for p in m.parameters())


def test_a_module_without_forward() -> None:
    with pytest.raises(NotImplementedError, match=r'Module \[Module\] is missing the required "forward" function'):
        nn.Module()(1.0)


def test_parameter() -> None:
    p = nn.Parameter(mg.Value(0.25))
    assert p.is_leaf and p.requires_grad and repr(p) == "Parameter(0.2500, requires_grad=True)"
    v = mg.Value(1.0)
    shared = nn.Parameter(v)
    v.data.fill_(4.0)
    assert shared.item() == 4.0  # shares v's number, as torch's Parameter(t) does
    assert not nn.Parameter(mg.Value(1.0), requires_grad=False).requires_grad
    with pytest.raises(AttributeError, match="^'float' object has no attribute 'detach'$"):
        nn.Parameter(1.0)  # torch detaches what it is given


def test_a_linear_lists_its_entries_even_when_rows_are_assigned_again() -> None:
    layer = nn.Linear(2, 1)
    layer.weight = [[nn.Parameter(mg.Value(x)) for x in (0.5, -0.5)]]
    assert [p.item() for p in layer.parameters()] == [0.5, -0.5, layer.bias[0].item()]


@pytest.mark.parametrize("cls,method,node", [(nn.Tanh, "tanh", "TanhBackward0"), (nn.ReLU, "relu", "ReluBackward0"),
                                             (nn.Sigmoid, "sigmoid", "SigmoidBackward0")])
def test_activations_apply_to_values_rows_and_batches(cls: type[nn.Module], method: str, node: str) -> None:
    act = cls()
    x = mg.Value(-0.3, requires_grad=True)
    assert act(x).grad_fn.name() == node
    assert act(x).item() == getattr(x, method)().item()
    expected = [getattr(mg.Value(v), method)().item() for v in (0.5, -2.0)]
    assert numbers(act([0.5, -2.0])) == expected
    assert numbers(act([[0.5], [-2.0]])) == [[e] for e in expected]
    assert list(act.parameters()) == []


def test_sequential_indexing() -> None:
    first, act, last = nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1)
    seq = nn.Sequential(first, act, last)
    assert len(seq) == 3 and seq[0] is first and seq[-1] is last and list(seq) == [first, act, last]
    assert numbers(seq([1.0, 2.0])) == numbers(last(act(first([1.0, 2.0]))))


def test_sequential_may_reuse_a_module() -> None:
    act = nn.Tanh()
    seq = nn.Sequential(act, act)
    assert len(seq) == 2 and seq(mg.Value(1.0)).item() == math.tanh(math.tanh(1.0))


def test_sequential_takes_modules_only() -> None:
    with pytest.raises(TypeError, match="int is not a Module subclass"):
        nn.Sequential(nn.Tanh(), 3)  # type: ignore[arg-type]


def test_mlp_layout() -> None:
    mlp = nn.MLP([3, 4, 4, 2], nn.ReLU)
    assert [type(m).__name__ for m in mlp] == ["Linear", "ReLU", "Linear", "ReLU", "Linear"]
    assert [(m.in_features, m.out_features) for m in mlp if isinstance(m, nn.Linear)] == [(3, 4), (4, 4), (4, 2)]
    assert len(list(mlp.parameters())) == 3 * 4 + 4 + 4 * 4 + 4 + 4 * 2 + 2
    assert len(nn.MLP([2, 1])) == 1
    shared = nn.Sigmoid()
    assert nn.MLP([2, 2, 2, 1], shared)[1] is shared
    with pytest.raises(ValueError, match="at least two sizes"):
        nn.MLP([3])


def test_mse_loss() -> None:
    p = [[mg.Value(1.0, requires_grad=True)], [mg.Value(2.0, requires_grad=True)]]
    loss = nn.mse_loss(p, [[0.0], [4.0]])
    assert loss.item() == (1.0 + 4.0) / 2 and loss.grad_fn.name() == "MeanBackward0"
    loss.backward()
    assert (p[0][0].grad.item(), p[1][0].grad.item()) == (1.0, -2.0)
    assert nn.MSELoss()(mg.Value(3.0), mg.Value(1.0)).item() == 4.0


def test_mse_loss_does_not_broadcast() -> None:
    with pytest.raises(ValueError, match=r"input has shape \[2, 1\] but target has shape \[2\]"):
        nn.mse_loss([[1.0], [2.0]], [1.0, 2.0])
    with pytest.raises(ValueError, match="rows of different lengths"):
        nn.mse_loss([[1.0], [2.0, 3.0]], [[1.0], [2.0, 3.0]])
