"""A hook on a non-leaf sees its gradient once; observing does not store it."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.75, requires_grad=True)
    a = x + w
    b = w + 1
    y = a * b
    seen = {"a": [], "b": [], "y": []}
    handle = a.register_hook(lambda g: seen["a"].append(B.num(g)))
    b.register_hook(lambda g: seen["b"].append(B.num(g)))
    y.register_hook(lambda g: seen["y"].append(B.num(g)))
    rec("handle has remove()", callable(getattr(handle, "remove", None)))
    y.backward()
    rec("a hook saw", seen["a"])
    rec("b hook saw", seen["b"])
    rec("y hook saw", seen["y"])
    rec("a.grad (hook does not retain)", a.grad)
    rec("w.grad", w.grad)
    rec("x.grad", x.grad)

    types = []
    w2 = B.value(0.5, requires_grad=True)
    c = w2.exp()
    c.register_hook(lambda g: types.append((g.requires_grad, g.is_leaf, isinstance(g, B.value_type))))
    c.backward()
    rec("hook argument (requires_grad, is_leaf, is a value)", types)

    counts = []
    w3 = B.value(0.5, requires_grad=True)
    d = w3 * 2
    d.register_hook(lambda g: counts.append(B.num(g)))
    e = d * d + d
    e.backward()
    rec("hook on a node used twice runs once with the sum", counts)
    rec("w3.grad", w3.grad)
