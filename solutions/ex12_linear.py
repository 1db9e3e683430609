"""ex12 linear: a layer's graph is freed by backward too; retain_graph=True keeps it.

The idea
--------
A network is one more computational graph (计算图).  The documents build the smallest one,
``net = nn.Linear(3, 4)``, feed it a batch of two input rows that require grad, and sum the
output into a scalar "because backward needs a scalar":

    net = nn.Linear(3, 4)
    input = Variable(torch.randn(2, 3), requires_grad=True)
    output = net(input)           # 2 x 4
    loss = torch.sum(output)
    loss.backward()               # fine
    loss.backward()               # RuntimeError: Trying to backward through the graph a second time ...

Each output is ``bias[j] + sum over k of input[k] * weight[j][k]``; as in torch, one node
computes them all: ``AddmmBackward0``, the ``grad_fn`` of every entry.  It saves the input and
the weights for backward, and the first backward frees them, so the second call fails before
it adds anything.  ``loss.backward(retain_graph=True)`` keeps them: the second call then works,
and because gradients accumulate (ex05) every parameter's gradient doubles.

What those gradients are: d loss / d weight[j][k] is the sum of input[k] over the batch's rows
(the same for every j), and d loss / d bias[j] is the number of rows.  The weights' values do
not matter, only the inputs' (torch's reference run with the input [[1, 2, 3]] shows
weight.grad [[1, 2, 3]] x 4 and bias.grad [1, 1, 1, 1], then twice that).

micrograph's ``nn.Linear`` works on a batch given as a list of rows, and a row of Values or
numbers; ``net(batch)`` returns a list of rows of Values.  ``net.parameters()`` yields the
weights row by row, then the biases, each a leaf that requires grad.  ``micrograph.sum``
takes a flat list of Values.

A small example on other numbers (nn.Linear(2, 1), one row):

    micrograph.manual_seed(1)
    net = nn.Linear(2, 1)
    x = [[Value(4.0, requires_grad=True), Value(-1.0, requires_grad=True)]]
    loss = micrograph.sum([v for row in net(x) for v in row])
    loss.backward(retain_graph=True)
    [p.grad.item() for p in net.parameters()]     # [4.0, -1.0, 1.0]
    loss.backward()
    [p.grad.item() for p in net.parameters()]     # [8.0, -2.0, 2.0]

What to write
-------------
``forward`` makes the documents' input and loss for the net it is given; the two other
functions run backward twice on it, without and with ``retain_graph=True``.
"""

from __future__ import annotations

import micrograph
from micrograph import Value, nn


def forward(net: nn.Linear, rows: list[list[float]]) -> tuple[list[list[Value]], list[list[Value]], Value]:
    """The documents' forward pass: return (input, output, loss).

    input is ``rows`` as new leaves that require grad (the documents' ``requires_grad=True``
    input, whose gradients backward computes as for any leaf), in rows; output = ``net(input)``;
    loss = the sum of every entry of output, made with ``micrograph.sum``.  Do not call
    backward here.
    """
    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]
    output = net(inputs)
    # backward needs a scalar: add up every entry of the rows net returns
    loss = micrograph.sum([v for row in output for v in row])
    return inputs, output, loss


def second_backward_error(net: nn.Linear, rows: list[list[float]]) -> RuntimeError | None:
    """The documents' failing program: forward, ``loss.backward()``, then ``loss.backward()``.

    Catch the RuntimeError of the second call and return it (None if it worked).  Leave the
    parameters' .grad as the backward calls leave them.
    """
    _, _, loss = forward(net, rows)
    loss.backward()  # frees what the products saved
    try:
        loss.backward()
    except RuntimeError as error:
        return error  # the layer node's saved input and weights are gone; no gradient was added
    return None


def grads_twice(net: nn.Linear, rows: list[list[float]]) -> tuple[list[float], list[float]]:
    """The documents' fix: forward, ``loss.backward(retain_graph=True)``, then ``loss.backward()``.

    Return (every parameter's gradient after the first call, the same after the second), as
    two lists of floats in the order of ``net.parameters()``.  The second is twice the first.
    Leave the parameters' .grad as the backward calls leave them.
    """
    _, _, loss = forward(net, rows)
    loss.backward(retain_graph=True)  # keep the saved operands for a second pass
    first = [p.grad.item() for p in net.parameters()]
    loss.backward()  # adds the same gradients again: .grad accumulates
    second = [p.grad.item() for p in net.parameters()]
    return first, second
