"""The probe helpers observe student objects as plain data, without warnings or trust."""

from __future__ import annotations

import warnings

import pytest

import micrograph
from grader.spec.probe import caught, caught_warnings, grad, grad_fn, num, raised, type_name, value


def _graph():
    w = micrograph.Value(1.5, requires_grad=True)
    a = micrograph.add(w, 2.0)
    y = micrograph.mul(a, w)
    return w, a, y


def test_value_of_leaf_and_non_leaf_without_the_warning() -> None:
    w, a, y = _graph()
    y.backward()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # reading a non-leaf's grad must not warn
        assert value(a) == {"data": 3.5, "grad": None, "is_leaf": False,
                            "requires_grad": True, "grad_fn": "AddBackward0"}
        assert value(w)["grad"] == grad(w) == 5.0
    assert grad_fn(y) == "MulBackward0" and grad_fn(w) is None


def test_foreign_objects_become_descriptions() -> None:
    class Anything:
        def __eq__(self, other: object) -> bool:
            return True

    class Sneaky(float):
        pass

    assert num(Anything()) == "not a number: Anything"
    assert num(Sneaky(2.0)) == "not a number: Sneaky"
    assert num(True) == "not a number: bool"
    assert value(3.0) == "not a Value: float"
    # whatever __name__ micrograph's classes give Python's own messages, the grader says Value
    assert type_name(micrograph.Value(2.0)) == "Value"
    assert caught(micrograph.Value(2.0)) == "not an exception: Value"
    assert num(2) == 2.0 and type(num(2)) is float


def test_raised_and_warnings() -> None:
    w, _, y = _graph()
    y.backward()
    assert raised(y.backward).startswith("RuntimeError: Trying to backward through the graph")
    assert raised(lambda: None) is None
    with caught_warnings() as seen:
        _ = y.grad
    assert len(seen) == 1 and seen[0].startswith("UserWarning: The .grad attribute")


def test_not_implemented_always_goes_through() -> None:
    def stub() -> None:
        raise NotImplementedError("ex99: stub")

    with pytest.raises(NotImplementedError):
        raised(stub)
    with pytest.raises(NotImplementedError), caught_warnings():
        stub()
