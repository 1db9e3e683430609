"""optim.SGD as the tutorials use it, on values of our own, and a student's slips: a step before any
backward, zero_grad's default and set_to_none=False, momentum over steps, weight decay, bad
hyper-parameters, a non-leaf or a number among the parameters, the same leaf twice, lr changed
through param_groups, and step() under no_grad or inside a closure-free loop."""


def run(B, rec):
    SGD = B.optim.SGD
    a = B.value(0.3, requires_grad=True)
    b = B.value(-1.1, requires_grad=True)
    opt = SGD([a, b], lr=0.2)
    opt.step()
    rec("step before any backward", (a, b, a._version))
    loss = (a * 2.0 - b) ** 2 + b * a
    loss.backward()
    opt.step()
    rec("after one step", (a, b, a._version, b._version, a.is_leaf, a.requires_grad))
    rec("grads kept after step", (a.grad, b.grad))
    opt.zero_grad()
    rec("zero_grad default", (a.grad, b.grad))
    ((a - 0.5) ** 2).backward()
    opt.zero_grad(set_to_none=False)
    rec("zero_grad(set_to_none=False)", (a.grad, b.grad))
    rec("param_groups lr", opt.param_groups[0]["lr"])
    opt.param_groups[0]["lr"] = 0.05
    ((a - 0.5) ** 2).backward()
    opt.step()
    rec("after lr change", (a, b))

    c = B.value(1.6, requires_grad=True)
    mom = SGD([c], lr=0.1, momentum=0.9)
    for i in range(3):
        mom.zero_grad()
        (c * c * c).backward()
        mom.step()
        rec(f"momentum step {i}", (c, c.grad))
    d = B.value(-0.7, requires_grad=True)
    wd = SGD([d], lr=0.25, weight_decay=0.1, momentum=0.5, dampening=0.2)
    for i in range(2):
        wd.zero_grad()
        d.sin().backward()
        wd.step()
        rec(f"weight decay + dampening step {i}", d)
    n = B.value(0.9, requires_grad=True)
    nest = SGD([n], lr=0.1, momentum=0.8, nesterov=True)
    for i in range(2):
        nest.zero_grad()
        (n.exp() - n).backward()
        nest.step()
        rec(f"nesterov step {i}", n)

    rec("SGD(lr=-0.1)", lambda: SGD([a], lr=-0.1))
    rec("SGD(momentum=-1)", lambda: SGD([a], lr=0.1, momentum=-1.0))
    rec("SGD(weight_decay=-1)", lambda: SGD([a], lr=0.1, weight_decay=-1.0))
    rec("SGD(nesterov without momentum)", lambda: SGD([a], lr=0.1, nesterov=True))
    rec("SGD(nesterov with dampening)", lambda: SGD([a], lr=0.1, momentum=0.9, dampening=0.1, nesterov=True))
    rec("SGD([])", lambda: SGD([], lr=0.1))
    rec("SGD(a)", lambda: SGD(a, lr=0.1))
    rec("SGD([a * 2])", lambda: SGD([a * 2], lr=0.1))
    rec("SGD([0.5])", lambda: SGD([0.5], lr=0.1))
    twice = rec("SGD([a, a])", lambda: SGD([a, a], lr=0.1))
    a.grad = None
    (a * 3).backward()
    twice.step()
    rec("a stepped by a duplicated group", (a, a._version))
    rec("SGD default lr", SGD([a]).param_groups[0]["lr"])
    e = B.value(2.0)
    frozen = SGD([e], lr=0.1)
    frozen.step()
    rec("a leaf that does not require grad", (e, e._version))
