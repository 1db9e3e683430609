"""The same value used many times: gradients from every use add up."""


def run(B, rec):
    forms = {
        "w*w*w*w*w": lambda w: w * w * w * w * w,
        "w+w+w": lambda w: w + w + w,
        "w*w": lambda w: w * w,
        "(w+1)*(w+1)*(w+1)": lambda w: (w + 1) * (w + 1) * (w + 1),
        "w-w": lambda w: w - w,
        "w/w": lambda w: w / w,
        "sum k*w": lambda w: B.sum([w * k for k in (0.5, 1.5, 2.5, 3.5)]),
        "a=w*w; a*a*a": lambda w: (lambda a: a * a * a)(w * w),
        "w**w": lambda w: w ** w,
        "exp(w)*exp(w)": lambda w: (lambda e: e * e)(w.exp()),
    }
    for text, f in forms.items():
        w = B.value(1.25, requires_grad=True)
        y = f(w)
        y.backward()
        rec(f"{text}", y)
        rec(f"{text}: w.grad", w.grad)
    w = B.value(1.25, requires_grad=True)
    y = w
    for _ in range(11):
        y = y * w
    y.backward()
    rec("w**12 by repeated mul", y)
    rec("w**12: w.grad", w.grad)
