"""requires_grad must be a bool; hooks are checked when called, with torch's texts."""


def run(B, rec):
    v = B.value(1.0)

    def set_flag(x):
        v.requires_grad = x

    for x in (1, 0, "yes", None, 1.0, True, False):
        rec(f"requires_grad = {x!r}", lambda: set_flag(x))
        rec(f"requires_grad = {x!r}: now", v.requires_grad)
    rec("requires_grad_(1)", lambda: B.value(1.0).requires_grad_(1))
    rec("requires_grad_(None)", lambda: B.value(1.0).requires_grad_(None))
    n = B.value(1.0, requires_grad=True) * 2
    rec("non-leaf requires_grad = 1", lambda: setattr(n, "requires_grad", 1))
    rec("non-leaf requires_grad = False", lambda: setattr(n, "requires_grad", False))
    for label, hook in (("int", 3), ("str", "s"), ("None", None)):
        z = B.value(1.0, requires_grad=True)
        rec(f"leaf register_hook({label})", lambda: z.register_hook(hook) and None)
        rec(f"leaf backward with hook {label}", lambda: (z * 2).backward())
        rec(f"leaf hook {label}: z.grad", z.grad)
        z = B.value(1.0, requires_grad=True)
        a = z * 2
        rec(f"non-leaf register_hook({label})", lambda: a.register_hook(hook) and None)
        rec(f"non-leaf backward with hook {label}", lambda: (a * 2).backward())
        rec(f"non-leaf hook {label}: z.grad", z.grad)
    for label, ret in (("float", 2.0), ("str", "s"), ("int", 7), ("list", [1.0]), ("tuple", (1.0,))):
        z = B.value(1.0, requires_grad=True)
        z.register_hook(lambda g: ret)
        rec(f"leaf hook returns {label}", lambda: (z * 2).backward())
        rec(f"leaf hook returns {label}: z.grad", z.grad)
        z = B.value(1.0, requires_grad=True)
        a = z * 2
        a.register_hook(lambda g: ret)
        rec(f"non-leaf hook returns {label}", lambda: (a * 2).backward())
        rec(f"non-leaf hook returns {label}: z.grad", z.grad)
    z = B.value(1.0, requires_grad=True)
    z.register_hook(lambda g: B.value(3.0, requires_grad=True))
    rec("hook returns a grad-requiring value", lambda: (z * 2).backward())
    rec("hook returns a grad-requiring value: z.grad", z.grad)
    z = B.value(1.0, requires_grad=True)

    def broken(g):
        raise ValueError("my hook broke")

    z.register_hook(broken)
    rec("hook raises", lambda: (z * 2).backward())
