"""Two comparisons combined into one mask, as a student writes a clip's backward: ``x.ge(low) * x.le(high)``
(torch keeps a bool times a bool a bool, so ``where`` takes it), ``+`` of two masks is their or, ``&``, ``|``
and ``^`` too; a mask times a number or a float value is a number, and the gradient flows through ``where``."""


def run(B, rec):
    for v in (-0.5, 0.25, 1.5):
        x = B.value(v, requires_grad=True)
        inside = x.ge(0.0) * x.le(1.0)
        rec(f"x = {v}: x.ge(0) * x.le(1)", inside)
        rec(f"x = {v}: x.lt(0) + x.gt(1)", x.lt(0.0) + x.gt(1.0))
        rec(f"x = {v}: mul and add as methods", (x.ge(0.0).mul(x.le(1.0)), B.mul(x.lt(0.0), x.gt(1.0))))
        rec(f"x = {v}: with a Python bool", (inside * True, False * inside, inside + False))
        rec(f"x = {v}: &, |, ^", (x.ge(0.0) & x.le(1.0), x.lt(0.0) | x.gt(1.0), x.ge(0.0) ^ x.le(1.0)))
        rec(f"x = {v}: mask times a float value", inside * B.value(2.0))
        rec(f"x = {v}: mask times 2.0", inside * 2.0)
        out = B.where(inside, x * 3.0, x * 0.0)
        out.backward()
        rec(f"x = {v}: where(mask, 3x, 0x) and x.grad", (out, out.grad_fn, x.grad))
