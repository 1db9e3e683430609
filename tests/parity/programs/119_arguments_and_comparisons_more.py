"""More argument checking and comparisons on combinations not covered before: gradients of the wrong
kind or count, flags given as numbers/strings/Values, inputs that do not require grad or repeat, hooks
that are not callable; comparisons of int/bool/float Values with each other and with numbers, chained."""

import math

from parity.helpers import attempt


def run(B, rec):
    w = B.value(2.0, requires_grad=True)
    x = B.value(-1.0, requires_grad=True)
    c = B.value(3.0)
    count = (c > 0).sum() + 1
    flag = c > 0

    def fresh():
        return w * x

    for label, f in {
        "backward(int Value)": lambda: fresh().backward(count), "backward(bool Value)": lambda: fresh().backward(flag),
        "backward(Value that requires grad)": lambda: fresh().backward(w),
        "backward(gradient=None) twice": lambda: (fresh().backward(None), w.grad)[1],
        "backward(retain_graph=0)": lambda: fresh().backward(retain_graph=0),
        "backward(retain_graph=None)": lambda: fresh().backward(retain_graph=None),
        "backward(create_graph='yes')": lambda: fresh().backward(create_graph="yes"),
        "backward(inputs=())": lambda: fresh().backward(inputs=()), "backward(inputs=[])": lambda: fresh().backward(inputs=[]),
        "backward(inputs=[c])": lambda: fresh().backward(inputs=[c]), "backward(inputs=c)": lambda: fresh().backward(inputs=c),
        "backward(inputs=[w, w])": lambda: fresh().backward(inputs=[w, w]),
        "backward(inputs=[2.0])": lambda: fresh().backward(inputs=[2.0]),
        "c.backward()": lambda: c.backward(), "count.backward()": lambda: count.backward(),
        "grad(y, c)": lambda: B.grad(fresh(), c), "grad(y, [])": lambda: B.grad(fresh(), []),
        "grad(y, ())": lambda: B.grad(fresh(), ()), "grad([], w)": lambda: B.grad([], w),
        "grad(y, w, grad_outputs=[])": lambda: B.grad(fresh(), w, grad_outputs=[]),
        "grad(y, w, grad_outputs=count)": lambda: B.grad(fresh(), w, grad_outputs=count),
        "grad(y, w, grad_outputs=2)": lambda: B.grad(fresh(), w, grad_outputs=2),
        "grad([y, y], w, grad_outputs=[None, c])": lambda: B.grad([fresh(), fresh()], w, grad_outputs=[None, c]),
        "grad([y, y], w, grad_outputs=[c])": lambda: B.grad([fresh(), fresh()], w, grad_outputs=[c]),
        "grad(y, w, allow_unused=1)": lambda: B.grad(fresh(), w, allow_unused=1),
        "grad(y, w, retain_graph='x')": lambda: B.grad(fresh(), w, retain_graph="x"),
        "grad(y, (w, x, w))": lambda: B.grad(fresh(), (w, x, w)),
        "grad(y, w, materialize_grads=True)": lambda: B.grad(fresh(), w, materialize_grads=True),
        "grad(w, w)": lambda: B.grad(w, w), "grad(w * 0, x, allow_unused=True)": lambda: B.grad(w * 0, x, allow_unused=True),
        "register_hook(None)": lambda: (fresh().register_hook(None), "registered")[1],
        "register_hook(None) then backward": lambda: _hooked(fresh(), None),
        "register_hook(3) then backward": lambda: _hooked(fresh(), 3),
        "c.register_hook": lambda: c.register_hook(lambda g: g), "count.register_hook": lambda: count.register_hook(lambda g: g),
        "count.requires_grad_()": lambda: count.requires_grad_(), "flag.requires_grad_(False)": lambda: flag.requires_grad_(False),
        "Value(True)": lambda: (B.value(True), B.value(True).dtype is w.dtype),
        "Value(nan, requires_grad)": lambda: B.value(math.nan, requires_grad=True),
        "y.requires_grad_(False)": lambda: fresh().requires_grad_(False), "y.requires_grad_(True)": lambda: fresh().requires_grad_(True),
        "w.detach_()": lambda: B.value(1.0, requires_grad=True).detach_(),
        "y.retain_grad() twice": lambda: _retain_twice(fresh()),
    }.items():
        rec(label, attempt(f))

    vals = {"w": w, "c": c, "count": count, "flag": flag, "3": 3, "3.0": 3.0, "True": True, "nan": math.nan, "-inf": -math.inf}
    for ln, a in vals.items():
        for rn, b in vals.items():
            if isinstance(a, (int, float)) and isinstance(b, (int, float)):
                continue
            for on, op in {"==": lambda p, q: p == q, "<": lambda p, q: p < q, ">=": lambda p, q: p >= q}.items():
                rec(f"{ln} {on} {rn}", attempt(lambda: _cmp(op(a, b))))
    rec("0 < w < 3", attempt(lambda: _cmp(0 < w < 3)))
    rec("c == c == c", attempt(lambda: _cmp(c == c == c)))
    rec("count == 2 and flag", attempt(lambda: bool(count == 2 and flag)))
    rec("w.grad == value after backward", attempt(lambda: _cmp(w.grad == w.grad.item())))
    rec("max(count, 1)", attempt(lambda: max(count, 1)))
    rec("min(w, x)", attempt(lambda: min(w, x)))
    rec("sum of comparisons", attempt(lambda: sum([w > 0, x > 0, c > 0])))
    rec("count in [2]", attempt(lambda: count in [2]))


def _cmp(r):
    if not hasattr(r, "item"):
        return ("plain", r)
    return (r, type(r.item()).__name__, r.requires_grad, str(r.dtype), bool(r))


def _hooked(y, hook):
    y.register_hook(hook)
    y.backward()
    return "ran"


def _retain_twice(y):
    y.retain_grad()
    y.retain_grad()
    y.backward()
    return y.grad
