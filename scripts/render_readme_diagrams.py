"""Regenerate the diagrams the docs show (docs/images/*.png), with micrograph.viz.

Each picture is one moment in the documents' first example, y = (x + w) * (w + 1)
with w = 1, x = 2, or a small MLP, drawn exactly as the grader draws a
submission's graph (graph_json, then render_json).  Run after changing the
diagrams:

    python scripts/render_readme_diagrams.py            # writes docs/images/
    python scripts/render_readme_diagrams.py --out /tmp/pictures
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import Callable, NamedTuple

import micrograph as mg
from micrograph import Value
from micrograph.viz import graph_json, render_json

OUT = Path(__file__).resolve().parent.parent / "docs" / "images"


class Picture(NamedTuple):
    roots: tuple[Value, ...]
    names: dict[str, Value]
    show_saved: bool = False


def documents_graph() -> dict[str, Value]:
    """y = (x + w) * (w + 1), named as in the documents."""
    w = Value(1.0, requires_grad=True)
    x = Value(2.0, requires_grad=True)
    a = x + w
    b = w + 1
    y = a * b
    return {"w": w, "x": x, "a": a, "b": b, "y": y}


def forward() -> Picture:
    """Before backward: every grad is None."""
    g = documents_graph()
    return Picture((g["y"],), g)


def backward() -> Picture:
    """After y.backward(retain_graph=True): the leaves have grads, the non-leaves None."""
    g = documents_graph()
    g["y"].backward(retain_graph=True)
    return Picture((g["y"],), g)


def retain_grad() -> Picture:
    """a.retain_grad() before backward, as the documents do: a keeps its grad."""
    g = documents_graph()
    g["a"].retain_grad()
    g["y"].backward(retain_graph=True)
    return Picture((g["y"],), g)


def freed() -> Picture:
    """After a plain y.backward(): MulBackward0 freed what it saved; a second backward fails there."""
    g = documents_graph()
    g["y"].backward()
    return Picture((g["y"],), g)


def inplace() -> Picture:
    """b.add_(1) after y was built: MulBackward0's saved b is stale, so backward would fail."""
    g = documents_graph()
    g["b"].add_(1)
    return Picture((g["y"], g["b"]), g, show_saved=True)


def mlp() -> Picture:
    """A 2-3-3-1 tanh network and its squared error, after backward.

    retain_graph=True keeps what the ops saved, so the inputs x0 and x1 (saved by
    the products that use them) are still there to draw; after a plain backward
    they would show as anonymous constants on red, freed ops.
    """
    rng = random.Random(0)
    x = [Value(0.5), Value(-1.0)]
    names: dict[str, Value] = {"x0": x[0], "x1": x[1]}
    activations = x
    for layer, width in enumerate((3, 3, 1), start=1):
        outputs = []
        for j in range(width):
            weights = [Value(round(rng.uniform(-1, 1), 2), requires_grad=True) for _ in activations]
            bias = Value(round(rng.uniform(-1, 1), 2), requires_grad=True)
            names.update({f"w{layer}[{j},{i}]": w for i, w in enumerate(weights)})
            names[f"b{layer}[{j}]"] = bias
            pre = mg.sum([w * v for w, v in zip(weights, activations)]) + bias
            outputs.append(pre if layer == 3 else pre.tanh())
        activations = outputs
    loss = (activations[0] - 1.0) ** 2
    loss.backward(retain_graph=True)
    names["loss"] = loss
    return Picture((loss,), names)


PICTURES: dict[str, Callable[[], Picture]] = {
    "documents_forward": forward,
    "documents_backward": backward,
    "documents_retain_grad": retain_grad,
    "documents_freed": freed,
    "documents_inplace": inplace,
    "mlp": mlp,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help=f"folder for the pictures (default {OUT})")
    args = parser.parse_args(argv)
    missing = 0
    for stem, make in PICTURES.items():
        picture = make()
        graph = graph_json(*picture.roots, names=picture.names)
        paths = render_json(graph, args.out, stem, formats=("png",), show_saved=picture.show_saved)
        missing += not any(p.endswith(".png") for p in paths)
        print("\n".join(paths))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
