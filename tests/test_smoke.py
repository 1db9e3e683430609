"""The documents' first example, end to end."""

import micrograph as mg


def test_documents_graph() -> None:
    w = mg.Value(1.0, requires_grad=True)
    x = mg.Value(2.0, requires_grad=True)
    a = mg.add(w, x)
    b = mg.add(w, 1)
    y = mg.mul(a, b)
    y.backward()
    assert (w.grad.item(), x.grad.item()) == (5.0, 2.0)
