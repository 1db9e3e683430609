"""Tensor hooks receive torch's gradient object: changing it in place is seen by every holder and counted.

A hook's ``g`` is the tensor the engine holds: ``g.mul_(2)`` changes it where
``+`` passed it on unchanged to other edges too, and adds one to its version,
which the leaf's ``.grad`` then shows; a hook that keeps ``g`` makes the engine
copy it into ``.grad`` (version 1, a different object).
"""


def run(B, rec):
    # an in-place change in a hook reaches every node the same gradient object was passed to
    for order in ("b + a", "a + b"):
        w, x = B.value(1.0, requires_grad=True), B.value(2.0, requires_grad=True)
        b, a = w * 3, x * 5
        a.register_hook(lambda g: g.mul_(2))
        (b + a if order == "b + a" else a + b).backward()
        rec(f"{order}, a's hook doubles in place: grads", (w.grad, x.grad))
        rec(f"{order}, a's hook doubles in place: versions", (w.grad._version, x.grad._version))
    w, x = B.value(1.0, requires_grad=True), B.value(2.0, requires_grad=True)
    s = (w + x) * 3
    w.register_hook(lambda g: g.add_(10))
    s.backward()
    rec("(w + x) * 3, w's hook adds 10 in place: grads", (w.grad, x.grad))
    rec("(w + x) * 3, w's hook adds 10 in place: versions", (w.grad._version, x.grad._version))
    w, x = B.value(1.0, requires_grad=True), B.value(2.0, requires_grad=True)
    s = (x + w) * 3
    w.register_hook(lambda g: g.add_(10))
    s.backward()
    rec("(x + w) * 3, w's hook adds 10 in place: grads", (w.grad, x.grad))
    # the leaf's .grad is the hook's tensor: its in-place changes are counted
    for name, f in (("w * 3", lambda w: w * 3), ("w * 3 + w * 4", lambda w: w * 3 + w * 4),
                    ("w + w", lambda w: w + w), ("(w + 1) * 2", lambda w: (w + 1) * 2)):
        w = B.value(1.0, requires_grad=True)
        w.register_hook(lambda g: g.mul_(2))
        f(w).backward()
        rec(f"{name}, hook mul_: grad and version", (w.grad, w.grad._version))
        w = B.value(1.0, requires_grad=True)
        kept = []
        w.register_hook(lambda g: kept.append(g))
        f(w).backward()
        rec(f"{name}, hook keeps g: version", w.grad._version)
        rec(f"{name}, hook keeps g: kept version", kept[0]._version)
        kept[0].add_(100)
        rec(f"{name}, hook keeps g: .grad after changing the kept one", w.grad)
        w = B.value(1.0, requires_grad=True)
        w.register_hook(lambda g: g * 2)
        f(w).backward()
        rec(f"{name}, hook returns g * 2: grad and version", (w.grad, w.grad._version))
    # a non-leaf's hook keeps the gradient object: it is not the only holder any more
    w, x = B.value(1.0, requires_grad=True), B.value(2.0, requires_grad=True)
    a = w * 2
    kept = []
    a.register_hook(lambda g: kept.append(g))
    ((a + x) * 3).backward()
    rec("a's hook keeps g, (a + x) * 3: x.grad version", x.grad._version)
    w, x = B.value(1.0, requires_grad=True), B.value(2.0, requires_grad=True)
    a = w + 0
    a.register_hook(lambda g: None)
    ((a + x) * 3).backward()
    rec("a's hook returns None, (a + x) * 3: versions", (w.grad._version, x.grad._version))
