"""The notes' in-place correctness checks meeting grad modes, on values of our own: a non-leaf changed
in place under ``no_grad`` keeps its ``grad_fn`` but its version moves (a node that saved it then
refuses), ``retain_grad`` and a hook on a value changed in place, an in-place op on a value made under
``no_grad`` and then one that needs a gradient, and ``set_grad_enabled(False)`` around ``add_``."""


def run(B, rec):
    log = []
    w = B.value(0.6, requires_grad=True)
    y = w * 3
    s = y * y
    with B.no_grad():
        y.mul_(2)
    rec("y.mul_(2) under no_grad: y, node, version", (y, y.grad_fn, y._version, y.requires_grad))
    rec("the square that saved y", lambda: s.backward())
    t = y + 1
    t.backward()
    rec("a sum through y: w.grad", w.grad)
    w.grad = None

    y = w.sin()
    y.retain_grad()
    y.register_hook(lambda g: log.append(("hook before", round(g.item(), 9))))
    y.add_(1)
    y.register_hook(lambda g: log.append(("hook after", round(g.item(), 9))))
    rec("after add_: retains_grad, node", (y.retains_grad, y.grad_fn))
    (y * y).backward()
    rec("retain_grad follows the value: y.grad", y.grad)
    rec("hooks", [str(e) for e in log])
    rec("w.grad", w.grad)
    w.grad = None

    with B.no_grad():
        c = w * 2
    rec("made under no_grad", (c.requires_grad, c.is_leaf))
    c.mul_(w)
    rec("then c.mul_(w)", (c, c.requires_grad, c.is_leaf, c.grad_fn, c._version))
    c.backward()
    rec("its backward: w.grad", w.grad)
    w.grad = None

    u = w * 1
    with B.set_grad_enabled(False):
        u.add_(w)
    rec("add_(w) with grad disabled", (u, u.grad_fn, u._version))
    u.backward()
    rec("add_ with grad disabled, backward: w.grad", w.grad)
