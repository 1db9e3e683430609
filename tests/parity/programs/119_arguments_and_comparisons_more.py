"""More argument checking on combinations not covered before: gradients of the wrong kind or count, flags
given as numbers/strings/Values, inputs that do not require grad or repeat, hooks that are not callable."""

import math

from parity.helpers import attempt


def run(B, rec):
    w = B.value(2.0, requires_grad=True)
    x = B.value(-1.0, requires_grad=True)
    c = B.value(3.0)
    flag = c > 0

    def fresh():
        return w * x

    for label, f in {
        "backward(Value that requires grad)": lambda: fresh().backward(w),
        "backward(gradient=None): w.grad": lambda: (fresh().backward(None), w.grad)[1],
        "backward(retain_graph=0)": lambda: fresh().backward(retain_graph=0),
        "backward(retain_graph=None)": lambda: fresh().backward(retain_graph=None),
        "backward(create_graph='yes')": lambda: fresh().backward(create_graph="yes"),
        "backward(inputs=())": lambda: fresh().backward(inputs=()), "backward(inputs=[])": lambda: fresh().backward(inputs=[]),
        "backward(inputs=[c])": lambda: fresh().backward(inputs=[c]), "backward(inputs=c)": lambda: fresh().backward(inputs=c),
        "backward(inputs=[w, w])": lambda: fresh().backward(inputs=[w, w]),
        "backward(inputs=[2.0])": lambda: fresh().backward(inputs=[2.0]),
        "c.backward()": lambda: c.backward(),
        "grad(y, c)": lambda: B.grad(fresh(), c), "grad(y, [])": lambda: B.grad(fresh(), []),
        "grad(y, ())": lambda: B.grad(fresh(), ()), "grad([], w)": lambda: B.grad([], w),
        "grad(y, w, grad_outputs=[])": lambda: B.grad(fresh(), w, grad_outputs=[]),
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
        "c.register_hook": lambda: c.register_hook(lambda g: g),
        "flag.requires_grad_(False)": lambda: flag.requires_grad_(False),
        "Value(nan, requires_grad)": lambda: B.value(math.nan, requires_grad=True),
        "y.requires_grad_(False)": lambda: fresh().requires_grad_(False), "y.requires_grad_(True)": lambda: fresh().requires_grad_(True),
        "w.detach_()": lambda: B.value(1.0, requires_grad=True).detach_(),
        "y.retain_grad() twice": lambda: _retain_twice(fresh()),
    }.items():
        rec(label, attempt(f))

    rec("min(w, x)", attempt(lambda: min(w, x)))


def _hooked(y, hook):
    y.register_hook(hook)
    y.backward()
    return "ran"


def _retain_twice(y):
    y.retain_grad()
    y.retain_grad()
    y.backward()
    return y.grad
