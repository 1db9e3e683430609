"""A student's ``assert w.grad == 5`` checks the number, after a real backward."""


def run(B, rec):
    w = B.value(1.0, requires_grad=True)
    x = B.value(2.0, requires_grad=True)
    y = (x + w) * (w + 1)
    y.backward()

    def check_right():
        assert w.grad == 5
        assert x.grad == 2.0
        assert not (w.grad != 5)

    def check_wrong():
        assert w.grad == 4, "w.grad is not 4"

    rec("assert w.grad == 5", check_right)
    rec("assert w.grad == 4", check_wrong)
    rec("w.grad == 5 requires grad", (w.grad == 5).requires_grad)
    rec("w.grad == None", w.grad == None)  # noqa: E711 - torch falls back to identity
    rec("w.grad != None", w.grad != None)  # noqa: E711
    rec("x.grad is not None and x.grad > 1", x.grad is not None and bool(x.grad > 1))
    rec("w.grad == 'five'", w.grad == "five")
    rec("w.grad == [5]", w.grad == [5])
    rec("sorted", sorted([B.value(3.0), B.value(-1.0), B.value(2.0)]))
    rec("max of two", max(B.value(3.0), B.value(7.0)))
    rec("in a list (by value)", B.value(2.0) in [B.value(1.0), B.value(2.0)])
    rec("not in a list", B.value(9.0) in [B.value(1.0), B.value(2.0)])
    rec("if on a comparison", "yes" if w > 0.5 else "no")
