"""Watching a build-track engine's nodes run while a backward runs: which ran, in what order,
what each was handed and what its apply returned.

Gradients alone show a wrong order only where a floating-point sum happens to depend on it, and a
gradient handed to the wrong place only where its number differs.  So a probe watches each node
of a program's graph run: on the student's engine it puts a recording wrapper in front of each
node class's ``apply`` while backward runs (the method the stage's statement has the engine call,
``node.apply(grad)``), on PyTorch's a node pre-hook (``grad_fn.register_prehook``), which runs
just before the node does.  An engine may write a leaf's gradient without calling its
``AccumulateGrad``'s ``apply`` (``store_grad`` called from backward's loop): each time a node is
watched, and when backward ends, the probe reads the leaves' ``.grad``, and a leaf whose gradient
is another object or number than at the last reading had its AccumulateGrad run in between (one
that adds 0 in place is not seen).  Each node is named as the student reads it (``"b.grad_fn"``,
``"AccumulateGrad(w)"``: code, the same in every language), from the names the probe gives its
program's values.  ``grader.spec.build_order`` makes the facts of the order from what is seen here.
"""

from __future__ import annotations

import inspect
import warnings
from typing import Any, Callable

from grader.spec.build_reads import number
from grader.spec.order_lists import ACCUMULATE
from grader.spec.own_apply import OwnApplies
from grader.spec.probe import type_name

UNNAMED = "a node the program does not name"
_MAX_RUNS = 64  # a runaway engine's runs are not all worth reporting


def reachable(root: Any) -> list[Any]:
    """Every node reachable from ``root`` through ``next_functions``, each once."""
    found: list[Any] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node is None or any(node is seen for seen in found):
            continue
        found.append(node)
        pairs = getattr(node, "next_functions", ())
        stack.extend(pair[0] for pair in list(pairs) if type(pair) in (tuple, list) and len(pair) == 2)
    return found


def node_label(node: Any, names: dict[str, Any]) -> str:
    for name, v in names.items():
        if getattr(v, "grad_fn", None) is node:
            return f"{name}.grad_fn"
        if getattr(node, "variable", None) is v:
            return f"{ACCUMULATE}{name})"
    return UNNAMED


def _watch_class(cls: type, ran: Callable[..., None], returned: Callable[[Any, object], None] | None = None,
                 failed: Callable[[Any, Exception], None] | None = None) -> Callable[[], None]:
    """Call ``ran(node, *args)`` each time a node whose class is exactly ``cls`` runs, before its
    ``apply``, however the engine calls it (``node.apply(grad)``, ``type(node).apply(node, grad)``,
    a class with ``__slots__``), and ``returned(node, result)`` with what that apply returned
    (``failed(node, error)`` with what it raised, which goes on as raised); the function that puts ``cls`` back as it was.  A subclass's own wrapper notes its nodes, so
    a node inherited ``apply`` is noted once."""
    own = "apply" in vars(cls)
    original = getattr(cls, "apply")

    def recording(self: Any, *args: Any, **kwargs: Any) -> Any:
        if type(self) is cls:
            ran(self, *args)
        try:
            result = original(self, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - noted, and raised on as the engine raised it
            if type(self) is cls and failed is not None:
                failed(self, exc)
            raise
        if type(self) is cls and returned is not None:
            returned(self, result)
        return result

    setattr(cls, "apply", recording)
    return (lambda: setattr(cls, "apply", original)) if own else (lambda: delattr(cls, "apply"))


class Watch:
    """The runs seen while backward runs: a node whose ``apply`` (or pre-hook) was called, and
    before it (and at the end) each leaf whose ``.grad`` changed since the last reading."""

    def __init__(self, labels: dict[int, str], leaves: dict[str, Any]) -> None:
        self.labels = labels
        self.leaves = leaves  # an AccumulateGrad's label: its leaf
        self.read = {label: _grad_of(v) for label, v in leaves.items()}
        self.events: list[tuple[bool, str]] = []  # (by apply, label)
        self.sent: dict[str, list[object]] = {}  # a node's label: the numbers applies returned for its edges
        self.short: dict[str, str] = {}  # a node's label: a node whose apply returned no entry for its edge into it
        self.odd: dict[str, tuple[str, str]] = {}  # a node's label: a feeder whose apply returned no tuple, and its type
        self.raised: dict[str, tuple[str, str]] = {}  # a node's label: a feeder whose apply raised, and the error's type
        self.handed: dict[str, list[object]] = {}  # a node's label: the number its apply was handed, at each run
        self.passed: dict[str, list[object]] = {}  # a node's label: every number its apply returned, at every run

    def failed(self, node: Any, error: Exception) -> None:
        """Note that ``node``'s apply raised ``error``: a backward that goes on sends its edges nothing."""
        self._by_edge(self.raised, node, type(error).__name__)

    def _by_edge(self, into: dict[str, tuple[str, str]], node: Any, what: str) -> None:
        """``into[label] = (node's label, what)`` for the node of each edge of ``node`` (both named)."""
        if id(node) in self.labels:
            for pair in list(getattr(node, "next_functions", ())):
                if type(pair) in (tuple, list) and len(pair) == 2 and id(pair[0]) in self.labels:
                    into.setdefault(self.labels[id(pair[0])], (self.labels[id(node)], what))

    def returned(self, node: Any, result: object) -> None:
        """Note the gradients an apply returned, by the node each edge of ``node`` leads to, and
        each node an edge leads to for which it returned no entry (fewer entries than edges)."""
        pairs = getattr(node, "next_functions", ())
        if type(pairs) not in (tuple, list):
            return
        if type(result) not in (tuple, list):  # a generator backward may have used up before it read a gradient
            return self._by_edge(self.odd, node, type_name(result))
        if id(node) in self.labels:
            self.passed.setdefault(self.labels[id(node)], []).extend(_number_or_none(g) for g in result)  # type: ignore[union-attr]
        for i, pair in enumerate(pairs):  # type: ignore[arg-type]
            if type(pair) in (tuple, list) and len(pair) == 2 and id(pair[0]) in self.labels:
                into = self.labels[id(pair[0])]
                if i < len(result):  # type: ignore[arg-type]
                    self.sent.setdefault(into, []).append(_number_or_none(result[i]))  # type: ignore[index]
                elif id(node) in self.labels:
                    self.short.setdefault(into, self.labels[id(node)])

    def sent_zeros(self, label: str, edges: int) -> bool:
        """Whether the watched applies returned a gradient for each of the ``edges`` edges into the
        node ``label``, every one 0: a node left out for its zeros, not one some gradient never reached."""
        return len(self.sent.get(label, [])) == edges > 0 and all(g == 0.0 for g in self.sent[label])

    def ran(self, node: Any, *args: Any) -> None:  # the graph's nodes are held alive: their ids are theirs
        self.poll()
        if len(self.events) < _MAX_RUNS and id(node) in self.labels:
            self.events.append((True, self.labels[id(node)]))
            if args:  # an apply's gradient (a pre-hook on PyTorch's node hands none)
                self.handed.setdefault(self.labels[id(node)], []).append(_number_or_none(args[0]))

    def poll(self) -> None:
        for label, v in self.leaves.items():
            now = _grad_of(v)
            if _changed(self.read[label], now) and len(self.events) < _MAX_RUNS:
                self.events.append((False, label))
            self.read[label] = now

    def order(self) -> list[str]:
        """The runs in order: an AccumulateGrad's written gradients stand for its runs only when
        its ``apply`` was never seen (another value's, polled beside, stand for none)."""
        applied = {label for by_apply, label in self.events if by_apply}
        return [label for by_apply, label in self.events
                if by_apply or label.startswith(ACCUMULATE) and label not in applied]


def _number_or_none(grad: object) -> object:
    """A gradient an apply returned, as a number; None where reading it fails (the student's
    object: what backward then does with it is told elsewhere, never here in its midst)."""
    try:
        return number(grad)
    except Exception:  # noqa: BLE001 - an item() that raises
        return None


def _grad_of(v: Any) -> tuple[object, object]:
    """A leaf's gradient as the probe reads it: the object in ``.grad`` (held, so that a new
    one is told from it) and its number, or a word when reading it fails."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            held = v.grad
        return held, number(held)
    except Exception:  # noqa: BLE001 - the student's grad: a failure is the engine's to report elsewhere
        return None, "unreadable"


def _changed(before: tuple[object, object], now: tuple[object, object]) -> bool:
    """Whether a leaf's .grad is another object or holds another number than before."""
    return now[0] is not before[0] or now[1] != before[1]


def sent_by_applies(root: Any, names: dict[str, Any], start: Callable[[], None]) -> dict[str, list[object]]:
    """What the watched applies returned for each edge while ``start()`` (a backward from ``root``) ran, by
    the label of the node the edge leads to (none where no apply is Python: PyTorch's)."""
    return watched(root, names, start, {})[0].sent


def written_beside(root: Any, names: dict[str, Any], start: Callable[[], None], values: list[str]
                   ) -> tuple[list[tuple[str, str]], set[str], set[str]]:
    """The runs next to which ``start()`` (a backward from ``root``) changed the ``.grad`` of the
    first of ``values`` (names in ``names``): for each change, the labels of the node seen running
    just before it and just after it ("" at either end); the labels of every node seen running;
    and those of ``values`` whose .grad it left holding a number their own node's apply returned
    and none that apply was handed (``_passed_on``).  A retained non-leaf's gradient is written as
    its own node runs, before its apply (PyTorch, the course's engine) or, until ex20, after it or
    once every node ran: a change beside no run of that node, in the midst of the walk, came with
    another node's run."""
    watch, _ = watched(root, names, start, {value: names[value] for value in values})
    runs = [(i, label) for i, (by_apply, label) in enumerate(watch.events) if by_apply]
    pairs = [(next((label for j, label in reversed(runs) if j < i), ""), next((label for j, label in runs if j > i), ""))
             for i, (by_apply, label) in enumerate(watch.events) if not by_apply and label == values[0]]
    return pairs, {label for _, label in runs}, {value for value in values if passed_on(watch, value)}


def passed_on(watch: Watch, value: str) -> bool:
    """Whether the value the probe names ``value`` (polled in ``watch``) was last written just after its
    own node ran, and holds in .grad a gradient that node's apply returned (what the node passes on to
    an input) and none that apply was handed (the gradient that flows into the value, which
    retain_grad keeps): a retained gradient written after apply, from what it returned."""
    own, grad = f"{value}.grad_fn", watch.read[value][1]
    writes = [i for i, (by_apply, label) in enumerate(watch.events) if not by_apply and label == value]
    before = next((label for by_apply, label in reversed(watch.events[:writes[-1]]) if by_apply), None) if writes else None
    handed = watch.handed.get(own, [])
    return (before == own and type(grad) is float and bool(handed) and grad in watch.passed.get(own, [])
            and grad not in handed)


def watched(root: Any, names: dict[str, Any], start: Callable[[], None], polled: dict[str, Any]
             ) -> tuple[Watch, dict[str, list[str]]]:
    """``start()`` run with each node of ``root``'s graph watched (``Watch``), the leaves of
    its AccumulateGrad nodes and the ``polled`` values read at each run; each node's label with
    the labels of the nodes that send it a gradient."""
    nodes = reachable(getattr(root, "grad_fn", None))
    labels = {id(n): node_label(n, names) for n in nodes}
    feeders: dict[str, list[str]] = {labels[id(n)]: [] for n in nodes}
    for n in nodes:
        for pair in list(getattr(n, "next_functions", ())):
            if pair[0] is not None:
                feeders[labels[id(pair[0])]].append(labels[id(n)])
    leaves = {labels[id(n)]: getattr(n, "variable") for n in nodes if labels[id(n)].startswith(ACCUMULATE)}
    watch = Watch(labels, {**leaves, **polled})
    python = [n for n in nodes if inspect.isfunction(getattr(type(n), "apply", None))]
    own = OwnApplies(python, watch.ran, watch.returned, watch.failed)  # an apply set on a node itself (a hook)
    restores = [own.restore, *(_watch_class(cls, *own.notes) for cls in dict.fromkeys(type(n) for n in python))]
    for n in nodes:  # PyTorch's nodes have no Python apply: a pre-hook runs just before each
        if not any(n is p for p in python):
            n.register_prehook(lambda grads, n=n: watch.ran(n))
    try:
        start()
        watch.poll()
    finally:
        for restore in restores:
            restore()
    return watch, feeders


def root_gradient(root: Any) -> float | str | None:
    """``root.backward()``, and the gradient it handed ``root``'s node first: the seed, 1 in
    PyTorch (a pre-hook sees it there); None when backward never called that node's apply (or
    ``root`` has no node to watch)."""
    got = handed_first(getattr(root, "grad_fn", None), root.backward)
    return number(got[0]) if got else None


def handed_first(node: Any, start: Callable[[], None]) -> list[object]:
    """``start()``, and the gradient it handed ``node`` first, as handed (the object itself: what
    it is tells how backward made it), in a list; empty when ``node``'s apply was never called
    (or there is no node to watch).  PyTorch's node is seen through a pre-hook."""
    got: list[object] = []

    def ran(seen: Any, *args: Any) -> None:
        if seen is node and not got:
            got.append(args[0] if args else None)

    python = inspect.isfunction(getattr(type(node), "apply", None))
    restore = _watch_class(type(node), ran) if python else None
    if not python and callable(getattr(node, "register_prehook", None)):  # PyTorch's node; no node: unseen
        node.register_prehook(lambda grads: ran(node, grads[0]))
    try:
        start()
    finally:
        if restore is not None:
            restore()
    return got
