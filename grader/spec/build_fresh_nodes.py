"""Questions a failed earlier stage's check asks of a fresh run of the student's file, from
ex20 on, where this stage's ``Node.unpack`` and ``Node.release`` run in every earlier program:
does a node's unpack give what that node saved, is a node no backward ran still unreleased, and
does a leaf's AccumulateGrad still hold its leaf once released?
An unpack that keeps what it read between calls (a dict that is a default argument) hands a
later node an earlier node's value, and ex17's program then only shows a wrong gradient; a
release that marks more than its own node (a flag set on the class) makes the next graph refuse
a backward it never ran, which ex17's program only shows as a second backward's error; a release
that frees the AccumulateGrad's variable too shows there only as the error store_grad raises on
what is left.  From ex21 on,
a version counter shared by Values made apart (a list that is a default argument of ``__init__``)
makes a change to one read as a change to every saved value: an earlier program then meets
MODIFIED where it changed only a .grad; a leaf check that forgets requires_grad refuses the
zero_() of a .grad, which ex19's program only shows as LEAF_IN_PLACE raised there.  At any stage, a
leaf of an earlier leaf's number taken for that leaf (a list of leaves searched with ``in``, ==
on a Value comparing numbers) raises where a leaf of another number does not, or shares that leaf's
AccumulateGrad (``equal_product``, ex20's own probe too)."""

from __future__ import annotations

from typing import Any

from grader.spec.build_reads import edge_node, grad_quiet
from grader.spec.held import held
from grader.spec.raised import LEAF_IN_PLACE, SECOND_BACKWARD, error
from grader.spec.repeat import fresh_copy


def unpacks_other(sub: Any) -> bool:
    """Whether, in a fresh run, ``(u * v).grad_fn.unpack("other")``, made after a backward
    through ``w * x``, is another Value than v, the one that node saved; False where it cannot
    be asked (no fresh run, an error on the way: the check's own problem is told then)."""
    fresh = fresh_copy(sub)
    if fresh is None:
        return False
    try:
        w, x = fresh.Value(1.5, requires_grad=True), fresh.Value(-0.5, requires_grad=True)
        (w * x).backward()
        u, v = fresh.Value(2.0, requires_grad=True), fresh.Value(0.25, requires_grad=True)
        product = u * v
        return product.grad_fn.unpack("other") is not v
    except Exception:  # noqa: BLE001 - the student's engine: a question it cannot answer is not asked
        return False


def born_released(sub: Any) -> bool:
    """Whether, in a fresh run, the node of ``u * 3``, made after a backward through ``w * 3``
    and run by no backward, refuses its saved value with SECOND_BACKWARD: released already."""
    fresh = fresh_copy(sub)
    if fresh is None:
        return False
    try:
        (fresh.Value(1.5, requires_grad=True) * 3).backward()
        product = fresh.Value(2.0, requires_grad=True) * 3
    except Exception:  # noqa: BLE001 - the student's engine: a question it cannot answer is not asked
        return False
    try:
        product.grad_fn.unpack("other")
    except Exception as exc:  # noqa: BLE001 - any error but the refusal is no answer
        return SECOND_BACKWARD in str(exc)
    return False


def shares_counter(sub: Any) -> bool:
    """Whether, in a fresh run, ``b._version`` changes when ``a.add_(1)`` runs, a and b two new
    Values that require no grad: one counter shared by Values made apart."""
    fresh = fresh_copy(sub)
    if fresh is None:
        return False
    try:
        a, b = fresh.Value(1.0), fresh.Value(2.0)
        before = b._version
        a.add_(1.0)
        return b._version != before
    except Exception:  # noqa: BLE001 - the student's engine: a question it cannot answer is not asked
        return False


def constant_refused(sub: Any) -> bool:
    """Whether, in a fresh run, ``c.zero_()``, c = Value(2) a leaf that requires no grad, raises
    LEAF_IN_PLACE: a leaf check that asks only whether the value is a leaf."""
    fresh = fresh_copy(sub)
    if fresh is None:
        return False
    try:
        fresh.Value(2.0).zero_()
    except Exception as exc:  # noqa: BLE001 - any error but the refusal is no answer
        return LEAF_IN_PLACE in str(exc)
    return False


def variable_cleared(sub: Any) -> bool:
    """Whether, in a fresh run, the AccumulateGrad that ``gradient_edge(w)`` gives, w a new leaf
    that requires grad, holds another ``variable`` than w once its own ``release()`` ran: a
    release that frees more than the saved values leaves the leaf's node writing to no leaf, and
    an earlier stage's program only meets the error store_grad raises then."""
    fresh = fresh_copy(sub)
    if fresh is None or not callable(getattr(fresh, "gradient_edge", None)):
        return False
    try:
        w = fresh.Value(1.5, requires_grad=True)
        node = fresh.gradient_edge(w)[0]
        if getattr(node, "variable", None) is not w:
            return False
        node.release()
        return getattr(node, "variable", None) is not w
    except Exception:  # noqa: BLE001 - the student's engine: a question it cannot answer is not asked
        return False


def equal_leaf_raises(sub: Any) -> bool:
    """Whether, in a fresh run, ``(v * 2).backward()`` raises, v a new leaf holding the number of a
    leaf u whose ``(u * 2).backward()`` ran before, and a leaf of another number runs it next: an
    engine that refuses every later backward, whatever the number, is not taken for this."""
    fresh = fresh_copy(sub)
    if fresh is None:
        return False
    runs = []
    for number in (1.5, 1.5, -0.25):
        try:
            (fresh.Value(number, requires_grad=True) * 2).backward()
            runs.append(True)
        except Exception:  # noqa: BLE001 - the student's engine: whether it raised is the answer
            runs.append(False)
    return runs == [True, False, True]


def equal_product(engine: Any) -> Any:
    """``x * w``, x and w two new leaves of ``engine`` holding one number, held with them: a leaf's
    AccumulateGrad found by ``==`` (a Value comparing numbers) in a list kept between calls is the
    first leaf's, so both of its edges lead to one node."""
    x, w = engine.Value(1.5, requires_grad=True), engine.Value(1.5, requires_grad=True)
    y = x * w
    held(y, x, w)
    return y


def leaves_merged(sub: Any) -> bool:
    """Whether, in a fresh run, both edges of ``equal_product``'s node lead to one node: a check
    fails by that lookup only after other programs made a leaf of that number, so the state it
    keeps between calls is not the mistake by itself."""
    fresh = fresh_copy(sub)
    if fresh is None:
        return False
    try:
        fn = getattr(equal_product(fresh), "grad_fn", None)
        first = edge_node(fn, 0)
        return first is not None and first is edge_node(fn, 1)
    except Exception:  # noqa: BLE001 - a product that fails is told by the check itself
        return False


def refused_again(y: Any, leaf: Any) -> bool:
    """Whether a first ``y.backward()`` (``y`` held) wrote ``leaf.grad`` and a second one raised, as
    PyTorch's does through the graph the first freed: a backward that raised, after which a flag
    or depth counter backward puts back only when it returns (its "busy") stays up, and what the
    next backward does is the question."""
    held(y)
    return error(y.backward) is None and grad_quiet(leaf) is not None and error(y.backward) is not None
