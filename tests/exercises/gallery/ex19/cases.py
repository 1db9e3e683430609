"""ex19 gallery: plausible wrong accumulations and correct variants (format: gallery_case.py)."""

from gallery_case import RETAIN_ON_A_LEAF_NODE, RETAINED_LEAF_DOUBLED, Correct, Wrong

LOOP = "gradients add up over backward calls"
ZERO = "zero_() between backward calls"
# a retained a.grad's number after a.grad = None, or a.grad.zero_(), and one more backward calls
DROPPED_PAIR = "a.grad = None; (a * x).backward(); (a * w).backward() is a different number"
ZEROED_PAIR = "a.grad.zero_(); (a * w).backward() is a different number"
# the numbers a zero_() that changed nothing left, and the backward calls after it: that zero_() told, they are not
ZERO_LEFT = ("after w.grad.zero_() is a different number", "(w.grad.zero_(); x.grad.zero_() before the third) is a different",
             "after w.grad.zero_(); x.grad.zero_() gives w.grad the number the first gave")
WRITE = '''    if v._grad is None:
        v._grad = Value(grad)
    elif v.is_leaf:
        v._grad._box[0] += grad
    else:
        v._grad = Value(v._grad.item() + grad)'''
ZERO_BODY = '''        self._box[0] = 0.0
        return self'''
CASES = [
    Wrong("leaf_sum_subtracts", edits={"        v._grad._box[0] += grad": "        v._grad._box[0] -= grad"},
          fails={"gradients add up over backward calls": "w.grad after the second backward of w * x + w is a different "
                                                         "number from PyTorch's"},
          names=("w.grad after the second backward", "each backward must add its gradient into .grad"),
          unsaid=("zero_() changes the number w.grad holds", "a backward sends the gradients of its own graph alone",
                  "nothing of an earlier backward's walk")),
    Wrong("counts_cached_on_the_root_node", edits={  # the first walk's counts, used up, kept for every later one
        "    waiting = dependencies(first)\n": "    if not hasattr(first, \"waiting\"):\n        first.waiting = dependencies(first)\n"
                                             "    waiting = first.waiting\n"},
          fails={"gradients add up over backward calls": "w.grad after y.backward(retain_graph=True); y.backward(), "
                                                         "y = w * x + w is a different number from PyTorch's"},
          names=("y.backward(retain_graph=True); y.backward()", "nothing of an earlier backward's walk")),
    Wrong("accumulator_overwrites_the_leaf_grad", edits={  # an ex17 AccumulateGrad.apply: store_grad never runs
        "        store_grad(self.variable, grad)\n": "        self.variable._grad = Value(grad)\n"},
          fails={LOOP: "w.grad after the second backward of w * x + w is a different number from PyTorch's"},
          names=("w.grad after the second backward", "without calling store_grad"),
          unsaid=("w's own number (w.item()) plus its gradient",)),  # an overwrite, at every input: w = 0 too
    Wrong("leaf_root_writes_a_new_grad", edits={  # w.backward() from a leaf: a shortcut that replaces w.grad
        "    first, _ = gradient_edge(root)\n    waiting": "    if root.grad_fn is None:\n        root._grad = Value(1.0)\n"
                                                      "        return\n    first, _ = gradient_edge(root)\n    waiting"},
          fails={LOOP: "w.grad after w.backward(); w.backward() is a different number from PyTorch's"},
          names=("w.backward()", "a backward that starts at a leaf adds into its .grad")),
    Wrong("retain_grad_twice_writes_twice", edits={  # each retain_grad() call appends a's Value to its node's list
        "            self.grad_fn.retained = self\n":
        "            self.grad_fn.retained = (self.grad_fn.retained or []) + [self]\n",
        "            store_grad(node.retained, grad)\n": "            for kept in node.retained:\n                store_grad(kept, grad)\n"},
          fails={LOOP: "a.grad after a = w * 3; a.retain_grad(); a.retain_grad(); (a * a).backward() is a different number"},
          names=("a.retain_grad(); a.retain_grad()", "however many times retain_grad() was called")),
    Wrong("leaf_sum_adds_the_leaf_number", edits={"        v._grad._box[0] += grad": "        v._grad._box[0] = v.item() + grad"},
          fails={LOOP: "left w.grad holding w's own number (w.item()) plus its gradient in your engine, but not in PyTorch"},
          names=("w's own number", "never to the leaf's own number"),
          unsaid=("nothing of the earlier backward calls being kept between calls",)),
    Wrong("zero_writes_an_int", edits={ZERO_BODY: "        self._box[0] = 0\n        return self"},
          fails={ZERO: "w.grad.zero_() leaves a float as w.grad's number in PyTorch, but not in your engine"},
          names=("w.grad.zero_()", "a float")),
    Wrong("retain_grad_keeps_a_leaf_on_its_node", edits=RETAIN_ON_A_LEAF_NODE,
          fails={"accumulation on other inputs": RETAINED_LEAF_DOUBLED},
          names=("w.retain_grad()", "on a leaf that requires grad changes nothing")),
    Wrong("overwrites", edits={WRITE: "    v._grad = Value(grad)"},
          fails={LOOP: "w.grad after the second backward of w * x + w is a different number"},
          names=("w.grad after the second backward", "add its gradient")),
    Wrong("zero_returns_new", edits={ZERO_BODY: "        return Value(0.0)"},
          fails={LOOP: "w.grad.zero_() changes the number w.grad holds in PyTorch, but not in your engine",
                 ZERO: "w.grad.zero_() is w.grad in PyTorch, but not in your engine"},
          names=("zero_()", "in place"), unsaid=ZERO_LEFT),  # what the zero_() that changed nothing left: told once
    Wrong("zero_returns_nothing", edits={ZERO_BODY: "        self._box[0] = 0.0"},
          fails={ZERO: "w.grad.zero_() is w.grad in PyTorch, but not in your engine"}, names=("w.grad.zero_() is w.grad", "returns the Value itself")),
    Wrong("adds_twice", edits={"        v._grad._box[0] += grad": "        v._grad._box[0] += v._grad._box[0] + grad"},
          fails={LOOP: "is a different number"}, names=("w.grad after the second backward", "add its gradient")),
    Wrong("buffers_kept_between_calls", edits={  # backward's gradient buffers in a module-level dict, never emptied
        "    buffers = {first: 1.0}": "    buffers = BUFFERS\n    buffers[first] = buffers.get(first, 0.0) + 1.0",
        "        grad = buffers.pop(node)": "        grad = buffers[node]",
        "\ndef backward(": "\nBUFFERS = {}\n\n\ndef backward("},
          fails={test: "had the nodes' apply calls return other gradients than the first backward did"
                 for test in (LOOP, "accumulation on other inputs", "two graphs sharing a leaf")},  # not store_grad's rule
          names=("state kept between calls", "apply calls"),
          unsaid=("gives w.grad the number the first gave",)),  # what the buffers kept make of the gradients: told once
    Wrong("zero_drops_its_own_grad", edits={ZERO_BODY: "        self._grad = None\n        return self"},  # not a signed zero
          fails={LOOP: "w.grad.zero_() changes the number w.grad holds in PyTorch, but not in your engine",
                 ZERO: "w.grad.zero_() changes the number w.grad holds in PyTorch, but not in your engine"},
          names=("w.grad.zero_() changes the number", "zero_() sets the number to 0"),
          unsaid=("never to a sum kept apart from it", *ZERO_LEFT)),  # a retained a.grad zeroed follows from zero_()
    Wrong("zero_to_one", edits={"        self._box[0] = 0.0\n": "        self._box[0] = 1.0\n"},
          fails={LOOP: "w.grad after w.grad.zero_() is a different number from PyTorch's; the same holds with x.grad",
                 ZERO: "w.grad after w.grad.zero_() is a different number"},
          names=("w.grad after w.grad.zero_()", "zero_() sets the number to 0"),
          unsaid=("x.grad after x.grad.zero_() is",)),  # one sentence names both
    Wrong("zero_halves", edits={"        self._box[0] = 0.0\n": "        self._box[0] /= 2\n"},  # zero_'s fault, not store_grad's
          fails={LOOP: "w.grad after w.grad.zero_() is a different number from PyTorch's; the same holds with x.grad"},
          names=("after w.grad.zero_()", "zero_() sets the number to 0"), unsaid=("x.grad after x.grad.zero_() is",)),
    Wrong("total_kept_on_the_node", edits={"        store_grad(self.variable, grad)\n": '''        if not hasattr(self, "total"):
            self.total = Value(0.0)
        self.total._box[0] += grad
        self.variable._grad = self.total
'''}, fails={"w.grad = None between backward calls": "(w.grad = None; x.grad = None before the third) is a different number"},
          names=("w.grad = None; x.grad = None before the third", "kept between calls")),  # the total is kept on the node
    Wrong("retain_grad_broken_since_ex18", edits={"            self.grad_fn.retained = self\n": ""},
          fails={LOOP: "this stage builds on ex18"}, names=("ex18", "retain_grad() does not keep a's gradient")),
    # which object .grad is, the course leaves out (docs/engine.md, "Not modelled"): a sum in a new
    # Value, or added in place into a retained non-leaf's, holds the same numbers PyTorch's does
    Correct("new_value_each_time", edits={WRITE: "    v._grad = Value(grad if v._grad is None else v._grad.item() + grad)"}),
    Correct("retained_added_in_place", edits={WRITE: '''    if v._grad is None:
        v._grad = Value(grad)
    else:
        v._grad._box[0] += grad'''}),
    Wrong("grads_share_one_zero", edits={  # every first write starts from one module-level Value
        WRITE: '''    if v._grad is None:
        v._grad = ZERO
    if v.is_leaf:
        v._grad._box[0] += grad
    else:
        v._grad = Value(v._grad.item() + grad)''',
        "\n\ndef store_grad(": "\n\nZERO = Value(0.0)\n\n\ndef store_grad("},
          fails={LOOP: "ex17's check passes on a fresh run of"},  # state: not "the fault may be in your ex17 answer"
          names=("store_grad", "keeps state between calls")),
    Wrong("retained_new_without_the_sum", edits={"        v._grad = Value(v._grad.item() + grad)": "        v._grad = Value(grad)"},
          fails={LOOP: "a.grad after a = w + x; a.retain_grad(); (a * x).backward(); (a * w).backward() "
                       "is a different number from PyTorch's: your store_grad, handed the retained non-leaf's gradient "
                       "while its .grad held a number, left .grad holding that gradient alone"},
          names=("a.grad after", "your store_grad", "left .grad holding that gradient alone"),  # the sum lost there
          unsaid=("nothing of the dropped gradient is kept",  # an overwrite keeps nothing: the sum's rule tells it
                  "without handing it to store_grad",  # store_grad was handed a: the sum is lost inside it
                  DROPPED_PAIR)),  # the pair after a.grad = None overwrites too: told once, by the first pair
    Wrong("adds_into_the_leaf_itself", edits={"        v._grad._box[0] += grad": "        v._box[0] += grad"},
          fails={LOOP: "w after the third backward of w * x + w is a different number from PyTorch's"},
          names=("w.item()", "never into the leaf itself")),
    Correct("leaf_and_retained_swapped", edits={"    elif v.is_leaf:\n": "    elif not v.is_leaf:\n"}),
    Wrong("first_gradient_reused_after_none", edits={  # a leaf's first gradient Value kept by id, handed out again
        WRITE: '''    if v._grad is None:
        v._grad = FIRST.setdefault(id(v), Value(0.0))
        v._grad._box[0] = grad
    elif v.is_leaf:
        v._grad._box[0] += grad
    else:
        v._grad = Value(v._grad.item() + grad)''',
        "\n\ndef store_grad(": "\n\nFIRST = {}\n\n\ndef store_grad("},
          fails={"w.grad = None between backward calls": "g.item() after (w * w).backward(); g = w.grad"},
          names=("a Value taken from .grad before keeps its number",)),  # PyTorch's kept g stays the first gradient
    Correct("zeroed_grad_replaced", edits={"    if v._grad is None:\n        v._grad = Value(grad)\n    elif v.is_leaf:":
                                           "    if v._grad is None or v._grad.item() == 0.0:\n        v._grad = Value(grad)\n    elif v.is_leaf:"}),
    Wrong("setter_ignores_none", edits={"    def _set_grad(self, value: Value | None) -> None:\n        self._grad = value":
                                        "    def _set_grad(self, value: Value | None) -> None:\n        if value is not None:\n"
                                        "            self._grad = value"},
          fails={"w.grad = None between backward calls": "w.grad after w.grad = None is not None"},
          names=("w.grad after w.grad = None", "the grad property's setter"),
          unsaid=("gives w.grad the number the first gave", "is a different number")),  # what follows: told once
    Wrong("zero_by_multiplying", edits={"        self._box[0] = 0.0\n": "        self._box[0] *= 0\n"},  # -0.0 on a negative number
          fails={ZERO: "w.grad.zero_() on a negative w.grad leaves a zero without a minus sign in PyTorch, but not in your engine"},
          names=("w.grad.zero_()", "minus sign")),
    Wrong("counts_cached_by_the_root_id", edits={  # a new root may reuse a freed root's id: stale counts
        "def dependencies(root: Node) -> dict[Node, int]:": "_COUNTS: dict[int, dict[Node, int]] = {}\n\n\n"
                                                            "def dependencies(root: Node) -> dict[Node, int]:",
        "    counts: dict[Node, int] = {root: 0}\n": "    if id(root) in _COUNTS:\n        return _COUNTS[id(root)]\n"
                                                  "    counts: dict[Node, int] = _COUNTS.setdefault(id(root), {})\n"},
          # the tests' other roots are kept alive (``grader.spec.held``) or made apart from freed ones: only
          # this test's second root is put at the first's freed id, and meets the stale counts on every run
          fails={LOOP: "the list of nodes that (a * w).backward() ran after (a * x).backward() has fewer entries "
                       "than PyTorch's"},
          names=("(a * w).backward() ran", "kept for the next call")),
    Wrong("grad_requires_grad", edits={"    if v._grad is None:\n        v._grad = Value(grad)\n":
                                       "    if v._grad is None:\n        v._grad = Value(grad, requires_grad=True)\n"},
          fails={LOOP: "The fault is in store_grad, which this file holds as your ex19 answer"},  # ex17's gate meets it
          names=("store_grad", "w.grad requires grad", "requires none")),
    Wrong("leaf_sum_made_through_a_graph", edits={  # the sum an op on a Value that requires grad: plain only at first
        "        v._grad._box[0] += grad": "        v._grad = v._grad + Value(grad, requires_grad=True)"},
          fails={LOOP: "w.grad.requires_grad after a = w + x; a.retain_grad(); (a * x).backward(); (a * w).backward() is True"},
          names=("(a * w).backward() is True", "requires no grad", "no graph is recorded through it")),
    Wrong("retained_sum_adds_its_own_number", edits={  # the leaf's sum right, the retained one added to a.item()
        "        v._grad = Value(v._grad.item() + grad)": "        v._grad = Value(v.item() + grad)"},
          fails={LOOP: "left a.grad holding a's own number (a.item()) plus that backward's gradient in your engine"},
          names=("a's own number (a.item())", "never to the non-leaf's own number"),
          unsaid=("nothing of the dropped gradient is kept between calls", "never to a sum kept apart from it",
                  DROPPED_PAIR, ZEROED_PAIR)),  # the same sum after a.grad = None or zero_(): told once
    Wrong("retained_grad_read_as_a_copy", edits={  # the getter copies a non-leaf's .grad: a.grad.zero_() zeroes a copy
        "            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)\n        return self._grad":
        "            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)\n        if not self.is_leaf and self._grad is not None:\n"
        "            return Value(self._grad.item())\n        return self._grad"},
          fails={ZERO: "a.grad is a.grad after a = w * x; a.retain_grad(); (a + w).backward() in PyTorch, but not in your engine"},
          names=("a.grad is a.grad", "a retained non-leaf's", "hands zero_() a copy"),
          unsaid=("never to a sum kept apart from it", ZEROED_PAIR)),  # the copy zeroed: the sum after it told once
    Correct("sum_made_by_the_engine_add", edits={WRITE: "    v._grad = Value(grad) if v._grad is None else v._grad + grad"}),
    Wrong("grads_known_by_id", edits={  # the leaves given a .grad kept by id in a module-level dict, and kept
        # alive there: no later leaf takes one of their ids, so what the tests' other programs left cannot decide
        # which test meets the slip (the id reuse is grads_known_by_id_forgotten_on_none's, probed on purpose)
        "    if v._grad is None:\n        v._grad = Value(grad)\n":
        "    if id(v) not in _HAS_GRAD:\n        _HAS_GRAD[id(v)] = v\n        v._grad = Value(grad)\n",
        "\ndef store_grad(": "\n_HAS_GRAD = {}\n\n\ndef store_grad("},
          fails={"w.grad = None between backward calls":
                 "(w * x + w).backward() after w.grad = None; x.grad = None raised AttributeError"},
          names=("after w.grad = None", "nothing of the dropped gradient is kept between calls")),
    Wrong("grads_known_by_id_forgotten_on_none", edits={  # as above, but w.grad = None forgets the id: a new leaf at a freed id
        "    if v._grad is None:\n        v._grad = Value(grad)\n":
        "    if id(v) not in _HAS_GRAD:\n        _HAS_GRAD.add(id(v))\n        v._grad = Value(grad)\n",
        "\ndef store_grad(": "\n_HAS_GRAD = set()\n\n\ndef store_grad(",
        "    def _set_grad(self, value: Value | None) -> None:\n        self._grad = value":
        "    def _set_grad(self, value: Value | None) -> None:\n        if value is None:\n"
        "            _HAS_GRAD.discard(id(self))\n        self._grad = value"},
          fails={"accumulation on other inputs":
                 "(v * v).backward(), v a new leaf at the id of a freed leaf that had a .grad raised AttributeError"},
          names=("a new leaf at the id of a freed leaf", "ids kept between calls")),
    Correct("starts_from_zero", edits={WRITE: '''    if v._grad is not None and not v.is_leaf:
        v._grad = Value(v._grad.item())
    if v._grad is None:
        v._grad = Value(0.0)
    v._grad._box[0] += grad'''}),
    Correct("retained_replaced_through_is_leaf_first", edits={WRITE: '''    if v._grad is not None and not v.is_leaf:
        v._grad = Value(v._grad.item() + grad)
    elif v._grad is not None:
        v._grad._box[0] += grad
    else:
        v._grad = Value(grad)'''}),
    Correct("add_into_through_item", edits={"        v._grad._box[0] += grad": "        v._grad._box[0] = v._grad.item() + grad"}),
    Correct("zero_by_subtracting", edits={"        self._box[0] = 0.0\n": "        self._box[0] -= self._box[0]\n"}),
]

# A retained non-leaf's sum kept on the Value apart from .grad: after a.grad = None the next
# backward calls add to the old sum, where PyTorch starts again from nothing.
CASES += [
    Wrong("retained_sum_kept_apart", edits={"        v._grad = Value(v._grad.item() + grad)\n":
                                            '        v._sum = getattr(v, "_sum", v._grad.item()) + grad\n'
                                            "        v._grad = Value(v._sum)\n"},
          fails={"w.grad = None between backward calls": "a.grad after a = w + x; a.retain_grad(); (a * x).backward(); "
                                                         "(a * w).backward(); a.grad = None"},
          names=("a.grad = None", "nothing of the dropped gradient is kept")),
]

# ex17's AccumulateGrad.apply setting .grad itself (right there): this stage's store_grad, which
# adds, never runs for a leaf; the sentence names apply, not the accumulation store_grad does right.
CASES += [
    Wrong("ex17_apply_sets_grad_itself", edits={
        "        store_grad(self.variable, grad)\n": "        self.variable._grad = Value(grad)\n"},
          fails={LOOP: "your AccumulateGrad.apply set that leaf's .grad without calling store_grad"},
          names=("AccumulateGrad.apply", "without calling store_grad"),
          unsaid=("each backward must add its gradient into .grad",)),
]

# a grad getter that returns a copy (right in ex18): zero_() and the in-place sum reach copies; the
# first sentence says two reads of w.grad are two objects, and the rule is the getter's.
CASES += [
    Wrong("grad_getter_copies", edits={
        "            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)\n        return self._grad\n":
        "            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)\n"
        "        return None if self._grad is None else Value(self._grad.item())\n"},
          fails={LOOP: "w.grad is w.grad after a = w * x; a.retain_grad(); (a + w).backward() in PyTorch, but not in your engine"},
          names=("w.grad is w.grad", "a getter that returns a new Value each time")),
]

# ex17's slip carried: the dependency counts kept on the root node between calls, so a second backward
# through one graph finds every count at 0 and reaches no leaf; told by this stage's second backward.
CASES += [
    Wrong("counts_kept_on_the_root_since_ex17",
          edits={"    waiting = dependencies(first)\n":
                 "    if not hasattr(first, \"waiting\"):\n        first.waiting = dependencies(first)\n"
                 "    waiting = first.waiting\n"},
          fails={LOOP: "w.grad after y.backward(retain_graph=True); y.backward()"},
          names=("its dependency counts", "kept for the next call")),
]

# ex17's slip carried: a ready list run first in first out, whose order no program of this stage
# shows in a gradient; ex17's gate watches the order nodes run in and names backward, ex18's here.
CASES += [
    Wrong("ready_fifo_since_ex17",
          edits={"                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))":
                 "                heapq.heappush(ready, (0, next(pushed), child))"},
          fails={LOOP: "ex17's part of the engine does not work"},
          names=("in another order than PyTorch's", "highest sequence_nr first", "The fault is in backward")),
]

# ex18's slip carried: a getter that warns while no gradient was written, so a retained non-leaf warns
# before its backward; this stage's programs read retained gradients only after one, ex18's gate tells it.
CASES += [
    Wrong("warns_while_no_gradient_was_written_since_ex18",
          edits={"        if not self.is_leaf and not self.retains_grad:\n":
                 "        if not self.is_leaf and self._grad is None:\n"},
          fails={LOOP: "this stage builds on ex18"}, names=("ex18", "r.retain_grad(), before any backward, warns")),
]

# A retained non-leaf's running sum kept on its node, reset only when .grad is None: a.grad.zero_()
# between two backward calls is skipped, and the second adds the first gradient again.
RETAINED_SUM_ON_THE_NODE = {WRITE: '''    if v._grad is None:
        v._grad = Value(grad)
        if not v.is_leaf:
            v.grad_fn.retained_sum = grad
    elif v.is_leaf:
        v._grad._box[0] += grad
    else:
        v.grad_fn.retained_sum += grad
        v._grad = Value(v.grad_fn.retained_sum)'''}
CASES += [
    Wrong("retained_sum_kept_on_the_node", edits=RETAINED_SUM_ON_THE_NODE,
          fails={ZERO: "a.grad after a = w + w; a.retain_grad(); (a * a).backward(retain_graph=True); a.grad.zero_()"},
          names=("a.grad.zero_()", "never to a sum kept apart from it")),
]

# ex16's slips carried: w + 1 making its 1 a leaf that requires grad, and a constant that is no
# leaf, pass every program of this stage; ex16's gate reads the number's edge and c.is_leaf.
CASES += [
    Wrong("number_made_a_leaf_since_ex16",
          edits={"        other = as_value(other)\n        return record(AddBackward0":
                 "        other = other if isinstance(other, Value) else Value(other, requires_grad=True)\n"
                 "        return record(AddBackward0"},
          fails={LOOP: "this stage builds on ex16"}, names=("ex16", "the entry of the number 1, is a node")),
    Wrong("constant_is_not_a_leaf_since_ex16",
          edits={"        return self.grad_fn is None\n": "        return self.grad_fn is None and self.requires_grad\n"},
          fails={LOOP: "this stage builds on ex16"}, names=("ex16", "(c * 3).is_leaf", "no recorded operation made it")),
]
DEPENDENCIES_BY_LOOP = '''    counts: dict[Node, int] = {root: 0}
    stack = [root]
    while stack:
        node = stack.pop()
        for child, _ in node.next_functions:
            if child is None:
                continue
            if child not in counts:
                counts[child] = 0
                stack.append(child)
            counts[child] += 1
    return counts'''
DEPENDENCIES_RECURSIVE = '''    counts: dict[Node, int] = {root: 0}

    def visit(node):
        for child, _ in node.next_functions:
            if child is None:
                continue
            if child not in counts:
                counts[child] = 0
                visit(child)
            counts[child] += 1
    visit(root)
    return counts'''


# ex17's slip carried: dependencies walking the graph by recursion passes every program of this
# stage (none is deep); ex17's gate watches how deep the file's calls nest on a chain.
CASES += [
    Wrong("dependencies_by_recursion_since_ex17", edits={DEPENDENCIES_BY_LOOP: DEPENDENCIES_RECURSIVE},
          fails={LOOP: "this stage builds on ex17"}, names=("ex17", "one inside another", "never by calling itself")),
]

# ex17's slip carried: dependencies counts a node once per parent, so w's AccumulateGrad, reached
# twice from w * w's node, runs before w * 3's node sent its gradient; ex17's gate tells it.
CASES += [
    Wrong("counts_each_parent_once_since_ex17",
          edits={"        for child, _ in node.next_functions:\n            if child is None:\n                continue\n":
                 "        for child in {c for c, _ in node.next_functions if c is not None}:\n"},
          fails={LOOP: "this stage builds on ex17"}, names=("ex17", "w * 3 + (w * w) * 2 + 2", "all three edges")),
]

# ex18's slip carried: a getter that gives a non-leaf that does not retain its grad Value(0) for its
# missing gradient; this stage's programs read retained gradients only, ex18's gate tells it, naming
# the getter (its number is there before any backward), not backward or retain_grad too.
CASES += [
    Wrong("zero_for_a_non_retained_grad_since_ex18",
          edits={"            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)\n        return self._grad\n":
                 "            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)\n            return Value(0.0)\n"
                 "        return self._grad\n"},
          fails={LOOP: "this stage builds on ex18"},
          names=("ex18", "before any backward", "the getter Value.grad", "a non-leaf that does not retain its grad keeps .grad None"),
          unsaid=("the fault may be there", "Value.retain_grad, backward")),
]

# ex16's slip carried: __radd__ written as as_value(other) + self, so 2 + w has the number's entry
# first; this stage's programs never look at the edges of a number added on the left, ex16's gate does.
CASES += [
    Wrong("radd_number_first_since_ex16",
          edits={"    __radd__ = __add__\n": "    def __radd__(self, other):\n        return as_value(other) + self\n"},
          fails={LOOP: "this stage builds on ex16"}, names=("ex16", "2 + w has the entry of the number 2 first"),
          unsaid=("Value.__mul__",)),
]

# ex18's slip carried: store_grad hands a leaf met for the first time the Value kept for its
# number, then adds into it in place, so two leaves of one number share one .grad; the public
# test names that, where it told only a different number (the gate's error hides the rest).
CASES += [
    Wrong("first_grad_kept_per_leaf_number", edits={
        "    if v._grad is None:\n        v._grad = Value(grad)\n":
        "    if v._grad is None:\n        v._grad = _GRADS.setdefault(v.item(), Value(grad)) if v.is_leaf else Value(grad)\n",
        "\ndef store_grad(": "\n_GRADS: dict[float, Value] = {}\n\n\ndef store_grad("},
          fails={LOOP: "u and v two leaves holding one number, u.grad and v.grad are two Values in PyTorch, but not in "
                       "your engine"},
          names=("u.grad and v.grad are two Values", "a dict keyed by the leaf's .item()")),
]

# store_grad adding grad.item() where grad is already a float: the AttributeError is store_grad's,
# this stage's, and told as that (a second backward raising it is no sign of ex17's counts).
CASES += [
    Wrong("store_grad_item_of_a_number", edits={"        v._grad._box[0] += grad\n": "        v._grad._box[0] += grad.item()\n"},
          fails={LOOP: "in store_grad"},
          names=("AttributeError", "in store_grad", "an error of ex19's part"),
          unsaid=("keeping nothing from an earlier call",)),
]

# A gradient of 0 dropped ("adding 0 changes nothing"): in store_grad, this stage's rewrite, or in
# AccumulateGrad.apply; ex17's gate names the function that drops it, not backward, which ran the node.
CASES += [
    Wrong("store_grad_skips_a_zero", edits={
        '    """Write ``grad`` into ``v.grad`` as a Value (PyTorch\'s .grad is a tensor, like the leaf)."""\n    if v._grad is None:':
        '    """Write ``grad`` into ``v.grad`` as a Value (PyTorch\'s .grad is a tensor, like the leaf)."""\n    if grad == 0:\n'
        '        return\n    if v._grad is None:'},
          fails={LOOP: "The fault is in store_grad, which this file holds as your ex19 answer"},
          names=("store_grad(v, 0) on a leaf v leaves v.grad None",), unsaid=("The fault is in backward",)),
    Wrong("accumulate_grad_skips_a_zero_since_ex17", edits={
        "        store_grad(self.variable, grad)\n        return ()":
        "        if grad != 0:\n            store_grad(self.variable, grad)\n        return ()"},
          fails={LOOP: "this stage builds on ex17"},
          names=("AccumulateGrad.apply writes every gradient it is given",), unsaid=("The fault is in backward",)),
]

# A retained non-leaf's .grad overwritten by each backward (a leaf's added to): told by the claim that
# (a * w)'s backward adds to a.grad, said whole (no step of its program cut off) and in Chinese too, with
# where the sum went missing: store_grad left the new gradient alone (not the rule of the sum; backward
# writing a.grad without store_grad: retained_written_past_store_grad).
CASES += [
    Wrong("retained_grad_overwritten", edits={"        v._grad = Value(v._grad.item() + grad)": "        v._grad = Value(grad)"},
          fails={"w.grad = None between backward calls":
                 "(a * w).backward() after a = w + x; a.retain_grad(); (a * x).backward() adds to a.grad in PyTorch, "
                 "but not in your engine: your store_grad, handed the retained non-leaf's gradient"},
          names=("adds to a.grad", "left .grad holding that gradient alone"),
          unsaid=("…", "adds a retained non-leaf's gradient", DROPPED_PAIR)),
]

# Calls repeated on one value, each wrong only where a later call shows it: backward seeded from the
# root's own .grad (1, 1 + 1, then 2 + 2: the third w.backward() tells it); retain_grad() called again
# after a backward starting a.grad over; one gradient Value reused after .grad = None, so a Value the
# caller took from .grad before changes.
CASES += [
    Wrong("seed_from_root_grad", edits={
        "    buffers = {first: 1.0}\n":
        "    buffers = {first: root._grad.item() if root._grad is not None else 1.0}  # continue from what is there\n"},
          fails={"accumulation on other inputs": "w.grad after w.backward(); w.backward(); w.backward()"},
          names=("seeds its root with 1 at every call",)),
    Wrong("retain_grad_resets_grad", edits={
        "            self.retains_grad = True\n":
        "            self.retains_grad = True\n            self._grad = None  # a fresh slot for the gradient to keep\n"},
          fails={"accumulation on other inputs": "a.grad after a = w + 1; a.retain_grad(); (a * 2).backward(); "
                                                 "a.retain_grad() is None"},
          names=("retain_grad() on a value that already retains its gradient changes nothing",)),
    Wrong("grad_slot_reused", edits={
        "    if v._grad is None:\n        v._grad = Value(grad)\n":
        "    if v._grad is None:\n        slot = getattr(v, \"_slot\", None)\n        if slot is None:\n"
        "            slot = v._slot = Value(0.0)  # one gradient Value per value, reused\n"
        "        slot._box[0] = grad\n        v._grad = slot\n"},
          fails={"w.grad = None between backward calls": "g.item() after (w * w).backward(); g = w.grad"},
          names=("a Value taken from .grad before keeps its number",)),
]

# ex16's gradient_edge making a new AccumulateGrad at every call: the graph drawn shows both of w's nodes,
# and the note beside difference.svg says so; no replay page is said to follow PyTorch's nodes and edges.
CASES += [
    Wrong("new_accumulator_each_time_since_ex16", edits={
        "    if v._accumulator is None:\n        v._accumulator = AccumulateGrad(v)\n    return v._accumulator, 0":
        "    return AccumulateGrad(v), 0"},
          fails={LOOP: "this stage builds on ex16"},
          names=("ex16", "w * x and w + 1 reach w through two AccumulateGrad nodes"),
          drawn=("w reaches a.grad_fn (AddBackward0) through an AccumulateGrad node of its own",),
          unsaid=("come in another order",)),
]

# ex18's slip carried: backward forgets the retained value once it wrote its gradient; this stage's
# programs, one backward per retain_grad(), would tell it as adding; ex18's gate names the second
# backward that wrote nothing.
CASES += [
    Wrong("retained_forgotten_after_write_since_ex18", edits={
        "            store_grad(node.retained, grad)\n": "            store_grad(node.retained, grad)\n"
                                                         "            node.retained = None\n"},
          fails={LOOP: "this stage builds on ex18"}, names=("writes w.grad but not a.grad",),
          unsaid=("adds a retained non-leaf's gradient to the number",)),
]

# ex17's slip carried: backward empties each node's next_functions once it ran; ex17's gate compares
# the graph before and after a backward, never this stage's rule of adding up.
CASES += [
    Wrong("backward_empties_edges_since_ex17", edits={
        "        for (child, _), g in zip(node.next_functions, grads):\n":
        "        edges, node.next_functions = node.next_functions, ()\n"
        "        for (child, _), g in zip(edges, grads):\n"},
          fails={LOOP: "this stage builds on ex17"}, names=("changes the next_functions of a node of y's graph",),
          unsaid=("nothing of an earlier backward's walk",)),
]

# store_grad hands out one Value per gradient number, kept between calls: two leaves given one
# gradient share one .grad, and an add into one changes the other.  Told as the two leaves' one
# .grad, not only as sums of another number.
CASES += [
    Wrong("grad_value_kept_per_gradient", edits={
        "    if v._grad is None:\n        v._grad = Value(grad)\n":
        "    if v._grad is None:\n        v._grad = _GRADS.setdefault(grad, Value(grad))\n",
        "\ndef store_grad(": "\n_GRADS: dict[float, Value] = {}\n\n\ndef store_grad("},
          fails={LOOP: "u and v two leaves of one number, u.grad and v.grad are two Values in PyTorch, but not in "
                       "your engine"},
          names=("u.grad and v.grad are two Values", "or by the gradient")),
]

# Slips of one's own: a setter that turns None into a zero Value, a backward that clears the leaves'
# gradients before it runs, accumulation written in AccumulateGrad.apply (store_grad left as ex18's,
# so a retained non-leaf is overwritten).
CASES += [
    Wrong("setter_turns_none_to_zero", edits={
        "    def _set_grad(self, value: Value | None) -> None:\n        self._grad = value\n":
        "    def _set_grad(self, value: Value | None) -> None:\n        self._grad = Value(0.0) if value is None else value\n"},
          fails={"w.grad = None between backward calls": "w.grad after w.grad = None is not None"},
          names=("the grad property's setter keeps what it is given",)),
    Wrong("backward_clears_leaf_grads", edits={
        "    waiting = dependencies(first)\n":
        "    waiting = dependencies(first)\n    for node in waiting:\n        if isinstance(node, AccumulateGrad):\n"
        "            node.variable._grad = None\n"},
          fails={LOOP: "w.grad after the second backward of w * x + w is a different number"},
          names=("w.grad after the second backward", "add its gradient")),
    Wrong("accumulates_in_accumulate_grad", edits={
        "        store_grad(self.variable, grad)\n        return ()\n":
        "        if self.variable._grad is None:\n            store_grad(self.variable, grad)\n        else:\n"
        "            self.variable._grad._box[0] += grad\n        return ()\n",
        WRITE: "    v._grad = Value(grad)"},
          fails={LOOP: "a.grad after a = w + x; a.retain_grad(); (a * x).backward(); (a * w).backward() is a "
                       "different number"},
          names=("left .grad holding that gradient alone",)),  # store_grad's own overwrite, told where it is
    Correct("sum_made_by_add", edits={WRITE: "    if v._grad is None:\n        v._grad = Value(grad)\n    else:\n"
                                             "        v._grad = v._grad + grad"}),
    Correct("zero_with_a_new_box", edits={ZERO_BODY: "        self._box = [0.0]\n        return self"}),
]

# ex18's backward giving every root its seed in .grad: from this stage on store_grad adds, and a
# retained root gets it twice; ex18's gate names y.grad.  ex18's backward writing a retained a.grad
# itself, past store_grad: told by the sum a later backward did not make.  A zero_() that counts a
# version, as PyTorch's in-place zero_() does: right.
CASES += [
    Wrong("root_given_its_seed_since_ex18", edits={
        "    buffers = {first: 1.0}\n": "    buffers = {first: 1.0}\n    if root.grad_fn is not None:\n"
                                       "        store_grad(root, 1.0)\n"},
          fails={LOOP: "this stage builds on ex18"},
          names=("ex18", "is not the gradient backward starts from at y")),
    Wrong("retained_written_past_store_grad", edits={  # ex18's backward writing a.grad itself: no sum
        "            store_grad(node.retained, grad)\n": "            node.retained._grad = Value(grad)\n"},
          fails={LOOP: "a.grad after a = w + x; a.retain_grad(); (a * x).backward(); (a * w).backward() is a "
                       "different number from PyTorch's: that backward changed the retained non-leaf's .grad without "
                       "handing it to store_grad"},
          names=("without handing it to store_grad", "adds to a.grad in PyTorch, but not in your engine: that backward"),
          unsaid=("your store_grad, handed",  # store_grad never saw a: not the sum lost inside it
                  "adds a retained non-leaf's gradient")),  # nor the rule of the sum: where it went missing is told
    Correct("zero_counts_a_version", edits={ZERO_BODY: "        self._box[0] = 0.0\n        self._versions[0] += 1\n"
                                                       "        return self"}),
]

# State kept between calls in a mutable default argument or a module's list (zero_'s one place, dependencies'
# counts, the nodes backward ran), leaves found by == in a list, a backward that starts each retained .grad anew:
# each told by what it did (the place two zeroed gradients share, the nodes a later backward skipped, the .grad
# dropped before store_grad was handed the value), not by the sums it spoiled alone.
ZERO_DEF = "    def zero_(self) -> Value:\n"
DEPENDENCIES = "def dependencies(root: Node) -> dict[Node, int]:\n"
CASES += [
    Wrong("zero_default_box", edits={  # every Value zero_ zeroes pointed at a mutable default's one place
        ZERO_DEF: "    def zero_(self, _zero=[0.0]) -> Value:\n",
        ZERO_BODY: "        _zero[0] = 0.0\n        self._box = _zero\n        return self"},
          fails={LOOP: "leaves x.grad as zero_() left it in PyTorch, but not in your engine",
                 ZERO: "leaves x.grad as zero_() left it in PyTorch, but not in your engine"},
          names=("leaves x.grad as zero_() left it", "of no other")),
    Wrong("dependencies_default_counts", edits={  # counts kept in a mutable default: a leaf's node counted at each call
        DEPENDENCIES: "def dependencies(root: Node, counts: dict = {}) -> dict[Node, int]:\n",
        "    counts: dict[Node, int] = {root: 0}\n": "    counts[root] = 0\n"},
          fails={LOOP: "this stage builds on ex17"},
          names=("dependencies(y.grad_fn)", "keeping nothing from an earlier call")),
    Wrong("written_leaves_found_by_equality", edits={  # a new leaf holding an earlier one's number is "in" the list
        "    def item(self) -> float:\n": "    def __eq__(self, other):\n"
                                         "        return isinstance(other, Value) and self.item() == other.item()\n\n"
                                         "    __hash__ = object.__hash__\n\n    def item(self) -> float:\n",
        "    if v._grad is None:\n        v._grad = Value(grad)\n    elif v.is_leaf:":
        "    if v not in _WRITTEN:\n        _WRITTEN.append(v)\n        v._grad = Value(grad)\n    elif v.is_leaf:",
        "    def _set_grad(self, value: Value | None) -> None:\n        self._grad = value":
        "    def _set_grad(self, value: Value | None) -> None:\n        if value is None and self in _WRITTEN:\n"
        "            _WRITTEN.remove(self)\n        self._grad = value",
        "\n\ndef store_grad(": "\n\n_WRITTEN = []  # the values store_grad gave a .grad\n\n\ndef store_grad("},
          fails={LOOP: "in store_grad"},  # the error store_grad raised, told where it was raised, then its cause
          names=("AttributeError", "in store_grad", "your engine takes v for u because they hold one number")),
    Wrong("backward_clears_retained_grads", edits={  # a retained gradient taken for one backward's own
        "    waiting = dependencies(first)\n": "    waiting = dependencies(first)\n    for node in waiting:\n"
                                             "        if node.retained is not None:\n"
                                             "            node.retained._grad = None\n"},
          fails={LOOP: "the earlier gradient was dropped before the sum was made",
                 "w.grad = None between backward calls": "adds to a.grad in PyTorch, but not in your engine: the "
                                                         "retained non-leaf's .grad held a number"},
          names=("held a number when that backward started", "None when it handed the value to store_grad")),
    Wrong("ran_nodes_default_set", edits={  # the nodes run kept in a mutable default set, never run again
        "def backward(root: Value, retain_graph: bool = False) -> None:":
        "def backward(root: Value, retain_graph: bool = False, done: set = set()) -> None:",
        "        node = heapq.heappop(ready)[2]\n": "        node = heapq.heappop(ready)[2]\n"
                                                 "        if node in done:\n            continue  # never twice\n"
                                                 "        done.add(node)\n"},
          fails={LOOP: "The list of nodes that (a * w).backward() ran after (a * x).backward() has fewer entries"},
          names=("(a * w).backward() ran", "the nodes it ran"),
          unsaid=("A backward that starts at a leaf adds into its .grad", "nothing of the dropped gradient is kept",
                  "never to a sum kept apart from it")),
]

# The buffers of gradients kept between calls, never popped (ex17's slip carried on): in a module-level dict, or a
# mutable default argument.  w's AccumulateGrad, shared by the backward calls of every test, is handed what earlier
# calls sent too: told as state kept between calls, by what the nodes' applies returned, not as store_grad's sum.
SENT_AGAIN = "had the nodes' apply calls return other gradients than the first backward did"
CASES += [
    Wrong("buffers_in_a_module_dict_since_ex17", fails={LOOP: SENT_AGAIN, ZERO: SENT_AGAIN},
          names=("state kept between calls", "apply calls"),
          unsaid=("store_grad adds to the number .grad holds", "A backward that starts at a leaf adds into its .grad"),
          edits={"    buffers = {first: 1.0}\n": "    buffers = _BUFFERS\n    buffers[first] = buffers.get(first, 0.0) + 1.0\n",
                 "        grad = buffers.pop(node)\n": "        grad = buffers[node]\n",
                 "def backward(root: Value, retain_graph: bool = False) -> None:\n":
                 "_BUFFERS: dict = {}\n\n\ndef backward(root: Value, retain_graph: bool = False) -> None:\n"}),
    Wrong("buffers_a_mutable_default_since_ex17", fails={LOOP: SENT_AGAIN}, names=("state kept between calls",),
          unsaid=("zero_() sets it to 0 in place", "store_grad adds to the number .grad holds"),
          edits={"def backward(root: Value, retain_graph: bool = False) -> None:\n":
                 "def backward(root: Value, retain_graph: bool = False, buffers: dict = {}) -> None:\n",
                 "    buffers = {first: 1.0}\n": "    buffers[first] = 1.0\n",
                 "        grad = buffers.pop(node)\n": "        grad = buffers[node]\n"}),
]

# ex17's backward pairing apply's gradients with the entries that hold a node alone, (None, 0) left out: no program of
# this stage puts a constant first, so ex17's gate tells it, naming backward.
CASES += [
    Wrong("gradients_zipped_with_node_entries_alone_since_ex17", edits={
        "        for (child, _), g in zip(node.next_functions, grads):\n            if child is None:\n                continue\n":
        "        edges = [edge for edge in node.next_functions if edge[0] is not None]\n"
        "        for (child, _), g in zip(edges, grads):\n"},
          fails={LOOP: "gives w the gradient y.grad_fn.apply returned first, for c"},
          names=("y = c * w", "in its place", "backward")),
]

# ex18's grad getter that never warns: no program of this stage reads a non-leaf's .grad that is not retained, so
# ex18's gate tells it, naming the read.
CASES += [
    Wrong("never_warns_since_ex18", edits={
        "            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)\n": "            pass\n"},
          fails={LOOP: "a non-leaf that does not retain its grad, issues no warning"},
          names=("ex18", "(w * 6).grad", "UserWarning")),
]

# a leaf's later gradient added into a new Value of the gradient itself (the sum lost, the gradient doubled);
# zero_() that also drops the Value's own .grad (None for a gradient's Value): full marks
CASES += [
    Wrong("leaf_grad_made_anew_then_added", edits={
        "    elif v.is_leaf:\n        v._grad._box[0] += grad\n":
        "    elif v.is_leaf:\n        v._grad = Value(grad)\n        v._grad._box[0] += grad\n"},
          fails={LOOP: "w.grad after the third backward of w * x + w is a different number from PyTorch's; the same holds "
                       "with x.grad in place of w.grad"},
          names=("w.grad after", "into .grad")),
    Correct("zero_also_drops_its_own_grad", edits={"        self._box[0] = 0.0\n        return self\n":
                                                    "        self._box[0] = 0.0\n        self._grad = None\n        return self\n"}),
]

# ex17's buffers keyed by node.name(), read with get and never emptied: the gate tells the key and that each leaf
# of a new y = w * x got both gradients
CASES += [
    Wrong("gate_buffers_keyed_by_name_never_emptied", edits={
        "    buffers = {first: 1.0}\n": "    buffers = {first.name(): 1.0}\n",
        "        grad = buffers.pop(node)\n": "        grad = buffers.get(node.name(), 0.0)\n",
        "            buffers[child] = buffers.get(child, 0.0) + g\n":
        "            buffers[child.name()] = buffers.get(child.name(), 0.0) + g\n"},
          fails={LOOP: "gives each of the two leaves the gradients sent to both leaves' AccumulateGrad nodes, summed"},
          names=("a dict in your backward holds, as a key, the name() of those two nodes", "one buffer")),
]
