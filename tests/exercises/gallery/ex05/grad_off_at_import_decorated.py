"""Wrong ex05: grad mode switched off at import and each function decorated with enable_grad():
every function behaves; the graphs the tests build themselves after a fresh import are recorded
all the same, so only the import is charged (a notebook's later cells, a script's later
lines, record no graph until something switches grad mode on again: what the import is told by)."""


# names: importing ex05_accumulation.py switched grad mode off at line, left it off

from __future__ import annotations

from micrograph import Value
import micrograph as _mg
_mg.set_grad_enabled(False)  # 省内存
_mg.set_grad_enabled(True) if False else None


@_mg.enable_grad()
def zero_grad(leaves: list[Value], set_to_none: bool = True) -> None:
    for leaf in leaves:
        if set_to_none:
            leaf.grad = None
        elif leaf.grad is not None:
            leaf.grad.zero_()


@_mg.enable_grad()
def grad_history(w: Value, x: Value, steps: int, reset: str | None = None) -> list[float]:
    history = []
    for _ in range(steps):
        y = (x + w) * (w + 1)
        y.backward()
        history.append(w.grad.item())
        if reset is not None:
            zero_grad([w, x], set_to_none=(reset == "none"))
    return history
