"""Item and masked assignment on one-element values, as a student writes them (``v[()] = 3``,
``g[x < 0] = 0`` in a hook, ``t.data[0] = 9``), on values of our own: on a plain value, a leaf that
requires grad (refused, or allowed under ``no_grad`` and through ``.data``), a non-leaf (its value,
version and gradient afterwards), a mask that is true or false, and an index a 0-dim value lacks."""


def run(B, rec):
    for start in (2.5, -1.5):
        t = B.value(start)
        t[()] = 3.0
        rec(f"t = {start}; t[()] = 3", (t, t._version))
        t[...] = B.value(-4.0)
        rec(f"t = {start}; t[...] = value", (t, t._version))
        t = B.value(start)
        t[t < 0] = 0.0
        rec(f"t = {start}; t[t < 0] = 0", (t, t.item() == 0.0))
        t = B.value(start)
        rec(f"t = {start}; t[0] = 9", lambda: t.__setitem__(0, 9.0))
        rec(f"t = {start}; t.data[0] = 9", lambda: t.data.__setitem__(0, 9.0))
        rec(f"t = {start}; t[0]", lambda: t[0])
        rec(f"t = {start}: after", t)

    w = B.value(1.5, requires_grad=True)
    rec("leaf: w[()] = 3", lambda: w.__setitem__((), 3.0))
    rec("leaf: w[w > 0] = 0", lambda: w.__setitem__(w > 0, 0.0))
    rec("leaf: w[w < 0] = 0 (mask false)", lambda: w.__setitem__(w < 0, 0.0))
    rec("leaf after", (w, w._version, w.is_leaf))
    with B.no_grad():
        w[()] = 2.0
    rec("leaf: w[()] = 2 under no_grad", (w, w._version, w.is_leaf, w.requires_grad))
    w.data[()] = 2.5
    rec("leaf: w.data[()] = 2.5", (w, w._version, w.is_leaf))
    y = w * w
    y.backward()
    rec("then w * w: w.grad", w.grad)

    # a gradient masked in a hook, the pattern for clipping a sign
    for x0 in (0.75, -0.75):
        x = B.value(x0, requires_grad=True)
        y = x * 3

        def hook(g, x=x):
            g[x < 0] = 0.0

        y.register_hook(hook)
        (y * y).backward()
        rec(f"hook g[x < 0] = 0 at {x0}: x.grad", x.grad)
        x.grad[x.grad > 1] = 1.0
        rec(f"x.grad[x.grad > 1] = 1 at {x0}", x.grad)

    # on a non-leaf: copy_ semantics (the old value gets no gradient), the version goes up
    for index in ((), Ellipsis):
        w = B.value(1.5, requires_grad=True)
        y = w * 2
        y[index] = 5.0
        rec(f"y[{index!r}] = 5: y, node, its edges, version", (y, y.grad_fn, y.grad_fn.next_functions, y._version))
        (y * 2).backward()
        rec(f"y[{index!r}] = 5: w.grad", w.grad)
        k = B.value(-0.5, requires_grad=True)
        y = w * 2
        y[index] = k
        rec(f"y[{index!r}] = k: y, node", (y, y.grad_fn, y.grad_fn.next_functions))
        (y * 3).backward()
        rec(f"y[{index!r}] = k: grads", (w.grad, k.grad))
    w = B.value(1.5, requires_grad=True)
    y = w * 2
    y.copy_(4.0)
    rec("y.copy_(4.0): node and edges", (y, y.grad_fn, y.grad_fn.next_functions))
    for mask_value in (True, False):
        w = B.value(1.5, requires_grad=True)
        y = w * 2
        z = y.exp()
        y[(y > 0) if mask_value else (y < 0)] = 0.0
        rec(f"non-leaf y[mask {mask_value}] = 0: y, version", (y, y._version))
        (y * y).backward(retain_graph=True)
        rec(f"non-leaf y[mask {mask_value}] = 0: w.grad", w.grad)
        w.grad = None
        z.backward()
        rec(f"mask {mask_value}: exp saved its result, not y: w.grad", w.grad)
    t = B.value(2.5)
    t[t < 0] = 0.0
    rec("plain value, false mask: version", t._version)
