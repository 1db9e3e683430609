"""The "Autograd mechanics" notes on saved tensors, on values of our own: ``y = x.pow(2)`` saves x itself
(``x.equal(y.grad_fn._saved_self)``, ``x is y.grad_fn._saved_self``), ``y = x.exp()`` saves its result
(equal, but not the same object); after a backward the saved values are freed."""


def run(B, rec):
    x = B.value(1.25, requires_grad=True)
    y = x.pow(2)
    rec("x.equal(y.grad_fn._saved_self)", x.equal(y.grad_fn._saved_self))
    rec("x is y.grad_fn._saved_self", x is y.grad_fn._saved_self)
    rec("_saved_exponent", y.grad_fn._saved_exponent)
    y = x.exp()
    rec("y.equal(y.grad_fn._saved_result)", y.equal(y.grad_fn._saved_result))
    rec("y is y.grad_fn._saved_result", y is y.grad_fn._saved_result)
    rec("_saved_result", y.grad_fn._saved_result)
    y.backward()
    rec("_saved_result after backward", lambda: y.grad_fn._saved_result)
    z = x.pow(2)
    z.backward(retain_graph=True)
    rec("_saved_self after a retained backward", z.grad_fn._saved_self)
