"""create_graph through compositions: node trees of first/second derivatives, backward(create_graph=True)."""


def tree(node, depth=4):
    if node is None:
        return "None"
    name = node.name().replace("torch::autograd::", "")
    if depth == 0 or not node.next_functions:
        return name
    return name + "(" + ", ".join(tree(n, depth - 1) for n, _ in node.next_functions) + ")"


def run(B, rec):
    fns = (
        ("tanh(sigmoid(w)) * w", lambda w, x: (w.sigmoid()).tanh() * w),
        ("relu(w * x) + w ** 2", lambda w, x: (w * x).relu() + w ** 2),
        ("sqrt(w * w + x) / x", lambda w, x: (w * w + x).sqrt() / x),
        ("w ** x * tanh(x)", lambda w, x: w ** x * x.tanh()),
        ("3 ** (w - x)", lambda w, x: 3 ** (w - x)),
        ("sigmoid(w) * sigmoid(-w) + relu(-x)", lambda w, x: w.sigmoid() * (-w).sigmoid() + (-x).relu()),
        ("exp(tanh(w * x)) ** 2", lambda w, x: (w * x).tanh().exp() ** 2),
        ("log(relu(w) + 1) * x", lambda w, x: (w.relu() + 1).log() * x),
    )
    for xw, xx in ((0.7, 1.3), (-0.4, 2.0), (1.5, -0.25)):
        for name, f in fns:
            w, x = B.value(xw, requires_grad=True), B.value(xx, requires_grad=True)
            gw, gx = B.grad(f(w, x), (w, x), create_graph=True, allow_unused=True, materialize_grads=True)
            key = f"{name} at ({xw}, {xx})"
            rec(f"{key}: grads", (gw, gx))
            rec(f"{key}: dw tree", tree(gw.grad_fn))
            rec(f"{key}: dx tree", tree(gx.grad_fn) if gx.grad_fn is not None else "leaf")
            if gw.requires_grad:
                h = B.grad(gw, (w, x), create_graph=True, allow_unused=True)
                rec(f"{key}: d2 by w", h)
                rec(f"{key}: d2 trees", tuple(tree(v.grad_fn, 2) if v is not None and v.grad_fn else str(v) for v in h))
    w = B.value(0.6, requires_grad=True)
    y = w.tanh() * w.sigmoid()
    (g,) = B.grad(y, w, create_graph=True)  # not backward(create_graph=True): torch warns about it once per process
    rec("grad(create_graph): tree", tree(g.grad_fn, 3))
    g.backward()
    rec("backward of the grad", w.grad)
    w = B.value(0.6, requires_grad=True)
    (g,) = B.grad(w.relu() * 2, w, create_graph=True)
    rec("relu' * 2 tree", tree(g.grad_fn))
    (h,) = B.grad(g, w)
    rec("relu'' * 2", h)
    w = B.value(2.0, requires_grad=True)
    (g,) = B.grad(w ** 2, w, create_graph=True)
    rec("square' tree", tree(g.grad_fn))
    (h,) = B.grad(g, w, create_graph=True)
    rec("square'' tree", tree(h.grad_fn))
    (k,) = B.grad(h, w, allow_unused=True)
    rec("square'''", k)
