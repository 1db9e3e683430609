"""Where a no_grad block keeps the mode its ``__enter__`` found (ex22): on the block itself, as
torch.no_grad keeps it (``self.prev``), or elsewhere.  A mode kept in state every block shares (the
first entry of a module-level list, a class attribute set back to on) is right after one block and
wrong only after a nested one, where the other programs see recording come back on; this one
tells why, looking at what the nested block's object holds once its ``__enter__`` ran."""

from __future__ import annotations

from typing import Any

from micrograph.i18n import N_

from grader.spec.build import claim, described
from grader.spec.held import held
from grader.spec.raised import raised
from grader.spec.repeat import fresh_copy

MODE_KEPT = N_("each no_grad block keeps the mode its __enter__ found on itself (self), and its __exit__ puts that "
               "one back: a mode kept anywhere but on the block (a module-level list, a class attribute), or recording "
               "set back on whatever was found, gives the nested block's __exit__ the mode from before the outer "
               "block, and recording comes back on inside the outer block")
ON_THE_BLOCK = N_("with no_grad(): with no_grad(): ..., the nested no_grad object keeps the mode its __enter__ "
                  "found, and recording is still off inside the outer block once the nested one ended")


def _attributes(block: Any) -> dict[str, Any] | None:
    """A copy of what ``block`` holds as its own attributes, or None where it keeps none (__slots__)."""
    own = getattr(block, "__dict__", None)
    return dict(own) if type(own) is dict else None


def mode_kept(sub: Any) -> dict[str, Any]:
    """Whether, after a nested no_grad block ended inside another, recording is still off, or
    else the nested block's object holds something new once its ``__enter__`` ran (the mode it
    found, kept on the block, and put back wrong by some other slip the rules tell).  On a fresh
    copy of the student's module (where it can be made), so a list of modes is this program's."""
    engine = fresh_copy(sub) or sub
    w = engine.Value(0.5, requires_grad=True)
    held(w)
    outer, inner = engine.no_grad(), engine.no_grad()
    with outer:
        before = _attributes(inner)
        with inner:
            after = _attributes(inner)
        recorded = getattr(w * 3, "grad_fn", None) is not None
    if before is None or after is None:  # no attributes to read: where it keeps the mode is not seen
        return claim(True, ON_THE_BLOCK)
    kept = any(key not in before or before[key] is not value for key, value in after.items())
    return claim(not recorded or kept, ON_THE_BLOCK)


def after_one_block(sub: Any, w0: float) -> dict[str, Any]:
    """(w * 2) after one no_grad block, nothing nested in it, in a fresh copy of the student's
    module (where it can be made), so what the nested blocks left does not reach it: a mode the
    two nested blocks keep in one place (the class, not each block's own object) is right here
    and wrong after the nested ones (``after_nested``)."""
    engine = fresh_copy(sub) or sub
    w = engine.Value(w0, requires_grad=True)
    with engine.no_grad():
        pass
    return described(w * 2, "(w * 2)", N_("after the block"))


BACKWARD_MODE = ("backward puts back the grad mode it found: a backward run inside a no_grad block leaves recording "
                 "off in the rest of the block, as PyTorch's does")
IN_BLOCK = N_("y.backward() inside a no_grad block, y = w * 3 made before it")


def backward_in_block(sub: Any) -> list[Any]:
    """(w * 2) inside a no_grad block after a backward that ran in the block, through a graph made
    before it: PyTorch records nothing there, its backward leaving grad mode as it found it; a
    backward that switches the mode off as it starts and on as it ends records it."""
    w = sub.Value(1.25, requires_grad=True)
    y = w * 3
    held(y, w)
    with sub.no_grad():
        ran = raised(y.backward, IN_BLOCK)
        after = described(w * 2, "(w * 2)", N_("inside a no_grad block, after a y.backward() in it"))
    return [ran, after]
