"""The Value API beyond what the torch parity programs cover."""

import math
import sys
import threading
import weakref

import pytest

import micrograph as mg
from micrograph import Value


@pytest.mark.parametrize("bad", ["1.0", None, [1.0], 1 + 2j, object()])
def test_constructor_rejects_non_real_data_naming_the_type(bad):
    with pytest.raises(TypeError, match=type(bad).__name__):
        Value(bad)


def test_constructor_given_a_value_copies_its_number_with_torchs_warning():
    """``torch.tensor(t)`` is a new leaf holding t's number (no graph, no shared storage), with a UserWarning."""
    w = Value(2.0, requires_grad=True)
    with pytest.warns(UserWarning, match="^To copy construct from a tensor"):
        copy = Value(w * 3.0, requires_grad=True)
    assert copy.item() == 6.0 and copy.is_leaf and copy.requires_grad and not mg.value.shares_storage(copy, w)


@pytest.mark.parametrize("good, expected", [(3, 3.0), (True, 1.0), (2.5, 2.5)])
def test_constructor_stores_real_numbers_as_float(good, expected):
    v = Value(good)
    assert type(v.item()) is float and v.item() == expected


def test_requires_grad_is_keyword_only_as_in_torch_tensor():
    """``torch.tensor(2.0, True)`` is a TypeError: a flag passed by position must not make a leaf here."""
    with pytest.raises(TypeError, match="positional"):
        Value(2.0, True)
    assert Value(2.0, requires_grad=True).requires_grad


def test_repr_follows_pytorch():
    w = Value(1.0, requires_grad=True)
    assert repr(w) == "Value(1., requires_grad=True)"
    assert repr(w * 6) == "Value(6., grad_fn=<MulBackward0>)"
    assert repr(Value(1 / 3)) == "Value(0.3333)"
    assert repr(Value(-0.0)) == "Value(-0.)"
    assert repr(Value(1e10)) == "Value(1.0000e+10)"
    assert repr(Value(math.nan)) == "Value(nan)"
    node = (w * 2).grad_fn
    assert repr(node).startswith("<MulBackward0 object at 0x")


def test_values_hash_by_identity_and_compare_by_data_without_recording():
    a, b = Value(2.0, requires_grad=True), Value(2.0)
    assert len({a, b}) == 2 and {a: 1}[a] == 1
    assert a <= b and a >= b and not a < b and a > 1 and 3 > a
    less = a < 3  # a bool Value, as torch's bool tensor: truthy, no grad, no graph
    assert less.item() is True and not less.requires_grad and less.grad_fn is None
    assert (a == b).item() is True and (a != b).item() is False and hash(a) == id(a)


def test_format_spec_formats_the_number():
    assert f"{Value(2.5):.2f}" == "2.50"


def test_grad_mode_is_thread_local():
    seen = {}

    def worker():
        seen["other"] = mg.is_grad_enabled()

    with mg.no_grad():
        t = threading.Thread(target=worker)
        t.start()
        t.join()
        assert not mg.is_grad_enabled()
    assert seen["other"] is True


def test_set_grad_enabled_as_plain_call_and_restores_after_exception():
    mg.set_grad_enabled(False)
    try:
        assert not mg.is_grad_enabled()
    finally:
        mg.set_grad_enabled(True)

    @mg.no_grad()
    def boom():
        raise ValueError("x")

    with pytest.raises(ValueError):
        boom()
    assert mg.is_grad_enabled()


def test_inplace_operators_keep_identity_and_bump_version():
    a = Value(1.0)
    ident = id(a)
    a += 1
    a *= 3
    a -= 1
    a /= 5
    assert id(a) == ident and a.item() == 1.0 and a._version == 4
    b = a + 1
    assert id(b) != ident


def test_ieee_results_never_raise():
    assert (Value(1.0) / 0).item() == math.inf
    assert (Value(-1.0) / 0).item() == -math.inf
    assert math.isnan((Value(0.0) / 0).item())
    assert Value(0.0).log().item() == -math.inf
    assert Value(1000.0).exp().item() == math.inf
    assert math.isnan(Value(-1.0).sqrt().item())
    assert (Value(0.0) ** -1).item() == math.inf
    assert math.isnan((Value(-2.0) ** 0.5).item())
    assert (Value(10.0) ** 400).item() == math.inf
    assert (2 ** Value(5000.0)).item() == math.inf
    assert math.isnan(Value(math.inf).sin().item())


def test_saved_values_are_released_after_backward():
    w = Value(2.0, requires_grad=True)
    a = w * 3  # saved by the multiplication below
    y = a * a
    ref = weakref.ref(a)
    del a
    assert ref() is not None  # y's node holds it
    y.backward()
    assert ref() is None  # released, although y is alive
    assert y.grad_fn.saved_released


def test_retain_graph_keeps_saved_values():
    w = Value(2.0, requires_grad=True)
    a = w * 3
    y = a * a
    ref = weakref.ref(a)
    del a
    y.backward(retain_graph=True)
    assert ref() is not None and not y.grad_fn.saved_released


def test_graph_has_no_reference_cycles():
    import gc

    gc.collect()
    gc.disable()
    try:
        w = Value(0.5, requires_grad=True)
        y = (w * 2).exp().tanh() + w.sigmoid()
        ref = weakref.ref(y.grad_fn)
        y.backward()
        del y
        assert ref() is None  # freed by reference counting alone
    finally:
        gc.enable()


def test_long_chain_backpropagates_without_recursion():
    w = Value(1.0, requires_grad=True)
    y = w
    for _ in range(sys.getrecursionlimit()):  # twice as many ops: a recursive walk would stop at the limit
        y = y * 1.0 + 0.0
    y.backward()
    assert w.grad.item() == 1.0
    del y  # deallocating a deep graph must not crash either


def test_import_is_light():
    import subprocess
    import sys

    code = "import sys, micrograph; print(','.join(m for m in ('click', 'graphviz', 'numpy', 'torch') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_module_backward_with_nested_gradients_is_the_documents_vjp():
    x = [[Value(1.0, requires_grad=True), Value(2.0, requires_grad=True)]]
    y = [[Value(3.0), Value(4.0)], [Value(5.0), Value(6.0)]]
    loss = mg.mm(x, y)
    mg.backward(loss, [[1.0, 0.0]], retain_graph=True)
    assert [v.grad.item() for v in x[0]] == [3.0, 5.0]
    for v in x[0]:
        v.grad.zero_()
    mg.backward(loss, [[0.0, 1.0]])
    assert [v.grad.item() for v in x[0]] == [4.0, 6.0]


def test_mm_shape_mismatch_is_a_clear_error():
    with pytest.raises(RuntimeError, match="cannot be multiplied"):
        mg.mm([[Value(1.0)]], [[Value(1.0)], [Value(2.0)]])


@pytest.mark.parametrize("gradient, message", [
    ([0.0, 1.0], "Mismatch in shape: grad_output[0] has a shape of torch.Size([2]) and output[0] has a shape of "
                 "torch.Size([1, 2])."),
    ([[0.0], [1.0]], "Mismatch in shape: grad_output[0] has a shape of torch.Size([2, 1]) and output[0] has a "
                     "shape of torch.Size([1, 2])."),
    (Value(1.0), "Mismatch in shape: grad_output[0] has a shape of torch.Size([]) and output[0] has a shape of "
                 "torch.Size([1, 2])."),
    (None, "grad can be implicitly created only for scalar outputs"),
])
def test_a_matrix_gradient_has_the_matrix_shape_as_in_torch(gradient: object, message: str) -> None:
    # torch 2.13's texts for x.mm(y).backward(g) with x 1 x 2: the gradient is one tensor of loss's shape
    x = [[Value(1.0, requires_grad=True), Value(2.0, requires_grad=True)]]
    loss = mg.mm(x, [[Value(3.0), Value(4.0)], [Value(5.0), Value(6.0)]])
    with pytest.raises(RuntimeError) as caught:
        mg.backward(loss, gradient)
    assert str(caught.value) == message
    assert x[0][0].grad is None


def test_gradient_count_mismatch_is_a_clear_error():
    w = Value(1.0, requires_grad=True)
    with pytest.raises(RuntimeError, match="got 2 tensors and 1 gradients"):
        mg.backward([w * 2, w * 3], [Value(1.0)])


def test_second_derivative_through_abs_and_relu_is_recorded_as_in_torch():
    # torch multiplies by sgn(x), itself a recorded op: the first derivative requires grad.
    for f in (lambda v: v.abs() * 3, lambda v: v.relu() * 3):
        w = Value(1.25, requires_grad=True)
        (g,) = mg.grad(f(w), w, create_graph=True)
        assert g.item() == 3.0 and g.requires_grad
        (g2,) = mg.grad(g, w)
        assert g2.item() == 0.0


def test_detach_in_place_of_a_saved_non_leaf_is_refused_at_backward():
    w = Value(2.0, requires_grad=True)
    a = w * 3
    y = a * a  # saves a
    a.detach_()
    assert a.is_leaf and not a.requires_grad
    with pytest.raises(RuntimeError, match="detached in-place, i.e. with .detach_()"):
        y.backward()
    b = w * 3
    z = b.exp()  # saves its result, not b: detaching b is harmless
    b.detach_()
    z.backward()
