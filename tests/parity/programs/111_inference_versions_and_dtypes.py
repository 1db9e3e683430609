"""``_version`` of inference values: torch keeps no version counter for a value made in inference mode,
and says so whenever it is read, inside the mode or after it; a value made from one outside it has one."""

from parity.helpers import attempt


def run(B, rec):
    w = B.value(2.0, requires_grad=True)
    with B.inference_mode():
        iv = B.value(3.0)
        iw = w * 2
        rec("inside: iv._version", attempt(lambda: iv._version))
        rec("inside: w._version", attempt(lambda: w._version))
        rec("inside: made inside, detached", attempt(lambda: iv.detach()._version))
        rec("inside: comparison", attempt(lambda: (iv > 0)._version))
    rec("iv._version", attempt(lambda: iv._version))
    rec("iw._version", attempt(lambda: iw._version))
    rec("iv.clone()._version", attempt(lambda: (iv * 1)._version))
    rec("iv + 1 version", attempt(lambda: (iv + 1)._version))
    rec("grad of iv", attempt(lambda: iv.grad))
    with B.no_grad():
        rec("no_grad: iv._version", attempt(lambda: iv._version))
    v = B.value(1.0)
    v.grad = iv
    rec("inference grad assigned", attempt(lambda: (v.grad, v.grad.is_inference())))
