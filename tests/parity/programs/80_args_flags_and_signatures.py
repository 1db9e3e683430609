"""Flags read as torch reads them (an int passes, a float or a string is a TypeError), torch's
positions for backward()/grad() (grad_variables, only_inputs, is_grads_batched), inputs that are not
Values, outputs that are not Values, inputs as a dict, and a comparison where a bool is wanted."""


def run(B, rec):
    w = B.value(-0.75, requires_grad=True)
    x = B.value(1.5, requires_grad=True)
    flags = (("None", None), ("0", 0), ("1", 1), ("3", 3), ("1.0", 1.0), ("'no'", "no"), ("[]", []),
             ("bool Value", B.value(2.0) > 1), ("float Value", B.value(1.0)))
    for label, f in flags:
        w.grad = None
        rec(f"y.backward(retain_graph={label})", lambda: (w * x).backward(retain_graph=f))
        rec(f"y.backward(retain_graph={label}): w.grad", w.grad)
        for kw in ("retain_graph", "create_graph"):  # (backward(create_graph=True) warns once per process)
            rec(f"grad({kw}={label})", lambda: B.grad(w * x, [w], **{kw: f}))
            rec(f"grad({kw}={label}) requires grad", lambda: B.grad(w * x, [w], **{kw: f})[0].requires_grad)
        for kw in ("allow_unused", "materialize_grads"):
            rec(f"grad({kw}={label})", lambda: B.grad(w * 3, [w, x], **{kw: f}))
    y = w * x
    rec("retain_graph=1 keeps the graph", lambda: (y.backward(retain_graph=1), y.backward()))
    w.grad = None
    rec("grad_variables positional", lambda: B.backward(w * x, None, None, False, B.value(2.0)))
    rec("grad_variables: w.grad", w.grad)
    rec("grad_variables and grad_tensors", lambda: B.backward(w * x, B.value(1.0), grad_variables=B.value(2.0)))
    w.grad = None
    rec("inputs sixth positional", lambda: B.backward(w * x, None, None, False, None, [w]))
    rec("inputs sixth: grads", (w.grad, x.grad))
    w.grad = x.grad = None
    rec("inputs as a dict", lambda: B.backward(w * x, inputs={"w": w}))
    rec("inputs as a dict: grads", (w.grad, x.grad))
    rec("grad inputs as a dict", lambda: B.grad(w * x, {"a": w, "b": x}))
    r = B.grad(w * x, {"a": w, "b": x})
    rec("grad dict keys", sorted(r))
    rec("grad dict values", (r["a"], r["b"]))
    rec("backward inputs [float]", lambda: (w * x).backward(inputs=[2.0]))
    rec("backward inputs (w, None)", lambda: (w * x).backward(inputs=(w, None)))
    rec("grad inputs [w, 1]", lambda: B.grad(w * x, [w, 1]))
    rec("grad outputs [y, float]", lambda: B.grad([w * x, 2.0], w))
    rec("backward tensors [y, float]", lambda: B.backward([w * x, 2.0]))
    rec("backward tensors [y, None] with grads", lambda: B.backward([w * x, None], [None, None]))
    rec("grad only_inputs=False", lambda: B.grad(w * x, w, only_inputs=False))
    rec("grad only_inputs positional", lambda: B.grad(w * x, w, None, None, False, True, True))
    rec("grad allow_unused seventh", lambda: B.grad(w * 2, [w, x], None, None, False, True, True))
    rec("grad is_grads_batched", lambda: B.grad(w * x, w, is_grads_batched=True))
    rec("grad is_grads_batched=0", lambda: B.grad(w * x, w, is_grads_batched=0))
    rec("grad materialize_grads ninth", lambda: B.grad(w * 2, [w, x], None, None, False, True, None, False, True))
    d = B.value(1.0)
    rec("data = float", lambda: setattr(d, "data", 2.0))
    rec("data = None", lambda: setattr(d, "data", None))
    rec("requires_grad = comparison", lambda: setattr(d, "requires_grad", w > 0))
