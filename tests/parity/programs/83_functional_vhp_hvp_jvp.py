"""vhp/hvp/jvp by torch's rules: v may be None only for one input, each names itself in its errors, strict mode's texts."""

from parity.helpers import echo


def run(B, rec0):
    rec = echo(rec0)
    A = B.autograd

    F = A.functional
    x = B.value(-1.0)
    y = B.value(2.0)
    w = B.value(0.3, requires_grad=True)
    def f2(a, b):
        return a * a * b + b.exp()
    for name in ("vhp", "hvp"):
        fn = getattr(F, name)
        rec(f"{name} two no v", lambda: fn(f2, (x, y)))
        rec(f"{name} two v", lambda: fn(f2, (x, y), (B.value(1.0), B.value(-2.0))))
        rec(f"{name} two v wrong len", lambda: fn(f2, (x, y), (B.value(1.0),)))
        rec(f"{name} two v single", lambda: fn(f2, (x, y), B.value(1.0)))
        rec(f"{name} linear strict", lambda: fn(lambda a: a * 3, x, B.value(1.0), strict=True))
        rec(f"{name} linear", lambda: fn(lambda a: a * 3, x, B.value(1.0)))
        rec(f"{name} const strict", lambda: fn(lambda a: y * 3, x, B.value(1.0), strict=True))
        rec(f"{name} indep strict", lambda: fn(lambda a, b: a * a, (x, y), (B.value(1.0), B.value(1.0)), strict=True))
        rec(f"{name} indep", lambda: fn(lambda a, b: a * a, (x, y), (B.value(1.0), B.value(1.0))))
        rec(f"{name} create_graph", lambda: fn(lambda a: a ** 3, w, B.value(1.0), create_graph=True))
        rec(f"{name} cube", lambda: fn(lambda a: a ** 3, w, B.value(2.0)))
        rec(f"{name} list", lambda: fn(f2, [x, y], [B.value(1.0), B.value(1.0)]))
        rec(f"{name} v list", lambda: fn(f2, (x, y), [B.value(1.0), B.value(1.0)]))
        rec(f"{name} returns tuple", lambda: fn(lambda a: (a * a,), x, B.value(1.0)))
    rec("hessian strict linear", lambda: F.hessian(lambda a: a * 3, x, strict=True))
    rec("hessian strict quadratic", lambda: F.hessian(lambda a: a * a, x, strict=True))
    rec("hessian two strict", lambda: F.hessian(lambda a, b: a * a + b, (x, y), strict=True))
    rec("hessian two", lambda: F.hessian(lambda a, b: a * a * b, (x, y)))
    rec("hessian create_graph two", lambda: F.hessian(lambda a, b: a * a * b, (w, y), create_graph=True))
    rec("jac fwd cg", lambda: F.jacobian(lambda a: a * a, x, create_graph=True, strategy="forward-mode"))
    rec("jac fwd novec", lambda: F.jacobian(lambda a: a * a, x, strategy="forward-mode"))
    rec("jvp list", lambda: F.jvp(lambda a, b: a * b, [x, y], [B.value(1.0), B.value(1.0)]))
    rec("jvp two no v", lambda: F.jvp(lambda a, b: a * b, (x, y)))
    rec("jvp strict", lambda: F.jvp(lambda a: y * 2, x, B.value(1.0), strict=True))
    rec("vjp strict indep", lambda: F.vjp(lambda a, b: a * 2, (x, y), B.value(1.0), strict=True))
    rec("jacobian strict out no grad", lambda: F.jacobian(lambda a, b: (a * 2, y * 1), (x, y), strict=True))
