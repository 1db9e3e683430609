"""Leaves made ready together: their hooks fire in the order the node pushed them (its edges' order),
which is torch's heap order in these cases (with three or more leaves torch's heap can pop them in
another order, depending on the nodes waiting in the queue: not modelled, see NOT_MODELLED.md).
"""


def run(B, rec):
    log = []

    def leaves(k, start=1.0):
        vals = [B.value(start + 0.25 * i, requires_grad=True) for i in range(k)]
        for i, v in enumerate(vals):
            v.register_hook(lambda g, i=i: log.append(i))
        return vals

    # three leaves summed while m other nodes wait in the queue
    for m in (0, 1, 2, 6):
        log.clear()
        vals = leaves(3)
        waiting = [B.value(0.1 * j, requires_grad=True).sin() for j in range(m)]
        inner = B.sum(vals)
        y = B.sum(waiting + [inner]) if m else inner
        y.backward()
        rec(f"sum of 3 leaves, {m} waiting: hook order", list(log))
    # leaves and an op interleaved in one node's edges
    log.clear()
    vals = leaves(4, start=-1.0)
    it = iter(vals)
    terms = [next(it) if c == "L" else B.value(0.5, requires_grad=True).exp() for c in "LLOLL"]
    B.sum(terms).backward()
    rec("edges LLOLL: hook order", list(log))
    # several roots: backward([...]) starts them in the order given
    for k in (2, 3):
        log.clear()
        B.backward(leaves(k))
        rec(f"backward on {k} leaves: hook order", list(log))
    log.clear()
    vals = leaves(5)
    x = B.value(3.0, requires_grad=True)
    x.register_hook(lambda g: log.append("x"))
    B.backward([v * x if i % 2 == 0 else v for i, v in enumerate(vals)])
    rec("roots mixing leaves and products: hook order", list(log))
    # a product of two sums
    log.clear()
    vals = leaves(6, start=0.5)
    p = B.sum(vals[:3]) * B.sum(vals[3:])
    p.backward()
    rec("product of two sums: hook order", list(log))
    rec("product of two sums: grads", [v.grad for v in vals])
    vals = leaves(7, start=1.5)
    q = B.value(2.0, requires_grad=True).cos()
    rec("grad of a sum of 7: results", list(B.grad(B.sum([q, B.sum(vals)]), vals)))
