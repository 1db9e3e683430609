"""The torch.autograd docs' graph inspection and numerical checking, on values of our own: a node's
metadata dict, name(), next_functions of a leaf's accumulator, the saved values a node exposes,
gradcheck's and gradgradcheck's answers on right and wrong formulas, a GradcheckError caught as a RuntimeError,
and torch.autograd.grad / backward called as functions."""


def run(B, rec):
    A = B.autograd
    x = B.value(0.35, requires_grad=True)
    k = B.value(-1.5, requires_grad=True)
    y = (x * k).tanh() + x.exp()
    node = y.grad_fn
    rec("metadata empty", sorted(node.metadata.items()))
    node.metadata["note"] = "mine"
    rec("metadata kept", node.metadata["note"])
    rec("same dict each time", node.metadata is node.metadata)
    rec("name", node.name())
    rec("next_functions", node.next_functions)
    tanh = node.next_functions[0][0]
    rec("tanh's next", tanh.next_functions)
    mul = tanh.next_functions[0][0]
    rec("mul saved self", mul._saved_self)
    rec("mul saved other", mul._saved_other)
    rec("tanh saved result", tanh._saved_result)
    acc = mul.next_functions[0][0]
    rec("accumulator", (acc.name(), acc.next_functions, acc.variable is x))
    rec("accumulator metadata", sorted(acc.metadata.items()))
    g = B.grad(y, [x, k], create_graph=True)
    rec("grad with create_graph", g)
    rec("its grad_fn", (g[0].grad_fn, g[1].grad_fn))
    gg = B.grad(g[0], x)
    rec("second derivative", gg)

    class BadSquare(A.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        def backward(ctx, grad):
            (a,) = ctx.saved_tensors
            return grad * a

    def caught():
        try:
            A.gradcheck(BadSquare.apply, (B.value(0.7, requires_grad=True),))
        except RuntimeError as e:
            return f"caught {type(e).__name__}: " + str(e).splitlines()[0]

    rec("a GradcheckError caught as a RuntimeError", caught())
    rec("gradcheck of a right formula", A.gradcheck(lambda a, b: (a * b).sin(), (x, k)))
    rec("gradcheck raise_exception=False", A.gradcheck(BadSquare.apply, (x,), raise_exception=False))
    rec("gradgradcheck right", A.gradgradcheck(lambda a: a.exp() * a, (x,)))
    rec("gradcheck nothing requires grad", lambda: A.gradcheck(lambda a: a * 2, (B.value(1.0),)))
    rec("gradcheck with a number input", A.gradcheck(lambda a, c: a * c, (x, 3.0)))
    rec("gradcheck eps/atol", A.gradcheck(lambda a: a ** 3, (x,), eps=1e-4, atol=1e-3))
    rec("autograd.backward of a list", lambda: A.backward([x * 2, k * 3]))
    rec("grads after", (x.grad, k.grad))
    rec("autograd.backward with grad_tensors", lambda: A.backward([x * 2], [B.value(0.5)]))
    rec("x.grad", x.grad)
    rec("autograd.grad of a sum", A.grad([x * 2, x * 3], [x]))
    rec("autograd.grad grad_outputs", A.grad([x * 2, x * 3], [x], grad_outputs=[B.value(1.0), B.value(-1.0)]))
