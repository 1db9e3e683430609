"""Probe helpers of the build track (ex16-ex22), where the student's file *is* the engine.

The probes run PyTorch's programs on the student's ``Value`` and observe only what PyTorch
shows on a one-element tensor (``item()``, ``grad``, ``grad_fn.name()``, ``next_functions``,
``is_leaf``, ``requires_grad``, ``retains_grad``, ``_version``, errors and warnings), so the same
probe runs on a module whose ``Value`` makes ``torch.tensor``s: that is how the expected
answers are checked against PyTorch (``tests/exercises/test_build_track.py``).

Every observation is a RESULT fact labelled with the code a student reads (``"w.grad after
y.backward()"``), so a difference is told as the kind of difference on that expression, never
its expected value.  Nothing here trusts the student's objects: a number is read with
``item()`` into a float or described, a node's name must be a ``str``.

``needs(sub, stage)`` runs first in every probe of a later stage: when an earlier stage's part
of the file does not work, the test fails with ``EarlierStage`` naming that stage, instead of an
unrelated error deep in this stage's program.
"""

from __future__ import annotations

from typing import Any, Callable

from micrograph.i18n import N_  # a stage's program, check or error, translated where told

from grader.spec.build_reads import edge_node, edges, flag, grad_quiet, node_name, number
from grader.spec.facts import CLAIM, CONTEXT, PYTORCH, REFERENCE
from grader.spec.held import held
from grader.spec.probe import show
from grader.spec.provenance import result_of
from grader.spec.repeat import fresh_copy
from grader.spec.saved import read_saved, saved_as
from grader.spec.raised import HOOK_ON_CONSTANT, LEAF_IN_PLACE, MODIFIED, SECOND_BACKWARD, error, quoted

RAISED = N_("it raised {error}")
KEPT = "kept: "  # before an EarlierStage's problem: its check passes on a fresh run of the file


class EarlierStage(Exception):
    """An earlier stage's part of the engine does not work: this stage's tests cannot run on it."""


class MissingMethod(Exception):
    """Python refused an operation for want of a method the student's Value lacks (``2 + w``
    with no ``__radd__``): the message says which, whole, so it is told as it is, never as an
    error raised while the test used a result."""


class ThisStage(Exception):
    """An earlier stage's program fails because of this stage's code (a release before the node
    ran, grad mode left off): told as this stage's mistake, never blamed on the earlier stage.
    Its message is ``"ex17: <program> | <error> | <stage whose code raises it>"`` (raised with the
    error's traceback, so the grader sees the line it came from), or ``"ex16: <program>"`` when
    nothing is recorded any more (``grader.judge.explain`` words both)."""


def fact(x: Any, label: str) -> dict[str, Any]:
    """A plain observation as a RESULT fact labelled with the code that produced it, compared
    with PyTorch's answer (so its feedback names PyTorch, not a statement)."""
    return {**result_of(x, label), REFERENCE: PYTORCH}


def claim(holds: object, statement: str) -> dict[str, Any]:
    """Whether ``statement`` (code, or a short sentence around code: "reading b.grad warns")
    holds, as a fact told as such ("... in PyTorch, but not in your engine"), not as a flag
    that "is False"; ``holds`` is a bool, or a description of what the engine gave instead."""
    return {**fact(holds, statement), CLAIM: True}


def described(v: object, label: str, when: str = "") -> dict[str, Any]:
    """What a student sees on a Value made by a program: its number, grad_fn, edges, flags;
    ``when`` says where in the program, before the code (``"after the block: (w * 2).is_leaf"``)."""
    fn = getattr(v, "grad_fn", None)
    at = f"{when}: {label}" if when else label
    flagged = flag(getattr(v, "is_leaf", None))  # context beside it: a leaf flag that does not follow grad_fn
    leaf = {**fact(flagged, f"{at}.is_leaf"), **({CONTEXT + "with_node": True} if flagged is True and fn is not None else {})}
    return {
        "data": fact(number(v), f"{at}.item()"),
        "grad_fn": fact(node_name(fn), f"{at}.grad_fn"),  # None, or the node by its name()
        "next_functions": fact(None if fn is None else edges(fn), f"{at}.grad_fn.next_functions"),
        "is_leaf": leaf,
        "requires_grad": fact(flag(getattr(v, "requires_grad", None)), f"{at}.requires_grad"),
    }


def operand(code: str) -> str:
    """``code`` as the operand of an attribute: ``c``, but ``(c * 3)`` (``c.grad_fn``,
    ``(c * 3).grad_fn``: never ``(c).grad_fn``)."""
    return f"({code})" if " " in code else code


def regroup(parts: list[dict[str, Any]]) -> dict[str, list[Any]]:
    """Several ``described`` dicts as one list per key, so a key names one idea (a key only some
    of them have lists theirs, in the place it has in them: differences are told in key order)."""
    place = {key: i for part in reversed(parts) for i, key in enumerate(part)}
    keys = sorted(dict.fromkeys(key for part in parts for key in part), key=place.__getitem__)
    return {key: [p[key] for p in parts if key in p] for key in keys}


# -- what each stage needs of the earlier ones ----------------------------------------------

def _stage1(sub: Any) -> str | None:
    w = sub.Value(1.5, requires_grad=True)
    y = w * 2 + 1
    if node_name(getattr(y, "grad_fn", None)) != "AddBackward0" or number(y) != 4.0:
        return N_("w * 2 + 1 does not record an AddBackward0 node over the right number")
    leaves = (flag(w.is_leaf), flag(y.is_leaf))  # bools only: an object of the student's may equal anything
    if leaves != (True, False):
        return N_("is_leaf is not True for w and False for w * 2 + 1")
    if getattr(sub.Value(2.0) * w, "grad_fn", None) is None:  # recording asks every input, not the first
        return N_("c * w, c a Value that requires no grad, records no node, where an operation records one as soon "
                  "as one of its inputs requires grad")
    x = sub.Value(-0.5, requires_grad=True)
    product = getattr(w * x, "grad_fn", None)
    if (saved_as(product, "self") is w, saved_as(product, "other") is x) != (True, True):
        return N_("w * x does not save w and x themselves, the Values, as \"self\" and \"other\"")
    z = sub.Value(0.0, requires_grad=True)
    zero = getattr(w * z, "grad_fn", None)
    if (saved_as(zero, "self") is w, saved_as(zero, "other") is z) != (True, True):
        return N_("w * z, z a leaf holding 0, does not save w and z themselves as \"self\" and \"other\": an operand "
                  "is saved whatever its number")
    if w + 0 is w or w * 1 is w:
        return N_("w + 0 or w * 1 is w itself, where every operation makes a new value with a node of its own")
    reached = [edge_node(product, 0), edge_node(getattr(w + 1, "grad_fn", None), 0)]  # w's one AccumulateGrad
    if None not in reached and reached[0] is not reached[1]:
        return N_("w * x and w + 1 reach w through two AccumulateGrad nodes, where gradient_edge must give a leaf one, "
                  "made once and kept")
    c = sub.Value(2.0)  # leaves whose requires_grad is set after they were made (w's node made above)
    c.requires_grad = True
    if getattr(edge_node(getattr(c * 3, "grad_fn", None), 0), "variable", None) is not c:
        return N_("c * 3, c = Value(2) set to require grad after it was made, has no edge to c's AccumulateGrad")
    w.requires_grad = False
    return None if edge_node(getattr(w * x, "grad_fn", None), 0) is None else N_(
        "w * x after w.requires_grad = False still has an edge to w's AccumulateGrad, where its entry is (None, 0)")


def _stage2(sub: Any) -> str | None:
    w = sub.Value(1.5, requires_grad=True)
    y = w * w + w
    held(y)  # no node a backward ran is freed (``grader.spec.held``)
    y.backward()
    got = grad_quiet(w)
    if got == 4.0:
        return None
    if got is None:
        return N_("backward through w * w + w leaves w.grad None")
    return N_("backward through w * w + w gives w.grad a different number from PyTorch's") if type(got) is float \
        else N_("backward through w * w + w gives w.grad something that is not a number")


def _stage3(sub: Any) -> str | None:
    w = sub.Value(1.5, requires_grad=True)
    a = w * 3
    a.retain_grad()
    y = a * 2
    held(y)
    y.backward()
    if grad_quiet(a) is None:
        return N_("retain_grad() does not keep a's gradient: a.grad is None after a.retain_grad() and a backward")
    return None if grad_quiet(a) == 2.0 else N_("a.grad after a.retain_grad() and a backward is not the gradient a's node receives")


GRAD_REQUIRES_GRAD = N_("the Value store_grad put in w.grad requires grad, where PyTorch's .grad requires none")
APPLY_BESIDE_UNPACK = N_("a second backward through w * 3 does not raise PyTorch's error, although y.grad_fn.unpack "
                         "refuses the freed value: MulBackward0.apply does not read what it saved through unpack")
# A check's finding that names the one function at fault: no later stage's rewrite is suspected
# while that function is still the checked stage's answer, or an earlier one's.
RETAINED_TWICE = N_("b.retain_grad() called twice, then one backward, does not leave b.grad the gradient b's node "
                    "receives: Value.retain_grad called again must change nothing")
RETAINED_REFUSED = N_("a second y.backward() through a retained y = w * w, refused at y's node, does not add its "
                      "gradient into y.grad, which backward writes as the node starts, before apply")
FAULT_IN = {GRAD_REQUIRES_GRAD: "store_grad", APPLY_BESIDE_UNPACK: "MulBackward0.apply", RETAINED_TWICE: "Value.retain_grad",
            RETAINED_REFUSED: "backward"}


def _stage4(sub: Any) -> str | None:
    w = sub.Value(1.5, requires_grad=True)
    roots = (w * 2, w * 3, w * 4)
    held(*roots)
    roots[0].backward()
    roots[1].backward()
    if grad_quiet(w) != 5.0:
        return N_("two backward calls do not leave w.grad the sum of their two gradients")
    if getattr(w.grad, "requires_grad", None) is True:  # then zero_() on it is refused: store_grad's fault
        return GRAD_REQUIRES_GRAD
    w.grad.zero_()
    roots[2].backward()
    if grad_quiet(w) != 4.0:
        return N_("w.grad.zero_() then a backward does not start again from 0")
    v = sub.Value(-0.5, requires_grad=True)
    v.backward()
    v.backward()
    if grad_quiet(v) != 2.0:
        return N_("a second v.backward() from a leaf v does not add into v.grad")
    return _retained_sum(fresh_copy(sub) or sub)


def _retained_sum(sub: Any) -> str | None:
    """Two backward calls through a retained non-leaf, on a fresh copy of the file (the first
    keeps its graph, which an engine that keeps retain_graph=True between calls would carry into
    every later program): a.grad is a new Value holding the sum."""
    w = sub.Value(1.5, requires_grad=True)
    b = w * 2
    b.retain_grad()
    b.retain_grad()  # a second call changes nothing
    twice = b * 3
    held(twice)
    twice.backward()
    if grad_quiet(b) != 3.0:
        return RETAINED_TWICE
    a = w + 5
    a.retain_grad()
    tops = (a * 2, a * 4)
    held(*tops)
    tops[0].backward(retain_graph=True)  # a later stage's release leaves a's node to run again
    kept = a.grad
    tops[1].backward()
    if grad_quiet(a) != 6.0:
        return N_("two backward calls through a retained a do not leave a.grad the sum of their two gradients")
    return None if a.grad is not kept else N_(
        "a second backward through a retained a adds into the Value a.grad held, where PyTorch gives a.grad a new Value")


def _stage5(sub: Any) -> str | None:
    w = sub.Value(1.5, requires_grad=True)
    y = w * 3
    held(y)
    y.backward()
    if error(y.backward) == "RuntimeError: second backward":
        engine = fresh_copy(sub) or sub
        return _left_behind(engine) or _retained_refused(engine)
    if error(read_saved, y.grad_fn, "other") == "RuntimeError: second backward":  # unpack refuses: apply never asks it
        return APPLY_BESIDE_UNPACK
    return N_("a second backward through w * 3 does not raise PyTorch's error")


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


def _retained_refused(sub: Any) -> str | None:
    """A retained y's .grad once a second backward refused at y's node: PyTorch writes it as the
    node starts, before apply reads what the node saved; a backward that writes it after apply
    (right until ex20, where apply first raises) leaves it out."""
    w = sub.Value(1.5, requires_grad=True)
    y = w * w
    held(y)
    y.retain_grad()
    y.backward()
    error(y.backward)
    return None if grad_quiet(y) == 2.0 else RETAINED_REFUSED


def _stage6(sub: Any) -> str | None:
    w = sub.Value(1.5, requires_grad=True)
    if error(w.add_, 1.0) != "RuntimeError: leaf in place":
        return N_("w.add_(1) on a leaf that requires grad does not raise PyTorch's error")
    if number(w) != 1.5:
        return N_("w.add_(1) on a leaf that requires grad, refused, changed w's number")
    if type(w._version) is not int or w._version != 0:
        return N_("w.add_(1) on a leaf that requires grad, refused, changed w's version")
    w.detach().add_(1.0)
    w.data.add_(1.0)
    version = w._version
    if type(version) is not int or (version, number(w)) != (1, 3.5):  # an int only, as for is_leaf
        return N_("a change through w.detach() and one through w.data do not give PyTorch's number and version")
    b = w * 2
    b.add_(1.0)
    return None if node_name(getattr(b, "grad_fn", None)) == "AddBackward0" else \
        N_("b.add_(1) on b = w * 2 does not rebase b onto an AddBackward0")


CHECKS: tuple[tuple[str, Callable[[Any], str | None]], ...] = (
    ("ex16", _stage1), ("ex17", _stage2), ("ex18", _stage3), ("ex19", _stage4),
    ("ex20", _stage5), ("ex21", _stage6),
)
PROGRAMS = {  # what each check runs, as a student reads it
    "ex16": "w * 2 + 1", "ex17": N_("one backward through w * w + w"),
    "ex18": N_("a.retain_grad() then one backward"), "ex19": N_("two backward calls, then zero_() and one more; two through a retained non-leaf"),
    "ex20": N_("two backward calls through w * 3; two through a retained y = w * w"), "ex21": N_("in-place changes of w through detach() and .data"),
}
STAGE_IDS = (*(exercise for exercise, _ in CHECKS), "ex22")
NO_GRAD_STAGE = 7  # from here on, a no_grad block that leaves recording off breaks every program


# The stage whose part of the engine raises PyTorch's error with this text: an earlier stage's
# program meeting it failed in that stage's code, not in the earlier stage's.
_RAISED_FROM_STAGE = {SECOND_BACKWARD: 5, MODIFIED: 6, LEAF_IN_PLACE: 6, HOOK_ON_CONSTANT: 7}


def _raised_from_stage(exc: BaseException) -> int:
    """The stage whose code raises ``exc``'s PyTorch error (0 for any other exception)."""
    text = str(exc)
    return max((stage for phrase, stage in _RAISED_FROM_STAGE.items() if phrase in text), default=0)


def needs(sub: Any, stage: int) -> Any:
    """Raise EarlierStage when a part of stages 1 .. ``stage`` - 1 does not work in ``sub``
    (with the traceback of the error a check met, so the grader sees the function it came from).
    NotImplementedError goes through: the stub's message names the stage it belongs to.  An
    earlier stage's program failing because of this stage's code (an error only a later stage
    raises, such as a release before the node ran; recording left off after no_grad) raises
    ThisStage instead, naming what happened and where.  The engine the test then runs on is
    returned: ``sub``, or a fresh copy of it when grad mode is off in ``sub`` but not in a fresh
    import (``fresh_mode``)."""
    if stage >= NO_GRAD_STAGE:
        sub = fresh_mode(sub)
    for earlier, (exercise, check) in enumerate(CHECKS[:stage - 1], start=1):
        met = None  # the traceback of the error the check met
        try:
            problem = check(sub)
        except NotImplementedError:
            raise
        except Exception as exc:  # noqa: BLE001 - any failure of an earlier stage is said so
            if _raised_from_stage(exc) > earlier:
                owner = STAGE_IDS[_raised_from_stage(exc) - 1]
                raise ThisStage(f"{exercise}: {PROGRAMS[exercise]} | {quoted(exc)} | {owner}"
                                ).with_traceback(exc.__traceback__) from None
            problem, met = RAISED.format(error=quoted(exc)), exc.__traceback__
        if problem is not None and stage >= NO_GRAD_STAGE and not _records(sub):
            raise ThisStage(f"{exercise}: {PROGRAMS[exercise]}")
        if problem is not None:
            kept = KEPT if _passes_fresh(sub, check) else ""
            raise EarlierStage(f"{exercise}: {kept}{problem}").with_traceback(met)
    return sub


def _passes_fresh(sub: Any, check: Callable[[Any], str | None]) -> bool:
    """Whether ``check`` passes on a fresh run of the student's file, where no program ran
    before it: then it fails here because of state the engine keeps between calls (one grad
    Value shared by every leaf, hooks kept in a module-level dict), which the programs run
    before it in this run changed, and the earlier stage's part works by itself."""
    fresh = fresh_copy(sub)
    if fresh is None:
        return False
    try:
        return check(fresh) is None
    except Exception:  # noqa: BLE001 - it fails on a fresh run too: the earlier stage's part is told
        return False


def fresh_mode(sub: Any) -> Any:
    """``sub``, or a fresh copy of the student's file (``repeat.fresh_copy``) when ``sub`` records
    nothing now and the copy does: a program an earlier test ran left grad mode off (a no_grad
    block that raised, with an ``__exit__`` that restores the mode only on a normal exit).  Each
    test starts with grad mode as a fresh import leaves it, so that one test's mistake is told
    by the test that made it, never again by every test after it."""
    if _records(sub):
        return sub
    fresh = fresh_copy(sub)
    return fresh if fresh is not None and _records(fresh) else sub


def _records(sub: Any) -> bool:
    """Whether an operation on a Value that requires grad is recorded here and now."""
    try:
        return getattr(sub.Value(1.0, requires_grad=True) * 2, "grad_fn", None) is not None
    except Exception:  # noqa: BLE001 - an engine that cannot multiply: the check said so already
        return True


# -- the diagram ----------------------------------------------------------------------------

def documents_drawn(sub: Any, stage: int) -> tuple[list[Any], dict[str, Any]]:
    """The diagram probe of every stage: ``documents_graph``, with the forward graph ``show``-n
    before backward, so that it is drawn if backward fails; kept alive (``grader.spec.held``)."""
    drawn = documents_graph(sub, stage, before_backward=show)
    held(*drawn[0])
    return drawn


def documents_graph(sub: Any, stage: int, before_backward: Callable[[list[Any], dict[str, Any]], None] | None = None
                    ) -> tuple[list[Any], dict[str, Any]]:
    """The documents' graph y = (x + w) * (w + 1) built with ``sub.Value`` (the student's engine,
    or micrograph for the grader's reference, ``grader.judge.replayed``), drawn through the
    protocol of ``micrograph.viz.protocol``, as far as the stage goes: a retained a from stage
    3, after y.backward() from stage 2."""
    w, x = sub.Value(0.5, requires_grad=True), sub.Value(-3.0, requires_grad=True)
    a = x + w
    b = w + 1
    y = a * b
    names = {"w": w, "x": x, "a": a, "b": b, "y": y}
    if before_backward is not None:
        before_backward([y], names)
    if stage >= 3:
        a.retain_grad()
    if stage >= 2:
        y.backward()
    return [y], names
