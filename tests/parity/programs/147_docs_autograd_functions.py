"""The ``torch.autograd`` docs and docstrings, on values of our own: ``backward``/``grad`` arguments
(grad_tensors, inputs, allow_unused, materialize_grads, create_graph), the ``Function`` examples (Exp
saving its result, ``ctx.needs_input_grad``, the docstring's mark_dirty example and the error it
prevents), ``gradcheck`` passing and failing, ``detect_anomaly``'s example (the warning naming the
failing node and the error)."""


def run(B, rec):
    A = B.autograd

    # torch.autograd.backward / grad
    w = B.value(0.5, requires_grad=True)
    x = B.value(-1.5, requires_grad=True)
    y1, y2 = w * x, (w + x).exp()
    rec("backward(tensors, grad_tensors)", lambda: A.backward([y1, y2], grad_tensors=[B.value(2.0), B.value(0.5)]))
    rec("grads", (w.grad, x.grad))
    w.grad = x.grad = None
    rec("backward(..., inputs=[x])", lambda: A.backward([w * x], inputs=[x]))
    rec("inputs=[x]: grads", (w.grad, x.grad))
    z = B.value(3.0, requires_grad=True)
    rec("grad unused", lambda: A.grad(w * x, [w, z]))
    rec("grad allow_unused", A.grad(w * x, [w, z], allow_unused=True))
    rec("grad materialize_grads", A.grad(w * x, [w, z], allow_unused=True, materialize_grads=True))
    (g,) = A.grad(w ** 3, w, create_graph=True)
    rec("create_graph: first", (g, g.grad_fn))
    rec("create_graph: second", A.grad(g, w))

    class Exp(A.Function):
        @staticmethod
        def forward(ctx, i):
            result = i.exp()
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad_output):
            (result,) = ctx.saved_tensors
            return grad_output * result

    v = B.value(0.7, requires_grad=True)
    out = Exp.apply(v)
    rec("Exp.apply", (out, out.grad_fn))
    out.backward()
    rec("Exp: v.grad", v.grad)
    rec("Exp: gradcheck", A.gradcheck(Exp.apply, (B.value(0.3, requires_grad=True),)))

    seen = []

    class Mul(A.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return a * b

        @staticmethod
        def backward(ctx, grad_output):
            seen.append(tuple(ctx.needs_input_grad))
            a, b = ctx.saved_tensors
            ga = grad_output * b if ctx.needs_input_grad[0] else None
            gb = grad_output * a if ctx.needs_input_grad[1] else None
            return ga, gb

    Mul.apply(v, B.value(2.0)).backward()
    Mul.apply(B.value(2.0), v).backward()
    Mul.apply(v, v).backward()
    rec("needs_input_grad", seen)
    rec("Mul: v.grad", v.grad)

    class Inplace(A.Function):
        @staticmethod
        def forward(ctx, t):
            t.add_(1)
            ctx.mark_dirty(t)
            return t

        @staticmethod
        @A.function.once_differentiable
        def backward(ctx, grad_output):
            return grad_output

    a = B.value(1.0, requires_grad=True).clone()
    b = a * a
    rec("Inplace.apply(a)", lambda: Inplace.apply(a))
    rec("a after", (a, a.grad_fn))
    rec("b.backward()", lambda: b.backward())

    class WrongExp(A.Function):
        @staticmethod
        def forward(ctx, i):
            ctx.save_for_backward(i)
            return i.exp()

        @staticmethod
        def backward(ctx, grad_output):
            (i,) = ctx.saved_tensors
            return grad_output * i

    rec("gradcheck of a wrong backward", lambda: A.gradcheck(WrongExp.apply, (B.value(0.3, requires_grad=True),)))
    rec("gradcheck, raise_exception=False",
        A.gradcheck(WrongExp.apply, (B.value(0.3, requires_grad=True),), raise_exception=False))
    rec("gradcheck, eps and atol", A.gradcheck(lambda t: t.sin() * t, (B.value(0.9, requires_grad=True),), eps=1e-6, atol=1e-4))

    class MyFunc(A.Function):
        @staticmethod
        def forward(ctx, inp):
            return inp.clone()

        @staticmethod
        def backward(ctx, gO):
            raise RuntimeError("Some error in backward")

    def run_fn(t):
        return MyFunc.apply(t).sum()

    inp = B.value(0.25, requires_grad=True)
    out = run_fn(inp)
    rec("error in backward", lambda: out.backward())
    with A.detect_anomaly():
        inp = B.value(0.25, requires_grad=True)
        out = run_fn(inp)
        rec("error in backward, anomaly mode", lambda: out.backward())
