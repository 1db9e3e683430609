"""ex20 gallery: plausible wrong engines about saved values (format: gallery_case.py)."""

from gallery_case import BUFFERS_KEPT_IN_A_DICT, SENT_KEPT, RETAIN_ON_A_LEAF_NODE, RETAINED_LEAF_DOUBLED, Correct, Wrong

DOCS = "a second backward through the documents' graph"
RETAINED = "retain_graph=True on other graphs"
ADDITIONS = "graphs of additions run twice"
NUMBERS = "a product with a number saves it"
RELEASE_STEP = '''        if not retain_graph:
            node.release()
'''
INNER = "a backward from a root whose node an earlier one freed"
NEW_GRAPHS = "new graphs made after freed ones"
THREE = "three backward calls"
CASES = [
    Wrong("keep_flag_set_once_on_each_node", edits={  # the first call's retain_graph kept on the node for good
        RELEASE_STEP: "        if not hasattr(node, \"keep\"):\n            node.keep = retain_graph\n"
                      "        if not node.keep:\n            node.release()\n"},
          fails={THREE: "A third y.backward() after y.backward(retain_graph=True); y.backward(), y = w * w raised no error"},
          names=("retain_graph=True keeps the graph of that call alone",),
          unsaid=("unless the first kept the graph with retain_graph=True",)),
    Wrong("retain_grad_spares_its_node", edits={  # retain_grad() taken for retain_graph=True on that node
        RELEASE_STEP: "        if not retain_graph and node.retained is None:\n            node.release()\n"},
          fails={THREE: "A second y.backward() after y.retain_grad(); y.backward(), y = w * w raised no error"},
          names=("y.retain_grad(); y.backward()", "unless the first kept the graph with retain_graph=True")),
    Correct("only_nodes_that_saved_are_released", edits={
        RELEASE_STEP: "        if not retain_graph and node.saved:\n            node.release()\n"}),
    Correct("a_freed_value_is_marked_by_none", edits={
        "        if self.released:\n            raise RuntimeError(SECOND_BACKWARD)\n        value = self.saved[name]\n":
        "        value = self.saved[name]\n        if value is None:\n            raise RuntimeError(SECOND_BACKWARD)\n",
        "        self.saved = dict.fromkeys(self.saved)\n        self.released = True":
        "        for key in self.saved:\n            self.saved[key] = None"}),
    Wrong("retained_written_after_apply", edits={  # an ex18 order, right until apply first raises (here)
        "        if node.retained is not None:\n            store_grad(node.retained, grad)\n        grads = node.apply(grad)\n":
        "        grads = node.apply(grad)\n        if node.retained is not None:\n            store_grad(node.retained, grad)\n"},
          fails={THREE: "y.grad after a second y.backward() after y.retain_grad(); y.backward(), y = w * w"},
          names=("y.retain_grad()", "when its node starts, before apply")),
    Wrong("gradient_buffers_kept_between_calls", edits={  # a failed backward's partial gradients wait for the next
        "    buffers = {first: 1.0}\n": "    buffers = _BUFFERS\n    buffers[first] = buffers.get(first, 0.0) + 1.0\n",
        "\ndef backward(": "\n_BUFFERS = {}\n\n\ndef backward("},
          fails={NEW_GRAPHS: "w.grad after (w * w).backward(), once a second y.backward() raised and then w.grad = None"},
          names=("(w * w).backward()", "leaves nothing behind")),
    Correct("ex19_retained_added_in_place", edits={  # an ex19 part: a retained non-leaf's Value added into;
        "    elif v.is_leaf:\n": "    elif v._grad.is_leaf:\n"}),  # which object .grad is, the course leaves out
    Wrong("unpack_pops", edits={  # frees a value as it is read, with retain_graph=True too
        "        value = self.saved[name]\n        return value\n": "        return self.saved.pop(name)\n"},
          fails={RETAINED: "The list of operands that y.grad_fn saved, after reading each of them (unpack), y = w * x has fewer"},
          names=("after reading each of them (unpack)", "a node's unpack returns a value it saved and leaves it saved")),
    Wrong("apply_reads_saved_directly", edits={  # never through unpack, which refuses a freed value
        '        return (grad * self.unpack("other").item() if "other" in self.saved else 0.0,\n                grad * self.unpack("self").item() if "self" in self.saved else 0.0)':
        '        a, b = self.saved.get("other"), self.saved.get("self")\n        return (grad * a.item() if a is not None else 0.0, grad * b.item() if b is not None else 0.0)'},
          fails={DOCS: 'A backward through y.grad_fn raises a RuntimeError once reading what it saved (unpack) raises one in PyTorch, '
                      'but not in your engine'},
          names=('y.grad_fn', 'through unpack')),
    Wrong("leaf_writes_deferred_to_the_end", edits={  # a failed backward adds nothing, even what ran first
        "    pushed = itertools.count(1)\n": "    pushed = itertools.count(1)\n    leaf_writes = []\n",
        "        grad = buffers.pop(node)\n":
        "        grad = buffers.pop(node)\n        if isinstance(node, AccumulateGrad):\n"
        "            leaf_writes.append((node, grad))\n            continue\n",
        "                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))\n":
        "                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))\n"
        "    for node, grad in leaf_writes:\n        node.apply(grad)\n"},
          fails={NUMBERS: "w.grad after a second y.backward() after y.backward(), y = 2 * x + w is a different number"},
          names=("w.grad after a second y.backward()", "has already added its gradient")),
    Wrong("ex17_dependencies_count_nodes", edits={  # an ex17 part: a node two edges reach counts 1
        "                counts[child] = 0\n                stack.append(child)\n            counts[child] += 1\n":
        "                counts[child] = 1\n                stack.append(child)\n"},
          fails={DOCS: "gives w.grad a different number from PyTorch's"},
          names=("ex17's check fails", "dependencies")),
    Wrong("retain_grad_keeps_a_leaf_on_its_node", edits=RETAIN_ON_A_LEAF_NODE,
          fails={"retain_graph=True on other graphs": RETAINED_LEAF_DOUBLED},
          names=("w.retain_grad()", "on a leaf that requires grad changes nothing")),
    Wrong("release_children_before_they_run", edits={  # one backward then meets a node it freed itself
        RELEASE_STEP: RELEASE_STEP + "            for child, _ in node.next_functions:\n"
                                     "                if child is not None:\n                    child.release()\n"},
          fails={DOCS: "breaks ex17's program"},
          names=("released before it ran", "Node.unpack")),
    Wrong("release_zeroes_the_saved_values", edits={  # "frees" by writing 0 into the saved Values: w itself changes
        "        self.saved = dict.fromkeys(self.saved)\n":
        "        for value in self.saved.values():\n            value._box[0] = 0.0\n"},
          fails={RETAINED: "w after a second y.backward() after y.backward(retain_graph=True), y = w * x * w is a "
                           "different number from PyTorch's"},
          names=("w after a second y.backward()", "never changes them")),
    Wrong("retain_graph_kept_between_calls", edits={  # once any call kept its graph, no later one frees
        RELEASE_STEP: "        if not _KEEP[0]:\n            node.release()\n",
        "    first, _ = gradient_edge(root)\n": "    _KEEP[0] = _KEEP[0] or retain_graph\n    first, _ = gradient_edge(root)\n",
        "\ndef backward(": "\n_KEEP = [False]\n\n\ndef backward("},
          fails={DOCS: "A second y.backward() raises, also after z.backward(retain_graph=True) through another graph "
                       "in PyTorch, but not in your engine"},
          names=("retain_graph=True", "whatever earlier calls were given")),
    Wrong("ready_queue_kept_between_calls", edits={  # a backward that raised leaves a ready node for the next one
        "    buffers = {first: 1.0}\n    ready = [(-first.sequence_nr, 0, first)]\n":
        "    buffers = _BUFFERS\n    buffers[first] = 1.0\n    ready = _READY\n    ready.append((-first.sequence_nr, 0, first))\n",
        "\ndef backward(": "\n_READY, _BUFFERS = [], {}\n\n\ndef backward("},
          fails={"new graphs made after freed ones": "(v * v).backward(), v a new leaf, after a second y.backward() raised, "
                                                     "y = w * x + w * 3 raised RuntimeError"},
          names=("v a new leaf", "ready queue", "leaves nothing behind")),
    Wrong("released_known_by_id", edits={  # a new node put where a freed one was is refused
        "        if self.released:\n            raise RuntimeError(SECOND_BACKWARD)\n":
        "        if id(self) in RELEASED:\n            raise RuntimeError(SECOND_BACKWARD)\n",
        "        self.released = True\n": "        self.released = True\n        RELEASED.add(id(self))\n",
        "\n\nclass AccumulateGrad(Node):": "\n\nRELEASED: set[int] = set()\n\n\nclass AccumulateGrad(Node):"},
          fails={NEW_GRAPHS: "the first backward through a new graph y = w * x, made once the one before it was "
                             "backpropagated and let go of raised RuntimeError"},
          names=("the first backward through a new graph", "known on that node")),
    Wrong("saved_values_never_freed", edits={RELEASE_STEP: ""},
          fails={DOCS: "a second y.backward() after y.backward(), y = (x + w) * (w + 1) raised no error, where PyTorch raises one"},
          names=("a second y.backward()", "must raise RuntimeError(SECOND_BACKWARD)")),
    Wrong("frees_despite_retain_graph", edits={RELEASE_STEP: "        node.release()\n"},
          fails={DOCS: "where PyTorch's runs without an error. w.grad after a second y.backward() after "
                       "y.backward(retain_graph=True)"},  # the error first: the gradients follow from it
          names=("retain_graph=True", "the graph is kept")),
    Wrong("frees_without_refusing", edits={'''        if self.released:
            raise RuntimeError(SECOND_BACKWARD)
''': ""},
          fails={DOCS: "AttributeError"},
          names=("a second y.backward()", "through its unpack", "Node.unpack checks whether its node was released")),
    Wrong("unpack_refuses_only_a_missing_name", edits={  # release keeps the names, so this check never fires
        "        if self.released:\n            raise RuntimeError(SECOND_BACKWARD)\n":
        "        if name not in self.saved:\n            raise RuntimeError(SECOND_BACKWARD)\n"},
          fails={DOCS: "Reading each value y.grad_fn saved through its unpack, once a backward released y.grad_fn, "
                       "raises an error in PyTorch, but not in your engine"},  # none raised: no subclass told
          names=("MulBackward0.apply", "Node.unpack checks whether its node was released"),
          unsaid=("not a subclass of it",)),
    Wrong("release_only_marks", edits={"        self.saved = dict.fromkeys(self.saved)\n": ""},  # unpack still refuses
          fails={DOCS: "h is freed once y.backward() ran and del h let go of it, y = h * h, h = x * 3 in PyTorch, but not in your engine"},
          names=("h is freed", "release forgets the saved Values")),
    Wrong("forgets_what_was_saved", edits={"        self.saved = dict.fromkeys(self.saved)\n": "        self.saved = {}\n"},
          fails={DOCS: "The list of operands that y.grad_fn saved, after y.backward(), y = (x + w) * (w + 1) has fewer entries "
                       "than PyTorch's",
                 INNER: "where PyTorch raises one. Release frees the saved values but keeps their names: apply asks which were "
                        "saved, and unpack then refuses a freed one with SECOND_BACKWARD."},  # that rule alone: every node was freed
          names=("y.grad_fn saved", "keeps their names")),
    Wrong("every_node_refuses_twice", edits={"        grads = node.apply(grad)\n": '''        if getattr(node, "ran", False) and not isinstance(node, AccumulateGrad):
            raise RuntimeError(SECOND_BACKWARD)
        node.ran = not retain_graph
        grads = node.apply(grad)
'''},
          fails={ADDITIONS: "raised RuntimeError: \"Trying to backward through the graph a second time"},
          names=("a second y.backward()", "AddBackward0) must run again")),
    Wrong("wrong_error_type", edits={"            raise RuntimeError(SECOND_BACKWARD)": "            raise ValueError(SECOND_BACKWARD)"},
          fails={DOCS: "ValueError"}, names=("a second y.backward()", "RuntimeError(SECOND_BACKWARD)")),
    Wrong("releases_before_apply", edits={"        grads = node.apply(grad)\n" + RELEASE_STEP:
                                          RELEASE_STEP + "        grads = node.apply(grad)\n"},
          fails={DOCS: "this stage's code breaks ex17's program (one backward through each of w * w + w, (x + w) * (w + 1), z = n * m, m = v + 1, n = k + v, and w * 3 + (w * w) * 2 + 2)"},
          names=("it raised RuntimeError: \"Trying to backward through the graph a second time", "unpack, line", "an error of ex20's part of the engine")),
    Wrong("releases_only_the_root", edits={
        RELEASE_STEP: "",
        "                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))\n":
        "                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))\n"
        "    if not retain_graph:\n        first.release()\n"},
          fails={INNER: "y.backward() after z.backward(), z = y * 0.125, y = w * x raised no error, where PyTorch raises one"},
          names=("y.backward() after z.backward()", "not only the root's")),
    Wrong("recursive_backward_releasing", edits={  # a shared node run once per path meets its released values
        "    first, _ = gradient_edge(root)\n": '''    def visit(node, grad):
        if node.retained is not None:
            store_grad(node.retained, grad)
        grads = node.apply(grad)
        if not retain_graph:
            node.release()
        for (child, _), g in zip(node.next_functions, grads):
            if child is not None:
                visit(child, g)
    visit(gradient_edge(root)[0], 1.0)
    return
    first, _ = gradient_edge(root)
'''},
          fails={INNER: "t.backward(), t = p * q, p = g + g, q = g * h, g = h * h raised RuntimeError: \"Trying to backward through the graph a second time"},
          names=("twice in a row", "backward runs each node once")),
    Wrong("release_cuts_the_edges", edits={"        self.released = True\n": "        self.released = True\n        self.next_functions = ()\n"},
          fails={ADDITIONS: "Node.release"}, names=("Node.release", "the fault may be there")),
    Wrong("refuses_with_its_own_message", edits={"        if self.released:\n            raise RuntimeError(SECOND_BACKWARD)":
                                                 "        if self.released:\n            raise RuntimeError(\"this graph was freed: "
                                                 "call backward(retain_graph=True)\")"},
          fails={DOCS: 'raised RuntimeError: "this graph was freed: call backward(retain_graph=True)" in Node.unpack; '
                       "PyTorch raises a RuntimeError there too, with SECOND_BACKWARD's text instead"},  # its own message, quoted
          names=("this graph was freed", "SECOND_BACKWARD's text"),
          unsaid=("not only the root's",)),  # it frees every node: only the text differs
    Wrong("refuses_with_the_node_name_before_the_text", edits={  # the statement's text, with more before it
        "        if self.released:\n            raise RuntimeError(SECOND_BACKWARD)":
        "        if self.released:\n            raise RuntimeError(f\"{self.name()}: {SECOND_BACKWARD}\")"},
          fails={NUMBERS: 'y = w * 3 raised RuntimeError: "MulBackward0: Trying to backward through the graph a second time',
                 INNER: "PyTorch raises a RuntimeError there too, with SECOND_BACKWARD's text instead"},
          names=("MulBackward0: Trying to backward", "SECOND_BACKWARD's text")),
    Wrong("second_backward_text_changed_near_its_end", edits={  # PyTorch's long text, one word changed past its start
        "if you need to access saved tensors after calling backward.": "if you need to access saved values after calling backward."},
          fails={DOCS: 'raised RuntimeError: "… a second time or if you need to access saved values after calling backward." '
                       "in Node.unpack"},  # the quote holds the word that differs, not only the text's start
          names=("saved values after calling backward", "SECOND_BACKWARD's text"),
          unsaid=("saved tensors …",)),
    Wrong("refuses_only_self", edits={"        if self.released:\n            raise RuntimeError(SECOND_BACKWARD)":
                                      "        if self.released and name == \"self\":\n            raise RuntimeError(SECOND_BACKWARD)"},
          fails={NUMBERS: "A second y.backward() after y.backward(), y = w * 3 raised AttributeError"},
          names=("in MulBackward0.apply", "RuntimeError(SECOND_BACKWARD)")),
    Wrong("retain_graph_kept_only_at_the_root", edits={RELEASE_STEP: "        if not retain_graph or node is not first:\n"
                                                                     "            node.release()\n"},
          fails={RETAINED: "after y.backward(retain_graph=True), y = w * x * w raised RuntimeError"},
          names=("retain_graph=True", "the graph is kept")),
    Wrong("none_never_releases", edits={  # retain_graph=None passed on, and only False releases
        "        backward(self, retain_graph=bool(retain_graph))": "        backward(self, retain_graph=retain_graph)",
        RELEASE_STEP: RELEASE_STEP.replace("if not retain_graph:", "if retain_graph == False:")},
          fails={DOCS: "y.grad_fn is released by y.backward(), y = (x + w) * (w + 1) in PyTorch, but not in your engine",
                 INNER: "z.grad_fn is released by z.backward(), z = y * 0.125, y = w * x in PyTorch, but not in your engine"},
          names=("is released by y.backward()", "retain_graph left out, False or None alike")),
    Correct("releases_only_nodes_that_saved", edits={RELEASE_STEP: "        if not retain_graph and node.saved:\n"
                                                                   "            node.release()\n"}),
    Correct("release_by_deleting_then_refusing_a_missing_name", edits={
        "        self.saved = dict.fromkeys(self.saved)\n": "        self.saved = {name: None for name in self.saved}\n",
        '''        if self.released:
            raise RuntimeError(SECOND_BACKWARD)
        value = self.saved[name]''': '''        value = self.saved[name]
        if value is None:
            raise RuntimeError(SECOND_BACKWARD)'''}),
    Correct("release_by_clearing_values", edits={"        self.saved = dict.fromkeys(self.saved)\n":
                                                   "        for name in self.saved:\n            self.saved[name] = None\n"}),
    Wrong("release_after_the_loop", edits={  # a pass that fails at a later node never releases those that ran
        RELEASE_STEP: "        done.append(node)\n",
        "    pushed = itertools.count(1)\n": "    pushed = itertools.count(1)\n    done = []\n",
        "                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))\n":
        "                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))\n"
        "    for node in done if not retain_graph else ():\n        node.release()\n"},
          fails={INNER: "z.grad_fn is released by z.backward(), z = y * v"},
          names=("v.grad after a second z.backward()", "right after its apply")),
    Wrong("unpack_refuses_only_a_freed_other", edits={  # c * w saved c as "self" alone: read freed, it is None
        "        if self.released:\n            raise RuntimeError(SECOND_BACKWARD)\n":
        "        if self.released and name == \"other\":\n            raise RuntimeError(SECOND_BACKWARD)\n"},
          fails={NUMBERS: "A second y.backward() after y.backward(), y = c * x (c a constant) raised AttributeError"},
          names=("y = c * x", "SECOND_BACKWARD")),
]

# A release that forgets the retained value with the saved ones: a released node that runs again
# (an addition's, which saved nothing) no longer writes y's gradient; told as that, not as a write
# after apply, which this engine does not do.
CASES += [
    Wrong("release_forgets_the_retained_value",
          edits={"        self.saved = dict.fromkeys(self.saved)\n        self.released = True\n":
                 "        self.saved = dict.fromkeys(self.saved)\n        self.retained = None\n        self.released = True\n"},
          fails={THREE: "y.grad after y.retain_grad(); y.backward(); y.backward(), y = w + 2 is a different number"},
          names=("y = w + 2", "release frees a node's saved values only"), unsaid=("before apply",)),
]

# ex19's slip carried: a retained non-leaf's running sum kept on its node, which a.grad.zero_() never
# resets; this stage's programs never zero a retained gradient, ex19's gate tells it.
CASES += [
    Wrong("retained_sum_kept_on_the_node_since_ex19", edits={
        "        v._grad = Value(v._grad.item() + grad)":
        "        v.grad_fn.retained_sum += grad\n        v._grad = Value(v.grad_fn.retained_sum)",
        "    if v._grad is None:\n        v._grad = Value(grad)\n":
        "    if v._grad is None:\n        v._grad = Value(grad)\n        if not v.is_leaf:\n            v.grad_fn.retained_sum = grad\n"},
          fails={DOCS: "this stage builds on ex19"}, names=("ex19", "a.grad.zero_() on a retained a", "store_grad")),
]

# apply reads node.saved itself, not through unpack (which is right): a second backward meets the
# freed None and raises AttributeError in apply; told as apply's, not as unpack missing its check.
CASES += [
    Wrong("apply_reads_saved_items_directly", edits={
        '        return (grad * self.unpack("other").item() if "other" in self.saved else 0.0,\n'
        '                grad * self.unpack("self").item() if "self" in self.saved else 0.0)':
        '        return (grad * self.saved["other"].item() if "other" in self.saved else 0.0,\n'
        '                grad * self.saved["self"].item() if "self" in self.saved else 0.0)'},
          fails={DOCS: "raises a RuntimeError once reading what it saved (unpack) raises one in PyTorch, but not in your engine"},
          names=("MulBackward0.apply", "through unpack")),
]

# ex16's slip carried: every operation recorded, its inputs requiring grad or not, passes every
# program of this stage; ex16's gate reads c * 3's grad_fn.
CASES += [
    Wrong("records_every_op_since_ex16",
          edits={"    if recording(*inputs):\n        out.grad_fn": "    if True:\n        out.grad_fn"},
          fails={DOCS: "this stage builds on ex16"}, names=("ex16", "c * 3", "records nothing")),
]

# ex17's slip carried: a node sent only zeros never run passes every program of this stage;
# ex17's gate runs backward through w * 0.
CASES += [
    Wrong("skips_zero_gradients_since_ex17", edits={
        "            buffers[child] = buffers.get(child, 0.0) + g\n":
        "            if g == 0.0 and child not in buffers:\n                waiting[child] -= 1\n"
        "                if waiting[child] == 0 and child in buffers:\n"
        "                    heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))\n"
        "                continue\n            buffers[child] = buffers.get(child, 0.0) + g\n"},
          fails={DOCS: "this stage builds on ex17"}, names=("ex17", "w * 0", "0 too")),
]

# retain_graph=True read as "keep the graph": a node an earlier backward freed is un-freed before it runs.
CASES += [
    Wrong("retain_graph_unfrees", edits={
        "        grads = node.apply(grad)\n        if not retain_graph:":
        "        node.released = node.released and not retain_graph\n        grads = node.apply(grad)\n        if not retain_graph:"},
          fails={THREE: "y.backward(retain_graph=True) after y.backward(), y = w * w raised AttributeError"},
          names=("y.backward(retain_graph=True) after y.backward()", "never brings back what an earlier backward freed")),
]

# Value.backward catching backward's RuntimeError and warning instead: unpack and apply did refuse.
CASES += [
    Wrong("backward_error_turned_into_a_warning", edits={
        "            raise RuntimeError(NO_GRAD_FN)\n        backward(self, retain_graph=bool(retain_graph))\n":
        "            raise RuntimeError(NO_GRAD_FN)\n        try:\n            backward(self, retain_graph=bool(retain_graph))\n"
        "        except RuntimeError as e:\n            warnings.warn(str(e))\n"},
          fails={DOCS: "A second y.backward(), y = w * w, passes on the error backward(y) raises there in PyTorch, but not in "
                       "your engine"},
          names=("passes on the error backward(y) raises", "never caught on the way"),
          unsaid=("never from node.saved itself",)),
]

# MulBackward0.apply reading through unpack but catching its RuntimeError (meant for a value never saved): a
# freed node gives gradients of 0; told as the error caught, never as an apply that reads node.saved itself.
CASES += [
    Wrong("apply_catches_unpack_refusal", edits={
        """        return (grad * self.unpack("other").item() if "other" in self.saved else 0.0,
                grad * self.unpack("self").item() if "self" in self.saved else 0.0)""":
        """        try:
            ga = grad * self.unpack("other").item()
        except (KeyError, RuntimeError):  # not saved: no gradient for that side
            ga = 0.0
        try:
            gb = grad * self.unpack("self").item()
        except (KeyError, RuntimeError):
            gb = 0.0
        return (ga, gb)"""},
          fails={"a second backward through the documents' graph": "called by hand after y.backward() freed that node"},
          names=("lets the RuntimeError unpack raises for a freed value reach",),
          unsaid=("never from node.saved itself",)),
]

# unpack raising a subclass of RuntimeError with PyTorch's text: PyTorch's is a RuntimeError itself, and the
# sentence says that, never that the subclass is no RuntimeError.
CASES += [
    Wrong("unpack_raises_a_subclass", edits={
        "            raise RuntimeError(SECOND_BACKWARD)\n": "            raise SecondBackwardError(SECOND_BACKWARD)\n",
        "\nclass Node:": "\nclass SecondBackwardError(RuntimeError):\n    \"\"\"A second backward through freed values.\"\"\"\n\n\nclass Node:"},
          fails={DOCS: "RuntimeError itself, not a subclass of it"},
          names=("not a subclass",)),
]

# backward refusing any released node before its apply, where unpack should refuse a freed saved value: ex18's
# program, a second graph on the same leaf, meets that leaf's AccumulateGrad (it saved nothing) and is refused.
# The sentence says backward raised it, at a node, not unpack.
CASES += [
    Wrong("backward_refuses_any_released_node", edits={
        "        if self.released:\n            raise RuntimeError(SECOND_BACKWARD)\n        value = self.saved[name]\n":
        "        value = self.saved[name]\n",
        "        grads = node.apply(grad)\n":
        "        if node.released:  # freed by an earlier backward\n            raise RuntimeError(SECOND_BACKWARD)\n"
        "        grads = node.apply(grad)\n"},
          fails={DOCS: "Your backward raised it itself, at a node it met"},
          names=("not Node.unpack reading a saved value freed",),
          unsaid=("That one backward through its graph met a node released already",)),
]

# unpack memoising what it handed out in self.__dict__.setdefault("_memo", {}): a literal name on the method's own
# object is no computed name, so the tests run, and a read after the release is told as raising nothing.
CASES += [
    Wrong("unpack_memo_in_own_dict", edits={
        "        if self.released:\n            raise RuntimeError(SECOND_BACKWARD)\n        value = self.saved[name]\n"
        "        return value\n":
        "        memo = self.__dict__.setdefault(\"_memo\", {})\n        if name in memo:\n            return memo[name]\n"
        "        if self.released:\n            raise RuntimeError(SECOND_BACKWARD)\n        memo[name] = self.saved[name]\n"
        "        return memo[name]\n"},
          fails={DOCS: "raised no error, where PyTorch raises one"},
          names=("Node.unpack checks whether its node was released",),
          unsaid=("computed name",)),
]

# A pass that raises midway frees every node of its graph, the nodes it never ran too: c's node, never reached,
# refuses a later c.backward(); told by that program, not as the error of the pass that raised.
CASES += [
    Wrong("releases_the_whole_graph_when_a_pass_raises", edits={
        "    while ready:\n": "    try:\n        _run(ready, buffers, waiting, pushed, retain_graph)\n    except RuntimeError:\n"
                             "        if not retain_graph:\n            for node in waiting:\n                node.release()\n"
                             "        raise\n\n\ndef _run(ready, buffers, waiting, pushed, retain_graph):\n    while ready:\n"},
          fails={INNER: "c.backward() after u.backward(); z.backward(), z = y * v + c"},
          names=("c.backward() after u.backward(); z.backward()", "frees the nodes it ran and no other")),
]

# Every node any backward ran is kept in a module-level list and freed by the next backward without
# retain_graph: another graph's kept nodes, and this graph's own not yet run, are freed with it.
CASES += [
    Wrong("releases_every_node_ever_run", edits={
        RELEASE_STEP: "        _RAN.append(node)\n        if not retain_graph:\n            for done in _RAN:\n"
                      "                done.release()\n            _RAN.clear()\n",
        "\ndef backward(": "\n_RAN = []  # nodes run so far\n\n\ndef backward("},
          fails={RETAINED: "a.backward() after a.backward(retain_graph=True); b.backward(), a = w * x, b = w * 3 raised"},
          names=("b.backward()", "and no other"), unsaid=("After y.backward(retain_graph=True) the graph is kept",)),
]

# backward catching the RuntimeError a freed node's apply raises, and returning quietly: apply does read
# through unpack, so the advice is about backward's except clause, never about node.saved.
CASES += [
    Wrong("backward_returns_when_apply_raises", edits={
        "        grads = node.apply(grad)\n": "        try:\n            grads = node.apply(grad)\n        except RuntimeError:\n"
                                             "            return  # graph already freed: nothing to do\n"},
          fails={DOCS: "backward(y), y = w * w, once y.backward() freed y.grad_fn"},
          names=("an except clause around apply",), unsaid=("never from node.saved itself",)),
]

# A depth counter backward raises and lowers around its walk (no try/finally), freeing only at depth one: once a
# backward raised, the counter stays up and no later backward frees anything; told as what the raised one left.
CASES += [
    Wrong("depth_counter_left_up_by_an_error", edits={
        "    first, _ = gradient_edge(root)\n": "    global _depth\n    _depth += 1\n    first, _ = gradient_edge(root)\n",
        RELEASE_STEP: "        if not retain_graph and _depth == 1:\n            node.release()\n",
        "                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))\n":
        "                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))\n    _depth -= 1\n",
        "\ndef backward(": "\n_depth = 0  # how many backward calls are running\n\n\ndef backward("},
          fails={DOCS: "a.grad_fn is released by a.backward(), v a new leaf, a = v * v, after a second y.backward() raised"},
          names=("after a second y.backward() raised", "put back however it ends"),
          unsaid=("retain_graph=True keeps the graph of that call alone",)),
]

# Leaves' AccumulateGrad nodes kept in a module-level list and found with == on a Value that compares numbers:
# a new leaf holding an earlier leaf's number gets that leaf's node; told as state kept between calls.
CASES += [
    Wrong("accumulators_found_by_equality", edits={
        "    if v._accumulator is None:\n        v._accumulator = AccumulateGrad(v)\n    return v._accumulator, 0\n":
        "    for leaf, node in _ACCUMULATORS:\n        if leaf == v:\n            return node, 0\n"
        "    node = AccumulateGrad(v)\n    _ACCUMULATORS.append((v, node))\n    return node, 0\n",
        "\ndef record(": "\n_ACCUMULATORS = []  # (leaf, its AccumulateGrad)\n\n\ndef record(",
        "    def item(self) -> float:\n": "    def __eq__(self, other: object) -> bool:\n"
                                     "        return isinstance(other, Value) and self.item() == other.item()\n\n"
                                     "    __hash__ = object.__hash__\n\n    def item(self) -> float:\n"},
          fails={DOCS: "x and w two new leaves holding one number, has one node at both edges"},
          names=("two new leaves holding one number", "== on a Value compares numbers")),
]

# State kept between calls in a default argument or on the class (unpack's memo by name, one saved dict for
# every node, a released flag set on Node), values freed by a module-level list, and a release that keeps a
# leaf's value: each told by what it did, on a fresh run where an earlier stage's program is all that ran.
UNPACK_BODY = '''        if self.released:
            raise RuntimeError(SECOND_BACKWARD)
        value = self.saved[name]
        return value'''
RELEASE_BODY = "        self.saved = dict.fromkeys(self.saved)\n        self.released = True"
CASES += [
    Wrong("unpack_default_memo", edits={  # each name read once, kept in a default dict every node shares
        "    def unpack(self, name: str) -> Value:": "    def unpack(self, name: str, _seen={}) -> Value:",
        UNPACK_BODY: "        if self.released:\n            raise RuntimeError(SECOND_BACKWARD)\n"
                     "        if name not in _seen:\n            _seen[name] = self.saved[name]\n        return _seen[name]"},
          fails={DOCS: "is not v, the Value that node saved"},
          names=("(u * v).grad_fn.unpack(\"other\")", "another value than the one that node saved")),
    Wrong("released_values_listed", edits={  # a value freed by one node is refused to every node that saved it
        UNPACK_BODY: "        value = self.saved[name]\n        if value in _FREED:\n"
                     "            raise RuntimeError(SECOND_BACKWARD)\n        return value",
        RELEASE_BODY: "        _FREED.extend(self.saved.values())",
        "\n\nclass Node:": "\n\n_FREED = []  # the saved values backward freed\n\n\nclass Node:"},
          fails={DOCS: "y.grad_fn is released by y.backward()", NEW_GRAPHS: "raised RuntimeError"},
          names=("is released by", "known on that node, whatever earlier graphs were freed")),
    Wrong("release_flags_the_class", edits={  # Node.released set where self.released was meant
        "        self.released = False  # True once backward freed the saved values\n": "",
        "    def __init__(self, next_functions": "    released = False  # True once backward freed the saved values\n\n"
                                              "    def __init__(self, next_functions",
        RELEASE_BODY: "        self.saved = dict.fromkeys(self.saved)\n        Node.released = True"},
          fails={DOCS: "run by no backward, is released already"},
          names=("the node of u * 3", "what one node's release did reached other nodes too"),
          unsaid=("the node was released before it ran, or ran again after its release",)),
    Wrong("saved_shared_default_dict", edits={  # the given save rewritten with a default dict every node shares
        "    def save(self, name: str, value: Value) -> None:\n        \"\"\"Keep ``value`` for backward.\"\"\"\n"
        "        self.saved[name] = value":
        "    def save(self, name: str, value: Value, _saved={}) -> None:\n        \"\"\"Keep ``value`` for backward.\"\"\"\n"
        "        _saved[name] = value\n        self.saved = _saved"},
          fails={DOCS: "hold one dict of saved values"},
          names=("their .saved is one object", "what one node saves, the other holds too"),
          unsaid=("saves w as \"self\" as well",)),
    Wrong("release_keeps_leaves", edits={  # a leaf's value taken for no memory to free: kept, and handed out
        UNPACK_BODY: "        value = self.saved[name]\n        if value is None:\n"
                     "            raise RuntimeError(SECOND_BACKWARD)\n        return value",
        RELEASE_BODY: "        self.saved = {k: (v if v.is_leaf else None) for k, v in self.saved.items()}\n"
                      "        self.released = True"},
          fails={DOCS: "Reading each value y.grad_fn saved through its unpack, once a backward released y.grad_fn, "
                       "raises an error in PyTorch, but not in your engine"},
          names=("Reading each value y.grad_fn saved", "whichever name it is asked for"),
          unsaid=("not a subclass of it",)),
]

# ex17's slip carried: the buffers of gradients kept in a module-level dict, never popped.  ex19's gate finds the
# sum of two backward calls wrong and tells why: a second backward through one graph had the nodes' applies return
# other gradients, state kept between calls, in backward (this stage's rewrite), not in ex19's store_grad.
CASES += [
    Wrong("buffers_in_a_module_dict_since_ex17", edits=BUFFERS_KEPT_IN_A_DICT, fails={DOCS: SENT_KEPT},
          names=("ex19", "state kept between calls", "The fault is in backward"),
          unsaid=("as well as in your ex19 answer",)),
]

# A release that frees more than the saved values: a leaf's AccumulateGrad let go of its variable too.  ex18's
# program meets the error ex19's store_grad raises on None; told as this stage's release, not as store_grad.
CASES += [
    Wrong("release_clears_the_leaf_of_its_accumulator", edits={
        RELEASE_BODY: RELEASE_BODY + "\n        if isinstance(self, AccumulateGrad):\n            self.variable = None"},
          fails={DOCS: "this stage builds on ex18"},
          names=("no longer holds w as its variable once its release() ran", "Node.release"),
          unsaid=("Your ex19 answer", "in ex19's part of the engine"),
          drawn=("an AccumulateGrad node whose variable is no Value",)),
]

# The given Value.backward edited to refuse a leaf (no grad_fn taken for no grad): ex17's program backward from a
# leaf fails, while the file's backward(v) works from one; told as the given method's, not as backward's.
CASES += [
    Wrong("value_backward_refuses_a_leaf", edits={
        "        if not self.requires_grad:\n            raise RuntimeError(NO_GRAD_FN)\n        backward(self,":
        "        if self.grad_fn is None:\n            raise RuntimeError(NO_GRAD_FN)\n        backward(self,"},
          fails={DOCS: "this stage builds on ex17"},
          names=("The fault is in Value.backward", "your backward called on another such leaf, writes its .grad"),
          unsaid=("The fault is in backward,", "backward may start at a leaf")),
]

# unpack refuses a value it was asked for once already (a name it read), not one release freed: retain_graph=True
# keeps nothing, though backward never releases then; told as a second read before any backward refused, and by
# unpack's rule, not by the rule of a backward through another graph freeing this one. Releasing in a finally
# around apply (a node that raised is released too) is right: full marks.
CASES += [
    Wrong("unpack_refuses_a_second_read",
          edits={"        if self.released:\n            raise RuntimeError(SECOND_BACKWARD)\n        value = self.saved[name]\n":
                 "        if not hasattr(self, \"read\"):\n            self.read = set()\n"
                 "        if name in self.read:  # read once already: freed\n            raise RuntimeError(SECOND_BACKWARD)\n"
                 "        self.read.add(name)\n        value = self.saved[name]\n"},
          fails={DOCS: "saved a second time (unpack), y = w * x, before any backward, raises no error in PyTorch",
                 RETAINED: "saved a second time (unpack)"},
          names=("a second time (unpack)", "unpack returns a value it saved and leaves it saved"),
          unsaid=("a backward through another graph frees its own",)),
    Correct("release_in_a_finally", edits={"        grads = node.apply(grad)\n" + RELEASE_STEP:
                                           "        try:\n            grads = node.apply(grad)\n        finally:\n"
                                           "            if not retain_graph:\n                node.release()\n"}),
]

# an unpack that refuses any second read of a name, released or not: y.backward(retain_graph=True); y.backward()
# raises where PyTorch's runs; "three backward calls" tells that second call, not an error quoted raw
CASES += [
    Wrong("unpack_refuses_a_second_read_after_retain", edits={
        "        if self.released:\n            raise RuntimeError(SECOND_BACKWARD)\n        value = self.saved[name]\n":
        "        reads = self.__dict__.setdefault(\"reads\", set())\n        if self.released or name in reads:\n"
        "            raise RuntimeError(SECOND_BACKWARD)\n        reads.add(name)\n        value = self.saved[name]\n"},
          fails={THREE: "A second y.backward() after y.backward(retain_graph=True), y = w * w raised RuntimeError"},
          names=("in Node.unpack", "a second time (unpack)", "a node's unpack returns a value it saved and leaves it saved"),
          unsaid=("Your code raised RuntimeError",)),
]

# every node released once the whole pass ended (a pass that failed midway frees nothing), and a release
# asked only for retain_graph False itself, which Value.backward hands on as given (None when left out)
CASES += [
    Wrong("released_when_the_pass_ends", edits={
        RELEASE_STEP: "        ran.append(node)\n",
        "    pushed = itertools.count(1)\n": "    pushed = itertools.count(1)\n    ran = []\n",
        "                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))":
        "                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))\n"
        "    for node in ran if not retain_graph else ():\n        node.release()"},
          fails={INNER: "z.grad_fn is released by z.backward(), z = y * v, u = y * 2, y = w * x in PyTorch, but not in your engine"},
          names=("z.grad_fn is released by z.backward()", "Backward frees each node right after its apply")),
    Wrong("released_only_for_retain_graph_false", edits={
        RELEASE_STEP: "        if retain_graph is False:\n            node.release()\n",
        "        backward(self, retain_graph=bool(retain_graph))\n": "        backward(self, retain_graph=retain_graph)\n"},
          fails={DOCS: "y.grad_fn is released by y.backward(), y = (x + w) * (w + 1) in PyTorch, but not in your engine"},
          names=("is released by", "retain_graph left out, False or None alike")),
]
