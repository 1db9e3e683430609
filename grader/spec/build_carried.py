"""More of the gates' programs (``grader.spec.build_checks``): each shows a slip in an earlier
stage's part that the later stages' own tests never meet, so a file that carries that slip
forward would get full marks there.  Each program shows what that stage's own tests show, and
each returns None, or the finding (a msgid) that names what the stage's part got wrong.
"""

from __future__ import annotations

from typing import Any

from micrograph.i18n import N_  # a check's finding, translated where told

from grader.spec.build_order import run_order
from grader.spec.order_lists import ties_in_name_order, too_early
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


LEAVES_WHEN_READY = ["z.grad_fn", "n.grad_fn", "AccumulateGrad(k)", "m.grad_fn", "AccumulateGrad(v)"]  # PyTorch's


def leaves_when_ready(sub: Any) -> str | None:
    """ex17's order with the leaves' AccumulateGrad nodes: through z = n * m, m = v + 1, n = k + v,
    k's node is ready once n's ran, beside m's, and runs first (AccumulateGrad has the highest
    sequence_nr); a backward that runs every AccumulateGrad after the other nodes (all sorted
    once) passes the check of the order of the other nodes, and every later stage's programs.
    A walk that runs a node twice, too early or unseen is told by ex17's own tests; an engine
    that releases (a second backward through the graph refused: ex20 on) by that stage's, where
    a backward that fails midway shows a leaf's gradient written late.  On a fresh copy of the
    file, as ex17's other programs."""
    engine = fresh_copy(sub) or sub
    v, k = engine.Value(1.25, requires_grad=True), engine.Value(-0.75, requires_grad=True)
    m = v + 1
    n = k + v
    z = n * m
    held(z)
    order, feeders, unseen = run_order(z, {"v": v, "k": k, "m": m, "n": n, "z": z}, z.backward)
    if unseen or sorted(order) != sorted(LEAVES_WHEN_READY) or too_early(order, feeders) is not None \
            or error(z.backward) is not None:
        return None
    return None if ties_in_name_order(order) == LEAVES_WHEN_READY else LEAVES_LATE


LEAVES_LATE = N_("one backward through z = n * m, m = v + 1, n = k + v runs AccumulateGrad(k) after m.grad_fn, where "
                 "PyTorch runs it as soon as it is ready, before m.grad_fn: of the nodes ready to run, backward runs the "
                 "one with the highest sequence_nr first, and an AccumulateGrad has the highest")


def not_retained_none(sub: Any) -> str | None:
    """ex18's .grad of a non-leaf that did not call retain_grad(), before and after a backward
    through it: None, as PyTorch's (a getter that gives such a value 0 instead, or a backward that
    writes every node's gradient, passes every later stage's programs, which read retained
    gradients only).  Not None before any backward is the getter's own (``GRAD_INVENTED``)."""
    w = sub.Value(1.5, requires_grad=True)
    a = w * 3
    if grad_quiet(a) is not None:  # before any backward: the getter made it up, nothing wrote it
        return GRAD_INVENTED
    y = a * 2
    held(y)
    y.backward()
    return None if grad_quiet(a) is None else N_(
        "a.grad after y.backward(), y = a * 2, a = w * 3, a non-leaf that did not call retain_grad(), is not None: "
        "a non-leaf that does not retain its grad keeps .grad None")


def retained_every_backward(sub: Any) -> str | None:
    """ex18's retain_grad() through a second backward of the same graph (the first keeps it, so no
    stage's release has a part in it), a.grad and w.grad set to None in between: a backward that
    forgets the retained value once it wrote its gradient writes w.grad again but leaves a.grad
    None, which the later stages' programs, one backward per retain_grad(), tell as adding another
    number.  A second pass that raises or writes no w.grad either is no retained value forgotten:
    other checks tell it.  On a fresh copy of the file."""
    engine = fresh_copy(sub) or sub
    w, x = engine.Value(1.25, requires_grad=True), engine.Value(-0.5, requires_grad=True)
    a = x * w  # products only: the functions every stage's check runs already (``stages.CHECK_RUNS``)
    y = a * w
    held(y, a)
    a.retain_grad()
    if error(y.backward, retain_graph=True) is not None:
        return None
    a.grad = w.grad = None
    if error(y.backward) is not None or grad_quiet(w) is None:
        return None
    return None if grad_quiet(a) is not None else RETAINED_ONCE


RETAINED_ONCE = N_("a second y.backward() after a.retain_grad(); y.backward(retain_graph=True); a.grad = w.grad = None, "
                   "y = a * w, a = x * w, writes w.grad but not a.grad: every backward through a retained value's node "
                   "writes its gradient, not the first one only")
FREED_LATE = N_("a second z.backward() after u.backward(); z.backward(), z = y * v, u = y * 2, y = w * x, changes "
                "v.grad, where PyTorch's raises at z's node at once: the step of backward that releases frees each "
                "node right after its apply, z's too in a pass that then raised")
ONLY_ROOT_FREED = N_("y.backward() after z.backward(), z = y * 2, y = w * x, does not raise PyTorch's error: backward "
                     "frees the saved values of every node it ran, not only the root's")
GRAD_INVENTED = N_("a.grad, a = w * 3, a non-leaf that did not call retain_grad(), is not None before any backward: "
                   "the getter Value.grad gives a gradient nothing wrote, where a non-leaf that does not retain its "
                   "grad keeps .grad None")
# when backward releases and which nodes, the order it runs them in: not what release does
FAULT_IN = {RETAINED_ONCE: "backward", FREED_LATE: "backward", ONLY_ROOT_FREED: "backward", LEAVES_LATE: "backward",
            GRAD_INVENTED: "Value.grad"}
