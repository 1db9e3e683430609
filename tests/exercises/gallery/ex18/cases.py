"""ex18 gallery: plausible wrong engines and correct variants (format: gallery_case.py)."""

from gallery_case import Correct, Wrong

RETAINED = "a.grad after a.retain_grad()"
WITHOUT = "non-leaf grads without retain_grad"
ON_LEAF = "retain_grad on a leaf"
BEFORE = "reading .grad before backward"
HIDDEN = "retain_grad on other nodes"
WARNS = '''        if not self.is_leaf and not self.retains_grad:
            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)'''
RETAIN = '''        if self.grad_fn is not None:
            self.grad_fn.retained = self
            self.retains_grad = True'''
CASES = [
    Wrong("warns_once_in_a_process", edits={  # the grader's earlier reads use the one warning up
        WARNS: "        global _WARNED\n        if not self.is_leaf and not self.retains_grad and not _WARNED:\n"
               "            _WARNED = True\n            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)",
        "\nclass Value:": "\n_WARNED = False\n\n\nclass Value:"},
          fails={RETAINED: "Reading y.grad twice, y = w * 2, warns both times in PyTorch, but not in your engine"},
          names=("y.grad twice", "at every read, not only the first")),
    Wrong("retained_list_on_the_class", edits={  # one list shared by every node: each node writes every retained value
        "\nclass Value:": "\nNode.retained_values = []\n\n\nclass Value:",
        "            self.grad_fn.retained = self\n": "            self.grad_fn.retained_values.append(self)\n",
        "        if node.retained is not None:\n            store_grad(node.retained, grad)":
        "        for kept in node.retained_values:\n            store_grad(kept, grad)"},
          fails={RETAINED: "After a.retain_grad(); y.backward(), only a.grad_fn's run wrote a.grad in PyTorch, but not in "
                           "your engine"},
          names=("only a.grad_fn's run wrote a.grad", "at no other node's run"),
          unsaid=("passes on to an input",)),  # y.grad last written at another node's run: no gradient y.grad_fn sent on
    Wrong("retained_grad_a_float", edits={"            store_grad(node.retained, grad)": "            node.retained._grad = grad"},
          fails={RETAINED: "a.grad is None or a Value like a in PyTorch, but not in your engine"},
          names=("a.grad", "as a Value", "store_grad")),
    Wrong("retain_grad_keeps_a_copy", edits={"            self.grad_fn.retained = self\n":
                                             "            self.grad_fn.retained = Value(self.item())\n"},
          fails={RETAINED: "a.retain_grad() tells a.grad_fn to write into a itself in PyTorch, but not in your engine"},
          names=("a.retain_grad() tells a.grad_fn", "not a copy"),  # retain_grad's slip, not backward's writing
          unsaid=("Backward writes into a retained",)),  # nor retain_grad() undone by another graph
    Wrong("retain_grad_assumes_a_node", edits={"        if self.grad_fn is not None:\n            self.grad_fn.retained = self\n":
                                               "        if True:\n            self.grad_fn.retained = self\n"},
          fails={ON_LEAF: "w.retain_grad() on a leaf that requires grad raised AttributeError"},
          names=("w.retain_grad() on a leaf that requires grad", "on a leaf that requires grad it changes nothing")),
    Wrong("grad_kept_on_every_node", edits={
        "        out.requires_grad = True\n    return out": "        out.requires_grad = True\n        out.grad_fn.retained = out\n    return out",
        WARNS: '''        if not self.is_leaf and self._grad is None:
            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)'''},
          fails={WITHOUT: "is not None, where PyTorch's is None"}, names=("a.grad after y.backward()", "a non-leaf that did not call retain_grad() keeps .grad None")),
    Wrong("prints_the_warning",  # the text printed where the warning belongs: print issues no warning
          edits={WARNS: WARNS.replace("warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)",
                                      'print("UserWarning: " + NON_LEAF_GRAD)')},
          fails={RETAINED: "your engine printed NON_LEAF_GRAD's text instead (print), which issues no warning; the same "
                           "holds where this test reads y.grad after a.retain_grad(); y.backward(), and where it reads "
                           "a.grad, b.grad, y.grad after y.backward()."},  # each read with its program
          names=("printed NON_LEAF_GRAD's text", "issues no warning")),
    Wrong("never_warns", edits={WARNS: "        pass"},
          fails={WITHOUT: "warns in PyTorch, but not in your engine"}, names=("reading", "warns")),
    Wrong("leaves_warn_too", edits={WARNS: '''        if not self.retains_grad:
            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)'''},
          fails={RETAINED: "reading w.grad", BEFORE: "reading w.grad warns in your engine, but not in PyTorch"},
          names=("reading", "a leaf and a retained non-leaf never warn")),
    Wrong("flag_without_writing", edits={RETAIN: "        self.retains_grad = True"},
          fails={RETAINED: "a.grad after a.retain_grad(); y.backward() is None"}, names=("a.grad", "the gradient its node receives")),
    Wrong("leaf_retains_grad", edits={RETAIN: '''        self.retains_grad = True
        if self.grad_fn is not None:
            self.grad_fn.retained = self'''},
          fails={ON_LEAF: "w.retains_grad after w.retain_grad()"}, names=("retains_grad", "on a leaf that requires grad it changes nothing")),
    Wrong("warning_of_another_kind", edits={"            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)":
                                            "            warnings.warn(\"a.grad is None: call retain_grad()\", stacklevel=2)"},
          fails={WITHOUT: "warns in PyTorch, with NON_LEAF_GRAD's text; your engine's warning says \"a.grad is None: call retain_grad()\"; "
                          "the same holds where this test reads b.grad, y.grad after y.backward()."},
          names=("reading", "NON_LEAF_GRAD")),  # it warns: its text differs, quoted once for every read
    Wrong("ex17_not_pasted", edits={"        return grad, grad\n": "        raise NotImplementedError(\"ex17: AddBackward0.apply\")\n"},
          fails={RETAINED: "this stage builds on ex17"}, names=("AddBackward0.apply", "paste your ex17 answer")),
    Wrong("retain_grad_on_constant_accepted", edits={"        if not self.requires_grad:\n            raise RuntimeError(RETAIN_NO_GRAD)\n": ""},
          fails={ON_LEAF: "c.retain_grad(), c = Value(-6) raised no error, where PyTorch raises one"},
          names=("c.retain_grad()", "RETAIN_NO_GRAD")),
    Wrong("retained_written_as_each_gradient_arrives", edits={  # g = h * h of t = (g + g) * (g * h)
        "        if node.retained is not None:\n            store_grad(node.retained, grad)\n": "",
        "            buffers[child] = buffers.get(child, 0.0) + g\n":
        "            buffers[child] = buffers.get(child, 0.0) + g\n"
        "            if child.retained is not None:\n                store_grad(child.retained, g)\n"},
          fails={HIDDEN: "g.grad after g.retain_grad(); t.backward(), t = p * q, p = g + g, q = g * h, g = h * h "
                         "is a different number from PyTorch's"},
          names=("g.grad after g.retain_grad()", "when that node runs")),
    Wrong("warns_for_a_retained_node_too", edits={WARNS: '''        if not self.is_leaf:
            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)'''},
          fails={RETAINED: "reading a.grad after a.retain_grad(); y.backward() warns in your engine, but not in PyTorch"},
          names=("reading a.grad", "a retained non-leaf never warn")),
    Wrong("recursive_backward_adding_up", edits={  # a shared node run once per path, its gradients summed
        "    v._grad = Value(grad)\n": "    v._grad = Value(grad + (v._grad.item() if v._grad is not None else 0.0))\n",
        "    first, _ = gradient_edge(root)\n": '''    def visit(node, grad):
        if node.retained is not None:
            store_grad(node.retained, grad)
        for (child, _), g in zip(node.next_functions, node.apply(grad)):
            if child is not None:
                visit(child, g)
    visit(gradient_edge(root)[0], 1.0)
    return
    first, _ = gradient_edge(root)
'''},
          fails={HIDDEN: "backward through t = p * q, p = g + g, q = g * h, g = h * h ran some node more than once"},
          names=("ran some node more than once", "backward runs each node once")),
    Wrong("warns_while_no_gradient_was_written", edits={WARNS: '''        if not self.is_leaf and self._grad is None:
            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)'''},
          fails={BEFORE: "after r = w * 3; r.retain_grad(), reading r.grad warns in your engine, but not in PyTorch"},
          names=("reading r.grad", "a retained non-leaf never warn")),
    Wrong("warns_as_a_runtime_warning", edits={"            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)":
                                               "            warnings.warn(NON_LEAF_GRAD, RuntimeWarning, stacklevel=2)"},
          fails={WITHOUT: "in your engine the warning is of type RuntimeWarning, not a UserWarning"},  # it warns: not "does not"
          names=("reading a.grad", "RuntimeWarning, not a UserWarning")),
    Wrong("retained_only_at_the_root", edits={"        if node.retained is not None:\n            store_grad(node.retained, grad)":
                                              "        if node.retained is not None and node is first:\n"
                                              "            store_grad(node.retained, grad)"},
          fails={RETAINED: "a.grad after a.retain_grad(); y.backward() is None"},
          names=("a.grad after a.retain_grad()", "the gradient its node receives")),
    Wrong("retained_after_apply", edits={
        "        if node.retained is not None:\n            store_grad(node.retained, grad)\n        grads = node.apply(grad)\n":
        "        grads = node.apply(grad)\n        if node.retained is not None:\n"
        "            store_grad(node.retained, grads[0] if grads else grad)\n"},
          fails={HIDDEN: "y.grad after b.retain_grad(); y.retain_grad(); y.backward() is a different number from "
                         "PyTorch's: backward wrote into that retained non-leaf's .grad a gradient its node's apply returned"},
          names=("y.retain_grad(); y.backward()", "a gradient its node's apply returned", "not the gradient its node was handed",
                 "which is the gradient retain_grad keeps"),
          unsaid=("g = h * h is a different number",)),  # the same mistake on g: told once
    Wrong("retained_kept_in_an_undefined_dict", edits={  # this stage's backward meets a name never defined
        "        if node.retained is not None:\n            store_grad(node.retained, grad)\n":
        "        kept = RETAINED.get(id(node))\n        if kept is not None:\n            store_grad(kept, grad)\n",
        "            self.grad_fn.retained = self\n": "            RETAINED[id(self.grad_fn)] = self\n"},
          fails={RETAINED: "this stage's code breaks ex17's program (one backward through each of w * w + w, (x + w) * (w + 1), z = n * m, m = v + 1, n = k + v, and w * 3 + (w * w) * 2 + 2)"},
          names=("NameError", "in backward", "ex18's part of the engine")),
    Wrong("retained_in_a_list_each_backward_clears", edits={  # a backward through another graph forgets a.retain_grad()
        "            self.grad_fn.retained = self\n": "            _RETAINED.append(self)\n",
        "def store_grad(": "_RETAINED = []\n\n\ndef store_grad(",
        "        if node.retained is not None:\n            store_grad(node.retained, grad)\n":
        "        for kept in asked:\n            if kept.grad_fn is node:\n                store_grad(kept, grad)\n",
        "    first, _ = gradient_edge(root)\n    waiting": "    asked = list(_RETAINED)\n    _RETAINED.clear()\n"
                                                        "    first, _ = gradient_edge(root)\n    waiting"},
          fails={HIDDEN: "a.grad after a.retain_grad(); (u * u).backward(); y.backward(), y = a * w, a = x + w is None"},
          names=("(u * u).backward()", "another graph in between does not undo it")),
    Correct("warn_with_the_default_category", edits={
        "            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)": "            warnings.warn(NON_LEAF_GRAD)"}),
    Correct("warn_then_return", edits={WARNS: '''        if self.grad_fn is not None and not self.retains_grad:
            warnings.warn(UserWarning(NON_LEAF_GRAD))'''}),
    Correct("retain_by_flag_only_in_node", edits={RETAIN: '''        if self.is_leaf:
            return
        self.retains_grad = True
        self.grad_fn.retained = self'''}),
]

# Retained told by the node's id in a set kept between calls: a new non-leaf whose node takes a
# freed retained node's id reads as retained (its .grad does not warn).
CASES += [
    Wrong("warns_after_return", edits={WARNS: "        return self._grad\n" + WARNS},  # the warning never reached
          fails={HIDDEN: "Reading a.grad after b.retain_grad(); y.retain_grad(); y.backward() warns in PyTorch, but not in "
                         "your engine"},
          names=("warns in PyTorch, but not in your engine", "a retained non-leaf never warn"),
          unsaid=("retained nodes' ids kept between calls",)),
    Wrong("retained_by_node_id", edits={
        WARNS: WARNS.replace("not self.retains_grad", "id(self.grad_fn) not in _RETAINED"),
        "            self.grad_fn.retained = self\n": "            self.grad_fn.retained = self\n            _RETAINED.add(id(self.grad_fn))\n",
        "\nclass Value:": "\n_RETAINED: set[int] = set()\n\n\nclass Value:"},
          fails={HIDDEN: "Reading b.grad after a = w * 3; a.retain_grad(); del a, w; b = v * 3 warns in PyTorch, "
                         "but not in your engine"},
          # the tests' other programs keep their retained values alive (``grader.spec.held``): only the freed-id
          # program puts a new node at a retained one's id, and the rule of ids is told on every run
          names=("a.retain_grad(); del a, w; b = v * 3", "retained nodes' ids kept between calls"),
          unsaid=("a retained non-leaf never warn",)),
]

# retain_grad() handing back the value, where PyTorch's returns None.
CASES += [
    Wrong("retain_grad_returns_the_value", edits={RETAIN: RETAIN + "\n        return self"},
          fails={HIDDEN: "(w * 3).retain_grad() returns None in PyTorch, but not in your engine"},
          names=("(w * 3).retain_grad()", "returns None")),
]

# ex16's slip carried: a product saves a factor under the other's condition, so w * 3 saves w and not 3,
# and the gate names ex16's part, not this stage's retain_grad.
CASES += [
    Wrong("mul_saves_swapped_since_ex16",
          edits={"            if self.requires_grad:\n                out.grad_fn.save(\"other\", other)\n"
                 "            if other.requires_grad:\n                out.grad_fn.save(\"self\", self)\n":
                 "            if other.requires_grad:\n                out.grad_fn.save(\"other\", other)\n"
                 "            if self.requires_grad:\n                out.grad_fn.save(\"self\", self)\n"},
          fails={RETAINED: "this stage builds on ex16"}, names=("ex16", "w * 3 does not save 3 as \"other\"")),
]

# ex16's slips carried: a product that saves both factors, and a leaf's edge numbered 1, pass
# every program of this stage; ex16's gate reads what w * 3 saved and the edges' second items.
CASES += [
    Wrong("mul_saves_both_since_ex16",
          edits={"            if self.requires_grad:\n                out.grad_fn.save(\"other\", other)\n"
                 "            if other.requires_grad:\n                out.grad_fn.save(\"self\", self)\n":
                 "            out.grad_fn.save(\"other\", other)\n            out.grad_fn.save(\"self\", self)\n"},
          fails={RETAINED: "this stage builds on ex16"}, names=("ex16", "w * 3 saves w as \"self\" as well")),
    Wrong("leaf_edge_numbered_one_since_ex16", edits={"    return v._accumulator, 0": "    return v._accumulator, 1"},
          fails={RETAINED: "this stage builds on ex16"}, names=("ex16", "a second item other than 0")),
]

# ex17's slips carried, each passing every program of this stage; ex17's gate names them.
CASES += [
    Wrong("buffers_summed_with_fsum_since_ex17", edits={
        "            buffers[child] = buffers.get(child, 0.0) + g": "            buffers.setdefault(child, []).append(g)",
        "        grad = buffers.pop(node)": "        grad = buffers.pop(node)\n        grad = math.fsum(grad) if type(grad) is list else grad",
        "import heapq": "import heapq\nimport math"},
          fails={RETAINED: "this stage builds on ex17"}, names=("ex17", "added one at a time, as each arrives")),
    Wrong("grad_that_requires_grad_since_ex17",
          edits={"    v._grad = Value(grad)\n": "    v._grad = Value(grad, requires_grad=v.requires_grad)\n"},
          fails={RETAINED: "this stage builds on ex17"}, names=("ex17", "store_grad put in w.grad requires grad")),
    Wrong("starts_at_grad_fn_since_ex17", edits={"    first, _ = gradient_edge(root)\n": "    first = root.grad_fn\n"},
          fails={RETAINED: "this stage builds on ex17"}, names=("ex17", "backward may start at a leaf")),
]

# A leaf's .grad kept between calls by the leaf's number: two leaves holding one number share one
# .grad (every other program gives such leaves one gradient, or leaves other numbers).
CASES += [
    Wrong("grad_kept_per_leaf_number", edits={
        "    v._grad = Value(grad)\n": "    if v.is_leaf:\n        kept = _GRADS.setdefault(v.item(), Value(0.0))\n"
                                      "        kept._box[0] = float(grad)\n        v._grad = kept\n"
                                      "    else:\n        v._grad = Value(grad)\n",
        "\ndef store_grad(": "\n_GRADS: dict[float, Value] = {}\n\n\ndef store_grad("},
          fails={HIDDEN: "u and v two leaves holding one number, u.grad and v.grad are two Values in PyTorch, but not in "
                         "your engine"},
          names=("u.grad and v.grad are two Values", "a dict keyed by the leaf's .item()")),
    Wrong("grad_read_by_leaf_number", edits={
        "    v._grad = Value(grad)\n": "    if v.is_leaf:\n        _GRADS[v.item()] = Value(grad)\n"
                                      "    else:\n        v._grad = Value(grad)\n",
        "        return self._grad\n": "        return _GRADS.get(self.item()) if self.is_leaf else self._grad\n",
        "\ndef store_grad(": "\n_GRADS: dict[float, Value] = {}\n\n\ndef store_grad("},
          fails={HIDDEN: "u and v two leaves holding one number, u.grad and v.grad are two Values in PyTorch, but not in "
                         "your engine"},
          names=("u.grad and v.grad are two Values", "in the grad property")),
    # one Value per gradient number: two leaves given one gradient share it
    Wrong("grad_value_kept_per_gradient", edits={
        "    v._grad = Value(grad)\n": "    v._grad = _GRADS.setdefault(grad, Value(grad))\n",
        "\ndef store_grad(": "\n_GRADS: dict[float, Value] = {}\n\n\ndef store_grad("},
          fails={HIDDEN: "u and v two leaves of one number, u.grad and v.grad are two Values in PyTorch, but not in "
                         "your engine"},
          names=("u.grad and v.grad are two Values", "or by the gradient")),
]

# ex17's dependencies keeping the nodes it walked in a module-level set: a second backward through
# one graph counts none of them, and raises; ex17's gate tells it, naming ex17.
CASES += [
    Wrong("nodes_walked_kept_between_calls_since_ex17", edits={
        "            if child not in counts:\n                counts[child] = 0\n                stack.append(child)\n"
        "            counts[child] += 1\n":
        "            if child not in _WALKED:\n                _WALKED.add(child)\n                stack.append(child)\n"
        "            counts[child] = counts.get(child, 0) + 1\n",
        "\ndef dependencies(": "\n_WALKED: set = set()\n\n\ndef dependencies("},
          fails={RETAINED: "this stage builds on ex17", HIDDEN: "dependencies(y.grad_fn), called after a y.backward()"},
          names=("ex17", "dependencies(y.grad_fn), called after a y.backward()", "keeping nothing from an earlier call")),
]

# A getter that gives a non-retained non-leaf Value(0) for its missing gradient: a new non-leaf at a
# freed retained node's id reads 0 too, told by the rule that such a .grad stays None, not by ids
# kept between calls (the getter keeps none).
CASES += [
    Wrong("zero_for_a_non_retained_grad", edits={WARNS: WARNS + "\n            return Value(0.0)"},
          fails={HIDDEN: "b.grad after a = w * 3; a.retain_grad(); del a, w; b = v * 3; b.backward() is not None"},
          names=("is not None", "keeps .grad None"), unsaid=("retained nodes' ids kept between calls",)),
]

# ex17's slip carried: a leaf's AccumulateGrad run only once no other node is ready, where PyTorch runs
# it as soon as it is ready (the highest sequence_nr); this stage's programs never show it, ex17's gate does.
CASES += [
    Wrong("accumulate_grads_last_since_ex17",
          edits={"                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))":
                 "                last = 1 if isinstance(child, AccumulateGrad) else -child.sequence_nr\n"
                 "                heapq.heappush(ready, (last, next(pushed), child))"},
          fails={RETAINED: "this stage builds on ex17"}, names=("ex17", "runs AccumulateGrad(k) after m.grad_fn")),
]

# The grad property gives the number .grad holds (item()), not the Value: store_grad writes a Value,
# the getter hands back a float; told as the getter's, not as backward writing a float.
CASES += [
    Wrong("grad_getter_gives_the_number", edits={"        return self._grad\n":
                                                 "        return None if self._grad is None else self._grad.item()\n"},
          fails={RETAINED: "After w.grad = g, g = Value(2), w.grad is g in PyTorch, but not in your engine"},
          names=("w.grad is g", "not its number"), unsaid=("through store_grad, as a leaf's",)),
]

# retain_grad() called a second time, or after a backward: PyTorch's is the same at every call and
# keeps only the gradients of the backward calls after it.
CASES += [
    Wrong("retain_grad_toggles", edits={RETAIN: '''        if self.grad_fn is not None:
            self.retains_grad = not self.retains_grad
            self.grad_fn.retained = self if self.retains_grad else None'''},
          fails={HIDDEN: "a.retains_grad after a.retain_grad(); a.retain_grad() is False, unlike PyTorch's"},
          names=("a.retain_grad(); a.retain_grad()", "calling it again keeps the gradient kept")),
    Wrong("every_gradient_stored_and_hidden", edits={  # the getter hides what backward wrote for every non-leaf
        "        out.requires_grad = True\n    return out": "        out.requires_grad = True\n        out.grad_fn.output = out\n    return out",
        "        if node.retained is not None:\n            store_grad(node.retained, grad)\n":
        "        if getattr(node, \"output\", None) is not None:\n            store_grad(node.output, grad)\n",
        WARNS: WARNS + "\n            return None"},
          fails={HIDDEN: "a.grad after y.backward(); a.retain_grad(), y = a * w, a = x + w is not None, where PyTorch's is None"},
          names=("y.backward(); a.retain_grad()", "a retain_grad() called after that backward finds .grad None")),
]

# ex16's shortcut carried: c + 0 and c * 1 of a constant handed back as c; ex16's gate names it.
CASES += [
    Wrong("constant_plus_zero_is_itself_since_ex16", edits={
        "        other = as_value(other)\n        return record(AddBackward0,":
        "        other = as_value(other)\n        if not recording(self, other) and other.item() == 0:\n            return self\n"
        "        return record(AddBackward0,"},
          fails={RETAINED: "this stage builds on ex16"}, names=("ex16", "c + 0 or c * 1")),
]

# Value.backward marks the root as done (requires_grad False) once backward ran: a second backward
# through it fails, told by what the first changed of y, not as a dependencies that keeps state.
ROOT_BACKWARD = "        backward(self, retain_graph=bool(retain_graph))\n"
CASES += [
    Wrong("backward_clears_requires_grad", edits={ROOT_BACKWARD: ROOT_BACKWARD + "        self.requires_grad = False\n"},
          fails={HIDDEN: "y.requires_grad after y.backward(), y = (d + d) + w, d = w + x is False, unlike PyTorch's"},
          names=("y.requires_grad after y.backward()", "leaves the value it starts from as it was"),
          unsaid=("dependencies keeps nothing between calls",)),
]

# ex17's MulBackward0.apply with its two gradients swapped: w * w + w passes (one number for both factors), and
# the gate, running the node's apply on its own, names that function, never backward's adding.
CASES += [
    Wrong("mul_apply_swapped_since_ex17", edits={
        """        return (grad * self.unpack("other").item() if "other" in self.saved else 0.0,
                grad * self.unpack("self").item() if "self" in self.saved else 0.0)""":
        """        return (grad * self.unpack("self").item() if "self" in self.saved else 0.0,
                grad * self.unpack("other").item() if "other" in self.saved else 0.0)"""},
          fails={RETAINED: "this stage builds on ex17"},
          names=("MulBackward0.apply sends each input the gradient times the other input",),
          unsaid=("The fault is in backward", "added one at a time")),
]

# retains_grad set to 1, not True: the tests name its type; the graph drawn reads it by truth, as the engine's
# own `not self.retains_grad` does, so a is not drawn as a non-leaf that does not retain its grad.
CASES += [
    Wrong("retains_grad_an_int", edits={RETAIN: RETAIN.replace("self.retains_grad = True", "self.retains_grad = 1")},
          fails={RETAINED: "yours is of type int, not a bool"}, names=("a.retains_grad",),
          unsaid=("does not retain its grad in your graph", "retains_grad is False")),
]

# the warning's text handed to logging.warning: a log record, no Python warning; told as logged, not as silence.
CASES += [
    Wrong("logs_the_warning", edits={
        "import warnings\n": "import logging\nimport warnings\n",
        WARNS: WARNS.replace("warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)", "logging.warning(NON_LEAF_GRAD)")},
          fails={RETAINED: "your engine logged NON_LEAF_GRAD's text instead (logging), which issues no Python warning"},
          names=("logged NON_LEAF_GRAD's text",),
          unsaid=("warns in PyTorch, but not in your engine",)),
]

# A backward that forgets the retained value once it wrote its gradient: retain_grad() lasts one
# backward only, while a.retains_grad stays True.
CASES += [
    Wrong("retained_forgotten_after_write", edits={
        "            store_grad(node.retained, grad)\n": "            store_grad(node.retained, grad)\n"
                                                         "            node.retained = None\n"},
          fails={HIDDEN: "a.grad after a.retain_grad(); y.backward(); a.grad = None; y.backward(), y = a + w, "
                         "a = x + w is None"},
          names=("every backward through its node writes its gradient",)),
]

# A getter that, reading .grad of a non-leaf that does not retain it, warns and then marks it
# retained: the next backward writes it.  Told by the flags it set, never as a record of ids.
CASES += [
    Wrong("grad_read_marks_retained", edits={
        WARNS: WARNS + "\n            self.retains_grad = True\n            self.grad_fn.retained = self\n"
                       "            return None"},
          fails={HIDDEN: "a.retains_grad after b.retain_grad(); y.retain_grad(); y.backward() is True"},
          names=("retains_grad",), unsaid=("retained nodes' ids kept between calls",)),
    Wrong("retain_grad_puts_zero", edits={  # retain_grad() puts Value(0) in .grad before any backward
        RETAIN: RETAIN + "\n        self._grad = Value(0.0)"},
          fails={HIDDEN: "r.grad after r = w * 3; r.retain_grad() is not None"},
          names=("r.retain_grad() is not None",), unsaid=("a retain_grad() called after that backward finds",)),
]

# Slips of one's own: retain_grad() refusing a leaf that requires grad, a getter that warns for a
# value that requires no grad, retained nodes forgotten at the end of every backward, retain_grad()
# that tells the node but never sets retains_grad.
CASES += [
    Wrong("retain_grad_refuses_leaves", edits={
        "        if not self.requires_grad:\n            raise RuntimeError(RETAIN_NO_GRAD)\n":
        "        if not self.requires_grad or self.is_leaf:\n            raise RuntimeError(RETAIN_NO_GRAD)\n"},
          fails={ON_LEAF: "w.retain_grad() on a leaf that requires grad raised RuntimeError"},
          names=("where PyTorch's runs without an error",)),
    Wrong("constants_warn", edits={"        if not self.is_leaf and not self.retains_grad:\n":
                                   "        if not self.requires_grad or (not self.is_leaf and not self.retains_grad):\n"},
          fails={BEFORE: "Reading c.grad warns in your engine, but not in PyTorch"}, names=("Reading c.grad warns",)),
    Wrong("retained_forgotten_after_every_backward", edits={
        "                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))\n":
        "                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))\n"
        "    for node in waiting:\n        node.retained = None\n"},
          fails={HIDDEN: "a.grad after a.retain_grad(); y.backward(); a.grad = None; y.backward()"},
          names=("every backward through its node writes its gradient",)),
    Wrong("retained_without_the_flag", edits={
        "            self.grad_fn.retained = self\n            self.retains_grad = True\n":
        "            self.grad_fn.retained = self\n"},
          fails={RETAINED: "a.retains_grad after a.retain_grad(); y.backward() is False"},
          names=("retains_grad", "warns in your engine, but not in PyTorch")),
    Correct("warns_with_the_defaults", edits={
        "            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)\n": "            warnings.warn(NON_LEAF_GRAD)\n"}),
]

# A retained gradient written when its node becomes ready, in the loop over the edges (the root,
# never made ready there, is never written), and a backward that gives every root its seed in .grad.
CASES += [
    Wrong("retained_written_when_ready", edits={
        "        if node.retained is not None:\n            store_grad(node.retained, grad)\n": "",
        "            if waiting[child] == 0:\n": "            if waiting[child] == 0:\n"
                                               "                if child.retained is not None:\n"
                                               "                    store_grad(child.retained, buffers[child])\n"},
          fails={RETAINED: "only a.grad_fn's run wrote a.grad in PyTorch, but not in your engine",
                 HIDDEN: "y.grad after y.retain_grad(); y.backward() is None"},
          names=("when that node runs",)),
    Wrong("root_given_its_seed", edits={
        "    buffers = {first: 1.0}\n": "    buffers = {first: 1.0}\n    if root.grad_fn is not None:\n"
                                       "        store_grad(root, 1.0)\n"},
          fails={WITHOUT: "y.grad after y.backward() is not None"}, names=("backward writes no gradient there",)),
]

# A warning whose text is NON_LEAF_GRAD and then the value read: PyTorch's own text goes on past
# NON_LEAF_GRAD too (where it was triggered), so the phrase is what a reader can rely on.
CASES += [
    Correct("warning_names_the_value", edits={
        "            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)":
        '            warnings.warn(f"{NON_LEAF_GRAD} ({self!r})", UserWarning, stacklevel=2)'}),
]

# Retained gradients noted as their nodes run and written once every node has run: the same
# .grad, and no code of this stage runs in between to read it (a hook that could is ex22's).
CASES += [
    Correct("retained_written_after_the_loop", edits={
        "            store_grad(node.retained, grad)\n": "            late.append((node.retained, grad))\n",
        "    waiting = dependencies(first)\n": "    waiting = dependencies(first)\n    late = []\n",
        "                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))\n":
        "                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))\n"
        "    for value, g in late:\n        store_grad(value, g)\n"}),
]

# ex17's MulBackward0.apply multiplying by the saved Values, not their numbers, carried here: the
# gradients are right, but backward records a graph; ex17's gate names MulBackward0.apply.
CASES += [
    Wrong("mul_by_the_saved_values_since_ex17", edits={
        '        return (grad * self.unpack("other").item() if "other" in self.saved else 0.0,\n'
        '                grad * self.unpack("self").item() if "self" in self.saved else 0.0)':
        '        return (grad * self.unpack("other") if "other" in self.saved else 0.0,\n'
        '                grad * self.unpack("self") if "self" in self.saved else 0.0)'},
          fails={RETAINED: "made by MulBackward0.apply"},
          names=("ex17", "MulBackward0.apply", "records no graph")),
]

# The buffers of gradients kept in a module-level dict, never popped (a slip of ex17 carried on): a later backward
# through the same graph starts from what the first left there; told as state kept between calls, not as a
# retain_grad() that writes the first backward's gradient only.
CASES += [
    Wrong("buffers_in_a_module_dict_since_ex17", names=("state kept between calls",),
          fails={"retain_grad on other nodes": "had the nodes' apply calls return other gradients than the first backward did"},
          unsaid=("not the first one only",),
          edits={"    buffers = {first: 1.0}\n": "    buffers = _BUFFERS\n    buffers[first] = buffers.get(first, 0.0) + 1.0\n",
                 "        grad = buffers.pop(node)\n": "        grad = buffers[node]\n",
                 "def backward(root: Value, retain_graph: bool = False) -> None:\n":
                 "_BUFFERS: dict = {}\n\n\ndef backward(root: Value, retain_graph: bool = False) -> None:\n"}),
]

# retain_grad() as a hook of its own: the node's apply wrapped, on the node, in a closure that writes the gradient
# first, then calls the apply it read from the node (bound: the class's function, past the grader's watch of the
# class), or looks it up on the class as it runs. The node runs all the same: full marks, not "never ran".
HOOKED = "            node, run = self.grad_fn, self.grad_fn.apply\n\n"
WRAPPED = ("            def apply(grad: float) -> tuple[float, ...]:\n                store_grad(self, grad)\n"
           "                return run(grad)\n            node.apply = apply\n            self.retains_grad = True")
CASES += [
    Correct("retain_grad_wraps_apply", edits={
        "            self.grad_fn.retained = self\n            self.retains_grad = True": HOOKED + WRAPPED}),
    Correct("retain_grad_wraps_apply_looked_up_late", edits={
        "            self.grad_fn.retained = self\n            self.retains_grad = True":
        "            node = self.grad_fn\n\n" + WRAPPED.replace("run(grad)", "type(node).apply(node, grad)")}),
]

# The warning held back until a backward has run in the process (a module-level record backward appends to): a
# fresh import's first read does not warn. Told as that, not as ids of retained nodes kept between calls.
CASES += [
    Wrong("warns_only_once_a_backward_ran", edits={
        WARNS: "        if not self.is_leaf and not self.retains_grad and _BACKWARD_RAN:\n"
               "            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)",
        "\nclass Value:": "\n_BACKWARD_RAN = []  # nothing to warn about before a backward ran\n\n\nclass Value:",
        "    first, _ = gradient_edge(root)\n": "    _BACKWARD_RAN.append(True)\n    first, _ = gradient_edge(root)\n"},
          fails={HIDDEN: "Reading q.grad after importlib.reload(engine); q = v * 3 warns in PyTorch, but not in your engine"},
          names=("importlib.reload(engine)", "before any backward", "depends on nothing kept between calls"),
          unsaid=("ids kept between calls", "a freed one's id")),
]

# Retained values told by their number (a module-level set retain_grad() adds to): a non-leaf of the same number
# that never called retain_grad() reads quiet. Told by two values of one number, both alive.
CASES += [
    Wrong("retained_told_by_number", edits={
        WARNS: "        if not self.is_leaf and self.item() not in _RETAINED_NUMBERS:\n"
               "            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)",
        "            self.retains_grad = True\n": "            self.retains_grad = True\n            _RETAINED_NUMBERS.add(self.item())\n",
        "\nclass Value:": "\n_RETAINED_NUMBERS = set()\n\n\nclass Value:"},
          fails={HIDDEN: "not to its number"},
          names=("the same number that did not call retain_grad() warns",), unsaid=("a freed one's id",)),
]

# The warning given once per value, its id kept in a module-level set: a second read of one non-leaf is quiet.
# retain_grad() on a value that requires no grad refused with a ValueError, not PyTorch's RuntimeError.
# retain_grad() through gradient_edge (a leaf's AccumulateGrad told the leaf, which it writes anyway): full marks.
CASES += [
    Wrong("warned_once_per_value_id", edits={
        WARNS: "        if not self.is_leaf and not self.retains_grad and id(self) not in _WARNED:\n"
               "            _WARNED.add(id(self))\n            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)",
        "\nclass Value:": "\n_WARNED = set()  # warn once per value, as Python warns once per place\n\n\nclass Value:"},
          fails={RETAINED: "Reading y.grad twice, y = w * 2, warns both times in PyTorch, but not in your engine"},
          names=("y.grad twice", "at every read, not only the first")),
    Wrong("retain_no_grad_as_value_error", edits={
        "            raise RuntimeError(RETAIN_NO_GRAD)": "            raise ValueError(RETAIN_NO_GRAD)"},
          fails={ON_LEAF: "raised ValueError"},
          names=("c.retain_grad()", "raised ValueError", "where PyTorch raises another error")),
    Correct("retain_grad_through_the_edge", edits={
        "        if self.grad_fn is not None:\n            self.grad_fn.retained = self\n            self.retains_grad = True":
        "        gradient_edge(self)[0].retained = self\n        self.retains_grad = not self.is_leaf"}),
]

# retain_grad() as a hook on the node that writes what the node's apply returns for its first input, not the
# gradient the node received (a g.grad_fn that sends on a different number shows it).
CASES += [
    Wrong("retain_grad_hook_writes_what_apply_sends", edits={
        "            self.grad_fn.retained = self\n            self.retains_grad = True": HOOKED
        + "            def apply(grad: float) -> tuple[float, ...]:\n                sent = run(grad)\n"
          "                store_grad(self, sent[0])\n                return sent\n"
          "            node.apply = apply\n            self.retains_grad = True"},
          fails={HIDDEN: "y.grad after b.retain_grad(); y.retain_grad(); y.backward() is a different number from "
                         "PyTorch's: backward wrote into that retained non-leaf's .grad a gradient its node's apply returned"},
          names=("y.retain_grad(); y.backward()", "not the gradient its node was handed", "which is the gradient retain_grad keeps"),
          unsaid=("never ran", "g = h * h is a different number")),
]

# The grad getter raises the warning (raise UserWarning(NON_LEAF_GRAD)) instead of issuing it: every read of a
# non-leaf's .grad ends there. Told as a warning's class raised as an error, beside where it was raised.
CASES += [
    Wrong("warning_raised_not_issued", edits={
        "            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)\n        return self._grad":
        "            raise UserWarning(NON_LEAF_GRAD)\n        return self._grad"},
          fails={"a.grad after a.retain_grad()": "UserWarning is a warning's class, raised here as an error"},
          names=("UserWarning", "Value.grad", "warnings.warn")),
]

# ex17's backward pairing apply's gradients with the entries that hold a node alone, (None, 0) left out: no program of
# this stage puts a constant first, so ex17's gate tells it, naming backward.
CASES += [
    Wrong("gradients_zipped_with_node_entries_alone_since_ex17", edits={
        "        for (child, _), g in zip(node.next_functions, grads):\n            if child is None:\n                continue\n":
        "        edges = [edge for edge in node.next_functions if edge[0] is not None]\n"
        "        for (child, _), g in zip(edges, grads):\n"},
          fails={RETAINED: "gives w the gradient y.grad_fn.apply returned first, for c"},
          names=("y = c * w", "in its place", "backward")),
]

# backward's buffers keyed by node.sequence_nr, looked up with no default: the gate's program meets a
# KeyError whose text is the key alone ("inf"), told with the two nodes that share it
CASES += [
    Wrong("gate_buffers_keyed_by_sequence_nr",
          edits={"    buffers = {first: 1.0}\n": "    buffers = {first.sequence_nr: 1.0}\n",
                 "        grad = buffers.pop(node)\n": "        grad = buffers.pop(node.sequence_nr)\n",
                 "            buffers[child] = buffers.get(child, 0.0) + g\n":
                 "            buffers[child.sequence_nr] = buffers.get(child.sequence_nr, 0.0) + g\n"},
          fails={RETAINED: "That KeyError's key is the sequence_nr of two different nodes of the graph your backward"},
          names=("two AccumulateGrad nodes, which have the same sequence_nr", "one entry for both nodes")),
]

# retain_grad told apart by is_leaf (a leaf that requires grad keeps its gradient anyway): the same answers
CASES += [
    Correct("retain_grad_by_is_leaf", edits={
        "        if not self.requires_grad:\n            raise RuntimeError(RETAIN_NO_GRAD)\n        if self.grad_fn is not None:\n":
        "        if self.is_leaf and not self.requires_grad:\n            raise RuntimeError(RETAIN_NO_GRAD)\n"
        "        if not self.is_leaf:\n"}),
]

# ex16's __add__ handing a Python number on as it came: the gate's AttributeError told with that operand
CASES += [
    Wrong("add_hands_the_number_on_since_ex16", edits={
        "        other = as_value(other)\n        return record(AddBackward0, self.item() + other.item(), self, other)\n":
        "        number = other.item() if isinstance(other, Value) else other\n"
        "        return record(AddBackward0, self.item() + number, self, other)\n"},
          fails={RETAINED: "That AttributeError was raised on a Python number (of type int) your Value.__add__ was given"},
          names=("your Value.__add__ was given as other", "where a Value belongs")),
]

# ex17's buffers keyed by node.name(), looked up with a default: the gate's finding about a sum is told with the
# key a new y = w * x's two leaves' gradients went under
CASES += [
    Wrong("gate_buffers_keyed_by_name_with_a_default", edits={
        "    buffers = {first: 1.0}\n": "    buffers = {first.name(): 1.0}\n",
        "        grad = buffers.pop(node)\n": "        grad = buffers.pop(node.name(), 0.0)\n",
        "            buffers[child] = buffers.get(child, 0.0) + g\n":
        "            buffers[child.name()] = buffers.get(child.name(), 0.0) + g\n"},
          fails={RETAINED: "gives one leaf the gradients sent to both leaves' AccumulateGrad nodes, summed, and the other 0"},
          names=("a dict in your backward holds, as a key, the name() of those two nodes", "one buffer")),
]
