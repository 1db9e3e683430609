"""A Function whose forward returns a tuple: one node shared by its outputs, numbered by output_nr; backward gets one gradient per output (zeros where none came); next_functions of consumers carry the output number; a second backward through it fails; retain_graph; grad()."""


def run(B, rec):
    A = B.autograd
    received = []

    class Split(A.Function):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, y)
            return x * y, x + y, x - y

        @staticmethod
        def backward(ctx, g0, g1, g2):
            received.append((g0, g1, g2))
            x, y = ctx.saved_tensors
            return g0 * y + g1 + g2, g0 * x + g1 - g2

    x = B.value(2.0, requires_grad=True)
    y = B.value(3.0, requires_grad=True)
    a, b, c = Split.apply(x, y)
    rec("outputs", (a, b, c))
    rec("grad_fn", a.grad_fn)
    rec("same grad_fn", (a.grad_fn is b.grad_fn, b.grad_fn is c.grad_fn))
    rec("output_nr", (a.output_nr, b.output_nr, c.output_nr, x.output_nr))
    rec("is_leaf", (a.is_leaf, b.is_leaf))
    rec("next_functions", a.grad_fn.next_functions)
    p = a * b
    rec("a*b next_functions", p.grad_fn.next_functions)
    rec("a*b next numbers", tuple(n for _, n in p.grad_fn.next_functions))
    q = c * 2.0 + b
    rec("c*2+b next", tuple(n for _, n in q.grad_fn.next_functions))
    rec("c*2 next", tuple(n for _, n in q.grad_fn.next_functions[0][0].next_functions))
    p.backward()
    rec("received a*b", received[-1])
    rec("grads a*b", (x.grad, y.grad))
    rec("second backward a*b", lambda: p.backward())
    rec("second backward a alone", lambda: a.backward())
    rec("received after failures", len(received))
    rec("grads after failures", (x.grad, y.grad))

    x.grad = None
    y.grad = None
    a, b, c = Split.apply(x, y)
    b.backward(retain_graph=True)
    rec("received b", received[-1])
    rec("grads b", (x.grad, y.grad))
    z = a + c
    rec("a+c next numbers", tuple(n for _, n in z.grad_fn.next_functions))
    z.backward(retain_graph=True)
    rec("received a+c", received[-1])
    rec("grads a+c", (x.grad, y.grad))
    (a - a).backward(retain_graph=True)
    rec("received a-a", received[-1])
    B.backward([a, c], [B.value(0.5), B.value(-2.0)])
    rec("received backward([a, c])", received[-1])
    rec("grads all", (x.grad, y.grad))

    for xv, yv in ((0.5, -1.25), (-3.0, 7.0), (1e8, 1e-8)):
        x = B.value(xv, requires_grad=True)
        y = B.value(yv, requires_grad=True)
        a, b, c = Split.apply(x, y)
        rec(f"grad b,c wrt x,y {xv}", B.grad(b * c, (x, y)))
        a, b, c = Split.apply(x, y)
        rec(f"grad c wrt x {xv}", B.grad(c, x))
        a, b, c = Split.apply(x, y)
        s = a * b * c + a
        s.backward()
        rec(f"abc+a grads {xv}", (x.grad, y.grad))

    class One(A.Function):
        @staticmethod
        def forward(ctx, x):
            return (x * 2,)

        @staticmethod
        def backward(ctx, g):
            return g * 2

    r = One.apply(x)
    rec("tuple of one", (type(r).__name__, len(r), r[0], r[0].output_nr, r[0].grad_fn))
    r[0].backward()
    rec("tuple of one grad", x.grad)

    class Wrong(A.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g):
            return g

    rec("backward taking one gradient for two outputs", lambda: Wrong.apply(x)[0].backward())

    class TooMany(A.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g0, g1):
            return g0, g1

    rec("two gradients for one input", lambda: TooMany.apply(x)[1].backward())
