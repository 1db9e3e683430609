"""``Call``: what one call of the student's code did to the engine, observed while it runs
(``provenance.watching`` sets it up and turns what it saw into the call's CALL fact): its
backward passes, grad mode around the student's frames, the ``.grad`` it read, the gradients
the engine made, the Values engine functions returned to it, and what a hook of its chose."""

from __future__ import annotations

from types import FrameType, FunctionType
from typing import Any

import micrograph
from micrograph import observe, value as value_module
from micrograph.node import AccumulateGrad
from grader.sandbox.child.guard import LOOKUPS, ROUNDS
from grader.spec.call_records import MAX_PASSES_LISTED, CallRecords, is_value
from grader.spec.engine_code import (ALIASES, DATA_ACCESS, DATA_SET, DETACH_IN_PLACE, ENGINE_WALK, GRAD_GETTER, INFERENCE_ENTER,
                                     NO_GRAD_ENTER, ONE_ENTRY, PASS_THROUGH, RECORD_IN_PLACE, SET_GRAD_ENABLED, engine_function,
                                     in_mode_switch, in_walk, one_entry, raised_out, reads_edges, reads_number, run_by_engine,
                                     watched_code)
from grader.spec.graph import reaches_leaves
from grader.spec.hooked import WRITES, engine_left
from grader.spec.hooked import cleared as grad_cleared
from grader.spec.probe import grad as grad_number
from grader.spec.raise_site import ENGINE_DIR


class Call(CallRecords, observe.Observer):
    """What one call of the student's code did, observed (its records: ``CallRecords``);
    ``fact`` is filled when the block ends.

    Only the first ``MAX_PASSES_LISTED`` passes are looked at, and only as they start unless
    ``grad_numbers`` asks for each step's gradients.  The run's registry ``hooked.WRITES``
    observes around it (``observe.observing`` nests) and hears each event first, so ``step``
    can ask it who chose a gradient.
    """

    def failed(self, failure: observe.Failure) -> None:
        if self.raised is not None:
            self.raised[id(failure.error)] = failure.error
            if self.raised_at is None and failure.node is not None:
                self.raised_at = str(failure.node.name())
        if self.listing and self.raised_in:
            self.raised_in[-1] = True  # the pass that started last is the one that raised

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
            passed = (*(node for node, _ in start.roots), *start.dependencies)
            self.accumulated.update((id(node.variable), node.variable) for node in passed if type(node) is AccumulateGrad)
            self.chosen.started(passed, self.written)
        backward = start.kind is observe.PassKind.BACKWARD
        self.by_backward.append(backward)
        self.inputs_given |= backward and start.restricted_to is not None
        if self.clears is not None:  # a pass of grad() captures its gradients: it writes no leaf's .grad
            written = [node.variable for node in start.dependencies if backward and type(node) is AccumulateGrad]
            self.pass_leaves.update((id(v), v) for v in written)
            cleared = [v for v in written if grad_cleared(v)]
            self.clears.append(bool(cleared))
            self.kept_earlier.append(any(engine_left(v) and grad_number(v) not in (None, 0.0) for v in written))
            if len(self.clears) > 1:
                self.cleared_later.update((id(v), v) for v in cleared)
                self.uncleared_later.update((id(v), v) for v in written if not any(v is c for c in cleared))
        if self.leaves:
            self.cleared.append(all(grad_number(v) in (None, 0.0) for v in self.leaves))
            self.reached.append(reaches_leaves(start, self.leaves))
            self.untouched.append(not any(grad_cleared(v) for v in self.leaves))

    def sample(self, frame: FrameType, event: str, arg: object) -> None:
        """A profile hook: note grad mode whenever the student's file calls or is called, and
        whether it read a ``.grad`` or (asked) a node's ``next_functions`` (the property's getter
        called from the student's file)."""
        if event == "return":
            self._returned(frame, arg)
        if event != "call":
            return
        if self.nodes_read is not None and reads_edges(frame) and self._from_student(frame):
            node = frame.f_locals.get("self")
            self.nodes_read[id(node)] = node  # kept alive: no later node takes its id
        code = watched_code(frame)
        walk = code is not None and code.co_filename in ENGINE_WALK
        self.walks += walk  # the engine's walks running: grad off there is the engine's (``run_by_engine``)
        sampling = (not self.grad_mode_off and self.walks <= 0 and not micrograph.is_grad_enabled()
                    and not in_mode_switch(frame))
        switch = self.walks > 0 and not self.grad_mode_off and code in (NO_GRAD_ENTER, SET_GRAD_ENABLED)
        decorated = not (self.walks > 0 or self.grad_mode_off) and code is SET_GRAD_ENABLED  # a @no_grad() function
        spelled = code is NO_GRAD_ENTER or code is SET_GRAD_ENABLED
        if not (walk or sampling or spelled or code is GRAD_GETTER or code is DETACH_IN_PLACE
                or code in DATA_ACCESS or code is RECORD_IN_PLACE):
            return  # frames' code: audited
        if code is RECORD_IN_PLACE:  # the Value an in-place op changes, whoever called it
            self._changed(frame)
        from_student = self._from_student(frame)
        if spelled:
            self._switched(frame, from_student)
        wrapper = frame.f_back if decorated and frame.f_locals.get("mode") is False else None
        if wrapper is not None and wrapper.f_code in PASS_THROUGH and self._from_student(wrapper):
            self.grad_mode_off = True  # the student's code called it (optim's step): that call ran under no_grad
        if switch and from_student:  # in the engine's walk grad mode is off already: a no_grad of the
            # student's own (in a hook it wrote) changes no mode, but the student's code turned it off
            self.grad_mode_off = (isinstance(frame.f_locals.get("self"), micrograph.no_grad) if code is NO_GRAD_ENTER
                                  else frame.f_locals.get("mode") is False)
        if from_student and code in DATA_ACCESS:
            source = frame.f_locals.get("self")
            if is_value(source):
                self.through_data[id(source)] = source
                if code is DATA_SET:
                    self.note_write(source)
                if self.probe_made is not None:
                    self.data_made[id(source)] = len(self.probe_made)
        if from_student and code is GRAD_GETTER:
            self.read_grad = self.read_since_pass = True
            source = frame.f_locals.get("self")
            if is_value(source):  # the last read last: an error on None follows the read that met it
                self.grad_reads[id(source)] = self.grad_reads.pop(id(source), source)
            if is_value(source) and source.grad_fn is not None and not source.retains_grad:
                self.warning_reads[id(source)] = source
            if self.clears is not None and self.pass_leaves.get(id(source)) is source and grad_cleared(source):
                self.read_when_cleared[id(source)] = source
        self.engine_walk |= from_student and walk
        if from_student and self.probe_made is not None and code is DETACH_IN_PLACE:
            self._cut(frame.f_locals.get("self"))  # detach_() cuts it: look before it does
        if sampling and (from_student or frame.f_code.co_filename == self.filename):
            self.grad_mode_off = not run_by_engine(frame)

    def _switched(self, frame: FrameType, from_student: bool) -> None:
        """Note how the student's code turned grad mode off (``last_off``), and how it last did before grad
        mode was seen off (``switched_off``): ``no_grad()`` entered, ``set_grad_enabled(False)`` made, or a
        function of its decorated to run with grad mode off called (``@no_grad()``: its wrapper makes the
        switch), with that function's name, so a sentence names the spelling used."""
        off = self._spelled(frame, from_student)
        if off is not None:
            self.last_off = ":".join(part for part in off if part)  # ``decorated:_graph``: with the function's name
            self.offs.add(self.last_off)
            self.switched_off = self.switched_off if self.grad_mode_off else off

    def _spelled(self, frame: FrameType, from_student: bool) -> tuple[str, str] | None:
        """The spelling of the switch of grad mode off ``frame`` makes for the student's code, if it is one."""
        if frame.f_code is NO_GRAD_ENTER:  # enable_grad's too
            return ("no_grad", "") if from_student and isinstance(frame.f_locals.get("self"), micrograph.no_grad) else None
        wrapper = frame.f_back
        if frame.f_locals.get("mode") is not False:
            return None
        if wrapper is not None and wrapper.f_code is INFERENCE_ENTER:  # ``with inference_mode()`` or ``@inference_mode()``
            outer = wrapper.f_back
            by_wrapper = outer is not None and outer.f_code in PASS_THROUGH
            return ("inference_mode", "") if self._from_student(outer if by_wrapper else wrapper) else None
        if from_student:
            return ("set_grad_enabled", "")
        if wrapper is not None and wrapper.f_code in PASS_THROUGH and self._from_student(wrapper):
            fn = wrapper.f_locals.get("fn")
            return ("decorated", fn.__name__ if type(fn) is FunctionType and fn.__name__.isidentifier() else "")
        return None

    def _changed(self, frame: FrameType) -> None:
        """Note the Value the in-place op running in ``frame`` changes, and the method's name where
        the student's file called that method itself (``w.copy_(...)``): a sentence can name what
        the code wrote with; ``+=`` or a method that calls another (``square_``) is left unnamed."""
        changed = frame.f_locals.get("self")
        if not is_value(changed):
            return
        self.changed_in_place[id(changed)] = changed
        if not changed.requires_grad:  # nothing for the engine to refuse: w before requires_grad_(), a detach()
            self.changed_untracked[id(changed)] = changed
        self.note_write(changed)
        self.changed_before_pass.update({} if self.started else {id(changed): changed})
        method = frame.f_back
        name = "" if method is None else method.f_code.co_name  # read once: each read is audited
        if name.isidentifier() and not name.startswith("_") and self._from_student(method):
            self.in_place_names[id(changed)] = name

    def _cut(self, source: object) -> None:
        """With ``made``: note a ``detach_()`` the student's code called on ``source``, before it cuts."""
        if is_value(source) and source.requires_grad:
            self._detached()
            if source.grad_fn is None:  # a leaf: detach_() leaves it requiring no grad
                self.detached_changed = True  # the Value itself cut from its graph
                self.detached_leaves.append(source)
            else:  # an op's Value: what was made from it before the cut keeps its node
                self.cut_in_place.append((source, source.grad_fn))

    def _returned(self, frame: FrameType, result: object) -> None:
        """A frame returns (one of the engine's walk, maybe); with ``made``, keep a Value an engine
        function returned to the student, unless it is one of its own arguments (``a += 1``, ``fill_``:
        made before) or an alias or copy (``engine_code.ALIASES``) of a Value no operation made."""
        self.walks -= in_walk(frame)
        if result is None and raised_out(frame) and self._from_student(frame):
            self.engine_raised.append(frame.f_code.co_name)
            self.caught.raised_into(frame)
        if self.caught.pending:
            self.caught.returned(frame)
        if self.grad_numbers and is_value(result) and frame.f_code in ONE_ENTRY and self._from_student(frame):
            self.hold_reduced(one_entry(frame), result)
        if (self.grad_numbers and type(result) is float and self.probe_held.get(id(result)) is result
                and reads_number(frame) and self._from_student(frame)):
            self.read_numbers[id(result)] = result  # a gradient's float the student's code took in hand
        if self.grad_numbers and type(result) is float and frame.f_code in ROUNDS:
            number = frame.f_locals.get("number")  # round(w.grad.item(), 3) that changed nothing: still the one read
            if type(number) is float and self.read_numbers.get(id(number)) is number and result == number:
                self.read_numbers[id(result)] = result
        if self.probe_made is None or not is_value(result):  # before reading frames' code (audited)
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
            if self.probe_made.get(id(source)) is source and result is not source:
                self.probe_made[id(result)] = result
                self.inputs[id(result)] = (source,)
            elif is_value(source):
                self.aliased[id(result)] = (result, source)
            return
        given = [frame.f_locals.get(name) for name in code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]]
        if self.detach_of(result) and any(arg is result for arg in given):
            self.detached_changed = True  # a.detach().add_(1): a's number, changed where no graph records it
        if all(arg is not result for arg in given):
            self.probe_made[id(result)] = result
            if not micrograph.is_grad_enabled():
                self.made_untracked[id(result)] = result
                self.untracked_by[id(result)] = self.last_off
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
        if not (self.grad_numbers and self.listing):
            return
        if self.chosen.step(step, self.written):  # a hook's number: held as such, not as a gradient
            if step.write is not None and type(step.write.data) is float:  # the very float written
                self.hook_numbers[id(step.write.data)] = step.write.data
            return
        self.hold(step.received)
        self.hold(step.grad)
        if type(step.node) is AccumulateGrad and step.node.hooked and is_value(step.node.variable):
            number = step.received.item() if is_value(step.received) else step.received  # type: ignore[union-attr]
            if type(number) is float:  # the very float a tensor hook of the leaf's is handed (as a Value)
                self.at_hooked_leaf[id(number)] = (number, step.node.variable)
        if step.write is not None and step.wrote is not None and not WRITES.chose(step.wrote, step.write):
            self.hold(step.write.grad, in_grad=True, by_pass=True, of=step.wrote)
        elif step.write is not None and step.wrote is not None and WRITES.added_to_theirs(step.wrote, step.write):
            self.seeded_numbers[id(step.write.data)] = step.write.data  # the very float written

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
            self.probe_held[id(number)] = number
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
        for of in (self.grad_holders(number) or [None]) if self.probe_held.get(id(number)) is number else ():
            self.hold(result, in_grad=of is not None, of=of)

