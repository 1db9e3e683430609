"""Record what PyTorch does for the nn / optim / Function / gradcheck tests into ``expected/``.

Run with the torch venv (torch is imported here and nowhere in the tests)::

    ~/.venvs/torch-ref/bin/python tests/nn/record.py [linear sgd training modules function gradcheck]

Everything is float64.  torch's generator draws the weights of the parity
cases; they are stored so the tests can copy them into micrograph's modules.
Only ``training`` imports micrograph, for its seeded initial weights (the
starting point of the run torch then records), since micrograph's generator
is its own.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Callable

import torch
from torch import nn

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from nn_programs import PROGRAMS, Lib  # noqa: E402

torch.set_default_dtype(torch.float64)
ACTIVATIONS = {"Tanh": nn.Tanh, "ReLU": nn.ReLU, "Sigmoid": nn.Sigmoid}


def build(sizes: list[int], activation: str | None, bias: bool = True) -> nn.Sequential:
    """torch's counterpart of ``micrograph.nn.MLP(sizes, activation, bias)``."""
    layers: list[nn.Module] = []
    for n_in, n_out in zip(sizes, sizes[1:]):
        if layers:
            layers.append(ACTIVATIONS[activation]())  # type: ignore[index]
        layers.append(nn.Linear(n_in, n_out, bias=bias))
    return nn.Sequential(*layers)


def linears(model: nn.Module) -> list[nn.Linear]:
    return [m for m in model.modules() if isinstance(m, nn.Linear)]


def weights(model: nn.Module) -> list[dict[str, Any]]:
    return [{"weight": m.weight.tolist(), "bias": None if m.bias is None else m.bias.tolist()} for m in linears(model)]


def grads(model: nn.Module) -> list[dict[str, Any]]:
    return [{"weight": m.weight.grad.tolist(), "bias": None if m.bias is None else m.bias.grad.tolist()}
            for m in linears(model)]


def load_weights(model: nn.Module, layers: list[dict[str, Any]]) -> None:
    with torch.no_grad():
        for m, layer in zip(linears(model), layers):
            m.weight.copy_(torch.tensor(layer["weight"]))
            if layer["bias"] is not None:
                m.bias.copy_(torch.tensor(layer["bias"]))


def error(fn: Callable[[], Any]) -> str:
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the error is what is recorded
        return f"{type(e).__name__}: {e}"
    raise AssertionError("expected an error")


# -- linear: the documents' example and gradient parity -------------------------------------
def documents_example(inp: torch.Tensor, seed: int) -> dict[str, Any]:
    """net = nn.Linear(3, 4); loss = sum(net(input)); backward twice, then with retain_graph."""
    torch.manual_seed(seed)
    net = nn.Linear(3, 4)
    record: dict[str, Any] = {"layers": weights(net), "input": inp.tolist(), "input_requires_grad": inp.requires_grad}
    loss = net(inp).sum()
    record["loss"] = loss.item()
    loss.backward()
    record["grads"] = grads(net)
    record["input_grad"] = inp.grad.tolist() if inp.requires_grad else None
    record["second_backward"] = error(loss.backward)
    record["grads_after_failed_second"] = grads(net)
    net.zero_grad()
    loss = net(inp).sum()
    loss.backward(retain_graph=True)
    loss.backward()
    record["grads_after_retained_second"] = grads(net)
    net.zero_grad()
    record["grad_after_zero_grad"] = net.weight.grad
    return record


PARITY_CASES: list[dict[str, Any]] = [
    {"name": "linear 3-4, sum loss", "sizes": [3, 4], "activation": None, "rows": 2, "loss": "sum"},
    {"name": "mlp tanh 3-5-4-2, mse", "sizes": [3, 5, 4, 2], "activation": "Tanh", "rows": 4, "loss": "mse"},
    {"name": "mlp relu 2-6-1, mse", "sizes": [2, 6, 1], "activation": "ReLU", "rows": 5, "loss": "mse"},
    {"name": "mlp sigmoid 2-4-3 no bias", "sizes": [2, 4, 3], "activation": "Sigmoid", "bias": False, "rows": 3,
     "loss": "mse"},
    {"name": "one row (1-D input)", "sizes": [3, 2], "activation": "Tanh", "rows": None, "loss": "mse"},
]


def parity_case(seed: int, case: dict[str, Any]) -> dict[str, Any]:
    torch.manual_seed(seed)
    model = build(case["sizes"], case["activation"], case.get("bias", True))
    shape = (case["rows"], case["sizes"][0]) if case["rows"] else (case["sizes"][0],)
    inp = torch.randn(*shape, requires_grad=True)
    out = model(inp)
    target = torch.randn(*out.shape) if case["loss"] == "mse" else None
    loss = out.sum() if target is None else nn.functional.mse_loss(out, target)
    loss.backward()
    return {**case, "layers": weights(model), "input": inp.tolist(),
            "target": None if target is None else target.tolist(), "output": out.tolist(),
            "loss_value": loss.item(), "grads": grads(model), "input_grad": inp.grad.tolist()}


def record_linear() -> dict[str, Any]:
    torch.manual_seed(0)
    documents_input = torch.randn(2, 3, requires_grad=True)
    return {
        "documents": documents_example(documents_input, seed=1),
        "one_row": documents_example(torch.tensor([[1.0, 2.0, 3.0]]), seed=0),
        "cases": [parity_case(seed, case) for seed, case in enumerate(PARITY_CASES, start=10)],
    }


# -- sgd ----------------------------------------------------------------------------------------
SGD_OPTIONS: list[dict[str, Any]] = [
    {"lr": 0.1},
    {"lr": 0.1, "momentum": 0.9},
    {"lr": 0.05, "momentum": 0.9, "dampening": 0.5},
    {"lr": 0.1, "momentum": 0.9, "nesterov": True},
    {"lr": 0.1, "momentum": 0.5, "weight_decay": 0.01},
    {"lr": 0.05, "momentum": 0.5, "weight_decay": 0.01, "maximize": True},  # ascent: the sign flips before decay
    {"lr": 0.1, "momentum": 0.0, "dampening": 0.0, "weight_decay": 0.0, "nesterov": False, "maximize": False,
     "foreach": None, "differentiable": False, "fused": None},  # every default written out
]
SGD_STEPS = 5


def record_sgd() -> dict[str, Any]:
    torch.manual_seed(3)
    sizes, activation = [2, 3, 1], "Tanh"
    initial = weights(build(sizes, activation))
    x, y = torch.randn(4, 2), torch.randn(4, 1)
    runs = []
    for options in SGD_OPTIONS:
        model = build(sizes, activation)
        load_weights(model, initial)
        version_before = linears(model)[0].weight._version
        opt = torch.optim.SGD(model.parameters(), **options)
        steps = []
        for _ in range(SGD_STEPS):
            opt.zero_grad()
            loss = nn.functional.mse_loss(model(x), y)
            loss.backward()
            opt.step()
            steps.append({"loss": loss.item(), "layers": weights(model)})
        runs.append({"options": options, "steps": steps, "version_bumps": linears(model)[0].weight._version - version_before})
    return {"sizes": sizes, "activation": activation, "layers": initial, "x": x.tolist(), "y": y.tolist(),
            "runs": runs, "errors": sgd_errors()}


def sgd_errors() -> dict[str, str]:
    """What torch.optim.SGD says about bad arguments, keyed by a description of them."""
    w = torch.tensor(1.0, requires_grad=True)
    cases: dict[str, Callable[[], Any]] = {
        "lr=-1": lambda: torch.optim.SGD([w], lr=-1),
        "momentum=-1": lambda: torch.optim.SGD([w], lr=0.1, momentum=-1),
        "weight_decay=-1": lambda: torch.optim.SGD([w], lr=0.1, weight_decay=-1),
        "nesterov without momentum": lambda: torch.optim.SGD([w], lr=0.1, nesterov=True),
        "nesterov with dampening": lambda: torch.optim.SGD([w], lr=0.1, momentum=0.9, dampening=0.1, nesterov=True),
        "no parameters": lambda: torch.optim.SGD([], lr=0.1),
        "a number among the parameters": lambda: torch.optim.SGD([1.0], lr=0.1),
        "a non-leaf": lambda: torch.optim.SGD([w * 2], lr=0.1),
        "one Value, not a list": lambda: torch.optim.SGD(w, lr=0.1),
    }
    return {name: error(fn) for name, fn in cases.items()}


# -- training: micrograph's seeded MLP, trained by torch from the same start ------------------------
TRAINING = {"seed": 0, "sizes": [2, 8, 1], "activation": "Tanh", "lr": 0.1, "momentum": 0.9, "steps": 60,
            "x": [[-1.0, -1.0], [-1.0, 1.0], [1.0, -1.0], [1.0, 1.0], [0.0, 0.5], [0.5, 0.0]],
            "y": [[-0.8], [0.8], [0.8], [-0.8], [0.0], [0.0]]}


def record_training() -> dict[str, Any]:
    sys.path.insert(0, str(HERE.parent.parent))
    import micrograph

    micrograph.manual_seed(TRAINING["seed"])
    mg_model = micrograph.nn.MLP(TRAINING["sizes"], getattr(micrograph.nn, TRAINING["activation"]))
    initial = [{"weight": [[w.item() for w in row] for row in m.weight], "bias": [b.item() for b in m.bias]}
               for m in mg_model.children() if isinstance(m, micrograph.nn.Linear)]
    model = build(TRAINING["sizes"], TRAINING["activation"])
    load_weights(model, initial)
    x, y = torch.tensor(TRAINING["x"]), torch.tensor(TRAINING["y"])
    opt = torch.optim.SGD(model.parameters(), lr=TRAINING["lr"], momentum=TRAINING["momentum"])
    losses = []
    for _ in range(TRAINING["steps"]):
        opt.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    final = nn.functional.mse_loss(model(x), y).item()
    return {**TRAINING, "initial_layers": initial, "losses": losses, "final_loss": final}


# -- modules: repr and parameter order ----------------------------------------------------------
def record_modules() -> dict[str, Any]:
    examples = {
        "Linear(3, 4)": nn.Linear(3, 4),
        "Linear(3, 4, bias=False)": nn.Linear(3, 4, bias=False),
        "Sequential(Linear(2, 3), Tanh(), Linear(3, 1))": nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Linear(3, 1)),
        "Sequential(Linear(2, 2), ReLU(), Sequential(Sigmoid(), Linear(2, 1)))": nn.Sequential(
            nn.Linear(2, 2), nn.ReLU(), nn.Sequential(nn.Sigmoid(), nn.Linear(2, 1))),
    }
    lin = nn.Linear(3, 4)
    errors = {str(list(shape)): error(lambda: lin(torch.ones(*shape))) for shape in [(5,), (2, 5), (0,)]}
    return {"examples": {source: {"repr": repr(m), "parameters": [[name, list(p.shape)] for name, p in m.named_parameters()]}
                         for source, m in examples.items()},
            "linear_shape_errors": errors}


def record_program(name: str) -> Callable[[], list[tuple[str, Any]]]:
    return lambda: PROGRAMS[name](Lib("torch"))


RECORDERS: dict[str, Callable[[], Any]] = {
    "linear": record_linear,
    "sgd": record_sgd,
    "training": record_training,
    "modules": record_modules,
    **{name: record_program(name) for name in PROGRAMS},
}


def main(argv: list[str]) -> int:
    names = argv or list(RECORDERS)
    unknown = [n for n in names if n not in RECORDERS]
    if unknown:
        print(f"record.py: no such recording: {', '.join(unknown)} (have {', '.join(RECORDERS)})", file=sys.stderr)
        return 2
    (HERE / "expected").mkdir(exist_ok=True)
    for name in names:
        data = RECORDERS[name]()
        if isinstance(data, list):  # a program's observations: one per line, easy to read and diff
            text = "[\n" + ",\n".join(" " + json.dumps(item) for item in data) + "\n]\n"
        else:
            text = json.dumps(data, indent=1) + "\n"
        (HERE / "expected" / f"{name}.json").write_text(text)
        print(f"{name}: recorded")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
