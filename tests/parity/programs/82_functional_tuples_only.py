"""autograd.functional on other functions: only a tuple groups Values (a list is torch's TypeError), strict with vectorize, strategies, create_graph."""


def run(B, rec0):
    def rec(k, v):
        r = rec0(k, v)
        if callable(v) and not hasattr(v, "item") and not hasattr(v, "next_functions") and r is not None:
            rec0(k + " =", r)
        return r
    A = B.autograd

    F = A.functional
    def f1(a):
        return a * a * a
    def f2(a, b):
        return a * b + b.exp()
    def f2t(a, b):
        return (a * b, a + b)
    w = B.value(0.5, requires_grad=True)
    x = B.value(-1.0)
    y = B.value(2.0)
    rec("jac single", lambda: F.jacobian(f1, x))
    rec("jac tuple", lambda: F.jacobian(f2, (x, y)))
    rec("jac list", lambda: F.jacobian(f2, [x, y]))
    rec("jac multi out", lambda: F.jacobian(f2t, (x, y)))
    rec("jac multi out single in", lambda: F.jacobian(lambda a: (a * 2, a * 3), x))
    rec("jac list out", lambda: F.jacobian(lambda a: [a * 2, a * 3], x))
    rec("jac create_graph", lambda: F.jacobian(f1, x, create_graph=True))
    rec("jac create_graph rg input", lambda: F.jacobian(f1, w, create_graph=True))
    rec("jac strict const", lambda: F.jacobian(lambda a: x * 2, x, strict=True))
    rec("jac nonstrict const", lambda: F.jacobian(lambda a: x * 2, x))
    rec("jac strict indep", lambda: F.jacobian(lambda a: a * 0 + 1, x, strict=True))
    rec("jac strict linear", lambda: F.jacobian(lambda a: a * 3, x, strict=True))
    rec("jac vectorize", lambda: F.jacobian(f1, x, vectorize=True))
    rec("jac strategy", lambda: F.jacobian(f1, x, strategy="forward-mode"))
    rec("jac strict+vectorize", lambda: F.jacobian(f1, x, strict=True, vectorize=True))
    rec("jac bad strategy", lambda: F.jacobian(f1, x, strategy="x"))
    rec("jac returns float", lambda: F.jacobian(lambda a: 2.0, x))
    rec("jac input float", lambda: F.jacobian(f1, 2.0))
    rec("jac input list of float", lambda: F.jacobian(f1, [2.0]))
    rec("jac keeps input untouched", (x.requires_grad, x.grad))
    rec("hess single", lambda: F.hessian(f1, x))
    rec("hess tuple", lambda: F.hessian(f2, (x, y)))
    rec("hess create_graph", lambda: F.hessian(f1, w, create_graph=True))
    rec("hess strict", lambda: F.hessian(lambda a: a * 2, x, strict=True))
    rec("hess nonstrict linear", lambda: F.hessian(lambda a: a * 2, x))
    rec("hess multi out", lambda: F.hessian(f2t, (x, y)))
    rec("hess outer_jacobian_strategy", lambda: F.hessian(f1, x, outer_jacobian_strategy="forward-mode"))
    rec("hess vectorize", lambda: F.hessian(f1, x, vectorize=True))
    rec("vjp single", lambda: F.vjp(f1, x))
    rec("vjp v", lambda: F.vjp(f1, x, B.value(2.0)))
    rec("vjp v float", lambda: F.vjp(f1, x, 2.0))
    rec("vjp tuple", lambda: F.vjp(f2, (x, y), B.value(3.0)))
    rec("vjp multi out no v", lambda: F.vjp(f2t, (x, y)))
    rec("vjp multi out v", lambda: F.vjp(f2t, (x, y), (B.value(1.0), B.value(2.0))))
    rec("vjp multi out v list", lambda: F.vjp(f2t, (x, y), [B.value(1.0), B.value(2.0)]))
    rec("vjp multi out v one", lambda: F.vjp(f2t, (x, y), B.value(1.0)))
    rec("vjp strict", lambda: F.vjp(lambda a: x * 2, x, strict=True))
    rec("vjp create_graph", lambda: F.vjp(f1, w, create_graph=True))
    rec("vjp list in", lambda: F.vjp(f2, [x, y]))
    rec("jvp", lambda: F.jvp(f1, x, B.value(2.0)))
    rec("jvp no v", lambda: F.jvp(f1, x))
    rec("jvp tuple", lambda: F.jvp(f2, (x, y), (B.value(1.0), B.value(0.0))))
    rec("hvp", lambda: F.hvp(f1, x, B.value(2.0)))
    rec("vhp", lambda: F.vhp(f1, x, B.value(2.0)))
    rec("hvp tuple", lambda: F.hvp(f2, (x, y), (B.value(1.0), B.value(1.0))))
    rec("vhp multi out", lambda: F.vhp(f2t, (x, y), (B.value(1.0), B.value(1.0))))
    rec("hvp no v", lambda: F.hvp(f1, x))
    rec("jac requires_grad of result", lambda: F.jacobian(f1, w).requires_grad)
    rec("jac of identity", lambda: F.jacobian(lambda a: a, x))
    rec("jac of identity strict", lambda: F.jacobian(lambda a: a, x, strict=True))
    rec("hess of identity", lambda: F.hessian(lambda a: a, x))
    rec("jac nonscalar-like returning input tuple", lambda: F.jacobian(lambda a, b: a, (x, y)))
