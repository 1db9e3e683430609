"""Shared graphs for the diagram tests: the documents' y = (x + w) * (w + 1), w = 1, x = 2."""

from __future__ import annotations

from typing import Callable

import pytest

from micrograph import Value
from micrograph.viz.render import find_renderer


def documents_graph() -> dict[str, Value]:
    w = Value(1.0, requires_grad=True)
    x = Value(2.0, requires_grad=True)
    a = x + w
    b = w + 1
    y = a * b
    return {"w": w, "x": x, "a": a, "b": b, "y": y}


@pytest.fixture
def doc() -> Callable[[], dict[str, Value]]:
    """A builder: each call makes a fresh graph, so a test can backward it as it likes."""
    return documents_graph


@pytest.fixture
def renderer() -> str:
    found = find_renderer()
    if found is None:
        pytest.skip("no renderer: pip install graphviz-pure (a dependency of micrograph) or Graphviz")
    return found
