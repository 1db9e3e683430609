"""In-place on a non-leaf gives it a new grad_fn chained onto the old one."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.75, requires_grad=True)
    a = w + x
    old = a.grad_fn
    ident = id(a)
    rec("a._version before", a._version)
    rec("a.add_(1.25)", lambda: a.add_(1.25))
    rec("a", a)
    rec("a.grad_fn after add_", a.grad_fn)
    rec("a.grad_fn is old node", a.grad_fn is old)
    rec("len(next_functions)", len(a.grad_fn.next_functions))
    rec("new node's next_functions[0] is old node", a.grad_fn.next_functions[0][0] is old)
    rec("new node's next_functions[1]", a.grad_fn.next_functions[1][0])
    rec("a.is_leaf", a.is_leaf)
    rec("a.requires_grad", a.requires_grad)
    rec("a._version after", a._version)
    rec("same object", id(a) == ident)
    (a * 2).backward()
    rec("w.grad", w.grad)
    rec("x.grad", x.grad)

    cases = {
        "mul_(3)": lambda b, w: b.mul_(3),
        "mul_(w)": lambda b, w: b.mul_(w),
        "div_(-2.5)": lambda b, w: b.div_(-2.5),
        "div_(w)": lambda b, w: b.div_(w),
        "sub_(w)": lambda b, w: b.sub_(w),
        "sub_(0.5)": lambda b, w: b.sub_(0.5),
        "add_(w)": lambda b, w: b.add_(w),
        "+= w": lambda b, w: b.__iadd__(w),
        "-= 1": lambda b, w: b.__isub__(1),
        "*= w": lambda b, w: b.__imul__(w),
        "/= 4": lambda b, w: b.__itruediv__(4),
    }
    for text, op in cases.items():
        w = B.value(1.5, requires_grad=True)
        x = B.value(-0.75, requires_grad=True)
        b = w * x
        result = op(b, w)
        rec(f"{text}: returns self", result is b)
        rec(f"{text}: b", b)
        rec(f"{text}: grad_fn", b.grad_fn)
        rec(f"{text}: _version", b._version)
        b.backward()
        rec(f"{text}: w.grad", w.grad)
        rec(f"{text}: x.grad", x.grad)

    w = B.value(2.5, requires_grad=True)
    c = w * 1
    c.add_(1)
    c.mul_(B.value(-3.0))
    c.sub_(0.5)
    rec("chain c", c)
    rec("chain grad_fn", c.grad_fn)
    rec("chain _version", c._version)
    c.backward()
    rec("chain w.grad", w.grad)
