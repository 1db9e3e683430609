"""grad_fn names of every binary form, Values and Python numbers on either side."""


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.75, requires_grad=True)
    c = B.value(3.25)
    forms = {
        "w + x": lambda: w + x,
        "w - x": lambda: w - x,
        "w * x": lambda: w * x,
        "w / x": lambda: w / x,
        "w ** x": lambda: w ** x,
        "w + 2.5": lambda: w + 2.5,
        "2.5 + w": lambda: 2.5 + w,
        "w - 2.5": lambda: w - 2.5,
        "2.5 - w": lambda: 2.5 - w,
        "w * 2.5": lambda: w * 2.5,
        "2.5 * w": lambda: 2.5 * w,
        "w / 2.5": lambda: w / 2.5,
        "2.5 / w": lambda: 2.5 / w,
        "1 / w": lambda: 1 / w,
        "w ** 2.5": lambda: w ** 2.5,
        "w ** 2": lambda: w ** 2,
        "2.5 ** w": lambda: 2.5 ** w,
        "-w": lambda: -w,
        "c + w": lambda: c + w,
        "c - w": lambda: c - w,
        "c * w": lambda: c * w,
        "c / w": lambda: c / w,
        "w / c": lambda: w / c,
        "c ** w": lambda: c ** w,
        "w ** c": lambda: w ** c,
        "add(w, x)": lambda: B.add(w, x),
        "sub(w, x)": lambda: B.sub(w, x),
        "mul(w, x)": lambda: B.mul(w, x),
        "div(w, x)": lambda: B.div(w, x),
        "pow(w, x)": lambda: B.pow(w, x),
        "pow(w, 3)": lambda: B.pow(w, 3),
        "pow(3, w)": lambda: B.pow(3, w),
        "neg(w)": lambda: B.neg(w),
        "add(w, 2.5)": lambda: B.add(w, 2.5),
        "mul(w, 2.5)": lambda: B.mul(w, 2.5),
        "c + 1": lambda: c + 1,
    }
    for text, make in forms.items():
        v = make()
        rec(text, v)
        rec(f"{text} grad_fn", v.grad_fn)
