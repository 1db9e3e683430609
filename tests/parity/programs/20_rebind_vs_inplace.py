"""a = a + 1 makes a new object; a += 1 changes the same object and bumps its version."""


def run(B, rec):
    a = B.value(1.75)
    ident = id(a)
    a = a + 1
    rec("a = a + 1: same id", id(a) == ident)
    rec("a._version after rebinding", a._version)
    ident = id(a)
    a += 1
    rec("a += 1: same id", id(a) == ident)
    rec("a._version after +=", a._version)
    a -= 0.5
    a *= 2
    a /= 4
    rec("a._version after -= *= /=", a._version)
    rec("a", a)

    w = B.value(0.5, requires_grad=True)
    b = w * 3
    ident = id(b)
    rec("b.grad_fn before +=", b.grad_fn)
    b += 1
    rec("b += 1: same id", id(b) == ident)
    rec("b.grad_fn after +=", b.grad_fn)
    b = b + 1
    rec("b = b + 1: same id", id(b) == ident)
    rec("b.grad_fn after rebinding", b.grad_fn)
    rec("b._version after rebinding", b._version)
    b.backward()
    rec("w.grad", w.grad)

    w = B.value(0.5, requires_grad=True)
    r = w
    r = r + 1
    rec("rebinding a name for a leaf: w untouched", w)
    rec("w.is_leaf", w.is_leaf)
    rec("r.is_leaf", r.is_leaf)
