"""In-place on a leaf that requires grad is refused, in every form, before any change."""

MESSAGE_FORMS = ("add_", "sub_", "mul_", "div_")


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    other = B.value(0.25)

    def iadd():
        t = w
        t += 1

    def isub():
        t = w
        t -= 1.5

    def imul():
        t = w
        t *= 2

    def idiv():
        t = w
        t /= other

    for op in MESSAGE_FORMS:
        rec(f"w.{op}(2.5)", lambda: getattr(w, op)(2.5))
        rec(f"w.{op}(other)", lambda: getattr(w, op)(other))
    rec("w.zero_()", lambda: w.zero_())
    rec("w.fill_(5.0)", lambda: w.fill_(5.0))
    rec("w.copy_(other)", lambda: w.copy_(other))
    rec("w += 1", iadd)
    rec("w -= 1.5", isub)
    rec("w *= 2", imul)
    rec("w /= other", idiv)
    rec("w", w)
    rec("w._version", w._version)
    rec("w.is_leaf", w.is_leaf)
    rec("w.requires_grad", w.requires_grad)
    rec("w.grad_fn", w.grad_fn)
    (w * 3.0).backward()
    rec("w.grad still computed", w.grad)
    p = B.value(0.5)
    rec("plain value add_", lambda: p.add_(1.0))
    rec("plain value", p)
    rec("plain value _version", p._version)
