"""ex14 custom_function: a new differentiable operation, written as a Function.

The idea
--------
Every op you used so far is a node class the engine knows: ``MulBackward0`` has the product
rule, ``ExpBackward0`` knows that exp' = exp.  To add an op of your own, you write both halves
yourself, as in PyTorch's ``torch.autograd.Function``:

* ``forward(ctx, *args)`` computes the result from the arguments (Values, and numbers if you
  like).  It runs under ``no_grad``: the ops inside are *not* recorded, the whole Function
  becomes one node of the computational graph (计算图).  Whatever backward will need, save
  with ``ctx.save_for_backward(value, ...)``; plain notes (numbers) can go on ``ctx`` as
  attributes (``ctx.low = low``).
* ``backward(ctx, grad)`` gets d(loss)/d(output) as a Value and returns one gradient per
  argument of forward: a Value for a Value argument, None for a number (or for a Value that
  needs no gradient).  Read what forward saved with ``ctx.saved_tensors``
  (PyTorch's name; what it holds here are Values).

``MyOp.apply(x)`` runs it: the result's ``grad_fn`` is a node named ``MyOpBackward``.

Why ``save_for_backward`` and not ``ctx.x = x``?  Values saved that way are handled like the
saved operands of built-in ops (ex04, ex07): a backward without ``retain_graph`` frees them, so
a second backward raises "Trying to backward through the graph a second time ...", and an
in-place change of a saved Value after forward is caught by its version counter instead of
silently giving a wrong gradient.

Is the backward right?  ``micrograph.gradcheck(fn, inputs)`` compares it with finite
differences, (f(x + eps) - f(x - eps)) / (2 eps), and returns True (or raises, naming both
numbers).

A small example on other numbers, the cube:

    class Cube(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x * x
        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * 3 * x * x

    u = Value(2.0, requires_grad=True)
    y = Cube.apply(u)                 # y.item() 8.0, y.grad_fn.name() "CubeBackward"
    y.backward()                      # u.grad 12.0
    micrograph.gradcheck(Cube.apply, [Value(0.7, requires_grad=True)])   # True

What to write
-------------
Two Functions.  ``Softplus``: softplus(x) = log(1 + exp(x)), a smooth relu, whose derivative
is sigmoid(x).  ``Clip``: x clipped to the interval [low, high] (``low`` and ``high`` are
numbers), which passes the gradient through where low <= x <= high and blocks it elsewhere.
Both save their input x with ``ctx.save_for_backward``, and each backward reads it back from
``ctx.saved_tensors`` (Clip's too: it decides there whether x is inside the interval, not from a
note forward left on ctx), since that read is where a freed or changed x is refused.  Compute each
backward with Value operations on what forward saved (not from numbers such as ``x.item()``): the
gradient it returns is then in a graph itself, and ``grad(..., create_graph=True)`` can
differentiate it again, as it can a built-in op's.  Return the derivative itself (sigmoid(x) for
Softplus), not a difference quotient (f(x + h) - f(x - h)) / 2h: near 0 the two agree as gradcheck
sees them, but far from 0, where sigmoid(x) is tiny, the quotient loses its digits, and the tests
look there too.
"""

from __future__ import annotations

from micrograph import Function, Value


class Softplus(Function):
    """softplus(x) = log(1 + exp(x)); its derivative is sigmoid(x) = 1 / (1 + exp(-x))."""

    @staticmethod
    def forward(ctx, x: Value) -> Value:
        """Save x with ctx.save_for_backward, return log(1 + exp(x)) as a Value."""
        # TODO: ctx.save_for_backward(x), then the value with Value ops (exp, log)
        raise NotImplementedError("ex14: Softplus.forward")

    @staticmethod
    def backward(ctx, grad: Value) -> Value:
        """Return grad times sigmoid(x), x read back from ctx.saved_tensors."""
        # TODO: (x,) = ctx.saved_tensors, then the chain rule
        raise NotImplementedError("ex14: Softplus.backward")


class Clip(Function):
    """x clipped to [low, high]: low below the interval, high above it, x inside.

    The gradient passes through unchanged where low <= x <= high (as torch.clamp's), and is 0
    outside; low and high are numbers, so their gradients are None.
    """

    @staticmethod
    def forward(ctx, x: Value, low: float, high: float) -> Value:
        """Save x with ctx.save_for_backward, keep low and high on ctx, return the clipped Value."""
        # TODO: ctx.save_for_backward(x); ctx.low, ctx.high = low, high; a new Value
        raise NotImplementedError("ex14: Clip.forward")

    @staticmethod
    def backward(ctx, grad: Value) -> tuple[Value, None, None]:
        """Return (the gradient for x, None, None): one entry per argument of forward."""
        # TODO: read x back, pass grad where low <= x <= high, 0 elsewhere
        raise NotImplementedError("ex14: Clip.backward")
