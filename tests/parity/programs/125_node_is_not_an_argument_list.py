"""A graph node where a Value or a list of them belongs: torch's TypeErrors.  A micrograph node is
the list of its edges, but backward()/grad() must not read it as a list of roots,
gradients or inputs (``backward(leaf_accumulator)`` would do nothing), and ``+``/``*`` with it are
Python's "unsupported operand" errors, not a list's concatenation or repetition."""


def run(B, rec):
    a = B.value(2.0, requires_grad=True)
    y = a * 3
    n = y.grad_fn
    acc = n.next_functions[0][0]
    rec("backward(node)", lambda: B.backward(n))
    rec("backward(accumulator)", lambda: B.backward(acc))
    rec("backward([y], node)", lambda: B.backward([y], n))
    rec("backward([y, node])", lambda: B.backward([y, n]))
    rec("y.backward(node)", lambda: y.backward(n))
    rec("y.backward(inputs=node)", lambda: y.backward(inputs=n))
    rec("grad(y, node)", lambda: B.grad(y, n))
    rec("grad(node, a)", lambda: B.grad(n, a))
    rec("grad([y], [a], node)", lambda: B.grad([y], [a], n))
    rec("grad([y], [a, node])", lambda: B.grad([y], [a, n]))
    rec("a.grad after all", a.grad)
    rec("y * node", lambda: y * n)
    rec("node * y", lambda: n * y)
    rec("y + node", lambda: y + n)
    rec("node + y", lambda: n + y)
    rec("node * 2", lambda: n * 2)
    rec("2 * node", lambda: 2 * n)
    rec("node + node", lambda: n + n)

    def add_in_place():
        m = y.grad_fn
        m += [1]

    rec("node += [1]", add_in_place)
    rec("node still", [e for e, _ in y.grad_fn.next_functions])
