"""grad()'s arguments: grad_outputs zipped with outputs, bare numbers refused, empty lists."""


def run(B, rec):
    w = B.value(2.0, requires_grad=True)
    cases = (
        ("more grad_outputs than outputs", lambda: B.grad(w * 3, w, grad_outputs=[B.value(1.0), B.value(2.0)])),
        ("fewer grad_outputs than outputs", lambda: B.grad([w * 3, w * 4], w, grad_outputs=[B.value(1.0)])),
        ("grad_outputs a float", lambda: B.grad(w * 3, w, grad_outputs=2.0)),
        ("grad_outputs [float]", lambda: B.grad(w * 3, w, grad_outputs=[2.0])),
        ("grad_outputs [None]", lambda: B.grad(w * 3, w, grad_outputs=[None])),
        ("grad_outputs a Value", lambda: B.grad(w * 3, w, grad_outputs=B.value(2.0))),
        ("grad_outputs (Value, None)", lambda: B.grad((w * 3, w * 5), w, grad_outputs=(B.value(2.0), None))),
        ("grad_outputs nested list", lambda: B.grad([w * 3], w, grad_outputs=[[B.value(2.0)]])),
        ("inputs a float", lambda: B.grad(w * 3, 2.0)),
        ("outputs a float", lambda: B.grad(2.0, w)),
        ("inputs []", lambda: B.grad(w * 3, [])),
        ("outputs []", lambda: B.grad([], w)),
        ("outputs [] allow_unused", lambda: B.grad([], w, allow_unused=True)),
        ("three outputs, two grad_outputs", lambda: B.grad([w, w * 2, w * 3], w, [B.value(1.0), B.value(1.0)])),
        ("grad_outputs requiring grad", lambda: B.grad(w * 3, w, B.value(2.0, requires_grad=True))),
        ("inputs tuple", lambda: B.grad(w * w, (w,))),
        ("same input twice", lambda: B.grad(w * w, [w, w])),
    )
    for label, call in cases:
        rec(label, call)
        rec(f"{label}: result", call() if not rec.entries[-1][1].startswith("error") else None)
