"""ex20's gate (``grader.spec.build_checks``): what a backward frees, and what the engine does
once it has.  A second backward through a freed graph raises PyTorch's error; a failed one
leaves nothing behind; a retained value's gradient is written as its node starts.
"""

from __future__ import annotations

from typing import Any

from micrograph.i18n import N_  # a check's finding, translated where told

from grader.spec.build_carried import ONLY_ROOT_FREED, freed_after_apply
from grader.spec.build_reads import grad_quiet
from grader.spec.build_retained import grad_after_refused, grad_after_released
from grader.spec.held import held
from grader.spec.raised import error
from grader.spec.repeat import fresh_copy
from grader.spec.saved import read_saved

APPLY_BESIDE_UNPACK = N_("a second backward through w * 3 does not raise PyTorch's error, although y.grad_fn.unpack "
                         "refuses the freed value: MulBackward0.apply does not read what it saved through unpack")
RETAINED_REFUSED = N_("a second y.backward() through a retained y = w * w, refused at y's node, does not add its "
                      "gradient into y.grad, which backward writes as the node starts, before apply")


def freed_checks(sub: Any) -> str | None:
    """ex20's gate: a second backward through a freed graph raises PyTorch's error, whichever
    saved value it reaches and whether its node is the root's or one below; then what a failed
    or retained backward leaves behind, on a fresh copy of the file."""
    w = sub.Value(1.5, requires_grad=True)
    y = w * 3
    held(y)
    y.backward()
    if error(y.backward) != "RuntimeError: second backward":
        if error(read_saved, y.grad_fn, "other") == "RuntimeError: second backward":  # unpack refuses: apply never asks
            return APPLY_BESIDE_UNPACK
        return N_("a second backward through w * 3 does not raise PyTorch's error")
    c = sub.Value(2.5)
    z = c * w  # its node saved c alone, as "self": unpack refuses every freed value, not only "other"
    held(z)
    z.backward()
    if error(z.backward) != "RuntimeError: second backward":
        return N_("a second backward through c * w, c a constant, whose node saved c as \"self\", does not raise "
                  "PyTorch's error")
    y = w * sub.Value(-0.5, requires_grad=True)
    top = y * 2  # its backward frees y's node too, not only its own
    held(top)
    top.backward()
    if error(y.backward) != "RuntimeError: second backward":
        return ONLY_ROOT_FREED
    engine = fresh_copy(sub) or sub
    return _left_behind(engine) or _retained_released(engine) or _retained_refused(engine) or freed_after_apply(engine)


def _left_behind(sub: Any) -> str | None:
    """A backward of w after one through y = a + w that raised at a's node once w's node had
    been sent y's part (on a fresh copy: what it leaves reaches no later program): gradient
    buffers kept between calls add that part into the next backward's w.grad."""
    w = sub.Value(2.0, requires_grad=True)
    y = w * 3 + w
    held(y)
    y.backward()
    error(y.backward)
    w.grad = None
    (w * w).backward()
    return None if grad_quiet(w) == 4.0 else N_(
        "(w * w).backward(), after a second backward through y = w * 3 + w raised, adds gradients that failed "
        "backward left behind")


def _retained_released(sub: Any) -> str | None:
    """``build_retained.RELEASED``: y.grad left as the first backward wrote it, the released
    node no longer wrote it (a release that forgets the retained value with the saved ones)."""
    return None if grad_after_released(sub, -0.5) != 1.0 else N_(
        "a second y.backward() through a retained y = w + 2, whose node saved nothing and runs again, leaves y.grad "
        "as the first backward wrote it: the released node no longer writes the gradient of the value that retained it")


def _retained_refused(sub: Any) -> str | None:
    """``build_retained.REFUSED``: written as the node starts, before apply reads what the node
    saved; a backward that writes it after apply (right until ex20, where apply first raises)
    leaves it out."""
    return None if grad_after_refused(sub, 1.5) == 2.0 else RETAINED_REFUSED


# A check's finding that names the one function at fault (``build_checks.FAULT_IN``).
FAULT_IN = {APPLY_BESIDE_UNPACK: "MulBackward0.apply", RETAINED_REFUSED: "backward"}
