"""Comparisons give a bool value that does not require grad, compared by data."""


def run(B, rec):
    for x, k in ((5.0, 5), (5.0, 5.0), (2.5, 3), (-0.0, 0.0), (float("nan"), float("nan")), (float("inf"), 1e308)):
        w = B.value(x, requires_grad=True)
        for name, fn in (("==", lambda: w == k), ("!=", lambda: w != k), ("<", lambda: w < k),
                         ("<=", lambda: w <= k), (">", lambda: w > k), (">=", lambda: w >= k)):
            r = fn()
            rec(f"{x} {name} {k}", r)
            rec(f"{x} {name} {k}: requires_grad", r.requires_grad)
            rec(f"{x} {name} {k}: grad_fn", r.grad_fn)
            rec(f"{x} {name} {k}: is_leaf", r.is_leaf)
            rec(f"{x} {name} {k}: bool", bool(r))
            rec(f"{x} {name} {k}: item", r.item())
    rec("number on the left", 5 == B.value(5.0))
    rec("reflected <", 6 > B.value(5.0, requires_grad=True))
    a, b = B.value(1.5, requires_grad=True), B.value(1.5)
    rec("value == value", a == b)
    rec("value != value", a != b)
    rec("value == itself", a == a)
    rec("w == True at 1", B.value(1.0) == True)  # noqa: E712 - the point of the test
    rec("w == True at 5", B.value(5.0) == True)  # noqa: E712
