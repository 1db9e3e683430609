"""A leaf whose ``requires_grad`` is turned off after a graph was recorded through it: backward
still runs its node (its tensor hook sees the gradient, its post-accumulate hook runs) but writes no
``.grad`` into it, as ``AccumulateGrad::apply`` returns early; the other leaf gets its gradient."""


def run(B, rec):
    w = B.value(0.5, requires_grad=True)
    x = B.value(-3.0, requires_grad=True)
    y = (x + w) * (w + 1)
    pre = w.register_hook(lambda g: rec("w's tensor hook sees", g))
    post = w.register_post_accumulate_grad_hook(lambda p: rec("w's post-accumulate hook sees p.grad", p.grad))
    w.requires_grad = False
    y.backward()
    rec("w.grad, x.grad", (w.grad, x.grad))
    rec("w.is_leaf, w.requires_grad", (w.is_leaf, w.requires_grad))
    pre.remove()
    post.remove()
    w.requires_grad = True
    y2 = w * x
    y2.backward()
    rec("after turning it on again and a new graph: w.grad", w.grad)
