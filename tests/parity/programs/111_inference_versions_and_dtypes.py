"""What a value says about itself: ``_version`` of inference values (torch keeps no counter for one made in
inference mode), ``dtype``/``device``/``is_cuda``/``type()``/``element_size()`` of float, bool and int
values, ``cpu()``; in-place changes through views of values that require grad, refused as torch refuses them."""

import operator

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

    x = B.value(1.5)
    c = x > 0
    n = c.sum() + 2
    for label, t in {"w": w, "x": x, "w*2": w * 2, "comparison": c, "count": n, "iv": iv}.items():
        rec(f"{label}: dtype", (str(t.dtype), repr(t.dtype), t.dtype.is_floating_point, t.dtype.itemsize))
        rec(f"{label}: device", (str(t.device), repr(t.device), t.device.type, t.device.index, t.is_cuda, t.is_cpu))
        rec(f"{label}: type()", (t.type(), t.element_size(), t.get_device(), t.cpu() is t, t.is_floating_point()))
    rec("dtypes equal", (w.dtype == x.dtype, w.dtype == c.dtype, c.dtype == n.dtype, n.dtype == (n + 1).dtype))
    rec("devices equal", (w.device == x.device, w.device == "cpu", str(w.device) == "cpu"))
    rec("dtype is the same object", w.dtype is x.dtype)
    rec("dtype of grad", attempt(lambda: str(B.grad(w * w, w)[0].dtype)))

    # in place through a view: torch refuses a view of a leaf that requires grad
    rec("w[()].add_(1)", attempt(lambda: w[()].add_(1)))
    rec("w.view(()).mul_(2)", attempt(lambda: w.view(()).mul_(2)))
    rec("w after", (w, w._version))
    with B.no_grad():
        nv = w[()]
        rec("view under no_grad", (nv.requires_grad, nv.is_leaf, nv.grad_fn))
        rec("in place on it under no_grad", attempt(lambda: nv.add_(1)))
    rec("w after no_grad change", (w, w._version, nv._version))
    rec("no_grad view in place later", attempt(lambda: nv.add_(1)))
    k = B.value(4.0)
    kv = k[()]
    rec("constant's view in place", attempt(lambda: (kv.mul_(2), k, k._version)))
    kv2 = k.reshape(())
    kv2.requires_grad_()
    rec("view made to require grad", (kv2.requires_grad, kv2.is_leaf, kv2.grad_fn, k.requires_grad))

    # in place on a count or a comparison: the result must keep its dtype, as torch checks
    count = (B.value(3.0) > 0).sum()
    flag = B.value(3.0) > 0
    for label, f in {
        "count += 1": lambda: operator.iadd(count.clone(), 1), "count.add_(1.5)": lambda: count.clone().add_(1.5),
        "count.mul_(2)": lambda: count.clone().mul_(2), "count.add_(w)": lambda: count.clone().add_(w),
        "count.sub_(flag)": lambda: count.clone().sub_(flag), "count.div_(2)": lambda: count.clone().div_(2),
        "count.mul_(flag)": lambda: count.clone().mul_(flag), "flag.add_(1)": lambda: flag.clone().add_(1),
        "flag.add_(flag)": lambda: flag.clone().add_(flag), "flag.mul_(True)": lambda: flag.clone().mul_(True),
        "flag.sub_(flag)": lambda: flag.clone().sub_(flag), "x.add_(count)": lambda: x.clone().add_(count),
        "x.mul_(flag)": lambda: x.clone().mul_(flag), "count *= 0.5": lambda: operator.imul(count.clone(), 0.5),
        "count.zero_()": lambda: count.clone().zero_(),
    }.items():
        rec(label, attempt(lambda: _show(f())))


def _show(v):
    return (v, type(v.item()).__name__, str(v.dtype), v._version)
