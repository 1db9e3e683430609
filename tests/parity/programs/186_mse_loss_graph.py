"""nn.MSELoss and mse_loss on values of our own: each reduction's value, a second backward through the loss
(torch's node saves both operands), a target that requires grad, the loss's one ``MseLossBackward0`` node
with its edges and ``_saved_reduction``, and how a node prints (its Python class: ``AccumulateGrad``)."""


def run(B, rec):
    nn = B.nn
    for reduction in ("mean", "sum", "none"):
        p = B.value(1.25, requires_grad=True)
        t = B.value(-0.5)
        loss = nn.MSELoss(reduction=reduction)(p, t)
        rec(f"{reduction}: loss", loss)
        rec(f"{reduction}: requires_grad, is_leaf", (loss.requires_grad, loss.is_leaf))
        rec(f"{reduction}: grad_fn, next_functions", (loss.grad_fn, loss.grad_fn.next_functions))
        rec(f"{reduction}: _saved_reduction", loss.grad_fn._saved_reduction)
        rec(f"{reduction}: how nodes print", [repr(n).split(" at 0x")[0] for n in (loss.grad_fn,
                                                                                 loss.grad_fn.next_functions[0][0])])
        loss.backward()
        rec(f"{reduction}: second backward", lambda: loss.backward())
    p = B.value(0.3, requires_grad=True)
    t = B.value(0.8, requires_grad=True)
    loss = nn.MSELoss()(p, t)
    rec("target requires grad: next_functions", loss.grad_fn.next_functions)
    loss.backward()
    rec("target requires grad: grads", (p.grad, t.grad))
    loss = B.mse_loss([p, p * 2], [0.5, -0.5])
    loss.backward()
    rec("mse_loss of a list: grad", p.grad)
