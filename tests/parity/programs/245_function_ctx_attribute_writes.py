"""A custom Function's ``ctx`` written in ``forward`` or ``backward``: ``saved_tensors`` (``ctx.saved_tensors = (x,)``
where ``save_for_backward(x)`` belongs), ``next_functions`` and ``metadata`` have a getter only, and the refusal names
torch's C base of the node; the flags and new attributes are taken; what backward gives after."""

from parity.helpers import attempt_statement


def run(B, rec):
    for where in ("forward", "backward"):
        for stmt in ["ctx.saved_tensors = (a,)", "del ctx.saved_tensors", "ctx.next_functions = ()", "ctx.metadata = {}",
                     "ctx.needs_input_grad = (True,)", "ctx.materialize_grads = False", "ctx.x = a"]:
            seen = []

            class Double(B.autograd.Function):
                @staticmethod
                def forward(ctx, a):
                    if where == "forward":
                        seen.append(attempt_statement(stmt, {"ctx": ctx, "a": a}))
                    return a * 2

                @staticmethod
                def backward(ctx, g):
                    if where == "backward":
                        seen.append(attempt_statement(stmt, {"ctx": ctx, "a": g}))
                    return g * 2

            x = B.value(1.5, requires_grad=True)
            rec(f"{where}: {stmt}: backward", lambda: Double.apply(x).backward())
            rec(f"{where}: {stmt}", seen)
            rec(f"{where}: {stmt}: x.grad", x.grad)
