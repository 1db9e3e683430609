"""ex05 gallery: plausible wrong answers and correct variants (format: gallery_case.py)."""

from gallery_case import Correct, Wrong

ACCUMULATE = "gradients accumulate"
ZERO = "zero_() every step"
NONE = "grad = None every step"
ZERO_GRAD = "zero_grad clears every leaf"
HIDDEN = "other step counts"
LOOP = '''    for _ in range(steps):
        y = (x + w) * (w + 1)  # a fresh graph each step; the leaves are shared
        y.backward()  # adds dy/dw to whatever w.grad already holds
        history.append(w.grad.item())
        if reset is not None:
            zero_grad([w, x], set_to_none=(reset == "none"))
'''
ZERO_IN_PLACE = "            leaf.grad.zero_()  # keep the same Value, set it to 0 in place\n"

CASES = [
    # the last leaf skipped: zero_grad's own test fails (its last leaf holds a gradient), and the
    # tests of grad_history, which runs it, say so
    # the loop gave it both leaves: the leaf left uncleared is told as zero_grad's doing, not the loop's
    Wrong("last_leaf_skipped", names=("r.grad", "this test runs your zero_grad too", "your zero_grad left x.grad"),
          fails={ZERO_GRAD: "r.grad holds a gradient from backward", ZERO: "this test runs your zero_grad too",
                 NONE: "grad_history gave your zero_grad both leaves between its backward passes, yet w.grad was "
                       "cleared and x.grad never"},
          edits={"    for leaf in leaves:\n": "    for leaf in leaves[:-1]:\n"}),
    Wrong("hardcoded", fails={ACCUMULATE: "grad_history ran no backward pass"},
          unsaid=("whatever steps it was given",)),  # no backward at all: not a loop that ignores steps
    Wrong("new_leaves", fails={ACCUMULATE: "no backward pass of your code wrote w.grad"}),
    Wrong("only_w_new_zero", fails={ZERO: "x.grad is still exactly what backward wrote",
                                    ZERO_GRAD: "p.grad holds a value that backward did not write"}),
    Wrong("formula_history", names=('grad_history ran no backward pass',), fails={ACCUMULATE: "grad_history ran no backward pass"},
          edits={LOOP: '''    dw = 2 * w.item() + x.item() + 1
    for step in range(steps):
        history.append(dw if reset else dw * (step + 1))
'''}),
    Wrong("zero_by_assignment", names=('w.grad holds a value that backward did not write', 'assigned by hand'), fails={ZERO_GRAD: "p.grad holds a value that backward did not write"},
          edits={ZERO_IN_PLACE: "            leaf.grad = Value(0.0)\n"}),
    Wrong("one_step_too_many", names=('grad_history ran backward more times',), fails={HIDDEN: "grad_history ran backward more times"},
          edits={"    for _ in range(steps):\n": "    for _ in range(steps + 1):\n",
                 "    return history\n": "    return history[:steps] if steps else history[:1]\n"}),
    Wrong("clear_before_backward", names=('w.grad still holds what the last backward wrote', 'between backward passes', 'not after recording what the last one wrote'),
          fails={ZERO: "your code cleared the gradients between backward passes, but not after recording what the last one wrote"},
          edits={LOOP: '''    for _ in range(steps):
        if reset is not None:
            zero_grad([w, x], set_to_none=(reset == "none"))
        y = (x + w) * (w + 1)
        y.backward()
        history.append(w.grad.item())
'''}),
    Wrong("set_to_none_ignored", names=('was zeroed in place by your code', 'meant to be None'), fails={ZERO_GRAD: "p.grad was zeroed in place by your code"},
          unsaid=("holds a gradient from backward",),  # it holds the zero its zero_() left
          edits={'''        if set_to_none:
            leaf.grad = None  # forget it; the next backward stores a new Value
        elif leaf.grad is not None:''': '''        if leaf.grad is not None:'''}),
    Correct("clear_under_no_grad",  # optimizers clear under no_grad too: no mistake
            edits={"        if reset is not None:\n            zero_grad": "        if reset is not None:\n            with micrograph.no_grad():\n                zero_grad",
                 "from micrograph import Value\n": "import micrograph\nfrom micrograph import Value\n"}),
    Correct("graph_kept",  # retain_graph=True changes no result here
            edits={"        y.backward()  # adds dy/dw": "        y.backward(retain_graph=True)  # adds dy/dw"}),
    Correct("optimizer_zero_grad"),
    Correct("data_zero_and_skip"),
    Wrong("history_as_formula", names=('grad_history(w, x, steps, reset) is not one the engine produced',), fails={"gradients accumulate": "is not one the engine produced"},
          edits={"        history.append(w.grad.item())\n":  # backward runs, but the record is computed
                 "        history.append((2 * w.item() + x.item() + 1) * (1 if reset else len(history) + 1))\n"}),
    Wrong("formula_after_reading_grad", names=('grad_history(w, x, steps, reset) is not one the engine produced',),  # .grad read each step, the record written down
          fails={"gradients accumulate": "is not one the engine produced"},
          edits={"        history.append(w.grad.item())\n":
                 "        assert w.grad is not None\n"
                 "        history.append((2 * w.item() + x.item() + 1) * (1 if reset else len(history) + 1))\n"}),
]

# Other spellings of zero_(), and state kept between calls.
CASES += [
    Correct("grad_data_zero",  # through .data: the same Value, set to 0 (no version counted)
            edits={"            leaf.grad.zero_()  # keep the same Value, set it to 0 in place\n":
                   "            leaf.grad.data.zero_()\n"}),
    Correct("grad_minus_itself",  # in place too: ``-=`` assigns the same Value back to .grad
            edits={"            leaf.grad.zero_()  # keep the same Value, set it to 0 in place\n":
                   "            leaf.grad -= leaf.grad\n"}),
    Wrong("history_as_default_argument",  # one list for every call: earlier calls' records stay
          fails={"gradients accumulate": "grad_history(w, x, steps, reset) has more entries",
                 "other step counts": "state kept between calls",
                 # the hidden reset probe's calls are remembered too: what they left is read, not computed
                 "a gradient already there before the loop": "is a gradient the engine produced in an earlier call"},
          unsaid=("it was computed, not read from the engine",),
          edits={"def grad_history(w: Value, x: Value, steps: int, reset: str | None = None) -> list[float]:":
                 "def grad_history(w: Value, x: Value, steps: int, reset: str | None = None,\n"
                 "                 history: list[float] = []) -> list[float]:",
                 "    history: list[float] = []\n": ""},
          names=("earlier call", "more entries")),
]


# Plausible mistakes of more kinds, each graded as a student reads it: state kept between calls
# (a default argument, a module-level or class-level store), generic list and generator bugs,
# off-by-one, a wrong operand or flag; and correct answers written another way.
CASES += [
    Wrong('zero_without_none_check', fails={'zero_grad clears every leaf': 'AttributeError'},
          edits={'        elif leaf.grad is not None:\n            leaf.grad.zero_()': '        else:\n            leaf.grad.zero_()'},
          names=('zero_grad', 'AttributeError')),
    Wrong('history_of_values', fails={'zero_() every step': 'grad_history(w, x, steps, reset) holds numbers w.grad held only once'},
          edits={'        history.append(w.grad.item())\n': '        history.append(w.grad)\n', '    return history\n': '    return [g.item() for g in history]\n'},
          names=('grad_history(w, x, steps, reset)', 'kept the .grad Value itself'),
          unsaid=('recorded w.grad after clearing it',)),
    Wrong('steps_from_one', fails={'gradients accumulate': 'ran backward fewer times'},
          edits={'    for _ in range(steps):\n': '    for _ in range(1, steps):\n'},
          names=('grad_history', 'fewer')),
    Wrong('history_in_a_module_list', fails={'other step counts': 'what a first call of grad_history returned changed'},
          edits={'    history: list[float] = []\n': '    history = _HISTORY\n', 'def grad_history(': '_HISTORY: list[float] = []\n\n\ndef grad_history('},
          names=('grad_history', 'earlier call')),
    Wrong('only_w_cleared', fails={'zero_() every step': 'x.grad is still exactly what backward wrote'},
          edits={'            zero_grad([w, x], set_to_none=(reset == "none"))': '            zero_grad([w], set_to_none=(reset == "none"))'},
          names=('x.grad',)),
    Wrong('reset_before_record', fails={'zero_() every step': 'recorded w.grad after clearing it'},
          edits={'        history.append(w.grad.item())\n        if reset is not None:\n            zero_grad([w, x], set_to_none=(reset == "none"))': '        if reset is not None:\n            zero_grad([w, x], set_to_none=(reset == "none"))\n        history.append(0.0 if w.grad is None else w.grad.item())'},
          names=('grad_history(w, x, steps, reset)', 'after clearing')),
]

# Hooks: the engine runs them with grad mode off, which is not the student's no_grad; one that
# changes the gradient is told by the numbers it changed.
CASES += [
    Correct('del_grad', edits={'            leaf.grad = None  # forget it; the next backward stores a new Value': '            del leaf.grad  # as in PyTorch: the same as leaf.grad = None'}),
    Correct('hook_records', edits={'    history: list[float] = []\n': '    history: list[float] = []\n    seen: list[float] = []\n    w.register_hook(lambda g: seen.append(g.item()))\n'}),
    Wrong('hook_doubles', fails={'zero_() every step': 'grad_history(w, x, steps, reset)[0] is a different number'},
          edits={'    history: list[float] = []\n': '    history: list[float] = []\n    w.register_hook(lambda g: g * 2)\n'},
          names=('grad_history(w, x, steps, reset)[0]',)),
]

# More slips, each graded as a student reads it: a misspelt reset name, the other leaf's
# gradient recorded, the two resets swapped, the .grad Values kept and read only at the end,
# a zero made as a new Value.
CASES += [
    Wrong('reset_typo', fails={'zero_() every step': 'w.grad is None because your code set it to None'},
          edits={'            zero_grad([w, x], set_to_none=(reset == "none"))': '            zero_grad([w, x], set_to_none=(reset != "zero"))'},
          names=('w.grad is None because your code set it to None',)),
    Wrong('records_x_grad', fails={'gradients accumulate': 'grad_history(w, x, steps, reset)[0] was read from x.grad',
                                   'other resets': 'grad_history(w, x, steps, reset)[0] was read from x.grad'},
          edits={'        history.append(w.grad.item())': '        history.append(x.grad.item())'},
          names=('grad_history(w, x, steps, reset)[0]', 'x.grad', 'records w.grad'),
          unsaid=('recorded w.grad after clearing it', 'is a different number')),
    Wrong('resets_swapped', fails={'grad = None every step': 'w.grad was zeroed in place by your code'},
          unsaid=("holds a gradient from backward",),  # it holds the zero its zero_() left
          edits={'            zero_grad([w, x], set_to_none=(reset == "none"))': '            zero_grad([w, x], set_to_none=(reset == "zero_"))'},
          names=('set it to None', 'zeroed in place', 'meant to be None')),
    # the .grad Value kept, read at the end: with reset=None told as read after the last pass, not only as entries alike
    Wrong('values_read_at_end', fails={'gradients accumulate': "holds the very numbers the parameters' .grad hold after the last backward"},
          edits={'        history.append(w.grad.item())': '        history.append(w.grad)', '    return history\n': '    return [g.item() for g in history]\n'},
          names=('grad_history(w, x, steps, reset)', 'it was read after that pass')),
    Wrong('zero_by_times_zero', fails={'zero_grad clears every leaf': 'p.grad after zero_grad is a new object'},
          edits={'            leaf.grad.zero_()  # keep the same Value, set it to 0 in place': '            leaf.grad = leaf.grad * 0'},
          names=('p.grad after zero_grad is a new object', 'assigned by hand')),
]


# The gradients cleared before each backward instead of after the record: a gradient that was
# there before the loop is lost, and the last one is left in .grad.
CASES += [
    Wrong('reset_before_backward', fails={'a gradient already there before the loop': 'cleared the gradients its leaves already held'},
          edits={'        y = (x + w) * (w + 1)  # a fresh graph each step; the leaves are shared\n':
                 '        if reset is not None:\n            zero_grad([w, x], set_to_none=(reset == "none"))\n'
                 '        y = (x + w) * (w + 1)  # a fresh graph each step; the leaves are shared\n',
                 '        history.append(w.grad.item())\n        if reset is not None:\n'
                 '            zero_grad([w, x], set_to_none=(reset == "none"))': '        history.append(w.grad.item())'},
          names=('w.grad', 'not after recording what the last one wrote')),
]


# zero_grad keeping a record of the leaves it cleared, between calls: by object (a set: the
# second call on the same leaves skips them), by value (a list: ``in`` compares with ==, so a new
# leaf equal to an earlier one is skipped) or by id (a new leaf may get a freed one's id).
SKIP_SEEN = {"    for leaf in leaves:\n        if set_to_none:":
             "    for leaf in leaves:\n        if {key} in _CLEARED:\n            continue\n"
             "        _CLEARED.{add}({key})\n        if set_to_none:",
             "def zero_grad(": "_CLEARED = {store}\n\n\ndef zero_grad("}
STATE = "what it does depends on state kept between calls"


def _skip_seen(key: str, add: str, store: str) -> dict[str, str]:
    return {old: new.format(key=key, add=add, store=store) for old, new in SKIP_SEEN.items()}


CASES += [
    Wrong("skips_leaves_seen", fails={"zero_grad clears every leaf": STATE},
          edits=_skip_seen("leaf", "add", "set()"), names=("zero_grad", "state kept between calls")),
    Wrong("skips_values_seen", fails={"zero_grad clears every leaf": STATE},
          edits=_skip_seen("leaf", "append", "[]"), names=("zero_grad", "state kept between calls")),
    Wrong("skips_ids_seen", fails={"zero_grad on other leaves": STATE},
          edits=_skip_seen("id(leaf)", "add", "set()"), names=("zero_grad", "state kept between calls")),
]


# A hook on x that zeroes x's gradient: every .grad of a pass a hook of the student's chose a
# gradient of is the hook's (grader.spec.hooked), w's too, though the hook's gradient never reaches w.
CASES += [
    Wrong("hook_zeroes_x", fails={"gradients accumulate": "backward wrote x.grad, but a hook of yours"},
          edits={"    history: list[float] = []\n": "    history: list[float] = []\n    x.register_hook(lambda g: g * 0)\n"},
          names=("x.grad",)),
]


# zero_grad keeping every leaf it was ever given and clearing them all: a later call on other
# leaves clears the gradients of an earlier call's leaves too.
CASES += [
    Wrong("clears_every_leaf_seen",
          fails={"zero_grad clears every leaf": "changed the .grad of a leaf given to an earlier call",
                 "zero_grad on other leaves": "changed the .grad of a leaf given to an earlier call"},
          edits={"    for leaf in leaves:\n        if set_to_none:":
                 "    _SEEN.extend(leaf for leaf in leaves if all(leaf is not seen for seen in _SEEN))\n"
                 "    for leaf in _SEEN:\n        if set_to_none:",
                 "def zero_grad(": "_SEEN: list[Value] = []\n\n\ndef zero_grad("},
          names=("zero_grad", "earlier call", "state kept between calls")),
]


# zero_grad reading its flag the other way round: grad_history, which clears with it, fails too.
CASES += [
    Wrong("set_to_none_inverted",
          fails={"zero_grad clears every leaf": "zero_grad reads set_to_none the other way round",
                 "zero_grad on other leaves": "zero_grad reads set_to_none the other way round",
                 "zero_() every step": "this test runs your zero_grad too"},
          edits={"        if set_to_none:\n            leaf.grad = None": "        if not set_to_none:\n            leaf.grad = None"},
          names=("zero_grad reads set_to_none the other way round",)),
]


# A new leaf made from w at each step: backward writes it, never the w given, even where w.grad
# held a gradient before the loop.
CASES += [
    Wrong("new_w_each_step",
          fails={"a gradient already there before the loop": "no backward pass of your code wrote w.grad",
                 "zero_() every step": "no backward pass of your code wrote w.grad"},
          edits={"        y = (x + w) * (w + 1)  # a fresh graph each step; the leaves are shared\n":
                 "        w = Value(w.item(), requires_grad=True)\n"
                 "        y = (x + w) * (w + 1)  # a fresh graph each step; the leaves are shared\n"},
          names=("w.grad", "a leaf your code made")),
]

# w.grad itself kept in the history, where floats are asked for: the type is the mistake, and the
# numbers read from the kept Value at the end are not told beside it.
CASES += [
    Wrong("history_of_grad_values",
          fails={"zero_() every step": "grad_history(w, x, steps, reset)[0] is of type Value, not a Python float"},
          edits={"        history.append(w.grad.item())": "        history.append(w.grad)"},
          names=("grad_history(w, x, steps, reset)[0]", "of type Value, not a Python float")),
]

# zero_grad skipping a leaf already seen, looked up with == (`leaf in seen`): a distinct leaf of
# the same value as an earlier one is skipped, and its gradient is left as backward wrote it.
CASES += [
    Wrong("seen_compared_by_value",
          fails={"zero_grad on other leaves": "r.grad (p, q and r of one value) is still exactly what backward wrote"},
          edits={"    for leaf in leaves:\n        if set_to_none:\n":
                 "    seen = []\n    for leaf in leaves:\n        if leaf in seen:\n            continue\n"
                 "        seen.append(leaf)\n        if set_to_none:\n"},
          names=("zero_grad", "of one value")),
]

# y built once before the loop and backpropagated at every step with retain_graph=True: the same
# numbers (the leaves never change), but each step does not build its own y.
CASES += [
    Wrong("y_built_once",
          fails={"gradients accumulate": "started a later backward pass from the very graph an earlier pass had started from"},
          edits={"    for _ in range(steps):\n        y = (x + w) * (w + 1)  # a fresh graph each step; the leaves are shared\n"
                 "        y.backward()  # adds dy/dw to whatever w.grad already holds\n":
                 "    y = (x + w) * (w + 1)\n    for _ in range(steps):\n        y.backward(retain_graph=True)\n"},
          names=("grad_history", "the very graph", "not built again")),
]

# The gradients the leaves came with dropped before the loop: no step adds to them.
CASES += [
    Wrong('grads_dropped_before_the_loop', fails={"a gradient already there before the loop": "cleared the gradients its leaves already held"},
          edits={'    history: list[float] = []\n': '    history: list[float] = []\n    w.grad = None\n    x.grad = None\n'},
          names=('grad_history cleared the gradients its leaves already held before its first backward pass',)),
]

# A hook that records w's gradient, registered on w at every step: each backward runs every hook
# registered so far, and the hooks stay on the caller's w.
CASES += [
    Wrong("hook_per_step", fails={ACCUMULATE: "returned a list that grew when a backward pass ran through w"},
          edits={"        y.backward()  # adds dy/dw to whatever w.grad already holds\n"
                 "        history.append(w.grad.item())\n":
                 "        w.register_hook(lambda g: history.append(g.item()))\n        y.backward()\n"},
          names=("grad_history", "hooks your code registered on w")),
    # one hook records w's gradient and is removed after the loop: each record is what one pass
    # sent w, not w.grad after the pass, though no hook is left to show it
    Wrong("hook_once_removed", fails={ACCUMULATE: "holds numbers a hook your code registered on w was handed"},
          edits={"    history: list[float] = []\n": "    history: list[float] = []\n"
                 "    hook = w.register_hook(lambda g: history.append(g.item()))\n",
                 "        history.append(w.grad.item())\n": "",
                 "    return history\n": "    hook.remove()\n    return history\n"},
          names=("grad_history", "a hook your code registered on w", "not w.grad after each pass")),
    # a default other than the stub's: a caller that leaves the argument out, as the
    # statement's own grad_history(w, x, 4) does, gets another behaviour
    Wrong("set_to_none_default_false", names=("set_to_none left out", "default"),
          fails={ZERO_GRAD: "zero_grad(leaves) (set_to_none left out) did not do what the stub's default asks"},
          edits={"def zero_grad(leaves: list[Value], set_to_none: bool = True) -> None:": "def zero_grad(leaves: list[Value], set_to_none: bool = False) -> None:"}),
    Wrong("reset_default_zero", names=("reset left out", "default"),
          fails={ACCUMULATE: "grad_history(w, x, steps) (reset left out) did not do what the stub's default asks"},
          edits={"reset: str | None = None) -> list[float]:": 'reset: str | None = "zero_") -> list[float]:'}),
]

# Zeros are told as read from a cleared .grad only where the read came after the clearing: a zero
# backward itself wrote (a = x * w: dy/dw is 0 at x = 0, told by the graph backward ran through;
# x.grad recorded, 0 at w = -1: records_x_grad above) is none.
CASES += [
    Wrong("a_is_x_times_w",
          fails={"other resets": "grad_history's graph differs at a node below its root: your graph has MulBackward0 there"},
          edits={"        y = (x + w) * (w + 1)": "        y = (x * w) * (w + 1)"},
          names=("your graph has MulBackward0 there",), unsaid=("recorded w.grad after clearing it",)),
]


# zero_grad slips of three more kinds: the loop variable rebound (nothing is cleared), a break
# where a leaf without a gradient is to be skipped, a mutable default remembering the leaves it
# cleared (grad_history, which calls it once a step, then clears after its first step only).
CASES += [
    Wrong("loop_variable_rebound", fails={ZERO_GRAD: "p.grad holds a gradient from backward, where it is meant to be None"},
          edits={"    for leaf in leaves:\n        if set_to_none:\n            leaf.grad = None":
                 "    for leaf in leaves:\n        grad = leaf.grad\n        if set_to_none:\n            grad = None"},
          names=("p.grad", "meant to be None"), unsaid=("not a new object",)),
    Wrong("break_at_no_grad", fails={ZERO_GRAD: "stopped at the first leaf whose .grad is None"},
          edits={"        elif leaf.grad is not None:\n            leaf.grad.zero_()":
                 "        elif leaf.grad is None:\n            break\n        else:\n            leaf.grad.zero_()"},
          names=("zero_grad(leaves, set_to_none=False)", "stopped at the first leaf whose .grad is None")),
    Wrong("cleared_once_by_default", fails={ZERO: "cleared it before some of the backward passes after the first",
                                            ZERO_GRAD: STATE},
          edits={"def zero_grad(leaves: list[Value], set_to_none: bool = True) -> None:":
                 "def zero_grad(leaves: list[Value], set_to_none: bool = True, _done: list = []) -> None:",
                 "    for leaf in leaves:\n        if set_to_none:":
                 "    for leaf in leaves:\n        if any(leaf is done for done in _done):\n            continue\n"
                 "        _done.append(leaf)\n        if set_to_none:"},
          names=("w.grad", "before some of the backward passes")),
]


# zero_grad emptying the list it is given (every leaf cleared as asked): the statement says the
# list is only read.
CASES += [
    Wrong("leaves_emptied", fails={ZERO_GRAD: "zero_grad changed the list leaves it was given"},
          edits={"    for leaf in leaves:\n        if set_to_none:": "    while leaves:\n        leaf = leaves.pop()\n        if set_to_none:"},
          names=("zero_grad", "changed the list leaves"), unsaid=("IndexError",)),
]


# set_to_none=True zeroing each gradient in place before dropping it: a gradient Value a caller
# kept is changed, where the statement leaves it as it was.
CASES += [
    Wrong("zeroed_then_dropped", fails={ZERO_GRAD: "changed, in place, the gradient Value p.grad held"},
          edits={"    for leaf in leaves:\n        if set_to_none:":
                 "    for leaf in leaves:\n        if leaf.grad is not None:\n            leaf.grad.zero_()\n        if set_to_none:"},
          names=("zero_grad(leaves, set_to_none=True)", "p.grad", "before setting p.grad to None")),
    # zeroed in place and never set to None: told as zeroed, not as zeroed before setting it to None
    Wrong("zeroed_never_dropped", fails={ZERO_GRAD: "p.grad was zeroed in place by your code"},
          edits={"            leaf.grad = None  # forget it; the next backward stores a new Value":
                 "            if leaf.grad is not None:\n                leaf.grad.zero_()"},
          names=("p.grad was zeroed in place", "meant to be None"), unsaid=("before setting p.grad to None",)),
]

# A slip in the list handed to zero_grad: w twice, x never cleared; the loop's own tests name
# the leaf cleared and the one never cleared.
CASES += [
    Wrong("one_leaf_twice", fails={ZERO: "grad_history cleared w.grad between its backward passes but never x.grad",
                                   NONE: "grad_history cleared w.grad between its backward passes but never x.grad"},
          edits={"            zero_grad([w, x], set_to_none=(reset == \"none\"))\n":
                 "            zero_grad([w, w], set_to_none=(reset == \"none\"))\n"},
          names=("grad_history", "w.grad", "never x.grad")),
]

# A training update added after each record (w -= lr * w.grad under no_grad): the leaf the caller
# gave changes every step; the feedback says that leaf was changed in place.
CASES += [
    Wrong("updates_the_leaf", fails={ACCUMULATE: "The leaf w you were given was changed in place"},
          edits={"        history.append(w.grad.item())\n":
                 "        history.append(w.grad.item())\n        with no_grad():\n"
                 "            w -= 0.1 * w.grad\n",
                 "from micrograph import Value\n": "from micrograph import Value, no_grad\n"},
          names=("the leaf w you were given", "changed in place")),
]

# The clearing moved into a hook that runs when the next gradient arrives: the numbers recorded are
# the engine's (a .grad cleared mid-pass is a reset), and what differs is the gradient left behind.
CASES += [
    Wrong("cleared_by_a_hook", fails={"zero_() every step": "w.grad is still exactly what backward wrote"},
          edits={"    history: list[float] = []\n":
                 "    history: list[float] = []\n    if reset is not None:\n        for leaf in (w, x):\n"
                 "            leaf.register_hook(lambda g, leaf=leaf: zero_grad([leaf], reset == \"none\"))\n",
                 "        if reset is not None:\n            zero_grad([w, x], set_to_none=(reset == \"none\"))\n": ""},
          names=("w.grad is still exactly what backward wrote",),
          unsaid=("computed, not read from the engine", "chose its number", "before the pass")),
]

# b written x + 1 for w + 1 (an operand slip): the graph the loop backpropagates takes x where the
# statement's takes w, and the feedback names the two leaves at that node, not only the numbers.
CASES += [
    Wrong("b_from_x", fails={ACCUMULATE: "your AddBackward0 takes the leaf x where the statement's takes w"},
          edits={"        y = (x + w) * (w + 1)  #": "        y = (x + w) * (x + 1)  #"},
          names=("grad_history's graph", "takes the leaf x where the statement's takes w")),
]

# The documents' loop copied (range(3)): every call runs three steps whatever steps it is given; the
# feedback names that, not each call's pass count, more in one and fewer in another.
CASES += [
    Wrong("steps_ignored", fails={HIDDEN: "grad_history ran backward the same number of times in every call"},
          edits={"    for _ in range(steps):\n": "    for _ in range(3):\n"},
          names=("whatever steps it was given",)),
]
CASES += [
    Wrong("forward_under_no_grad", fails={ACCUMULATE: "grad_history computed y from w (which requires grad) while grad mode was off"},
          edits={"from micrograph import Value\n": "import micrograph\nfrom micrograph import Value\n",
                 "        y = (x + w) * (w + 1)  # a fresh graph each step; the leaves are shared\n":
                 "        with micrograph.no_grad():\n            y = (x + w) * (w + 1)\n"},
          names=("while grad mode was off", "no graph records y")),
    Wrong("hook_clears_w_grad", fails={ACCUMULATE: "a hook your code registered cleared w.grad while backward ran"},
          edits={"    history: list[float] = []\n":
                 "    history: list[float] = []\n    w.register_hook(lambda g: setattr(w, \"grad\", None))\n"},
          names=("a hook your code registered cleared w.grad",)),
]
CASES += [
    Wrong("backward_under_the_reset", fails={ACCUMULATE: "grad_history read w.grad, which is None: it ran no backward pass",
                                             "a gradient already there before the loop": "grad_history ran no backward pass"},
          edits={"        y.backward()  # adds dy/dw to whatever w.grad already holds\n        history.append(w.grad.item())\n"
                 "        if reset is not None:\n":
                 "        history.append(w.grad.item())\n        if reset is not None:\n            y.backward()\n"},
          names=("ran no backward pass",), unsaid=("it was computed, not read from the engine",)),
]

# A gradient read through a reduction of its one entry (torch's idiom for a number from a tensor): read from
# the engine all the same.
CASES += [
    Correct("gradient_read_through_mean", edits={'        history.append(w.grad.item())': '        history.append(w.grad.mean().item())'}),
    Correct("gradient_read_through_the_module_sum",
            edits={"from micrograph import Value\n": "import micrograph\nfrom micrograph import Value\n",
                   "        history.append(w.grad.item())": "        history.append(micrograph.sum(w.grad).item())"}),
]

# Grad mode switched off by the file's top-level code, each function decorated with enable_grad(): the tests'
# own graphs, built after the grader imports the file again, are recorded all the same (no error charged to
# zero_grad); only the import is told.
CASES += [
    Wrong("grad_off_at_import_decorated", fails={ACCUMULATE: "switched grad mode off at line"},
          passes=(ZERO_GRAD, "zero_grad on other leaves")),
]

# zero_grad that drops "duplicates" first with `not in` (==): of distinct leaves of one value it clears the
# first only, and the others are told as skipped for being equal to it, by a call on leaves of other numbers;
# grad_history, which gives it w and x of one number, tells the same of x, not only that x.grad was never cleared.
CASES += [
    Wrong("dedupes_equal_leaves", fails={"zero_grad on other leaves": "a leaf equal (==) to an earlier one was skipped",
                                         "other resets": "skipped x as if it were w"},
          edits={"    for leaf in leaves:\n        if set_to_none:":
                 "    uniq = []\n    for leaf in leaves:\n        if leaf not in uniq:\n            uniq.append(leaf)\n"
                 "    for leaf in uniq:\n        if set_to_none:"},
          names=("zero_grad", "same number as p", "x holds the same number as w")),
    # the leaves deduped by number in a dict, the last of each number kept: w is the one skipped, and
    # of p, q, r of one value, p, told beside r, a later leaf it cleared
    Wrong("dedupes_by_number", fails={"other resets": "skipped w as if it were x (as a lookup by number does: a dict keyed by the number keeps the last",
                                      "zero_grad on other leaves": "holds the same number as r, a later leaf of the list that it cleared"},
          edits={"    for leaf in leaves:\n        if set_to_none:":
                 "    for leaf in {leaf.item(): leaf for leaf in leaves}.values():\n        if set_to_none:"},
          names=("zero_grad", "w holds the same number as x", "a dict keyed by the number"),
          unsaid=("`in` on a list compares with ==",)),
    # the first call's leaves kept in a mutable default and used by every later call
    Wrong("leaves_kept_in_default",
          fails={"gradients accumulate": "they wrote into a leaf given to an earlier call, kept between calls",
                 "a gradient already there before the loop": "they wrote into a leaf given to an earlier call"},
          edits={"def grad_history(w: Value, x: Value, steps: int, reset: str | None = None) -> list[float]:":
                 "def grad_history(w: Value, x: Value, steps: int, reset: str | None = None, _kept=[]) -> list[float]:",
                 "    history: list[float] = []\n": "    if not _kept:\n        _kept.extend([w, x])\n"
                                                   "    w, x = _kept\n    history: list[float] = []\n"},
          names=("a leaf given to an earlier call",), unsaid=("a leaf your code made", "before its first backward pass")),
    # a "try it" line at the bottom keeps what zero_grad returned (None) under its name: the tests call None
    Wrong("zero_grad_rebound_to_none",
          fails={"zero_grad clears every leaf": "the test called zero_grad, but zero_grad is no longer the function",
                 "zero_() every step": "zero_grad is no longer the function defined at line"},
          edits={"    return history\n": "    return history\n\n\n_w, _x = Value(1.0, requires_grad=True), Value(2.0)\n"
                                        "zero_grad = zero_grad([_w, _x], set_to_none=False)\n"},
          names=("zero_grad is no longer the function defined at", "binds the name zero_grad again"),
          unsaid=("raised while the test used what your code returned",)),
]

# grad_history written as a generator: the call runs none of its body.  The w.grad a test's own
# backward wrote before the call is not told as this call's backward writing another number.
CASES += [
    Wrong("history_yields", fails={"a gradient already there before the loop": "ran no backward pass"},
          edits={"    history: list[float] = []\n": "",
                 "        history.append(w.grad.item())\n": "        yield w.grad.item()\n",
                 "            zero_grad([w, x], set_to_none=(reset == \"none\"))\n    return history\n":
                 "            zero_grad([w, x], set_to_none=(reset == \"none\"))\n"},
          names=("grad_history ran no backward pass", "of type generator"),
          unsaid=("backward wrote w.grad",)),
]

# zero_grad([w, x]) at the top of every step, whatever reset says (optimizer.zero_grad() first): with
# reset=None nothing accumulates, told as the clearing between passes, not only as other numbers.
CASES += [
    Wrong("zero_grad_first_every_step", fails={ACCUMULATE: "between two of its backward passes"},
          edits={"        y = (x + w) * (w + 1)  # a fresh graph each step; the leaves are shared\n":
                 "        zero_grad([w, x])\n        y = (x + w) * (w + 1)\n"},
          names=("grad_history cleared a leaf's .grad", "between two of its backward passes"),
          unsaid=("backward wrote w.grad, but its number differs",)),
]

# A reset that never runs between two steps: moved after the loop (it clears once, at the end), or
# w.grad.detach_() taken for a clear (it changes no number).  Each step's pass adds to the last
# one's gradient: told as that, not only as another number.
CASES += [
    Wrong("reset_once_after_loop", fails={ZERO: "ran backward while .grad still held the gradient of an earlier pass"},
          edits={'''        history.append(w.grad.item())
        if reset is not None:
            zero_grad([w, x], set_to_none=(reset == "none"))''': '''        history.append(w.grad.item())
    if reset is not None:
        zero_grad([w, x], set_to_none=(reset == "none"))'''},
          names=("grad_history ran backward while .grad still held the gradient of an earlier pass",)),
    Wrong("detach_as_clear", fails={ZERO: "ran backward while .grad still held the gradient of an earlier pass"},
          edits={'''        if reset is not None:
            zero_grad([w, x], set_to_none=(reset == "none"))''': '''        if reset == "zero_":
            w.grad.detach_()
            x.grad.detach_()
        elif reset == "none":
            w.grad = None
            x.grad = None'''},
          names=("grad_history ran backward while .grad still held the gradient of an earlier pass",),
          passes=(NONE,)),
]

# reset compared by identity (reset is "none"): the literal the tests pass is the interned one, so only a
# str equal to "none" built at run time shows it; told as telling reset apart by which object it is.
CASES += [
    Wrong("reset_compared_by_is", fails={"other resets": "tells reset apart by which object it is (is)"},
          edits={'set_to_none=(reset == "none")': 'set_to_none=(reset is "none")'},
          names=("grad_history(w, x, steps, reset) did otherwise when reset was a str equal to the same option",
                 "by which object it is (is), not by its text (==)"),
          passes=(ACCUMULATE, ZERO, NONE)),
]

# A default read from what the last call passed (None in the signature, replaced by the last value given, kept in a
# module-level dict): a fresh import's first call does as the stub's default, but not after a call that passed
# another value.  Told as that state, not as a signature with another default.
CASES += [
    Wrong("reset_default_from_last_call", fails={"other resets": "made after a call of grad_history that passed reset"},
          names=("made after a call of grad_history that passed reset", "state kept between calls"),
          unsaid=("your signature has another default",),
          edits={'def grad_history(w: Value, x: Value, steps: int, reset: str | None = None) -> list[float]:\n':
                 '_SETTINGS = {"reset": None}  # the reset the last call passed\n\n\ndef grad_history(w: Value, x: Value, steps: int, reset: str | None = None) -> list[float]:\n',
                 '    history: list[float] = []\n':
                 '    if reset is not None:\n        _SETTINGS["reset"] = reset\n    reset = _SETTINGS["reset"]\n    history: list[float] = []\n'}),
    Wrong("set_to_none_default_from_last_call",
          fails={"zero_grad on other leaves": "made after a call of zero_grad that passed set_to_none"},
          names=("made after a call of zero_grad that passed set_to_none", "state kept between calls"),
          unsaid=("your signature has another default",),
          edits={'def zero_grad(leaves: list[Value], set_to_none: bool = True) -> None:\n':
                 '_MODE = {"set_to_none": True}  # the mode the last call passed\n\n\ndef zero_grad(leaves: list[Value], set_to_none: bool | None = None) -> None:\n',
                 '    for leaf in leaves:\n        if set_to_none:\n':
                 '    if set_to_none is not None:\n        _MODE["set_to_none"] = set_to_none\n    set_to_none = _MODE["set_to_none"]\n    for leaf in leaves:\n        if set_to_none:\n'}),
]

# w.detach() inside the graph: the sum takes a copy sharing w's number that no graph records, told as that detach
CASES += [
    Wrong("w_detached_in_graph", fails={ACCUMULATE: "takes a detach() of the leaf w as an input"},
          names=("a detach() of the leaf w", "no part of its graph"), unsaid=("takes different inputs",),
          edits={"        y = (x + w) * (w + 1)  # a fresh graph each step; the leaves are shared\n":
                 "        y = (x + w.detach()) * (w + 1)\n"}),
]

# A hook on w that halves its gradient: every record is read from w.grad, whose number the hook
# chose in each step's pass, told as that, never as a number computed instead of read.
CASES += [
    Wrong("hook_halves_w",
          fails={"grad = None every step": "was read from a .grad that backward wrote, but a hook of yours"},
          edits={"    history: list[float] = []\n": "    history: list[float] = []\n    w.register_hook(lambda g: g * 0.5)\n"},
          names=("a hook of yours",), unsaid=("computed, not read",)),
]

# zero_grad puts one module-level zero Value into every .grad: the next pass adds into that shared
# Value, so each .grad read is backward's sum on a number the student's code put there, told as such.
CASES += [
    Wrong("one_zero_value_shared",
          fails={"a gradient already there before the loop": "backward wrote x.grad by adding to a number your code had put in .grad"},
          edits={"def zero_grad(": "_ZERO = Value(0.0)\n\n\ndef zero_grad(",
                 "        elif leaf.grad is not None:\n            leaf.grad.zero_()  # keep the same Value, set it to 0 in place":
                 "        elif leaf.grad is not None:\n            leaf.grad = _ZERO"},
          names=("by adding to a number your code had put in",), unsaid=("computed, not read",)),
]

# torch's own zero_grad: detach_() the gradient, then zero_() it in place; and .grad.data.fill_(0.0)
# under a try: both leave each .grad the same Value, at zero.
CASES += [
    Correct("grad_detached_in_place_then_zeroed",
            edits={"            leaf.grad.zero_()  # keep": "            leaf.grad.detach_()\n            leaf.grad.zero_()  # keep"}),
    Correct("grad_data_filled_under_try",
            edits={"        elif leaf.grad is not None:\n            leaf.grad.zero_()  # keep the same Value, set it to 0 in place":
                   "        else:\n            try:\n                leaf.grad.data.fill_(0.0)\n            except AttributeError:\n                pass"}),
]

# Each step's gradient taken with grad() and summed by hand: grad() returns the gradient and writes no
# .grad, so nothing accumulates, nothing is cleared, and a gradient already there is never added to; told
# as grad() for backward(), not as a pass that added to an uncleared .grad or as a record read after clearing.
CASES += [
    Wrong("grad_call_summed_by_hand", fails={ACCUMULATE: "computed gradients with grad(), which writes no .grad",
                                             NONE: "computed gradients with grad(), which writes no .grad"},
          edits={"from micrograph import Value\n": "import micrograph\nfrom micrograph import Value\n",
                 LOOP: "    total = 0.0\n    for _ in range(steps):\n        y = (x + w) * (w + 1)\n"
                       "        (dw,) = micrograph.grad(y, [w])\n"
                       "        total = total + dw.item() if reset is None else dw.item()\n        history.append(total)\n"},
          names=("grad_history computed gradients with grad()", "writes no .grad"),
          unsaid=("ran backward while .grad still held", "record w.grad before clearing it")),
]

# Accumulation done by hand: the gradients cleared every step and summed in a Python float, so the records for
# reset=None are numbers the code computed, and the leaves' .grad end cleared.
CASES += [
    Wrong("accumulated_in_a_float", fails={ACCUMULATE: "is not one the engine produced"},
          edits={LOOP: "    total = 0.0\n    for _ in range(steps):\n        y = (x + w) * (w + 1)\n        y.backward()\n"
                       "        total = w.grad.item() if reset is not None else total + w.grad.item()\n"
                       "        history.append(total)\n        zero_grad([w, x], set_to_none=(reset != \"zero_\"))\n"},
          names=("grad_history(w, x, steps, reset) is not one the engine produced", "set it to None")),
]

# zero_grad taking leaf.detach_() for a clearing: each leaf stops requiring grad (its .grad left as it was), and
# the next backward through it raises; told as the flag zero_grad changed, not as an error the test's own use of
# the result raised.
CASES += [
    Wrong("leaf_detached_as_clear", fails={ZERO_GRAD: "zero_grad changed p.requires_grad"},
          edits={ZERO_IN_PLACE: "            leaf.detach_()\n"},
          names=("zero_grad changed p.requires_grad",), unsaid=("raised while the test used what your code returned",)),
]

# zero_grad switching grad mode off (as optimizers clear under no_grad) outside a with, so it stays off: told of
# zero_grad itself as a mode left off, not as an error the test's own graph raised after the call; the steps of
# grad_history that clear through it name zero_grad's test beside the graph grad mode left unrecorded.
CASES += [
    Wrong("grad_mode_left_off_by_zero_grad", fails={ZERO_GRAD: "zero_grad returned with grad mode still off",
                                                    ZERO: "This test runs your zero_grad too"},
          edits={"from micrograph import Value\n": "import micrograph\nfrom micrograph import Value\n",
                 "    for leaf in leaves:\n        if set_to_none:":
                 "    micrograph.set_grad_enabled(False)\n    for leaf in leaves:\n        if set_to_none:"},
          names=("zero_grad returned with grad mode still off", "while grad mode was off"),
          unsaid=("raised while the test used what your code returned",)),
]

# grad_history handing its reset text on as zero_grad's flag (set_to_none=reset): "zero_" is a non-empty str, which
# zero_grad takes as true, so every reset sets the gradients to None. Told as the text passed as the flag, in place of
# only w.grad set to None by hand.
CASES += [
    Wrong("reset_text_as_set_to_none", fails={ZERO: "gave your zero_grad set_to_none='zero_', the reset text itself"},
          edits={'            zero_grad([w, x], set_to_none=(reset == "none"))\n':
                 '            zero_grad([w, x], set_to_none=reset)\n'},
          names=("set_to_none='zero_'", "not a bool", "took the text as true"),
          unsaid=("because your code set it to None",)),
]

# grad_history's history kept for the leaves given, by functools.lru_cache (Values hash by identity) or in a
# module-level dict keyed by their ids: a second call on the same leaves runs no backward and returns the numbers
# the first call's passes produced, where the statement's accumulates onto what the first call left.
CASES += [
    Wrong("history_lru_cached", fails={"a gradient already there before the loop": "produced in an earlier call"},
          edits={"from micrograph import Value\n": "import functools\n\nfrom micrograph import Value\n",
                 "def grad_history(": "@functools.lru_cache(maxsize=None)\ndef grad_history("},
          names=("grad_history ran no backward pass", "produced in an earlier call", "state kept between calls")),
    Wrong("history_cached_by_leaf_ids", fails={"a gradient already there before the loop": "produced in an earlier call"},
          edits={"    history: list[float] = []\n": "    key = (id(w), id(x), steps, reset)\n    if key in _CACHE:\n"
                                                    "        return list(_CACHE[key])\n    history: list[float] = []\n",
                 "    return history\n": "    _CACHE[key] = list(history)\n    return history\n",
                 "def grad_history(": "_CACHE: dict = {}\n\n\ndef grad_history("},
          names=("grad_history ran no backward pass", "produced in an earlier call", "state kept between calls")),
]
# zero_grad leaves on each leaf it was given a hook that hands the gradient back unchanged (the caller's Values
# keep it), or is decorated with no_grad(): no gradient, no mode the statement asks for changes
CASES += [Correct("zero_grad_leaves_identity_hook",
                  edits={"    for leaf in leaves:\n        if set_to_none:":
                         "    for leaf in leaves:\n        leaf.register_hook(lambda g: g)\n        if set_to_none:"}),
          Correct("zero_grad_decorated_no_grad",
                  edits={"def zero_grad(": "@micrograph.no_grad()\ndef zero_grad(",
                         "from micrograph import Value\n": "import micrograph\nfrom micrograph import Value\n"})]

# each record read with w.grad.item(), then rounded or scaled: where rounding changed no number the record is the
# gradient read (full marks there), where it did it is told as rounded; a record scaled after the read is told as
# read, then changed, not as computed without the engine
CASES += [
    Wrong("history_rounded_to_three", fails={"other step counts": "rounded to fewer digits"},
          edits={"        history.append(w.grad.item())\n": "        history.append(round(w.grad.item(), 3))\n"},
          names=("grad_history(w, x, steps, reset) is a gradient the engine produced during the call, rounded",),
          passes=("gradients accumulate", "zero_() every step", "grad = None every step", "other resets"),
          unsaid=("computed, not read from the engine",)),
    Wrong("history_doubled_after_read", fails={"gradients accumulate": "returned another number than the ones it read"},
          edits={"        history.append(w.grad.item())\n": "        history.append(2 * w.grad.item())\n"},
          names=("grad_history(w, x, steps, reset)", "read gradients' numbers from .grad"),
          unsaid=("computed, not read from the engine",)),
    Wrong("history_item_plus_zero", fails={"gradients accumulate": "returned a number it computed, equal to one it read"},
          edits={"        history.append(w.grad.item())\n": "        history.append(w.grad.item() + 0.0)\n"},
          names=("grad_history(w, x, steps, reset)", "equal to one it read"),
          unsaid=("computed, not read from the engine", "another number than the ones it read")),
    # the gradient read and printed, a formula returned: equal to the number read, yet not it
    Wrong("history_formula_beside_a_printed_read", fails={"gradients accumulate": "equal to one it read"},
          edits={"        history.append(w.grad.item())\n":
                 "        print(w.grad.item())\n        d = (w.item() + 1) + (x.item() + w.item())\n"
                 "        history.append(d * (len(history) + 1) if reset is None else d)\n"},
          names=("grad_history(w, x, steps, reset)", "returned a number it computed, equal to one it read"),
          unsaid=("computed, not read from the engine",)),  # where a .grad was there before, its number differs: told so
]

# zero_grad's set_to_none written as leaf._grad = None: torch's _grad is .grad itself (the same setter), and so is
# micrograph's: the same write, full marks.
CASES += [
    Correct("set_to_none_through_underscore_grad",
            edits={"            leaf.grad = None  # forget it": "            leaf._grad = None  # forget it"}),
]
