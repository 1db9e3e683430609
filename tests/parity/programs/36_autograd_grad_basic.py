"""grad(outputs, inputs) returns a tuple and leaves .grad alone."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.75, requires_grad=True)
    a = x + w
    y = a * (w + 1)
    g = B.grad(y, [w, x], retain_graph=True)
    rec("grad(y, [w, x])", g)
    rec("type is tuple", isinstance(g, tuple))
    rec("result requires_grad", g[0].requires_grad)
    rec("result grad_fn", g[0].grad_fn)
    rec("w.grad untouched", w.grad)
    rec("x.grad untouched", x.grad)
    rec("grad(y, w) single input", B.grad(y, w, retain_graph=True))
    rec("grad(y, (x,)) tuple input", B.grad(y, (x,), retain_graph=True))
    rec("grad(y, a) w.r.t. a non-leaf", B.grad(y, a, retain_graph=True))
    rec("a.grad after grad() (no retain: warns)", a.grad)
    rec("grad(y, [w, w])", B.grad(y, [w, w], retain_graph=True))
    rec("grad(y, [w], grad_outputs=[10.0])", B.grad(y, [w], grad_outputs=[B.value(10.0)]))
    rec("after freeing", lambda: B.grad(y, [w]))

    y1 = w * x
    y2 = w.sin()
    rec("grad([y1, y2], [w, x])", B.grad([y1, y2], [w, x]))
    y3 = w * w
    rec("grad of a leaf w.r.t. itself", B.grad(w, w))
    rec("grad(y3, [w]) with outputs as list", B.grad([y3], [w]))
