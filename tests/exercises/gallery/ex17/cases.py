"""ex17 gallery: plausible wrong backward passes and correct variants (format: gallery_case.py)."""

from gallery_case import Correct, Wrong

DOCS = "backward through the documents' graph"
DIAMONDS = "shared nodes and diamonds"
CHAIN = "a chain of 5000 operations"
START = '''    first, _ = gradient_edge(root)
    waiting = dependencies(first)'''
RECURSIVE = '''    def visit(node, grad):
        for (child, _), g in zip(node.next_functions, node.apply(grad)):
            if child is not None:
                visit(child, g)
    visit(gradient_edge(root)[0], 1.0)
    return
'''
CONSTANTS = "inputs that require no grad"
MUL_APPLY = '''        return (grad * self.unpack("other").item() if "other" in self.saved else 0.0,
                grad * self.unpack("self").item() if "self" in self.saved else 0.0)'''
DEPENDENCIES = '''    counts: dict[Node, int] = {root: 0}
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
RECURSIVE_DEPENDENCIES = '''    counts: dict[Node, int] = {root: 0}

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
ORDER = "gradients summed in PyTorch's order"
PUSH = "heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))"
TOPOLOGICAL_WITHOUT_VISITED = '''    topo, stack = [], [(gradient_edge(root)[0], False)]
    while stack:
        node, children_done = stack.pop()
        if children_done:
            topo.append(node)
            continue
        stack.append((node, True))
        stack.extend((child, False) for child, _ in node.next_functions if child is not None)
    buffers = {topo[-1]: 1.0}
    for node in reversed(topo):
        for (child, _), g in zip(node.next_functions, node.apply(buffers.get(node, 0.0))):
            if child is not None:
                buffers[child] = buffers.get(child, 0.0) + g
    return
'''
CASES = [
    Wrong("buffer_overwritten", edits={  # the last gradient to arrive replaces the others: no sum at all
        "            buffers[child] = buffers.get(child, 0.0) + g\n": "            buffers[child] = g\n"},
          fails={"gradients summed in PyTorch's order": "w.grad for y = w * 2 + w * 3 is a different number"},
          names=("never with the last one to arrive alone",), unsaid=("a floating-point sum depends on the order",)),
    Wrong("skips_zero_gradients", edits={  # "nothing flows": a node sent only zeros is never woken
        "            buffers[child] = buffers.get(child, 0.0) + g\n":
        "            if g == 0.0 and child not in buffers:\n                waiting[child] -= 1\n"
        "                if waiting[child] == 0 and child in buffers:\n"
        "                    heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))\n"
        "                continue\n            buffers[child] = buffers.get(child, 0.0) + g\n"},
          fails={"backward on other inputs": "your engine never ran b.grad_fn: every gradient sent to it was 0"},
          names=("never ran b.grad_fn", "whatever gradient reached it, 0 too")),
    Wrong("ex16_recording_asks_the_first_input", edits={  # an ex16 part: c * w, c requiring no grad, unrecorded
        "    return any(v.requires_grad for v in inputs)\n": "    return inputs[0].requires_grad\n"},
          fails={CONSTANTS: "c * w, c a Value that requires no grad, records no node"},
          names=("ex16's part of the engine", "as soon as one of its inputs requires grad")),
    Wrong("seeded_with_the_root_number", edits={"    buffers = {first: 1.0}": "    buffers = {first: root.item()}"},
          fails={DOCS: "y.backward(), y = w * x, starts y.grad_fn with the gradient 1 in PyTorch, but not in your engine"},
          names=("starts y.grad_fn with the gradient 1", "whatever number the root holds")),
    Wrong("ex16_new_accumulator_each_time", edits={  # ex16's part: two AccumulateGrad(w) nodes, each run once
        "    if v._accumulator is None:\n        v._accumulator = AccumulateGrad(v)\n": "    v._accumulator = AccumulateGrad(v)\n"},
          fails={DOCS: "w * x and w + 1 reach w through two AccumulateGrad nodes"},
          names=("gradient_edge", "two AccumulateGrad nodes", "ex16")),
    Wrong("one_grad_value_for_every_leaf", edits={  # store_grad reuses one Value: every leaf's .grad is it
        "    v._grad = Value(grad)\n": "    _SHARED._box[0] = grad\n    v._grad = _SHARED\n",
        "def store_grad(": "_SHARED = Value(0.0)\n\n\ndef store_grad("},
          fails={DOCS: "After y.backward(), y = w * x, w.grad and x.grad are two Values in PyTorch, but not in your engine"},
          names=("w.grad and x.grad are two Values", "store_grad must make a new Value")),
    Wrong("ex16_mul_saved_numbers", edits={'out.grad_fn.save("other", other)': 'out.grad_fn.save("other", other.item())',
                                           'out.grad_fn.save("self", self)': 'out.grad_fn.save("self", self.item())'},
          fails={DOCS: "ex16's part of the engine does not work in"},  # ex16's part, not "this stage's part":
          # apply reads what ex16 saved, and none of this stage's functions runs in ex16's check
          names=("ex16", "does not save w and x themselves")),
    Wrong("ex16_save_conditions_swapped", edits={  # ex16's part: "other" saved when other requires grad
        "            if self.requires_grad:\n                out.grad_fn.save(\"other\", other)\n"
        "            if other.requires_grad:\n                out.grad_fn.save(\"self\", self)\n":
        "            if other.requires_grad:\n                out.grad_fn.save(\"other\", other)\n"
        "            if self.requires_grad:\n                out.grad_fn.save(\"self\", self)\n"},
          fails={DOCS: "w * 3 does not save 3 as \"other\""},
          names=("ex16's part of the engine", "the factor w's gradient needs"),
          unsaid=("a floating-point sum depends on the order of its terms",)),
    Wrong("ex16_mul_skips_a_zero_factor", edits={  # ex16's part: an operand beside a 0 left unsaved
        "            if self.requires_grad:\n                out.grad_fn.save(\"other\", other)\n"
        "            if other.requires_grad:\n                out.grad_fn.save(\"self\", self)\n":
        "            if self.requires_grad and other.item() != 0:\n                out.grad_fn.save(\"other\", other)\n"
        "            if other.requires_grad and self.item() != 0:\n                out.grad_fn.save(\"self\", self)\n"},
          fails={DOCS: "w * z, z a leaf holding 0, does not save w and z themselves"},
          names=("ex16's part of the engine", "an operand is saved whatever its number")),
    Wrong("ex16_edges_reversed", edits={  # ex16's part: next_functions in reversed input order
        "out.grad_fn = op(tuple(gradient_edge(v) for v in inputs))":
        "out.grad_fn = op(tuple(gradient_edge(v) for v in reversed(inputs)))"},
          fails={DOCS: "in the number 3's place"},
          names=("ex16's part of the engine", "another order than the inputs"),
          unsaid=("has no edge to c's AccumulateGrad",)),
    Wrong("ex16_edges_only_for_grad_inputs", edits={  # ex16's part: no (None, 0) entry for a constant
        "out.grad_fn = op(tuple(gradient_edge(v) for v in inputs))":
        "out.grad_fn = op(tuple(gradient_edge(v) for v in inputs if v.requires_grad))"},
          fails={DOCS: "has another number of entries in next_functions than its two inputs"},
          names=("ex16's part of the engine", "entries in next_functions"),
          unsaid=("still has an edge to w's AccumulateGrad",)),
    Wrong("ex16_records_only_when_every_input_requires_grad", edits={
        "    return any(v.requires_grad for v in inputs)\n": "    return all(v.requires_grad for v in inputs)\n"},
          fails={DOCS: "w * 2 + 1 records no node, though w requires grad"},
          names=("ex16's part of the engine", "records no node"),
          unsaid=("over the right number",)),
    Wrong("ex16_add_zero_is_self", edits={  # ex16's part: w + 0 hands back w, no node
        "        other = as_value(other)\n        return record(AddBackward0,":
        "        if not isinstance(other, Value) and other == 0:\n            return self\n"
        "        other = as_value(other)\n        return record(AddBackward0,"},
          fails={DOCS: "w + 0 or w * 1 is w itself"},
          names=("ex16's part of the engine", "a new value with a node of its own")),
    Wrong("recursive_every_path", edits={START: RECURSIVE + START},
          fails={DOCS: "w.grad for y = (x + w) * (w + 1) is a different number",
                 CHAIN: "RecursionError",
                 ORDER: "your engine ran AccumulateGrad(w) before b.grad_fn, although b.grad_fn sends it a gradient"},
          names=("w.grad", "run each node once")),
    Wrong("recursive_accumulating", edits={START: RECURSIVE + START,
                                           "    v._grad = Value(grad)\n": "    v._grad = Value(grad + (v._grad.item() if v._grad is not None else 0.0))\n"},
          fails={CHAIN: "RecursionError"}, names=("RecursionError",)),
    Wrong("buffers_overwritten", edits={"buffers[child] = buffers.get(child, 0.0) + g": "buffers[child] = g"},
          fails={DOCS: "w.grad for y = (x + w) * (w + 1) is a different number"}, names=("w.grad", "summed")),
    Wrong("mul_gradients_swapped", edits={MUL_APPLY: '''        return (grad * self.unpack("self").item() if "self" in self.saved else 0.0,
                grad * self.unpack("other").item() if "other" in self.saved else 0.0)'''},
          fails={DOCS: "w.grad for y = w * x is a different number from PyTorch's"},
          names=("w.grad for y = w * x", "MulBackward0.apply sends each input the gradient times the other input")),
    Wrong("counts_nodes_not_edges", edits={'''            if child not in counts:
                counts[child] = 0
                stack.append(child)
            counts[child] += 1''': '''            if child not in counts:
                counts[child] = 1
                stack.append(child)'''},
          fails={DOCS: "your engine ran AccumulateGrad(w) before a.grad_fn, although a.grad_fn sends it",
                 DIAMONDS: "your engine ran AccumulateGrad(w) before h.grad_fn, although h.grad_fn sends it",
                 CONSTANTS: "your engine ran AccumulateGrad(w) before (c * w).grad_fn",
                 ORDER: "before a.grad_fn, although a.grad_fn sends it"},
          names=("AccumulateGrad(w) before a.grad_fn", "dependencies counts the edges that reach each node")),
    Wrong("add_sends_one_gradient", edits={"        return grad, grad\n": "        return (grad,)\n"},
          fails={DOCS: "x.grad for y = w + x is None, where PyTorch's is not",  # h's node never ready: no apply advice
                 DIAMONDS: "AddBackward0.apply sends the gradient it receives, unchanged, to both inputs",
                 ORDER: "s.grad_fn's apply returned fewer gradients than s.grad_fn has edges, so an edge of it "
                        "into d.grad_fn got none"},  # the gradients that did reach d happen to be 0 there
          names=("x.grad for y = w + x", "AddBackward0.apply", "returned fewer gradients than"),
          unsaid=("by calling its apply", "every gradient sent to it was 0", "through two edges")),
    Wrong("grad_kept_as_a_float", edits={"    v._grad = Value(grad)\n": "    v._grad = grad\n"},
          fails={DOCS: "w.grad is None or a Value like w in PyTorch, but not in your engine"},
          names=("w.grad", "AccumulateGrad writes a Value into the leaf's .grad")),
    Wrong("grad_that_requires_grad", edits={"    v._grad = Value(grad)\n": "    v._grad = Value(grad, requires_grad=v.requires_grad)\n"},
          fails={DOCS: "w.grad.requires_grad for y = (x + w) * (w + 1) is True, unlike PyTorch's"},
          names=("w.grad.requires_grad", "store_grad", "requires no grad")),
    Wrong("accumulate_grad_stores_on_itself", edits={"        store_grad(self.variable, grad)": "        store_grad(self, grad)"},
          fails={DOCS: "w.grad after (w * x).grad_fn.next_functions[0][0].apply(grad) is None, where PyTorch's is not"},
          names=("AccumulateGrad.apply", "store_grad(self.variable, grad)")),  # never "goes wrong in backward itself"
    Wrong("buffers_summed_with_fsum", edits={  # the run order is PyTorch's; the arrivals are summed exactly, at once
        "            buffers[child] = buffers.get(child, 0.0) + g":
        "            buffers.setdefault(child, []).append(g)",
        "        grad = buffers.pop(node)": "        grad = buffers.pop(node)\n        grad = math.fsum(grad) if type(grad) is list else grad",
        "import heapq": "import heapq\nimport math"},
          fails={"gradients summed in PyTorch's order": "w.grad for y = (w * 1e17 + w * 3) + w * -1e17 is a different number"},
          names=("w.grad for y", "as it arrives, one at a time")),
    Wrong("mul_reads_both_saved", edits={MUL_APPLY: '''        return (grad * self.unpack("other").item(), grad * self.unpack("self").item())'''},
          fails={CONSTANTS: "KeyError"}, names=("KeyError", "unpack, called from", "apply")),
    Wrong("dependencies_by_recursion", edits={DEPENDENCIES: RECURSIVE_DEPENDENCIES},
          fails={CHAIN: "RecursionError"}, names=("RecursionError", "in visit")),
    Wrong("dependencies_by_recursion_limit_raised", edits={
        "import heapq\n": "import heapq\nimport sys\n\nsys.setrecursionlimit(100_000)\n",
        DEPENDENCIES: RECURSIVE_DEPENDENCIES},
          fails={CHAIN: "RecursionError"}, names=("RecursionError", "in visit")),
    Wrong("fifo_queue", edits={PUSH: "heapq.heappush(ready, (0, next(pushed), child))"},
          fails={ORDER: "in the order backward ran them holds PyTorch's entries, but in another order"},
          names=("w.grad for y = (w * 1e17", "highest sequence_nr first")),
    Wrong("oldest_first", edits={PUSH: "heapq.heappush(ready, (child.sequence_nr, next(pushed), child))"},
          fails={ORDER: "is a different number from PyTorch's"}, names=("u.grad for y = (u * 3", "the highest sequence_nr first (the newest)")),
    Wrong("topological_order_without_visited", edits={START: TOPOLOGICAL_WITHOUT_VISITED + START},
          fails={DIAMONDS: "w.grad for h = w * w, y = (h + h) * (h * w) is a different number"},
          names=("w.grad", "run each node once")),
    Wrong("starts_at_grad_fn", edits={"    first, _ = gradient_edge(root)\n": "    first = root.grad_fn\n"},
          fails={"backward from a leaf": "AttributeError"}, names=("in dependencies, called from backward", "'NoneType' object has no attribute 'next_functions'")),
    Wrong("newest_pushed_first", edits={PUSH: "heapq.heappush(ready, (-next(pushed), 0, child))"},
          fails={ORDER: "the list of the nodes of z = n * m, m = v + 1, n = k + v, in the order backward ran them holds PyTorch's entries, but in another order"},
          names=("in the order backward ran them", "highest sequence_nr")),
    Wrong("own_dispatch_table", edits={  # runs each node, but never through its apply: unwatched
        "        grads = node.apply(grad)\n": "        grads = RULES[type(node)](node, grad)\n",
        "\n\ndef backward(": "\n\nRULES = {AccumulateGrad: AccumulateGrad.apply, AddBackward0: AddBackward0.apply, "
                           "MulBackward0: MulBackward0.apply}\n\n\ndef backward("},
          fails={ORDER: "your engine never called y.grad_fn's apply, so the order it ran the nodes in could not be watched"},
          names=("never called", "by calling its apply")),
    Wrong("dependencies_counted_from_one", edits={"                counts[child] = 0\n                stack.append(child)":
                                                  "                counts[child] = 1\n                stack.append(child)"},
          fails={DOCS: "w.grad for y = w * x is None, where PyTorch's is not"},  # no apply is blamed: none ran
          names=("w.grad for y = w * x", "dependencies counts them")),
    Wrong("seeded_with_the_root_number_read_at_w", edits={"    buffers = {first: 1.0}": "    buffers = {first: root.item()}"},
          fails={DOCS: "w.grad for y = w * x is a different number"},
          names=("w.grad for y = w * x", "starts the root's node with the gradient 1")),
    Wrong("mul_sends_other_to_both", edits={
        '                grad * self.unpack("self").item() if "self" in self.saved else 0.0)':
        '                grad * self.unpack("other").item() if "self" in self.saved else 0.0)'},
          fails={DOCS: "y.grad_fn.apply(grad) for y = w * x are all the same"},
          names=("y.grad_fn.apply(grad) for y = w * x", "MulBackward0.apply sends each input")),
    Wrong("ready_before_the_last_gradient", edits={"            if waiting[child] == 0:": "            if waiting[child] <= 1:"},
          fails={DOCS: "w.grad for y = (x + w) * (w + 1) is a different number"},
          names=("w.grad for y = (x + w) * (w + 1)", "ran some node more than once",
                 "only after every node that sends it a gradient has run")),
    Correct("accumulate_grad_written_by_backward", edits={  # leaves' runs seen from their .grad
        "        grads = node.apply(grad)\n": "        if isinstance(node, AccumulateGrad):\n            store_grad(node.variable, grad)\n"
                                           "            continue\n        grads = node.apply(grad)\n"}),
    Correct("sorted_list_last_pushed_first_among_ties", edits={  # ready AccumulateGrads: any order
        "    ready = [(-first.sequence_nr, 0, first)]\n": "    ready = [first]\n",
        "        node = heapq.heappop(ready)[2]\n": "        ready.sort(key=lambda n: n.sequence_nr)\n        node = ready.pop()\n",
        PUSH: "ready.append(child)"}),
    Correct("apply_called_through_the_class", edits={  # the order is watched however apply is called
        "        grads = node.apply(grad)\n": "        grads = type(node).apply(node, grad)\n"}),
    Correct("accumulating_write", edits={"    v._grad = Value(grad)\n": '''    if v._grad is None:
        v._grad = Value(grad)
    else:
        v._grad = Value(v._grad.item() + grad)
'''}),
    # ties among the ready nodes broken by id(node) instead of a counter: AccumulateGrads run in another order, each once
    Correct("heap_tie_broken_by_id", edits={
        "    ready = [(-first.sequence_nr, 0, first)]\n    pushed = itertools.count(1)\n": "    ready = [(-first.sequence_nr, id(first), first)]\n",
        "                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))": "                heapq.heappush(ready, (-child.sequence_nr, id(child), child))"}),
]

# One .grad Value per gradient number, kept between calls: two leaves with equal gradients (in
# one backward or two) share one object, which a write into one changes for the other.
CASES += [
    Wrong("grad_value_per_number", edits={
        "    v._grad = Value(grad)\n": "    v._grad = _GRADS.setdefault(grad, Value(grad))\n",
        "\ndef store_grad(": "\n_GRADS: dict[float, Value] = {}\n\n\ndef store_grad("},
          fails={DOCS: "u and v two leaves of one number, u.grad and v.grad are two Values in PyTorch, but not in your engine"},
          names=("u.grad and v.grad are two Values", "one per number")),
]

# dependencies keeping the nodes it walked in a module-level set: a second walk of one graph
# pushes none of them, so a second backward through it fails.
CASES += [
    Wrong("nodes_walked_kept_between_calls", edits={
        "            if child not in counts:\n                counts[child] = 0\n                stack.append(child)\n"
        "            counts[child] += 1\n":
        "            if child not in _WALKED:\n                _WALKED.add(child)\n                stack.append(child)\n"
        "            counts[child] = counts.get(child, 0) + 1\n",
        "\ndef dependencies(": "\n_WALKED: set = set()\n\n\ndef dependencies("},
          fails={DIAMONDS: "y.backward(), y = (d + d) + w, d = w + x (a second time, after a first backward) raised KeyError"},
          names=("a second time", "dependencies keeps nothing between calls")),
]

# apply asked again when it returned no gradients (an AccumulateGrad's empty tuple): every leaf's
# node runs twice in a row, whatever the paths reaching it; not a walk once per path.
CASES += [
    Wrong("leaf_apply_asked_again", edits={
        "        grads = node.apply(grad)\n": "        grads = node.apply(grad)\n        if not grads:\n"
                                             "            grads = node.apply(grad)\n"},
          fails={DOCS: "called the apply of AccumulateGrad(x) twice in a row"},
          names=("AccumulateGrad(x) twice in a row", "calls each node's apply once"), unsaid=("once per path",)),
]

# dependencies recursive after raising the limit inside the call: the chain's backward gets through
# on Python 3.11; the walk itself is what the statement forbids, and what is told.
CASES += [
    Wrong("dependencies_by_recursion_limit_raised_in_call", edits={
        "import heapq\n": "import heapq\nimport sys\n",
        DEPENDENCIES: "    sys.setrecursionlimit(max(sys.getrecursionlimit(), 100_000))\n" + RECURSIVE_DEPENDENCIES},
          fails={CHAIN: "Backward through a long chain (5000 operations) runs without recursion in PyTorch, but not in your engine"},
          names=("without recursion", "never by calling themselves")),
]

# ex16's part: gradient_edge gives every leaf (None, 0), no AccumulateGrad; the gate tells it, and
# the diagram's note says what x's place holds, not that a value requiring no grad stands there.
CASES += [
    Wrong("ex16_no_accumulator_for_leaves", edits={
        "    if v._accumulator is None:\n        v._accumulator = AccumulateGrad(v)\n    return v._accumulator, 0":
        "    return None, 0"},
          fails={DOCS: "this stage builds on ex16"},
          names=("ex16", "AccumulateGrad"), unsaid=("a value that requires no grad stands",)),
]

# ex16's part: MulBackward0 saves the right Values under each other's names; the gate says so,
# not that the Values themselves were not saved.
CASES += [
    Wrong("ex16_mul_saves_under_swapped_names", edits={
        'out.grad_fn.save("other", other)': 'out.grad_fn.save("self", other)',
        'out.grad_fn.save("self", self)': 'out.grad_fn.save("other", self)'},
          fails={DOCS: "this stage builds on ex16"}, names=("ex16", "under the other's name"),
          unsaid=("themselves, the Values",)),
]

# ex16's slips carried: edges kept in a list, and an AddBackward0 that saves its operands, pass
# every program of this stage; ex16's gate reads the edges' type and what the sum saved.
CASES += [
    Wrong("edges_in_a_list_since_ex16",
          edits={"        out.grad_fn = op(tuple(gradient_edge(v) for v in inputs))":
                 "        out.grad_fn = op([gradient_edge(v) for v in inputs])"},
          fails={DOCS: "this stage builds on ex16"}, names=("ex16", "(w * x).grad_fn.next_functions is not a tuple")),
    Wrong("add_saves_its_operands_since_ex16",
          edits={"        return record(AddBackward0, self.item() + other.item(), self, other)":
                 "        out = record(AddBackward0, self.item() + other.item(), self, other)\n"
                 "        if out.grad_fn is not None:\n"
                 "            out.grad_fn.save(\"self\", self)\n"
                 "            out.grad_fn.save(\"other\", other)\n"
                 "        return out"},
          fails={DOCS: "this stage builds on ex16"}, names=("ex16", "AddBackward0 saves nothing")),
]

# The ready list pushed in reverse edge order: only two AccumulateGrad nodes one node makes ready
# together change places, and the statement leaves their order among themselves open.
CASES += [
    Correct("push_children_reversed", edits={"        for (child, _), g in zip(node.next_functions, grads):":
                                             "        for (child, _), g in reversed(list(zip(node.next_functions, grads))):"}),
]

# backward taking one off a child's dependency count once per node that sends it gradients, where
# dependencies counted one per edge: a node two edges of one node reach (h + h) never runs.
CASES += [
    Wrong("count_taken_down_once_per_node", edits={
        "            buffers[child] = buffers.get(child, 0.0) + g\n            waiting[child] -= 1\n"
        "            if waiting[child] == 0:\n                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))\n":
        "            buffers[child] = buffers.get(child, 0.0) + g\n"
        "        for child in {child for child, _ in node.next_functions if child is not None}:\n"
        "            waiting[child] -= 1\n"
        "            if waiting[child] == 0:\n                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))\n"},
          fails={DIAMONDS: "your engine never ran h.grad_fn (never called its apply), although every node that sends it a "
                           "gradient ran, (h + h).grad_fn through two edges",
                 CONSTANTS: "your engine never ran AccumulateGrad(w) (never called its apply), although every node that "
                            "sends it a gradient ran, (w * w).grad_fn through two edges"},
          names=("through two edges", "dependency count is one for each edge"),
          unsaid=("the grader watches the order nodes run through apply",)),
]

# ex16's slip carried: gradient_edge gives a leaf that requires grad (the leaf itself, 0), for every
# leaf: the gate names that entry of w * x, not only a leaf set to require grad after it was made.
CASES += [
    Wrong("leaf_edge_to_the_value_itself_since_ex16",
          edits={"    if v._accumulator is None:\n        v._accumulator = AccumulateGrad(v)\n    return v._accumulator, 0":
                 "    return v, 0"},
          fails={DOCS: "this stage builds on ex16"}, names=("ex16", "is the leaf w itself", "gradient_edge"),
          unsaid=("set to require grad after it was made", "is a non-leaf that does not retain its grad")),
]

# ex16's slip carried, in record: a leaf's entry made as (the leaf itself, 0), where the file's
# gradient_edge (right) gives its AccumulateGrad; the gate names record, not gradient_edge.
CASES += [
    Wrong("record_puts_the_leaf_itself_since_ex16",
          edits={"        out.grad_fn = op(tuple(gradient_edge(v) for v in inputs))":
                 "        out.grad_fn = op(tuple((v, 0) if v.is_leaf else gradient_edge(v) for v in inputs))"},
          fails={DOCS: "though gradient_edge(w) gives w's AccumulateGrad node: record makes each entry"},
          names=("ex16", "is the leaf w itself", "record"),
          unsaid=("gradient_edge gives a leaf its AccumulateGrad node, not the leaf",)),
]

# backward's buffers keyed by node.name(): every AccumulateGrad is "torch::autograd::AccumulateGrad", so
# in y = w * x one leaf takes both gradients, summed, and the other 0; told as that one buffer.
CASES += [
    Wrong("buffers_keyed_by_name",
          edits={"    buffers = {first: 1.0}\n": "    buffers = {first.name(): 1.0}\n",
                 "        grad = buffers.pop(node)\n": "        grad = buffers.pop(node.name(), 0.0)\n",
                 "            buffers[child] = buffers.get(child, 0.0) + g\n":
                 "            buffers[child.name()] = buffers.get(child.name(), 0.0) + g\n"},
          fails={DOCS: "a dict in your backward holds, as a key, the name() of those two nodes",
                 DIAMONDS: "one buffer"},
          names=("your backward", "the name() of those two nodes", "one buffer", "a buffer of its own"),
          unsaid=("such as node.name() or node.sequence_nr",)),
    Wrong("buffers_keyed_by_sequence_nr",  # every AccumulateGrad's sequence_nr is the same: told as the name's
          edits={"    buffers = {first: 1.0}\n": "    buffers = {first.sequence_nr: 1.0}\n",
                 "        grad = buffers.pop(node)\n": "        grad = buffers.pop(node.sequence_nr, 0.0)\n",
                 "            buffers[child] = buffers.get(child, 0.0) + g\n":
                 "            buffers[child.sequence_nr] = buffers.get(child.sequence_nr, 0.0) + g\n"},
          fails={DOCS: "one buffer"},
          names=("your backward", "the sequence_nr of those two nodes", "one buffer", "a buffer of its own"),
          unsaid=("such as node.name() or node.sequence_nr",)),
    # ... read with get and never emptied: each leaf's node is handed the sum of both; told by the key
    Wrong("buffers_keyed_by_name_read_not_popped",
          edits={"    buffers = {first: 1.0}\n": "    buffers = {first.name(): 1.0}\n",
                 "        grad = buffers.pop(node)\n": "        grad = buffers.get(node.name(), 0.0)\n",
                 "            buffers[child] = buffers.get(child, 0.0) + g\n":
                 "            buffers[child.name()] = buffers.get(child.name(), 0.0) + g\n"},
          fails={DOCS: "Each of the two leaves got the gradients sent to both"},
          names=("your backward", "the name() of those two nodes", "each node was handed its sum"),
          unsaid=("such as node.name() or node.sequence_nr",)),
    # ... a defaultdict read and written by subscript only (no dict method called): the key read from its locals
    Wrong("buffers_defaultdict_by_sequence_nr",
          edits={"import heapq\n": "import collections\nimport heapq\n",
                 "    buffers = {first: 1.0}\n": "    buffers = collections.defaultdict(float)\n"
                 "    buffers[first.sequence_nr] = 1.0\n",
                 "        grad = buffers.pop(node)\n": "        grad = buffers[node.sequence_nr]\n"
                 "        buffers[node.sequence_nr] = 0.0\n",
                 "            buffers[child] = buffers.get(child, 0.0) + g\n": "            buffers[child.sequence_nr] += g\n"},
          fails={DOCS: "a dict in your backward holds, as a key, the sequence_nr of those two nodes"},
          names=("your backward", "the sequence_nr of those two nodes", "one buffer"),
          unsaid=("such as node.name() or node.sequence_nr",)),
    # ... and its lookup with no default: the second AccumulateGrad meets a KeyError whose text is the
    # key alone ("inf"), told with the two nodes that share it; by name(), two AddBackward0 share it
    Wrong("buffers_keyed_by_sequence_nr_popped",
          edits={"    buffers = {first: 1.0}\n": "    buffers = {first.sequence_nr: 1.0}\n",
                 "        grad = buffers.pop(node)\n": "        grad = buffers.pop(node.sequence_nr)\n",
                 "            buffers[child] = buffers.get(child, 0.0) + g\n":
                 "            buffers[child.sequence_nr] = buffers.get(child.sequence_nr, 0.0) + g\n"},
          fails={DOCS: "on a key that is the sequence_nr of two different nodes"},
          names=("two AccumulateGrad nodes, which have the same sequence_nr", "one entry for both nodes")),
    Wrong("buffers_keyed_by_name_popped",
          edits={"    buffers = {first: 1.0}\n": "    buffers = {first.name(): 1.0}\n",
                 "        grad = buffers.pop(node)\n": "        grad = buffers.pop(node.name())\n",
                 "            buffers[child] = buffers.get(child, 0.0) + g\n":
                 "            buffers[child.name()] = buffers.get(child.name(), 0.0) + g\n"},
          fails={DOCS: "on a key that is the name() of two different nodes"},
          names=("two AddBackward0 nodes, which have the same name()", "one entry for both nodes")),
]

# ex16's given classes renamed: * records a MulBackward, and a leaf's AccumulateGrad names itself
# "AccumulateGrad"; no program of this stage reads a name, ex16's gate does.
CASES += [
    Wrong("mul_node_class_misnamed_since_ex16",
          edits={"class MulBackward0(Node):": "class MulBackward(Node):",
                 "        out = record(MulBackward0, self.item() * other.item(), self, other)":
                 "        out = record(MulBackward, self.item() * other.item(), self, other)"},
          fails={DOCS: "this stage builds on ex16"}, names=("ex16", "w * x records a node whose name() is not PyTorch's")),
    Wrong("accumulate_grad_misnamed_since_ex16",
          edits={'        return "torch::autograd::AccumulateGrad"': '        return "AccumulateGrad"'},
          fails={DOCS: "this stage builds on ex16"}, names=("ex16", "w's AccumulateGrad, has another name()")),
]

# store_grad writing nothing for a gradient of 0 ("adding 0 changes nothing"): every program whose
# gradient is 0 shows None; told with store_grad, not as the order gradients are summed in.
CASES += [
    Wrong("store_grad_skips_a_zero",
          edits={"    v._grad = Value(grad)\n\n\ndef dependencies(":
                 "    if grad == 0:\n        return\n    v._grad = Value(grad)\n\n\ndef dependencies("},
          fails={DOCS: "your store_grad, given a gradient of 0 alone, leaves .grad None"},
          names=("store_grad", "a gradient of 0"), unsaid=("a floating-point sum depends on the order",)),
]

# Value.backward marks the root as done (requires_grad False, or its node dropped) once backward
# ran: a second backward through it fails, or finds no graph.  Told by what the first changed of
# y, not as a dependencies that keeps state between calls (it keeps none here).
ROOT_BACKWARD = "        backward(self, retain_graph=bool(retain_graph))\n"
CASES += [
    Wrong("backward_clears_requires_grad", edits={ROOT_BACKWARD: ROOT_BACKWARD + "        self.requires_grad = False\n"},
          fails={DIAMONDS: "y.requires_grad after y.backward(), y = (d + d) + w, d = w + x is False, unlike PyTorch's"},
          names=("y.requires_grad after y.backward()", "leaves the value it starts from as it was"),
          unsaid=("dependencies keeps nothing between calls",)),
    Wrong("backward_drops_the_root_node", edits={ROOT_BACKWARD: ROOT_BACKWARD + "        self.grad_fn = None\n"},
          fails={DIAMONDS: "y.grad_fn after y.backward(), y = (d + d) + w, d = w + x is None"},
          names=("y.grad_fn after y.backward()", "leaves the value it starts from as it was"),
          unsaid=("dependencies keeps nothing between calls",)),
]

# AddBackward0.apply returning a generator, which a check in backward uses up before its gradients
# are read: a node left unrun is told by the generator its feeder returned, not by a dependency count.
CASES += [
    Wrong("add_apply_generator_used_up", edits={
        "        return grad, grad\n": "        return (grad for _ in self.next_functions)\n",
        "        grads = node.apply(grad)\n": "        grads = node.apply(grad)\n"
                                             "        assert len(list(grads)) == len(node.next_functions) or isinstance(node, AccumulateGrad)\n"},
          fails={DIAMONDS: "(h + h).grad_fn, a node that sends it a gradient, returned a generator from its apply"},
          names=("returned a generator from its apply", "a tuple of one gradient per edge"),
          unsaid=("a node's dependency count is one for each edge",)),
]

# MulBackward0.apply reads both saved operands (KeyError where one was not saved) and backward
# skips a node whose apply raises KeyError: told as that error caught, not as an order of sums.
CASES += [
    Wrong("apply_keyerror_skipped", edits={
        MUL_APPLY: '''        return (grad * self.unpack("other").item(), grad * self.unpack("self").item())''',
        "        grads = node.apply(grad)\n": "        try:\n            grads = node.apply(grad)\n"
                                             "        except KeyError:\n            continue\n"},
          fails={CONSTANTS: "raised KeyError, and backward went on without it",
                 DOCS: "your engine never ran AccumulateGrad(w) (never called its apply): the apply of",
                 ORDER: "Backward through y = w * 2 + w * 3: your engine never ran AccumulateGrad(w)"},
          names=("raised KeyError, and backward went on without it",),
          unsaid=("a floating-point sum depends on the order of its terms", "never with the last one to arrive alone")),
]

# A backward that changes the graph it walks: its first pass gives PyTorch's gradients; a second
# pass through the graph, or a later graph of the same leaf, meets what it changed.
CASES += [
    Wrong("backward_empties_edges", edits={  # "done with it": each node's edges cut once it ran
        "        for (child, _), g in zip(node.next_functions, grads):\n":
        "        edges, node.next_functions = node.next_functions, ()\n"
        "        for (child, _), g in zip(edges, grads):\n"},
          fails={ORDER: "every node of y's graph has the next_functions it had before"},
          names=("the next_functions it had before",)),
    Wrong("dependencies_sorts_edges", edits={  # each node's edges sorted by sequence_nr as it is counted
        "        node = stack.pop()\n        for child, _ in node.next_functions:\n":
        "        node = stack.pop()\n        node.next_functions = tuple(sorted(node.next_functions, key=lambda e: "
        "-1 if e[0] is None else e[0].sequence_nr))\n        for child, _ in node.next_functions:\n"},
          fails={ORDER: "every node of y's graph has the next_functions it had before",
                 CHAIN: "every node of y's graph has the next_functions it had before"},
          names=("the next_functions it had before",),
          unsaid=("never with the last one to arrive alone",
                  "the gradients w receives from every + w are summed")),
    Wrong("backward_marks_ran_in_sequence_nr", edits={  # a node that ran marked by its sequence_nr
        "        grads = node.apply(grad)\n": "        grads = node.apply(grad)\n"
                                             "        if not isinstance(node, AccumulateGrad):\n"
                                             "            node.sequence_nr = -1\n"},
          fails={ORDER: "every node of y's graph has the sequence_nr it had before"},
          names=("the sequence_nr it had before",)),
    Wrong("backward_drops_accumulators", edits={  # a leaf's AccumulateGrad thrown away once it ran
        "        grads = node.apply(grad)\n": "        grads = node.apply(grad)\n"
                                             "        if isinstance(node, AccumulateGrad):\n"
                                             "            node.variable._accumulator = None\n"},
          fails={ORDER: "reaches w through the AccumulateGrad y's graph reached it through"},
          names=("reaches w through the AccumulateGrad",)),
]

# Slips of one's own walk: a heap of (priority, node) with no counter between (AccumulateGrads tie
# and the heap compares nodes), a dependencies that walks into a constant's (None, 0) edge, edges
# counted once per parent (w * w sends w two), a sum made in another order, a leaf written at each
# edge instead of once with the sum.
CASES += [
    Wrong("heap_without_tie_counter", edits={
        "                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))\n":
        "                heapq.heappush(ready, (-child.sequence_nr, child))\n",
        "    ready = [(-first.sequence_nr, 0, first)]\n": "    ready = [(-first.sequence_nr, first)]\n",
        "        node = heapq.heappop(ready)[2]\n": "        node = heapq.heappop(ready)[1]\n"},
          fails={DIAMONDS: "raised TypeError"},
          names=("in backward", "'<' not supported between instances of 'AccumulateGrad' and 'AccumulateGrad'")),
    Wrong("dependencies_walks_constants", edits={
        "        for child, _ in node.next_functions:\n            if child is None:\n                continue\n"
        "            if child not in counts:":
        "        for child, _ in node.next_functions:\n            if child not in counts:"},
          fails={DOCS: "raised AttributeError"},
          names=("in dependencies", "'NoneType' object has no attribute 'next_functions'")),
    Wrong("edges_counted_once_per_parent", edits={
        "        for child, _ in node.next_functions:\n            if child is None:":
        "        for child, _ in dict.fromkeys(node.next_functions):\n            if child is None:"},
          fails={CONSTANTS: "your engine ran AccumulateGrad(w) before (c * w).grad_fn"},
          names=("dependencies counts the edges that reach each node",)),
    Wrong("sum_made_last_first", edits={
        "            buffers[child] = buffers.get(child, 0.0) + g\n": "            buffers.setdefault(child, []).append(g)\n",
        "        grad = buffers.pop(node)\n":
        "        grad = buffers.pop(node)\n        grad = sum(reversed(grad)) if isinstance(grad, list) else grad\n"},
          fails={"gradients summed in PyTorch's order": "is a different number from PyTorch's"},
          names=("a floating-point sum depends on the order of its terms",)),
    Wrong("leaf_written_at_each_edge", edits={
        "            buffers[child] = buffers.get(child, 0.0) + g\n":
        "            if isinstance(child, AccumulateGrad):\n                child.apply(g)\n                continue\n"
        "            buffers[child] = buffers.get(child, 0.0) + g\n"},
          fails={DIAMONDS: "called the apply of AccumulateGrad(w) twice in a row"},
          names=("ran some node more than once",)),
    Correct("saved_read_with_get", edits={MUL_APPLY: (
        '        other, me = self.saved.get("other", Value(0.0)), self.saved.get("self", Value(0.0))\n'
        '        return grad * other.item(), grad * me.item()')}),
    Correct("store_grad_through_the_setter", edits={"    v._grad = Value(grad)\n": "    v.grad = Value(grad)\n"}),
    Correct("buffers_read_not_popped", edits={"        grad = buffers.pop(node)\n": "        grad = buffers[node]\n"}),
    Correct("buffers_keyed_by_id", edits={  # one key a node alone has while the graph lives: no KeyError told as shared
        "    buffers = {first: 1.0}\n": "    buffers = {id(first): 1.0}\n",
        "        grad = buffers.pop(node)\n": "        grad = buffers.pop(id(node))\n",
        "            buffers[child] = buffers.get(child, 0.0) + g\n": "            buffers[id(child)] = buffers.get(id(child), 0.0) + g\n"}),
]

# A MulBackward0.apply that returns only the gradients it has a saved factor for: c * w sends one
# gradient, down the constant's edge, and w's node never gets its own.
CASES += [
    Wrong("mul_returns_only_saved_gradients", edits={MUL_APPLY: (
        '        return tuple(grad * self.unpack(n).item() for n in ("other", "self") if n in self.saved)')},
          fails={CONSTANTS: "returned fewer gradients than"}, names=("returned fewer gradients than",)),
]

# A leaf root's gradient written by backward itself, its AccumulateGrad never asked (as backward
# may write every leaf's, above): w.grad is 1 all the same, and nothing of this stage runs between.
CASES += [
    Correct("leaf_root_written_by_backward", edits={
        "    first, _ = gradient_edge(root)\n": "    if root.is_leaf:\n        store_grad(root, 1.0)\n        return\n"
                                             "    first, _ = gradient_edge(root)\n"}),
]

# MulBackward0.apply multiplying by the saved Values themselves, not their numbers: the gradients'
# numbers are right, but each product records a node while backward runs, where PyTorch's backward
# (create_graph False) records none and hands on gradients that require no grad.
CASES += [
    Wrong("mul_by_the_saved_values", edits={MUL_APPLY: (
        '        return (grad * self.unpack("other") if "other" in self.saved else 0.0,\n'
        '                grad * self.unpack("self") if "self" in self.saved else 0.0)')},
          fails={DOCS: "hands w's AccumulateGrad a gradient that requires no grad in PyTorch, but not in your engine"},
          names=("records no graph", "not its number, item()")),
]

# The buffers of gradients kept between calls, never popped: in a module-level dict, or a mutable default argument.
# A later backward through the same graph of additions starts from what the first left there: told as state kept
# between calls, by the gradients the nodes' applies returned, not as a walk that counts the edges once.
SENT_AGAIN = "had the nodes' apply calls return other gradients than the first backward did"
CASES += [
    Wrong("buffers_in_a_module_dict", fails={DIAMONDS: SENT_AGAIN}, names=("state kept between calls",),
          unsaid=("dependencies keeps nothing between calls",),
          edits={"    buffers = {first: 1.0}\n": "    buffers = _BUFFERS\n    buffers[first] = buffers.get(first, 0.0) + 1.0\n",
                 "        grad = buffers.pop(node)\n": "        grad = buffers[node]\n",
                 "def backward(root: Value, retain_graph: bool = False) -> None:\n":
                 "_BUFFERS: dict = {}\n\n\ndef backward(root: Value, retain_graph: bool = False) -> None:\n"}),
    Wrong("buffers_a_mutable_default", fails={DIAMONDS: SENT_AGAIN}, names=("state kept between calls",),
          unsaid=("dependencies keeps nothing between calls",),
          edits={"def backward(root: Value, retain_graph: bool = False) -> None:\n":
                 "def backward(root: Value, retain_graph: bool = False, buffers: dict = {}) -> None:\n",
                 "    buffers = {first: 1.0}\n": "    buffers[first] = 1.0\n",
                 "        grad = buffers.pop(node)\n": "        grad = buffers[node]\n"}),
]

# Each node's buffer kept on the node itself (an attribute set in Node.__init__, added to, never reset once
# the node ran): a later backward through the same graph starts every node from the first pass's sum.
CASES += [
    Wrong("buffer_kept_on_each_node", fails={DIAMONDS: SENT_AGAIN}, names=("state kept between calls",),
          unsaid=("dependencies keeps nothing between calls",),
          edits={"    buffers = {first: 1.0}\n": "    first.buffer = 1.0\n",
                 "        grad = buffers.pop(node)\n": "        grad = node.buffer\n",
                 "            buffers[child] = buffers.get(child, 0.0) + g\n": "            child.buffer = child.buffer + g\n",
                 "        self.saved: dict[str, Value] = {}": "        self.saved: dict[str, Value] = {}\n"
                                                            "        self.buffer = 0.0  # the gradients that arrived, summed"}),
]

# ex16's part: MulBackward0 saves a Python number as it was given (an int): apply's item() fails on it; the gate
# names what w * 3 saved, in ex16's part, not this stage's apply.
CASES += [
    Wrong("ex16_mul_saves_the_number_as_given", edits={
        "        other = as_value(other)\n        out = record(MulBackward0,":
        "        given = other\n        other = as_value(other)\n        out = record(MulBackward0,",
        '                out.grad_fn.save("other", other)': '                out.grad_fn.save("other", given)'},
          fails={DOCS: 'w * 3 saves the number 3 as "other" as a Python number, not as a Value'},
          names=("ex16", "w * 3 saves the number 3", "Python number"), unsaid=("this stage's part",)),
]

# dependencies with a set of the nodes seen beside the counts, each count taken with get: the same counts.
CASES += [
    Correct("dependencies_seen_set_and_get", edits={
        "    stack = [root]\n    while stack:": "    seen = {root}\n    stack = [root]\n    while stack:",
        "            if child not in counts:\n                counts[child] = 0\n                stack.append(child)\n"
        "            counts[child] += 1\n":
        "            if child not in seen:\n                seen.add(child)\n                stack.append(child)\n"
        "            counts[child] = counts.get(child, 0) + 1\n"}),
]

# The ready nodes in a plain list, the one with the highest sequence_nr taken each time (max): PyTorch's order;
# the tie counter at module level: it only grows, so it still breaks ties in push order.
CASES += [
    Correct("ready_list_taken_by_max", edits={
        "    ready = [(-first.sequence_nr, 0, first)]\n": "    ready = [first]\n",
        "        node = heapq.heappop(ready)[2]\n": "        node = max(ready, key=lambda n: n.sequence_nr)\n        ready.remove(node)\n",
        "                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))": "                ready.append(child)"}),
    Correct("tie_counter_at_module_level", edits={
        "    pushed = itertools.count(1)\n": "",
        "def backward(root: Value, retain_graph: bool = False) -> None:\n":
        "pushed = itertools.count(1)\n\n\ndef backward(root: Value, retain_graph: bool = False) -> None:\n"}),
]

# The ready queue keyed 0 for an AccumulateGrad (leaves last), -sequence_nr for any other node: told by the
# node that ran while a ready AccumulateGrad, newer, waited.
CASES += [
    Wrong("leaves_run_last", edits={PUSH: "heapq.heappush(ready, (0 if isinstance(child, AccumulateGrad) "
                                          "else -child.sequence_nr, next(pushed), child))"},
          fails={ORDER: "backward ran m.grad_fn while AccumulateGrad(k), every gradient for which had arrived, waited"},
          names=("higher sequence_nr", "AccumulateGrad(k)")),
]

# Each gradient apply returns handed to the node of the other entry of next_functions (zip over them reversed):
# told as each leaf getting the gradient returned for the other.
CASES += [
    Wrong("gradients_zipped_with_edges_reversed", edits={
        "zip(node.next_functions, grads)": "zip(reversed(node.next_functions), grads)"},
          fails={DOCS: "each of the two leaves got the gradient y.grad_fn.apply returned for the other"},
          names=("w.grad for y = w * x", "the node of the first input (the first of y.grad_fn.next_functions)")),
]

# backward stores the seed 1 into the root's own .grad too: a non-leaf's .grad stays None in PyTorch.
CASES += [
    Wrong("seed_stored_in_the_root", edits={"    buffers = {first: 1.0}": "    store_grad(root, 1.0)\n    buffers = {first: 1.0}"},
          fails={DOCS: "y.grad for y = (x + w) * (w + 1) is not None, where PyTorch's is None"},
          names=("y.grad for y", "the .grad of the root")),
]

# backward pairs apply's gradients with the entries of next_functions that hold a node, (None, 0) left out first:
# c * w, c a constant, hands w the gradient apply returned for c. Told by where w's gradient came from.
CASES += [
    Wrong("gradients_zipped_with_node_entries_alone", edits={
        "        for (child, _), g in zip(node.next_functions, grads):\n            if child is None:\n                continue\n":
        "        edges = [edge for edge in node.next_functions if edge[0] is not None]\n"
        "        for (child, _), g in zip(edges, grads):\n"},
          fails={CONSTANTS: "w got the gradient (c * w).grad_fn.apply returned first, the one for c"},
          names=("w.grad for y = c * w", "(None, 0)", "the entry in its place")),
]

# ex16's parts that ex16's gate once told untrue or not at all: a product that hands record its operands swapped
# (w's AccumulateGrad in x's place, one node all the same), and gradient_edge asking requires_grad before grad_fn (an
# AccumulateGrad for a value an operation made).
CASES += [
    Wrong("ex16_mul_records_operands_swapped", edits={
        "out = record(MulBackward0, self.item() * other.item(), self, other)":
        "out = record(MulBackward0, self.item() * other.item(), other, self)"},
          fails={DOCS: "has its edge to w's AccumulateGrad in x's place"},
          names=("ex16", "another order than the inputs"), unsaid=("two AccumulateGrad nodes",)),
    Wrong("ex16_accumulator_for_values_an_operation_made", edits={
        "    if v.grad_fn is not None:\n        return v.grad_fn, 0\n    if not v.requires_grad:\n":
        "    if not v.requires_grad:\n"},
          fails={DOCS: "is an AccumulateGrad whose .variable is w * 2, a value an operation made"},
          names=("ex16", "gradient_edge", "only to a leaf that requires grad")),
]

# ex16's + writing its result into self (as += would): w * 2 + 1 keeps its number, a value saved for a later product
# changes; ex16's gate tells it, not backward's sums.
CASES += [
    Wrong("ex16_add_changes_self", edits={
        "        return record(AddBackward0, self.item() + other.item(), self, other)":
        "        self._box[0] += other.item()\n        return record(AddBackward0, self.item(), self, other)"},
          fails={DOCS: "w + 1 changes the number w holds"},
          names=("ex16", "leaves its operands as they were"), unsaid=("Backward must run each node once",)),
]

# a node pushed as ready whenever a gradient reaches it and it is not queued already (not once all arrived);
# dependencies counting the root once, a count backward never reads: full marks
CASES += [
    Wrong("ready_whenever_not_queued", edits={
        "            waiting[child] -= 1\n            if waiting[child] == 0:\n":
        "            waiting[child] -= 1\n            if child not in [entry[2] for entry in ready]:\n"},
          fails={DOCS: "ran some node more than once (once per path, not once per node)"},
          names=("ran some node more than once", "only after every node that sends it a gradient has run")),
    Correct("dependencies_count_the_root_once", edits={"    counts: dict[Node, int] = {root: 0}\n":
                                                        "    counts: dict[Node, int] = {root: 1}\n"}),
]
