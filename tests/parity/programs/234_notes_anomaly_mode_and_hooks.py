"""Anomaly mode as the "Autograd mechanics" notes and the detect_anomaly docs show it, with hooks, on values of
our own: an error raised anywhere in a node's turn (a tensor hook of a leaf or a non-leaf, a node pre- or post-hook,
a post-accumulate hook, a hook's wrong return, a second backward) first warns where that node was made (or that no
forward information exists); the nan check runs on what the node sends after its post-hooks and after its saved
values were released."""


def run(B, rec):
    A = B.autograd

    def boom(*args):
        raise ValueError("hook says no")

    with A.detect_anomaly():
        for where in ("leaf hook", "non-leaf hook", "node pre-hook", "node post-hook", "post-accumulate hook",
                      "AccumulateGrad pre-hook", "retain_grad and a hook", "hook during grad()"):
            x = B.value(0.75, requires_grad=True)
            y = x.exp()
            z = y * 2
            if where == "leaf hook":
                x.register_hook(boom)
            elif where == "non-leaf hook":
                y.register_hook(boom)
            elif where == "node pre-hook":
                z.grad_fn.register_prehook(boom)
            elif where == "node post-hook":
                y.grad_fn.register_hook(boom)
            elif where == "post-accumulate hook":
                x.register_post_accumulate_grad_hook(boom)
            elif where == "AccumulateGrad pre-hook":
                z.grad_fn.next_functions[0][0].next_functions[0][0].register_prehook(boom)
            elif where == "retain_grad and a hook":
                y.retain_grad()
                y.register_hook(boom)
            else:
                y.register_hook(boom)
                rec(f"{where}: grad", lambda: B.grad(z, [y]))
                continue
            rec(f"{where}: backward", lambda: z.backward())
    x = B.value(0.75, requires_grad=True)
    y = x.exp()
    y.register_hook(boom)
    with A.detect_anomaly():
        rec("made outside anomaly mode", lambda: y.backward())
    with A.detect_anomaly():
        x = B.value(0.75, requires_grad=True)
        y = x.exp()
    y.register_hook(boom)
    rec("made inside, run outside", lambda: y.backward())
    with A.detect_anomaly():
        x = B.value(-0.4, requires_grad=True)
        y = x * 1
        y.backward()
        rec("second backward, nothing saved", lambda: y.backward())
        y = x.exp()
        y.backward()
        rec("second backward, exp", lambda: y.backward())
        y = x.exp()
        y.register_hook(lambda g: 3.0)
        rec("a hook returning a number", lambda: y.backward())

        x = B.value(0.0, requires_grad=True)
        y = x.sqrt()
        z = y * 0.0
        y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (B.value(0.5),))
        rec("a post-hook replaces the nan", lambda: z.backward())
        rec("x.grad", x.grad)
        x = B.value(4.0, requires_grad=True)
        y = x.sqrt()
        y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (grad_inputs[0] * float("nan"),))
        rec("a post-hook makes a nan", lambda: y.backward())
        rec("x.grad after the nan", x.grad)
        rec("backward again: released before the check", lambda: y.backward())
        x = B.value(4.0, requires_grad=True)
        y = x.sqrt()
        y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (grad_inputs[0] * float("nan"),))
        rec("retain_graph: a post-hook makes a nan", lambda: y.backward(retain_graph=True))
        rec("retain_graph: again", lambda: y.backward())
        x = B.value(0.0, requires_grad=True)
        y = x.sqrt() * 0.0
        with A.detect_anomaly(check_nan=False):
            rec("check_nan=False", lambda: y.backward(retain_graph=True))
            rec("check_nan=False: x.grad", x.grad)
        rec("check_nan again", lambda: y.backward())
        x = B.value(0.0, requires_grad=True)
        rec("grad() of a nan", lambda: B.grad(x.sqrt() * 0.0, x))
        x = B.value(0.0, requires_grad=True)
        x.register_hook(lambda g: g * float("nan"))
        rec("a leaf hook makes a nan", lambda: (x * 2).backward())
        rec("a leaf hook makes a nan: x.grad", x.grad)
