"""What a probe saw of a result (``grader.spec.seen``): equal where only a float's last digits
differ, as a float sum in another order makes them; different wherever a student could see it."""

from __future__ import annotations

import math

from grader.spec.seen import Seen


def test_a_float_sum_in_another_order_is_seen_as_the_same() -> None:
    terms = [0.1 * k for k in range(1, 40)]
    forward, backward = sum(terms), sum(reversed(terms))
    assert forward != backward  # the last digits differ
    assert Seen([forward, {"loss": forward}]) == Seen([backward, {"loss": backward}])


def test_other_numbers_types_lengths_and_orders_are_seen_as_different() -> None:
    assert Seen([0.25, 0.5]) != Seen([0.25, 0.5000001])
    assert Seen([1.0]) != Seen([1])
    assert Seen([1.0]) != Seen((1.0,))
    assert Seen([1.0]) != Seen([1.0, 1.0])
    assert Seen({"a": 1.0, "b": 2.0}) != Seen({"b": 2.0, "a": 1.0})
    assert Seen("not a list: NoneType") != Seen("not a list: generator")


def test_nan_is_the_same_as_itself_and_zero_as_minus_zero() -> None:
    assert Seen([math.nan]) == Seen([math.nan])
    assert Seen([0.0]) == Seen([-0.0])


def test_what_was_seen_is_copied_when_looked_at() -> None:
    looked = [1.0, [2.0]]
    before = Seen(looked)
    looked[1].append(3.0)
    assert before != Seen(looked)


def test_an_object_of_another_class_is_seen_by_its_repr() -> None:
    class Shown:
        def __init__(self, text: str) -> None:
            self.text = text

        def __repr__(self) -> str:
            return self.text

    assert Seen([Shown("a")]) == Seen([Shown("a")])
    assert Seen([Shown("a")]) != Seen([Shown("b")])
