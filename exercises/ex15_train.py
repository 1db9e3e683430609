"""ex15 train: the training loop: zero_grad, forward, loss, backward, step.

The idea
--------
Everything so far comes together in the loop that trains a network.  Each step:

1. ``optimizer.zero_grad()``: forget the last step's gradients.  backward *adds* into
   ``.grad`` (ex05), so without this every step would follow the sum of all past gradients.
2. forward: ``prediction = model(inputs)``.  This records a new computational graph (计算图):
   PyTorch's graph is dynamic (动态图), built again on every step from the parameters'
   current values, and freed by the backward that uses it (ex04), so no ``retain_graph``.
3. the loss: one Value, here ``nn.mse_loss(prediction, targets)``, the mean squared error.
4. ``loss.backward()``: d loss / d p lands in ``p.grad`` for every parameter p (the leaves,
   叶子节点, of the graph).
5. ``optimizer.step()``: ``p -= lr * p.grad`` for every parameter, in place and under
   ``no_grad`` (ex09), so each parameter stays the same leaf.  An update through ``.data``
   (``p.data -= lr * p.grad.item()``, older tutorials' spelling) is accepted here too: it
   changes the same leaf in place, though no version counter counts it (ex09, whose step is
   about that counter, refuses it).

Record the loss as a float (``loss.item()``): keeping the Value would keep its whole graph.

micrograph's pieces, named as PyTorch's: ``micrograph.manual_seed(seed)`` makes the random
initial weights repeatable; ``nn.MLP([2, 8, 1])`` is ``Sequential(Linear(2, 8), Tanh(),
Linear(8, 1))``; a batch is a list of rows, so ``model(inputs)`` returns one row ``[y]`` per
input row and the targets are rows too (``[[0.0], [1.0], ...]``); ``optim.SGD(
model.parameters(), lr=lr)`` is plain gradient descent.

A small example on other numbers, XOR (a network with a hidden layer can fit it, a line cannot):

    inputs = [[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]
    targets = [[0.0], [1.0], [1.0], [0.0]]
    model = make_model(0)
    losses = train(model, inputs, targets, lr=0.2, steps=200)
    losses[0], losses[-1]         # about 0.67, then below 0.01

What to write
-------------
``make_model`` seeds the generator and builds the network; ``train`` runs the loop on the
model it is given (changing its parameters) and returns the loss of every step.  It only reads
``inputs`` and ``targets``: the caller's lists and their rows hold the same numbers afterwards.
Importing the file leaves grad mode as the importer had it: switch it off only inside a
``with`` (ex09).
"""

from __future__ import annotations

import micrograph
from micrograph import nn, optim


def make_model(seed: int) -> nn.MLP:
    """``micrograph.manual_seed(seed)``, then ``nn.MLP([2, 8, 1])`` (Tanh between the layers)."""
    # TODO: seed first, so that the same seed gives the same initial weights
    raise NotImplementedError("ex15: make_model")


def train(model: nn.Module, inputs: list[list[float]], targets: list[list[float]], lr: float,
          steps: int) -> list[float]:
    """Train ``model`` on the whole batch for ``steps`` steps of SGD with learning rate ``lr``.

    Each step: zero the gradients (the first step too: the model may come with some in
    ``.grad``), predict ``model(inputs)``, compute ``nn.mse_loss(prediction, targets)``,
    backpropagate, update.  Return the loss of every step as a float (the loss computed in that
    step, before its update): ``steps`` numbers, an empty list for ``steps=0``, which leaves
    the model as it was.
    """
    # TODO: an optim.SGD over model.parameters(), then the five steps in a loop
    raise NotImplementedError("ex15: train")
