"""Calls in the wrong order, on values of our own: a hook or retain_grad after backward, backward
before any graph, backward of a leaf, of a constant, twice on a leaf, grad of a value that is not
in the graph, .grad of a non-leaf read through several spellings."""


def run(B, rec):
    w = B.value(-1.25, requires_grad=True)
    c = B.value(0.4)
    rec("c.backward() (no grad)", lambda: c.backward())
    rec("w.backward() on a leaf", lambda: w.backward())
    rec("w.grad after leaf backward", w.grad)
    rec("w.backward() again", lambda: w.backward())
    rec("w.grad after second leaf backward", w.grad)
    w.grad = None
    y = w * w * 3 - w
    y.backward(retain_graph=True)
    rec("y.retain_grad() after backward", lambda: y.retain_grad())
    rec("y.grad after late retain_grad", y.grad)
    seen = []
    rec("y.register_hook after backward", lambda: y.register_hook(lambda g: seen.append(g.item())))
    y.backward()
    rec("late hook saw", list(seen))
    rec("y.grad after next backward", y.grad)
    rec("w.grad", w.grad)
    u = B.value(2.5, requires_grad=True)
    rec("grad(y, u) not in graph", lambda: B.grad(w * 2, u))
    rec("grad(y, u) allow_unused", B.grad(w * 2, u, allow_unused=True))
    rec("grad(y, u) materialize", lambda: B.grad(w * 2, u, materialize_grads=True))
    rec("grad(y, u) allow_unused=False materialize", lambda: B.grad(w * 2, u, allow_unused=False, materialize_grads=True))
    rec("grad(y, c) constant input", lambda: B.grad(w * 2, c))
    rec("grad(c, w) constant output", lambda: B.grad(c, w))
    rec("grad(w, w) leaf on itself", B.grad(w, w))
    rec("grad(w * 0, w)", B.grad(w * 0, w))
    z = w.exp()
    rec("z.grad before backward", z.grad)
    rec("z.grad is None", z.grad is None)
    z.backward()
    rec("z.grad after backward", z.grad)
    rec("z.retains_grad", z.retains_grad)
    rec("w.retains_grad", w.retains_grad)
    rec("w.retain_grad() on a leaf", lambda: w.retain_grad())
    rec("c.retain_grad() on a constant", lambda: c.retain_grad())
    rec("c.register_hook on a constant", lambda: c.register_hook(lambda g: g))
    rec("c.register_post_accumulate_grad_hook", lambda: c.register_post_accumulate_grad_hook(lambda p: None))
    rec("z.register_post_accumulate_grad_hook (non-leaf)", lambda: z.register_post_accumulate_grad_hook(lambda p: None))
