"""The tutorials' loss, ``nn.MSELoss()(prediction, target)``, on one-element values of our own, given a value and
given a bare Python number (torch reads ``target.size()`` first, then the input's: a number has none), with each
reduction; then a two-step fit of ``w * x`` with the target as a value."""


def run(B, rec):
    nn = B.nn
    v = B.value(2.25, requires_grad=True)
    for name, f in (("MSELoss()(v, 0.5)", lambda: nn.MSELoss()(v, 0.5)),
                    ("MSELoss()(0.5, v)", lambda: nn.MSELoss()(0.5, v)),
                    ("MSELoss()(v, 1)", lambda: nn.MSELoss()(v, 1)),
                    ("MSELoss()(v, True)", lambda: nn.MSELoss()(v, True)),
                    ("MSELoss()(0.5, 1.5)", lambda: nn.MSELoss()(0.5, 1.5)),
                    ("MSELoss(reduction='bad')(v, 0.5)", lambda: nn.MSELoss(reduction="bad")(v, 0.5)),
                    ("MSELoss(reduction='bad')(v, value)", lambda: nn.MSELoss(reduction="bad")(v, B.value(0.5)))):
        rec(name, f)
    for reduction in ("mean", "sum", "none"):
        loss = nn.MSELoss(reduction=reduction)(v, B.value(-0.75))
        rec(f"{reduction}: loss", (loss, loss.grad_fn, loss.grad_fn.next_functions))
        v.grad = None
        loss.backward()
        rec(f"{reduction}: v.grad", v.grad)

    w = B.value(0.3, requires_grad=True)
    x, y = B.value(1.5), B.value(2.0)
    criterion = nn.MSELoss()
    opt = B.optim.SGD([w], lr=0.2)
    for step in range(2):
        loss = criterion(w * x, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        rec(f"fit step {step}", (loss, w, w.grad))
