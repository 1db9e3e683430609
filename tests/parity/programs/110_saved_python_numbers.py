"""A Python number an op keeps for backward, as torch keeps it: mul/div's float number is a saved 0-dim
tensor (an int's is an int64 tensor, whose dtype is not modelled: not read here), pow's base and exponent
and clamp's bounds are Scalars shown as given; each read before and after a freeing backward."""

from parity.helpers import attempt


def describe(x):
    """A saved item: its number and integer-ness (int/bool Values show an int/bool item)."""
    if hasattr(x, "item"):
        return (x, type(x.item()).__name__, x.requires_grad, x.is_leaf, x.grad_fn)
    return (x, type(x).__name__)


def run(B, rec):
    w = B.value(2.0, requires_grad=True)
    x = B.value(-1.5, requires_grad=True)
    cases = {
        "w * 3": lambda: w * 3, "3 * w": lambda: 3 * w, "w * 3.0": lambda: w * 3.0, "w * -0.0": lambda: w * -0.0,
        "w / 4": lambda: w / 4,
        "w / 4.0": lambda: w / 4.0, "5 / w": lambda: 5 / w, "5.0 / w": lambda: 5.0 / w,
        "w.mul(7)": lambda: w.mul(7), "mul(w, 7)": lambda: B.mul(w, 7),
        "w.div(8)": lambda: w.div(8), "div(w, 8.5)": lambda: B.div(w, 8.5), "w * x": lambda: w * x,
        "2 ** w": lambda: 2 ** w, "2.0 ** w": lambda: 2.0 ** w,
        "w.clamp_min(1)": lambda: w.clamp_min(1),
        "w.clamp_min(1.0)": lambda: w.clamp_min(1.0), "w.clamp_max(3)": lambda: w.clamp_max(3),
        "w.clamp_max(-0.5)": lambda: w.clamp_max(-0.5),
    }
    ints = {"w * 3", "3 * w", "w / 4", "5 / w", "w.mul(7)", "mul(w, 7)", "w.div(8)"}  # their number's saved tensor: int64
    names = ("_saved_self", "_saved_other", "_saved_exponent", "_saved_min", "_saved_max", "_saved_result")
    for label, make in cases.items():
        y = rec(label, make)
        if y is None:
            continue
        rec(f"{label}: value", (y, type(y.item()).__name__))
        rec(f"{label}: node", y.grad_fn)
        for name in names:
            if name in dir(y.grad_fn) and not (label in ints and name == "_saved_other"):
                rec(f"{label}: {name}", attempt(lambda: describe(getattr(y.grad_fn, name))))
        y.backward()
        for name in names:
            if name in dir(y.grad_fn):
                rec(f"{label}: {name} after backward", attempt(lambda: describe(getattr(y.grad_fn, name))))

    # the saved number is read by the backward formula: a create_graph derivative records it again
    for label, make in {"w * 3": lambda: w * 3, "w / 3": lambda: w / 3}.items():
        (g,) = B.grad(make(), w, create_graph=True)
        rec(f"create_graph {label}: grad", (g, g.grad_fn))
        rec(f"create_graph {label}: grad's node saved", attempt(lambda: [describe(getattr(g.grad_fn, n)) for n in names if n in dir(g.grad_fn)]))

    # in place: a non-leaf multiplied in place by a number keeps it as mul does
    y = w * 1
    y.mul_(3)
    rec("mul_(3): node", y.grad_fn)
    z = w * 1
    z.div_(2.0)
    rec("div_(2.0): other", attempt(lambda: describe(z.grad_fn._saved_other)))
    rec("same saved object twice", attempt(lambda: (w * 3).grad_fn._saved_other is (w * 3).grad_fn._saved_other))
