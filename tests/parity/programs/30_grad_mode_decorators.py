"""Grad-mode switches as decorators; the mode is restored even when the body raises."""


class Boom(Exception):
    pass


def run(B, rec):
    w = B.value(1.5, requires_grad=True)

    @B.no_grad()
    def f(v):
        rec("inside @no_grad(): enabled", B.is_grad_enabled())
        return v * 2

    y = f(w)
    rec("y", y)
    rec("y.grad_fn", y.grad_fn)
    rec("after @no_grad() call: enabled", B.is_grad_enabled())
    rec("decorated function keeps its name", f.__name__)

    @B.no_grad()
    def g(v):
        raise Boom("kaboom")

    rec("@no_grad() function raising", lambda: g(w))
    rec("after a raising @no_grad(): enabled", B.is_grad_enabled())

    def ctx_raises():
        with B.no_grad():
            raise Boom("inside with")

    rec("with no_grad() raising", ctx_raises)
    rec("after a raising with-block: enabled", B.is_grad_enabled())

    @B.enable_grad()
    def h(v):
        return v * 3

    with B.no_grad():
        r = h(w)
        rec("@enable_grad() under no_grad: enabled after", B.is_grad_enabled())
    rec("r.grad_fn", r.grad_fn)
    rec("r.requires_grad", r.requires_grad)

    @B.set_grad_enabled(False)
    def k(v):
        rec("inside @set_grad_enabled(False): enabled", B.is_grad_enabled())
        return v - 1

    rec("after decorating with set_grad_enabled(False): enabled", B.is_grad_enabled())
    rec("k(w).grad_fn", k(w).grad_fn)
    rec("after k(): enabled", B.is_grad_enabled())

    def enable_raises():
        with B.enable_grad():
            raise Boom("in enable_grad")

    with B.no_grad():
        rec("with enable_grad() raising under no_grad", enable_raises)
        rec("still no_grad after it", B.is_grad_enabled())

    def set_raises():
        with B.set_grad_enabled(False):
            raise Boom("in set_grad_enabled")

    rec("with set_grad_enabled(False) raising", set_raises)
    rec("enabled after it", B.is_grad_enabled())

    def bare_decorator():
        @B.no_grad
        def bare(v):
            return v * 4

        return bare(w)

    result = rec("bare @no_grad (no parentheses)", bare_decorator)
    rec("bare @no_grad: grad_fn", getattr(result, "grad_fn", "n/a"))
