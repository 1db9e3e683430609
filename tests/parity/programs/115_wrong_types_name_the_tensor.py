"""Wrong operand and argument types: the error type and text a student reads, which torch builds with the
name ``Tensor`` (Python's own operator errors included): operators with strings, None, lists, dicts; unary
math and conversions; flags and arguments that must be bools, Tensors or numbers."""

import operator


def attempt(f):
    try:
        r = f()
    except Exception as exc:  # noqa: BLE001 - the error is the observation
        return f"error: {type(exc).__name__}: {str(exc).splitlines()[0]}"
    return ("ok", r)


def run(B, rec):
    w = B.value(2.0, requires_grad=True)
    x = B.value(3.0)
    c = x > 0
    others = {"'a'": "a", "None": None, "[1.0]": [1.0], "{}": {}, "(1,)": (1,), "object()": object()}
    ops = {
        "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: a / b,
        "**": lambda a, b: a ** b, "^": lambda a, b: a ^ b,
        "<": lambda a, b: a < b, ">=": lambda a, b: a >= b, "&": lambda a, b: a & b, "|": lambda a, b: a | b,
    }
    for on, op in ops.items():
        for label, o in others.items():
            rec(f"w {on} {label}", attempt(lambda: op(w, o)))
            rec(f"{label} {on} w", attempt(lambda: op(o, w)))
        rec(f"bool {on} None", attempt(lambda: op(c, None)))
        rec(f"w {on} w", attempt(lambda: op(w, w)))
    for label, f in {
        "w += 'a'": lambda: operator.iadd(x.clone(), "a"), "w *= None": lambda: operator.imul(x.clone(), None),
        "range(w)": lambda: range(w), "w.add_('a')": lambda: x.clone().add_("a"),
        "w.mul_(None)": lambda: x.clone().mul_(None), "w.add('a')": lambda: w.add("a"), "w.mul([1])": lambda: w.mul([1]),
        "w.pow('a')": lambda: w.pow("a"), "w.div(None)": lambda: w.div(None), "w.sub(None)": lambda: w.sub(None),
        "B.add(w, 'a')": lambda: B.add(w, "a"), "B.mul('a', w)": lambda: B.mul("a", w), "B.exp('a')": lambda: B.exp("a"),
        "B.exp(2.0)": lambda: B.exp(2.0), "B.sqrt(None)": lambda: B.sqrt(None), "B.maximum(w, 1.0)": lambda: B.maximum(w, 1.0),
        "B.where(True, w, x)": lambda: B.where(True, w, x), "B.clamp(w, 'a')": lambda: B.clamp(w, "a"),
        "w.clamp('a')": lambda: w.clamp("a"), "int(w)": lambda: int(w), "len(w)": lambda: len(w), "iter(w)": lambda: iter(w),
        "w.requires_grad_('yes')": lambda: x.clone().requires_grad_("yes"), "w.requires_grad = 1": lambda: setattr(x.clone(), "requires_grad", 1),
        "w.requires_grad = c": lambda: setattr(x.clone(), "requires_grad", c),
        "w.requires_grad_(c)": lambda: x.clone().requires_grad_(c),
        "w.grad = 2.0": lambda: setattr(B.value(1.0, requires_grad=True), "grad", 2.0),
        "w.grad = 'a'": lambda: setattr(B.value(1.0, requires_grad=True), "grad", "a"),
        "w.data = 2.0": lambda: setattr(B.value(1.0), "data", 2.0),
        "w.backward('a')": lambda: (w * 1).backward("a"),
        "w.backward(retain_graph='x')": lambda: (w * 1).backward(retain_graph="x"),
        "B.grad(w*1, 'a')": lambda: B.grad(w * 1, "a"), "B.grad('a', w)": lambda: B.grad("a", w),
        "B.grad(w*1, [w, 'a'])": lambda: B.grad(w * 1, [w, "a"]), "B.backward('a')": lambda: B.backward("a"),
        "w.register_hook(3)": lambda: w.register_hook(3), "w.isclose(2.0)": lambda: w.isclose(2.0),
        "w.equal(2.0)": lambda: w.equal(2.0), "w.maximum(1.0)": lambda: w.maximum(1.0),
        "w.where(True, x)": lambda: w.where(True, x),
        "round(w)": lambda: round(w), "divmod(w, 1)": lambda: divmod(w, 1),
        "~w": lambda: ~w, "w.fill_('a')": lambda: x.clone().fill_("a"), "w.copy_(2.0)": lambda: x.clone().copy_(2.0),
    }.items():
        rec(label, attempt(f))
