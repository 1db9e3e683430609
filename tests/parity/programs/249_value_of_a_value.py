"""A value made from a value, as a student writes ``torch.tensor(w)`` (here ``Value(w)``) to keep or copy a number:
a new leaf holding its number, with torch's UserWarning naming the better spelling; no graph, no shared storage or
version counter, so a later change of either is not seen by the other, and ``requires_grad`` is the call's own."""


def run(B, rec):
    w = B.value(2.0, requires_grad=True)
    y = w * 3.0
    for label, source in [("a leaf that requires grad", w), ("a result", y), ("a plain value", B.value(1.5)),
                          ("a comparison", y > 1.0), ("a gradient", None)]:
        if source is None:
            y.backward(retain_graph=True)
            source = w.grad
        for flag in (False, True):
            copy = B.value(source, requires_grad=flag)
            rec(f"{label}, requires_grad={flag}", (copy, copy.is_leaf, copy.grad_fn, copy._version))
    copy = B.value(w)
    with B.no_grad():
        copy.add_(1.0)
    rec("copy changed in place: w, versions", (w, w._version, copy._version))
    kept = B.value(w.grad)
    w.grad.zero_()
    rec("copy of w.grad, then w.grad.zero_()", (kept, w.grad))
    z = B.value(y, requires_grad=True) * w
    z.backward()
    rec("a copy of y in a graph: w.grad", w.grad)
