"""Correct ex08, written differently: other names, the operators instead of micrograph.add/mul,
copy_ from a detached Value, and the error kept in a variable."""

from micrograph import Value


def detach_shares_data(w, x, new):
    weight = Value(w, requires_grad=True)
    inp = Value(x, requires_grad=True)
    out = (inp + weight) * (weight + 1)
    out.backward()
    alias = weight.detach()
    alias.copy_(Value(new))
    return {"w": weight, "x": inp, "y": out, "w_detach": alias}


def detach_cuts_graph(w):
    a = Value(w, requires_grad=True)
    b = Value(w, requires_grad=True)
    both = a * a
    frozen = b.detach()
    one = frozen * b
    both.backward()
    one.backward()
    return {"w_full": a, "y_full": both, "w_cut": b, "y_cut": one, "w_cut_detached": frozen}


def backward_of_detached(w):
    leaf = Value(w, requires_grad=True)
    constant = (leaf * 2).detach()
    caught = None
    try:
        constant.backward()
    except RuntimeError as error:
        caught = error
    return caught
