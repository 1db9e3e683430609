"""ex22 gallery: plausible wrong no_grad, detach and hook engines (format: gallery_case.py)."""

from gallery_case import BUFFERS_KEPT_IN_A_DICT, SENT_KEPT, RETAIN_ON_A_LEAF_NODE, RETAINED_LEAF_DOUBLED, Correct, Wrong

PUBLIC = "no_grad and hooks on the documents' graph"
SGD = "an SGD step under no_grad"
ORDER = "the order hooks run in"
HOOKS_HIDDEN = "hooks on other inputs"
BACKWARD_HOOKS = '''        grad = run_hooks(node.pre_hooks, grad)
        if node.retained is not None:
            store_grad(node.retained, grad)
'''
CASES = [
    Wrong("ex20_retained_written_after_apply", edits={  # right in ex18 and ex19: the gate of ex20 tells it
        "        if node.retained is not None:\n            store_grad(node.retained, grad)\n        grads = node.apply(grad)\n":
        "        grads = node.apply(grad)\n        if node.retained is not None:\n            store_grad(node.retained, grad)\n"},
          fails={PUBLIC: "The fault is in backward"}, names=("retained y = w * w", "before apply", "backward")),
    Wrong("exit_takes_no_arguments", edits={"    def __exit__(self, *exc: object) -> None:": "    def __exit__(self) -> None:"},
          fails={PUBLIC: "raised when a `with no_grad():` block ended"},
          names=("no_grad.__exit__", "exception type, value and traceback"),
          unsaid=("raised while the test used what your code returned",)),
    Wrong("hook_result_of_zero_ignored", edits={  # a Value holding 0 is taken for "no result"
        "        if result is not None:\n            grad = result.item()\n": "        grad = (result and result.item()) or grad\n"},
          fails={HOOKS_HIDDEN: "x.grad (a's hook returning g * 0) is a different number from PyTorch's"},
          names=("a's hook returning g * 0", "whatever number it holds, 0 too")),
    Wrong("hook_result_handed_on_as_a_value", edits={  # the hook's Value itself goes on, into a leaf's number
        "        if result is not None:\n            grad = result.item()\n": "        if result is not None:\n            grad = result\n"},
          fails={HOOKS_HIDDEN: "v.grad after two backward calls of v * c, c a Value that requires no grad, v's hook doubling "
                               "is not the kind of result PyTorch's is: yours is not a number"},
          names=("its item() returns Value", "never the Value itself")),
    Wrong("grad_mode_asked_by_record_only", edits={  # add_ asks recording(), which ignores grad mode
        "    return GradMode.enabled and any(v.requires_grad for v in inputs)":
        "    return any(v.requires_grad for v in inputs)",
        "    if recording(*inputs):": "    if GradMode.enabled and recording(*inputs):"},
          fails={SGD: "w.grad_fn after w.add_(w.grad * -0.1) under no_grad is not None"},
          names=("w.is_leaf after w.add_(w.grad * -0.1) under no_grad", "add_ and zero_ ask recording(...)")),
    Wrong("grad_mode_kept_on_the_block", edits={  # __enter__ and __exit__ switch an attribute of their own
        "        GradMode.enabled = False\n": "        self.enabled = False\n"},
          fails={PUBLIC: "Inside no_grad: (w * 2 + 1).grad_fn is not None"},
          names=("Inside no_grad", "no_grad.__enter__ switches grad mode off")),
    Wrong("ex21_version_bumped_before_the_leaf_check", edits={  # an ex21 part: the refused add_ bumped w's version
        "        other = as_value(other)\n        check_in_place(self)\n":
        "        other = as_value(other)\n        self._versions[0] += 1\n        check_in_place(self)\n",
        "        self._box[0] += other.item()\n        self._versions[0] += 1\n": "        self._box[0] += other.item()\n"},
          fails={PUBLIC: "w.add_(1) on a leaf that requires grad, refused, changed w's version"},
          names=("ex21's check fails", "Value.add_")),
    Wrong("retain_grad_keeps_a_leaf_on_its_node", edits=RETAIN_ON_A_LEAF_NODE,
          fails={"hooks on other inputs": RETAINED_LEAF_DOUBLED},
          names=("w.retain_grad()", "on a leaf that requires grad changes nothing")),
    Wrong("hooks_run_only_where_kept", edits={  # a non-leaf's hooks run only if it retains its grad
        "        grad = run_hooks(node.pre_hooks, grad)\n":
        "        if node.retained is not None or isinstance(node, AccumulateGrad):\n"
        "            grad = run_hooks(node.pre_hooks, grad)\n"},
          fails={ORDER: "the hooks on a ran during (c * d).backward() in PyTorch, but not in your engine; the same holds with b, c, d"},
          names=("the hooks on", "ran during (c * d).backward()")),
    Wrong("saved_mode_on_the_class", edits={  # two nested blocks share one saved mode: the inner one's
        "        self.previous = GradMode.enabled": "        no_grad.previous = GradMode.enabled",
        "        GradMode.enabled = self.previous": "        GradMode.enabled = no_grad.previous"},
          fails={PUBLIC: "after a no_grad block with another nested in it: (w * 2).grad_fn is None, where PyTorch's is not"},
          names=("with another nested in it", "the outer block's saved mode")),
    Wrong("hooks_handed_a_gradient_that_requires_grad", edits={
        "        result = hook(Value(grad))": "        result = hook(Value(grad, requires_grad=True))"},
          fails={PUBLIC: "every gradient the hooks of y = a * b received requires no grad in PyTorch, but not in your engine"},
          names=("every gradient the hooks", "a Value that requires no grad")),
    Wrong("hooks_walked_in_the_live_dict", edits={  # a hook that removes its own handle changes the dict walked
        "    for hook in list(hooks.values()):": "    for hook in hooks.values():"},
          fails={HOOKS_HIDDEN: "whose hook on w takes itself out with its handle and doubles the gradient raised RuntimeError"},
          names=("takes itself out with its handle", "run_hooks")),
    Wrong("recording_stays_off", edits={"        GradMode.enabled = self.previous\n": "        pass\n"},
          fails={PUBLIC: "after the block: (w * 2).requires_grad is False", SGD: "after the block: (w * 2)"},
          names=("after the block: (w * 2)", "recording is as it was before it"),
          passes=(HOOKS_HIDDEN, ORDER)),  # each test starts with grad mode as a fresh import leaves it
    Wrong("grad_mode_starts_off", edits={"    enabled = True\n": "    enabled = False\n"},
          fails={HOOKS_HIDDEN: "nothing is recorded, even outside no_grad: grad mode is off although no with no_grad() block is open"},
          names=("nothing is recorded", "grad mode is off")),
    Wrong("register_hook_returns_nothing", edits={"        hooks[handle.id] = hook\n        return handle\n": "        hooks[handle.id] = hook\n"},
          fails={PUBLIC: "b.register_hook(hook) returned a handle with a remove() method in PyTorch, but not in your engine. "
                         "register_hook returns a handle",  # no removal told: no remove() ever ran
                 HOOKS_HIDDEN: "w.register_hook(double), registered a second time, returned a handle with a remove() "
                               "method in PyTorch, but not in your engine. register_hook returns a handle"},
          names=("b.register_hook(hook) returned a handle", "register_hook returns a handle")),
    Wrong("hook_result_ignored", edits={'''        result = hook(Value(grad))
        if result is not None:
            grad = result.item()''': "        hook(Value(grad))"},
          fails={PUBLIC: "w.grad is the Value w's second hook returned in PyTorch, but not in your engine"},
          names=("w.grad", "replaces the gradient")),
    Wrong("hooks_called_with_a_float", edits={'''        result = hook(Value(grad))
        if result is not None:
            grad = result.item()''': '''        result = hook(grad)
        if result is not None:
            grad = float(result)'''},
          fails={HOOKS_HIDDEN: "A hook is called with a Value (the type of the value it is registered on) in PyTorch, but not in your engine"},
          names=("a hook is called with a Value", "g.item()")),
    Wrong("retained_before_hooks", edits={BACKWARD_HOOKS: '''        if node.retained is not None:
            store_grad(node.retained, grad)
        grad = run_hooks(node.pre_hooks, grad)
'''}, fails={PUBLIC: "a.grad (a retained, its hook scales it) is a different number from PyTorch's. Backward uses a "
                 "value's gradient only after its hooks ran, as they left it: before a leaf's .grad is written or a "
                 "retained gradient kept."},  # the rule of that case alone
          names=("a.grad", "a retained gradient kept")),
    Wrong("fifo_order", edits={"heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))":
                               "heapq.heappush(ready, (0, next(pushed), child))"},
          fails={ORDER: "ex17's part of the engine does not work"},  # the gate: ex17's order, in backward
          names=("in another order than PyTorch's", "highest sequence_nr first", "The fault is in backward")),
    Wrong("sgd_step_refused", edits={"    if v.is_leaf and v.requires_grad and GradMode.enabled:":
                                     "    if v.is_leaf and v.requires_grad:"},
          fails={SGD: "w.add_(w.grad * -0.1) under no_grad raised RuntimeError: \"a leaf Variable that requires grad is being used in an in-place operation.\" in check_in_place"}, names=("w.add_(w.grad * -0.1) under no_grad", "may change in place")),
    Wrong("hook_on_constant_accepted", edits={"        if not self.requires_grad:\n            raise RuntimeError(HOOK_ON_CONSTANT)\n": "        if not self.requires_grad:\n            return RemovableHandle({})\n"},
          fails={ORDER: "register_hook on a Value that requires no grad raised no error, where PyTorch raises one"}, names=("register_hook", "HOOK_ON_CONSTANT")),
    Wrong("hooks_in_reverse", edits={"    for hook in list(hooks.values()):": "    for hook in reversed(list(hooks.values())):"},
          fails={PUBLIC: "the list of the hooks that ran"}, names=("the list of the hooks that ran", "in the order registered")),
    Wrong("exit_turns_recording_on", edits={"        GradMode.enabled = self.previous\n": "        GradMode.enabled = True\n"},
          fails={PUBLIC: "inside no_grad, after a nested no_grad block ended: (w * 3).grad_fn is not None"},
          names=("after a nested no_grad block ended", "still off after a nested no_grad block")),
    Wrong("leaf_hook_on_grad_fn", edits={"        hooks = gradient_edge(self)[0].pre_hooks\n": "        hooks = self.grad_fn.pre_hooks\n"},
          fails={PUBLIC: "AttributeError"}, names=("register_hook", "'NoneType' object has no attribute 'pre_hooks'")),
    Wrong("leaf_hook_without_making_its_accumulator", edits={  # a leaf no operation used has no AccumulateGrad yet
        "        hooks = gradient_edge(self)[0].pre_hooks\n": "        hooks = (self.grad_fn or self._accumulator).pre_hooks\n"},
          fails={HOOKS_HIDDEN: "w.register_hook(double) on a leaf no operation has used yet raised AttributeError: "
                               "\"'NoneType' object has no attribute 'pre_hooks'\" in Value.register_hook, where PyTorch's "
                               "runs without an error. register_hook on a leaf that no operation has used yet"},
          names=("on a leaf no operation has used yet", "AccumulateGrad", "gradient_edge"), passes=(PUBLIC, ORDER)),
    Wrong("remove_does_nothing", edits={"        self.hooks.pop(self.id, None)": "        pass"},
          fails={PUBLIC: "b's hook, taken out with handle.remove(), stays out in PyTorch, but not in your engine. "
                         "handle.remove() takes out the hook that handle registered, and no other."},
          names=("b's hook", "handle.remove() takes out the hook")),
    Wrong("exit_restores_only_without_error", edits={"        GradMode.enabled = self.previous\n":
                                                     "        if exc[0] is None:\n            GradMode.enabled = self.previous\n"},
          fails={PUBLIC: "after a no_grad block that raised: (w * 7).requires_grad is False"},
          names=("after a no_grad block that raised", "back on after a block that raised"),
          passes=(HOOKS_HIDDEN, ORDER, "detach() cuts the graph")),  # not charged for the mode the public test left
    Wrong("exit_swallows_the_error", edits={"        GradMode.enabled = self.previous\n":
                                            "        GradMode.enabled = self.previous\n        return True\n"},
          fails={PUBLIC: "with no_grad(): raise ProbeError(...) (an error class of the test's own) raised no error, where "
                         "PyTorch raises one"},
          names=("with no_grad(): raise ProbeError", "whose error goes on")),
    Wrong("hooks_after_apply", edits={BACKWARD_HOOKS + "        grads = node.apply(grad)\n": '''        if node.retained is not None:
            store_grad(node.retained, grad)
        grads = node.apply(grad)
        grad = run_hooks(node.pre_hooks, grad)
'''}, fails={PUBLIC: "w.grad is the Value w's second hook returned in PyTorch, but not in your engine"},
          names=("w.grad is the Value w's second hook returned", "before a leaf's .grad is written")),
    Wrong("recording_ignores_grad_mode", edits={
        "    return GradMode.enabled and any(v.requires_grad for v in inputs)": "    return any(v.requires_grad for v in inputs)"},
          fails={PUBLIC: "inside no_grad: (w * 2 + 1).grad_fn is not None"}, names=("inside no_grad", "nothing is recorded")),
    Wrong("hook_result_added", edits={"            grad = result.item()": "            grad = grad + result.item()"},
          fails={PUBLIC: "w.grad is the Value w's second hook returned in PyTorch, but not in your engine"},
          names=("w.grad is the Value w's second hook returned", "replaces the gradient")),
    Wrong("recording_mode_or_inputs", edits={"    return GradMode.enabled and any(v.requires_grad for v in inputs)":
                                             "    return GradMode.enabled or any(v.requires_grad for v in inputs)"},
          fails={PUBLIC: "The fault is in recording, which this file holds as your ex22 answer"},  # ex16's gate meets it
          names=("recording(c)", "is True outside no_grad", "The fault is in recording")),
    Correct("no_grad_state_through_its_namespace", edits={  # a literal public name, as setattr may write
        "        self.previous = GradMode.enabled\n": "        self.__dict__['previous'] = GradMode.enabled\n",
        "        GradMode.enabled = self.previous\n": "        GradMode.enabled = vars(self)['previous']\n"}),
    Wrong("hooks_handed_the_first_gradient", edits={
        "    for hook in list(hooks.values()):\n        result = hook(Value(grad))":
        "    given = Value(grad)\n    for hook in list(hooks.values()):\n        result = hook(given)"},
          fails={PUBLIC: "the gradient x's second hook received (its first returns a Value) is a different number"},
          names=("the gradient x's second hook received", "the next hook's argument too")),
    Wrong("hooks_keyed_by_function", edits={"        hooks[handle.id] = hook\n": "        handle.id = id(hook)\n        hooks[handle.id] = hook\n"},
          fails={HOOKS_HIDDEN: "the list of the hooks of w that ran (the same hook registered twice, the second handle "
                               "removed) has fewer entries than PyTorch's"},
          names=("the list of the hooks of w that ran", "handle.remove() takes out the hook that handle registered")),
    Wrong("requires_grad_set_under_no_grad", edits={"        out.requires_grad = True\n    return out":
                                                    "    out.requires_grad = any(v.requires_grad for v in inputs)\n    return out"},
          fails={PUBLIC: "inside no_grad: (w * 2 + 1).requires_grad is True, unlike PyTorch's"},
          names=("inside no_grad: (w * 2 + 1).requires_grad", "a result is a leaf that requires no grad")),
    Wrong("hook_errors_swallowed", edits={"        result = hook(Value(grad))\n":
                                          "        try:\n            result = hook(Value(grad))\n        except Exception:\n"
                                          "            continue\n"},
          fails={HOOKS_HIDDEN: "the backward of y = w * 3 whose hook on w raises ProbeError (an error class of the test's "
                               "own) raised no error, where PyTorch raises one"},
          names=("whose hook on w raises ProbeError", "an error a hook raises goes on out of backward"),
          unsaid=("whose hook on w raises ValueError",)),  # every type swallowed: told once, by the test's own
    Correct("no_grad_by_a_stack", edits={'''        self.previous = GradMode.enabled
        GradMode.enabled = False''': '''        STATES.append(GradMode.enabled)
        GradMode.enabled = False''', "        GradMode.enabled = self.previous\n": "        GradMode.enabled = STATES.pop()\n",
        "\n\nclass no_grad:": "\n\nSTATES: list[bool] = []\n\n\nclass no_grad:"}),
    Correct("no_grad_as_a_counter", edits={'''        self.previous = GradMode.enabled
        GradMode.enabled = False''': '''        self.previous = GradMode.enabled
        GradMode.enabled = bool(0)'''}),
    Correct("hooks_by_index", edits={'''    for hook in list(hooks.values()):
        result = hook(Value(grad))
        if result is not None:
            grad = result.item()''': '''    ordered = [hooks[key] for key in sorted(hooks)]
    for i in range(len(ordered)):
        result = ordered[i](Value(grad))
        grad = grad if result is None else result.item()'''}),
    # no_grad built on contextlib.ContextDecorator, so that it works as a decorator too
    Correct("no_grad_as_a_context_decorator", edits={"from typing import Any, Callable\n": "import contextlib\nfrom typing import Any, Callable\n",
                                                    "class no_grad:\n": "class no_grad(contextlib.ContextDecorator):\n"}),
]

# Hooks on the value backward starts from skipped (the seed is 1 "by definition"); a handle's
# remove() that raises when called a second time.
CASES += [
    Wrong("root_hooks_skipped", edits={"        grad = run_hooks(node.pre_hooks, grad)\n":
                                       "        if node is not first:\n            grad = run_hooks(node.pre_hooks, grad)\n"},
          fails={HOOKS_HIDDEN: "The list of the hooks that ran in y.backward() and u.backward() has fewer entries"},
          names=("y.backward()", "the hooks of the value it starts from")),
    Wrong("remove_twice_raises", edits={"        self.hooks.pop(self.id, None)\n": "        del self.hooks[self.id]\n"},
          fails={HOOKS_HIDDEN: "handle.remove() a second time raised KeyError"},
          names=("handle.remove() a second time", "does nothing")),
]

# zero_ that rebases when the value requires grad (not when recording(...) says so), and a leaf
# refused by an inline check instead of check_in_place: both right at ex21, wrong under no_grad.
ZERO_CHECK = '''        """Set the number to 0 in place (``w.grad.zero_()``); returns self."""
        check_in_place(self)
'''
CASES += [
    Wrong("zero_rebased_by_flag", edits={"        if recording(self):\n            rebase(self, ZeroBackward0(edges))\n":
                                         "        if self.requires_grad:\n            rebase(self, ZeroBackward0(edges))\n"},
          fails={SGD: "after y = w * 2; y.zero_() under no_grad: y.grad_fn is"},
          names=("y.zero_() under no_grad", "a non-leaf keeps its grad_fn")),
    Wrong("zero_refuses_leaves_inline", edits={ZERO_CHECK: ZERO_CHECK.replace(
        "        check_in_place(self)\n", "        if self.is_leaf and self.requires_grad:\n            raise RuntimeError(LEAF_IN_PLACE)\n")},
          fails={SGD: "w.zero_() under no_grad on a leaf that requires grad raised RuntimeError"},
          names=("w.zero_() under no_grad", "with zero_ as with add_")),
]

# Leaves made ready together run newest pushed first (ties broken last in, first out): their
# order among themselves is open, as ex17 compares it; each value's hooks still run in order.
CASES += [
    Correct("tied_leaves_last_pushed_first", edits={
        "                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))":
        "                heapq.heappush(ready, (-child.sequence_nr, -next(pushed), child))"}),
]

# Hooks kept outside their node, in a module dict by id(node): a new node at a freed node's id
# runs the dead one's hooks; a leaf's AccumulateGrad kept only weakly (ex16), so a hook put on a
# leaf no operation has used yet goes with it; and the hooks' result kept for a retained value
# but not handed to apply.
CASES += [
    Wrong("hooks_kept_by_node_id", edits={
        "        hooks = gradient_edge(self)[0].pre_hooks\n": "        hooks = HOOKS.setdefault(id(gradient_edge(self)[0]), {})\n",
        "        grad = run_hooks(node.pre_hooks, grad)\n": "        grad = run_hooks(HOOKS.get(id(node), {}), grad)\n",
        "\n\nclass no_grad:": "\n\nHOOKS: dict[int, dict] = {}\n\n\nclass no_grad:"},
          # every hooked value of the tests' programs lives on (``grader.spec.held``): stale hooks reach a new
          # node only in this stage's probe of freed values, which frees its own on purpose
          fails={HOOKS_HIDDEN: "(w * 2).backward(), w a new leaf, ran no hook: the only hooks registered were on values "
                               "already freed in PyTorch, but not in your engine"},
          names=("hooks kept elsewhere by id(node)",), unsaid=("which those programs changed",)),
    Wrong("accumulators_kept_weakly", edits={
        "    if v._accumulator is None:\n        v._accumulator = AccumulateGrad(v)\n    return v._accumulator, 0\n":
        "    node = ACCUMULATORS.get(id(v))\n    if node is None:\n        node = ACCUMULATORS[id(v)] = AccumulateGrad(v)\n"
        "    return node, 0\n",
        "import heapq\n": "import heapq\nimport weakref\n",
        "\n\nclass no_grad:": "\n\nACCUMULATORS: weakref.WeakValueDictionary = weakref.WeakValueDictionary()\n\n\nclass no_grad:"},
          fails={HOOKS_HIDDEN: "the hooks registered on w before any operation used it ran during (w * 5).backward() in "
                               "PyTorch, but not in your engine"},
          names=("before any operation used it", "keeps its AccumulateGrad for its life"), passes=(PUBLIC, ORDER)),
    Wrong("hooked_gradient_kept_but_not_applied", edits={BACKWARD_HOOKS: '''        hooked = run_hooks(node.pre_hooks, grad)
        if node.retained is not None:
            store_grad(node.retained, hooked)
'''}, fails={PUBLIC: "w.grad is the Value w's second hook returned in PyTorch, but not in your engine"},
          names=("w.grad is the Value w's second hook returned", "as they left it")),
]

# A leaf's hook put on a new AccumulateGrad no graph uses (not the one gradient_edge gives); hooks
# moved along to the new node of an in-place op (PyTorch leaves them on the old history).
CASES += [
    Wrong("leaf_hook_on_a_new_accumulator", edits={
        "        hooks = gradient_edge(self)[0].pre_hooks\n": "        hooks = (self.grad_fn or AccumulateGrad(self)).pre_hooks\n"},
          fails={PUBLIC: "The hooks on w ran during y.backward() in PyTorch, but not in your engine"},
          names=("the hooks on w", "the node gradient_edge gives for it"), unsaid=("result.item()",)),
    Wrong("rebase_moves_the_hooks", edits={
        "    v.grad_fn = node\n    v.requires_grad = True\n":
        "    if v.grad_fn is not None:\n        node.pre_hooks, v.grad_fn.pre_hooks = v.grad_fn.pre_hooks, {}\n"
        "    v.grad_fn = node\n    v.requires_grad = True\n"},
          fails={HOOKS_HIDDEN: "one registered before a.zero_(), one after"},
          names=("registered before a.zero_()", "a hook stays on the node its value had when it was registered")),
]

# run_hooks takes each hook out of the node's dict as it runs it: a second backward runs none.
CASES += [
    Wrong("hooks_run_once_then_dropped", edits={"    for hook in list(hooks.values()):": "    for key in list(hooks):\n        hook = hooks.pop(key)"},
          fails={HOOKS_HIDDEN: "v's hook ran once in each of the two backward calls of v * c in PyTorch, but not in your engine"},
          names=("v's hook", "until its handle's remove()"), unsaid=("result.item()",)),
]

# ex21's slip carried: a saved value changed in place is never refused (the versions compared the wrong
# way), so backward gives a wrong gradient silently; the gate names ex21's part.
CASES += [
    Wrong("version_check_never_since_ex21",
          edits={"        if value._version != self.saved_versions[name]:\n":
                 "        if value._version < self.saved_versions[name]:\n"},
          fails={PUBLIC: "this stage builds on ex21"}, names=("ex21", "modified by an inplace operation")),
]

# register_hook refusing a hook while grad mode is off (it asks recording(...) instead of requires_grad):
# setup code under no_grad loses its hook, where PyTorch keeps it.
CASES += [
    Wrong("hook_refused_under_no_grad",
          edits={"        if not self.requires_grad:\n            raise RuntimeError(HOOK_ON_CONSTANT)\n":
                 "        if not recording(self):\n            raise RuntimeError(HOOK_ON_CONSTANT)\n"},
          fails={"hooks on other inputs": "inside no_grad, w a leaf that requires grad raised RuntimeError"},
          names=("inside no_grad", "not whether grad mode is on")),
]

# ex18's slip carried: a retained non-leaf's .grad read before its backward warns (the getter asks
# whether a gradient was written, not whether the value retains it); the gate names ex18's part.
CASES += [
    Wrong("warns_while_no_gradient_was_written_since_ex18",
          edits={"        if not self.is_leaf and not self.retains_grad:\n":
                 "        if not self.is_leaf and self._grad is None:\n"},
          fails={PUBLIC: "this stage builds on ex18"}, names=("ex18", "r.retain_grad(), before any backward, warns")),
]

# ex20's slip carried: only the first node backward runs is freed, so a backward from a root an
# earlier one ran through works where PyTorch raises; ex20's gate tells it.
CASES += [
    Wrong("releases_only_the_first_node_since_ex20",
          edits={"        if not retain_graph:\n            node.release()\n":
                 "        if not retain_graph and not released_one:\n            node.release()\n            released_one = True\n",
                 "    pushed = itertools.count(1)\n": "    pushed = itertools.count(1)\n    released_one = False\n"},
          fails={PUBLIC: "this stage builds on ex20"},  # which nodes backward releases: not Node.release's doing
          names=("ex20", "y.backward() after z.backward()", "not only the root's", "The fault is in backward"),
          unsaid=("Node.release",)),
]

# ex21's slip carried: add_'s edges kept in one module-level list every AddBackward0 shares, so an
# in-place op on another graph changes an earlier node's edges; ex21's gate tells it.
CASES += [
    Wrong("edges_in_a_module_level_list_since_ex21", edits={
        "        edges = (gradient_edge(self), gradient_edge(other))\n        self._box[0] += other.item()":
        "        EDGES.clear()\n        EDGES.extend((gradient_edge(self), gradient_edge(other)))\n        self._box[0] += other.item()",
        "            rebase(self, AddBackward0(edges))": "            rebase(self, AddBackward0(EDGES))",
        "\nclass Value:": "\nEDGES = []\n\n\nclass Value:"},
          fails={PUBLIC: "this stage builds on ex21"}, names=("ex21", "c.add_(w)", "a node's edges are its own")),
]

# register_hook on a non-leaf that calls retain_grad() first ("a non-leaf needs retain_grad for its
# hook"): every hook runs as PyTorch's, but the value keeps its gradient, where PyTorch's does not.
CASES += [
    Wrong("hook_on_a_non_leaf_retains_it",
          edits={"        hooks = gradient_edge(self)[0].pre_hooks\n":
                 "        if self.grad_fn is not None:\n            self.retain_grad()\n"
                 "        hooks = gradient_edge(self)[0].pre_hooks\n"},
          fails={PUBLIC: "h.retains_grad after h.register_hook(hook); (h * w).backward() is True, unlike PyTorch's"},
          names=("h.retains_grad after h.register_hook(hook)", "does not make the value retain its gradient")),
]

# ex19's slip carried: a retained non-leaf's running sum kept on its node, which a.grad.zero_() never
# resets; this stage's programs never zero a retained gradient, ex19's gate tells it.
CASES += [
    Wrong("retained_sum_kept_on_the_node_since_ex19", edits={
        "        v._grad = Value(v._grad.item() + grad)":
        "        v.grad_fn.retained_sum += grad\n        v._grad = Value(v.grad_fn.retained_sum)",
        "    if v._grad is None:\n        v._grad = Value(grad)\n":
        "    if v._grad is None:\n        v._grad = Value(grad)\n        if not v.is_leaf:\n            v.grad_fn.retained_sum = grad\n"},
          fails={PUBLIC: "this stage builds on ex19"}, names=("ex19", "a.grad.zero_() on a retained a", "store_grad")),
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
    Wrong("zero_edge_in_a_module_level_list_since_ex21", edits=ZERO_EDGE_IN_A_MODULE_LIST, fails={PUBLIC: "this stage builds on ex21"},
          names=("ex21", "q.zero_()", "a node's edges are its own")),
]

# ex16's slips carried: no __radd__, and edges kept in a list, pass every program of this stage;
# ex16's gate names them, and not this stage's recording, which cannot make either.
CASES += [
    Wrong("no_radd_since_ex16", edits={"    __radd__ = __add__\n": ""},
          fails={PUBLIC: "this stage builds on ex16"}, names=("ex16", "__radd__"), unsaid=("recording",)),
    Wrong("edges_in_a_list_since_ex16",
          edits={"        out.grad_fn = op(tuple(gradient_edge(v) for v in inputs))":
                 "        out.grad_fn = op([gradient_edge(v) for v in inputs])"},
          fails={PUBLIC: "this stage builds on ex16"}, names=("ex16", "(w * x).grad_fn.next_functions is not a tuple"),
          unsaid=("recording",)),
]
DEPENDENCIES_LOOP = '''    counts: dict[Node, int] = {root: 0}
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


# ex17's slip carried: a recursive dependencies that raises the recursion limit as it starts
# passes every program of this stage; ex17's gate watches how deep the file's calls nest.
CASES += [
    Wrong("dependencies_by_recursion_limit_raised_in_call_since_ex17", edits={
        "import heapq\n": "import heapq\nimport sys\n",
        DEPENDENCIES_LOOP: "    sys.setrecursionlimit(max(sys.getrecursionlimit(), 100_000))\n" + DEPENDENCIES_RECURSIVE},
          fails={PUBLIC: "this stage builds on ex17"}, names=("ex17", "whatever recursion limit the file sets")),
    Correct("push_children_reversed", edits={  # two leaves' hooks of one node: their order is left open
        "        for (child, _), g in zip(node.next_functions, grads):":
        "        for (child, _), g in reversed(list(zip(node.next_functions, grads))):"}),
]

# hooks run on each gradient that arrives, in the edge loop, not once on the node's sum: a node
# two edges reach runs its hooks twice; told by that rule, not by the order nodes run in.
CASES += [
    Wrong("hooks_run_per_edge",
          fails={ORDER: "Each hook on a, b, c, d and w ran at most once during (c * d).backward() in PyTorch, but not in your engine"},
          unsaid=("highest sequence number first",)),
]

# ex20's slip carried: backward releases every node once the whole pass ended, so a pass that
# raised at a later node leaves the nodes it ran unreleased; ex20's gate tells it.
CASES += [
    Wrong("released_after_the_whole_pass_since_ex20",
          edits={"        if not retain_graph:\n            node.release()\n": "",
                 "                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))\n":
                 "                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))\n"
                 "    if not retain_graph:\n        for node in waiting:\n            node.release()\n"},
          fails={PUBLIC: "this stage builds on ex20"},
          names=("ex20", "changes v.grad", "the step of backward that releases", "The fault is in backward"),
          unsaid=("Node.release",)),  # release frees right: backward calls it too late
]

# ex17's dependencies keeping the nodes it walked in a module-level set, carried: the second
# backward of an earlier stage's program raised in backward, a function ex22 rewrote, and was told
# as ex22's error; ex17's gate runs a second backward through a graph of additions and names ex17.
CASES += [
    Wrong("nodes_walked_kept_between_calls_since_ex17", edits={
        "            if child not in counts:\n                counts[child] = 0\n                stack.append(child)\n"
        "            counts[child] += 1\n":
        "            if child not in _WALKED:\n                _WALKED.add(child)\n                stack.append(child)\n"
        "            counts[child] = counts.get(child, 0) + 1\n",
        "\ndef dependencies(": "\n_WALKED: set = set()\n\n\ndef dependencies("},
          fails={"no_grad and hooks on the documents' graph": "this stage builds on ex17"},
          names=("ex17", "dependencies(y.grad_fn), called after a y.backward()", "keeping nothing from an earlier call"),
          unsaid=("an error of ex22's part of the engine",)),
]

# no_grad.__enter__ that toggles grad mode, not switches it off: a block nested in another records
# again inside it; its __exit__ puts the outer block's mode back, so after it all is right.
CASES += [
    Wrong("enter_toggles_the_mode", edits={"        GradMode.enabled = False\n": "        GradMode.enabled = not GradMode.enabled\n"},
          fails={PUBLIC: "inside a no_grad block nested in another: (w * 4)"},
          names=("inside a no_grad block nested in another", "switches grad mode off")),
]

# no_grad.__exit__ that swallows a RuntimeError raised inside its block (the engine's own errors'
# type), and lets any other go on: a block raising RuntimeError tells it.
CASES += [
    Wrong("exit_swallows_runtime_errors", edits={"        GradMode.enabled = self.previous\n":
                                                 "        GradMode.enabled = self.previous\n        return bool(exc) and exc[0] is RuntimeError\n"},
          fails={PUBLIC: "with no_grad(): raise RuntimeError(...) raised no error, where PyTorch raises one"},
          names=("with no_grad(): raise RuntimeError", "goes on out of it whatever its type")),
]

# run_hooks that skips a hook raising ValueError or TypeError (and lets any other error go on):
# a hook raising ValueError tells it.
CASES += [
    Wrong("hook_value_errors_skipped", edits={"        result = hook(Value(grad))\n":
                                              "        try:\n            result = hook(Value(grad))\n"
                                              "        except (ValueError, TypeError):\n            continue\n"},
          fails={HOOKS_HIDDEN: "whose hook on w raises TypeError raised no error"},
          names=("TypeError", "ValueError", "an error a hook raises goes on out of backward whatever its type")),
]

# Error types no probe named before each built-in class was raised in turn: an __exit__ that swallows
# a LookupError (by issubclass), and a run_hooks that skips a hook raising KeyError or AttributeError.
CASES += [
    Wrong("exit_swallows_lookup_errors", edits={"        GradMode.enabled = self.previous\n":
                                                "        GradMode.enabled = self.previous\n"
                                                "        return exc[0] is not None and issubclass(exc[0], LookupError)\n"},
          fails={PUBLIC: "with no_grad(): raise IndexError(...) raised no error, where PyTorch raises one"},
          names=("IndexError", "KeyError", "LookupError", "no_grad.__exit__ returns nothing")),
    Wrong("hook_attribute_errors_skipped", edits={"        result = hook(Value(grad))\n":
                                                  "        try:\n            result = hook(Value(grad))\n"
                                                  "        except (KeyError, AttributeError):\n            continue\n"},
          fails={HOOKS_HIDDEN: "whose hook on w raises AttributeError raised no error"},
          names=("AttributeError", "KeyError", "neither run_hooks nor backward catches it")),
]

# A hook's argument, or a leaf's hooks, kept past the moment the other programs look: one Value handed
# to every hook and overwritten with each result, leaf hooks kept by id(leaf) (a new leaf at a freed
# id inherits them), a leaf's AccumulateGrad dropped while its requires_grad is off (its hooks lost),
# and a detach() that copies retains_grad.
CASES += [
    Wrong("one_value_for_every_hook", edits={
        "    for hook in list(hooks.values()):\n        result = hook(Value(grad))\n        if result is not None:\n"
        "            grad = result.item()\n    return grad\n":
        "    given = Value(grad)\n    for hook in list(hooks.values()):\n        result = hook(given)\n"
        "        if result is not None:\n            given._box[0] = result.item()\n    return given.item()\n"},
          fails={HOOKS_HIDDEN: "The gradient w's first hook received, read after y.backward(), y = w * 3 (w's second hook "
                               "doubles) is a different number from PyTorch's"},
          names=("the gradient w's first hook received, read after y.backward()", "a Value a hook returns is a new one")),
    Wrong("leaf_hooks_kept_by_id", edits={
        "        hooks = gradient_edge(self)[0].pre_hooks\n":
        "        hooks = self.grad_fn.pre_hooks if self.grad_fn is not None else _LEAF_HOOKS.setdefault(id(self), {})\n",
        "        grad = run_hooks(node.pre_hooks, grad)\n":
        "        grad = run_hooks(_LEAF_HOOKS.get(id(node.variable), {}) if isinstance(node, AccumulateGrad) "
        "else node.pre_hooks, grad)\n",
        "\ndef run_hooks(": "\n_LEAF_HOOKS: dict[int, dict[int, Callable[[Value], Value | None]]] = {}\n\n\ndef run_hooks("},
          fails={HOOKS_HIDDEN: "(w * 2).backward(), w a new leaf, ran no hook: the only hooks registered were on leaves "
                               "already freed in PyTorch, but not in your engine"},
          names=("w a new leaf", "hooks kept elsewhere by id(leaf)")),
    Wrong("accumulator_dropped_while_not_requiring_grad", edits={
        "    if not v.requires_grad:\n        return None, 0\n    if v._accumulator is None:":
        "    if not v.requires_grad:\n        v._accumulator = None\n        return None, 0\n    if v._accumulator is None:"},
          fails={HOOKS_HIDDEN: "w's hook ran during (w * 3).backward() after w.requires_grad = False; c = w * x; "
                               "w.requires_grad = True in PyTorch, but not in your engine"},
          names=("w.requires_grad = False; c = w * x; w.requires_grad = True", "for its whole life")),
    Wrong("detach_copies_retains_grad", edits={
        "        alias._box, alias._versions = self._box, self._versions\n        return alias\n":
        "        alias._box, alias._versions = self._box, self._versions\n        alias.retains_grad = self.retains_grad\n"
        "        return alias\n"},
          fails={"detach() cuts the graph": "y.detach().retains_grad after y = w * 2; y.retain_grad() is True, unlike PyTorch's"},
          names=("y.detach().retains_grad", "retains nothing")),
]

# add_ and zero_ bumping the version only while grad mode is on: told by the versions under no_grad,
# with their own rule, not as a step under no_grad being refused.
CASES += [
    Wrong("no_version_bump_under_no_grad", edits={
        "        self._box[0] = 0.0\n        self._versions[0] += 1\n":
        "        self._box[0] = 0.0\n        if GradMode.enabled:\n            self._versions[0] += 1\n",
        "        self._box[0] += other.item()\n        self._versions[0] += 1\n":
        "        self._box[0] += other.item()\n        if GradMode.enabled:\n            self._versions[0] += 1\n"},
          fails={SGD: "w._version after w.add_(w.grad * -0.1) under no_grad is a different number from PyTorch's"},
          names=("w._version after w.add_(w.grad * -0.1) under no_grad", "bumps the version counter as it does outside it"),
          unsaid=("may change in place (the SGD step)",)),
]

# backward keeping a retained value's hooked gradient but handing apply the gradient from before the
# hooks: every later program's gradients follow, told by that one rule, not each program's own.
CASES += [
    Wrong("apply_given_the_gradient_before_the_hooks", edits={BACKWARD_HOOKS + "        grads = node.apply(grad)\n":
                                                             BACKWARD_HOOKS.replace("grad = run_hooks", "hooked = run_hooks")
                                                             .replace("store_grad(node.retained, grad)",
                                                                      "store_grad(node.retained, hooked)")
                                                             + "        grads = node.apply(grad)\n"},
          fails={HOOKS_HIDDEN: "w.grad is the Value w's second hook returned in PyTorch, but not in your engine"},
          names=("w.grad is the Value w's second hook returned", "only after its hooks ran, as they left it"),
          unsaid=("a hook may take itself out", "register_hook asks whether the value requires grad",
                  "whatever number it holds, 0 too")),
]

# backward switching grad mode off as it starts and on as it ends, without try/finally: once a backward
# raised (ex20's second backward) nothing is recorded; told as that backward, not as a no_grad block.
CASES += [
    Wrong("backward_leaves_grad_mode_off_when_it_raised", edits={
        "    first, _ = gradient_edge(root)\n": "    GradMode.enabled = False\n    first, _ = gradient_edge(root)\n",
        "                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))\n":
        "                heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))\n    GradMode.enabled = True\n"},
          fails={PUBLIC: "nothing is recorded once a backward raised"},
          names=("a second y.backward()", "did not put back the mode it found when it ended with an error"),
          unsaid=("although no with no_grad() block is open",)),
]

# ex21's float version counter (+= 1.0), carried: counted right, of another type; ex21's gate says
# the type, not that the number and version of the changes through detach() and .data differ.
CASES += [
    Wrong("version_counter_a_float_since_ex21", edits={
        "        self._box[0] += other.item()\n        self._versions[0] += 1\n":
        "        self._box[0] += other.item()\n        self._versions[0] += 1.0\n",
        "        self._box[0] = 0.0\n        self._versions[0] += 1\n": "        self._box[0] = 0.0\n        self._versions[0] += 1.0\n"},
          fails={PUBLIC: "this stage builds on ex21"}, names=("ex21", "is not an int"),
          unsaid=("do not give PyTorch's number and version",)),
]

# __mul__ building its node itself, asking requires_grad alone (past record(...)): w * 2 inside no_grad is
# recorded while a sum is not; told by the product itself, not as a nesting of blocks.
CASES += [
    Wrong("mul_records_past_record", edits={
        "        other = as_value(other)\n        out = record(MulBackward0, self.item() * other.item(), self, other)\n"
        "        if out.grad_fn is not None:\n":
        "        other = as_value(other)\n        out = Value(self.item() * other.item())\n"
        "        if self.requires_grad or other.requires_grad:\n"
        "            out.grad_fn = MulBackward0((gradient_edge(self), gradient_edge(other)))\n            out.requires_grad = True\n"},
          fails={PUBLIC: "Inside no_grad: (w * 2).grad_fn is not None"},
          names=("Inside no_grad: (w * 2)", "a product as a sum")),
]

# Leaves' hooks kept in a module-level dict beside each leaf, found with == on a Value that compares numbers:
# a hook on w runs for any leaf holding w's number; told by two such leaves, not by each program it spoils.
CASES += [
    Wrong("leaf_hooks_found_by_equality", edits={
        "        hooks = gradient_edge(self)[0].pre_hooks\n":
        "        if self.is_leaf:\n            handle = RemovableHandle(_LEAF_HOOKS)\n            _LEAF_HOOKS[handle.id] = (self, hook)\n"
        "            return handle\n        hooks = gradient_edge(self)[0].pre_hooks\n",
        "        store_grad(self.variable, grad)\n":
        "        for leaf, hook in list(_LEAF_HOOKS.values()):\n            if leaf == self.variable:\n"
        "                result = hook(Value(grad))\n                if result is not None:\n                    grad = result.item()\n"
        "        store_grad(self.variable, grad)\n",
        "    def item(self) -> float:\n": "    def __eq__(self, other: object) -> bool:\n"
                                     "        return isinstance(other, Value) and self.item() == other.item()\n\n"
                                     "    __hash__ = object.__hash__\n\n    def item(self) -> float:\n",
        "\n\nclass AccumulateGrad(Node):": "\n\n_LEAF_HOOKS = {}  # handle id -> (leaf, hook)\n\n\nclass AccumulateGrad(Node):"},
          fails={HOOKS_HIDDEN: "(x * 3).backward() ran no hook: the only hook was registered on w"},
          names=("another leaf holding x's number", "a lookup by =="),
          unsaid=("hooks kept elsewhere by id(leaf)",)),
]

# A guard against a hook's own backward (a module-level list raised while a hook runs, lowered when it returns)
# stays up once a hook raised: no later hook runs; told as what the raised hook left, not by each program.
CASES += [
    Wrong("hook_guard_left_up_by_an_error", edits={
        "    for hook in list(hooks.values()):\n        result = hook(Value(grad))\n":
        "    if _IN_HOOK:\n        return grad  # a hook's own backward runs no hooks\n    for hook in list(hooks.values()):\n"
        "        _IN_HOOK.append(1)\n        result = hook(Value(grad))\n        _IN_HOOK.pop()\n",
        "\ndef run_hooks(": "\n_IN_HOOK = []  # non-empty while a hook runs\n\n\ndef run_hooks("},
          fails={HOOKS_HIDDEN: "(v * 2).backward() ran v's hook, v a new leaf, after a backward whose hook on w raised",
                 ORDER: "(v * 2).backward() ran v's hook"},
          names=("after a backward whose hook on w raised", "put back however the hook ends"),
          unsaid=("neither run_hooks nor backward catches it",)),
]

# The mode a no_grad block found kept outside the block, in state every block shares: the nested block's __exit__
# puts back the mode from before the outer block, told as where the mode is kept, not only as recording back on.
CASES += [
    Wrong("mode_saved_in_a_module_list", edits={
        "        self.previous = GradMode.enabled\n": "        _PREVIOUS.append(GradMode.enabled)\n",
        "        GradMode.enabled = self.previous\n": "        GradMode.enabled = _PREVIOUS[0]\n",
        "\n\nclass no_grad:": "\n\n_PREVIOUS = []  # the modes before each block\n\n\nclass no_grad:"},
          fails={PUBLIC: "the nested no_grad object keeps the mode its __enter__ found"},
          names=("keeps the mode its __enter__ found on itself", "a module-level list")),
    Wrong("no_grad_depth_reset_on_exit", edits={
        "    enabled = True\n": "    enabled = True\n    depth = 0  # how many no_grad blocks are open\n",
        "        self.previous = GradMode.enabled\n": "        GradMode.depth += 1\n",
        "        GradMode.enabled = self.previous\n": "        GradMode.depth = 0\n        GradMode.enabled = True\n"},
          fails={PUBLIC: "the nested no_grad object keeps the mode its __enter__ found"},
          names=("keeps the mode its __enter__ found on itself", "recording set back on whatever was found")),
]

# A handle keyed by how many hooks the node holds (len(hooks)): once a hook was taken out, the next hook
# registered takes the key of one still there and replaces it; told by the hooks registered after a removal.
CASES += [
    Wrong("handle_keyed_by_count", edits={"        self.hooks, self.id = hooks, next(RemovableHandle.ids)":
                                          "        self.hooks, self.id = hooks, len(hooks)"},
          fails={HOOKS_HIDDEN: "the list of the hooks of w that ran (two registered, the first taken out with its handle, "
                               "then a third registered) has fewer entries than PyTorch's"},
          names=("then a third registered", "under a key no hook in the dict holds"), passes=(PUBLIC, ORDER)),
]

# detach() that gives a Value requiring grad as the original does (ex21's part, carried): ex21's program adding
# through it is refused by check_in_place, which this stage rewrote; told as detach()'s, in ex21's part.
CASES += [
    Wrong("detach_requires_grad_since_ex21", edits={
        "        alias = Value(0.0)\n        alias._box, alias._versions = self._box, self._versions\n":
        "        alias = Value(0.0, requires_grad=self.requires_grad)\n        alias._box, alias._versions = self._box, self._versions\n"},
          fails={PUBLIC: "this stage builds on ex21"}, names=("ex21", "w.detach() requires grad"),
          unsaid=("an error of ex22's part of the engine", "this stage's code breaks")),
    Wrong("detach_own_version_counter_since_ex21", edits={  # ex21's detach() sharing the number alone
        "        alias = Value(0.0)\n        alias._box, alias._versions = self._box, self._versions\n":
        "        alias = Value(0.0)\n        alias._box = self._box\n"},
          fails={PUBLIC: "this stage builds on ex21"}, names=("ex21", "w.detach().add_(1)", "w's version counter"),
          unsaid=("w.data", "the fault may be there")),
    Wrong("data_shares_the_version_counter_since_ex21", edits={  # ex21's .data sharing the counter as detach() does
        "        alias = Value(0.0)\n        alias._box = self._box\n":
        "        alias = Value(0.0)\n        alias._box, alias._versions = self._box, self._versions\n"},
          fails={PUBLIC: "this stage builds on ex21"}, names=("ex21", "w.data.add_(1)", "a version counter of its own"),
          unsaid=("w.detach().add_(1)", "the fault may be there")),
]

# State shared by mistake, and spellings of their own: every node's pre_hooks one mutable default dict (a hook
# of one value runs at every node); no_grad as a generator context manager without try/finally (a block that
# raised leaves recording off); each hook handed the gradient before any hook ran, the last result kept; and
# right: the generator with try/finally, detach() through .data with the version counter shared.
NO_GRAD_CLASS = '''class no_grad:
    """``with no_grad(): ...``: operations inside record nothing, as ``torch.no_grad``."""

    def __enter__(self) -> None:
        """Remember whether recording was on, then switch it off."""
        self.previous = GradMode.enabled
        GradMode.enabled = False

    def __exit__(self, *exc: object) -> None:
        """Put recording back as it was before the block, even when the block raised (returning
        None lets its error go on)."""
        GradMode.enabled = self.previous
'''
NO_GRAD_GENERATOR = '''@contextlib.contextmanager
def no_grad():
    """``with no_grad(): ...``: operations inside record nothing, as ``torch.no_grad``."""
    previous = GradMode.enabled
    GradMode.enabled = False
    yield
    GradMode.enabled = previous
'''
RUN_HOOKS_BODY = ("    for hook in list(hooks.values()):\n        result = hook(Value(grad))\n        if result is not None:\n"
                  "            grad = result.item()\n    return grad")
CASES += [
    Wrong("pre_hooks_a_mutable_default", edits={
        "    def __init__(self, next_functions: tuple[tuple[Node | None, int], ...]) -> None:":
        "    def __init__(self, next_functions: tuple[tuple[Node | None, int], ...], pre_hooks: dict = {}) -> None:",
        "        self.pre_hooks: dict[int, Callable[[Value], Value | None]] = {}  # its output's tensor hooks, by handle id":
        "        self.pre_hooks = pre_hooks  # its output's tensor hooks, by handle id"},
          fails={PUBLIC: "the list of the hooks that ran, value by value has more entries than PyTorch's",
                 HOOKS_HIDDEN: "your engine keeps state between calls"},
          names=("the list of the hooks that ran, value by value", "keeps state between calls")),
    Wrong("no_grad_generator_without_finally", edits={"import heapq\n": "import contextlib\nimport heapq\n",
                                                      NO_GRAD_CLASS: NO_GRAD_GENERATOR},
          fails={PUBLIC: "after a no_grad block that raised: (w * 7).grad_fn is None"},
          names=("after a no_grad block that raised", "back on after a block that raised"), passes=(HOOKS_HIDDEN, ORDER)),
    Wrong("hooks_handed_the_gradient_before_any_ran", edits={RUN_HOOKS_BODY:
        "    results = [hook(Value(grad)) for hook in list(hooks.values())]\n    for result in results:\n"
        "        if result is not None:\n            grad = result.item()\n    return grad"},
          fails={PUBLIC: "the gradient x's second hook received (its first returns a Value) is a different number"},
          names=("the gradient x's second hook received", "the next hook's argument too")),
    Wrong("zero_returns_nothing_since_ex21", edits={"            rebase(self, ZeroBackward0(edges))\n        return self": "            rebase(self, ZeroBackward0(edges))"},
          fails={"an SGD step under no_grad": "w.zero_() is w in PyTorch, but not in your engine"},
          names=("w.zero_() is w", "returns it (self)")),  # ex21's zero_ carried: its result never read by the SGD step
    Wrong("exit_toggles_the_mode", edits={"        GradMode.enabled = self.previous\n": "        GradMode.enabled = not GradMode.enabled\n"},
          fails={PUBLIC: "Inside no_grad, after a nested no_grad block ended: (w * 3).grad_fn is not None"},
          names=("after a nested no_grad block ended", "puts back in its __exit__ the mode its own __enter__ found")),
    Wrong("hooks_run_with_mode_off_then_on", edits={  # a hook that raises leaves grad mode off: the next w * 3 records nothing
        "        grad = run_hooks(node.pre_hooks, grad)\n":
        "        GradMode.enabled = False  # a hook's own ops record nothing\n        grad = run_hooks(node.pre_hooks, grad)\n"
        "        GradMode.enabled = True\n"},
          fails={HOOKS_HIDDEN: "v * 2, v a new leaf, made after a backward whose hook on w raised, has a grad_fn in PyTorch"},
          names=("made after a backward whose hook on w raised", "grad mode too, is put back however the hook ends"),
          unsaid=("neither run_hooks nor backward catches it",)),  # it catches nothing: the mode it left off is the slip
    Wrong("exit_returns_the_mode_it_put_back", edits={"        GradMode.enabled = self.previous\n":
                                                      "        GradMode.enabled = self.previous\n        return GradMode.enabled\n"},
          fails={PUBLIC: "with no_grad(): raise ProbeError(...) (an error class of the test's own) raised no error"},
          names=("with no_grad(): raise ProbeError", "no_grad.__exit__ returns nothing (None), never a true value")),
    Correct("no_grad_generator_with_finally", edits={"import heapq\n": "import contextlib\nimport heapq\n",
        NO_GRAD_CLASS: NO_GRAD_GENERATOR.replace("    yield\n    GradMode.enabled = previous\n",
                                                 "    try:\n        yield\n    finally:\n        GradMode.enabled = previous\n")}),
    Correct("detach_through_data", edits={
        "        alias = Value(0.0)\n        alias._box, alias._versions = self._box, self._versions\n        return alias":
        "        alias = self.data\n        alias._versions = self._versions\n        return alias",
        RUN_HOOKS_BODY: "    for hook in tuple(hooks[key] for key in list(hooks)):\n        out = hook(Value(grad))\n"
                        "        grad = grad if out is None else float(out.item())\n    return grad"}),
]

# ex17's slip carried: the buffers of gradients kept in a module-level dict, never popped; ex19's gate tells it as
# state kept between calls, in backward (this stage's rewrite), not in ex19's store_grad.
CASES += [
    Wrong("buffers_in_a_module_dict_since_ex17", edits=BUFFERS_KEPT_IN_A_DICT, fails={PUBLIC: SENT_KEPT},
          names=("ex19", "state kept between calls", "The fault is in backward"),
          unsaid=("as well as in your ex19 answer",)),
]

# run_hooks binds whatever a hook returns, None too: the documents' hooks that return None make ex19's store_grad
# raise on the None handed on; the public test asks a hook returning None on its own first and tells that, not the
# earlier stage's function the None reached.
CASES += [
    Wrong("hook_none_taken_as_the_gradient",
          edits={"        result = hook(Value(grad))\n        if result is not None:\n            grad = result.item()":
                 "        result = hook(Value(grad))\n        grad = result.item() if isinstance(result, Value) else result"},
          fails={PUBLIC: "w's one hook returning None raised TypeError"},
          names=("w's one hook returning None", "a hook that returns None leaves the gradient as it was"),
          unsaid=("which this stage builds on",)),
]

# backward switches grad mode off for its hooks and, in a finally, on as it ends, whatever it found: a backward run
# inside a no_grad block turns recording on for the rest of the block; told by what the block then records.
CASES += [
    Wrong("backward_sets_grad_mode_on_as_it_ends", edits={
        "    first, _ = gradient_edge(root)\n    waiting = dependencies(first)\n":
        "    GradMode.enabled = False  # hooks compute without recording\n    try:\n        _run(root, retain_graph)\n"
        "    finally:\n        GradMode.enabled = True\n\n\ndef _run(root: Value, retain_graph: bool) -> None:\n"
        "    first, _ = gradient_edge(root)\n    waiting = dependencies(first)\n"},
          fails={SGD: "Inside a no_grad block, after a y.backward() in it: (w * 2).grad_fn is not None"},
          names=("after a y.backward() in it", "backward puts back the grad mode it found")),
]

# run_hooks takes a hook's None for a zero gradient (nothing returned, nothing goes on): no error, other numbers;
# told by the hook returning None in the public test, and the order the hooks run in stays right.
CASES += [
    Wrong("hook_none_taken_as_zero",
          edits={"        result = hook(Value(grad))\n        if result is not None:\n            grad = result.item()":
                 "        result = hook(Value(grad))\n        grad = result.item() if result is not None else 0.0"},
          fails={PUBLIC: "w.grad (w's one hook returns None) is a different number from PyTorch's"},
          names=("w's one hook returns None", "a hook that returns None leaves the gradient as it was"), passes=(ORDER,)),
]

# backward switching grad mode off for its hooks and putting back, in a finally, the mode it found: right.
CASES += [
    Correct("backward_puts_back_the_mode_it_found", edits={
        "    first, _ = gradient_edge(root)\n    waiting = dependencies(first)\n":
        "    found, GradMode.enabled = GradMode.enabled, False  # hooks compute without recording\n    try:\n"
        "        _run(root, retain_graph)\n    finally:\n        GradMode.enabled = found\n\n\n"
        "def _run(root: Value, retain_graph: bool) -> None:\n"
        "    first, _ = gradient_edge(root)\n    waiting = dependencies(first)\n"}),
]

# backward's buffers keyed by node.name(), looked up with no default: the gate's program meets a KeyError
# whose text is the key alone ('AddBackward0'), told with the two nodes that share it
CASES += [
    Wrong("gate_buffers_keyed_by_name",
          edits={"    buffers = {first: 1.0}\n": "    buffers = {first.name(): 1.0}\n",
                 "        grad = buffers.pop(node)\n": "        grad = buffers.pop(node.name())\n",
                 "            buffers[child] = buffers.get(child, 0.0) + g\n":
                 "            buffers[child.name()] = buffers.get(child.name(), 0.0) + g\n"},
          fails={PUBLIC: "That KeyError's key is the name() of two different nodes of the graph your backward"},
          names=("two AddBackward0 nodes, which have the same name()", "one entry for both nodes")),
]

# run_hooks walks a value's hooks last registered first: what each hook received differs only because of
# that order, told without the rules of what a hook is handed; a run_hooks that keeps, between calls, the
# id() of every hook it ran and skips it afterwards runs a hook in the first backward alone
CASES += [
    Wrong("hooks_run_last_registered_first",
          edits={"    for hook in list(hooks.values()):\n": "    for hook in reversed(list(hooks.values())):\n"},
          fails={PUBLIC: "The list of the hooks that ran, value by value holds PyTorch's entries, but in another order"},
          names=("in another order", "in the order registered"),
          unsaid=("a hook is called with its value's gradient", "each hook is handed the gradient as it is",
                  "takes out the hook that handle registered, and no other")),
    Wrong("hooks_run_once_by_id",
          edits={"    for hook in list(hooks.values()):\n        result = hook(Value(grad))\n":
                 "    for hook in list(hooks.values()):\n        if id(hook) in _RAN:\n            continue\n"
                 "        _RAN.add(id(hook))\n        result = hook(Value(grad))\n",
                 "def run_hooks(": "_RAN: set = set()\n\n\ndef run_hooks("},
          fails={HOOKS_HIDDEN: "hook ran once in each of the two backward calls of v * c in PyTorch, but not in your engine"},
          names=("ran once in each of the two backward calls", "not in the first one only"),
          unsaid=("in-place op",)),
]

# run_hooks skips a hook object it met already in this call: the same hook registered twice on one value
# runs once, where PyTorch runs it once for each registration
CASES += [
    Wrong("hook_registered_twice_run_once",
          edits={"    for hook in list(hooks.values()):\n        result = hook(Value(grad))\n":
                 "    seen = set()\n    for hook in list(hooks.values()):\n        if id(hook) in seen:\n            continue\n"
                 "        seen.add(id(hook))\n        result = hook(Value(grad))\n"},
          fails={HOOKS_HIDDEN: "the same hook registered twice, both kept) has fewer entries than PyTorch's"},
          names=("the same hook registered twice, both kept", "once for each registration")),
]

# no_grad written as a generator under contextlib.contextmanager, the mode put back in a finally: full marks
CASES += [
    Correct("no_grad_as_a_generator", edits={
        "import heapq\n": "import contextlib\nimport heapq\n",
        "class no_grad:\n    \"\"\"``with no_grad(): ...``: operations inside record nothing, as ``torch.no_grad``.\"\"\"\n\n"
        "    def __enter__(self) -> None:\n        \"\"\"Remember whether recording was on, then switch it off.\"\"\"\n"
        "        self.previous = GradMode.enabled\n        GradMode.enabled = False\n\n"
        "    def __exit__(self, *exc: object) -> None:\n        \"\"\"Put recording back as it was before the block, even when "
        "the block raised (returning\n        None lets its error go on).\"\"\"\n        GradMode.enabled = self.previous\n":
        "@contextlib.contextmanager\ndef no_grad() -> Any:\n    \"\"\"``with no_grad(): ...``: operations inside record nothing, "
        "as ``torch.no_grad``.\"\"\"\n    previous, GradMode.enabled = GradMode.enabled, False\n    try:\n        yield\n"
        "    finally:\n        GradMode.enabled = previous\n"}),
]
