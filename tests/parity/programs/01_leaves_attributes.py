"""Leaves, is_leaf, requires_grad and grad_fn of a small graph, before and after backward."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.75, requires_grad=True)
    c = B.value(3.25)
    a = w + x
    b = w * c
    y = a * b
    named = {"w": w, "x": x, "c": c, "a": a, "b": b, "y": y}
    for when in ("before", "after"):
        for n, v in named.items():
            rec(f"{when}: {n}", v)
            rec(f"{when}: {n}.is_leaf", v.is_leaf)
            rec(f"{when}: {n}.requires_grad", v.requires_grad)
            rec(f"{when}: {n}.grad_fn", v.grad_fn)
        rec(f"{when}: w.grad", w.grad)
        rec(f"{when}: x.grad", x.grad)
        rec(f"{when}: c.grad", c.grad)
        if when == "before":
            rec("y.backward() returns", y.backward())
