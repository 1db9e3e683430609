"""Wrong ex08: a copy of w's number (Value(w.item())) instead of w.detach(), so nothing is
shared; and the error of backward_of_detached never caught because there is no detach."""

import micrograph
from micrograph import Value


def detach_shares_data(w, x, new):
    w, x = Value(w, requires_grad=True), Value(x, requires_grad=True)
    y = micrograph.mul(micrograph.add(x, w), micrograph.add(w, 1))
    y.backward()
    w_detach = Value(w.item())
    w_detach.fill_(new)
    return {"w": w, "x": x, "y": y, "w_detach": w_detach}


def detach_cuts_graph(w):
    w_full, w_cut = Value(w, requires_grad=True), Value(w, requires_grad=True)
    cut = w_cut.detach()
    y_full, y_cut = w_full * w_full, w_cut * cut
    y_full.backward()
    y_cut.backward()
    return {"w_full": w_full, "y_full": y_full, "w_cut": w_cut, "y_cut": y_cut, "w_cut_detached": cut}


def backward_of_detached(w):
    w = Value(w, requires_grad=True)
    z = w * 2
    try:
        z.backward()
    except RuntimeError as e:
        return e
    return None

# names: w_detach, does not share
