"""Unused and non-grad inputs of grad(); allow_unused and materialize_grads."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    z = B.value(-2.25, requires_grad=True)
    t = B.value(0.5)
    y = w * 3
    rec("grad(y, [w, z])", lambda: B.grad(y, [w, z], retain_graph=True))
    rec("grad(y, [z, w])", lambda: B.grad(y, [z, w], retain_graph=True))
    rec("allow_unused", B.grad(y, [w, z], retain_graph=True, allow_unused=True))
    rec("allow_unused + materialize_grads",
        B.grad(y, [w, z], retain_graph=True, allow_unused=True, materialize_grads=True))
    rec("materialize_grads alone", B.grad(y, [z, w], retain_graph=True, materialize_grads=True))
    rec("grad(y, [w, t]) t needs no grad", lambda: B.grad(y, [w, t], retain_graph=True))
    rec("grad(y, [t]) allow_unused", lambda: B.grad(y, [t], retain_graph=True, allow_unused=True))
    rec("grad(y, z) single unused", lambda: B.grad(y, z, retain_graph=True))
    rec("grad(y, z, allow_unused)", B.grad(y, z, allow_unused=True, retain_graph=True))
    a = z * 2
    rec("grad(y, [a]) non-leaf not on the path", lambda: B.grad(y, [a], retain_graph=True))
    rec("w.grad", w.grad)
    rec("z.grad", z.grad)
    y.backward()
    rec("w.grad after backward", w.grad)
    rec("z.grad (unused leaf, no warning)", z.grad)
