"""``grader.spec.refused`` reads the Value the engine refused from the frame that raised: the
engine's own variable names there (``outputs`` and ``i`` in ``GraphTask.__init__``, ``self`` in
``record_inplace``), and only for the refusal's own error, not another one those frames raise."""

from __future__ import annotations

import pytest

from micrograph import Value, backward, inference_mode, ops
from micrograph.value import record_inplace

from grader.spec.refused import IN_PLACE, PASS_START, refused_by_engine


def _raised(fn, *args: object) -> BaseException:
    with pytest.raises(Exception) as caught:
        fn(*args)
    return caught.value


def test_the_output_a_backward_pass_refused_is_read_from_the_engines_frame() -> None:
    done, refused = Value(1.5, requires_grad=True) * 2, Value(2.0)
    error = _raised(backward, [done, refused])
    assert refused_by_engine(error, PASS_START) is refused


def test_the_leaf_an_in_place_change_refused_is_read_from_the_engines_frame() -> None:
    w = Value(1.5, requires_grad=True)
    assert refused_by_engine(_raised(w.add_, 1.0), IN_PLACE) is w


def test_another_error_of_record_inplace_is_no_refused_leaf() -> None:
    with inference_mode():
        made = Value(1.0)
    changed_outside = _raised(made.add_, 1.0)  # a RuntimeError of its own, raised in record_inplace
    not_a_number = _raised(record_inplace, ops.AddBackward0, Value(1.0), "a")  # a TypeError there
    assert [refused_by_engine(e, IN_PLACE) for e in (changed_outside, not_a_number)] == [None, None]


def test_an_error_raised_elsewhere_is_no_refusal() -> None:
    w = Value(1.5, requires_grad=True)
    assert refused_by_engine(_raised(w.add_, 1.0), PASS_START) is None
    assert refused_by_engine(RuntimeError("element 0 of tensors does not require grad"), PASS_START) is None
