"""nn.MSELoss and mse_loss on values of our own: each reduction's value, a second backward through the loss
(torch's node saves both operands, micrograph's ops save them too), a target that requires grad.  The loss's
``grad_fn`` is not observed: torch's is one ``MseLossBackward0`` node, micrograph's the last of its ops."""


def run(B, rec):
    nn = B.nn
    for reduction in ("mean", "sum", "none"):
        p = B.value(1.25, requires_grad=True)
        t = B.value(-0.5)
        loss = nn.MSELoss(reduction=reduction)(p, t)
        rec(f"{reduction}: loss", loss)
        rec(f"{reduction}: requires_grad, is_leaf", (loss.requires_grad, loss.is_leaf))
        loss.backward()
        rec(f"{reduction}: second backward", lambda: loss.backward())
    p = B.value(0.3, requires_grad=True)
    t = B.value(0.8, requires_grad=True)
    loss = nn.MSELoss()(p, t)
    loss.backward()
    rec("target requires grad: grads", (p.grad, t.grad))
    loss = B.mse_loss([p, p * 2], [0.5, -0.5])
    loss.backward()
    rec("mse_loss of a list: grad", p.grad)
