"""Each op followed by each in-place change of its result or its input, then backward, on values of our
own: which saved value each op keeps decides whether torch refuses (and its message names the node and
versions), and what the gradient is when it does not."""


def run(B, rec):
    ops = {
        "exp": lambda v: v.exp(), "log": lambda v: v.log(), "sqrt": lambda v: v.sqrt(), "sin": lambda v: v.sin(),
        "cos": lambda v: v.cos(), "tanh": lambda v: v.tanh(), "sigmoid": lambda v: v.sigmoid(),
        "relu": lambda v: v.relu(), "abs": lambda v: v.abs(), "neg": lambda v: -v, "pow2": lambda v: v ** 2,
        "pow0.5": lambda v: v ** 0.5, "mul3": lambda v: v * 3, "div3": lambda v: v / 3, "rdiv": lambda v: 3 / v,
        "add1": lambda v: v + 1, "sub1": lambda v: v - 1, "clamp": lambda v: v.clamp(0.1, 0.6),
        "reciprocal": lambda v: v.reciprocal(), "square": lambda v: v.square(), "clone": lambda v: v.clone(),
        "tan": lambda v: v.tan(), "log1p": lambda v: v.log1p(), "2**v": lambda v: 2 ** v,
    }
    changes = {
        "add_(1)": lambda t: t.add_(1), "mul_(2)": lambda t: t.mul_(2), "exp_()": lambda t: t.exp_(),
        "zero_()": lambda t: t.zero_(), "sigmoid_()": lambda t: t.sigmoid_(), "clamp_(max=0.2)": lambda t: t.clamp_(max=0.2),
        "+= 0.5": lambda t: t.__iadd__(0.5), "data.add_": lambda t: t.data.add_(1),
        "pow_(2)": lambda t: t.pow_(2), "fill_(0.3)": lambda t: t.fill_(0.3),
    }
    for oname, op in ops.items():
        for cname, change in changes.items():
            x = B.value(0.45, requires_grad=True)
            h = x * 1.0
            y = op(h)
            rec(f"{oname} then result.{cname}", lambda: change(y))
            rec(f"{oname} then result.{cname}: backward", lambda: y.backward())
            rec(f"{oname} then result.{cname}: x.grad", x.grad)
            x = B.value(0.45, requires_grad=True)
            h = x * 1.0
            y = op(h)
            change(h)
            rec(f"{oname} then input.{cname}: backward", lambda: y.backward())
            rec(f"{oname} then input.{cname}: x.grad", x.grad)
