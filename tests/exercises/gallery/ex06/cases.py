"""ex06 gallery: plausible wrong answers and correct variants (format: gallery_case.py)."""

from gallery_case import Correct, Wrong

PROPAGATION = "a result requires grad if an input does"
REBIND = "x = x + 1 makes x a non-leaf"
COPY = "x.data.copy_ keeps x a leaf"
COPY_LINE = "    x.data.copy_(x.data + 1)\n"

CASES = [
    # shift_by_data_copy keeps its result per leaf (id(x)): called again on one x it adds nothing and runs no backward
    Wrong("data_copy_kept_per_leaf", names=("x after shift_by_data_copy(w, x); shift_by_data_copy(w, x)",),
          fails={"gradient after copy_ on other inputs": "holds a different number"},
          edits={"    w = Value(w)\n    # x.data shares": "    if id(x) in _SHIFTED:\n"
                                                        "        return _SHIFTED[id(x)]\n"
                                                        "    w = Value(w)\n    # x.data shares",
                 "    y.backward()\n    return {\"x\": x, \"y\": y}\n":
                 "    y.backward()\n    _SHIFTED[id(x)] = {\"x\": x, \"y\": y}\n    return {\"x\": x, \"y\": y}\n",
                 "def shift_by_data_copy(": "_SHIFTED = {}\n\n\ndef shift_by_data_copy("}),
    # shift_by_rebinding with its backward left out and None in y's place: None is one object in every call,
    # no y an earlier call returned, so its missing backward is told on every call, the diagram's first one too
    Wrong("no_backward_none_for_y", names=("shift_by_rebinding ran no backward pass",),
          fails={REBIND: "ran no backward pass", "the original leaf gets the gradient": "ran no backward pass"},
          edits={"    y.backward()  # the gradient flows through the new x down to the leaf x0\n"
                 '    return {"x0": x0, "x": x, "y": y}\n': '    return {"x0": x0, "x": x, "y": None}\n'}),
    Wrong("x0_and_x_exchanged", names=("returned as x0 and x are exchanged",), fails={"x = x + 1 makes x a non-leaf": "are exchanged"},
          edits={'    return {"x0": x0, "x": x, "y": y}\n': '    return {"x0": x, "x": x0, "y": y}\n'}),
    Wrong("flags_ignored", fails={PROPAGATION: "w has requires_grad=True"}),
    Wrong("no_grad_and_hardcoded", fails={COPY: "the leaf x you were given was changed in place (its version counter moved)"}),
    Wrong("rebind_everywhere", fails={COPY: "the x returned is a new object, not the leaf x you were given"}),
    Wrong("new_leaf_copy", names=('the x returned is a new object',), fails={COPY: "the x returned is a new object, not the leaf x you were given"},
          edits={COPY_LINE: "    x = Value(x.item() + 1, requires_grad=True)\n"}),
    Wrong("add_under_no_grad", names=('the leaf x you were given was changed in place',), fails={COPY: "the leaf x you were given was changed in place"},  # no_grad is not the difference
          edits={COPY_LINE: "    with micrograph.no_grad():\n        x.add_(1)\n"}),
    Wrong("new_leaf_after_rebind", names=('x is a leaf', 'backward never wrote x0.grad'), fails={REBIND: "backward never wrote x0.grad"},
          edits={"    x = x + 1  # a new Value made by an addition: the name x now points at a non-leaf\n":
                 "    x = Value(x.item() + 1, requires_grad=True)\n"}),
    Wrong("y_from_the_old_leaf", names=('y is not computed from the x you returned',), fails={REBIND: "y is not computed from the x you returned"},
          edits={"    y = _graph_from(w, x)\n    y.backward()  # the gradient flows":
                 "    y = _graph_from(w, x0)\n    y.backward()  # the gradient flows"}),
    Wrong("b_from_x", names=('b is not a leaf', 'takes different inputs', "takes the leaf x where the statement's takes w"),
          fails={PROPAGATION: "b is not a leaf",  # each call's sentences carry its flags: "made by" and "no grad_fn" are two calls'
                 "every combination of flags": "b (w without grad) is not a leaf: it was made by AddBackward0"},
          edits={"    b = micrograph.add(w_leaf, 1)\n": "    b = micrograph.add(x_leaf, 1)\n"}),
    Wrong("b_always_a_leaf", names=('was not recorded by the graph',),
          fails={"every combination of flags": "b (x without grad and both leaves require grad) was not recorded by the graph"},
          edits={"    b = micrograph.add(w_leaf, 1)\n": "    b = Value(w + 1)\n"}),
    Wrong("tab_among_spaces", names=("TabError at line 66", "mix tabs and spaces", "indent every line with spaces only"),
          fails={REBIND: "TabError at line 66"},  # a tab that looks aligned in a Windows editor
          edits={"    x = x + 1  # a new Value made by an addition": "\tx = x + 1  # a new Value made by an addition"}),
    Wrong("exit_after_own_check", names=("SystemExit(0) while being imported (line 85)", 'if __name__ == "__main__":'),
          fails={PROPAGATION: "exiting ends the import"},  # a script's habit: its own check, then sys.exit(0)
          edits={'    y.backward()\n    return {"x": x, "y": y}\n':
                 '    y.backward()\n    return {"x": x, "y": y}\n\n\nimport sys\n\n'
                 'print(shift_by_rebinding(3.0, -1.0)["x0"].grad)\nsys.exit(0)\n'}),
    Correct("data_setter", edits={COPY_LINE: "    x.data = x.data + 1\n"}),
    Correct("data_add_in_place", edits={COPY_LINE: "    x.data.add_(1.0)\n"}),
    Correct("operators"),
]

# State kept between calls: the leaf x0 made once and its number overwritten on every call.
CASES += [
    Wrong("leaf_kept_in_a_global",  # the x0 a first call returned is the x0 of every later call
          fails={"the original leaf gets the gradient": "what a first call of shift_by_rebinding returned changed"},
          edits={"    x = Value(x, requires_grad=True)\n    x0 = x\n":
                 "    x0 = _X0\n    x0.data.fill_(x)\n    x0.grad = None\n    x = x0\n",
                 "def shift_by_rebinding(": "_X0 = Value(0.0, requires_grad=True)\n\n\ndef shift_by_rebinding("},
          names=("shift_by_rebinding", "called again")),
]


# Plausible mistakes of more kinds, each graded as a student reads it: state kept between calls
# (a default argument, a module-level or class-level store), generic list and generator bugs,
# off-by-one, a wrong operand or flag; and correct answers written another way.
CASES += [
    Wrong('flags_swapped', fails={'a result requires grad if an input does': 'w has requires_grad=True'},
          edits={'    w_leaf = Value(w, requires_grad=w_requires_grad)\n    x_leaf = Value(x, requires_grad=x_requires_grad)\n': '    w_leaf = Value(w, requires_grad=x_requires_grad)\n    x_leaf = Value(x, requires_grad=w_requires_grad)\n'},
          names=('requires_grad=True',)),
    Wrong('x0_taken_after', fails={'the original leaf gets the gradient': 'x0 is not a leaf'},
          edits={'    x0 = x\n    x = x + 1  # a new Value made by an addition: the name x now points at a non-leaf\n': '    x = x + 1\n    x0 = x\n'},
          names=('x0',)),
    Wrong('w_requires_grad_too', fails={'the original leaf gets the gradient': "y's graph reaches w: your w requires grad"},
          edits={'    w = Value(w)\n    x = Value(x, requires_grad=True)\n    x0 = x\n': '    w = Value(w, requires_grad=True)\n    x = Value(x, requires_grad=True)\n    x0 = x\n'},
          names=("y's graph reaches w", "your w requires grad")),
    # w made requiring grad in shift_by_data_copy, where the statement makes it data: w is not returned, but named
    Wrong('w_requires_grad_in_copy', fails={COPY: "y's graph reaches w: your w requires grad"},
          edits={'    w = Value(w)\n    # x.data shares': '    w = Value(w, requires_grad=True)\n    # x.data shares'},
          names=("y's graph reaches w", "your w requires grad")),
    Wrong('copy_without_backward', fails={'x.data.copy_ keeps x a leaf': 'shift_by_data_copy ran no backward pass'},
          edits={'    y = _graph_from(w, x)\n    y.backward()\n    return {"x": x, "y": y}': '    y = _graph_from(w, x)\n    return {"x": x, "y": y}'},
          names=('shift_by_data_copy', 'no backward pass')),
    Wrong('add_under_no_grad_in_copy', fails={'x.data.copy_ keeps x a leaf': 'the leaf x you were given was changed in place'},
          edits={'    x.data.copy_(x.data + 1)\n': '    with micrograph.no_grad():\n        x.add_(1)\n'},
          names=('the leaf x you were given was changed in place',)),
    Wrong('copy_rebinds', fails={'x.data.copy_ keeps x a leaf': 'the x returned is a new object'},
          edits={'    x.data.copy_(x.data + 1)\n': '    x = x + 1\n'},
          names=('the x returned', 'new object')),
    Correct('copy_from_tracked', edits={'    x.data.copy_(x.data + 1)\n': '    x.data.copy_(x + 1)\n'}),
]

# More slips, each graded as a student reads it: flags set after the graph was recorded, the
# reference to the leaf kept after rebinding, w made to require grad, a shift made twice.
CASES += [
    Wrong('flags_set_after_ops', fails={'a result requires grad if an input does': 'b is not a leaf'},
          edits={'    w_leaf = Value(w, requires_grad=w_requires_grad)\n    x_leaf = Value(x, requires_grad=x_requires_grad)\n': '    w_leaf = Value(w, requires_grad=True)\n    x_leaf = Value(x, requires_grad=True)\n',
                 '    y = micrograph.mul(a, b)\n    return {"w": w_leaf': '    y = micrograph.mul(a, b)\n    w_leaf.requires_grad_(w_requires_grad)\n    x_leaf.requires_grad_(x_requires_grad)\n    return {"w": w_leaf'},
          names=('b is not a leaf', "y's graph reaches w")),
    Wrong('x0_after_shift', fails={'x = x + 1 makes x a non-leaf': 'x0 is not a leaf'},
          edits={'    x0 = x\n    x = x + 1  # a new Value made by an addition: the name x now points at a non-leaf\n': '    x = x + 1\n    x0 = x\n'},
          names=('x0 is not a leaf',)),
    Wrong('w_requires_grad_in_rebinding', fails={'x = x + 1 makes x a non-leaf': "y's graph reaches w: your w requires grad"},
          edits={'    w = Value(w)\n    x = Value(x, requires_grad=True)\n    x0 = x': '    w = Value(w, requires_grad=True)\n    x = Value(x, requires_grad=True)\n    x0 = x'},
          names=("y's graph reaches w", "your w requires grad")),
    Wrong('data_copy_twice', fails={'x.data.copy_ keeps x a leaf': 'your code changed it through .data twice'},
          edits={'    x.data.copy_(x.data + 1)\n': '    x.data.copy_(x.data + 1)\n    x.data.copy_(x.data + 1)\n'},
          names=("the leaf x you were given holds the number the statement's change gives it, moved once more",)),
    Wrong('one_added_to_the_copy', fails={'x.data.copy_ keeps x a leaf': 'the leaf x you were given still holds the number it came with'},
          edits={'    x.data.copy_(x.data + 1)\n': '    x.data.copy_(x.data) + 1\n'},  # the sum is made and dropped
          names=('still holds the number it came with',)),
]


# x0 named after the rebinding: it is the new non-leaf, not the leaf the graph starts from.
CASES += [
    Wrong('x0_named_after_the_rebinding', fails={'x = x + 1 makes x a non-leaf': 'x0 is not a leaf'},
          edits={'    x0 = x\n    x = x + 1': '    x = x + 1\n    x0 = x'},
          names=('x0 is not a leaf', 'x0.grad')),
]

# The same through micrograph.add: y's graph is the statement's, but the x0 returned is not the
# leaf it reaches: it is the sum, returned as x too.
CASES += [
    Wrong('x0_named_after_a_functional_add',
          fails={'the original leaf gets the gradient': "the very one returned as x"},
          edits={'    x0 = x\n    x = x + 1': '    x = micrograph.add(x, 1)\n    x0 = x'},
          names=('x0 is not a leaf', 'the very one returned as x'), unsaid=("graph differs",)),
]


# x0 kept as a detach() or as the .data of the leaf: it shares the leaf's number, but no graph
# reaches it; a detach() shares the leaf's version counter too, .data does not, and the
# feedback names the one the code used.
CASES += [
    Wrong('x0_detached', fails={'x = x + 1 makes x a non-leaf': 'x0 is a detach() of the leaf backward wrote into'},
          edits={'    x0 = x\n': '    x0 = x.detach()\n'},
          names=('x0 is a detach()', 'version counter')),
    Wrong('x0_data', fails={'x = x + 1 makes x a non-leaf': 'x0 is the .data of the leaf backward wrote into'},
          edits={'    x0 = x\n': '    x0 = x.data\n'},
          names=('x0 is the .data', 'not its version counter')),
]

# The leaf changed through .data only after y was made (after the backward pass, or before it):
# y was computed from its old number.
CASES += [
    Wrong('data_copy_after_backward',
          fails={'x.data.copy_ keeps x a leaf': "y was computed from x before your code changed x through .data"},
          edits={'    x.data.copy_(x.data + 1)\n    y = _graph_from(w, x)\n    y.backward()\n':
                 '    y = _graph_from(w, x)\n    y.backward()\n    x.data.copy_(x.data + 1)\n'},
          names=('y was computed from x before', 'changed x through .data')),
    Wrong('data_copy_after_y',
          fails={'x.data.copy_ keeps x a leaf': "y was computed from x before your code changed x through .data"},
          edits={'    x.data.copy_(x.data + 1)\n    y = _graph_from(w, x)\n':
                 '    y = _graph_from(w, x)\n    x.data.copy_(x.data + 1)\n'},
          names=('y was computed from x before', 'changed x through .data')),
]

# b made from w's number: y is computed from that b, which requires no grad, so no graph records
# it; told as b not recorded and y's node taking other inputs.
CASES += [
    Wrong("b_from_the_number_of_w", fails={"every combination of flags": "b (x without grad and both leaves require grad) was not recorded by the graph"},
          edits={"    b = micrograph.add(w_leaf, 1)\n": "    b = micrograph.add(Value(w_leaf.item()), 1)\n"},
          names=("was not recorded by the graph", "MulBackward0 there takes different inputs")),
]

# State kept between calls in build and shift_by_data_copy: leaves made once per pair of flags
# and refilled through .data, and one module-level dict returned by every call.
CASES += [
    Wrong("leaves_kept_per_flags",
          fails={"every combination of flags": "what a first call of build returned changed"},
          edits={"    w_leaf = Value(w, requires_grad=w_requires_grad)\n    x_leaf = Value(x, requires_grad=x_requires_grad)\n":
                 "    flags = (w_requires_grad, x_requires_grad)\n"
                 "    if flags not in _LEAVES:\n"
                 "        _LEAVES[flags] = (Value(0.0, requires_grad=flags[0]), Value(0.0, requires_grad=flags[1]))\n"
                 "    w_leaf, x_leaf = _LEAVES[flags]\n    w_leaf.data.fill_(w)\n    x_leaf.data.fill_(x)\n",
                 "def build(": "_LEAVES = {}\n\n\ndef build("},
          names=("build", "called again")),
    Wrong("copy_result_in_a_global",
          fails={"gradient after copy_ on other inputs": "what a first call of shift_by_data_copy returned changed"},
          edits={'    y.backward()\n    return {"x": x, "y": y}':
                 '    y.backward()\n    _RESULT.update(x=x, y=y)\n    return _RESULT',
                 "def shift_by_data_copy(": "_RESULT = {}\n\n\ndef shift_by_data_copy("},
          names=("shift_by_data_copy", "called again")),
]

# State kept between calls, seen by the public test too: the leaf x kept per number in a
# module-level dict, so a repeated number gets a leaf whose .grad an earlier call wrote.
CASES += [
    Wrong("leaf_kept_per_number",
          fails={REBIND: "shift_by_rebinding, called again with the inputs of an earlier call"},
          edits={"    x = Value(x, requires_grad=True)\n    x0 = x\n":
                 "    x = _X.setdefault(x, Value(x, requires_grad=True))\n    x0 = x\n",
                 "def shift_by_rebinding(": "_X = {}\n\n\ndef shift_by_rebinding("},
          names=("shift_by_rebinding", "state kept between calls")),
]

# x made with w's flag (a copy-paste slip): the leaf's flag, the cause, is told before what it
# leaves unrecorded.
CASES += [
    Wrong("x_given_w_flag", fails={PROPAGATION: "x has requires_grad=False, unlike the statement's. a was not recorded"},
          edits={"    x_leaf = Value(x, requires_grad=x_requires_grad)\n":
                 "    x_leaf = Value(x, requires_grad=w_requires_grad)\n"},
          names=("x has requires_grad=False",)),
]

# b's constant made a Value with x's flag: the leaf it adds is named where it sits, and why b is recorded.
CASES += [
    Wrong("b_constant_with_x_flag",
          fails={PROPAGATION: "the AddBackward0 that made b takes a Value your code made requiring grad, where "
                              "the statement's b requires no grad",
                 "every combination of flags": "where the statement's takes an input that requires no grad"},
          edits={"    b = micrograph.add(w_leaf, 1)\n": "    b = micrograph.add(w_leaf, Value(1.0, requires_grad=x_requires_grad))\n"},
          names=("AddBackward0 that made b", "requiring grad")),
]


# State of three more kinds: x.grad set to None first ("start clean"), so a second call on the
# same leaf drops the first call's gradient; the first leaf's number kept in a module list and
# used for every later leaf; shift_by_rebinding cached by functools.lru_cache, so a repeated
# call returns an earlier call's graph, whose backward ran then.
CASES += [
    Wrong("grad_cleared_first", fails={"gradient after copy_ on other inputs": "cleared x.grad before its backward pass"},
          edits={"    w = Value(w)\n    # x.data shares": "    x.grad = None  # start clean\n    w = Value(w)\n    # x.data shares"},
          names=("shift_by_data_copy", "cleared x.grad", "second time on the same leaf")),
    Wrong("first_number_kept", fails={COPY: "depends on state kept between calls"},
          edits={COPY_LINE: "    if not _START:\n        _START.append(x.item())\n    x.data.fill_(_START[0] + 1)\n",
                 "def shift_by_data_copy(": "_START: list[float] = []\n\n\ndef shift_by_data_copy("},
          names=("shift_by_data_copy", "state kept between calls")),
    Wrong("rebinding_cached", fails={REBIND: "is still the y an earlier call of shift_by_rebinding returned"},
          edits={"def shift_by_rebinding(": "@functools.lru_cache(maxsize=None)\ndef shift_by_rebinding(",
                 "import micrograph\n": "import functools\n\nimport micrograph\n"},
          names=("shift_by_rebinding", "kept between calls"), unsaid=("ran no backward pass",)),
]


# build making one leaf per distinct number: with w == x the graph has one leaf for both names.
CASES += [
    Wrong("one_leaf_per_number", fails={"every combination of flags": "x is the very Value w is in build"},
          edits={"    w_leaf = Value(w, requires_grad=w_requires_grad)\n    x_leaf = Value(x, requires_grad=x_requires_grad)\n":
                 "    made: dict[float, Value] = {}\n    w_leaf = made.setdefault(w, Value(w, requires_grad=w_requires_grad))\n"
                 "    x_leaf = made.setdefault(x, Value(x, requires_grad=x_requires_grad))\n"},
          names=("x is the very Value w is in build", "one leaf for both"), unsaid=("one Value under two names",)),
]


# w for x in the .data copy: x gets w's number plus one.
CASES += [
    Wrong("copy_from_w", fails={COPY: "holds the number the statement's change gives when made from w"},
          edits={COPY_LINE: "    x.data.copy_(w.data + 1)\n"},
          names=("the leaf x you were given", "made from w", "using w")),
]

# x = x + 1 computed under no_grad: y has no graph and its backward raises; the feedback names
# the Value made with grad mode off and the leaf it was computed from, not only the engine's error.
CASES += [
    Wrong("rebound_under_no_grad", fails={REBIND: "shift_by_rebinding computed x from x0 (which requires grad) while grad mode was off"},
          edits={"    x = x + 1  # a new Value made by an addition: the name x now points at a non-leaf\n":
                 "    with micrograph.no_grad():\n        x = x + 1\n"},
          names=("shift_by_rebinding", "computed x from x0", "no_grad")),
]

# One leaf for w and x when their numbers and flags are equal ("one leaf is enough"): only a call
# with w == x and the same flags shows it.
CASES += [
    Wrong("one_leaf_when_equal", fails={"every combination of flags": "your code made one leaf for both"},
          edits={"    x_leaf = Value(x, requires_grad=x_requires_grad)\n":
                 "    same = (x, x_requires_grad) == (w, w_requires_grad)\n"
                 "    x_leaf = w_leaf if same else Value(x, requires_grad=x_requires_grad)\n"},
          names=("x is the very Value w is in build", "one leaf for both"),
          unsaid=("differs at b",)),  # b = w + 1 reads w as the statement's does: a reads the one leaf twice
]

# x returned detached (x.detach()): y's graph is the statement's, with x in it; the feedback says the
# Value returned is a detach() of that x, not that the graph records an addition fewer times.
CASES += [
    Wrong("rebound_x_returned_detached", fails={REBIND: "x is a detach() of the x y was computed from"},
          edits={'    return {"x0": x0, "x": x, "y": y}': '    return {"x0": x0, "x": x.detach(), "y": y}'},
          names=("x is a detach() of the x y was computed from",), unsaid=("fewer times", "not recorded by the graph")),
]

# x.data.copy_ run twice (x ends two above its start): on one hidden input x + 2 equals w + 1, which
# is no sign of code changing x using w; that claim is made only where every input shows it.
CASES += [
    Wrong("copy_twice", fails={COPY: "The leaf x you were given holds the number the statement's change gives it"},
          edits={COPY_LINE: COPY_LINE * 2},
          names=("changed it through .data twice",), unsaid=("using w", "The leaf x you were given holds a different number")),
]
CASES += [
    Wrong("leaf_detached_in_place", fails={COPY: "shift_by_data_copy called x.detach_()"},
          edits={COPY_LINE: "    x.detach_()\n    x.add_(1)\n"},
          names=("x.detach_()", "no longer requires grad")),
    Wrong("rebound_twice", fails={REBIND: "x's graph records AddBackward0 more times than the statement's"},
          edits={"    x = x + 1  # a new Value": "    x = x + 1\n    x = x + 1  # a new Value"},
          names=("x's graph records AddBackward0 more times",)),
]
CASES += [
    Wrong("leaves_cached_per_inputs", fails={"every combination of flags": "The w build returned is still the w an earlier call of build returned"},
          edits={"def build(": "_LEAVES: dict = {}\n\n\ndef build(",
                 "    w_leaf = Value(w, requires_grad=w_requires_grad)\n    x_leaf = Value(x, requires_grad=x_requires_grad)\n":
                 "    key = (w, x, w_requires_grad, x_requires_grad)\n"
                 "    if key not in _LEAVES:  # the same leaves for the same inputs\n"
                 "        _LEAVES[key] = (Value(w, requires_grad=w_requires_grad), Value(x, requires_grad=x_requires_grad))\n"
                 "    w_leaf, x_leaf = _LEAVES[key]\n"},
          names=("kept between calls and returned again",)),
]
CASES += [
    Wrong("x0_copied", fails={REBIND: "x0 is a new Value sharing the number of the leaf backward wrote into"},
          edits={"    x0 = x\n": "    x0 = copy.copy(x)  # so that rebinding x cannot change it\n",
                 "import micrograph\n": "import copy\n\nimport micrograph\n"},
          names=("a copy, as copy.copy makes",), unsaid=("is the .data of",)),
]

# A leaf in a module-level global (``global``): made on the first call and refilled through .data on
# later ones (its .grad left to add up), made once and never refilled, or made anew only for new flags.
# Each shows as a first call's result that a later call changed, or a leaf an earlier call returned.
# Rebinding the global to a new leaf on every call keeps nothing.
X0_LINE = "    x = Value(x, requires_grad=True)\n    x0 = x\n"
W_LINE = "    w_leaf = Value(w, requires_grad=w_requires_grad)\n"
CASES += [
    Wrong("x0_refilled_in_a_global", fails={REBIND: "what a first call of shift_by_rebinding returned changed"},
          edits={X0_LINE: "    global _X0\n    if _X0 is None:\n        _X0 = Value(x, requires_grad=True)\n"
                          "    else:\n        _X0.data.fill_(x)\n    x = _X0\n    x0 = x\n",
                 "def shift_by_rebinding(": "_X0 = None\n\n\ndef shift_by_rebinding("},
          names=("shift_by_rebinding", "state kept between calls")),
    Wrong("x0_made_on_the_first_call", fails={REBIND: "what a first call of shift_by_rebinding returned changed"},
          edits={X0_LINE: "    global _X0\n    if _X0 is None:\n        _X0 = Value(x, requires_grad=True)\n"
                          "    x = _X0\n    x0 = x\n",
                 "def shift_by_rebinding(": "_X0 = None\n\n\ndef shift_by_rebinding("},
          names=("shift_by_rebinding", "state kept between calls")),
    Wrong("w_leaf_in_a_global_given_each_flag",
          fails={PROPAGATION: "an earlier call of build returned, kept between calls",
                 "only leaves that require grad get a gradient": "an earlier call of build returned, kept between calls"},
          edits={W_LINE: "    global _W\n    if _W is None:\n        _W = Value(w)\n    _W.data.fill_(w)\n"
                         "    _W.requires_grad_(w_requires_grad)\n    w_leaf = _W\n",
                 "def build(": "_W = None\n\n\ndef build("},
          names=("the w build returned", "kept between calls")),
    Correct("w_leaf_global_rebound_each_call",
            edits={W_LINE: "    global _W\n    _W = Value(w, requires_grad=w_requires_grad)\n    w_leaf = _W\n",
                   "def build(": "_W = None\n\n\ndef build("}),
]

# Grad mode switched off by the file's top-level code, each function decorated with enable_grad(): every
# function behaves, and only the import shows the mode left off for whoever imports the file.
CASES += [
    Wrong("grad_off_at_import_decorated", fails={PROPAGATION: "switched grad mode off at line"}),
]

# the shift made twice through .data (once more inside a print of the shifted number): told as the change made twice
CASES += [
    Wrong("shift_printed_and_made", fails={COPY: "your code changed it through .data twice"},
          edits={COPY_LINE: '    print("shifted:", x.data.copy_(x.data + 1).item())\n' + COPY_LINE},
          names=("The leaf x you were given holds the number the statement's change gives it, moved once more",)),
    Correct("ordered_dicts", edits={"from micrograph import Value\n": "from collections import OrderedDict\n\nfrom micrograph import Value\n",
            'return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y}': 'return OrderedDict(w=w_leaf, x=x_leaf, a=a, b=b, y=y)',
            'return {"x0": x0, "x": x, "y": y}': 'return OrderedDict(x0=x0, x=x, y=y)',
            'return {"x": x, "y": y}': 'return OrderedDict(x=x, y=y)'}),
    # a key typo returning the leaf w as x too: two leaves made, one Value under two names
    Wrong("x_key_holds_w", fails={"a result requires grad if an input does": "The Value returned as x is the very one returned as w"},
          edits={'return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y}': 'return {"w": w_leaf, "x": w_leaf, "a": a, "b": b, "y": y}'},
          names=("The Value returned as x is the very one returned as w",), unsaid=("made one leaf for both",)),
    # x0 returned as a copy of the leaf, x built from the original: no number stands where x0 does
    Wrong("x0_copy_returned", fails={"x = x + 1 makes x a non-leaf": "x's graph never reaches x0"},
          edits={"    x0 = x\n": "    x0 = Value(x.item(), requires_grad=True)  # a copy kept\n"},
          names=("x's graph never reaches x0",), unsaid=("an input that requires no grad",)),
]

# The x returned is x0 again (a key typo): y is built as the statement's, only x is not the sum. y's
# graph, whose flat sum merges the unnamed x = x0 + 1 into the sum above it, records as many
# additions as the statement's.
CASES += [
    Wrong('x_key_returns_x0', fails={REBIND: "the very one returned as x0"},
          edits={'    return {"x0": x0, "x": x, "y": y}\n': '    return {"x0": x0, "x": x0, "y": y}\n'},
          names=('the very one returned as x0', 'x is a leaf'), unsaid=("fewer times", "y's graph differs")),
]

# every backward written as backward(retain_graph=True), the documents' habit: the statement never says
# whether the graph is freed, so what y's nodes still hold after the pass is not graded
CASES += [
    Correct("retain_graph_kept", edits={"    y.backward()  # the gradient flows": "    y.backward(retain_graph=True)  # the gradient flows",
                                        "    y.backward()\n    return {\"x\": x, \"y\": y}": "    y.backward(retain_graph=True)\n    return {\"x\": x, \"y\": y}"}),
]

# x set to 1 through .data (copy_ of a constant), once: at a hidden x where 1 is x + 2 the number alone looks like
# the change made twice; one write was seen, so it is told as a different number only
CASES += [
    Wrong("copy_constant_once", fails={COPY: "The leaf x you were given holds a different number",
                                       "gradient after copy_ on other inputs": "The leaf x you were given holds a different number"},
          edits={COPY_LINE: "    x.data.copy_(Value(1.0))\n"},
          names=("The leaf x you were given holds a different number",), unsaid=("twice", "moved once more")),
]

# x rebound to x.data + 1 ("change it through .data" read as the rebinding): the new x requires no grad, y has no
# graph, and y.backward() raises: told as x computed from x0.data, not only as the engine's error
CASES += [
    Wrong("rebound_from_data", names=("computed x from x0.data",),
          fails={REBIND: "shift_by_rebinding computed x from x0.data, which shares x0's number but is no part of its graph"},
          edits={"    x = x + 1  # a new Value made by an addition: the name x now points at a non-leaf\n":
                 "    x = x.data + 1\n"}),
]

# the change made through x.detach() (taken for .data: both share x's number): detach() shares the version counter
# too, so it moves; told as changed through a detach() of it, not only as changed in place
CASES += [
    Wrong("added_through_detach", names=("changed in place through a detach() of it",),
          fails={COPY: "The leaf x you were given was changed in place through a detach() of it"},
          edits={COPY_LINE: "    x.detach().add_(1)  # detach() shares x's number, as .data does\n"}),
]

# detach() taken for in-place in build: its new Value dropped, the leaf still requires grad; told as the detach()
# dropped.  The same flags turned off by a detach() kept (w = w.detach()) are right.
LEAVES_LINES = "    w_leaf = Value(w, requires_grad=w_requires_grad)\n    x_leaf = Value(x, requires_grad=x_requires_grad)\n"
CASES += [
    Wrong("detach_result_dropped", fails={PROPAGATION: "build called w.detach() and left the new Value it returned out"},
          edits={LEAVES_LINES: "    w_leaf = Value(w, requires_grad=True)\n    x_leaf = Value(x, requires_grad=True)\n"
                               "    if not w_requires_grad:\n        w_leaf.detach()\n"
                               "    if not x_requires_grad:\n        x_leaf.detach()\n"},
          names=("called w.detach() and left the new Value it returned out", "detach() leaves w itself as it was")),
    Correct("flags_by_detach_kept",
            edits={LEAVES_LINES: "    w_leaf = Value(w, requires_grad=True)\n    x_leaf = Value(x, requires_grad=True)\n"
                                 "    if not w_requires_grad:\n        w_leaf = w_leaf.detach()\n"
                                 "    if not x_requires_grad:\n        x_leaf = x_leaf.detach()\n"}),
]

# y built from x.data through the given helper: the backward raises, told with the Value the
# student named (y) computed from x.data, though the step that read x.data has no name of its own.
CASES += [
    Wrong("y_built_from_data", fails={COPY: "shift_by_data_copy computed y from x.data"},
          edits={COPY_LINE + "    y = _graph_from(w, x)\n": COPY_LINE + "    y = _graph_from(w, x.data)\n"},
          names=("computed y from x.data",)),
]

# The documents' spelling: a detach() of x, its .data filled with the new number (x shares it, and
# no version is counted): x stays the leaf it was.
CASES += [
    Correct("detach_data_filled", edits={COPY_LINE: "    x_detach = x.detach()\n    x_detach.data.fill_(x_detach.item() + 1)\n"}),
]

# shift_by_rebinding backpropagates from a sum it made again, not from y: told by the root of the
# graph its backward ran through, beside x0.grad's number.
CASES += [
    Wrong("backward_from_a_sum", fails={REBIND: "shift_by_rebinding's backward's graph differs at its root"},
          edits={"    y.backward()  # the gradient flows through the new x down to the leaf x0\n":
                 "    micrograph.add(x, w).backward()\n"},
          names=("shift_by_rebinding's backward", "AddBackward0", "x0.grad")),
]

# Correct, spelled otherwise: the constant first in the sum that rebinds x, the operands of y
# exchanged, and x's number changed with .data.fill_.
CASES += [
    Correct("constant_first_and_fill", edits={
        '''    w = Value(w)
    x = Value(x, requires_grad=True)
    x0 = x
    x = x + 1  # a new Value made by an addition: the name x now points at a non-leaf
    y = _graph_from(w, x)''': '''    const = Value(w, requires_grad=False)
    x0 = Value(x, requires_grad=True)
    x = micrograph.add(1, x0)
    y = micrograph.mul(micrograph.add(const, 1), micrograph.add(x, const))''',
        COPY_LINE: "    x.data.fill_(x.item() + 1)\n"}),
]

# shift_by_rebinding switching grad mode off after its backward (nothing left to record), outside a with: it
# returns with grad mode off, so whatever its caller builds next records nothing. Told as the mode it left off.
CASES += [
    Wrong("grad_mode_left_off_after_backward", fails={REBIND: "shift_by_rebinding returned with grad mode still off"},
          edits={"    y.backward()  # the gradient flows through the new x down to the leaf x0\n":
                 "    y.backward()  # the gradient flows through the new x down to the leaf x0\n"
                 "    micrograph.set_grad_enabled(False)\n"},
          names=("shift_by_rebinding returned with grad mode still off",)),
]

# shift_by_data_copy under functools.lru_cache (x hashes by identity): a second call on the same leaf runs nothing
# and returns the first call's dict, so x is shifted and backpropagated once where the statement's does it twice.
CASES += [
    Wrong("data_copy_lru_cached", fails={"gradient after copy_ on other inputs": "called again on the x an earlier call was given"},
          edits={"import micrograph\n": "import functools\n\nimport micrograph\n",
                 "def shift_by_data_copy(": "@functools.lru_cache(maxsize=None)\ndef shift_by_data_copy("},
          names=("shift_by_data_copy", "an earlier call", "between calls")),
]

# the rebound x asked to keep its gradient (x.retain_grad() before backward): the statement says to call none,
# and the feedback names the call and what it left in x.grad
CASES += [
    Wrong("rebound_x_retains_grad", fails={"x = x + 1 makes x a non-leaf": "retain_grad() was called on x"},
          edits={"    y = _graph_from(w, x)\n    y.backward()  # the gradient":
                 "    x.retain_grad()\n    y = _graph_from(w, x)\n    y.backward()  # the gradient"},
          names=("retain_grad() was called on x", "x.grad")),
]

# the flags given to the other leaf: in the test of which leaves get a gradient, each .grad is labelled with its
# call's flags, where "backward never wrote w.grad" and "w.grad holds a gradient" were said side by side of two calls
CASES += [
    Wrong("flags_given_to_the_other_leaf",
          fails={"only leaves that require grad get a gradient": "w.grad (w without grad) holds a gradient from backward"},
          edits={"    w_leaf = Value(w, requires_grad=w_requires_grad)\n    x_leaf = Value(x, requires_grad=x_requires_grad)\n":
                 "    w_leaf = Value(w, requires_grad=x_requires_grad)\n    x_leaf = Value(x, requires_grad=w_requires_grad)\n"},
          names=("requires_grad",)),
]

# x = x + 1 computed under set_grad_enabled(False): the backward from y raises, told with the spelling used
CASES += [
    Wrong("rebound_under_set_grad_enabled_false", fails={"x = x + 1 makes x a non-leaf": "(set_grad_enabled(False))"},
          edits={"    x = x + 1  # a new Value made by an addition: the name x now points at a non-leaf\n":
                 "    with micrograph.set_grad_enabled(False):\n        x = x + 1\n"},
          names=("shift_by_rebinding computed x from x0", "set_grad_enabled(False)"), unsaid=("(no_grad)",)),
]

# build makes its leaves requiring no grad and turns their flags on after a, b and y were computed: nothing was
# recorded, told as the flag turned on after the operation that read the leaf
CASES += [
    Wrong("flags_turned_on_after_the_graph", fails={PROPAGATION: "while x did not require grad yet"},
          edits={"    w_leaf = Value(w, requires_grad=w_requires_grad)\n    x_leaf = Value(x, requires_grad=x_requires_grad)\n":
                 "    w_leaf = Value(w)\n    x_leaf = Value(x)\n",
                 "    y = micrograph.mul(a, b)\n    return": "    y = micrograph.mul(a, b)\n    w_leaf.requires_grad_(w_requires_grad)\n"
                                                       "    x_leaf.requires_grad_(x_requires_grad)\n    return"},
          names=("build computed a from", "did not require grad yet", "requires_grad was turned on only after that")),
]

# torch imported beside micrograph (to check an answer against it where the student runs the file): not where the file is
# graded, told so beside Python's "No module named 'torch'".
CASES += [
    Wrong("torch_imported_to_compare", fails={PROPAGATION: "torch is not there, so the code that imports it cannot stay"},
          edits={"import micrograph\n": "import micrograph\nimport torch\n"},
          names=("No module named 'torch'", "micrograph and the standard library only")),
]

# x = x + 1 computed inside inference_mode(), which is no no_grad block: told with that spelling
CASES += [
    Wrong("rebound_under_inference_mode", fails={"x = x + 1 makes x a non-leaf": "(inference_mode())"},
          edits={"    x = x + 1  # a new Value made by an addition: the name x now points at a non-leaf\n":
                 "    with micrograph.inference_mode():\n        x = x + 1\n"},
          names=("shift_by_rebinding computed x from x0", "inference_mode()"), unsaid=("(no_grad)",)),
]

# x = x + 1 computed by a helper of the student's decorated with @no_grad(): told by that helper
CASES += [
    Wrong("rebound_in_no_grad_helper", fails={"x = x + 1 makes x a non-leaf": "inside _shifted"},
          edits={"def shift_by_rebinding(": "@micrograph.no_grad()\ndef _shifted(x: Value) -> Value:\n    return x + 1\n\n\n"
                                            "def shift_by_rebinding(",
                 "    x = x + 1  # a new Value made by an addition: the name x now points at a non-leaf\n":
                 "    x = _shifted(x)\n"},
          names=("shift_by_rebinding computed x from x0", "inside _shifted, a function of yours decorated"),
          unsaid=("(no_grad)",)),
]
