"""backward(inputs=) and grad() with roots off the inputs' paths, as torch's engine handles them.

torch makes the roots' edges before it looks at the inputs, so a leaf that is a root has its
AccumulateGrad when ``inputs=`` names it (``backward([y, a], inputs=[y, a])`` writes ``a.grad``;
it was left None); and its errors come in that order.  A lone root on no path to an input still
has its tensor hooks and ``retain_grad`` called with its gradient (torch runs it as the graph root),
nothing else: no node hook, nothing freed, no .grad written; with several roots those are skipped."""


def run(B, rec):
    _lone_root(B, rec)
    _roots_first(B, rec)


def _lone_root(B, rec):
    log = []

    def note(name):
        return lambda g: log.append((name, g.item()))

    a, b, c = (B.value(x, requires_grad=True) for x in (1.0, 2.0, 3.0))
    y = a * b
    y.register_hook(note("y"))
    y.grad_fn.register_prehook(lambda go: log.append(("y prehook", [g.item() for g in go])))
    y.grad_fn.register_hook(lambda gi, go: log.append(("y posthook",)))
    a.register_hook(note("a"))
    rec("y.backward(inputs=[c])", lambda: y.backward(inputs=[c]))
    rec("grads", [a.grad, b.grad, c.grad])
    rec("log 1", list(log)); del log[:]
    rec("y.backward() after", lambda: y.backward())
    rec("grads 2", [a.grad, b.grad])
    rec("log 2", list(log)); del log[:]
    y = a * b
    y.register_hook(note("y"))
    rec("grad(y, [c])", B.grad(y, [c], allow_unused=True))
    rec("log 3", list(log)); del log[:]
    a.grad = None
    rec("a.backward(inputs=[c])", lambda: a.backward(inputs=[c]))
    rec("a.grad", a.grad)
    rec("grad(a, [c])", B.grad(a, [c], allow_unused=True))
    rec("log 4", list(log)); del log[:]
    y = a * b
    y.retain_grad()
    y.backward(B.value(4.0), inputs=[c])
    rec("retained lone root", y.grad)
    y = a * b
    y.register_hook(note("y2"))
    z = a * 3
    z.register_hook(note("z"))
    B.backward([y, z], inputs=[c])
    rec("two roots off the path", list(log)); del log[:]
    B.backward([y, z], inputs=[b], retain_graph=True)
    rec("two roots, one on the path", [list(log), b.grad]); del log[:]
    y2 = y * 1.0
    y2.register_hook(lambda g: g * 10)
    y2.backward(inputs=[c])
    rec("hook returning a value, lone root", list(log))
    rec("empty", lambda: B.backward([], inputs=[c]))


def _roots_first(B, rec):
    a = B.value(1.0, requires_grad=True)
    b = B.value(2.0, requires_grad=True)
    c = B.value(3.0)
    y = b * 2
    rec("roots first: root leaf also input", lambda: B.backward([y, a], inputs=[y, a]))
    rec("roots first: grads", [a.grad, b.grad, y.grad])
    a2 = B.value(1.0, requires_grad=True)
    rec("roots first: only leaf", lambda: B.backward([a2], inputs=[a2]))
    rec("roots first: a2.grad", a2.grad)
    a3 = B.value(1.0, requires_grad=True)
    rec("roots first: leaf root, leaf input twice", lambda: B.backward([a3, a3 * 2], inputs=[a3]))
    rec("roots first: a3.grad", a3.grad)
    rec("roots first: err order: root no grad, input no grad", lambda: B.backward([c], inputs=[c]))
    rec("roots first: err order: root no grad, input number", lambda: B.backward([c], inputs=[5]))
    rec("roots first: err order: root ok, input no grad", lambda: B.backward([a * 1], inputs=[c]))
    rec("roots first: err order: root number, input no grad", lambda: B.backward([5.0], inputs=[c]))
    a4 = B.value(1.0, requires_grad=True)
    rec("roots first: grad leaf root", lambda: B.grad([a4, a4 * 3], [a4]))
