"""What a 0-dim value says about itself: its shape, dtype and device, and the views of it.

``TensorAPI`` (and so ``Value``) inherits these from :class:`TensorShape`: a
Value is torch's 0-dim float64 tensor on the CPU (comparisons are bool, counts
int64: ``_dtype_name``), and ``v[()]``/``view(())``/``reshape(())`` hand over to
``views.py``, imported on first use because views build on ``Value`` (the
documented seam ``tensor_shape -> views`` of ``tests/engine/test_layout.py``).
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

from micrograph import dtypes

if TYPE_CHECKING:
    from micrograph.value import Value


def _views() -> Any:
    from micrograph import views

    return views


class TensorShape:
    """Mixed into ``TensorAPI``; ``self`` is always a Value."""

    __slots__ = ()
    _view_base: Value | None = None  # the value a view (v[()], view(())) shares its memory with (views.py)
    _dtype_name = "Double"  # torch's name of the dtype in its texts: float64

    # -- shape: a Value is a 0-dim tensor -------------------------------------------------
    @property
    def shape(self) -> tuple[()]:
        return ()

    def size(self, dim: int | None = None) -> tuple[()]:
        if dim is not None:  # a 0-dim tensor has no dimension to ask about
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        return ()

    def numel(self) -> int:
        return 1

    nelement = numel

    def dim(self) -> int:
        return 0

    ndimension = dim
    ndim = property(dim)

    def element_size(self) -> int:
        return self.dtype.itemsize

    # -- what a student asks a tensor about itself (dtypes.py) ------------------------------
    @property
    def dtype(self) -> dtypes.dtype:
        return dtypes.BY_TORCH_NAME[self._dtype_name]

    def type(self) -> str:
        return f"torch.{self._dtype_name}Tensor"

    device = property(lambda self: dtypes.CPU)
    is_cuda = property(lambda self: False)
    is_cpu = property(lambda self: True)

    def get_device(self) -> int:
        return -1  # torch's answer for a CPU tensor

    def cpu(self) -> Any:
        return self  # already there: torch returns the tensor itself

    # -- views: the same memory and version counter (views.py) ------------------------------
    def __getitem__(self, index: Any) -> Any:
        return _views().index(self, index)

    def view(self: Value, *shape: Any, size: Any = None) -> Value:  # type: ignore[misc]
        return _views().view(self, shape if size is None else (size,), "view")

    def reshape(self: Value, *args: Any, shape: Any = None) -> Value:  # type: ignore[misc]
        return _views().view(self, args if shape is None else (shape,), "reshape")

    def view_as(self: Value, other: Any) -> Value:  # type: ignore[misc]
        return _views().view(self, (_views().shape_of(other, "view_as"),), "view")

    def reshape_as(self: Value, other: Any) -> Value:  # type: ignore[misc]
        return _views().view(self, (_views().shape_of(other, "reshape_as"),), "reshape")

    def t(self: Value) -> Value:  # type: ignore[misc]
        return _views().make_view(self, _views().TBackward0)

    @property
    def T(self: Value) -> Value:  # type: ignore[misc]  # noqa: N802 - torch's name
        warnings.warn("Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases.",
                      UserWarning, stacklevel=2)
        return _views().make_view(self, _views().PermuteBackward0)

    def permute(self: Value, *dims: Any) -> Value:  # type: ignore[misc]
        return _views().permute(self, dims)

    def squeeze(self: Value, dim: Any = None) -> Value:  # type: ignore[misc]
        return _views().squeeze(self, dim)

    def expand(self: Value, *sizes: Any) -> Value:  # type: ignore[misc]
        return _views().expand(self, sizes)

    def float(self) -> Any:
        raise NotImplementedError(
            "v.float() is a float32 tensor in torch; micrograph has float64 values only (float32 is not modelled)"
        )

    def contiguous(self) -> Any:
        return self  # already contiguous: torch returns the tensor itself

    def double(self: Value) -> Value:  # type: ignore[misc]
        """Itself for a float64 Value (as torch); a count or a comparison as a new float64 Value."""
        return self if self._dtype_name == "Double" else _views().as_double(self)

    @property
    def _base(self) -> Value | None:
        return self._view_base

    def _is_view(self) -> bool:
        return self._view_base is not None

    def _check_view_inplace(self: Value) -> None:  # type: ignore[misc]
        """Called by an in-place op on a view in grad mode: torch's refusals (views.check_inplace)."""
        _views().check_inplace(self)

    def tolist(self: Value) -> Any:  # type: ignore[misc]
        return self.item()

    def __len__(self) -> int:
        raise TypeError("len() of a 0-d tensor")

    def __iter__(self) -> Any:
        raise TypeError("iteration over a 0-d tensor")
