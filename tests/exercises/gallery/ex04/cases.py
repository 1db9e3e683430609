"""ex04 gallery: plausible wrong answers and correct variants (format: gallery_case.py)."""

from gallery_case import LEAVES_KEPT_IN_A_GLOBAL, Correct, Wrong

RAISES = "a second backward raises"
ADDS = "with retain_graph=True the second backward adds"
SURVIVES = "which graphs survive a second backward"
SECOND_CALL = '''    try:
        y.backward()
    except RuntimeError as exc:
        error = exc  # the graph's saved values were freed by the first call
'''

CASES = [
    Wrong("grad_value_read_at_the_end", names=("[1][0] is the very number a .grad holds after the second backward",),
          fails={ADDS: "it was read after that pass", "backward twice on other inputs": "not right after the first pass"},
          edits={"    history = [w_leaf.grad.item()]\n": "    first = w_leaf.grad  # the .grad Value, which the second pass adds into\n",
                 "    history.append(w_leaf.grad.item())\n    return error, history\n":
                 "    return error, [first.item(), w_leaf.grad.item()]\n"}),
    Wrong("always_retain", names=('the error backward_twice(w, x, retain_graph=False) returned is None', 'backward_twice kept the graph (retain_graph=True)'), fails={RAISES: "the error backward_twice(w, x, retain_graph=False) returned is None: no error was caught"},
          edits={"    y.backward(retain_graph=retain_graph)\n": "    y.backward(retain_graph=True)\n",
                 "    y.backward()\n    try:": "    y.backward(retain_graph=True)\n    try:"}),
    Wrong("hardcoded", fails={"backward twice on other inputs": "is not one the engine produced"}),
    Wrong("message_string", names=('the error backward_twice(w, x, retain_graph=False) returned is of type str',), fails={RAISES: "the error backward_twice(w, x, retain_graph=False) returned is of type str, not the exception object itself"},
          edits={"        error = exc  #": "        error = str(exc)  #",
                 "        return exc  #": "        return str(exc)  #"}),
    Wrong("error_made_by_hand", names=('backward_twice ran backward fewer times',), fails={RAISES: "backward_twice ran backward fewer times"},
          edits={SECOND_CALL: '''    if not retain_graph:
        error = RuntimeError("Trying to backward through the graph a second time (or directly "
                             "access saved tensors after they have already been freed).")
    else:
        y.backward()
'''}),
    Wrong("root_op_only", names=('second_backward_error ran no backward pass', 'the error for v + v * 0.5 is None'), fails={"graphs that save values do not": "the error for v + v * 0.5 is None"},
          edits={'''    y = build(Value(w, requires_grad=True))
    y.backward()
    try:
        y.backward()
    except RuntimeError as exc:
        return exc  # some node on the way saved a value, and it is gone
    return None''': '''    y = build(Value(w, requires_grad=True))
    if y.grad_fn.name() in ("AddBackward0", "SubBackward0", "NegBackward0"):
        return None
    y.backward()
    try:
        y.backward()
    except RuntimeError as exc:
        return exc
    return None'''}),
    Wrong("retain_on_second_call", names=('backward_twice let backward free the graph',), fails={ADDS: "backward_twice let backward free the graph"},
          edits={"    y.backward(retain_graph=retain_graph)\n": "    y.backward()\n",
                 SECOND_CALL: '''    try:
        y.backward(retain_graph=retain_graph)
    except RuntimeError as exc:
        error = exc
'''}),
    Wrong("history_after_both", names=('backward_twice(w, x, retain_graph=True)[1][0]', 'read after that pass'), fails={ADDS: "is the very number a .grad holds after the second backward"},
          edits={"    history = [w_leaf.grad.item()]\n": "    history = []\n",
                 "    history.append(w_leaf.grad.item())\n": "    history += [w_leaf.grad.item()] * 2\n"}),
    Wrong("swallow_everything", names=('the error for v * 3 is None',), fails={SURVIVES: "the error for v * 3 is None"},
          edits={'''    except RuntimeError as exc:
        return exc  # some node on the way saved a value, and it is gone''': '''    except RuntimeError:
        pass'''}),
    Correct("float_and_else"),
    Correct("hook_returning_the_same_number", edits={  # a new Value, the very number: nothing chosen
        "    y, w_leaf = g[\"y\"], g[\"w\"]\n": "    y, w_leaf = g[\"y\"], g[\"w\"]\n    g[\"a\"].register_hook(lambda grad: grad * 1.0)\n"}),
    Correct("engine_functions"),
    # w.grad set to None on the new leaf before the first pass: nothing was there to clear
    Correct("grad_none_before_the_first_pass", edits={"    y.backward(retain_graph=retain_graph)\n":
                                                      "    w_leaf.grad = None\n"
                                                      "    y.backward(retain_graph=retain_graph)\n"}),
    # x.grad dropped between the passes: backward_twice reports w.grad alone, which it leaves alone
    Correct("x_grad_dropped_between", edits={"    error = None\n": "    g[\"x\"].grad = None\n    error = None\n"}),
    Wrong("second_record_as_formula", names=('backward_twice(w, x, retain_graph=True)[1] is not one the engine produced',), fails={"with retain_graph=True the second backward adds":
                                             "is not one the engine produced"},
          edits={"    history.append(w_leaf.grad.item())\n    return error, history":
                 "    history.append(history[0] * (1 if error else 2))\n    return error, history"}),
    Wrong("formula_after_reading_grad", names=('backward_twice(w, x, retain_graph=True)[1] is not one the engine produced',),  # reads .grad after the second pass, returns a formula
          fails={ADDS: "is not one the engine produced"},
          edits={"    history.append(w_leaf.grad.item())\n    return error, history":
                 "    assert w_leaf.grad is not None\n"
                 "    history.append(history[0] * (1 if error else 2))\n    return error, history"}),
    Wrong("formula_after_reading_private_grad", names=('backward_twice(w, x, retain_graph=True)[1] is not one the engine produced',),  # ... or reads the private _grad instead
          fails={ADDS: "is not one the engine produced"},
          edits={"    history.append(w_leaf.grad.item())\n    return error, history":
                 "    assert w_leaf._grad is not None\n"
                 "    history.append(history[0] * (1 if error else 2))\n    return error, history"}),
    Correct("private_grad_read", edits={"    history.append(w_leaf.grad.item())\n":
                                        "    history.append(float(w_leaf._grad))\n"}),
    # both functions wrapped by a decorator of the student's own (functools.wraps) that prints after each call
    Correct("wrapped_by_a_logging_decorator", edits={
        "from collections.abc import Callable\n": "import functools\nfrom collections.abc import Callable\n\n\ndef logged(fn):\n"
        "    \"\"\"Print each call's name when it returns.\"\"\"\n    @functools.wraps(fn)\n    def wrapper(*args, **kwargs):\n"
        "        result = fn(*args, **kwargs)\n        print(fn.__name__, \"done\")\n        return result\n    return wrapper\n",
        "def second_backward_error(": "@logged\ndef second_backward_error(", "def backward_twice(": "@logged\ndef backward_twice("}),
]

# State kept between calls: one module-level list of records, cleared and returned by every call.
CASES += [
    Wrong("records_in_a_module_list",  # each call's own numbers are right; the list is shared
          fails={"backward twice on other inputs": "what a first call of backward_twice returned changed"},
          edits={"    history = [w_leaf.grad.item()]\n": "    history = _RECORDS\n    history[:] = [w_leaf.grad.item()]\n",
                 "def backward_twice(": "_RECORDS: list[float] = []\n\n\ndef backward_twice("},
          names=("backward_twice", "changed when backward_twice was called again")),
]
CASES += [
    Wrong("records_as_values",  # w.grad itself kept: the second backward adds into that very Value
          fails={ADDS: "backward_twice(w, x, retain_graph=True)[1][0] is of type Value, not a Python float"},
          edits={"    history = [w_leaf.grad.item()]\n": "    history = [w_leaf.grad]\n",
                 "    history.append(w_leaf.grad.item())\n": "    history.append(w_leaf.grad)\n"},
          names=("is of type Value, not a Python float",)),
]


# Plausible mistakes of more kinds, each graded as a student reads it: state kept between calls
# (a default argument, a module-level or class-level store), generic list and generator bugs,
# off-by-one, a wrong operand or flag; and correct answers written another way.
CASES += [
    Wrong('build_given_a_float', fails={'which graphs survive a second backward': 'AttributeError'},
          edits={'    y = build(Value(w, requires_grad=True))\n': '    y = build(w)\n'},
          names=('second_backward_error', 'AttributeError')),
    Wrong('first_call_retains', fails={'which graphs survive a second backward': 'kept the graph (retain_graph=True)'},
          edits={'    y = build(Value(w, requires_grad=True))\n    y.backward()\n': '    y = build(Value(w, requires_grad=True))\n    y.backward(retain_graph=True)\n'},
          names=('second_backward_error', 'retain_graph=True')),
    Wrong('grad_cleared_between', fails={'with retain_graph=True the second backward adds': 'the entries of backward_twice(w, x, retain_graph=True)[1] are all the same'},
          edits={'    error = None\n    try:\n        y.backward()\n': '    error = None\n    w_leaf.grad = None\n    try:\n        y.backward()\n'},
          names=('backward_twice cleared', 'between two of its backward passes')),
    # both records read before the second pass: told by the second record, the number w.grad held before that pass
    Wrong('history_read_too_early', fails={'with retain_graph=True the second backward adds': 'the second entry of backward_twice(w, x, retain_graph=True)[1] is the very number w.grad held before the second backward pass'},
          edits={'    history = [w_leaf.grad.item()]\n': '    history = [w_leaf.grad.item()] * 2\n', '    history.append(w_leaf.grad.item())\n': ''},
          names=('backward_twice(w, x, retain_graph=True)[1]', 'read before that pass')),
    Wrong('flag_returned', fails={'which graphs survive a second backward': 'is of type bool, not the exception object'},
          edits={'        return exc  # some node on the way saved a value, and it is gone': '        return True'},
          names=('the error for v * 3', 'bool')),
    Correct('graph_kept_by_flag_name', edits={'    y.backward(retain_graph=retain_graph)\n': '    y.backward(gradient=None, retain_graph=retain_graph)\n'}),
    Correct('retain_graph_positional', edits={'    y.backward(retain_graph=retain_graph)\n': '    y.backward(None, retain_graph)\n'}),
]


# Tried as a student reads them: the graph built again for
# the second backward, the gradient zeroed through .grad.data between the calls, the history
# rounded, the second call given the same flag (the graph is then kept after it).
CASES += [
    Wrong('built_again_for_the_second_call',
          edits={'    y.backward()\n    try:\n        y.backward()\n':
                 '    y.backward()\n    try:\n        build(Value(w, requires_grad=True)).backward()\n'},
          names=('is None: no error was caught',)),
    Wrong('zeroed_through_data_between',  # the statement lets the second call add to the first
          edits={'    history = [w_leaf.grad.item()]\n': '    history = [w_leaf.grad.item()]\n    w_leaf.grad.data.zero_()\n'},
          names=('backward_twice cleared', 'between two of its backward passes')),
    Wrong('history_rounded',
          edits={'    history = [w_leaf.grad.item()]\n': '    history = [round(w_leaf.grad.item(), 1)]\n'},
          names=('different number',)),
    # a literal 0.0 written for a cleared .grad: a whole number is never told as a rounded gradient
    Wrong('cleared_between_and_zero_written', names=('backward_twice cleared', 'not one the engine produced'),
          fails={'a failed second backward on other inputs': 'is not one the engine produced during the call'},
          unsaid=('rounded',),
          edits={'    history = [w_leaf.grad.item()]\n': '    history = [w_leaf.grad.item()]\n    w_leaf.grad = None\n',
                 '    history.append(w_leaf.grad.item())\n':
                 '    history.append(0.0 if w_leaf.grad is None else w_leaf.grad.item())\n'}),
    Wrong('second_call_given_the_flag', names=('kept the graph',),
          edits={'    try:\n        y.backward()\n    except RuntimeError as exc:\n        error = exc':
                   '    try:\n        y.backward(retain_graph=retain_graph)\n    except RuntimeError as exc:\n        error = exc'}),
]


# An exception caught once and kept (a module-level name, a list made once), returned again by
# later calls: its type and message are the engine's, its object is an earlier call's.
CASES += [
    Wrong('first_error_kept_in_a_global',
          fails={'a failed second backward on other inputs': 'raised during an earlier call'},
          edits={'        error = exc  # the graph\'s saved values were freed by the first call\n':
                 '        global _FIRST\n        _FIRST = _FIRST or exc\n        error = _FIRST\n',
                 'def backward_twice(': '_FIRST = None\n\n\ndef backward_twice('},
          names=('the error backward_twice(w, x, retain_graph=False) returned', 'raised during an earlier call')),
    Wrong('errors_kept_in_a_list',
          fails={SURVIVES: 'raised during an earlier call'},
          edits={'        return exc  # some node on the way saved a value, and it is gone':
                 '        _CAUGHT.append(exc)\n        return _CAUGHT[0]',
                 'def second_backward_error(': '_CAUGHT: list[RuntimeError] = []\n\n\ndef second_backward_error('},
          names=('the error for v ** 2', 'raised during an earlier call')),
    # the last error caught, kept in a module-level name and never reset: a call whose second
    # backward works returns the error of an earlier call's
    Wrong('last_error_kept_in_a_global',
          fails={ADDS: 'no backward pass of this call raised it'},
          edits={'    error = None\n': '    global _LAST\n',
                 '        error = exc  # the graph\'s saved values were freed by the first call\n':
                 '        _LAST = exc\n',
                 '    return error, history\n': '    return _LAST, history\n',
                 'def backward_twice(': '_LAST = None\n\n\ndef backward_twice('},
          names=('the error backward_twice(w, x, retain_graph=True) returned', 'during an earlier call',
                 'kept between calls'),
          unsaid=('is an exception, "',)),
]


# The second backward run on a graph built again from a new leaf: nothing was freed there.
CASES += [
    Wrong('second_backward_on_a_new_graph', fails={SURVIVES: 'the error for v * 3 is None'},
          edits={'    y.backward()\n    try:\n        y.backward()\n    except RuntimeError as exc:\n        return exc':
                 '    y.backward()\n    try:\n        build(Value(w, requires_grad=True)).backward()\n'
                 '    except RuntimeError as exc:\n        return exc'},
          names=('the error for v * 3 is None',)),
]


# The given build_graph edited: backward_twice is right, and the feedback names build_graph.
GIVEN_OPS = "    a = micrograph.add(x_leaf, w_leaf)\n    b = micrograph.add(w_leaf, 1)\n    y = micrograph.mul(a, b)\n"
CASES += [
    Wrong('given_graph_edited', fails={RAISES: 'build_graph was edited'},
          edits={'    b = micrograph.add(w_leaf, 1)\n': '    b = micrograph.mul(w_leaf, 1)\n'},
          names=('build_graph was edited', 'differs at b')),
    Wrong('given_leaves_kept', fails={ADDS: 'build_graph was edited'},
          edits=LEAVES_KEPT_IN_A_GLOBAL, names=('build_graph was edited', 'already held a gradient')),
    Correct('given_graph_with_operators',
            edits={GIVEN_OPS: "    a = w_leaf + x_leaf\n    b = 1 + w_leaf\n    y = b * a\n"}),
]


# A function the tests call missing from the file: renamed, or the whole file emptied.
CASES += [
    Wrong('function_renamed', fails={RAISES: 'defines no backward_twice'},
          edits={'def backward_twice(': 'def backward_two_times('},
          names=('defines no backward_twice',)),
    Wrong('emptied'),
]


# second_backward_error keeps every error it caught in a module-level list and returns the last
# one: a graph of additions, after a graph that saved a value, gets the earlier graph's error.
CASES += [
    Wrong("errors_kept_in_a_global",
          fails={"graphs that save values do not": "depends on state kept between calls"},
          edits={"        return exc  # some node on the way saved a value, and it is gone\n"
                 "    return None  # nothing was saved (additions only), so nothing was freed\n":
                 "        _ERRORS.append(exc)\n    return _ERRORS[-1] if _ERRORS else None\n",
                 "def second_backward_error(": "_ERRORS = []\n\n\ndef second_backward_error("},
          names=("second_backward_error", "state kept between calls")),
]

# second_backward_error builds y again before its second backward: that pass runs on a new graph.
CASES += [
    Wrong("build_again", fails={"which graphs survive a second backward": "ran a backward pass from another root than its first pass's"},
          edits={"    y = build(Value(w, requires_grad=True))\n    y.backward()\n    try:\n        y.backward()\n":
                 "    leaf = Value(w, requires_grad=True)\n    y = build(leaf)\n    y.backward()\n    try:\n"
                 "        y = build(leaf)\n        y.backward()\n"},
          names=("second_backward_error", "new graph")),
]

# A leaf made without requires_grad, its first backward's error swallowed: no pass ever runs, and
# the sentence says so without speaking of gradients the call never returns.
CASES += [
    Wrong("leaf_without_grad", fails={SURVIVES: "second_backward_error ran no backward pass, where the statement's call does"},
          edits={"    y = build(Value(w, requires_grad=True))\n    y.backward()\n":
                 "    y = build(Value(w))\n    try:\n        y.backward()\n    except RuntimeError:\n        pass\n"},
          names=("second_backward_error ran no backward pass",)),
]

# The second backward's error caught and printed, None returned: the engine raised into the code.
CASES += [
    Wrong("error_caught_and_printed",
          fails={SURVIVES: "but the engine's backward() raised an error when your code called it"},
          edits={"        return exc  # some node on the way saved a value, and it is gone\n": "        print(exc)\n"},
          names=("is None", "caught that error and did not return it")),
]


# x's gradient recorded where the statement records w's: numbers read from the engine all the
# same, so only whose .grad they are names the slip.
CASES += [
    Wrong('x_grad_recorded', fails={RAISES: 'was read from x.grad'},
          edits={'    y, w_leaf = g["y"], g["w"]\n': '    y, w_leaf = g["y"], g["x"]\n'},
          names=('backward_twice(w, x, retain_graph=False)[1][0]', 'x.grad', 'records w.grad'),
          unsaid=('is a different number',)),
    Wrong('x_grad_recorded_first', fails={ADDS: 'was read from x.grad'},
          edits={'    history = [w_leaf.grad.item()]\n': '    history = [g["x"].grad.item()]\n'},
          names=('backward_twice(w, x, retain_graph=True)[1][0]', 'x.grad', 'records w.grad'),
          unsaid=('is a different number',)),
]


# The second backward given retain_graph=not retain_graph: with retain_graph=False it raises, as
# the statement's does, on a graph already freed, keeping nothing whatever it was asked; with
# retain_graph=True it passes False, as the statement's leaves it: nothing observable differs.
CASES += [
    Correct('second_call_flag_flipped',
            edits={'    try:\n        y.backward()\n    except RuntimeError as exc:\n        error = exc':
                   '    try:\n        y.backward(retain_graph=not retain_graph)\n    except RuntimeError as exc:\n        error = exc'}),
]


# build_graph called with w and x exchanged: the graph backward_twice runs on is another one.
CASES += [
    Wrong('build_graph_args_exchanged', fails={RAISES: 'called build_graph with w and x exchanged'},
          edits={'    g = build_graph(w, x)\n': '    g = build_graph(x, w)\n'},
          names=('backward_twice', 'build_graph', 'exchanged')),
]


# The second record put first (history.insert(0, ...)): the order is the mistake, not a late read.
CASES += [
    Wrong('second_record_first', fails={ADDS: "holds the statement's entries, but in another order"},
          edits={'    history.append(w_leaf.grad.item())\n    return error, history':
                 '    history.insert(0, w_leaf.grad.item())\n    return error, history'},
          names=('backward_twice(w, x, retain_graph=True)[1]', 'in another order'), unsaid=('read after that pass',)),
]

# y built again before the second backward: a new product over the same sums, which saved
# nothing, so no error; the feedback says the second pass ran from another root than the first.
CASES += [
    Wrong("second_backward_on_new_y", fails={RAISES: "ran a backward pass from another root than its first pass's"},
          edits={"    error = None\n    try:\n        y.backward()\n":
                 "    error = None\n    try:\n        y = g[\"a\"] * g[\"b\"]\n        y.backward()\n"},
          names=("backward_twice", "another root")),
]

# build handed a product of the leaf (a "copy" made with * 1.0), not the leaf: the product saves a
# value, so a graph of additions fails its second backward; the feedback names what build was handed.
# The same with + 0, which saves nothing, changes no error: correct.
CASES += [
    Wrong("build_handed_a_product", fails={SURVIVES: "passed build a Value your code made from the leaf"},
          passes=("graphs that save values do not",),
          edits={"    y = build(Value(w, requires_grad=True))\n": "    y = build(Value(w, requires_grad=True) * 1.0)\n"},
          names=("second_backward_error passed build", "MulBackward0", "not the leaf itself")),
    Correct("build_handed_a_sum", edits={"    y = build(Value(w, requires_grad=True))\n":
                                          "    y = build(Value(w, requires_grad=True) + 0.0)\n"}),
]

# backward_twice building its own graph, without the given build_graph: the same passes and
# records, correct; the same with its two leaves made once and refilled through .data at every
# call: the first pass adds to the gradient earlier calls left, told as state kept between calls.
INLINE = {'    g = build_graph(w, x)\n    y, w_leaf = g["y"], g["w"]\n':
          "    w_leaf = Value(w, requires_grad=True)\n    x_leaf = Value(x, requires_grad=True)\n"
          "    y = (x_leaf + w_leaf) * (w_leaf + 1)\n"}
CASES += [
    Correct("graph_built_inline", edits=INLINE),
    # the leaves were made at import, not by an earlier call: told as leaves whose .grad held what earlier calls left
    Wrong("leaves_refilled_in_backward_twice", fails={ADDS: "first backward pass wrote into a leaf whose .grad still held"},
          unsaid=("is a different number", "an earlier call had made"),
          edits={'    g = build_graph(w, x)\n    y, w_leaf = g["y"], g["w"]\n':
                 "    w_leaf, x_leaf = _KEPT\n    w_leaf.data.fill_(w)\n    x_leaf.data.fill_(x)\n"
                 "    y = (x_leaf + w_leaf) * (w_leaf + 1)\n",
                 "def backward_twice(": "_KEPT = (Value(0.0, requires_grad=True), Value(0.0, requires_grad=True))\n\n\n"
                                       "def backward_twice("},
          names=("held the gradient earlier calls left", "state kept between calls")),
]

# The second backward of backward_twice given retain_graph=True: where it runs (the graph kept by
# the first), it keeps the graph the statement's pass frees; where it raises, it kept nothing, so
# that call loses no points and is told nothing.
CASES += [
    Wrong("second_backward_retains", fails={ADDS: "kept the graph (retain_graph=True) in a pass"},
          passes=(RAISES, "a failed second backward on other inputs"),
          edits={SECOND_CALL: SECOND_CALL.replace("        y.backward()\n", "        y.backward(retain_graph=True)\n")},
          names=("backward_twice kept the graph", "retain_graph=True")),
]


# build ignored: second_backward_error backpropagates a graph of its own (the documents' u * u + 1),
# whose product saved a value; the sentence names the function never called, or the y it did not
# use, and the node the second pass failed at, not only the error the graph of additions lacks.
CASES += [
    Wrong("build_never_called", fails={SURVIVES: "second_backward_error never called the build it was given"},
          edits={"    y = build(Value(w, requires_grad=True))\n":
                 "    u = Value(w, requires_grad=True)\n    y = u * u + 1\n"},
          names=("never called the build", "MulBackward0")),
    Wrong("build_result_unused", fails={SURVIVES: "second_backward_error ran backward on a y that build did not return"},
          edits={"    y = build(Value(w, requires_grad=True))\n":
                 "    u = Value(w, requires_grad=True)\n    build(u)\n    y = u * u + 1\n"},
          names=("a y that build did not return", "MulBackward0")),
]
CASES += [
    Wrong("history_by_a_hook", fails={ADDS: "holds numbers a hook your code registered on w was handed during backward"},
          edits={"    y.backward(retain_graph=retain_graph)\n    history = [w_leaf.grad.item()]\n":
                 "    history = []\n    w_leaf.register_hook(lambda grad: history.append(grad.item()))\n"
                 "    y.backward(retain_graph=retain_graph)\n",
                 "        error = exc  # the graph's saved values were freed by the first call\n"
                 "    history.append(w_leaf.grad.item())\n":
                 "        error = exc\n        history.append(w_leaf.grad.item())\n"},
          names=("a hook your code registered on w", "not w.grad after each pass")),
    Wrong("graph_built_under_no_grad", fails={RAISES: "backward_twice called build_graph while grad mode was off"},
          edits={"    g = build_graph(w, x)\n": "    with micrograph.no_grad():\n        g = build_graph(w, x)\n"},
          names=("called build_graph while grad mode was off", "does not have a grad_fn")),
    Wrong("stub_left_below", fails={SURVIVES: "the stub that raises NotImplementedError, in place of yours"},
          edits={"    return None  # nothing was saved (additions only), so nothing was freed\n":
                 "    return None  # nothing was saved (additions only), so nothing was freed\n\n\n"
                 "def second_backward_error(build: Callable[[Value], Value], w: float) -> RuntimeError | None:\n"
                 "    \"\"\"The stub, left below.\"\"\"\n"
                 "    raise NotImplementedError(\"ex04: second_backward_error\")\n"},
          names=("defines second_backward_error twice",), unsaid=("fill in second_backward_error",)),
    Wrong("error_recorded_for_w_grad", fails={RAISES: "is of type RuntimeError, not a Python float"},
          edits={"        error = exc  # the graph's saved values were freed by the first call\n"
                 "    history.append(w_leaf.grad.item())\n":
                 "        error = exc\n        history.append(exc)\n        return error, history\n"
                 "    history.append(w_leaf.grad.item())\n"},
          names=("[1][1] is of type RuntimeError",), unsaid=("is not the kind of result",)),
]
CASES += [
    Wrong("second_backward_from_a", fails={RAISES: "ran a later backward pass from a node inside the graph its first pass ran through"},
          edits={SECOND_CALL: SECOND_CALL.replace("        y.backward()\n", "        g[\"a\"].backward()\n")},
          names=("from a node inside the graph",), unsaid=("it ran on a new graph",)),
    Wrong("survival_as_a_bool", fails={"graphs of additions run twice": "returns None"},
          edits={"        return exc  # some node on the way saved a value, and it is gone\n    return None  #":
                 "        return False  # some node on the way saved a value, and it is gone\n    return True  #"},
          names=("is of type bool",), unsaid=("The error for v + 1 is of type bool, not the exception object",)),
    Correct("anomaly_mode_left_on", edits={  # each failed second backward warns with its forward call's stack
        "import micrograph\n": "import micrograph\n\nmicrograph.autograd.set_detect_anomaly(True)\n"}),
    Correct("stack_printed", edits={  # the stack runs through the test's probe: only the student's frames are shown
        "import micrograph\n": "import traceback\n\nimport micrograph\n",
        "    y.backward(retain_graph=retain_graph)\n": "    traceback.print_stack()\n    y.backward(retain_graph=retain_graph)\n"}),
]

# A gradient read through a reduction of its one entry (torch's idiom for a number from a tensor): read from
# the engine all the same.
CASES += [
    Correct("gradient_read_through_sum", edits={'    history = [w_leaf.grad.item()]': '    history = [w_leaf.grad.sum().item()]'}),
]

# Grad mode switched off by the file's top-level code, each function decorated with enable_grad(): every
# function behaves, and only the import shows the mode left off for whoever imports the file.
CASES += [
    Wrong("grad_off_at_import_decorated", fails={RAISES: "switched grad mode off at line"}),
]

# The given build_graph edited to call a.retain_grad(), as the documents do: nothing backward_twice
# returns changes, so it costs nothing.
CASES += [
    Correct("given_build_graph_retains_a", edits={'    a = micrograph.add(x_leaf, w_leaf)\n': '    a = micrograph.add(x_leaf, w_leaf)\n    a.retain_grad()  # as the documents do\n'}),
]

# second_backward_error's leaf made once at import and refilled at each call: what it returns is the
# same, told as the leaf handed to build again, state kept between calls.
CASES += [
    Wrong("leaf_kept_between_calls", fails={SURVIVES: "handed build the same leaf an earlier call"},
          edits={'''    y = build(Value(w, requires_grad=True))''': '''    _LEAF.data.fill_(w)
    y = build(_LEAF)''', '''def second_backward_error(''': '''_LEAF = Value(0.0, requires_grad=True)  # one leaf, reused by every call


def second_backward_error('''},
          names=("second_backward_error handed build the same leaf an earlier call", "a leaf kept between calls"),
          passes=(RAISES, ADDS)),
]

# w.grad recorded inside the try, right after the second call: when that call raises, nothing is recorded
# after it; told as that, not only as a list with fewer entries.
CASES += [
    Wrong("history_only_on_success", fails={RAISES: "nothing was recorded after the second call, which raised"},
          edits={'''    error = None
    try:
        y.backward()
    except RuntimeError as exc:
        error = exc  # the graph's saved values were freed by the first call
    history.append(w_leaf.grad.item())''': '''    error = None
    try:
        y.backward()
        history.append(w_leaf.grad.item())
    except RuntimeError as exc:
        error = exc'''},
          names=("holds only what w.grad held after the first call", "nothing was recorded after the second call"),
          passes=(ADDS, SURVIVES)),
]

# the second backward tried on y.detach(): the engine refuses it (no grad_fn), told as the detach the call made
# and as the error of a backward refused on that detached Value, said once for every graph it was returned for
CASES += [
    Wrong("second_from_detached", fails={SURVIVES: "called detach() or detach_() on a Value that requires grad"},
          names=("after its first pass began, it called detach() or detach_()",
                 "a backward your code tried on a detached Value", "the same holds for the error for"),
          edits={'    y.backward()\n    try:\n        y.backward()\n    except RuntimeError as exc:\n        return exc':
                 '    y.backward()\n    try:\n        y.detach().backward()\n    except RuntimeError as exc:\n        return exc'}),
]

# build tried on a plain number besides the new leaf (None where it has no graph): the number handed at every
# call is one object in calls that kept nothing (CPython shares small ints), not a leaf kept between calls
CASES += [
    Correct("build_tried_on_a_plain_number", edits={'    y = build(Value(w, requires_grad=True))\n': '''    try:
        plain = build(1)  # does build work on a plain number too? (no graph, nothing to free)
    except AttributeError:
        plain = None
    y = build(Value(w, requires_grad=True))
'''}),
]

# The leaf made with requires_grad=True, then detached before build gets it: the backward of
# second_backward_error raises, told with the detach() it handed build.
CASES += [
    Wrong("leaf_detached_before_build",
          fails={SURVIVES: "second_backward_error handed build what detach() returned for a Value that requires grad"},
          edits={"    y = build(Value(w, requires_grad=True))\n": "    y = build(Value(w, requires_grad=True).detach())\n"},
          names=("handed build what detach() returned",)),
]

# retain_graph passed the other way round: each call is told by the flag its first pass had, against
# its own argument; the catch is the statement's, so no sentence blames it.
CASES += [
    Wrong("retain_graph_negated",
          fails={RAISES: "backward_twice kept the graph (retain_graph=True) in a pass, though its own argument retain_graph is False",
                 ADDS: "backward_twice let backward free the graph (no retain_graph=True) in a pass, though its own argument retain_graph is True"},
          edits={"    y.backward(retain_graph=retain_graph)\n": "    y.backward(retain_graph=not retain_graph)\n"},
          names=("retain_graph=True", "its own argument retain_graph"), unsaid=("caught an error",)),
]

# The given build_graph cached with functools.lru_cache: a later call with the same inputs gets the
# graph an earlier call ran backward through, whose saved values that call freed.
CASES += [
    Wrong("graph_cached_with_lru_cache",
          fails={"backward twice on other inputs": "a graph that a backward pass of an earlier call of backward_twice had run through"},
          edits={"def backward_twice(": "_build = functools.lru_cache(maxsize=None)(build_graph)\n\n\ndef backward_twice(",
                 "    g = build_graph(w, x)\n    y, w_leaf": "    g = _build(w, x)\n    y, w_leaf",
                 "from collections.abc import Callable\n": "import functools\nfrom collections.abc import Callable\n"},
          names=("an earlier call of backward_twice", "kept between calls")),
    # the flag handed over as backward's first argument, its gradient: the engine's TypeError, as torch's
    Wrong("retain_graph_as_gradient", fails={"with retain_graph=True the second backward adds": "not iterable"},
          edits={"    y.backward(retain_graph=retain_graph)\n": "    y.backward(retain_graph)\n"},
          names=("backward_twice called y.backward with", "as its gradient argument", "went in as the gradient")),
]


# Correct, spelled otherwise: the second backward's outcome returned from the except and else
# branches, each gradient read with float().
CASES += [
    Correct("returned_from_each_branch", edits={
        '''    error = None
    try:
        y.backward()
    except RuntimeError as exc:
        error = exc  # the graph's saved values were freed by the first call
    history.append(w_leaf.grad.item())
    return error, history''': '''    try:
        y.backward()
    except RuntimeError as exc:
        history.append(float(w_leaf.grad))
        return exc, history
    else:
        history.append(float(w_leaf.grad))
        return None, history'''}),
]


# The caught error kept under the handler's own name and read after the block: Python deletes that
# name when the except block ends, so the read raises UnboundLocalError.
CASES += [
    Wrong("error_read_after_its_handler", fails={SURVIVES: "UnboundLocalError"},
          edits={'''    except RuntimeError as exc:
        return exc  # some node on the way saved a value, and it is gone
    return None''': '''    except RuntimeError as error:
        pass
    return error'''},
          names=("second_backward_error", "`except RuntimeError as error:`", "deletes the name a handler binds")),
    Wrong("error_kept_by_the_handler_name", fails={RAISES: "UnboundLocalError"},
          edits={"    except RuntimeError as exc:\n        error = exc  #": "    except RuntimeError as error:\n        pass  #"},
          names=("backward_twice", "`except RuntimeError as error:`", "deletes the name a handler binds")),
]


# build_graph given w for both of its numbers (a typo for x): no call exchanged them; told as the
# one number passed twice, the other never passed.
CASES += [
    Wrong("build_graph_given_w_twice", fails={RAISES: "called build_graph with the w it was given for both w and x"},
          edits={"    g = build_graph(w, x)\n": "    g = build_graph(w, w)\n"},
          names=("backward_twice", "build_graph", "for both w and x"), unsaid=("exchanged",)),
]

# y detached in place (y.detach_()) between the two backward calls: the second call raises before
# any pass begins; told as fewer passes started after a detach_(), not only as another error.
CASES += [
    Wrong("y_detached_between", fails={RAISES: "called detach() or detach_() on a Value that requires grad"},
          edits={"    history = [w_leaf.grad.item()]\n": "    history = [w_leaf.grad.item()]\n    y.detach_()\n"},
          names=("backward_twice started fewer backward passes", "detach_()"), unsaid=("ran backward fewer times",)),
]
# second_backward_error keeps y's gradient (retain_grad) and prints it with a hook: neither changes what the
# second backward does
CASES += [Correct("second_backward_watches_y",
                  edits={"    y = build(Value(w, requires_grad=True))\n    y.backward()":
                         "    y = build(Value(w, requires_grad=True))\n    if not y.is_leaf:\n        y.retain_grad()\n"
                         "    y.register_hook(print)\n    y.backward()"})]
# second_backward_error calls build inside no_grad: told as that call with grad mode off, not by the engine's error alone
CASES += [Wrong("build_called_under_no_grad",
                fails={"which graphs survive a second backward": "second_backward_error called build while grad mode was off"},
                edits={"    y = build(Value(w, requires_grad=True))\n    y.backward()":
                       "    with micrograph.no_grad():\n        y = build(Value(w, requires_grad=True))\n    y.backward()"},
                names=("second_backward_error called build while grad mode was off",))]

# Right answers spelled otherwise: the second backward's error caught as any Exception; one try around the build and
# both passes.
CASES += [
    Correct('catch_exception_broad', edits={'    except RuntimeError as exc:\n        error = exc': '    except Exception as exc:  # any failure\n        error = exc'}),
    Correct('try_wraps_both', edits={'    y = build(Value(w, requires_grad=True))\n    y.backward()\n    try:\n        y.backward()': '    try:\n        y = build(Value(w, requires_grad=True))\n        y.backward()\n        y.backward()'}),
]

# The second backward left unguarded: its RuntimeError reaches the test, told with the call that raised it (the flag
# backward_twice was given; the graph build made for second_backward_error).
CASES += [
    Wrong("second_backward_unguarded", fails={RAISES: "backward_twice(w, x, retain_graph=False) raised an error"},
          edits={"    try:\n        y.backward()\n    except RuntimeError as exc:\n        error = exc  # the graph's saved values were freed by the first call\n":
                 "    y.backward()\n"},
          names=("backward_twice(w, x, retain_graph=False) raised an error", "a second time")),
    Wrong("second_backward_error_unguarded", fails={SURVIVES: "for y = v * 3, second_backward_error(build, w) raised an error"},
          edits={"    try:\n        y.backward()\n    except RuntimeError as exc:\n        return exc  # some node on the way saved a value, and it is gone\n    return None":
                 "    y.backward()\n    return None"},
          names=("for y = v * 3, second_backward_error(build, w) raised an error",)),
]

# The first backward run in a thread (to wait on it with a timeout): no thread may start where the file is graded,
# told so beside Python's "can't start new thread".
CASES += [
    Wrong("first_backward_in_a_thread", fails={RAISES: "may start no thread or process"},
          edits={"    y.backward(retain_graph=retain_graph)\n    history = [w_leaf.grad.item()]\n":
                 "    import threading\n\n    first = threading.Thread(target=y.backward, kwargs={\"retain_graph\": retain_graph})\n"
                 "    first.start()\n    first.join(1.0)\n    history = [w_leaf.grad.item()]\n"},
          names=("can't start new thread", "may start no thread or process")),
]

# backward_twice's pair returned as a list of two: the same pair, full marks (it was told "must return a pair");
# the history alone returned is told by what each of its two places holds.
CASES += [
    Correct("pair_as_a_list", edits={"    return error, history\n": "    return [error, history]\n"}),
    Wrong("history_alone_returned", fails={RAISES: "backward_twice(w, x, retain_graph=False)[1] is not the kind of result"},
          edits={"    return error, history\n": "    return history\n"},
          names=("The error backward_twice(w, x, retain_graph=False) returned is of type float",)),
]

# backward_twice seeds its first pass with two: told by the gradient the pass started from, not as a record that differs.
CASES += [
    Wrong("first_pass_seeded_with_two", fails={RAISES: "started its backward pass from a gradient other than one"},
          edits={"    y.backward(retain_graph=retain_graph)\n": "    y.backward(micrograph.Value(2.0), retain_graph=retain_graph)\n"},
          names=("backward_twice(w, x, retain_graph=False) started its backward pass from a gradient other than one",),
          unsaid=("a different number",)),
]

# the same two, built inside set_grad_enabled(False): told by that spelling
CASES += [Wrong("graph_built_under_set_grad_enabled_false",
                fails={RAISES: "backward_twice called build_graph while grad mode was off (set_grad_enabled(False))"},
                edits={"    g = build_graph(w, x)\n": "    with micrograph.set_grad_enabled(False):\n        g = build_graph(w, x)\n"},
                names=("called build_graph while grad mode was off (set_grad_enabled(False))",), unsaid=("(no_grad)",)),
          Wrong("build_called_under_set_grad_enabled_false",
                fails={"which graphs survive a second backward":
                       "second_backward_error called build while grad mode was off (set_grad_enabled(False))"},
                edits={"    y = build(Value(w, requires_grad=True))\n    y.backward()":
                       "    with micrograph.set_grad_enabled(False):\n        y = build(Value(w, requires_grad=True))\n"
                       "    y.backward()"},
                names=("second_backward_error called build while grad mode was off (set_grad_enabled(False))",),
                unsaid=("(no_grad)",))]
