"""``CallRecords``: what ``grader.spec.call.Call`` keeps of one call of the student's code, and
the questions the probes ask of it once the call returned (which passes cleared a leaf's
``.grad``, whether a number is one a pass wrote, the Value a pass started from...).  ``Call``
fills these records as the engine and the profile hook report what the call does.
"""

from __future__ import annotations

from typing import Any, Sequence

import micrograph
from micrograph.value import shares_storage

from grader.spec.caught import Caught
from grader.spec.facts import CONTEXT
from grader.spec.hooked import Chosen
from grader.spec.probe import grad as grad_number

MAX_PASSES_LISTED = 20
MAX_WRITES = 16  # writes into numbers noted per call: enough to tell one, two or many apart in a loop


def is_value(v: object) -> bool:
    return isinstance(v, micrograph.Value)


class CallRecords:
    """The records of one call (``Call`` observes it and fills them).  Only the first
    ``MAX_PASSES_LISTED`` passes are recorded one by one."""

    nodes_read: dict[int, Any] | None = None  # with ``watching(reads_edges=True)``: nodes whose next_functions it read

    def __init__(self, label: str, filename: str, leaves: Sequence[Any] = (),
                 saves: bool = False, grad_numbers: bool = False, made: bool = False,
                 errors: bool = False, clears: bool = False) -> None:
        self.label, self.filename, self.leaves = label, filename, tuple(leaves)
        self.grad_mode_off = False
        self.switched_off: tuple[str, str] | None = None  # how the student's code turned it off: ``Call._switched``
        self.last_off = ""  # ... how it last turned it off, whenever that was (a decorated function's with its name)
        self.offs: set[str] = set()  # ... every way it turned it off (a decorated function's with its name)
        self.read_grad = False  # whether the student's file read some Value's .grad
        self.read_since_pass = False  # ... after the last backward pass started
        self.warning_reads: dict[int, Any] = {}  # non-leaves not retaining whose .grad it read (it warns), by id
        self.grad_reads: dict[int, Any] = {}  # every Value whose .grad it read, by id (kept alive), last read last
        self.engine_walk = False  # whether it called a function of the engine's backward walk
        self.walks = 0  # the frames of that walk called and not returned since the block began
        self.kept_graph: list[bool] = []  # each pass's retain_graph, in order (the first few)
        self.raised_in: list[bool] = []  # ... and whether that pass raised (a failed pass kept nothing)
        self.created_graph: list[bool] = []  # ... and its create_graph (which keeps the graph too)
        self.cleared: list[bool] = []  # with leaves: their .grad None or zero as the pass started
        self.by_backward: list[bool] = []  # each pass: a backward pass, not grad()
        self.inputs_given = False  # a backward pass given inputs=: it wrote only those Values' .grad
        self.reached: list[bool] = []  # with leaves: the pass reaches every one of them
        self.untouched: list[bool] = []  # with leaves: none of their .grad cleared since a pass wrote it
        self.roots: list[frozenset[int]] = []  # each pass's root nodes (ids)
        self.root_nodes: list[tuple[Any, ...]] = []  # ... kept alive, so no later node takes an id of theirs
        self.root_grads: list[tuple[float, ...]] = []  # each pass's roots' gradients, as given to backward
        self.first_root: Any = None  # the first pass's first root node (``graph_below``)
        self.first_nodes: frozenset[int] = frozenset()  # ids of the nodes the first pass may run (its roots keep them)
        self.overlaps: list[bool] = []  # each later pass: its roots in the first pass's graph, or the first's in its
        self.saves = saves  # keep what each node saved as a pass finds it (for detached_from)
        self.saved: dict[Any, tuple[Any, ...]] = {}
        self.grad_numbers = grad_numbers  # keep the gradients the engine made (read_from_grad)
        self.asks_steps = self.wants_steps = grad_numbers or errors  # then the engine records steps
        self.listing, self.past_listed = True, False  # a pass among the first MAX_PASSES_LISTED runs; one past them ran
        self.probe_made: dict[int, Any] | None = {} if made else None  # Values engine ops returned, by id
        self._made_records()
        self._grad_records()
        self.through_data: dict[int, Any] = {}  # Values whose .data the student's file read or set, by id
        self.data_made: dict[int, int] = {}  # with made: ... and how many Values were made when it last did
        self._in_place_records()
        self.started = 0  # the passes started so far
        self.sampled: list[Any] = []  # Values the probe names while the call runs (kept alive) ...
        self.first_versions: dict[int, int] = {}  # ... and their version counters as the first pass started
        self.raised: dict[int, BaseException] | None = {} if errors else None  # its passes' exceptions, by id
        self.raised_at: str | None = None  # with errors: the name of the node the first failed pass stopped at
        self.clears: list[bool] | None = [] if clears else None  # each pass: a leaf it writes was cleared
        self.cleared_later: dict[int, Any] = {}  # with clears: the leaves cleared before a pass after the first
        self.uncleared_later: dict[int, Any] = {}  # ... and those a pass after the first found not cleared
        self.kept_earlier: list[bool] = []  # with clears, each pass: a leaf it writes held an earlier pass's gradient, untouched
        self.pass_leaves: dict[int, Any] = {}  # with clears: every leaf the passes write into, by id
        self.read_when_cleared: dict[int, Any] = {}  # with clears: ... whose .grad the student's code read, cleared
        self.engine_raised: list[str] = []  # the engine functions the student's file called that raised into it
        self.caught = Caught(filename)  # ... and which of those errors its code caught and went on from
        self.fact: dict[str, Any] = {}

    def _in_place_records(self) -> None:
        """What the call's in-place ops changed, with or without ``made``: a write into a number is
        told by the Value written, when, and the method written with."""
        self.changed_in_place: dict[int, Any] = {}  # Values an in-place op changed while it ran, by id
        self.changed_untracked: dict[int, Any] = {}  # ... those of them that required no grad as the op ran
        self.in_place_names: dict[int, str] = {}  # ... the method the student's file last called on each (copy_), by id
        self.changed_before_pass: dict[int, Any] = {}  # ... those of them changed before its first backward pass

    def _made_records(self) -> None:
        """What ``made`` keeps besides the Values themselves: how each was made, and the detaches."""
        self.inputs: dict[int, tuple[Any, ...]] = {}  # with made: the Values each was made from
        self.aliased: dict[int, tuple[Any, Any]] = {}  # with made: a detach() of a Value no op made, and that Value
        self.ops: dict[int, tuple[Any, list[Any]]] = {}  # with made: the engine function and its arguments
        self.made_untracked: dict[int, Any] = {}  # with made: those of them made while grad mode was off
        self.untracked_by: dict[int, str] = {}  # ... and how the student's code had last turned it off then
        self.detached_tracked = False  # with made: detach() was called on a Value requiring grad
        self.detached_first: int | None = None  # ... and how many passes had started when it first was
        self.detached_leaves: list[Any] = []  # with made: the leaves requiring grad it called detach_() on
        self.detached_untracked: dict[int, Any] = {}  # with made: the Values requiring no grad it called detach() on
        self.detached_results: dict[int, Any] = {}  # with made: what detach() returned for a Value requiring grad
        self.detached_changed = False  # with made: one of those changed in place, or a leaf cut by detach_()
        self.cut_in_place: list[tuple[Any, Any]] = []  # with made: each op's Value detach_() cut, and its node then
        self.writes: list[Any] = []  # with made: the Value each in-place op or ``.data =`` wrote into (the first few)

    def _grad_records(self) -> None:
        """What ``grad_numbers`` keeps: the leaves the passes write into and the gradients' floats."""
        self.written: dict[int, Any] = {}  # the leaves the passes write into, by id (not one whose number a hook chose)
        self.accumulated: dict[int, Any] = {}  # ... and those whose number a hook chose too: every leaf a pass wrote into
        self.probe_held: dict[int, float] = {}  # every gradient's float object, by id (kept alive)
        self.in_grad: dict[int, float] = {}  # ... those of them a .grad held
        self.read_numbers: dict[int, float] = {}  # ... those the student's file took with item(), float() or tolist()
        self.at_hooked_leaf: dict[int, tuple[float, Any]] = {}  # ... those a leaf's hooks were handed, with the leaf
        self.hook_numbers: dict[int, float] = {}  # the floats a pass wrote into a .grad where a hook of the student's chose them
        self.seeded_numbers: dict[int, float] = {}  # ... where it added to a number the student's code put there before it
        self.chosen = Chosen()  # where a hook of the student's chose the pass's gradients
        self.by_pass: dict[int, float] = {}  # the floats a pass wrote into a .grad, by id
        self.in_grad_of: dict[int, list[Any]] = {}  # the Values whose .grad held each, by its id

    def note_write(self, v: Any) -> None:
        """With ``made``: note a write into ``v``'s number (an in-place op on it, ``v.data = ...``)."""
        if self.probe_made is not None and len(self.writes) < MAX_WRITES:
            self.writes.append(v)

    def writes_into(self, v: Any) -> int:
        """With ``made``: how many of the writes noted went into ``v``'s number, through ``v`` itself or
        a Value sharing it (``v.data``, ``v.detach()``), up to ``MAX_WRITES``: a number that looks
        changed twice is told so only where two writes were seen."""
        return sum(1 for u in self.writes if is_value(u) and is_value(v) and shares_storage(u, v))

    def wrote_through_detach(self, v: Any) -> bool:
        """With ``made``: whether a write noted went into ``v``'s number through what a detach() of a Value
        requiring grad returned, which shares ``v``'s version counter (a write through ``.data`` moves none)."""
        return any(self.detach_of(u) and is_value(v) and shares_storage(u, v) for u in self.writes)

    @property
    def kept(self) -> list[bool]:
        """Whether each pass kept its graph: its retain_graph, but for a pass that raised, which
        kept nothing whatever it was asked (a flag with no effect is no difference)."""
        return [kept and not raised for kept, raised in zip(self.kept_graph, self.raised_in)]

    def detach_of(self, v: object) -> bool:
        """With ``made``: whether ``v`` is the very object a detach() of a Value requiring grad
        returned.  Never None: a lookup by id that finds nothing gives None, which is not a
        detach (a call that returned None returned no Value at all)."""
        return v is not None and self.detached_results.get(id(v)) is v

    def detached_inputs(self, names: dict[str, Any]) -> dict[int, str]:
        """With ``made``: for each node (by id) of a Value an operation of the call made from a
        detach() of a Value ``names`` names (``x + w.detach()``), that name: the graph records the
        detach as a constant input, which shares the named Value's number but is no part of its
        graph, and the comparison tells that instead of "other inputs"."""
        found: dict[int, str] = {}
        for v in (self.probe_made or {}).values():
            for u in self.inputs.get(id(v), ()) if v.grad_fn is not None else ():
                source = self.aliased.get(id(u), (None, None))[1] if self.detach_of(u) else None
                name = next((n for n, named in names.items() if source is not None and named is source), None)
                if name is not None:
                    found.setdefault(id(v.grad_fn), name)
        return found

    def grad_holders(self, number: object) -> list[Any]:
        """With ``grad_numbers``: the Values whose .grad held ``number`` (the very float) while
        the call ran: whose gradient a number read with ``.grad.item()`` is."""
        return self.in_grad_of.get(id(number), []) if self.in_grad.get(id(number)) is number else []

    def pass_wrote(self, number: object) -> bool:
        """With ``grad_numbers``: whether ``number`` is the very float a backward pass wrote into a
        .grad (a zero a pass computed is no cleared gradient, whatever its value)."""
        return self.by_pass.get(id(number)) is number

    def read_cleared(self, v: object) -> bool:
        """With ``clears``: whether the student's code read ``v.grad`` while it was cleared (None or
        zero since a pass wrote it): the order of a read and a clear, as it happened."""
        return self.read_when_cleared.get(id(v)) is v

    def handed_to_hook(self, number: object) -> Any:
        """The leaf whose hooks were handed ``number`` (the very float) as a pass's gradient for
        it, where no .grad of the call held that float: a hook's record of what one pass sent the
        leaf, not of what its .grad held.  None for any other number."""
        handed = self.at_hooked_leaf.get(id(number))
        if handed is None or handed[0] is not number or self.in_grad.get(id(number)) is number:
            return None
        return handed[1]

    def made_before_data(self, result: object, v: object) -> bool:
        """With ``made``: whether an engine operation returned ``result`` to the student's code
        before that code last reached ``v.data`` (``result`` computed from ``v``, then ``v``
        changed through .data)."""
        if self.probe_made is None or self.probe_made.get(id(result)) is not result or self.through_data.get(id(v)) is not v:
            return False
        return list(self.probe_made).index(id(result)) < self.data_made[id(v)]

    def changed_after_first_pass(self, v: object) -> bool:
        """Whether ``v``, a Value the probe put in ``sampled`` before the call's first backward
        pass, was changed in place after that pass started (its version counter moved since)."""
        before = self.first_versions.get(id(v))
        sampled = before is not None and any(s is v for s in self.sampled)
        return sampled and int(v._version) > before  # type: ignore[attr-defined]

    def cleared_between(self, v: object) -> bool:
        """With ``clears``: whether the student's code cleared ``v.grad`` between two of the call's
        passes (before a pass after the first that writes it)."""
        return self.cleared_later.get(id(v)) is v

    def cleared_some_only(self, v: object) -> bool:
        """With ``clears``: whether the student's code cleared ``v.grad`` before some of the call's
        passes after the first that write it, but not before all of them."""
        return self.cleared_between(v) and self.uncleared_later.get(id(v)) is v

    def never_cleared(self, v: object) -> bool:
        """With ``clears``: whether a pass after the first found ``v.grad`` as a pass wrote it, none
        found it cleared, and it holds a number other than zero now: the student's code never cleared
        it.  A gradient the engine wrote as zero tells nothing: zeroing it in place leaves it so."""
        return (self.uncleared_later.get(id(v)) is v and not self.cleared_between(v)
                and grad_number(v) not in (None, 0.0))

    def probe_wrote(self, v: object) -> bool:
        """With ``clears``: whether a pass of the call wrote ``v.grad``."""
        return self.pass_leaves.get(id(v)) is v

    def wrote_instead(self, v: object, given: Sequence[Any]) -> bool:
        """With ``clears``: whether no pass wrote ``v.grad`` but one wrote the .grad of a leaf that
        is none of the Values ``given`` (a leaf the student's code made in place of ``v``)."""
        return self.pass_leaves.get(id(v)) is not v and any(
            all(leaf is not g for g in given) for leaf in self.pass_leaves.values())

    def last_root(self) -> micrograph.Value | None:
        """The Value the last backward pass started from, among those the engine's ops made: the
        caller's own y (the pass keeps the node, the Value is found by its grad_fn); None if not made."""
        root = self.root_nodes[-1][0] if self.root_nodes and self.root_nodes[-1] else None
        made = list((self.probe_made or {}).values())
        return next((v for v in reversed(made) if root is not None and v.grad_fn is root), None)

    def leaf_facts(self) -> dict[str, Any]:
        """The per-pass observations of the leaves (none without leaves), and with ``clears``
        whether a pass started from a .grad the student's code cleared, and as context whether it
        added to an earlier pass's gradient left as that pass wrote it (what tells a reset that never
        ran between two steps); as context, whether the first pass that found some .grad not
        cleared found none of them cleared (a zeroing loop that ran over no parameter, or none at all);
        as context, whether a backward pass was given inputs= (it writes no other leaf's .grad)."""
        between = {} if self.clears is None else {"cleared_between": self.clears, CONTEXT + "kept_earlier": self.kept_earlier}
        if self.inputs_given:  # a backward pass given inputs=: a leaf's .grad it left unwritten is told beside it
            between[CONTEXT + "inputs_given"] = True
        if not self.leaves:
            return between
        first = next((i for i, cleared in enumerate(self.cleared) if not cleared), None)
        return {**between,
                "grads_cleared": self.cleared, "by_backward": self.by_backward,
                "reaches_leaves": self.reached, CONTEXT + "none_cleared": first is not None and self.untouched[first]}
