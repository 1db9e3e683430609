"""nn.Linear and MLP: the documents' example and gradient parity with torch on torch's own weights."""

from __future__ import annotations

import math
from typing import Any

import pytest
from nn_expected import assert_close, build, copy_weights, flat, grads, load, numbers

import micrograph as mg
from micrograph import nn

LINEAR = load("linear")
MODULES = load("modules")


def _inputs(rows: Any, requires_grad: bool) -> Any:
    if isinstance(rows, list):
        return [_inputs(r, requires_grad) for r in rows]
    return mg.Value(rows, requires_grad=True) if requires_grad else rows


@pytest.mark.parametrize("example", ["documents", "one_row"])
def test_documents_example(example: str) -> None:
    """net = nn.Linear(3, 4); loss = sum(net(input)); a second backward fails; retain_graph doubles grads."""
    rec = LINEAR[example]
    net = nn.Linear(3, 4)
    copy_weights(net, rec["layers"])
    inp = _inputs(rec["input"], rec["input_requires_grad"])
    loss = mg.sum(flat(net(inp)))
    assert_close(loss.item(), rec["loss"], "loss")
    loss.backward()
    first = grads(net)
    assert_close(first, rec["grads"], "grads")
    if rec["input_requires_grad"]:
        assert_close(numbers([[x.grad for x in row] for row in inp]), rec["input_grad"], "input grad")

    with pytest.raises(RuntimeError) as err:
        loss.backward()
    assert f"RuntimeError: {err.value}" == rec["second_backward"]
    # one AddmmBackward0 node, as torch's: it fails before any leaf is written, also with one row
    assert_close(grads(net), rec["grads_after_failed_second"], "grads after the failed second backward")

    net.zero_grad()
    loss = mg.sum(flat(net(inp)))
    loss.backward(retain_graph=True)
    loss.backward()
    assert_close(grads(net), rec["grads_after_retained_second"], "grads after retain_graph")
    assert grads(net) == _twice(first)  # exactly: g + g
    net.zero_grad()
    assert net.weight[0][0].grad is None and rec["grad_after_zero_grad"] is None


@pytest.mark.parametrize("case", LINEAR["cases"], ids=lambda c: c["name"])
def test_gradients_match_torch(case: dict[str, Any]) -> None:
    model = build(case["sizes"], case["activation"], case.get("bias", True))
    copy_weights(model, case["layers"])
    inp = _inputs(case["input"], True)
    out = model(inp)
    assert_close(numbers(out), case["output"], "output")
    loss = mg.sum(flat(out)) if case["target"] is None else nn.mse_loss(out, case["target"])
    assert_close(loss.item(), case["loss_value"], "loss")
    loss.backward()
    assert_close(grads(model), case["grads"], "parameter grads")
    assert_close(numbers(_grads_of(inp)), case["input_grad"], "input grads")


def _twice(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _twice(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_twice(item) for item in x]
    return 2 * x


def _grads_of(x: Any) -> Any:
    return [_grads_of(item) for item in x] if isinstance(x, list) else x.grad


def test_one_node_for_the_whole_output() -> None:
    """Every entry's grad_fn is one AddmmBackward0 (output r * out + j); its edges: the biases, the
    input row by row (None for a number), the weights row by row, as torch's (bias, input, weight)."""
    lin = nn.Linear(2, 3)
    x = mg.Value(0.5, requires_grad=True)
    out = lin([[x, 2.0], [1.0, x]])
    node = out[0][0].grad_fn
    assert node.name() == "AddmmBackward0" and all(v.grad_fn is node for row in out for v in row)
    assert [v.output_nr for row in out for v in row] == [0, 1, 2, 3, 4, 5]
    edges = [n for n, _ in node.next_functions]
    assert [n.variable for n in edges[:3]] == lin.bias
    assert edges[3].variable is x and edges[4] is None and edges[5] is None and edges[6].variable is x
    assert [n.variable for n in edges[7:]] == [p for row in lin.weight for p in row]
    y = nn.Linear(2, 1, bias=False)(out[1][1:])
    assert y[0].grad_fn.name() == "MmBackward0"
    assert [nr for _, nr in y[0].grad_fn.next_functions[:2]] == [4, 5]  # outputs of the first layer's node


def test_a_failed_second_backward_writes_nothing() -> None:
    """A single row: torch's single node fails before any leaf is written (program 104 compares with torch)."""
    lin = nn.Linear(3, 2)
    loss = mg.sum(lin([1.0, -2.0, 0.5]))
    loss.backward()
    first = grads(lin)
    with pytest.raises(RuntimeError, match="second time"):
        loss.backward()
    assert grads(lin) == first


def test_no_bias() -> None:
    lin = nn.Linear(2, 1, bias=False)
    assert lin.bias is None and len(list(lin.parameters())) == 2
    (y,) = lin([1.0, 2.0])
    assert y.grad_fn.name() == "MmBackward0"  # torch: addmm without its bias is a matrix product
    assert y.item() == lin.weight[0][0].item() + 2.0 * lin.weight[0][1].item()


def test_one_row_gives_one_row_and_a_batch_gives_rows() -> None:
    lin = nn.Linear(3, 2)
    row = lin([1.0, 2.0, 3.0])
    batch = lin([[1.0, 2.0, 3.0], (1.0, 2.0, 3.0)])
    assert len(row) == 2 and all(isinstance(v, mg.Value) for v in row)
    assert len(batch) == 2 and all(len(r) == 2 for r in batch)
    assert numbers(batch[0]) == numbers(row) == numbers(batch[1])


@pytest.mark.parametrize("shape", list(MODULES["linear_shape_errors"]))
def test_shape_errors_are_torchs(shape: str) -> None:
    dims = [int(d) for d in shape.strip("[]").split(",") if d.strip()]
    x: Any = [1.0] * dims[0] if len(dims) == 1 else [[1.0] * dims[1] for _ in range(dims[0])]
    with pytest.raises(RuntimeError) as err:
        nn.Linear(3, 4)(x)
    assert f"RuntimeError: {err.value}" == MODULES["linear_shape_errors"][shape]


@pytest.mark.parametrize("bad", [mg.Value(1.0), 3.0, "abc"])
def test_input_that_is_not_a_list(bad: Any) -> None:
    with pytest.raises(TypeError, match="Linear takes a row"):
        nn.Linear(1, 1)(bad)


def test_an_entry_that_is_not_a_number() -> None:
    with pytest.raises(TypeError, match="a row holds numbers or Values, got a str"):
        nn.Linear(2, 1)([1.0, "abc"])


@pytest.mark.parametrize("args", [(0, 3), (3, -1), (2.0, 3), (True, 2)])
def test_bad_sizes(args: tuple[Any, Any]) -> None:
    with pytest.raises(ValueError, match="must be a positive int"):
        nn.Linear(*args)


def test_parameters_are_leaves_that_require_grad() -> None:
    for p in nn.MLP([2, 3, 1]).parameters():
        assert isinstance(p, nn.Parameter) and p.is_leaf and p.requires_grad and p.grad is None


def test_initialisation_is_uniform_within_torchs_bound_and_seeded() -> None:
    mg.manual_seed(7)
    a = nn.Linear(9, 20)
    mg.manual_seed(7)
    b = nn.Linear(9, 20)
    c = nn.Linear(9, 20)  # the generator moved on
    values = numbers(list(a.parameters()))
    assert values == numbers(list(b.parameters())) != numbers(list(c.parameters()))
    bound = 1 / math.sqrt(9)
    assert all(-bound <= v <= bound for v in values)
    assert min(values) < -bound / 2 and max(values) > bound / 2  # spread over the range, not stuck near 0
    assert mg.initial_seed() == 7


def test_manual_seed_takes_an_int() -> None:
    with pytest.raises(TypeError, match="manual_seed"):
        mg.manual_seed(1.5)  # type: ignore[arg-type]
