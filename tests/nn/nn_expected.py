"""Loading what ``record.py`` recorded from torch, and comparing micrograph's numbers with it."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import micrograph as mg
from micrograph import nn

EXPECTED = Path(__file__).resolve().parent / "expected"

# torch's matrix kernels sum in their own order (and may fuse a multiply-add), so
# a layer's numbers can differ from micrograph's left-to-right sums in the last bits.
REL = 1e-12


def load(name: str) -> Any:
    return json.loads((EXPECTED / f"{name}.json").read_text())


def numbers(x: Any) -> Any:
    """Values (nested in lists) as floats; None stays None."""
    if isinstance(x, (list, tuple)):
        return [numbers(item) for item in x]
    return None if x is None else x.item() if isinstance(x, mg.Value) else float(x)


def assert_close(got: Any, expected: Any, where: str = "value", rel: float = REL) -> None:
    """Nested lists (and dicts) of floats equal up to ``rel`` (or ``1e-15`` absolutely, for values near 0)."""
    if isinstance(expected, dict):
        assert isinstance(got, dict) and got.keys() == expected.keys(), f"{where}: {got!r} != {expected!r}"
        for key in expected:
            assert_close(got[key], expected[key], f"{where}.{key}", rel)
    elif isinstance(expected, list):
        assert isinstance(got, list) and len(got) == len(expected), f"{where}: shape {got!r} != {expected!r}"
        for i, (g, e) in enumerate(zip(got, expected)):
            assert_close(g, e, f"{where}[{i}]", rel)
    elif expected is None:
        assert got is None, f"{where}: {got!r} != None"
    else:
        assert math.isclose(got, expected, rel_tol=rel, abs_tol=1e-15), f"{where}: {got!r} != {expected!r}"


def assert_observations(got: list[tuple[str, Any]], expected: list[list[Any]]) -> None:
    """A program's observations against torch's, key by key."""
    got = json.loads(json.dumps(got))  # tuples -> lists, as recorded
    assert [k for k, _ in got] == [k for k, _ in expected], "the program observed different things"
    for (key, g), (_, e) in zip(got, expected):
        if isinstance(e, float):
            assert_close(g, e, key)
        else:
            assert g == e, f"{key}:\n  micrograph: {g!r}\n  torch:      {e!r}"


def linears(model: nn.Module) -> list[nn.Linear]:
    return [m for m in model.modules() if isinstance(m, nn.Linear)]


def copy_weights(model: nn.Module, layers: list[dict[str, Any]]) -> None:
    """Load torch's weights into micrograph's layers, as ``weight.copy_`` under no_grad would."""
    with mg.no_grad():
        for m, layer in zip(linears(model), layers, strict=True):
            for row, numbers_row in zip(m.weight, layer["weight"], strict=True):
                for p, x in zip(row, numbers_row, strict=True):
                    p.fill_(x)
            for p, x in zip(m.bias or [], layer["bias"] or [], strict=True):
                p.fill_(x)


def grads(model: nn.Module) -> list[dict[str, Any]]:
    return [{"weight": [[p.grad.item() for p in row] for row in m.weight],
             "bias": None if m.bias is None else [p.grad.item() for p in m.bias]} for m in linears(model)]


def weights(model: nn.Module) -> list[dict[str, Any]]:
    return [{"weight": numbers(m.weight), "bias": None if m.bias is None else numbers(m.bias)}
            for m in linears(model)]


def flat(x: Any) -> list[Any]:
    return [leaf for item in x for leaf in flat(item)] if isinstance(x, list) else [x]


def build(sizes: list[int], activation: str | None, bias: bool = True) -> nn.Module:
    """micrograph's counterpart of record.py's torch model."""
    if activation is None:
        return nn.Sequential(nn.Linear(sizes[0], sizes[1], bias))
    return nn.MLP(sizes, getattr(nn, activation), bias)
