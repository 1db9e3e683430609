"""The hook examples of the torch.autograd docs (Tensor.register_hook and remove, node pre- and post-hooks
replacing gradients, post-accumulate hooks, hooks around an in-place change) and the custom Function of "Learning
PyTorch with examples" (LegendrePolynomial3) with the mistakes a student makes with ctx, on values of our own:
a post-hook giving a number where the gradient was None is told about the None first, as torch checks;
Function.apply on the base class is the base forward's NotImplementedError."""


def run(B, rec):
    hooks(B, lambda k, v: rec("hooks: " + k, v))
    functions(B, lambda k, v: rec("Function: " + k, v))


def hooks(B, rec):
    v = B.value(0.0, requires_grad=True)
    h = v.register_hook(lambda grad: grad * 2)
    v.backward(B.value(-1.5))
    rec("v.grad doubled", v.grad)
    h.remove()
    rec("remove twice", lambda: h.remove())
    v.backward(B.value(-1.5))
    rec("v.grad after remove", v.grad)
    # notes: hooks on in-place modified tensor
    t = B.value(1.0, requires_grad=True).sum()
    t.register_hook(lambda g: rec("hook before in-place sees", g))
    t.mul_(2)
    t.register_hook(lambda g: rec("hook after in-place sees", g))
    t.backward()
    # node hooks
    a = B.value(0.6, requires_grad=True)
    b = a.exp()
    c = b * 3
    seen = []
    def pre(grad_outputs):
        seen.append(("pre", grad_outputs))
        return (grad_outputs[0] * 10,)
    def post(grad_inputs, grad_outputs):
        seen.append(("post", grad_inputs, grad_outputs))
        return (grad_inputs[0] + 1,)
    b.grad_fn.register_prehook(pre)
    b.grad_fn.register_hook(post)
    b.register_hook(lambda g: seen.append(("tensor", g)))
    b.retain_grad()
    c.backward()
    rec("seen", seen)
    rec("a.grad", a.grad)
    rec("b.grad", b.grad)
    # post hook returning wrong count
    a = B.value(0.6, requires_grad=True)
    b = a * a
    b.grad_fn.register_hook(lambda gi, go: (gi[0],))
    rec("post hook wrong count", lambda: b.backward())
    a = B.value(0.6, requires_grad=True)
    b = a * a
    b.grad_fn.register_prehook(lambda go: (go[0], go[0]))
    rec("pre hook wrong count", lambda: b.backward())
    a = B.value(0.6, requires_grad=True)
    b = a * a
    b.grad_fn.register_prehook(lambda go: go[0])
    rec("pre hook returns tensor", lambda: b.backward())
    a = B.value(0.6, requires_grad=True)
    b = a * a
    b.grad_fn.register_prehook(lambda go: [go[0]])
    rec("pre hook returns list", lambda: b.backward())
    rec("pre hook list grad", a.grad)
    a = B.value(0.6, requires_grad=True)
    b = a * a
    b.grad_fn.register_hook(lambda gi, go: (None, None))
    rec("post hook Nones", lambda: b.backward())
    rec("post hook Nones grad", a.grad)
    a = B.value(0.6, requires_grad=True)
    b = a * 2
    b.grad_fn.register_hook(lambda gi, go: (gi[0], 5.0))
    rec("post hook number", lambda: b.backward())
    # hook on leaf post accumulate
    w = B.value(2.0, requires_grad=True)
    calls = []
    w.register_post_accumulate_grad_hook(lambda p: calls.append((p.grad.item(), p is w)))
    (w * w).backward()
    w.register_post_accumulate_grad_hook(lambda p: p.grad.mul_(0.5) and None)
    (w * w).backward()
    rec("after post acc halve", (w.grad, calls))
    rec("post acc non-leaf", lambda: (w * 2).register_post_accumulate_grad_hook(lambda p: None))
    # hook that modifies grad in place
    x = B.value(1.0, requires_grad=True)
    y = x * 3
    y.register_hook(lambda g: g.add_(1))
    y.backward()
    rec("in-place hook", x.grad)
    # hooks order
    x = B.value(1.0, requires_grad=True)
    order = []
    x.register_hook(lambda g: order.append(1))
    x.register_hook(lambda g: order.append(2) or g * 2)
    x.register_hook(lambda g: order.append(3) or None)
    (x * 5).backward()
    rec("order", (order, x.grad))
    rec("hook on non-req", lambda: B.value(1.0).register_hook(lambda g: g))
    rec("hook not callable", lambda: B.value(1.0, requires_grad=True).register_hook(3))
    x = B.value(1.0, requires_grad=True)
    rec("hook returns wrong", lambda: (x.register_hook(lambda g: "a"), (x * 2).backward()))


def functions(B, rec):
    A = B.autograd
    class Legendre(A.Function):
        @staticmethod
        def forward(ctx, input):
            ctx.save_for_backward(input)
            return 0.5 * (5 * input ** 3 - 3 * input)
        @staticmethod
        def backward(ctx, grad_output):
            input, = ctx.saved_tensors
            return grad_output * 1.5 * (5 * input ** 2 - 1)
    a, b, c, d = (B.value(v, requires_grad=True) for v in (0.1, -0.9, 0.05, 0.3))
    x = B.value(-0.6)
    y = B.value(-0.56)
    lr = 5e-6
    for t in range(3):
        P3 = Legendre.apply
        y_pred = a + b * P3(c + d * x)
        loss = (y_pred - y).pow(2).sum()
        rec(f"loss {t}", (loss, loss.grad_fn))
        loss.backward()
        rec(f"grads {t}", (a.grad, b.grad, c.grad, d.grad))
        with B.no_grad():
            for p in (a, b, c, d):
                p -= lr * p.grad
                p.grad = None
    rec("final", (a, b, c, d))
    node = Legendre.apply(c * 1).grad_fn
    rec("node", (node, node.next_functions, node.needs_input_grad))
    rec("node saved", node.saved_tensors)
    rec("node name", node.name())
    rec("dir has saved_tensors", "saved_tensors" in dir(node))
    # ctx corners
    class Bad1(A.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 2.0)
            return x * 2
        @staticmethod
        def backward(ctx, g):
            return g * 2
    rec("save a number", lambda: Bad1.apply(B.value(1.0, requires_grad=True)))
    class Bad2(A.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2
        @staticmethod
        def backward(ctx, g):
            return g * 2, g
    rec("too many grads", lambda: Bad2.apply(B.value(1.0, requires_grad=True)).backward())
    class Bad3(A.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * y
        @staticmethod
        def backward(ctx, g):
            return g
    rec("too few grads", lambda: Bad3.apply(B.value(1.0, requires_grad=True), B.value(2.0)).backward())
    class Bad4(A.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2
        @staticmethod
        def backward(ctx, g):
            return 2.0
    rec("number grad", lambda: Bad4.apply(B.value(1.0, requires_grad=True)).backward())
    class Bad5(A.Function):
        @staticmethod
        def forward(ctx, x):
            return 2.0
        @staticmethod
        def backward(ctx, g):
            return g
    rec("forward returns number", lambda: Bad5.apply(B.value(1.0, requires_grad=True)))
    class Bad6(A.Function):
        @staticmethod
        def forward(ctx, x):
            return x
        @staticmethod
        def backward(ctx, g):
            return g * 3
    x = B.value(1.0, requires_grad=True)
    y = Bad6.apply(x)
    rec("identity returns input", (y is x, y.grad_fn, y.is_leaf, x.is_leaf))
    y.backward()
    rec("identity grad", x.grad)
    class Bad7(A.Function):
        @staticmethod
        def forward(ctx, x):
            return x.detach()
        @staticmethod
        def backward(ctx, g):
            return g * 3
    x = B.value(1.0, requires_grad=True)
    y = Bad7.apply(x)
    rec("detach in forward", (y.grad_fn, y.requires_grad))
    class Bad8(A.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.mark_non_differentiable(x)
            return x * 2
        @staticmethod
        def backward(ctx, g):
            return g
    rec("mark_non_differentiable input", lambda: Bad8.apply(B.value(1.0, requires_grad=True)).requires_grad)
    class Twice(A.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x
        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            x2, = ctx.saved_tensors
            return g * 2 * x2
    x = B.value(1.5, requires_grad=True)
    y = Twice.apply(x)
    y.backward(retain_graph=True)
    rec("saved twice", x.grad)
    y.backward()
    rec("saved twice 2", x.grad)
    rec("saved after", lambda: y.grad_fn.saved_tensors)
    rec("backward 3", lambda: y.backward())
    x = B.value(1.5, requires_grad=True)
    y = Twice.apply(x)
    with B.no_grad():
        x.mul_(2)
    rec("in-place after save", lambda: y.backward())
    rec("saved_tensors after in-place", lambda: y.grad_fn.saved_tensors)
    rec("Function()", lambda: Twice())
    rec("Function call", lambda: A.Function.apply(x))
    rec("Twice.forward direct", lambda: Twice.forward(None, x))
