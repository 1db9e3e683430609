"""The "Autograd mechanics" notes on hooks for saved tensors, on a value of our own: ``y = x.pow(2)``,
``y.grad_fn._raw_saved_self.register_hooks(pack_hook, unpack_hook)``: pack runs at once, unpack when
backward reads the saved value; registering after the value was freed is torch's error."""


def run(B, rec):
    # _raw_saved_self and hooks on one saved value
    log = []

    def pack_hook(v):
        log.append(("pack", v.item()))
        return v

    def unpack_hook(v):
        log.append(("unpack", v.item()))
        return v

    x = B.value(0.5, requires_grad=True)
    y = x.pow(2)
    raw = y.grad_fn._raw_saved_self
    rec("_raw_saved_self register_hooks", lambda: raw.register_hooks(pack_hook, unpack_hook))
    rec("log after registering", list(log))
    y.backward()
    rec("log after backward", list(log))
    rec("x.grad", x.grad)
    rec("register_hooks after backward", lambda: y.grad_fn._raw_saved_self.register_hooks(pack_hook, unpack_hook))
