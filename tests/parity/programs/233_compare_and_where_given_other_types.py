"""Comparisons, allclose and where as a student calls them (methods and torch's functions), given numbers,
values and things that are neither, on values of our own: the named methods and functions refuse a
non-number with torch's TypeError (the operators leave it to Python: ``==`` is False, ``<`` a TypeError);
``torch.lt(0.25, v)`` refuses a number first, unlike ``torch.add``; ``allclose`` names itself."""


def run(B, rec):
    a = B.value(-0.35, requires_grad=True)
    c = a < 0
    for name, other in (("a number", 0.5), ("an int", -1), ("a value", B.value(-0.35)), ("None", None),
                        ("a string", "x"), ("a list", [0.5])):
        rec(f"a.eq({name})", lambda: bool(a.eq(other)))
        rec(f"a.lt({name})", lambda: bool(a.lt(other)))
        rec(f"a.ge({name})", lambda: bool(a.ge(other)))
        rec(f"torch.ne(a, {name})", lambda: bool(B.ne(a, other)))
        rec(f"torch.gt(a, {name})", lambda: bool(B.gt(a, other)))
        rec(f"a == {name}", lambda: bool(a == other))
        rec(f"a != {name}", lambda: bool(a != other))
        rec(f"a <= {name}", lambda: bool(a <= other))
        rec(f"a.allclose({name})", lambda: a.allclose(other))
        rec(f"a.isclose({name})", lambda: bool(a.isclose(other)))
        rec(f"a.equal({name})", lambda: a.equal(other))
        rec(f"a.where(c, {name})", lambda: a.where(c, other))
        rec(f"torch.where(c, a, {name})", lambda: B.where(c, a, other))
        rec(f"torch.where(c, {name}, a)", lambda: B.where(c, other, a))
        rec(f"a.pow({name})", lambda: a.pow(other))
        rec(f"a.detach().fill_({name})", lambda: a.detach().fill_(other))
    rec("torch.lt(0.25, a)", lambda: B.lt(0.25, a))
    rec("torch.eq(None, a)", lambda: B.eq(None, a))
    rec("torch.add(0.25, a)", lambda: B.add(0.25, a))
    rec("torch.where(c, 1.5, -2.0)", lambda: B.where(c, 1.5, -2.0))
    out = B.where(c, a * 2, 0.0)
    out.backward()
    rec("where with a number: grad", (out, out.grad_fn, a.grad))
