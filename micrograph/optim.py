"""Optimisers, as ``torch.optim``: they change parameters in place, outside the graph.

An update ``w -= lr * w.grad`` must not be recorded (the new ``w`` would be a non-leaf, and the next backward would run
through every past step), and PyTorch refuses it on a leaf that requires grad in grad mode. So ``step()`` runs under
``no_grad``: each parameter stays the same leaf object, its number changes and its version goes up by one.
``param_groups[0]["lr"]`` may change between steps to schedule the learning rate.
"""

from __future__ import annotations

import warnings
from typing import Any, Iterable

from micrograph.grad_mode import no_grad
from micrograph.value import Value


def zero_grads(params: Iterable[Value], set_to_none: bool = True) -> None:
    """Forget the gradients in ``params``: drop them (torch's default), or zero them in place."""
    for p in params:
        g = p.grad
        if g is not None and set_to_none:
            p.grad = None
        elif g is not None:  # as torch: detach_() a gradient that has a graph, else requires_grad_(False); zero it
            (g.detach_() if g.grad_fn is not None else g.requires_grad_(False)).zero_()


class Optimizer:
    """Holds the parameters (one group, with its hyper-parameters) and per-parameter state."""

    def __init__(self, params: Iterable[Value], defaults: dict[str, Any]) -> None:
        if isinstance(params, Value):  # torch's words, type name included
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                            "but got torch.DoubleTensor")
        params = list(params)
        if not params:
            raise ValueError("optimizer got an empty parameter list")
        for p in params:
            if not isinstance(p, Value):
                raise TypeError(f"optimizer can only optimize Tensors, but one of the params is {type(p).__name__}")
            if not p.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        if len({id(p) for p in params}) != len(params):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this will cause "
                          "an error; see github.com/pytorch/pytorch/issues/40967 for more information", stacklevel=3)
        self.param_groups: list[dict[str, Any]] = [{"params": params, **defaults}]
        self.state: dict[Value, dict[str, Any]] = {}

    def zero_grad(self, set_to_none: bool = True) -> None:
        for group in self.param_groups:
            zero_grads(group["params"], set_to_none)

    def step(self) -> None:
        raise NotImplementedError


class SGD(Optimizer):
    """Stochastic gradient descent, ``torch/optim/sgd.py``'s algorithm with momentum, dampening, weight decay
    and Nesterov."""

    def __init__(self, params: Iterable[Value], lr: float = 1e-3, momentum: float = 0, dampening: float = 0,
                 weight_decay: float = 0, nesterov: bool = False, *, maximize: bool = False,
                 foreach: bool | None = None, differentiable: bool = False, fused: bool | None = None) -> None:
        """Zeros are ints, as torch shows them.  ``foreach``, ``differentiable`` and ``fused`` choose how
        torch computes a step, not what it computes: kept in the groups, as torch keeps them, and unused."""
        for name, x in (("learning rate", lr), ("momentum value", momentum), ("weight_decay value", weight_decay)):
            if x < 0.0:
                raise ValueError(f"Invalid {name}: {x}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, {"lr": lr, "momentum": momentum, "dampening": dampening,
                                  "weight_decay": weight_decay, "nesterov": nesterov, "maximize": maximize,
                                  "foreach": foreach, "differentiable": differentiable, "fused": fused})

    @no_grad()
    def step(self) -> None:
        for group in self.param_groups:
            lr, momentum, dampening = group["lr"], group["momentum"], group["dampening"]
            for p in group["params"]:
                g = p.grad
                if g is None:
                    continue
                if group["maximize"]:  # ascent: the gradient's sign flips before weight decay, as in torch
                    g = -g
                if group["weight_decay"]:
                    g = g + group["weight_decay"] * p
                if momentum:
                    state = self.state.setdefault(p, {})
                    buf = state.get("momentum_buffer")
                    if buf is None:
                        buf = state["momentum_buffer"] = g.clone()
                    else:
                        buf.mul_(momentum).add_((1.0 - dampening) * g)
                    g = g + momentum * buf if group["nesterov"] else buf
                p.sub_(lr * g)
