"""Which ops can be run backward twice: those that save nothing (add, sub, rsub, neg)."""


def run(B, rec):
    c = B.value(0.75)
    forms = {
        "w + x": lambda w, x: w + x,
        "w - x": lambda w, x: w - x,
        "w + 2.5": lambda w, x: w + 2.5,
        "w - 2.5": lambda w, x: w - 2.5,
        "2.5 - w": lambda w, x: 2.5 - w,
        "-w": lambda w, x: -w,
        "(w + 1) + (w + 2) + w": lambda w, x: (w + 1) + (w + 2) + w,
        "w - x - c": lambda w, x: w - x - c,
        "add(w, x)": lambda w, x: B.add(w, x),
        "neg(sub(w, x))": lambda w, x: B.neg(B.sub(w, x)),
        "w * x": lambda w, x: w * x,
        "w * 3": lambda w, x: w * 3,
        "3 * w": lambda w, x: 3 * w,
        "w * c": lambda w, x: w * c,
        "w / x": lambda w, x: w / x,
        "w / 4": lambda w, x: w / 4,
        "2 / w": lambda w, x: 2 / w,
        "w ** 2": lambda w, x: w ** 2,
        "w ** x": lambda w, x: w ** x,
        "2 ** w": lambda w, x: 2 ** w,
        "exp": lambda w, x: w.exp(),
        "log": lambda w, x: w.log(),
        "sqrt": lambda w, x: w.sqrt(),
        "sin": lambda w, x: w.sin(),
        "cos": lambda w, x: w.cos(),
        "tanh": lambda w, x: w.tanh(),
        "sigmoid": lambda w, x: w.sigmoid(),
        "relu": lambda w, x: w.relu(),
        "abs": lambda w, x: w.abs(),
        "(w * x) + 1 (mul below add)": lambda w, x: (w * x) + 1,
    }
    for text, make in forms.items():
        w = B.value(1.75, requires_grad=True)
        x = B.value(0.5, requires_grad=True)
        y = make(w, x)
        for i in (1, 2, 3):
            rec(f"{text}: backward #{i}", lambda: y.backward())
        rec(f"{text}: w.grad", w.grad)
        rec(f"{text}: x.grad", x.grad)
