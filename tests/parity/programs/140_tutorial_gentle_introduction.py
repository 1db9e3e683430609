"""PyTorch's tutorial "A Gentle Introduction to torch.autograd", on one-element values of our own:
Q = 3a^3 - b^2 run backward with an external gradient and checked against 9a^2 and -2b; which results
the DAG leaves out (an operation whose inputs do not require grad); freezing a layer's parameters while
a new last layer trains with SGD and momentum."""


def run(B, rec):
    a = B.value(1.5, requires_grad=True)
    b = B.value(-2.5, requires_grad=True)
    Q = 3 * a ** 3 - b ** 2
    rec("Q", Q)
    rec("Q.grad_fn", Q.grad_fn)
    rec("Q's inputs", [n for n, _ in Q.grad_fn.next_functions])
    external_grad = B.value(1.0)
    rec("Q.backward(gradient=external_grad)", lambda: Q.backward(gradient=external_grad))
    rec("a.grad", a.grad)
    rec("b.grad", b.grad)
    rec("9*a**2 == a.grad", bool(9 * a ** 2 == a.grad))
    rec("-2*b == b.grad", bool(-2 * b == b.grad))
    rec("external_grad untouched", external_grad)
    a.grad = b.grad = None
    Q = 3 * a ** 3 - b ** 2
    Q.backward(gradient=B.value(0.5))
    rec("half the external gradient: a.grad, b.grad", (a.grad, b.grad))
    rec("Q.backward() again (freed)", lambda: Q.backward(gradient=external_grad))

    # exclusion from the DAG
    x = B.value(0.25)
    y = B.value(0.75)
    z = B.value(-1.25, requires_grad=True)
    s = x + y
    rec("Does `a` require gradients?", s.requires_grad)
    t = x + z
    rec("Does `b` require gradients?", t.requires_grad)
    rec("a's grad_fn", s.grad_fn)
    rec("b's grad_fn", t.grad_fn)

    # freezing: a pretrained layer whose parameters no longer require grad, a new classifier on top
    body = B.linear([[0.5, -1.0], [1.5, 0.25]], [0.1, -0.2])
    for p in body.parameters():
        p.requires_grad = False
    head = B.linear([[2.0, -0.5]], [0.3])
    optimizer = B.optim.SGD(head.parameters(), lr=1e-2, momentum=0.9)
    data = [[0.5, -1.5], [2.0, 1.0]]
    labels = [1.0, -1.0]
    for step in range(3):
        hidden = body(data)
        rec(f"step {step}: frozen output requires grad", [h.requires_grad for row in hidden for h in row])
        prediction = [row[0] for row in head(hidden)]
        loss = B.sum([(p - t) * (p - t) for p, t in zip(prediction, labels)])
        rec(f"step {step}: loss", loss)
        optimizer.zero_grad()
        loss.backward()
        rec(f"step {step}: head grads", ([[p.grad for p in row] for row in head.weight], [p.grad for p in head.bias]))
        rec(f"step {step}: body grads", ([[p.grad for p in row] for row in body.weight], [p.grad for p in body.bias]))
        optimizer.step()
        rec(f"step {step}: head after step", ([[p.item() for p in row] for row in head.weight], [p.item() for p in head.bias]))
    rec("body unchanged", [[p.item() for p in row] for row in body.weight])
