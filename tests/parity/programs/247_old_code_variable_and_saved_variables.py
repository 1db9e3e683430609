"""Spellings from code written for PyTorch before 0.4, which torch 2.13 still runs: ``Variable(data,
requires_grad, volatile)`` (its flags read as integers; ``volatile=True`` warns that it has no effect, and
with ``requires_grad`` is refused, before the data's type is checked), a value's ``volatile`` (always False, read or
written with a warning) and a custom Function's
``ctx.saved_variables`` (``saved_tensors`` with a DeprecationWarning, freed by backward as it is)."""

from parity.helpers import attempt, attempt_statement


def run(B, rec):
    Variable = B.autograd.Variable
    x = B.value(1.5)
    for label, args, kwargs in [("volatile=True", (x,), {"volatile": True}), ("volatile=False", (x,), {"volatile": False}),
                                ("positional flags", (x, True, False), {}), ("volatile and requires_grad", (x, True, True), {}),
                                ("a number, volatile and requires_grad", (1.5, True, True), {}),
                                ("a number, volatile", (1.5,), {"volatile": True}), ("requires_grad=1", (x,), {"requires_grad": 1}),
                                ("requires_grad=0", (x,), {"requires_grad": 0}), ("volatile=1", (x,), {"volatile": 1}),
                                ("requires_grad=2.5", (x,), {"requires_grad": 2.5}), ("requires_grad='yes'", (x,), {"requires_grad": "yes"}),
                                ("requires_grad=None", (x,), {"requires_grad": None}), ("volatile=None", (x,), {"volatile": None}),
                                ("requires_grad=255", (x,), {"requires_grad": 255})]:
        v = attempt(lambda: Variable(*args, **kwargs))
        rec(f"Variable {label}", v)
        if not isinstance(v, str):
            rec(f"Variable {label}: is_leaf, shares storage", (v.is_leaf, v is x, v.data.item()))

    for stmt in ["r = y.volatile", "y.volatile = True", "y.volatile = 'no'", "del y.volatile", "r = x.volatile"]:
        x = B.value(1.5, requires_grad=True)
        names = {"x": x, "y": x * 2.0}
        rec(stmt, attempt_statement(stmt, names))
        rec(f"{stmt}: then r, y.volatile, requires_grad", (names.get("r"), names["y"].volatile, names["y"].requires_grad))

    class Square(B.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_variables
            return 2 * a * g

    w = B.value(3.0, requires_grad=True)
    y = Square.apply(w)
    rec("saved_variables before backward", y.grad_fn.saved_variables)
    rec("saved_variables = ()", attempt(lambda: setattr(y.grad_fn, "saved_variables", ())))
    y.backward(retain_graph=True)
    rec("backward reading saved_variables: w.grad", w.grad)
    y.backward()
    rec("second backward: w.grad", w.grad)
    rec("saved_variables after a freeing backward", lambda: y.grad_fn.saved_variables)
    rec("third backward", lambda: y.backward())
