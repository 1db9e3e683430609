"""optim.SGD's state a student looks at, on values of our own: param_groups' keys and params, the momentum
buffer in opt.state, zero_grad(set_to_none=False) of a gradient built with create_graph, and a step whose
gradient requires grad."""


def run(B, rec):
    a = B.value(0.6, requires_grad=True)
    b = B.value(-0.3, requires_grad=True)
    opt = B.optim.SGD([a, b], lr=0.1, momentum=0.5)
    group = opt.param_groups[0]
    rec("group keys", sorted(k for k in group if k in ("params", "lr", "momentum", "dampening", "weight_decay", "nesterov")))
    rec("group values", (group["lr"], group["momentum"], group["dampening"], group["weight_decay"], group["nesterov"]))
    rec("group params", group["params"])
    plain = B.optim.SGD([a]).param_groups[0]
    rec("default group values", (plain["lr"], plain["momentum"], plain["dampening"], plain["weight_decay"]))
    rec("state before a step", len(opt.state))
    (a * b).backward()
    opt.step()
    rec("state after a step", len(opt.state))
    rec("momentum buffer of a", opt.state[a]["momentum_buffer"])
    rec("a, b", (a, b))
    (g,) = B.grad(a * a * a, a, create_graph=True)
    a.grad = g
    rec("a.grad requires grad", (a.grad.requires_grad, a.grad.grad_fn))
    opt.step()
    rec("a after a step with such a grad", (a, a.requires_grad, a.is_leaf))
    opt.zero_grad(set_to_none=False)
    rec("zeroed in place", (a.grad, a.grad.requires_grad, a.grad.grad_fn, b.grad))
