"""Slips a student makes while following the tutorials, on values of our own, and what torch answers:
``with no_grad:`` without the call, ``no_grad(True)``, ``set_grad_enabled()`` without a mode,
``y.backward`` not called, ``x.grad += 1`` before any backward, ``requires_grad`` set to a
non-bool, calling a graph node directly, reading ``AccumulateGrad.variable``, and ``x.grad`` read
through the leaf's accumulator after ``retain_graph``."""


def run(B, rec):
    x = B.value(0.5, requires_grad=True)

    def with_class():
        try:
            with B.no_grad:
                pass
        except (TypeError, AttributeError):  # Python's own words, which differ by version (3.10:
            # AttributeError: __enter__): what torch's answer shows is a class used as one
            raise TypeError(f"a {type(B.no_grad).__name__} is no context manager") from None

    rec("with no_grad: (not called)", with_class)
    rec("no_grad(True)", lambda: B.no_grad(True))
    rec("set_grad_enabled()", lambda: B.set_grad_enabled())
    rec("set_grad_enabled('no')", lambda: B.set_grad_enabled("no"))
    rec("grad mode after those", B.is_grad_enabled())
    y = x * 3
    _ = y.backward
    rec("y.backward without calling it: x.grad", x.grad)

    def grad_plus_one():
        x.grad += 1

    rec("x.grad += 1 before a backward", grad_plus_one)
    rec("x.requires_grad = 1", lambda: setattr(x, "requires_grad", 1))
    rec("x.requires_grad_(0)", lambda: x.requires_grad_(0))
    rec("after", (x.requires_grad, x.is_leaf))

    y = x * x + x
    node = y.grad_fn
    rec("calling the node directly", lambda: node(B.value(1.0)))
    mul = node.next_functions[0][0]
    rec("calling the Mul node directly", mul(B.value(2.0)))
    acc = mul.next_functions[0][0]
    rec("AccumulateGrad.variable is x", acc.variable is x)
    rec("x.grad still None after calling nodes", x.grad)
    y.backward(retain_graph=True)
    rec("then a backward", x.grad)
    y.backward()
    rec("and a second, retained", x.grad)

    x.grad = None
    y = (x * 2).exp()
    y.backward()
    rec("x.grad.zero_() returns x.grad", x.grad.zero_() is x.grad)
    rec("after zero_()", x.grad)
    rec("x.grad.data.zero_() style", lambda: x.grad.data.zero_())
    rec("x.grad.requires_grad", x.grad.requires_grad)
