"""``register_post_accumulate_grad_hook``'s docstring example on a value of our own: the hook updates
its leaf in place (``p.add_(p.grad, alpha=-lr)``) right after backward wrote ``.grad``, a simple SGD
step inside backward; removing the hook stops it."""


def run(B, rec):
    v = B.value(0.0, requires_grad=True)
    lr = 0.01
    h = v.register_post_accumulate_grad_hook(lambda p: p.add_(p.grad, alpha=-lr))
    v.backward(B.value(3.0))
    rec("after backward: v", v)
    rec("after backward: v.grad, v._version", (v.grad, v._version))
    h.remove()
    v.backward(B.value(3.0))
    rec("after h.remove() and another backward", (v, v.grad))
