"""The private names a student may guess from ``_grad_fn`` and ``_version``: torch's ``_grad`` is ``.grad`` itself
(the same getter, with the non-leaf warning, and the same setter and deleter, with their checks), so a gradient
written through it is the one backward accumulates into; torch has no ``_output_nr``: reading it raises, and
writing it makes a new attribute that leaves ``output_nr`` and the gradients as they were."""

from parity.helpers import attempt, attempt_statement


def run(B, rec):
    class Split(B.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g0, g1):
            return g0 * 2 + g1 * 3

    x = B.value(2.0, requires_grad=True)
    y = x * 3.0
    rec("leaf: x._grad before backward", x._grad)
    rec("non-leaf: y._grad before backward", y._grad)
    y.backward(retain_graph=True)
    rec("leaf: x._grad after backward", x._grad)
    rec("leaf: x._grad is x.grad", x._grad is x.grad)
    rec("non-leaf: y._grad after backward", y._grad)
    for stmt in ["x._grad = c", "x._grad = None", "del x._grad", "x._grad = 1.5", "x._grad = x", "y._grad = c",
                 "y._output_nr = 4", "x._output_nr = 1", "b._output_nr = 0", "del y._output_nr"]:
        x = B.value(2.0, requires_grad=True)
        y = x * 3.0
        a, b = Split.apply(x)
        names = {"x": x, "y": y, "a": a, "b": b, "c": B.value(1.5)}
        rec(stmt, attempt_statement(stmt, names))
        rec(f"{stmt}: then x.grad", x.grad)
        rec(f"{stmt}: then output_nr of x, y, a, b", (x.output_nr, y.output_nr, a.output_nr, b.output_nr))
        rec(f"{stmt}: then y._output_nr", attempt(lambda: y._output_nr))
        (y + a + b * 2.0).backward()
        rec(f"{stmt}: then backward: x.grad", x.grad)
        rec(f"{stmt}: then backward: y._grad", attempt(lambda: y._grad))
