"""``norm`` (every order, with and without ``dim``), ``var`` and ``std`` (default correction: 0/0 and
torch's degrees-of-freedom warning on every call; ``correction``/``unbiased``/``dim``/``keepdim``) of one
element: values, nodes, ``_saved_*``, gradients at ordinary numbers, zeros, -0.0, tiny/huge numbers, nan, inf;
wrong arguments; the module functions."""

from parity.helpers import attempt

import math

XS = (2.0, -3.0, 0.0, -0.0, 0.5, 1e-200, 1e200, 7.25, math.nan, math.inf, -math.inf)
CALLS = (
    ("norm()", lambda w: w.norm()), ("norm(1)", lambda w: w.norm(1)), ("norm(3)", lambda w: w.norm(3)),
    ("norm(0)", lambda w: w.norm(0)), ("norm(inf)", lambda w: w.norm(math.inf)), ("norm(-inf)", lambda w: w.norm(-math.inf)),
    ("norm(-1)", lambda w: w.norm(-1)), ("norm(0.5)", lambda w: w.norm(0.5)), ("norm(1.5)", lambda w: w.norm(1.5)),
    ("norm(p='fro')", lambda w: w.norm(p="fro")), ("norm(p=None)", lambda w: w.norm(p=None)),
    ("norm(2, 0, True)", lambda w: w.norm(2, 0, True)), ("norm(dim=-1)", lambda w: w.norm(dim=-1)),
    ("norm(3, 0)", lambda w: w.norm(3, 0)), ("norm(0.5, 0)", lambda w: w.norm(0.5, 0)),
    ("std()", lambda w: w.std()), ("var()", lambda w: w.var()), ("std(correction=0)", lambda w: w.std(correction=0)),
    ("var(unbiased=False)", lambda w: w.var(unbiased=False)), ("var(correction=2)", lambda w: w.var(correction=2)),
    ("std(correction=0.5)", lambda w: w.std(correction=0.5)), ("std(0)", lambda w: w.std(0)),
    ("var(0, True)", lambda w: w.var(0, True)), ("std(True)", lambda w: w.std(True)),
    ("std(dim=0, keepdim=True)", lambda w: w.std(dim=0, keepdim=True)), ("var(dim=-1)", lambda w: w.var(dim=-1)),
)


def run(B, rec):
    for label, call in CALLS:
        for x in XS:
            w = B.value(x, requires_grad=True)
            y = rec(f"{label} at {x!r}", lambda: call(w))
            if y is None:
                continue
            saved = [n for n in dir(y.grad_fn) if n.startswith("_saved_") and n not in ("_saved_self", "_saved_result")]
            rec(f"{label} at {x!r}: node", (y, y.grad_fn, [getattr(y.grad_fn, n) for n in saved]))
            y.backward()
            rec(f"{label} at {x!r}: grad", w.grad)
    w = B.value(2.0, requires_grad=True)
    y = w.norm()
    rec("norm saved", (y.grad_fn._saved_self is w, y.grad_fn._saved_result, y.grad_fn._saved_result.grad_fn is y.grad_fn))
    y.backward()
    rec("norm saved after backward", attempt(lambda: y.grad_fn._saved_self))
    rec("norm ord after backward", attempt(lambda: y.grad_fn._saved_ord))
    s = w.std(correction=0)
    rec("std saved", (s.grad_fn._saved_self is w, s.grad_fn._saved_result))
    for label, f in {
        "norm(dim=1)": lambda: w.norm(dim=1), "norm('nuc')": lambda: w.norm("nuc"), "norm('abc')": lambda: w.norm("abc"),
        "std(1)": lambda: w.std(1), "std(unbiased=True, correction=1)": lambda: w.std(unbiased=True, correction=1),
        "B.norm(w, 1)": lambda: B.norm(w, 1), "B.std(w)": lambda: B.std(w), "B.var(w, correction=0)": lambda: B.var(w, correction=0),
"B.var(w, 0)": lambda: B.var(w, 0), "no_grad norm": lambda: _no_grad(B, lambda: w.norm()),
    }.items():
        rec(label, attempt(f))


def _no_grad(B, f):
    with B.no_grad():
        y = f()
    return (y, y.requires_grad, y.grad_fn)
