"""backward(inputs=...) accumulates only into the chosen values."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.75, requires_grad=True)
    z = B.value(0.25, requires_grad=True)
    a = x + w
    y = a * (w + 1)
    rec("inputs=[w]", lambda: y.backward(inputs=[w], retain_graph=True))
    rec("w.grad", w.grad)
    rec("x.grad", x.grad)
    rec("inputs=[x]", lambda: y.backward(inputs=[x], retain_graph=True))
    rec("w.grad unchanged", w.grad)
    rec("x.grad now", x.grad)
    rec("inputs=[a] (non-leaf)", lambda: y.backward(inputs=[a], retain_graph=True))
    rec("a.grad", a.grad)
    rec("a.retains_grad", a.retains_grad)
    rec("w.grad still", w.grad)
    rec("inputs=[]", lambda: y.backward(inputs=[], retain_graph=True))
    rec("inputs=[z] (not in graph)", lambda: y.backward(inputs=[z], retain_graph=True))
    rec("z.grad", z.grad)
    rec("inputs=w (a single value)", lambda: y.backward(inputs=w, retain_graph=True))
    rec("w.grad doubled", w.grad)
    rec("module backward(y, inputs=[x, w])", lambda: B.backward(y, inputs=[x, w]))
    rec("w.grad at end", w.grad)
    rec("x.grad at end", x.grad)
    rec("unused leaf: z.grad", z.grad)
