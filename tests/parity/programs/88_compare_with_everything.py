"""==, !=, <, <=, >, >= of a Value with ints, floats, bools, nan, inf, other Values and bool Values, both sides; bool() of the result, hashing by identity, sets, dicts, sorted/max builtins, and/not, isclose/allclose."""


def run(B, rec0):
    def rec(k, v):
        r = rec0(k, v)
        if callable(v) and not hasattr(v, "item") and r is not None:
            rec0(k + " =", r)
        return r
    w = B.value(3.0, requires_grad=True)
    x = B.value(3.0)
    y = w * 2
    others = {"3": 3, "3.0": 3.0, "2.5": 2.5, "True": True, "False": False, "x": x, "w": w, "y": y, "nan": float("nan"), "Value(nan)": B.value(float("nan")), "inf": float("inf"), "Value(1)>0": B.value(1.0) > 0}
    ops = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}
    for on, op in ops.items():
        for ln, o in others.items():
            def go(op=op, o=o):
                r = op(w, o)
                return (r, r.requires_grad, bool(r), r.is_leaf, r.grad_fn, r.item())
            rec(f"w {on} {ln}", go)
            def go2(op=op, o=o):
                r = op(o, y)
                return (r, r.requires_grad, bool(r), r.item())
            rec(f"{ln} {on} y ({on})", go2)
    rec("w == None", lambda: w == None)  # noqa
    rec("w != None", lambda: w != None)  # noqa
    rec("w == 'a'", lambda: w == "a")
    rec("w != 'a'", lambda: w != "a")
    rec("w == [3.0]", lambda: w == [3.0])
    rec("w in [x]", lambda: w in [x])
    rec("w in [4.0, 3.0]", lambda: w in [4.0, 3.0])
    rec("3.0 in [w]", lambda: 3.0 in [w])
    rec("hash", lambda: hash(w) == id(w))
    rec("set", lambda: len({w, x, w, y}))
    rec("dict", lambda: {w: 1, x: 2}[w])
    rec("dict x lookup by equal", lambda: {w: 1}.get(x, "missing"))
    rec("list index", lambda: [x, w].index(w))
    rec("list count", lambda: [x, w, y].count(w))
    rec("sorted", lambda: [v.item() for v in sorted([y, w, B.value(-1.0)])])
    rec("max builtin", lambda: max([B.value(1.0), B.value(5.0), B.value(2.0)]))
    rec("min builtin with rg", lambda: min([w, y]))
    rec("cmp not", lambda: not (w == 3))
    rec("cmp and", lambda: (w == 3) and (w > 2))
    rec("cmp float", lambda: float(w == 3))
    rec("cmp int", lambda: int(w == 3))
    rec("cmp == True", lambda: (w == 3) == True)  # noqa
    rec("cmp == 1", lambda: (w == 3) == 1)
    rec("cmp requires_grad_", lambda: (w == 3).requires_grad_())
    rec("cmp backward", lambda: (w == 3).backward())
    rec("cmp item type", lambda: type((w == 3).item()).__name__)
    rec("cmp tolist type", lambda: type((w == 3).tolist()).__name__)
    rec("eq fn", lambda: B.eq(w, 3))
    rec("eq fn 2 scalars?", lambda: B.eq(w, x))
    rec("lt fn", lambda: B.lt(w, 4.0))
    rec("method eq", lambda: w.eq(3))
    rec("method ne", lambda: w.ne(x))
    rec("method lt", lambda: w.lt(5))
    rec("method le gt ge", lambda: (w.le(3), w.gt(3), w.ge(3)))
    rec("equal", lambda: w.equal(x))
    rec("allclose", lambda: w.allclose(x))
    rec("isclose", lambda: w.isclose(x))
    rec("grad compare", lambda: None)
    (w * 5).backward()
    rec("assert w.grad == 5", lambda: bool(w.grad == 5))
    rec("w.grad == 5.0000001", lambda: bool(w.grad == 5.0000001))
    rec("w.grad is 5", w.grad.item() == 5)
    rec("compare under no_grad", lambda: None)
    with B.no_grad():
        r = w > 1
    rec("no_grad compare", (r, r.requires_grad))
    rec("comparison version", (w == 3)._version)
    rec("bool of value raises?", lambda: bool(w))
    rec("bool of zero", lambda: bool(B.value(0.0)))
    rec("bool of nan", lambda: bool(B.value(float("nan"))))
    rec("bool of -0", lambda: bool(B.value(-0.0)))
    rec("if y", lambda: "yes" if y else "no")
