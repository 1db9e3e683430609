"""Pickling a value, as torch pickles a one-element tensor: the number, requires_grad and the
user's own attributes come back; the graph, .grad and the version do not (a rebuilt tensor is at
version 1).  A leaf that was in a graph (it holds a weak reference to its AccumulateGrad) and a
non-leaf (it comes back as a leaf that requires grad) pickle too."""

import pickle


def _round_trip(v):
    u = pickle.loads(pickle.dumps(v))
    return (u.item(), str(u.dtype), u.requires_grad, u.is_leaf, u.grad_fn is None, u._version)


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    rec("fresh leaf", _round_trip(w))
    y = w * 2
    rec("leaf in a graph", _round_trip(w))
    rec("non-leaf", _round_trip(y))
    y.backward()
    u = pickle.loads(pickle.dumps(w))
    rec("leaf after backward: .grad", u.grad)
    rec("its original's .grad", w.grad)
    c = B.value(-2.0)
    c.add_(1)
    rec("constant changed in place", _round_trip(c))
    rec("detached", _round_trip(w.detach()))
    with B.no_grad():
        rec("made under no_grad", _round_trip(w * 3))
    rec("a comparison", _round_trip(w > 0))
    rec("a count", _round_trip((w > 0) + 1))
    w.note = "kept"
    rec("a user attribute", getattr(pickle.loads(pickle.dumps(w)), "note", None))
    u = pickle.loads(pickle.dumps(w))
    z = u * u
    z.backward()
    rec("the copy trains", u.grad)
    rec("the original untouched", w.grad)
