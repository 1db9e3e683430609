"""Hashing stays by identity; a comparison's result as torch's bool tensor: no grad, bool(), float(), int()."""


def run(B, rec):
    a, b = B.value(2.0, requires_grad=True), B.value(2.0)
    rec("hash is id", hash(a) == id(a))
    rec("set of two equal values", len({a, b}))
    rec("dict keyed by value", {a: "a", b: "b"}[b])
    r = a == 2
    rec("set requires_grad on a comparison", lambda: r.requires_grad_())
    rec("set requires_grad=False", lambda: r.requires_grad_(False))
    rec("backward of a comparison", lambda: r.backward())
    rec("float", float(r))
    rec("int", int(r))
    rec("format", f"{r}")
    rec("tolist", r.tolist())
    rec("eq method", a.eq(2))
    rec("ne method", a.ne(2))
    rec("lt method", a.lt(2.5))
    rec("ge method", a.ge(2.5))
    rec("module eq", B.eq(a, b))
    rec("module gt", B.gt(a, 1))
    rec("comparison of a grad-free value", B.value(3.0) <= 3)
    with B.no_grad():
        rec("under no_grad", a == 2)
