"""``Call``: what one call of the student's code did to the engine, observed while it runs
(``provenance.watching`` sets it up and turns what it saw into the call's CALL fact): its
backward passes, grad mode around the student's frames, the ``.grad`` it read, the gradients
the engine made, the Values engine functions returned to it, and what a hook of its chose."""

from __future__ import annotations

from types import FrameType
from typing import Any, Sequence

import micrograph
from micrograph import observe, value as value_module
from micrograph.node import AccumulateGrad
from grader.sandbox.child.guard import LOOKUPS
from grader.spec.engine_code import (ALIASES, DATA_ACCESS, DETACH_IN_PLACE, ENGINE_WALK, GRAD_GETTER, NO_GRAD_ENTER,
                                     ONE_ENTRY, PASS_THROUGH, RECORD_IN_PLACE, SET_GRAD_ENABLED,
                                     engine_function, in_walk, one_entry, raised_out, run_by_engine, watched_code)
from grader.spec.facts import CONTEXT
from grader.spec.graph import reaches_leaves
from grader.spec.hooked import WRITES, Chosen, engine_left
from grader.spec.hooked import cleared as grad_cleared
from grader.spec.probe import grad as grad_number
from grader.spec.raise_site import ENGINE_DIR

MAX_PASSES_LISTED = 20


def is_value(v: object) -> bool:
    return isinstance(v, micrograph.Value)


class Call(observe.Observer):
    """What one call of the student's code did; ``fact`` is filled when the block ends.

    Only the first ``MAX_PASSES_LISTED`` passes are looked at, and only as they start unless
    ``grad_numbers`` asks for each step's gradients.  The run's registry ``hooked.WRITES``
    observes around it (``observe.observing`` nests) and hears each event first, so ``step``
    can ask it who chose a gradient.
    """

    def __init__(self, label: str, filename: str, leaves: Sequence[Any] = (),
                 saves: bool = False, grad_numbers: bool = False, made: bool = False,
                 errors: bool = False, clears: bool = False) -> None:
        self.label, self.filename, self.leaves = label, filename, tuple(leaves)
        self.grad_mode_off = False
        self.read_grad = False  # whether the student's file read some Value's .grad
        self.read_since_pass = False  # ... after the last backward pass started
        self.warning_reads: dict[int, Any] = {}  # non-leaves not retaining, whose .grad it read (a read that warns), by id
        self.grad_reads: dict[int, Any] = {}  # every Value whose .grad it read, by id (kept alive)
        self.engine_walk = False  # whether it called a function of the engine's backward walk
        self.walks = 0  # the frames of that walk called and not returned since the block began
        self.kept_graph: list[bool] = []  # each pass's retain_graph, in order (the first few)
        self.raised_in: list[bool] = []  # ... and whether that pass raised (a failed pass kept nothing)
        self.created_graph: list[bool] = []  # ... and its create_graph (which keeps the graph too)
        self.cleared: list[bool] = []  # with leaves: their .grad None or zero as the pass started
        self.by_backward: list[bool] = []  # with leaves: a backward pass, not grad()
        self.reached: list[bool] = []  # with leaves: the pass reaches every one of them
        self.untouched: list[bool] = []  # with leaves: none of their .grad cleared since a pass wrote it
        self.roots: list[frozenset[int]] = []  # each pass's root nodes (ids)
        self.root_nodes: list[tuple[Any, ...]] = []  # ... kept alive, so no later node takes an id of theirs
        self.root_grads: list[tuple[float, ...]] = []  # each pass's roots' gradients, as given to backward
        self.first_root: Any = None  # the first pass's first root node (``graph_below``)
        self.first_nodes: frozenset[int] = frozenset()  # ids of the nodes the first pass may run (kept alive by its roots)
        self.overlaps: list[bool] = []  # each later pass: its roots inside the first pass's graph, or the first's in its
        self.saves = saves  # keep what each node saved as a pass finds it (for detached_from)
        self.saved: dict[Any, tuple[Any, ...]] = {}
        self.grad_numbers = grad_numbers  # keep the gradients the engine made (read_from_grad)
        self.asks_steps = self.wants_steps = grad_numbers or errors  # then the engine records steps
        self.listing, self.past_listed = True, False  # a pass among the first MAX_PASSES_LISTED runs; one past them ran
        self.written: dict[int, Any] = {}  # the leaves the passes write into, by id
        self.held: dict[int, float] = {}  # every gradient's float object, by id (kept alive)
        self.in_grad: dict[int, float] = {}  # ... those of them a .grad held
        self.at_hooked_leaf: dict[int, tuple[float, Any]] = {}  # ... those a leaf's hooks were handed, with the leaf
        self.chosen = Chosen()  # where a hook of the student's chose the pass's gradients
        self.made: dict[int, Any] | None = {} if made else None  # Values engine ops returned, by id
        self._made_records()
        self.through_data: dict[int, Any] = {}  # Values whose .data the student's file read or set, by id
        self.changed_in_place: dict[int, Any] = {}  # Values an in-place op changed while it ran, by id
        self.changed_before_pass: dict[int, Any] = {}  # ... those of them changed before its first backward pass
        self.data_made: dict[int, int] = {}  # with made: ... and how many Values were made when it last did
        self.started = 0  # the passes started so far
        self.sampled: list[Any] = []  # Values the probe names while the call runs (kept alive) ...
        self.first_versions: dict[int, int] = {}  # ... and their version counters as the first pass started
        self.raised: dict[int, BaseException] | None = {} if errors else None  # its passes' exceptions, by id
        self.raised_at: str | None = None  # with errors: the name of the node the first failed pass stopped at
        self.clears: list[bool] | None = [] if clears else None  # each pass: a leaf it writes was cleared
        self.cleared_later: dict[int, Any] = {}  # with clears: the leaves cleared before a pass after the first
        self.uncleared_later: dict[int, Any] = {}  # ... and those a pass after the first found not cleared
        self.pass_leaves: dict[int, Any] = {}  # with clears: every leaf the passes write into, by id
        self.read_when_cleared: dict[int, Any] = {}  # with clears: ... whose .grad the student's code read while cleared
        self.by_pass: dict[int, float] = {}  # with grad_numbers: the floats a pass wrote into a .grad, by id
        self.in_grad_of: dict[int, list[Any]] = {}  # with grad_numbers: the Values whose .grad held each, by its id
        self.engine_raised: list[str] = []  # the engine functions the student's file called that raised into it
        self.fact: dict[str, Any] = {}

    def failed(self, failure: observe.Failure) -> None:
        if self.raised is not None:
            self.raised[id(failure.error)] = failure.error
            if self.raised_at is None and failure.node is not None:
                self.raised_at = str(failure.node.name())
        if self.listing and self.raised_in:
            self.raised_in[-1] = True  # the pass that started last is the one that raised

    @property
    def kept(self) -> list[bool]:
        """Whether each pass kept its graph: its retain_graph, but for a pass that raised, which
        kept nothing whatever it was asked (a flag with no effect is no difference)."""
        return [kept and not raised for kept, raised in zip(self.kept_graph, self.raised_in)]

    def pass_started(self, start: observe.PassStart) -> None:
        self.started += 1
        if self.started == 1:
            self.first_versions = {id(v): int(v._version) for v in self.sampled if is_value(v)}
        self.listing = len(self.kept_graph) < MAX_PASSES_LISTED
        self.past_listed |= not self.listing
        self.wants_steps = self.asks_steps and self.listing
        if not self.listing:
            return
        self.kept_graph.append(bool(start.retain_graph))
        self.raised_in.append(False)
        self.created_graph.append(bool(start.create_graph))
        self.roots.append(frozenset(id(node) for node, _ in start.roots))
        self.root_nodes.append(tuple(node for node, _ in start.roots))
        self.root_grads.append(tuple(g.item() if is_value(g) else float(g) for _, g in start.roots))
        if self.first_root is None and start.roots:
            self.first_root = start.roots[0][0]
        nodes = frozenset(id(node) for node in (*start.dependencies, *(node for node, _ in start.roots)))
        if len(self.roots) == 1:
            self.first_nodes = nodes
        else:
            self.overlaps.append(self.roots[-1] <= self.first_nodes or self.roots[0] <= nodes)
        self.read_since_pass = False
        for node in (*(node for node, _ in start.roots), *start.dependencies) if self.saves else ():
            items = node.saved_items()
            if items is not None:  # the pass will free them: keep what it found
                self.saved.setdefault(node, items)
        if self.grad_numbers:
            self.hold_grads()  # what the last pass left, and what was done to it since
            self.chosen.started((*(node for node, _ in start.roots), *start.dependencies), self.written)
        if self.clears is not None:
            written = [node.variable for node in start.dependencies if type(node) is AccumulateGrad]
            self.pass_leaves.update((id(v), v) for v in written)
            cleared = [v for v in written if grad_cleared(v)]
            self.clears.append(bool(cleared))
            if len(self.clears) > 1:
                self.cleared_later.update((id(v), v) for v in cleared)
                self.uncleared_later.update((id(v), v) for v in written if not any(v is c for c in cleared))
        if self.leaves:
            self.cleared.append(all(grad_number(v) in (None, 0.0) for v in self.leaves))
            self.by_backward.append(start.kind is observe.PassKind.BACKWARD)
            self.reached.append(reaches_leaves(start, self.leaves))
            self.untouched.append(not any(grad_cleared(v) for v in self.leaves))

    def sample(self, frame: FrameType, event: str, arg: object) -> None:
        """A profile hook: note grad mode whenever the student's file calls or is called, and
        whether it read a ``.grad`` (the property's getter called from the student's file)."""
        if event == "return":
            self._returned(frame, arg)
        if event != "call":
            return
        code = watched_code(frame)
        walk = code is not None and code.co_filename in ENGINE_WALK
        self.walks += walk  # the engine's walks running: grad off there is the engine's (``run_by_engine``)
        sampling = not self.grad_mode_off and self.walks <= 0 and not micrograph.is_grad_enabled()
        switch = self.walks > 0 and not self.grad_mode_off and code in (NO_GRAD_ENTER, SET_GRAD_ENABLED)
        decorated = not (self.walks > 0 or self.grad_mode_off) and code is SET_GRAD_ENABLED  # a @no_grad() function
        if not (walk or sampling or switch or decorated or code is GRAD_GETTER or code is DETACH_IN_PLACE or code in DATA_ACCESS
                or code is RECORD_IN_PLACE):
            return  # frames' code: audited
        if code is RECORD_IN_PLACE:  # the Value an in-place op changes, whoever called it
            changed = frame.f_locals.get("self")
            if is_value(changed):
                self.changed_in_place[id(changed)] = changed
                self.changed_before_pass.update({} if self.started else {id(changed): changed})
        from_student = self._from_student(frame)
        wrapper = frame.f_back if decorated and frame.f_locals.get("mode") is False else None
        if wrapper is not None and wrapper.f_code in PASS_THROUGH and self._from_student(wrapper):
            self.grad_mode_off = True  # the student's code called it (optim's step): that call ran under no_grad
        if switch and from_student:  # in the engine's walk grad mode is off already: a no_grad of the
            # student's own (in a hook it wrote) changes no mode, but the student's code turned it off
            local = frame.f_locals
            self.grad_mode_off = (isinstance(local.get("self"), micrograph.no_grad) if code is NO_GRAD_ENTER
                                  else local.get("mode") is False)
        if from_student and code in DATA_ACCESS:
            source = frame.f_locals.get("self")
            if is_value(source):
                self.through_data[id(source)] = source
                if self.made is not None:
                    self.data_made[id(source)] = len(self.made)
        if from_student and code is GRAD_GETTER:
            self.read_grad = self.read_since_pass = True
            source = frame.f_locals.get("self")
            if is_value(source):
                self.grad_reads[id(source)] = source
            if is_value(source) and source.grad_fn is not None and not source.retains_grad:
                self.warning_reads[id(source)] = source
            if self.clears is not None and self.pass_leaves.get(id(source)) is source and grad_cleared(source):
                self.read_when_cleared[id(source)] = source
        if from_student and code is not None and code.co_filename in ENGINE_WALK:
            self.engine_walk = True
        if from_student and self.made is not None and code is DETACH_IN_PLACE:
            source = frame.f_locals.get("self")  # detach_() cuts it: look before it does
            if is_value(source) and source.requires_grad:
                self._detached()
                self.detached_changed = True  # the Value itself cut from its graph
                if source.grad_fn is None:  # a leaf: detach_() leaves it requiring no grad
                    self.detached_leaves.append(source)
        if sampling and (from_student or frame.f_code.co_filename == self.filename):
            self.grad_mode_off = not run_by_engine(frame)

    def _made_records(self) -> None:
        """What ``made`` keeps besides the Values themselves: how each was made, and the detaches."""
        self.inputs: dict[int, tuple[Any, ...]] = {}  # with made: the Values each was made from
        self.aliased: dict[int, tuple[Any, Any]] = {}  # with made: a detach() of a Value no op made, and that Value
        self.ops: dict[int, tuple[Any, list[Any]]] = {}  # with made: the engine function and its arguments
        self.made_untracked: dict[int, Any] = {}  # with made: those of them made while grad mode was off
        self.detached_tracked = False  # with made: detach() was called on a Value requiring grad
        self.detached_first: int | None = None  # ... and how many passes had started when it first was
        self.detached_leaves: list[Any] = []  # with made: the leaves requiring grad it called detach_() on
        self.detached_untracked: dict[int, Any] = {}  # with made: the Values requiring no grad it called detach() on
        self.detached_results: dict[int, Any] = {}  # with made: what detach() returned for a Value requiring grad
        self.detached_changed = False  # with made: one of those changed in place, or a Value cut by detach_()

    def _returned(self, frame: FrameType, result: object) -> None:
        """A frame returns (one of the engine's walk, maybe); with ``made``, keep a Value an engine
        function returned to the student, unless it is one of its own arguments (``a += 1``, ``fill_``:
        made before) or an alias or copy (``engine_code.ALIASES``) of a Value no operation made."""
        self.walks -= in_walk(frame)
        if result is None and raised_out(frame) and self._from_student(frame):
            self.engine_raised.append(frame.f_code.co_name)
        if self.grad_numbers and is_value(result) and frame.f_code in ONE_ENTRY and self._from_student(frame):
            self.hold_reduced(one_entry(frame), result)
        if self.made is None or not is_value(result):  # before reading frames' code (audited)
            return
        code = frame.f_code
        if not code.co_filename.startswith(ENGINE_DIR) or code in PASS_THROUGH or not self._from_student(frame):
            return
        if code.co_name in ALIASES:  # (y * 2).detach() is made by an operation, Value(3.0).detach() not
            source = frame.f_locals.get("self")
            if code.co_name == "detach" and is_value(source) and source.requires_grad:
                self._detached()
                self.detached_results[id(result)] = result
            elif code.co_name == "detach" and is_value(source):
                self.detached_untracked[id(source)] = source
            # detach_() and requires_grad_() return the Value itself: it stays made by what made it
            if self.made.get(id(source)) is source and result is not source:
                self.made[id(result)] = result
                self.inputs[id(result)] = (source,)
            elif is_value(source):
                self.aliased[id(result)] = (result, source)
            return
        given = [frame.f_locals.get(name) for name in code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]]
        if self.detached_results.get(id(result)) is result and any(arg is result for arg in given):
            self.detached_changed = True  # a.detach().add_(1): a's number, changed where no graph records it
        if all(arg is not result for arg in given):
            self.made[id(result)] = result
            if not micrograph.is_grad_enabled():
                self.made_untracked[id(result)] = result
            self.ops[id(result)] = (engine_function(frame, given), given)
            self.inputs[id(result)] = tuple(v for arg in given for v in (arg if type(arg) in (list, tuple) else (arg,))
                                            if is_value(v))  # micrograph.sum([a, b]) too

    def _detached(self) -> None:
        self.detached_tracked = True
        if self.detached_first is None:
            self.detached_first = self.started

    def _from_student(self, frame: FrameType) -> bool:
        """Whether the student's file called ``frame``: itself, or through the guarded ``getattr``
        or ``hasattr`` its module runs with (``guard.LOOKUPS``: ``getattr(v, "grad")`` is the
        file's own read of ``v.grad``); a lookup grading's code makes never goes through those."""
        caller = frame.f_back
        code = None if caller is None else caller.f_code  # read once: each read is audited
        if caller is not None and code in LOOKUPS:
            caller = caller.f_back
            code = None if caller is None else caller.f_code
        return code is not None and code.co_filename == self.filename

    def step(self, step: observe.Step) -> None:
        """With ``grad_numbers``: hold the gradient each node received and used (what grad()
        hands back is one of them), and what a .grad it wrote holds right after the write."""
        if not (self.grad_numbers and self.listing) or self.chosen.step(step, self.written):
            return
        self.hold(step.received)
        self.hold(step.grad)
        if type(step.node) is AccumulateGrad and step.node.hooked and is_value(step.node.variable):
            number = step.received.item() if is_value(step.received) else step.received  # type: ignore[union-attr]
            if type(number) is float:  # the very float a tensor hook of the leaf's is handed (as a Value)
                self.at_hooked_leaf[id(number)] = (number, step.node.variable)
        if step.write is not None and step.wrote is not None and not WRITES.chose(step.wrote, step.write):
            self.hold(step.write.grad, in_grad=True, by_pass=True, of=step.wrote)

    def hold_grads(self) -> None:
        """Hold the float each written leaf's .grad holds now: sampled as each pass starts and
        when the call ends, it is every number the student could read from those .grad.  A
        .grad the engine wrote last counts (zeroed since too); one the student's code wrote
        (``w.grad = Value(formula)`` after any backward) or changed to another number than 0
        in place (``w.grad.data = formula``) is the student's, not a gradient read."""
        for v in self.written.values():
            if engine_left(v):
                self.hold(value_module.peek_grad(v), in_grad=True, of=v)

    def hold(self, grad: object, in_grad: bool = False, by_pass: bool = False, of: Any = None) -> None:
        """Keep the very float ``grad`` holds; ``in_grad``: a .grad held it (``of``'s)."""
        number = grad.item() if is_value(grad) else grad  # type: ignore[attr-defined]  # the very float it holds
        if type(number) is float:
            self.held[id(number)] = number
            if in_grad:
                self.in_grad[id(number)] = number
                if of is not None and not any(v is of for v in self.in_grad_of.get(id(number), ())):
                    self.in_grad_of.setdefault(id(number), []).append(of)
            if by_pass:
                self.by_pass[id(number)] = number

    def hold_reduced(self, source: object, result: object) -> None:
        """A sum or mean of ``source`` alone, a Value holding a gradient (``w.grad.sum().item()``): a
        reduction of one entry, whose number is that gradient, read from the engine all the same."""
        number = source.item() if is_value(source) else None  # type: ignore[attr-defined]
        for of in (self.grad_holders(number) or [None]) if self.held.get(id(number)) is number else ():
            self.hold(result, in_grad=of is not None, of=of)

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
        if self.made is None or self.made.get(id(result)) is not result or self.through_data.get(id(v)) is not v:
            return False
        return list(self.made).index(id(result)) < self.data_made[id(v)]

    def changed_after_first_pass(self, v: object) -> bool:
        """Whether ``v``, a Value the probe put in ``sampled`` before the call's first backward
        pass, was changed in place after that pass started (its version counter moved since)."""
        before = self.first_versions.get(id(v))
        return before is not None and any(s is v for s in self.sampled) and int(v._version) > before  # type: ignore[attr-defined]

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

    def wrote_instead(self, v: object, given: Sequence[Any]) -> bool:
        """With ``clears``: whether no pass wrote ``v.grad`` but one wrote the .grad of a leaf that
        is none of the Values ``given`` (a leaf the student's code made in place of ``v``)."""
        return self.pass_leaves.get(id(v)) is not v and any(
            all(leaf is not g for g in given) for leaf in self.pass_leaves.values())

    def last_root(self) -> micrograph.Value | None:
        """The Value the last backward pass started from, among those the engine's ops made: the
        caller's own y (the pass keeps the node, the Value is found by its grad_fn); None if not made."""
        root = self.root_nodes[-1][0] if self.root_nodes and self.root_nodes[-1] else None
        made = list((self.made or {}).values())
        return next((v for v in reversed(made) if root is not None and v.grad_fn is root), None)

    def leaf_facts(self) -> dict[str, Any]:
        """The per-pass observations of the leaves (none without leaves), and with ``clears``
        whether a pass started from a .grad the student's code cleared; as context, whether the
        first pass that found some .grad not cleared found none of them cleared (a zeroing loop
        that ran over no parameter, or none at all)."""
        if not self.leaves:
            return {} if self.clears is None else {"cleared_between": self.clears}
        first = next((i for i, cleared in enumerate(self.cleared) if not cleared), None)
        return {**({} if self.clears is None else {"cleared_between": self.clears}),
                "grads_cleared": self.cleared, "by_backward": self.by_backward,
                "reaches_leaves": self.reached, CONTEXT + "none_cleared": first is not None and self.untouched[first]}
