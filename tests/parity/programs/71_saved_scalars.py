"""Numbers a node keeps as torch's Scalars: shown as given (an int stays an int), readable after freeing.

``pow``'s number exponent, ``add``/``sub``'s alpha and ``clamp``'s number bounds
are not saved tensors in torch: a freeing backward leaves them, while the saved
tensors beside them raise the "backward through the graph a second time" error.
"""


def attempt(f):
    """The value ``f`` returns (recorded as it is: an int stays an int), or the error it raised."""
    try:
        return f()
    except Exception as exc:  # noqa: BLE001 - the error is the observation
        return f"error: {type(exc).__name__}"


def run(B, rec):
    w = B.value(2.0, requires_grad=True)
    for name, make in (
        ("w ** 2", lambda: w ** 2), ("w ** -3", lambda: w ** -3), ("w ** 2.0", lambda: w ** 2.0),
        ("w ** 0", lambda: w ** 0), ("w ** 0.5", lambda: w ** 0.5), ("w.square()", lambda: w.square()),
    ):
        y = make()
        rec(f"{name}: exponent", attempt(lambda: y.grad_fn._saved_exponent))
        rec(f"{name}: node", y.grad_fn)
        rec(f"{name}: value", y)
        y.backward()
        rec(f"{name}: exponent after backward", attempt(lambda: y.grad_fn._saved_exponent))
        rec(f"{name}: self after backward", attempt(lambda: y.grad_fn._saved_self))
    w.grad = None
    for name, make in (
        ("clamp(0, 1)", lambda: w.clamp(0, 1)), ("clamp(-1.5, 3)", lambda: w.clamp(-1.5, 3)),
        ("clamp(min=1)", lambda: w.clamp(min=1)), ("clamp(max=5)", lambda: w.clamp(max=5)),
        ("clamp(3, 4)", lambda: w.clamp(3, 4)), ("clamp(min=2.5)", lambda: w.clamp(min=2.5)),
    ):
        y = make()
        rec(f"{name}: bounds", attempt(lambda: (getattr(y.grad_fn, "_saved_min", "-"), getattr(y.grad_fn, "_saved_max", "-"))))
        rec(f"{name}: value", y)
        y.backward()
        rec(f"{name}: bounds after backward",
            attempt(lambda: (getattr(y.grad_fn, "_saved_min", "-"), getattr(y.grad_fn, "_saved_max", "-"))))
        rec(f"{name}: self after backward", attempt(lambda: y.grad_fn._saved_self))
        rec(f"{name}: w.grad", w.grad)
        w.grad = None
    x = B.value(-1.0, requires_grad=True)
    for name, make in (
        ("add alpha 3", lambda: B.add(w, x * 1, alpha=3)), ("sub alpha 2", lambda: B.sub(w, x * 1, alpha=2)),
        ("add alpha 0.5", lambda: B.add(w, x * 1, alpha=0.5)), ("w + x", lambda: w + x),
    ):
        y = make()
        rec(f"{name}: alpha", attempt(lambda: y.grad_fn._saved_alpha))
        y.backward()
        rec(f"{name}: alpha after backward", attempt(lambda: y.grad_fn._saved_alpha))
        rec(f"{name}: grads", (w.grad, x.grad))
        w.grad = x.grad = None
    v = B.value(3.0, requires_grad=True)
    y = (v * v) ** 2
    y.backward(retain_graph=True)
    rec("retained: exponent", attempt(lambda: y.grad_fn._saved_exponent))
    y.backward()
    rec("second backward freed: exponent", attempt(lambda: y.grad_fn._saved_exponent))
    rec("second backward freed: self", attempt(lambda: y.grad_fn._saved_self))
    rec("v.grad", v.grad)
