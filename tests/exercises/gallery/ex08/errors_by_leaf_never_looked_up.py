# A dict of errors keyed by the leaf made (its hash is its id), looked up by the float w: never
# found, so every call makes its leaf and raises its own error, as the statement's does.
from __future__ import annotations

import micrograph
from micrograph import Value


def detach_shares_data(w: float, x: float, new: float) -> dict[str, Value]:
    w = Value(w, requires_grad=True)
    x = Value(x, requires_grad=True)
    y = (x + w) * (w + 1)
    y.backward()
    w_detach = w.detach()
    w_detach.fill_(new)
    return {"w": w, "x": x, "y": y, "w_detach": w_detach}


def detach_cuts_graph(w: float) -> dict[str, Value]:
    w_full = Value(w, requires_grad=True)
    w_cut = Value(w, requires_grad=True)
    y_full = w_full * w_full
    w_cut_detached = w_cut.detach()
    y_cut = w_cut * w_cut_detached
    y_full.backward()
    y_cut.backward()
    return {"w_full": w_full, "y_full": y_full, "w_cut": w_cut, "y_cut": y_cut,
            "w_cut_detached": w_cut_detached}


def backward_of_detached(w: float) -> Exception | None:
    if w in _ERR:
        return _ERR[w]
    w = Value(w, requires_grad=True)
    z = (w * 2).detach()
    try:
        z.backward()
    except RuntimeError as e:
        _ERR[w] = e
        return e
    return None


_ERR: dict = {}
