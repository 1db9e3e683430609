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

import re
from typing import Any, Callable

from micrograph.i18n import N_  # a stage's program, check or error, translated where told

from grader.spec.buffer_keys import keyed_prefix
from grader.spec.build_checks import CHECKS, PROGRAMS, STAGE_IDS
from grader.spec.build_fresh_nodes import born_released, constant_refused, equal_leaf_raises, leaves_merged, \
    refused_again, shares_counter, unpacks_other, variable_cleared
from grader.spec.build_reads import edge_node, edges, fact, flag, grad_quiet, node_name, number
from grader.spec.facts import CLAIM, CONTEXT
from grader.spec.held import held
from grader.spec.probe import show
from grader.spec.repeat import fresh_copy
from grader.spec.number_operand import number_words
from grader.spec.shared_key import shared_words
from grader.spec.raised import HOOK_ON_CONSTANT, LEAF_IN_PLACE, MODIFIED, SECOND_BACKWARD, quoted

RAISED = N_("it raised {error}")
KEPT = "kept: "  # before an EarlierStage's problem: its check passes on a fresh run of the file
EQUAL = "equal: "  # before an EarlierStage's problem: as KEPT, and a fresh run's x * w, x and w of one number, has one node
STUCK = "stuck: "  # before an EarlierStage's problem: in a fresh run, a backward after one that raised writes nothing
UNPACKED = "unpacked: "  # before an EarlierStage's problem: in a fresh run, a node's unpack gives another node's value
CLEARED = "cleared: "  # before an EarlierStage's problem: in a fresh run, release() takes a leaf's AccumulateGrad's variable
SHARED = "shared: "  # before an EarlierStage's raised problem: "<function> <key> <class> | ", a KeyError on a key two nodes share
NUMBER = "number: "  # before an EarlierStage's raised problem: "<Class.operator> <argument> <type> | ", a number used as a Value
TAKEN = "taken: "  # before an EarlierStage's raised problem: in a fresh run, a leaf of an earlier leaf's number raises
BORN_RELEASED = "new nodes released"  # after a ThisStage's owner: in a fresh run, a node no backward ran refuses its values
ONE_COUNTER = "one version counter"  # after a ThisStage's owner: in a fresh run, two new Values share a version counter
CONSTANT_REFUSED = "constant refused"  # after a ThisStage's owner: in a fresh run, Value(2).zero_() raises LEAF_IN_PLACE
# after a ThisStage's program: which backward left grad mode off in a fresh run of the file
LEFT_OFF = {"ran": " | backward left off", "raised": " | backward that raised left off"}


class EarlierStage(Exception):
    """An earlier stage's part of the engine does not work: this stage's tests cannot run on it."""


class MissingMethod(Exception):
    """Python refused an operation for want of a method the student's Value lacks (``2 + w``
    with no ``__radd__``): the message says which, whole, so it is told as it is, never as an
    error raised while the test used a result."""


class ThisStage(Exception):
    """An earlier stage's program fails because of this stage's code (a release before the node
    ran, grad mode left off): told as this stage's mistake, never blamed on the earlier stage.
    Its message is ``"ex17: <program> | <error> | <stage whose code raises it>"``, then
    ``" | " + BORN_RELEASED`` where a fresh run's new node is released already, or ``" | " + ONE_COUNTER``
    where two new Values share a version counter, or ``" | " + CONSTANT_REFUSED`` (``_fresh_run``; raised with the
    error's traceback, so the grader sees the line it came from), or ``"ex16: <program>"`` when
    nothing is recorded any more (``grader.judge.explain`` words both)."""


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
    edged = fact(None if fn is None else edges(fn), f"{at}.grad_fn.next_functions")
    if _constant_accumulator(fn):  # context beside it: an edge to the AccumulateGrad of a value that requires no grad
        edged[CONTEXT + "constant_accumulator"] = True
    made = _made_accumulators(fn)
    if made:  # context beside it: the indices of entries that are an AccumulateGrad of a value an operation made
        edged[CONTEXT + "made_accumulator"] = made
    reflected = _number_first(label, fn)
    if reflected is not None:  # context beside it: ``2 + w``'s entries reversed by the student's __radd__
        edged[CONTEXT + "reflected"] = reflected
    return {
        "data": fact(number(v), f"{at}.item()"),
        "grad_fn": fact(node_name(fn), f"{at}.grad_fn"),  # None, or the node by its name()
        "next_functions": edged,
        "is_leaf": leaf,
        "requires_grad": fact(flag(getattr(v, "requires_grad", None)), f"{at}.requires_grad"),
    }


def _constant_accumulator(fn: object) -> bool:
    """Whether an edge of ``fn`` leads to an AccumulateGrad node whose ``.variable`` requires no
    grad: an entry PyTorch never has (its AccumulateGrad belongs to a leaf that requires grad, and
    an input that requires none has (None, 0)), so its edges are not PyTorch's in another order."""
    pairs = getattr(fn, "next_functions", None)
    if type(pairs) not in (tuple, list):
        return False
    nodes = [pair[0] for pair in list(pairs)[:16] if type(pair) in (tuple, list) and len(pair) == 2]
    return any(hasattr(node, "variable") and flag(getattr(node.variable, "requires_grad", None)) is not True
               for node in nodes if node is not None)


def _made_accumulators(fn: object) -> list[int]:
    """The indices of the edges of ``fn`` that lead to an AccumulateGrad node whose ``.variable``
    has a grad_fn (a value an operation made): PyTorch's entry for such an input is its grad_fn,
    so the entry differs by that, not by a name alone."""
    pairs = getattr(fn, "next_functions", None)
    if type(pairs) not in (tuple, list):
        return []
    nodes = [pair[0] if type(pair) in (tuple, list) and len(pair) == 2 else None for pair in list(pairs)[:16]]
    return [i for i, node in enumerate(nodes)
            if hasattr(node, "variable") and getattr(node.variable, "grad_fn", None) is not None]


_NUMBER_LEFT = re.compile(r"\(?-?\d[\d.]* ([+*]) [A-Za-z_]\w*\)?")  # "(2 + w)", "3 * w": a number, then a Value


def _number_first(label: str, fn: object) -> str | None:
    """The reflected method Python ran for a number on the left of ``label`` (``2 + w``: the Value's
    ``__radd__``), where the node's first entry is (None, 0), the number's, and its second is not:
    that method put the number first; None otherwise (PyTorch's ``2 + w`` is ``w + 2``)."""
    found = _NUMBER_LEFT.fullmatch(label)
    pairs = getattr(fn, "next_functions", None)
    if found is None or type(pairs) is not tuple or len(pairs) != 2:
        return None
    if edge_node(fn, 0) is not None or edge_node(fn, 1) is None:
        return None
    return "__radd__" if found.group(1) == "+" else "__rmul__"


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
                raise ThisStage(f"{exercise}: {PROGRAMS[exercise]} | {quoted(exc)} | {owner}{_fresh_run(sub, exc)}"
                                ).with_traceback(exc.__traceback__) from None
            problem, met = RAISED.format(error=quoted(exc)), exc.__traceback__
            file = str(getattr(sub, "__file__", "") or "")
            shared, given = shared_words(exc, file), number_words(exc, file)  # a key two nodes share; a number handed on
            problem = f"{SHARED}{shared} | {problem}" if shared else f"{NUMBER}{given} | {problem}" if given else problem
        if problem is not None and stage >= NO_GRAD_STAGE and not _records(sub):
            raise ThisStage(f"{exercise}: {PROGRAMS[exercise]}{_left_off_by_backward(sub)}")
        if problem is not None:
            kept = (EQUAL if leaves_merged(sub) else KEPT) if _passes_fresh(sub, check) \
                else STUCK if stage > SECOND_BACKWARD_STAGE and _stuck(sub) \
                else UNPACKED if stage >= SECOND_BACKWARD_STAGE and unpacks_other(sub) \
                else CLEARED if stage >= SECOND_BACKWARD_STAGE and variable_cleared(sub) \
                else TAKEN if met is not None and equal_leaf_raises(sub) \
                else keyed_prefix(sub) if met is None and exercise == "ex17" else ""  # a buffer two leaves share
            raise EarlierStage(f"{exercise}: {kept}{problem}").with_traceback(met)
    return sub


def _fresh_run(sub: Any, exc: BaseException) -> str:
    """What a fresh run of the student's file shows beside a ThisStage's error, as a last field: a
    new node released already (``BORN_RELEASED``) beside SECOND_BACKWARD, a leaf that requires no grad
    refused (``CONSTANT_REFUSED``) beside LEAF_IN_PLACE, two new Values sharing a version counter
    (``ONE_COUNTER``) beside MODIFIED; "" where it shows none."""
    if SECOND_BACKWARD in str(exc) and born_released(sub):
        return f" | {BORN_RELEASED}"
    if LEAF_IN_PLACE in str(exc) and constant_refused(sub):
        return f" | {CONSTANT_REFUSED}"
    return f" | {ONE_COUNTER}" if "is at version" in str(exc) and shares_counter(sub) else ""


def _left_off_by_backward(sub: Any) -> str:
    """Which backward, in a fresh run of the student's file, leaves grad mode off (``LEFT_OFF``):
    one that ran, or a second one through the same graph, which raises; "" when neither does
    (then a no_grad block left it off).  A backward that switches the mode off while it runs
    and back on only when it ends well leaves it off once it raised."""
    fresh = fresh_copy(sub)
    if fresh is None or not _records(fresh):
        return ""
    y = fresh.Value(1.5, requires_grad=True) * 3
    for step in ("ran", "raised"):
        try:
            y.backward()
        except Exception:  # noqa: BLE001 - the second backward raises in PyTorch too: what it left is the point
            pass
        if not _records(fresh):
            return LEFT_OFF[step]
    return ""


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


SECOND_BACKWARD_STAGE = _RAISED_FROM_STAGE[SECOND_BACKWARD]  # from the stage after it, a check's backward may raise


def _stuck(sub: Any) -> bool:
    """Whether, in a fresh run of the student's file, a backward after one that raised
    (``refused_again``) writes no gradient: a flag or depth counter backward sets as it starts
    and puts back only when it returns stays set, and a later stage's check, one of whose
    programs raises, fails after it for that alone."""
    fresh = fresh_copy(sub)
    if fresh is None:
        return False
    try:
        v = fresh.Value(1.5, requires_grad=True)
        if not refused_again(v * 3, v):
            return False
        u = fresh.Value(2.0, requires_grad=True)
        (u * 2).backward()
    except Exception:  # noqa: BLE001 - a backward that raises where PyTorch's does not is told by the check itself
        return False
    return grad_quiet(u) is None


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
