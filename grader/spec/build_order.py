"""The order in which a build-track engine runs its nodes, observed while backward runs.

Gradients alone show a wrong order only where a floating-point sum happens to depend on it.
So a probe watches each node of a program's graph run: on the student's engine it puts a
recording wrapper in front of each node class's ``apply`` while backward runs (the method the
stage's statement has the engine call, ``node.apply(grad)``), on PyTorch's a node pre-hook (``grad_fn.register_prehook``),
which runs just before the node does.  An engine may write a leaf's gradient without calling its
``AccumulateGrad``'s ``apply`` (``store_grad`` called from backward's loop): each time a node
is watched, and when backward ends, the probe reads the leaves' ``.grad``, and a leaf whose
gradient is another object or number than at the last reading had its AccumulateGrad run in
between (one that adds 0 in place is not seen).  Each node is
named as the student reads it (``"b.grad_fn"``, ``"AccumulateGrad(w)"``: code, the same in
every language), from the names the probe gives its program's values, so the facts hold no number:

* ``runs_once``: no node ran twice (a recursive walk runs a shared node once per path);
* ``after_feeders``: no node ran before a node that sends it a gradient; the student's side
  names the first such pair (context, told with the difference);
* the whole order, compared with PyTorch's (the newest ready node first).  Ready
  ``AccumulateGrad`` nodes all have the highest sequence number, so the statement leaves their
  order among themselves open (a ready list sorted then popped from its end runs them last
  pushed first, a heap first pushed first): a run of them is compared as a set, in name order;
* ``applied``: the engine called the ``apply`` of every other node (PyTorch runs each).  An
  engine that runs a node some other way (a table of its own from node class to function) runs
  it unseen: its order cannot be watched, so the three facts above are not claimed (None), and
  this one says which node's ``apply`` backward never called, instead of a shorter order.
"""

from __future__ import annotations

import inspect
import warnings
from typing import Any, Callable

from grader.spec.build_reads import fact, number
from grader.spec.raised import raised
from grader.spec.facts import CONTEXT, Check
from grader.spec.order_lists import ACCUMULATE, passed_over, ties_in_name_order, too_early
from grader.spec.own_apply import OwnApplies
from grader.spec.probe import type_name
from grader.spec.provenance import check

UNNAMED = "a node the program does not name"
_MAX_RUNS = 64  # a runaway engine's runs are not all worth reporting


def _nodes(root: Any) -> list[Any]:
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


def _label(node: Any, names: dict[str, Any]) -> str:
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

    def watched(self: Any, *args: Any, **kwargs: Any) -> Any:
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

    setattr(cls, "apply", watched)
    return (lambda: setattr(cls, "apply", original)) if own else (lambda: delattr(cls, "apply"))


class _Watch:
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

    def ran(self, node: Any, *_: Any) -> None:  # the graph's nodes are held alive: their ids are theirs
        self.poll()
        if len(self.events) < _MAX_RUNS and id(node) in self.labels:
            self.events.append((True, self.labels[id(node)]))

    def poll(self) -> None:
        for label, v in self.leaves.items():
            now = _grad_of(v)
            if _changed(self.read[label], now) and len(self.events) < _MAX_RUNS:
                self.events.append((False, label))
            self.read[label] = now

    def order(self) -> list[str]:
        """The runs in order: an AccumulateGrad's written gradients stand for its runs only when
        its ``apply`` was never seen."""
        applied = {label for by_apply, label in self.events if by_apply}
        return [label for by_apply, label in self.events if by_apply or label not in applied]


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


def run_order(root: Any, names: dict[str, Any], start: Callable[[], None]
              ) -> tuple[list[str], dict[str, list[str]], list[str]]:
    """The labels of the nodes ``start()`` (a backward from ``root``, a Value) ran, in order;
    each node's label with the labels of the nodes that send it a gradient; and the labels of
    the nodes other than AccumulateGrad that ran unseen (their ``apply`` never called)."""
    order, feeders, unseen, _ = _ran(root, names, start)
    return order, feeders, unseen


def _ran(root: Any, names: dict[str, Any], start: Callable[[], None]
         ) -> tuple[list[str], dict[str, list[str]], list[str], _Watch]:
    """``run_order``'s three answers, and the watch they were read from."""
    watch, feeders = _watched(root, names, start, {})
    order = watch.order()
    unseen = [label for label in feeders if label not in order and (not label.startswith(ACCUMULATE) or (
        label in watch.raised and watch.read[label][0] is None))]  # a leaf's node a raising feeder never reached
    return order, feeders, unseen, watch


def sent_by_applies(root: Any, names: dict[str, Any], start: Callable[[], None]) -> dict[str, list[object]]:
    """What the watched applies returned for each edge while ``start()`` (a backward from ``root``) ran, by
    the label of the node the edge leads to (none where no apply is Python: PyTorch's)."""
    return _watched(root, names, start, {})[0].sent


def written_beside(root: Any, names: dict[str, Any], start: Callable[[], None], value: str
                   ) -> tuple[list[tuple[str, str]], set[str]]:
    """The runs next to which ``start()`` (a backward from ``root``) changed ``names[value]``'s
    ``.grad``: for each change, the labels of the node seen running just before it and just
    after it ("" at either end); and the labels of every node seen running.  A retained
    non-leaf's gradient is written as its own node runs, before its apply (PyTorch, the course's
    engine) or, until ex20, after it or once every node ran: a change beside no run of that
    node, in the midst of the walk, came with another node's run."""
    watch, _ = _watched(root, names, start, {value: names[value]})
    runs = [(i, label) for i, (by_apply, label) in enumerate(watch.events) if by_apply]
    pairs = [(next((label for j, label in reversed(runs) if j < i), ""), next((label for j, label in runs if j > i), ""))
             for i, (by_apply, label) in enumerate(watch.events) if not by_apply and label == value]
    return pairs, {label for _, label in runs}


def _watched(root: Any, names: dict[str, Any], start: Callable[[], None], polled: dict[str, Any]
             ) -> tuple[_Watch, dict[str, list[str]]]:
    """``start()`` run with each node of ``root``'s graph watched (``_Watch``), the leaves of
    its AccumulateGrad nodes and the ``polled`` values read at each run; each node's label with
    the labels of the nodes that send it a gradient."""
    nodes = _nodes(getattr(root, "grad_fn", None))
    labels = {id(n): _label(n, names) for n in nodes}
    feeders: dict[str, list[str]] = {labels[id(n)]: [] for n in nodes}
    for n in nodes:
        for pair in list(getattr(n, "next_functions", ())):
            if pair[0] is not None:
                feeders[labels[id(pair[0])]].append(labels[id(n)])
    leaves = {labels[id(n)]: getattr(n, "variable") for n in nodes if labels[id(n)].startswith(ACCUMULATE)}
    watch = _Watch(labels, {**leaves, **polled})
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


def _stuck(order: list[str], feeders: dict[str, list[str]], watch: _Watch) -> tuple[str, str] | None:
    """The first named node backward never ran although every node that sends it a gradient ran,
    one of them through two edges (``h + h``'s node into h's), and that feeder: a dependency count
    taken down once for both edges never reaches 0.  An AccumulateGrad counts as never run only
    when its leaf's .grad is still None (one written in place unseen may have run)."""
    for node, into in feeders.items():
        if node == UNNAMED or node in order or not into or UNNAMED in into or not all(f in order for f in into):
            continue
        if node.startswith(ACCUMULATE) and watch.read[node][0] is not None:
            continue
        twice = next((f for f in into if into.count(f) > 1), None)
        if twice is not None:
            return node, twice
    return None


def _why_unseen(node: str, stuck: tuple[str, str] | None, feeders: dict[str, list[str]], watch: _Watch
                ) -> dict[str, Any]:
    """The context told beside a node backward never called the apply of: a feeder whose apply
    raised an error backward went on past; one whose apply returned no tuple (a generator); a feeder whose apply returned no gradient for its edge into it (so fewer came than edges reach it); else every edge's
    gradient 0 (left out for a 0); else a feeder through two edges whose count went down once."""
    context: dict[str, Any] = {CONTEXT + "node": node}
    swallowed = watch.raised.get(node)
    if swallowed is not None and swallowed[0] != UNNAMED:  # a feeder's apply raised, and backward went on
        return {**context, CONTEXT + "swallowed": True, CONTEXT + "feeder": swallowed[0], CONTEXT + "error": swallowed[1]}
    odd = watch.odd.get(node)
    if odd is not None and odd[0] != UNNAMED:  # a feeder's apply gave no tuple: told as that, not as a count
        return {**context, CONTEXT + "not_tuple": True, CONTEXT + "feeder": odd[0], CONTEXT + "type": odd[1]}
    short = watch.short.get(node)
    if short is not None and short != UNNAMED:
        return {**context, CONTEXT + "short": True, CONTEXT + "feeder": short}
    if watch.sent_zeros(node, len(feeders.get(node, []))):
        return {**context, CONTEXT + "zero_sent": True}
    if stuck is not None:
        return {**context, CONTEXT + "two_edges": True, CONTEXT + "feeder": stuck[1]}
    return context


def _run_again(order: list[str], paths: dict[str, int]) -> str | None:
    """The first named node that ran twice in a row, and not as many times as paths reach it:
    backward called its apply again at once, where a walk once per path runs a node once for
    each path (twice in a row too, for ``w * w``'s two edges into w's node)."""
    return next((node for node, then in zip(order, order[1:])
                 if node == then and node in paths and order.count(node) != paths[node]), None)


def _paths(root: Any, names: dict[str, Any]) -> dict[str, int]:
    """How many paths from ``root`` (a node) reach each named node: the sum, over the edges into
    it, of the paths reaching the node the edge comes from (Kahn's order: no recursion)."""
    nodes = _nodes(root)
    into: dict[int, int] = {id(n): 0 for n in nodes}
    below: dict[int, list[Any]] = {id(n): [] for n in nodes}
    for n in nodes:
        for pair in list(getattr(n, "next_functions", ())):
            if type(pair) in (tuple, list) and len(pair) == 2 and pair[0] is not None:
                into[id(pair[0])] += 1
                below[id(n)].append(pair[0])
    count = {id(n): 0 for n in nodes}
    ready = [n for n in nodes if into[id(n)] == 0]
    for n in ready:
        count[id(n)] = 1
    while ready:
        n = ready.pop()
        for child in below[id(n)]:
            count[id(child)] += count[id(n)]
            into[id(child)] -= 1
            if into[id(child)] == 0:
                ready.append(child)
    labels = {id(n): _label(n, names) for n in nodes}
    return {labels[key]: paths for key, paths in count.items() if labels[key] != UNNAMED}


def order_facts(root: Any, names: dict[str, Any], program: str, catch: bool = False
                ) -> dict[str, list[dict[str, Any] | None]]:
    """Run ``root.backward()`` watched; the facts about the order its nodes ran in (``ran``,
    None each when a node ran unseen) and whether backward called every node's apply
    (``applied``).  With ``catch``, an error of that backward is a fact too (``first``: a
    node run twice that meets the values it released), and the order is told as far as it went."""
    label = f"backward through {program}"
    first: list[dict[str, Any] | None] = []
    called = f"{next((n for n, v in names.items() if v is root), 'root')}.backward(), {program}"
    start = (lambda: first.append(raised(root.backward, called))) if catch else root.backward
    order, feeders, unseen, watch = _ran(root, names, start)
    stopped = bool(first) and first[0] is not None and first[0].get("value") is not None
    applied = check(Check.APPLIED, stopped or not unseen, label)  # stopped: no node known to run unseen
    out: dict[str, list[dict[str, Any] | None]] = {"first": first} if catch else {}
    stuck = _stuck(order, feeders, watch) if not stopped else None
    if stuck is not None and stuck[0] not in unseen:  # a leaf's AccumulateGrad: its .grad never written
        unseen.insert(0, stuck[0])
        applied = check(Check.APPLIED, False, label)
    if unseen and not stopped:  # context: told beside the difference, never compared
        node = stuck[0] if stuck is not None else unseen[0]
        applied.update(_why_unseen(node, stuck, feeders, watch))
        return {**out, "ran": [None, None, None], "applied": [applied]}
    early = too_early(order, feeders)
    after = check(Check.AFTER_FEEDERS, early is None, label)
    if early is not None:
        after.update({CONTEXT + "ran": early[0], CONTEXT + "feeder": early[1]})
    once = check(Check.RUNS_ONCE, len(order) == len(set(order)), label)
    again = _run_again(order, _paths(getattr(root, "grad_fn", None), names)) if len(order) != len(set(order)) else None
    if again is not None:  # context: a node run twice in a row, not once per path to it
        once.update({CONTEXT + "node": again, CONTEXT + "in_a_row": True})
    return {**out, "ran": [once, after, {**fact(ties_in_name_order(order), f"the list of the nodes of {program}, in the order backward ran them"), **passed_over(order, feeders, names)}],
            "applied": [applied]}


def watched_order(graphs: list[tuple[Any, dict[str, Any], str]], catch: bool = False
                  ) -> dict[str, list[dict[str, Any] | None]]:
    """``order_facts`` of each (root, names, program), in order, as one list per key."""
    out: dict[str, list[dict[str, Any] | None]] = {}
    for root, names, program in graphs:
        for key, facts in order_facts(root, names, program, catch).items():
            out[key] = out.get(key, []) + facts
    return out
