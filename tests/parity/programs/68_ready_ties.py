"""Leaves made ready together: their hooks fire in the order torch's binary-heap ready queue pops them.

One node (a sum, a product of many, the start of a backward on several roots) makes
several leaves ready at once; how many other nodes wait in the queue and which
nodes are pushed between the leaves decide the order.
"""


def run(B, rec):
    log = []

    def leaves(k, start=1.0):
        vals = [B.value(start + 0.25 * i, requires_grad=True) for i in range(k)]
        for i, v in enumerate(vals):
            v.register_hook(lambda g, i=i: log.append(i))
        return vals

    # k leaves summed while m other nodes wait in the queue
    for m in (0, 1, 2, 3, 6, 9):
        for k in (3, 4, 6, 9):
            log.clear()
            vals = leaves(k)
            waiting = [B.value(0.1 * j, requires_grad=True).sin() for j in range(m)]
            inner = B.sum(vals)
            y = B.sum(waiting + [inner]) if m else inner
            y.backward()
            rec(f"sum of {k} leaves, {m} waiting: hook order", list(log))
    # leaves and ops interleaved in one node's edges: the ops are pushed between the leaves
    for pattern in ("LLOLL", "OLLLL", "LOLOLOL", "LLLLOO", "LOOLLL"):
        log.clear()
        vals = leaves(pattern.count("L"), start=-1.0)
        it = iter(vals)
        terms = [next(it) if c == "L" else B.value(0.5, requires_grad=True).exp() for c in pattern]
        B.sum(terms).backward()
        rec(f"edges {pattern}: hook order", list(log))
    # a leaf used twice: ready at its last edge
    log.clear()
    a, b, c, d = leaves(4, start=2.0)
    B.sum([a, b, a, c, d, b]).backward()
    rec("a b a c d b: hook order", list(log))
    # several roots: backward([...]) starts them in the order given
    for k in (2, 3, 4, 5, 7):
        log.clear()
        B.backward(leaves(k))
        rec(f"backward on {k} leaves: hook order", list(log))
    log.clear()
    vals = leaves(5)
    x = B.value(3.0, requires_grad=True)
    x.register_hook(lambda g: log.append("x"))
    B.backward([v * x if i % 2 == 0 else v for i, v in enumerate(vals)])
    rec("roots mixing leaves and products: hook order", list(log))
    # a product of many: mul's edges are two, but a chain of sums makes groups deeper in the graph
    log.clear()
    vals = leaves(6, start=0.5)
    p = B.sum(vals[:3]) * B.sum(vals[3:])
    p.backward()
    rec("product of two sums: hook order", list(log))
    rec("product of two sums: grads", [v.grad for v in vals])
    # grad() pops the inputs' AccumulateGrads in the same order (their hooks say so)
    log.clear()
    vals = leaves(7, start=1.5)
    q = B.value(2.0, requires_grad=True).cos()
    r = B.grad(B.sum([q, B.sum(vals)]), vals)
    rec("grad of a sum of 7: hook order", list(log))
    rec("grad of a sum of 7: results", list(r))
