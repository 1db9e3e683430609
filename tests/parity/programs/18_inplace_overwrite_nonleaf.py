"""zero_, fill_ and copy_ on a non-leaf: the old value's gradient path is cut."""


def run(B, rec):
    for text in ("zero_", "fill_", "copy_"):
        w = B.value(1.5, requires_grad=True)
        x = B.value(-0.75, requires_grad=True)
        b = w * x
        old = b.grad_fn
        if text == "zero_":
            b.zero_()
        elif text == "fill_":
            b.fill_(4.5)
        else:
            b.copy_(x * x)
        rec(f"{text}: b", b)
        rec(f"{text}: b.grad_fn", b.grad_fn)
        rec(f"{text}: b.grad_fn's next is the old MulBackward0", b.grad_fn.next_functions[0][0] is old)
        rec(f"{text}: b.requires_grad", b.requires_grad)
        rec(f"{text}: b.is_leaf", b.is_leaf)
        rec(f"{text}: _version", b._version)
        y = b * w + w
        y.backward()
        rec(f"{text}: w.grad", w.grad)
        rec(f"{text}: x.grad", x.grad)
    w = B.value(1.5, requires_grad=True)
    p = B.value(0.0)
    rec("plain.copy_(w)", lambda: p.copy_(w))
    rec("plain after copy_", p)
    rec("plain.requires_grad", p.requires_grad)
    rec("plain.is_leaf", p.is_leaf)
    rec("plain.grad_fn", p.grad_fn)
    (p * 3).backward()
    rec("w.grad through copy_", w.grad)
