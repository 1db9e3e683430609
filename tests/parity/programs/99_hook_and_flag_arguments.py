"""Hooks given the wrong things (None, an int, a string, a two-argument function) fail at backward with torch's texts; hooks returning a float, str, int, list or tuple; node hooks returning the wrong count or type; requires_grad given 1, 0, 1.0, None, a string; .grad and .data given the wrong types."""


def run(B, rec):
    w = B.value(2.5, requires_grad=True)
    x = B.value(-1.0, requires_grad=True)
    rec("register_hook(None)", lambda: (w * 1).register_hook(None) is not None)
    a = w * x
    a.register_hook(3)
    rec("backward with int hook", lambda: a.backward())
    rec("w.grad", w.grad)
    w.grad = None
    a = w * x
    a.register_hook(lambda g: 2.0)
    rec("hook returns float", lambda: a.backward())
    a = w * x
    a.register_hook(lambda g: "s")
    rec("hook returns str", lambda: a.backward())
    a = w * x
    a.register_hook(lambda g: 2)
    rec("hook returns int", lambda: a.backward())
    a = w * x
    a.register_hook(lambda g: [g])
    rec("hook returns list", lambda: a.backward())
    a = w * x
    a.register_hook(lambda g: (g,))
    rec("hook returns tuple", lambda: a.backward())
    a = w * x
    a.register_hook(lambda g, h: g)
    rec("hook two params", lambda: a.backward())
    a = w * x
    a.register_hook(lambda: None)
    rec("hook no params", lambda: a.backward())
    w.grad = None
    a = w * x
    a.register_hook(lambda g: B.value(7.0, requires_grad=True))
    rec("hook returns requiring value", lambda: a.backward())
    rec("w.grad2", w.grad)
    w.grad = None
    w2 = B.value(1.0, requires_grad=True)
    w2.register_hook(lambda g: 2.0)
    rec("leaf hook float", lambda: (w2 * 3).backward())
    rec("w2.grad", w2.grad)
    w3 = B.value(1.0, requires_grad=True)
    w3.register_hook("abc")
    rec("leaf hook str", lambda: (w3 * 3).backward())
    w4 = B.value(1.0, requires_grad=True)
    w4.register_hook(lambda g: None)
    w4.register_hook(lambda g: g * 2)
    w4.register_hook(lambda g: g + 1)
    (w4 * 3).backward()
    rec("leaf hooks chain", w4.grad)
    w5 = B.value(1.0, requires_grad=True)
    w5.register_hook(lambda g: 1 / 0)
    rec("hook raises", lambda: (w5 * 3).backward())
    w6 = B.value(1.0, requires_grad=True)
    def bad(g):
        raise KeyError("k")
    w6.register_hook(bad)
    rec("hook raises keyerror", lambda: (w6 * 3).backward())
    rec("w6.grad", w6.grad)
    c = B.value(1.0)
    rec("hook on const", lambda: c.register_hook(lambda g: g))
    rec("post acc non callable", lambda: B.value(1.0, requires_grad=True).register_post_accumulate_grad_hook(5) is not None)
    w7 = B.value(1.0, requires_grad=True)
    w7.register_post_accumulate_grad_hook(5)
    rec("post acc int backward", lambda: (w7 * 2).backward())
    rec("grad_fn hook non callable", lambda: (w * 2).grad_fn.register_hook(5) is not None)
    a = w * x
    a.grad_fn.register_hook(5)
    rec("grad_fn hook int backward", lambda: a.backward())
    a = w * x
    a.grad_fn.register_prehook(5)
    rec("grad_fn prehook int backward", lambda: a.backward())
    a = w * x
    a.grad_fn.register_prehook(lambda go: 2.0)
    rec("prehook float", lambda: a.backward())
    a = w * x
    a.grad_fn.register_prehook(lambda go: [go[0]])
    rec("prehook list", lambda: a.backward())
    a = w * x
    a.grad_fn.register_prehook(lambda go: (3.0,))
    rec("prehook tuple float", lambda: a.backward())
    a = w * x
    a.grad_fn.register_hook(lambda gi, go: (gi[0],))
    rec("hook too few", lambda: a.backward())
    a = w * x
    a.grad_fn.register_hook(lambda gi, go: (2.0, None))
    rec("hook tuple float", lambda: a.backward())
    a = w * x
    a.grad_fn.register_hook(lambda gi, go: [gi[0], gi[1]])
    rec("hook list", lambda: a.backward())
    # -- requires_grad, .grad and .data given the wrong types
    w = B.value(1.5, requires_grad=True)
    c = B.value(2.0)
    for label, v in (("1", 1), ("0", 0), ("1.0", 1.0), ("'yes'", "yes"), ("None", None), ("True", True), ("False", False)):
        def f(v=v):
            c2 = B.value(2.0)
            c2.requires_grad = v
            return c2.requires_grad
        rec(f"requires_grad = {label}", f)
        def g(v=v):
            c2 = B.value(2.0)
            return c2.requires_grad_(v).requires_grad
        rec(f"requires_grad_({label})", g)
    a = w * 2
    rec("nonleaf requires_grad = False", lambda: setattr(a, "requires_grad", False))
    rec("nonleaf requires_grad = True", lambda: setattr(a, "requires_grad", True))
    rec("nonleaf requires_grad_(False)", lambda: a.requires_grad_(False))
    rec("nonleaf requires_grad_(True)", lambda: a.requires_grad_(True))
    rec("nonleaf requires_grad_()", lambda: a.requires_grad_())
    rec("leaf requires_grad_() no arg", lambda: c.requires_grad_().requires_grad)
    rec("w.requires_grad_(False)", lambda: w.requires_grad_(False).requires_grad)
    rec("w is_leaf", w.is_leaf)
    d = B.value(3.0)
    d.requires_grad = True
    y = d * d
    rec("d set True then y", y)
    rec("set grad to float", lambda: setattr(d, "grad", 1.0))
    rec("set grad to int", lambda: setattr(d, "grad", 1))
    rec("set grad to str", lambda: setattr(d, "grad", "a"))
    rec("set grad to Value", lambda: setattr(d, "grad", B.value(4.0)))
    rec("d.grad", d.grad)
    rec("set grad to requiring Value", lambda: setattr(d, "grad", B.value(4.0, requires_grad=True)))
    rec("d.grad2", d.grad)
    rec("set grad to list", lambda: setattr(d, "grad", [1.0]))
    rec("set data to float", lambda: setattr(d, "data", 1.0))
    rec("set data to Value", lambda: setattr(d, "data", B.value(7.0)))
    rec("d after data", d)
    rec("retain_grad on leaf no grad", lambda: c.retain_grad())
    rec("register_hook on leaf no grad", lambda: c.register_hook(lambda g: g))
    rec("retain_grad on leaf", lambda: w.retain_grad())
