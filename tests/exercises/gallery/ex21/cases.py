"""ex21 gallery: plausible wrong in-place engines (format: gallery_case.py)."""

from gallery_case import BUFFERS_KEPT_IN_A_DICT, SENT_KEPT, RETAIN_ON_A_LEAF_NODE, RETAINED_LEAF_DOUBLED, Correct, Wrong

BASICS = "in-place ops and the leaf error"
MODIFIED = "in place after the graph saved it"
DATA = "w.data shares the number, not the version"
DETACHED = "detach() shares the number and the version"
REBASED = "in place on a non-leaf is recorded"
DATA_BODY = '''        alias = Value(0.0)
        alias._box = self._box
        return alias'''
DETACH_BODY = '''        alias = Value(0.0)
        alias._box, alias._versions = self._box, self._versions
        return alias'''
REBASE = '''        if recording(self, other):
            rebase(self, AddBackward0(edges))
'''
CASES = [
    Wrong("zero_into_a_new_box", edits={  # an ex19 zero_ carried: a box of its own, which nothing shares
        "        self._box[0] = 0.0\n": "        self._box = [0.0]\n"},
          fails={DETACHED: "w.item() after d = w.detach(); d.add_(2); d.zero_() is a different number"},
          names=("d.zero_()", "in the place a Value shares with its detach() and .data")),
    Wrong("ex17_apply_reads_saved_directly", edits={  # never through unpack, which refuses a freed value
        '        return (grad * self.unpack("other").item() if "other" in self.saved else 0.0,\n                grad * self.unpack("self").item() if "self" in self.saved else 0.0)':
        '        a, b = self.saved.get("other"), self.saved.get("self")\n        return (grad * a.item() if a is not None else 0.0, grad * b.item() if b is not None else 0.0)'},
          fails={BASICS: 'MulBackward0.apply does not read what it saved through unpack'},
          names=("ex20's part of the engine", 'MulBackward0.apply')),
    Wrong("edges_taken_after_rebase", edits={  # the new node's first edge is the new node itself
        "        edges = (gradient_edge(self), gradient_edge(other))\n": "",
        REBASE: "        if recording(self, other):\n            node = AddBackward0(())\n            rebase(self, node)\n"
                "            node.next_functions = (gradient_edge(self), gradient_edge(other))\n"},
          fails={REBASED: "no edge of c.grad_fn leads to c.grad_fn itself in PyTorch, but not in your engine"},
          names=("no edge of c.grad_fn leads to c.grad_fn itself", "a cycle")),
    Wrong("version_bumped_before_the_leaf_check", edits={  # the refused add_ has bumped w's version already
        "        other = as_value(other)\n        check_in_place(self)\n":
        "        other = as_value(other)\n        self._versions[0] += 1\n        check_in_place(self)\n",
        "        self._box[0] += other.item()\n        self._versions[0] += 1\n": "        self._box[0] += other.item()\n"},
          fails={BASICS: "w._version after w.add_(1) on a leaf that requires grad is a different number from PyTorch's"},
          names=("w._version after w.add_(1) on a leaf that requires grad", "before changing anything")),
    Wrong("retain_grad_keeps_a_leaf_on_its_node", edits=RETAIN_ON_A_LEAF_NODE,
          fails={"in place on a non-leaf is recorded": RETAINED_LEAF_DOUBLED},
          names=("w.retain_grad()", "on a leaf that requires grad changes nothing")),
    Wrong("unpack_refuses_any_version", edits={"        if value._version != self.saved_versions[name]:\n":
                                               "        if value._version != 0:\n"},
          fails={REBASED: "y.backward() after b.add_(x); b += 1, y = b * w raised RuntimeError"},
          names=("y.backward() after b.add_(x); b += 1, y = b * w", "where PyTorch's runs without an error")),
    Wrong("data_requires_grad", edits={DATA_BODY: DATA_BODY.replace("Value(0.0)", "Value(0.0, requires_grad=self.requires_grad)")},
          fails={DATA: "w.data.requires_grad is True, unlike PyTorch's"}, names=("w.data.requires_grad", "requires no grad")),
    Wrong("version_bumped_through_data", edits={DATA_BODY: DETACH_BODY},
          fails={DATA: "w._version after w.data.add_(1) is a different number"},
          names=("w._version after w.data.add_(1)", "a change through .data does not")),
    Wrong("detach_keeps_its_own_version", edits={DETACH_BODY: DATA_BODY},
          fails={DETACHED: "w._version after d.add_(2); d.zero_() is a different number"},
          names=("w._version", "detach() bumps the shared counter")),
    Wrong("detach_cuts_the_value_itself", edits={DETACH_BODY: "        self.grad_fn, self.requires_grad = None, False\n        return self"},
          fails={DETACHED: "w.detach() is w in your engine, but not in PyTorch. After e = h.detach(), h = x * 3: "
                           "h.grad_fn is None, where PyTorch's is not"},
          names=("w.detach() is w", "leave the Value they are called on as it was")),
    Wrong("detach_keeps_the_history", edits={DETACH_BODY: DETACH_BODY.replace("        return alias", "        alias.grad_fn = self.grad_fn\n        return alias")},
          fails={DETACHED: "After e = h.detach(), h = x * 3: e.grad_fn is not None, where PyTorch's is None"},
          names=("e.grad_fn", "a leaf (no grad_fn)")),
    Wrong("data_one_shared_alias", edits={DATA_BODY: "        _ALIAS._box = self._box\n        return _ALIAS",
                                          "\ndef check_in_place(": "\n_ALIAS = Value(0.0)\n\n\ndef check_in_place("},
          fails={DATA: "w.data is x.data in your engine, but not in PyTorch"},
          names=("w.data is x.data", "a new Value at each call")),
    Wrong("no_leaf_check", edits={"        check_in_place(self)\n        edges = (gradient_edge(self), gradient_edge(other))":
                                  "        edges = (gradient_edge(self), gradient_edge(other))"},
          fails={BASICS: "w.add_(1) on a leaf that requires grad raised no error, where PyTorch raises one"}, names=("w.add_(1)", "LEAF_IN_PLACE")),
    Wrong("history_not_rebased", edits={REBASE: ""},
          fails={REBASED: "b.grad_fn is \"MulBackward0\" here, which differs from PyTorch's"},
          names=("b.grad_fn", "the old history and the other operand")),
    Wrong("saved_version_not_checked", edits={'''        if value._version != self.saved_versions[name]:
            raise RuntimeError(MODIFIED.format(version=value._version, expected=self.saved_versions[name]))
''': ""},
          fails={MODIFIED: "raised no error, where PyTorch raises one"}, names=("y.backward() after b.add_(1)", "MODIFIED")),
    Wrong("add_out_of_place", edits={'''        other = as_value(other)
        check_in_place(self)
        edges''': '''        return self + other
        other = as_value(other)
        check_in_place(self)
        edges'''},
          fails={BASICS: "v._version after v.add_(1) is a different number"}, names=("v._version", "bumps the version counter")),
    Wrong("zero_keeps_the_version", edits={"        self._box[0] = 0.0\n        self._versions[0] += 1\n": "        self._box[0] = 0.0\n"},
          fails={DETACHED: "w._version after d.add_(2); d.zero_() is a different number"}, names=("w._version", "zero_")),
    Wrong("detach_copies_the_number", edits={DETACH_BODY: "        return Value(self.item())"},
          fails={DETACHED: "w.item() after d = w.detach(); d.add_(2); d.zero_() is a different number from PyTorch's"},
          names=("w.item() after d = w.detach()", ".data and detach() share it")),
    Wrong("changes_then_checks", edits={'''        check_in_place(self)
        edges = (gradient_edge(self), gradient_edge(other))
        self._box[0] += other.item()
''': '''        edges = (gradient_edge(self), gradient_edge(other))
        self._box[0] += other.item()
        check_in_place(self)
'''}, fails={BASICS: "w.item() after w.add_(1) on a leaf that requires grad is a different number from PyTorch's"},
          names=("w.item() after w.add_(1) on a leaf that requires grad", "before changing anything")),
    Wrong("add_keeps_the_version", edits={"""        self._box[0] += other.item()
        self._versions[0] += 1""": "        self._box[0] += other.item()"},
          fails={BASICS: "v._version after v.add_(1) is a different number",
                 MODIFIED: "raised no error, where PyTorch raises one"},
          names=("v._version after v.add_(1)", "bumps the version counter once")),
    Wrong("every_value_that_requires_grad_refused", edits={
        "    if v.is_leaf and v.requires_grad:\n        raise RuntimeError(LEAF_IN_PLACE)":
        "    if v.requires_grad:\n        raise RuntimeError(LEAF_IN_PLACE)"},
          fails={MODIFIED: "b.add_(1), b = w + 1 raised RuntimeError: \"a leaf Variable that requires grad is being used in "
                           "an in-place operation.\" in check_in_place, where PyTorch's runs without an error",
                 BASICS: "q.add_(1), q = p + 2 raised RuntimeError",
                 REBASED: "b.add_(x), b = w * 2 raised RuntimeError"},  # its step named, not an error of the test's
          names=("check_in_place", "any other value may change in place")),
    Wrong("data_copies_the_number", edits={DATA_BODY: "        return Value(self.item())"},
          fails={DATA: "w.item() after w.data.add_(1) is a different number",
                 BASICS: "w.item() after adding through w.detach(), then through w.data"},
          names=("w.item() after w.data.add_(1)", ".data and detach() share it",
                 "w.item() after adding through w.detach(), then through w.data")),
    Wrong("detach_keeps_requires_grad", edits={DETACH_BODY: '''        alias = Value(0.0, requires_grad=self.requires_grad)
        alias._box, alias._versions = self._box, self._versions
        return alias'''},
          fails={DETACHED: "d.add_(2), d = w.detach() raised RuntimeError: \"a leaf Variable that requires grad is being used in an in-place operation.\" in check_in_place",
                 BASICS: "w.detach().requires_grad is True, unlike PyTorch's"},  # the public test says why it refused
          names=("d.requires_grad", "d = w.detach()", "a Value that requires no grad, so a change through it is not refused")),
    Wrong("zero_always_recorded", edits={"        if recording(self):\n            rebase(self, ZeroBackward0(edges))\n":
                                         "        rebase(self, ZeroBackward0(edges))\n"},
          fails={REBASED: "after c = Value(4); c.zero_(): c.grad_fn is not None"},
          names=("after c = Value(4); c.zero_()", "records nothing")),
    Wrong("zero_not_recorded", edits={"        if recording(self):\n            rebase(self, ZeroBackward0(edges))\n": ""},
          fails={REBASED: "after z = w * 3; z.zero_(): z.grad_fn"}, names=("z.grad_fn", "ZeroBackward0 for zero_")),
    Wrong("retained_left_on_the_old_node", edits={"    if v.retains_grad:\n        v.grad_fn.retained, node.retained = None, v\n": ""},
          fails={REBASED: "z.grad after z.retain_grad(); z.zero_()"}, names=("z.grad", "rebase moves a retained value")),
    Wrong("retained_kept_on_the_old_node_too", edits={  # the new node retains it, the old one still does as well
        "    if v.retains_grad:\n        v.grad_fn.retained, node.retained = None, v\n":
        "    if v.retains_grad:\n        node.retained = v\n"},
          fails={REBASED: "a.grad after a = w * 3; a.retain_grad(); b = a * 2; a.add_(1); b.backward() is not None"},
          names=("b = a * 2; a.add_(1); b.backward()", "leaves it on its old node no more")),
    Wrong("zero_without_the_leaf_check", edits={
        '        """Set the number to 0 in place (``w.grad.zero_()``); returns self."""\n        check_in_place(self)\n':
        '        """Set the number to 0 in place (``w.grad.zero_()``); returns self."""\n'},
          fails={BASICS: "w.zero_() on a leaf that requires grad raised no error, where PyTorch raises one"},
          names=("w.zero_() on a leaf that requires grad", "LEAF_IN_PLACE")),
    Wrong("versions_swapped_in_the_message", edits={
        "MODIFIED.format(version=value._version, expected=self.saved_versions[name])":
        "MODIFIED.format(version=self.saved_versions[name], expected=value._version)"},
          fails={BASICS: "is at version 0; expected version 1"},  # the student's own message, from where it differs
          names=("z.backward() after q.add_(1)", "PyTorch raises that error at other versions")),
    Wrong("recorded_only_when_self_requires_grad", edits={"        if recording(self, other):\n            rebase(self, AddBackward0(edges))":
                                                          "        if recording(self):\n            rebase(self, AddBackward0(edges))"},
          fails={BASICS: "v.grad_fn after v.add_(1); v += w is None, where PyTorch's is not"},
          names=("v.grad_fn after v.add_(1); v += w", "records a new node")),
    Wrong("old_history_as_the_second_edge", edits={
        "        edges = (gradient_edge(self), gradient_edge(other))\n        self._box[0] += other.item()":
        "        edges = (gradient_edge(other), gradient_edge(self))\n        self._box[0] += other.item()"},
          fails={REBASED: "b.grad_fn.next_functions holds PyTorch's entries, but in another order"},
          names=("b.grad_fn.next_functions", "the old history and the other operand")),
    Wrong("requires_grad_set_before_the_edge", edits={
        "        edges = (gradient_edge(self), gradient_edge(other))\n        self._box[0] += other.item()":
        "        self.requires_grad = self.requires_grad or other.requires_grad\n"
        "        edges = (gradient_edge(self), gradient_edge(other))\n        self._box[0] += other.item()"},
          fails={REBASED: "After c = Value(-4); c.add_(w): c.grad_fn.next_functions[0][0] is not None, where PyTorch's is None"},
          names=("c.grad_fn.next_functions", "a value that required no grad has no history")),
    Wrong("ex19_grad_requires_grad", edits={"    if v._grad is None:\n        v._grad = Value(grad)\n":
                                            "    if v._grad is None:\n        v._grad = Value(grad, requires_grad=True)\n"},
          fails={BASICS: "The fault is in store_grad, which this file holds as your ex19 answer"},  # ex17's gate meets it
          names=("store_grad", "w.grad requires grad")),
    Wrong("versions_from_one_clock", edits={  # every add_ sets the next number of one module-level counter
        "        self._box[0] += other.item()\n        self._versions[0] += 1":
        "        self._box[0] += other.item()\n        self._versions[0] = next(_CLOCK)",
        "\ndef check_in_place(": "\n_CLOCK = itertools.count(1)\n\n\ndef check_in_place("},
          fails={BASICS: "b._version == a._version after a.add_(1); b.add_(1), a = Value(1), b = Value(2) in PyTorch, "
                         "but not in your engine",
                 MODIFIED: "b._version == a._version after a.add_(1); b.add_(1)",  # each hidden test that reads versions
                 DETACHED: "b._version == a._version after a.add_(1); b.add_(1)",
                 REBASED: "b._version == a._version after a.add_(1); b.add_(1)"},
          names=("b._version == a._version", "a version counter of its own"),
          unsaid=("bumps the version counter once",)),  # it does bump once: the counter is shared
    Wrong("data_counter_copied", edits={  # a counter of its own, but started at the value's version
        DATA_BODY: DATA_BODY.replace("        return alias", "        alias._versions = [self._versions[0]]\n        return alias")},
          fails={DATA: "c.data._version after c.add_(1); c.add_(1), c = Value(2) is a different number from PyTorch's"},
          names=("c.data._version", "a version counter of its own, started anew")),
    Wrong("iadd_returns_nothing", edits={"    __iadd__ = add_\n": "    def __iadd__(self, other):\n        self.add_(other)\n"},
          fails={BASICS: "v += w leaves v the Value it changed in place in PyTorch, but not in your engine"},
          names=("v += w", "returns it (self)")),  # += rebinds v to what __iadd__ returned: None
    Wrong("zero_returns_nothing", edits={"            rebase(self, ZeroBackward0(edges))\n        return self": "            rebase(self, ZeroBackward0(edges))"},
          fails={BASICS: "u.zero_() is u in PyTorch, but not in your engine"},
          names=("u.zero_() is u", "returns it (self)")),  # w.grad.zero_() used for its effect only: its result never read
    Wrong("version_bumped_only_when_recorded", edits={  # a constant's add_ changes its number and nothing else
        "        self._box[0] += other.item()\n        self._versions[0] += 1\n        if recording(self, other):\n":
        "        self._box[0] += other.item()\n        if recording(self, other):\n            self._versions[0] += 1\n"},
          fails={BASICS: "v._version after v.add_(1) is a different number from PyTorch's",
                 MODIFIED: "y1.backward() after y1 = w * b; b.add_(1); y2 = w * b, b = Value(2) raised no error"},
          names=("_version after", "bumps the version counter once"),
          unsaid=("each node checks the versions it saved itself",)),  # versions kept on the node: not this engine's slip
    Wrong("zero_edge_taken_after_rebase", edits={  # ZeroBackward0's one edge is the new node itself
        "        edges = (gradient_edge(self),)\n        self._box[0] = 0.0\n        self._versions[0] += 1\n        if recording(self):\n"
        "            rebase(self, ZeroBackward0(edges))":
        "        self._box[0] = 0.0\n        self._versions[0] += 1\n        if recording(self):\n            node = ZeroBackward0(())\n"
        "            rebase(self, node)\n            node.next_functions = (gradient_edge(self),)"},
          fails={REBASED: "After z = w * 3; z.zero_(): no edge of z.grad_fn leads to z.grad_fn itself in PyTorch, but not"},
          names=("no edge of z.grad_fn leads to z.grad_fn itself", "a cycle")),
    Correct("detach_through_data", edits={DETACH_BODY: '''        alias = self.data
        alias._versions = self._versions
        return alias'''}),
    Correct("version_as_attribute_pair", edits={'''        self._box[0] += other.item()
        self._versions[0] += 1''': '''        self._versions[0] = self._versions[0] + 1
        self._box[0] = self._box[0] + other.item()'''}),
    Correct("iadd_by_method", edits={"    __iadd__ = add_\n": "    def __iadd__(self, other):\n        return self.add_(other)\n"}),
    # detach() as a shallow copy with the graph's fields reset: the number and the version counter shared
    Correct("detach_by_shallow_copy", edits={"from typing import Any, Callable\n": "import copy\nfrom typing import Any, Callable\n",
        "        alias = Value(0.0)\n        alias._box, alias._versions = self._box, self._versions\n        return alias":
        "        alias = copy.copy(self)\n        alias.requires_grad = False\n        alias.grad_fn = None\n        alias._grad = None\n"
        "        alias._accumulator = None\n        alias.retains_grad = False\n        return alias"}),
]

# A value added into itself in place (y.add_(y)), the other operand's edge taken after the op:
# the new node's second edge is itself, and backward never reaches w.  detach() as one alias
# kept on the Value, or as a copy of it (which keeps its .grad).
ADD_EDGES = "        edges = (gradient_edge(self), gradient_edge(other))\n"
CASES += [
    Wrong("other_edge_after_rebase", edits={
        ADD_EDGES: "        mine = gradient_edge(self)\n",
        "            rebase(self, AddBackward0(edges))\n": "            node = AddBackward0((mine,))\n            rebase(self, node)\n"
                                                         "            node.next_functions = (mine, gradient_edge(other))\n"},
          fails={REBASED: "After y = w * 3; y.add_(y): no edge of y.grad_fn leads to y.grad_fn itself"},
          names=("y.add_(y)", "takes the edges of its new node before the op")),
    Wrong("detach_cached", edits={DETACH_BODY: '''        alias = getattr(self, "_detached", None)
        if alias is None:
            alias = Value(0.0)
            alias._box, alias._versions = self._box, self._versions
            self._detached = alias
        return alias'''},
          fails={DETACHED: "w.detach() gives a new Value at each call in PyTorch, but not in your engine"},
          names=("w.detach() gives a new Value at each call",)),
    Wrong("detach_by_copy", edits={DETACH_BODY: '''        alias = copy.copy(self)
        alias.grad_fn, alias.requires_grad = None, False
        return alias''', "import heapq\n": "import copy\nimport heapq\n"},
          fails={DETACHED: "w.detach().grad after (w * 3).backward() is not None, where PyTorch's is None"},
          names=("w.detach().grad", "no .grad of its own")),
]

# In-place ops that leave the number as it was skipped (no version bump), and add_ that records
# whatever its operands: PyTorch bumps the version on every op, and records only when an operand
# requires grad.
CASES += [
    Wrong("zero_of_a_zero_skipped", edits={"        self._box[0] = 0.0\n        self._versions[0] += 1\n":
                                           "        if self._box[0] != 0.0:\n            self._box[0] = 0.0\n"
                                           "            self._versions[0] += 1\n"},
          fails={MODIFIED: "s._version after s.zero_(), s = Value(0) is a different number"},
          names=("s.zero_()", "leaves the number as it was")),
    Wrong("add_of_zero_skipped", edits={"        self._box[0] += other.item()\n        self._versions[0] += 1\n":
                                        "        if other.item() != 0.0 or other.requires_grad:\n"
                                        "            self._box[0] += other.item()\n            self._versions[0] += 1\n"},
          fails={MODIFIED: "n._version after n.add_(0), n = Value(-7.25) is a different number"},
          names=("n.add_(0)", "add_(0)")),
    Wrong("add_always_recorded", edits={REBASE: "        if True:\n            rebase(self, AddBackward0(edges))\n"},
          fails={REBASED: "after v = Value(2); v.add_(1): v.grad_fn is not None, where PyTorch's is None"},
          names=("v.add_(1)", "records nothing")),
]

# is_leaf a flag record sets once (right in ex16-ex20): an in-place op that gives a constant a
# grad_fn leaves it True; told as is_leaf not following grad_fn, not as the rebase's rule.
CASES += [
    Wrong("ex16_is_leaf_flag_set_once", edits={
        "        self._accumulator: AccumulateGrad | None = None": "        self._accumulator: AccumulateGrad | None = None\n"
                                                                   "        self._leaf = True",
        "        return self.grad_fn is None\n": "        return self._leaf\n",
        "        out.requires_grad = True\n": "        out.requires_grad = True\n        out._leaf = False\n"},
          fails={REBASED: "After c = Value(-4); c.add_(w): c.is_leaf is True in your engine, though that value's grad_fn is not None"},
          names=("c.is_leaf", "is_leaf must follow grad_fn"), unsaid=("records a new node",)),
]

# ex16's __mul__ saving a copy of an operand that requires no grad (right in ex16 while the
# public graph has no such operand): the copy's counter never moves, so s.zero_() goes unseen;
# told as the saved copy, not as the version check, which is right.
CASES += [
    Wrong("ex16_saves_copy_of_constant", edits={
        '                out.grad_fn.save("other", other)': '                out.grad_fn.save("other", other if other.requires_grad else Value(other.item()))'},
          fails={MODIFIED: 'y.grad_fn saved s itself as "other" in PyTorch, but not in your engine'},
          names=("saved s itself", "a copy saved in its place"), unsaid=("with both versions",)),
]

# ex18's slip carried: the root's retained gradient never written; the gate names ex18's part, not ex20's.
CASES += [
    Wrong("root_retained_skipped_since_ex18",
          edits={"        if node.retained is not None:\n            store_grad(node.retained, grad)\n":
                 "        if node.retained is not None and node is not first:\n            store_grad(node.retained, grad)\n"},
          fails={BASICS: "this stage builds on ex18"}, names=("ex18", "its root")),
    Wrong("version_checked_only_for_other", edits={  # the documents' a.add_(1): a was saved as "self"
        "        if value._version != self.saved_versions[name]:\n":
        "        if name == \"other\" and value._version != self.saved_versions[name]:\n"},
          fails={MODIFIED: "t.backward() after a.add_(1), t = a * (w + 1), a = x + w raised no error"},
          names=("a.add_(1)", "MODIFIED")),
]

# ex17's slip carried: a ready list run first in first out, whose order no program of this stage
# shows in a gradient; ex17's gate watches the order nodes run in and names backward, ex20's here.
CASES += [
    Wrong("ready_fifo_since_ex17",
          edits={"                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))":
                 "                heapq.heappush(ready, (0, next(pushed), child))"},
          fails={BASICS: "ex17's part of the engine does not work"},
          names=("in another order than PyTorch's", "highest sequence_nr first", "The fault is in backward")),
]

# ex20's slip carried: a release that forgets the retained value; ex20's gate tells it as that.
CASES += [
    Wrong("release_forgets_the_retained_value_since_ex20",
          edits={"        self.saved = dict.fromkeys(self.saved)\n        self.released = True\n":
                 "        self.saved = dict.fromkeys(self.saved)\n        self.retained = None\n        self.released = True\n"},
          fails={BASICS: "this stage builds on ex20"},
          names=("y = w + 2", "no longer writes the gradient of the value that retained it"), unsaid=("before apply",)),
]

# ex20's slip carried: backward frees the root's node alone, so a backward from a root an earlier one
# ran through works where PyTorch raises; this stage's programs never meet it, ex20's gate tells it.
CASES += [
    Wrong("releases_only_the_root_since_ex20",
          edits={"        if not retain_graph:\n            node.release()\n":
                 "        if not retain_graph and node is first:\n            node.release()\n"},
          fails={BASICS: "this stage builds on ex20"}, names=("ex20", "y.backward() after z.backward()", "not only the root's")),
]

# add_'s edges kept in a module-level list that each op clears and refills, given to the node as it is:
# every AddBackward0 shares it, so a later add_ on another graph changes the edges of the earlier nodes.
EDGES_IN_A_MODULE_LIST = {
    "        edges = (gradient_edge(self), gradient_edge(other))\n        self._box[0] += other.item()":
    "        EDGES.clear()\n        EDGES.extend((gradient_edge(self), gradient_edge(other)))\n        self._box[0] += other.item()",
    "            rebase(self, AddBackward0(edges))": "            rebase(self, AddBackward0(EDGES))",
    "\nclass Value:": "\nEDGES = []\n\n\nclass Value:",
}
CASES += [
    Wrong("edges_in_a_module_level_list", edits=EDGES_IN_A_MODULE_LIST,
          fails={REBASED: "p.grad_fn.next_functions[0][0] is e0 after p = w * 2; p.add_(1)"},
          names=("p.add_(1)", "each node's edges are its own")),
    Correct("edges_in_a_module_level_list_copied", edits={**EDGES_IN_A_MODULE_LIST,
                                                           "            rebase(self, AddBackward0(EDGES))":
                                                           "            rebase(self, AddBackward0(tuple(EDGES)))"}),
]

# ex19's slip carried: a retained non-leaf's running sum kept on its node, which a.grad.zero_() never
# resets; this stage's programs never zero a retained gradient, ex19's gate tells it.
CASES += [
    Wrong("retained_sum_kept_on_the_node_since_ex19", edits={
        "        v._grad = Value(v._grad.item() + grad)":
        "        v.grad_fn.retained_sum += grad\n        v._grad = Value(v.grad_fn.retained_sum)",
        "    if v._grad is None:\n        v._grad = Value(grad)\n":
        "    if v._grad is None:\n        v._grad = Value(grad)\n        if not v.is_leaf:\n            v.grad_fn.retained_sum = grad\n"},
          fails={BASICS: "this stage builds on ex19"}, names=("ex19", "a.grad.zero_() on a retained a", "store_grad")),
]

# ex21's zero_ with its one edge kept in a module-level list every zero_ clears and refills, given to
# the ZeroBackward0 as it is: a later zero_ on another graph changes the edge of an earlier node.
ZERO_EDGE_IN_A_MODULE_LIST = {
    "        edges = (gradient_edge(self),)\n        self._box[0] = 0.0":
    "        EDGES.clear()\n        EDGES.append(gradient_edge(self))\n        self._box[0] = 0.0",
    "            rebase(self, ZeroBackward0(edges))": "            rebase(self, ZeroBackward0(EDGES))",
    "\nclass Value:": "\nEDGES = []\n\n\nclass Value:",
}
CASES += [
    Wrong("zero_edge_in_a_module_level_list", edits=ZERO_EDGE_IN_A_MODULE_LIST, fails={REBASED: "z.grad_fn.next_functions[0][0] is e0 after z = w * 3; z.zero_()"},
          names=("z.zero_()", "each node's edges are its own")),
]

# ex16's slip carried: 3 * w made Value(3) * w, its edges in the other order, passes every
# program of this stage; ex16's gate reads 3 * w's first edge.
CASES += [
    Wrong("rmul_as_number_times_value_since_ex16",
          edits={"    __rmul__ = __mul__": "    def __rmul__(self, other):\n        return as_value(other) * self"},
          fails={BASICS: "this stage builds on ex16"}, names=("ex16", "3 * w has the entry of the number 3 first")),
]

# ex20's slip carried: backward releases the nodes it ran once the whole pass is over, so a pass that
# raised at a later node never released those; ex20's gate tells it as backward's release step, not
# Node.release (which frees right).
CASES += [
    Wrong("released_after_the_whole_pass_since_ex20",
          edits={"        if not retain_graph:\n            node.release()\n": "        done.append(node)\n",
                 "    pushed = itertools.count(1)\n": "    pushed = itertools.count(1)\n    done = []\n",
                 "                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))\n":
                 "                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))\n"
                 "    for node in done if not retain_graph else ():\n        node.release()\n"},
          fails={BASICS: "this stage builds on ex20"},
          names=("ex20", "changes v.grad", "the step of backward that releases"), unsaid=("Node.release",)),
]

# .data returning the number itself (micrograd's .data): told as what .data gave, a difference from
# PyTorch's, not as an error (no code of the student's raised one) nor as the error later reads of it meet.
CASES += [
    Wrong("data_gives_the_number", edits={
        '        """A Value sharing this number, with a version counter of its own, requiring no grad."""\n'
        "        alias = Value(0.0)\n        alias._box = self._box\n        return alias\n":
        '        """A Value sharing this number, with a version counter of its own, requiring no grad."""\n'
        "        return self.item()\n"},
          fails={"in-place ops and the leaf error": "w.data is not the kind of result PyTorch's is: yours is of type float",
                 DATA: "w.data is not the kind of result PyTorch's is", DETACHED: "w.data is not the kind of result"},
          names=("w.data", "of type float", "a Value that shares the number"), unsaid=("TypeError", "raised while the test")),
]

# detach() copying requires_grad: the notes "after d = w.detach(); d.add_(1)" are told in Chinese
# too, as the steps "adding through w.detach(), then through w.data" are (data_copies_the_number):
# both caught in the Chinese feedback by the gallery's leak check and tests/i18n's labels.
CASES += [
    Wrong("detach_copies_requires_grad", fails={REBASED: "After d = w.detach(); d.add_(1): d.requires_grad is True"},
          edits={DETACH_BODY: "        alias = Value(0.0, requires_grad=self.requires_grad)\n"
                              "        alias._box, alias._versions = self._box, self._versions\n        return alias"},
          names=("d.requires_grad is True",)),
]

# A float version counter (+= 1.0): each Value has its own, nothing shared; told as _version of
# another type than PyTorch's int, and only that (no rule of how the counter counts, which is right),
# not as a comparison of two Values' versions "of type str", nor its MODIFIED message (at version
# 1.0) as another error than PyTorch's.
CASES += [
    Wrong("version_counter_a_float", edits={
        "        self._box[0] += other.item()\n        self._versions[0] += 1\n":
        "        self._box[0] += other.item()\n        self._versions[0] += 1.0\n",
        "        self._box[0] = 0.0\n        self._versions[0] += 1\n": "        self._box[0] = 0.0\n        self._versions[0] += 1.0\n"},
          fails={BASICS: "v._version after v.add_(1) is of type float, where PyTorch's version counter is an int",
                 MODIFIED: "s._version after s.zero_(), s = Value(0) is of type float",
                 REBASED: "b._version after b.add_(x); b += 1 is of type float"},
          names=("_version", "of type float"),
          unsaid=("yours is a str", "where PyTorch raises another error",  # the counts are right: no rule of
                  "bumps the version counter once", "a version counter of its own")),  # counting is told
]

# Shortcuts that give PyTorch's answers to every other program: .data kept on the Value, detach() of a
# constant handing back the Value itself, detach() as a copy that keeps the leaf's AccumulateGrad, and
# an unpack that checks the version before whether its node was released.
CASES += [
    Wrong("data_kept_on_the_value", edits={DATA_BODY: '''        if getattr(self, "_data_view", None) is None:
            self._data_view = Value(0.0)
            self._data_view._box = self._box
        return self._data_view'''},
          fails={DATA: "w.data gives a new Value at each call in PyTorch, but not in your engine"},
          names=("w.data gives a new Value at each call",)),
    Wrong("detach_of_a_constant_is_itself", edits={DETACH_BODY: "        if not self.requires_grad:\n            return self\n"
                                                                + DETACH_BODY},
          fails={DETACHED: "c.detach() is c, c = Value(2) in your engine, but not in PyTorch"},
          names=("c.detach() is c", "give a new Value at each call")),
    Wrong("detach_copies_the_accumulator", edits={DETACH_BODY: '''        alias = copy.copy(self)
        alias.grad_fn, alias.requires_grad, alias._grad, alias.retains_grad = None, False, None, False
        return alias''', "\nimport heapq\n": "\nimport copy\nimport heapq\n"},
          fails={DETACHED: "w.grad after w * w; d = w.detach(); d.requires_grad = True; (d * d).backward() is not None"},
          names=("d.grad after w * w; d = w.detach()", "an AccumulateGrad of its own")),
    Wrong("version_checked_before_released", edits={
        "        if self.released:\n            raise RuntimeError(SECOND_BACKWARD)\n        value = self.saved[name]\n"
        "        if value._version != self.saved_versions[name]:\n"
        "            raise RuntimeError(MODIFIED.format(version=value._version, expected=self.saved_versions[name]))\n":
        "        value = self.saved[name]\n        if value is not None and value._version != self.saved_versions[name]:\n"
        "            raise RuntimeError(MODIFIED.format(version=value._version, expected=self.saved_versions[name]))\n"
        "        if self.released:\n            raise RuntimeError(SECOND_BACKWARD)\n",
        "        self.saved = dict.fromkeys(self.saved)\n        self.released = True\n": "        self.released = True\n"},
          fails={MODIFIED: "A second y.backward() after y.backward(); a.add_(1), y = a * a, a = w * 2 raised RuntimeError"},
          names=("Node.unpack", "unpack checks first whether its node was released")),
]

# rebase cutting the edges of the node the value had before, and add_ bumping its other operand's version:
# each told by what it changed, not by the numbers backward used or by detach()'s counter.
CASES += [
    Wrong("rebase_cuts_the_old_node", edits={"    v.grad_fn = node\n    v.requires_grad = True\n":
                                             "    if v.grad_fn is not None:\n        v.grad_fn.next_functions = ()\n"
                                             "    v.grad_fn = node\n    v.requires_grad = True\n"},
          fails={MODIFIED: "e.next_functions after e = c.grad_fn; c.add_(1), c = w + 1 has fewer entries than PyTorch's"},
          names=("e.next_functions after e = c.grad_fn", "leaves the node it had before as it was")),
    Wrong("add_bumps_the_other_operand", edits={"        self._versions[0] += 1\n        if recording(self, other):\n"
                                                "            rebase(self, AddBackward0(edges))\n":
                                                "        self._versions[0] += 1\n        if other is not self:\n"
                                                "            other._versions[0] += 1\n        if recording(self, other):\n"
                                                "            rebase(self, AddBackward0(edges))\n"},
          fails={BASICS: "w._version after v += w is a different number from PyTorch's"},
          names=("w._version after v += w", "never its other operand's")),
]

# Facts decided once and not followed (is_leaf cached, the .grad warning decided when the Value was
# made), versions kept apart from the node that saved them, one counter for every .data of a Value,
# and a rebase that clears a retained .grad: each seen only by a program that reads, saves or runs
# backward before the in-place op and again after it.
CASES += [
    Wrong("is_leaf_cached", edits={"    @property\n    def is_leaf(self)": "    @functools.cached_property\n    def is_leaf(self)",
                                   "\nimport heapq\n": "\nimport functools\nimport heapq\n",
                                   "    if v.is_leaf and v.requires_grad:\n": "    if v.grad_fn is None and v.requires_grad:\n"},
          fails={REBASED: "c.is_leaf after c = Value(-4); c.is_leaf; c.add_(w) is True, unlike PyTorch's"},
          names=("c.is_leaf after c = Value(-4); c.is_leaf; c.add_(w)", "whatever is_leaf answered before the op")),
    Wrong("grad_warning_decided_when_made", edits={
        "        if not self.is_leaf and not self.retains_grad:\n": "        if self._made_by_op and not self.retains_grad:\n",
        "        self.retains_grad = False\n\n    def item": "        self.retains_grad = False\n        self._made_by_op = False\n\n    def item",
        "        out.grad_fn = op(tuple(gradient_edge(v) for v in inputs))\n":
        "        out.grad_fn = op(tuple(gradient_edge(v) for v in inputs))\n        out._made_by_op = True\n"},
          fails={REBASED: "Reading c.grad after c = Value(-4); c.is_leaf; c.add_(w); (c * 3).backward() warns in PyTorch, "
                          "but not in your engine"},
          names=("Reading c.grad after c = Value(-4)", "a constant an in-place op rebased onto a node warns")),
    Wrong("saved_versions_kept_by_name", edits={
        "        self.saved_versions[name] = value._version\n":
        "        self.saved_versions[name] = _SAVED_AT[name] = value._version\n",
        "        if value._version != self.saved_versions[name]:\n": "        if value._version != _SAVED_AT[name]:\n",
        "\n\nclass AccumulateGrad(Node):": "\n\n_SAVED_AT: dict[str, int] = {}\n\n\nclass AccumulateGrad(Node):"},
          fails={MODIFIED: "y1.backward() after y1 = w * b; b.add_(1); y2 = w * b, b = Value(2) raised no error"},
          names=("y1.backward() after y1 = w * b; b.add_(1); y2 = w * b", "checks the versions it saved itself")),
    Wrong("data_views_share_a_counter", edits={DATA_BODY: '''        if not hasattr(self, "_data_versions"):
            self._data_versions = [0]
        alias = Value(0.0)
        alias._box, alias._versions = self._box, self._data_versions
        return alias'''},
          fails={DATA: "y.backward() after y = x * w.data; w.data.add_(1) raised RuntimeError"},
          names=("y.backward() after y = x * w.data; w.data.add_(1)", "shared with no other .data of the same Value")),
    Wrong("rebase_clears_the_retained_grad", edits={"    v.grad_fn = node\n    v.requires_grad = True\n":
                                                    "    v.grad_fn = node\n    v.requires_grad = True\n    v._grad = None\n"},
          fails={REBASED: "a.grad after a = w * 3; a.retain_grad(); (a * 2).backward(retain_graph=True); a.add_(1) is None"},
          names=("a.grad after a = w * 3", "leaves the .grad a value holds as it was")),
]

# check_in_place refusing only a leaf that has an AccumulateGrad (one "in a graph"): a fresh leaf that
# requires grad changes in place.  Told as the op PyTorch refuses, never as a refusal of the engine's,
# and without the rules of what a refused op's later steps show.
CASES += [
    Wrong("leaf_check_asks_for_an_accumulator", edits={"    if v.is_leaf and v.requires_grad:\n":
                                                       "    if v.is_leaf and v._accumulator is not None:\n"},
          fails={BASICS: "w.add_(1) on a leaf that requires grad raised no error, where PyTorch raises one"},
          names=("w.add_(1) on a leaf that requires grad", "LEAF_IN_PLACE"),
          unsaid=("that refused", "an in-place op changes the number itself", "never its other operand's")),
]

# unpack noticing a change by the saved value's number, not its version: s.zero_() of a 0 slips through, and a
# change through .data (a counter of its own) is refused; told by those programs, the student's own message
# quoted with its two equal versions.
CASES += [
    Wrong("unpack_compares_numbers", edits={
        "        self.saved_versions[name] = value._version\n":
        "        self.saved_versions[name] = value._version\n"
        "        self.saved_numbers = {**getattr(self, 'saved_numbers', {}), name: value.item()}\n",
        "        if value._version != self.saved_versions[name]:\n": "        if value.item() != self.saved_numbers[name]:\n"},
          fails={MODIFIED: "y.backward() after s.zero_(), y = w * s, s = Value(0) raised no error",
                 DATA: "is at version 0; expected version 0"},
          names=("s.zero_(), y = w * s, s = Value(0)", "a check of the number", "refuses a change through .data")),
]

# unpack warning MODIFIED's text instead of raising it: backward goes on with the changed value.
CASES += [
    Wrong("modified_warned_not_raised", edits={
        "            raise RuntimeError(MODIFIED.format(version=value._version, expected=self.saved_versions[name]))\n":
        "            warnings.warn(MODIFIED.format(version=value._version, expected=self.saved_versions[name]))\n"},
          fails={BASICS: "z.backward() after q.add_(1), z = q * q, q = p + 2 raised no error, where PyTorch raises one"},
          names=("raised no error", "backward raises MODIFIED")),
]

# A busy flag backward sets against a nested call and clears only when it returns: once a backward raised, every
# later one returns at once; ex20's check fails for that, told as what a backward that raised leaves behind.
CASES += [
    Wrong("busy_flag_left_up_by_an_error", edits={
        "    first, _ = gradient_edge(root)\n": "    if _BUSY:\n        return  # already inside a backward\n"
                                              "    _BUSY.append(True)\n    first, _ = gradient_edge(root)\n",
        "                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))\n":
        "                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))\n    _BUSY.clear()\n",
        "\ndef backward(": "\n_BUSY = []  # non-empty while a backward runs\n\n\ndef backward("},
          fails={BASICS: "a backward after one that raised writes no gradient"},
          names=("a backward after one that raised", "not in a finally clause")),
]

# Leaves that require grad listed at their making and found with `in` (==, a Value comparing numbers): another
# value holding such a leaf's number is refused as if it were that leaf.
CASES += [
    Wrong("leaves_listed_by_equality", edits={
        "        self.requires_grad = requires_grad\n":
        "        self.requires_grad = requires_grad\n        if requires_grad:\n            _GRAD_LEAVES.append(self)\n",
        "    def item(self) -> float:\n": "    def __eq__(self, other: object) -> bool:\n"
                                     "        return isinstance(other, Value) and self.item() == other.item()\n\n"
                                     "    __hash__ = object.__hash__\n\n    def item(self) -> float:\n",
        "\ndef as_value(": "\n_GRAD_LEAVES = []  # leaves made with requires_grad=True\n\n\ndef as_value(",
        "    if v.is_leaf and v.requires_grad:\n": "    if v in _GRAD_LEAVES:\n"},
          fails={MODIFIED: "c a leaf that requires no grad holding the number of w",
                 BASICS: "c a leaf that requires no grad holding the number of w"},  # the public test names it too
          names=("holding the number of w", "a lookup by ==")),
]

# State kept between calls (a version counter that is a default argument of __init__, versions listed apart
# from the nodes, the ids of values allowed once) and a leaf check that forgets requires_grad or checks the
# other operand too: each told by what it did, the earlier stages' programs' errors with what a fresh run shows.
INIT = "    def __init__(self, data: float, requires_grad: bool = False) -> None:\n"
CASES += [
    Wrong("version_counter_default_list", edits={  # Values made without versions= share the default's one list
        INIT: "    def __init__(self, data: float, requires_grad: bool = False, versions: list = [0]) -> None:\n",
        "        self._versions = [0]  # the version counter; shared with detach() (not with .data)\n":
        "        self._versions = versions  # detach() hands its own\n",
        DETACH_BODY: "        alias = Value(0.0, versions=self._versions)\n        alias._box = self._box\n        return alias"},
          fails={BASICS: "b._version changes when a.add_(1) runs"},
          names=("your Values share one version counter", "Node.unpack")),
    Wrong("saved_versions_listed", edits={  # the first version saved of a value, whichever node asks
        "        self.saved_versions[name] = value._version\n": "        _SAVED.append((value, value._version))\n",
        "        if value._version != self.saved_versions[name]:\n"
        "            raise RuntimeError(MODIFIED.format(version=value._version, expected=self.saved_versions[name]))\n":
        "        expected = next(version for saved, version in _SAVED if saved is value)\n"
        "        if value._version != expected:\n"
        "            raise RuntimeError(MODIFIED.format(version=value._version, expected=expected))\n",
        "\n\nclass Node:": "\n\n_SAVED = []  # (value, its version when a node saved it)\n\n\nclass Node:"},
          fails={MODIFIED: "y2.backward() after y1 = w * b; b.add_(1); y2 = w * b, b = Value(2) raised RuntimeError"},
          names=("y2.backward() after y1 = w * b", "checks the versions it saved itself")),
    Wrong("in_place_allowed_once", edits={  # a value allowed once is never checked again
        "    if v.is_leaf and v.requires_grad:\n        raise RuntimeError(LEAF_IN_PLACE)\n":
        "    if id(v) in _ALLOWED:\n        return\n    if v.is_leaf and v.requires_grad:\n"
        "        raise RuntimeError(LEAF_IN_PLACE)\n    _ALLOWED.add(id(v))\n",
        "\ndef check_in_place(": "\n_ALLOWED = set()  # ids of the values already allowed an in-place op\n\n\ndef check_in_place("},
          fails={BASICS: "c.add_(1) after c.add_(1); c.requires_grad = True, c = Value(2) raised no error"},
          names=("c.requires_grad = True", "whatever an earlier check allowed")),
    Wrong("leaf_check_forgets_requires_grad", edits={
        "    if v.is_leaf and v.requires_grad:\n        raise RuntimeError(LEAF_IN_PLACE)\n":
        "    if v.is_leaf:\n        raise RuntimeError(LEAF_IN_PLACE)\n"},
          fails={BASICS: "c.zero_(), c = Value(2) a leaf that requires no grad, raises it too"},
          names=("check_in_place", "an in-place op on a leaf that requires no grad")),
    Wrong("other_operand_checked_too", edits={  # w in v += w taken for the value changed
        "        other = as_value(other)\n        check_in_place(self)\n":
        "        other = as_value(other)\n        check_in_place(self)\n        check_in_place(other)\n"},
          fails={BASICS: "v += w after v.add_(1) raised RuntimeError",
                 REBASED: "your check_in_place refused x, the operand added"},
          names=("check_in_place", "the operand added, not the Value changed in place")),
]

# ex17's slip carried: the buffers of gradients kept in a module-level dict, never popped; ex19's gate tells it as
# state kept between calls, in backward (this stage's rewrite), not in ex19's store_grad.
CASES += [
    Wrong("buffers_in_a_module_dict_since_ex17", edits=BUFFERS_KEPT_IN_A_DICT, fails={BASICS: SENT_KEPT},
          names=("ex19", "state kept between calls", "The fault is in backward"),
          unsaid=("as well as in your ex19 answer",)),
]

# += bound to the out-of-place addition (__iadd__ = __add__): b += 1 makes a new Value and leaves b as it was; the
# test of a recorded in-place op tells that first, as the public test tells v += w.
CASES += [
    Wrong("iadd_as_the_sum", edits={"    __iadd__ = add_": "    __iadd__ = __add__"},
          fails={"in place on a non-leaf is recorded": "b += 1 leaves b the Value it changed in place in PyTorch, but not"},
          names=("b += 1 leaves b the Value it changed in place",)),
]

# unpack refusing a version greater than the saved one (versions only grow), zero_ recorded where the value has a
# grad_fn (a leaf that requires grad was refused before), and add_'s own edge read as (grad_fn, 0) (a leaf reaching
# it requires no grad): right.
CASES += [
    Correct("unpack_refuses_a_later_version", edits={"if value._version != self.saved_versions[name]:":
                                                     "if value._version > self.saved_versions[name]:"}),
    Correct("zero_recorded_by_grad_fn", edits={"        if recording(self):\n            rebase(self, ZeroBackward0(edges))":
                                               "        if self.grad_fn is not None:\n            rebase(self, ZeroBackward0(edges))"}),
    Correct("add_edge_by_grad_fn", edits={"        edges = (gradient_edge(self), gradient_edge(other))\n        self._box[0] += other.item()":
                                          "        edges = ((self.grad_fn, 0), gradient_edge(other))\n        self._box[0] += other.item()"}),
]

# unpack lets one change in place through (a version one past the saved one), MODIFIED's versions made up
# from the saved one, a ZeroBackward0 given a second edge, and rebase leaving requires_grad as it was
CASES += [
    Wrong("unpack_lets_one_change_through", edits={
        "        if value._version != self.saved_versions[name]:\n": "        if value._version > self.saved_versions[name] + 1:\n"},
          fails={BASICS: "z.backward() after q.add_(1), z = q * q, q = p + 2 raised no error, where PyTorch raises one"},
          names=("raised no error, where PyTorch raises one", "Backward raises MODIFIED")),
    Wrong("modified_versions_made_up", edits={
        "            raise RuntimeError(MODIFIED.format(version=value._version, expected=self.saved_versions[name]))\n":
        "            raise RuntimeError(MODIFIED.format(version=self.saved_versions[name] + 1, "
        "expected=self.saved_versions[name]))\n"},
          fails={MODIFIED: "in Node.unpack, where PyTorch raises that error at other versions"},
          names=("in Node.unpack", "at other versions")),
    Wrong("zero_node_given_a_second_edge", edits={
        "            rebase(self, ZeroBackward0(edges))\n": "            rebase(self, ZeroBackward0(edges + ((None, 0),)))\n"},
          fails={REBASED: "After z = w * 3; z.zero_(): z.grad_fn.next_functions has more entries than PyTorch's"},
          names=("z.grad_fn.next_functions has more entries", "ZeroBackward0 for zero_, whose one edge is the old history")),
    Wrong("rebase_leaves_requires_grad", edits={"    v.grad_fn = node\n    v.requires_grad = True\n": "    v.grad_fn = node\n"},
          fails={REBASED: "After c = Value(-4); c.add_(w): c.requires_grad is False, unlike PyTorch's"},
          names=("c.requires_grad is False",)),
]
