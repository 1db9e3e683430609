"""The "Autograd mechanics" notes' "Whether a particular hook will be fired", on values of our own: a tensor hook runs
whenever its tensor's gradient is computed, even where its grad_fn does not run (a non-leaf given to grad() as an
input); a node's pre-hooks and hooks run only when the node runs (under grad() a leaf's AccumulateGrad does not); a
post-accumulate hook only when the leaf's .grad is written (not for a leaf left out by inputs=, nor under grad())."""


def run(B, rec):
    def graph():
        log = []
        x, z = B.value(2.0, requires_grad=True), B.value(3.0, requires_grad=True)
        a = x * 3.0
        y = a * a * z
        a.register_hook(lambda g: log.append(("a tensor hook", g.item())))
        a.grad_fn.register_prehook(lambda go: log.append(("a node pre-hook", go[0].item())))
        a.grad_fn.register_hook(lambda gi, go: log.append(("a node hook", go[0].item())))
        for name, leaf in (("x", x), ("z", z)):
            leaf.register_hook(lambda g, name=name: log.append((f"{name} tensor hook", g.item())))
            leaf.register_post_accumulate_grad_hook(lambda p, name=name: log.append((f"{name} post-accumulate", p.grad.item())))
            acc = y.grad_fn.next_functions[1][0] if name == "z" else a.grad_fn.next_functions[0][0]
            acc.register_prehook(lambda go, name=name: log.append((f"{name} AccumulateGrad pre-hook", go[0].item())))
            acc.register_hook(lambda gi, go, name=name: log.append((f"{name} AccumulateGrad hook", go[0].item())))
        return log, x, z, a, y

    for label, run_pass in [("backward()", lambda x, z, a, y: y.backward()),
                            ("backward(inputs=[a])", lambda x, z, a, y: y.backward(inputs=[a])),
                            ("backward(inputs=[z])", lambda x, z, a, y: y.backward(inputs=[z])),
                            ("grad(y, [a])", lambda x, z, a, y: B.grad(y, [a])),
                            ("grad(y, [x])", lambda x, z, a, y: B.grad(y, [x])),
                            ("grad(y, [a, z])", lambda x, z, a, y: B.grad(y, [a, z]))]:
        log, x, z, a, y = graph()
        rec(f"{label}: returned", run_pass(x, z, a, y))
        rec(f"{label}: hooks fired, in order", log)
        rec(f"{label}: x.grad, z.grad", (x.grad, z.grad))
