"""What a student does with a value through Python's own functions, on values of our own: round(),
math functions, builtins max/min/sum/sorted/abs, divmod, `in`, truth tests, f-strings.  Conversions to a
Python number go through ``xd = x.detach()``: torch warns about converting a value that requires grad only
once per process, so this suite observes that warning where it first happens."""

import math


def run(B, rec):
    x = B.value(2.675, requires_grad=True)
    y = B.value(-1.25, requires_grad=True)
    xd, yd = x.detach(), y.detach()
    rec("round(x)", lambda: round(x))
    rec("round(x, 2)", lambda: round(x, 2))
    rec("round(x.item(), 2)", round(x.item(), 2))
    rec("math.floor(xd)", lambda: math.floor(xd))
    rec("math.sqrt(xd)", lambda: math.sqrt(xd))
    rec("math.isclose(xd, 2.675)", lambda: math.isclose(xd, 2.675))
    rec("abs(y)", abs(y))
    rec("abs(y).grad_fn", abs(y).grad_fn)
    rec("max(x, y)", max(x, y))
    rec("min(x, y) is y", min(x, y) is y)
    rec("sum([x, y])", sum([x, y]))
    rec("sum([x, y]).grad_fn", sum([x, y]).grad_fn)
    rec("sorted([x, y])", sorted([x, y]))
    rec("divmod(x, 2)", lambda: divmod(x, 2))
    rec("x in [2.675]", lambda: x in [2.675])
    rec("x in [y]", lambda: x in [y])
    rec("bool(y)", bool(y))
    rec("if x > y", "yes" if x > y else "no")
    rec("f'{x:.2f}'", lambda: f"{x:.2f}")
    rec("f'{x}' startswith", lambda: f"{x}"[:6])
    rec("'%.3f' % xd", lambda: "%.3f" % xd)
    rec("int(yd)", int(yd))
    rec("float(yd)", lambda: float(yd))
    rec("complex(xd)", lambda: complex(xd))
    rec("x.item() type", type(x.item()).__name__)
    rec("x.tolist()", x.tolist())
    rec("len(x)", lambda: len(x))
    rec("list(x)", lambda: list(x))
    rec("x[0]", lambda: x[0])
    rec("hash differs by object", hash(x) != hash(B.value(2.675)))
    rec("{x: 1}", lambda: {x: 1}[x])
