"""More of the gates' programs (``grader.spec.build_checks``): each shows a slip in an earlier
stage's part that the later stages' own tests never meet, so a file that carries that slip
forward would get full marks there.  Each program shows what that stage's own tests show, and
each returns None, or the finding (a msgid) that names what the stage's part got wrong.
"""

from __future__ import annotations

from typing import Any

from micrograph.i18n import N_  # a check's finding, translated where told

from grader.spec.build_reads import grad_quiet
from grader.spec.held import held
from grader.spec.raised import error
from grader.spec.repeat import fresh_copy

SECOND_BACKWARD = "RuntimeError: second backward"  # ``raised.error``'s words for PyTorch's error


def counts_every_edge(sub: Any) -> str | None:
    """ex17's dependencies on a graph where a node feeds another through two edges (w * w) and the
    node they reach (w's AccumulateGrad) has a third feeder that runs later (w * 3's node): a count
    of edges per parent lets w's node run before that third gradient arrived.  Each product saves
    a number of its own, so a later stage's release that changes what a node saved changes no
    other node's gradient here.  On a fresh copy of the file, as ex17's other programs."""
    engine = fresh_copy(sub) or sub
    w = engine.Value(1.5, requires_grad=True)
    y = w * 3 + (w * w) * 2 + 2
    held(y)
    y.backward()
    return None if grad_quiet(w) == 9.0 else N_(
        "backward through y = w * 3 + (w * w) * 2 + 2 gives w.grad a different number from PyTorch's: w's "
        "AccumulateGrad, which w * w's node reaches through two edges, must run only after all three edges into "
        "it sent their gradient")


def freed_after_apply(sub: Any) -> str | None:
    """ex20's release, right after each node's apply: z.backward() raising at y's node (freed by
    u.backward()) has freed z's node, which ran before, so a second z.backward() raises at z's
    node before writing any gradient; a release once the whole pass ended never came, and the
    second pass writes v.grad again."""
    w, x, v = (sub.Value(number, requires_grad=True) for number in (1.5, -0.5, 2.5))
    y = w * x
    z, u = y * v, y * 2
    held(z, u)
    u.backward()
    if error(z.backward) != SECOND_BACKWARD:
        return None  # told by ex20's own program: y.backward() after z.backward(), z = y * 2
    first = grad_quiet(v)
    error(z.backward)
    return None if grad_quiet(v) == first else FREED_LATE


FREED_LATE = N_("a second z.backward() after u.backward(); z.backward(), z = y * v, u = y * 2, y = w * x, changes "
                "v.grad, where PyTorch's raises at z's node at once: the step of backward that releases frees each "
                "node right after its apply, z's too in a pass that then raised")
ONLY_ROOT_FREED = N_("y.backward() after z.backward(), z = y * 2, y = w * x, does not raise PyTorch's error: backward "
                     "frees the saved values of every node it ran, not only the root's")
# when backward releases and which nodes: not what release does
FAULT_IN = {FREED_LATE: "backward", ONLY_ROOT_FREED: "backward"}
