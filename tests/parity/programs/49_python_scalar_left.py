"""Python numbers on the left: Rsub, Mul over Reciprocal, PowBackward2."""


def run(B, rec):
    forms = {
        "2.5 * w": lambda w: 2.5 * w,
        "2.5 + w": lambda w: 2.5 + w,
        "1 - w": lambda w: 1 - w,
        "-0.5 - w": lambda w: -0.5 - w,
        "1 / w": lambda w: 1 / w,
        "2 / w": lambda w: 2 / w,
        "-3.5 / w": lambda w: -3.5 / w,
        "2 ** w": lambda w: 2 ** w,
        "0.5 ** w": lambda w: 0.5 ** w,
        "w / 2": lambda w: w / 2,
        "w - 2": lambda w: w - 2,
        "w * 2": lambda w: w * 2,
        "3 * w - 1 / w": lambda w: 3 * w - 1 / w,
    }
    for text, f in forms.items():
        w = B.value(3.25, requires_grad=True)
        y = f(w)
        rec(f"{text}", y)
        rec(f"{text}: grad_fn", y.grad_fn)
        rec(f"{text}: first input", y.grad_fn.next_functions[0][0])
        y.backward()
        rec(f"{text}: w.grad", w.grad)
    w = B.value(3.25, requires_grad=True)
    y = 1 / w
    rec("1 / w under it: ReciprocalBackward0 -> AccumulateGrad",
        y.grad_fn.next_functions[0][0].next_functions[0][0])
    rec("int on the left keeps float", 2 * B.value(0.1))
