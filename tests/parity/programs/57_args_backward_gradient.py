"""backward()'s gradient argument: a Value or None, never a bare number; torch's keyword names."""


def run(B, rec):
    w = B.value(2.0, requires_grad=True)
    for label, g in (("float", 2.0), ("int", 2), ("bool", True), ("str", "a"), ("None", None),
                     ("Value", B.value(0.5)), ("[Value]", [B.value(3.0)]), ("(Value,)", (B.value(3.0),)),
                     ("[float]", [2.0]), ("[None]", [None]), ("[Value, Value]", [B.value(1.0), B.value(4.0)]),
                     ("[]", []), ("grad-requiring Value", B.value(2.0, requires_grad=True))):
        w.grad = None
        rec(f"y.backward({label})", lambda: (w * 3).backward(g))
        rec(f"y.backward({label}): w.grad", w.grad)
        w.grad = None
        rec(f"B.backward(y, {label})", lambda: B.backward(w * 5, g))
        rec(f"B.backward(y, {label}): w.grad", w.grad)
    w.grad = None
    rec("grad_tensors keyword", lambda: B.backward(w * 3, grad_tensors=B.value(2.0)))
    rec("grad_tensors keyword: w.grad", w.grad)
    rec("gradient keyword on the module function", lambda: B.backward(w * 3, gradient=B.value(2.0)))
    rec("gradient keyword on the method", lambda: (w * 3).backward(gradient=B.value(0.25)))
    rec("two outputs, one gradient", lambda: B.backward([w * 3, w * 4], [B.value(1.0)]))
    rec("two outputs, float gradients", lambda: B.backward([w * 3, w * 4], [1.0, 1.0]))
    w.grad = None
    rec("one output, two gradients", lambda: B.backward([w * 3], [B.value(1.0), B.value(7.0)]))
    rec("one output, two gradients: w.grad", w.grad)
    rec("tensors is a float", lambda: B.backward(2.0))
    rec("tensors is an empty list", lambda: B.backward([]))
    rec("tensors does not require grad", lambda: B.backward(B.value(1.0)))
    w.grad = None
    rec("tuple of outputs and gradients", lambda: B.backward((w * 3, w * 4), (B.value(1.0), None)))
    rec("tuple: w.grad", w.grad)
