"""register_hook on a value that needs no grad is an error."""


def run(B, rec):
    p = B.value(0.5)
    rec("hook on a plain value", lambda: p.register_hook(lambda g: g))
    k = p * 2
    rec("hook on a constant result", lambda: k.register_hook(lambda g: g))
    w = B.value(0.5, requires_grad=True)
    rec("hook on w.detach()", lambda: w.detach().register_hook(lambda g: g))
    with B.no_grad():
        n = w * 2
    rec("hook on a no_grad result", lambda: n.register_hook(lambda g: g))
    rec("hook on a grad leaf", lambda: w.register_hook(lambda g: g))
