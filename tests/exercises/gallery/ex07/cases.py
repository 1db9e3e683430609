"""ex07 gallery: plausible wrong answers and correct variants (format: gallery_case.py)."""

from gallery_case import Correct, Wrong

LEAF = "in-place on a leaf raises"
REBIND = "a = a + 1 and a += 1"
SAVED = "changing a saved value breaks backward"
LEAF_TRY = '''    try:
        w.add_(amount)  # refused: a leaf that requires grad, with grad mode on
    except RuntimeError as e:
        error = e
'''
IN_PLACE = "        a.add_(1)  # allowed on a non-leaf; each call bumps a._version\n"

CASES = [
    # a default list the very first call returns as it is (later calls return its last three): the first result grows
    Wrong("first_result_is_the_default_list", names=("What a first call of rebind_then_inplace returned changed",),
          fails={"a = a + 1 and a += 1 on other inputs": "holds state kept between calls"},
          edits={"def rebind_then_inplace(start: float) -> list[Value]:\n":
                 "def rebind_then_inplace(start: float, made=[]) -> list[Value]:\n",
                 "    return [a0, a1, a2]\n": "    made += [a0, a1, a2]\n    return made[-3:] if len(made) > 3 else made\n"}),
    # a copy of the start object returned as a0: it shares number and version, not identity
    Wrong("a0_detached", names=("a0 is a new object", "the Value a named at the start"),
          fails={"a = a + 1 and a += 1": "a0 is a new object, not the Value a named at the start"},
          edits={"    a0 = a\n": "    a0 = a.detach()\n"}),
    # a = a + 1 read a through a constant first or a detach(): a0 is still the start object
    Correct("constant_first", edits={"    a = a + 1  # a new Value; the name a moves to it, a0 is untouched\n":
                                     "    a = micrograph.add(Value(1.0), a)\n", "from micrograph import Value\n":
                                     "import micrograph\nfrom micrograph import Value\n"}),
    Correct("detach_then_add", edits={"    a = a + 1  # a new Value; the name a moves to it, a0 is untouched\n":
                                      "    a = a.detach() + 1  # a needs no grad: the detach changes nothing here\n"}),
    Wrong("a1_detached", names=("a2 (after a += 1) is not a1", "a copy sharing this Value's number"), unsaid=("a0 is a new object",),
          fails={"a = a + 1 and a += 1": "your code took a1 as a copy sharing this Value's number"},
          edits={"    a1 = a\n": "    a1 = a.detach()\n"}),
    Wrong("hardcoded", names=('was changed in place fewer times', 'never called the combine'),
          fails={"saved values on other inputs": "a in modify_saved_value(w, x, 2, micrograph.mul) was changed in place fewer times"},
          edits={  # always a product (combine ignored), one change (times ignored): the documents'
              "    y = combine(a, b)  # a product saves a (at version 0); a sum saves nothing\n":
              "    y = a * b\n",
              "    for _ in range(times):\n" + IN_PLACE: "    a.add_(1)\n"}),
    Wrong("leaf_under_no_grad", fails={LEAF: "w was changed in place (its version counter moved), where the statement's is not"}),
    Wrong("rebinding", names=('a2 (after a += 1) is a new object', 'a in modify_saved_value(w, x, 1, micrograph.mul) has a version counter still at 0'), fails={REBIND: "a2 (after a += 1) is a new object, not a1",
                              SAVED: "a in modify_saved_value(w, x, 1, micrograph.mul) has a version counter still at 0"},
          edits={"    a += 1  # a.add_(1): the same object gets a new number and _version 1\n":
                 "    a = a + 1\n", IN_PLACE: "        a = a + 1\n"}),
    Wrong("error_by_hand", names=('the error returned was made by hand',), fails={LEAF: "the error returned was made by hand"},
          edits={LEAF_TRY: '''    error = RuntimeError("a leaf Variable that requires grad is being used in an in-place "
                         "operation.")
'''}),
    Wrong("add_under_no_grad", names=('grad mode was off (no_grad) while modify_saved_value',), fails={SAVED: "grad mode was off (no_grad) while modify_saved_value(w, x, 1, micrograph.mul) ran"},
          edits={IN_PLACE: "        with micrograph.no_grad():\n            a.add_(1)\n",
                 "from micrograph import Value\n": "import micrograph\nfrom micrograph import Value\n"}),
    Wrong("one_change_too_many", names=('was changed in place more times',),
          fails={"saved values on other inputs": "a in modify_saved_value(w, x, 2, micrograph.mul) was changed in place more times"},
          edits={"    for _ in range(times):\n": "    for _ in range(times + 1):\n"}),
    Wrong("add_in_place_first", names=('a1 (after a = a + 1) is still a0',), fails={REBIND: "a1 (after a = a + 1) is still a0, not a new object"},
          edits={"    a = a + 1  # a new Value; the name a moves to it, a0 is untouched\n":
                 "    a.add_(1)\n"}),
    Wrong("backward_before_change", names=('modify_saved_value', 'ran backward more times'), fails={SAVED: "modify_saved_value(w, x, 1, micrograph.mul) ran backward more times"},
          edits={"    y = combine(a, b)  # a product saves a (at version 0); a sum saves nothing\n":
                 "    y = combine(a, b)\n    y.backward(retain_graph=True)\n"}),
    Wrong("changes_b", names=('a in modify_saved_value(w, x, 1, micrograph.mul) has a version counter still at 0',), fails={SAVED: "a in modify_saved_value(w, x, 1, micrograph.mul) has a version counter still at 0"},
          edits={IN_PLACE: "        b.add_(1)\n"}),
    Wrong("backward_not_caught", names=('your code raised RuntimeError', 'in modify_saved_value'),  # the student's own exception comes first, with its line
          fails={SAVED: "your code raised RuntimeError at line"},
          edits={"""    try:
        y.backward()  # checks every saved value's version before using it
    except RuntimeError as e:
        error = e
""": "    y.backward()\n"}),
    # leaves kept per (w, x) in a module dict and made again only for numbers not seen before:
    # a call on an earlier call's numbers backpropagates into the leaves that call returned
    Wrong("leaves_kept_per_inputs", names=("modify_saved_value", "kept between calls"),
          fails={"saved values on other inputs":
                 "The w modify_saved_value returned is still the w an earlier call of modify_saved_value returned"},
          edits={"    w = Value(w, requires_grad=True)\n    x = Value(x, requires_grad=True)\n":
                 "    if (w, x) not in _LEAVES:\n"
                 "        _LEAVES[w, x] = Value(w, requires_grad=True), Value(x, requires_grad=True)\n"
                 "    w, x = _LEAVES[w, x]\n",
                 "def modify_saved_value(": "_LEAVES: dict = {}\n\n\ndef modify_saved_value("}),
    Wrong("downloaded_as_py_from_jupyter", names=("name 'get_ipython' is not defined", 'Download as .py'),
          fails={LEAF: "hand in the notebook (.ipynb) itself"},  # nbconvert's export: magics as get_ipython() calls
          unsaid=("computed name",),
          edits={"from micrograph import Value\n": "\n# In[1]:\n\n\nget_ipython().system('pip install -q micrograph')\n"
                                                 "get_ipython().run_line_magic('timeit', 'Value(1.0)')\n\n\n# In[2]:\n\n\n"
                                                 "from micrograph import Value\n"}),
    Correct("augmented_assignment", edits={IN_PLACE: "        a += 1\n"}),
    # the version counter printed while debugging, read by getattr with its name written out:
    # the same read as a._version, never a computed name
    Correct("version_printed_by_getattr",
            edits={IN_PLACE: IN_PLACE + '        print("a._version =", getattr(a, "_version", "?"))\n'}),
    Correct("else_clauses"),
    Wrong("rebind_to_new_value", names=('a1 (after a = a + 1) was not returned by an operation',),  # a new object, as asked, but made from a Python number
          fails={"a = a + 1 and a += 1": "a1 (after a = a + 1) was not returned by an operation"},
          edits={"    a = a + 1  # a new Value; the name a moves to it, a0 is untouched\n":
                 "    a = Value(a.item() + 1)\n"}),
]
CASES += [
    # a detach of a returned, nothing computed from it: told as the detach returned, not as a computation
    Wrong("returns_detached_a", names=("modify_saved_value returned what detach() returned for a Value that requires grad",),
          fails={"changing a saved value breaks backward": "returned what detach() returned for a Value that requires grad"},
          unsaid=("what your code computed from the detached Value",),
          edits={'    return {"w": w, "x": x, "a": a, "y": y, "error": error}': '    return {"w": w, "x": x, "a": a.detach(), "y": y, "error": error}'}),
    Wrong("add_through_data",  # .data bypasses the leaf check: the number changes, nothing is raised
          fails={LEAF: "the error returned is None: no error was caught"},
          edits={"        w.add_(amount)  # refused: a leaf that requires grad, with grad mode on\n":
                 "        w.data.add_(amount)\n"},
          names=("the error returned is None", "w holds a different number")),
]


# Plausible mistakes of more kinds, each graded as a student reads it: state kept between calls
# (a default argument, a module-level or class-level store), generic list and generator bugs,
# off-by-one, a wrong operand or flag; and correct answers written another way.
CASES += [
    Wrong('changes_before_product', fails={'changing a saved value breaks backward': 'the error modify_saved_value(w, x, 1, micrograph.mul) returned is None'},
          edits={'    y = combine(a, b)  # a product saves a (at version 0); a sum saves nothing\n    for _ in range(times):\n        a.add_(1)  # allowed on a non-leaf; each call bumps a._version\n': '    for _ in range(times):\n        a.add_(1)\n    y = combine(a, b)\n'},
          names=('the error modify_saved_value', 'changed a in place before passing it to combine')),
    # backward before the in-place changes: it ran on a unchanged, so nothing was refused
    Wrong('backward_before_changes', fails={SAVED: 'your code ran backward before changing a in place'},
          edits={'    for _ in range(times):\n        a.add_(1)  # allowed on a non-leaf; each call bumps a._version\n    error = None\n'
                 '    try:\n        y.backward()  # checks every saved value\'s version before using it\n    except RuntimeError as e:\n        error = e\n':
                 '    error = None\n    try:\n        y.backward()\n    except RuntimeError as e:\n        error = e\n'
                 '    for _ in range(times):\n        a.add_(1)\n'},
          names=('backward before changing a in place', 'the backward pass had started')),
    Wrong('one_change_too_few', fails={'saved values on other inputs': 'changed in place fewer times'},
          edits={'    for _ in range(times):\n': '    for _ in range(times - 1):\n'},
          names=('a', 'fewer times')),
    Wrong('leaf_rebound', fails={'in-place on a leaf raises': 'w is not a leaf'},
          edits={'        w.add_(amount)  # refused: a leaf that requires grad, with grad mode on': '        w = w + amount'},
          names=('w is not a leaf',)),
    Wrong('catches_value_error', fails={'changing a saved value breaks backward': 'RuntimeError'},
          edits={"        y.backward()  # checks every saved value's version before using it\n    except RuntimeError as e:": '        y.backward()\n    except ValueError as e:'},
          names=('modify_saved_value', 'RuntimeError')),
    Wrong('message_kept', fails={'in-place on a leaf raises': 'is of type str, not the exception object'},
          edits={'    except RuntimeError as e:\n        error = e\n    return {"w": w, "error": error}': '    except RuntimeError as e:\n        error = str(e)\n    return {"w": w, "error": error}'},
          names=('the error returned', 'str')),
    Correct('add_returns_self', edits={'    a += 1  # a.add_(1): the same object gets a new number and _version 1\n    a2 = a\n': '    a2 = a.add_(1)\n'}),
]

# More answers read as a student: the exception's class returned instead of the exception, an
# error remade from the first sentence of the engine's message, and a1 kept after the in-place
# change (correct: a += 1 changes the very object a1 names, so a1 is a2 either way).
CASES += [
    Wrong('error_is_class', fails={'in-place on a leaf raises': 'the error returned is the exception class RuntimeError itself'},
          edits={'        w.add_(amount)  # refused: a leaf that requires grad, with grad mode on\n    except RuntimeError as e:\n        error = e': '        w.add_(amount)\n    except RuntimeError:\n        error = RuntimeError'},
          names=('the error returned is the exception class RuntimeError itself',)),
    Wrong('error_remade_shorter', fails={'changing a saved value breaks backward': 'the error modify_saved_value(w, x, 1, micrograph.mul) returned is another error than the statement\'s code raises here'},
          edits={'    except RuntimeError as e:\n        error = e\n    return {"w": w, "x": x': '    except RuntimeError as e:\n        error = RuntimeError(str(e).split(".")[0])\n    return {"w": w, "x": x'},
          names=('another error than the statement\'s code raises',)),
    Correct('a1_after_inplace', edits={'    a1 = a\n    a += 1  # a.add_(1): the same object gets a new number and _version 1\n': '    a += 1\n    a1 = a\n'}),
]


# The leaf's error caught once and kept in a module-level list: later calls return that one.
CASES += [
    Wrong('leaf_error_kept_in_a_list',
          fails={'in-place on a leaf raises': 'raised during an earlier call'},
          edits={'    except RuntimeError as e:\n        error = e\n    return {"w": w, "error": error}':
                 '    except RuntimeError as e:\n        _KEPT.append(e)\n        error = _KEPT[0]\n'
                 '    return {"w": w, "error": error}',
                 'def inplace_on_leaf(': '_KEPT: list[RuntimeError] = []\n\n\ndef inplace_on_leaf('},
          names=('the error returned', 'raised during an earlier call')),
]


# The version counter still at 0 names .data only where the student's code reached that Value
# through .data: a change of a through .data, and one that never changes a in place at all.
CASES += [
    Wrong('saved_changed_through_data',
          fails={SAVED: "a in modify_saved_value(w, x, 1, micrograph.mul) has a version counter still at 0: no in-place operation of the engine changed it; your code reached it through .data"},
          edits={"        a.add_(1)  # allowed on a non-leaf; each call bumps a._version\n": "        a.data.add_(1)\n"},
          names=('a in modify_saved_value(w, x, 1, micrograph.mul) has a version counter still at 0', 'through .data')),
    Wrong('saved_rebound_not_changed',
          fails={SAVED: "a in modify_saved_value(w, x, 1, micrograph.mul) has a version counter still at 0: no in-place operation of the engine changed it; the same holds for"},
          edits={"        a.add_(1)  # allowed on a non-leaf; each call bumps a._version\n": "        a = a + 1\n"},
          names=('a in modify_saved_value(w, x, 1, micrograph.mul) has a version counter still at 0',)),
]


# The label of a Value named by the statement's line that made it reads in the student's language
# too (IN_CHINESE judges this exercise's wrong answers in Chinese as well).
CASES += [
    Wrong("second_rebound_too",  # a = a + 1 where a += 1 is asked: a2 is a new object
          fails={"a = a + 1 and a += 1": "a2 (after a += 1) is a new object, not a1"},
          edits={"    a += 1  # a.add_(1)": "    a = a + 1  # a.add_(1)"},
          names=("a2 (after a += 1) is a new object", "version counter still at 0")),
]


# One a.add_(1) too few: a's graph records one in-place AddBackward0 less than the statement's.
CASES += [
    Wrong('one_add_too_few',
          fails={SAVED: "a in modify_saved_value(w, x, 1, micrograph.mul)'s graph records AddBackward0 fewer times than the statement's"},
          edits={"    for _ in range(times):\n        a.add_(1)": "    for _ in range(times - 1):\n        a.add_(1)"},
          names=('was changed in place fewer times', "records AddBackward0 fewer times")),
]


# The leaves kept in globals and refilled through .data at each call: told by their identity.
CASES += [
    Wrong('leaves_kept_in_globals',
          fails={SAVED: "the w modify_saved_value returned is still the w an earlier call of modify_saved_value returned"},
          edits={'    w = Value(w, requires_grad=True)\n    x = Value(x, requires_grad=True)\n    a = x + w\n':
                 '    _W.data.fill_(w)\n    _X.data.fill_(x)\n    w, x = _W, _X\n    a = x + w\n',
                 'def modify_saved_value(': '_W = Value(0.0, requires_grad=True)\n_X = Value(0.0, requires_grad=True)\n\n\n'
                                           'def modify_saved_value('},
          names=('modify_saved_value', 'an earlier call', 'kept between calls and returned again')),
]


# State kept between calls in the other two functions: one leaf made once and refilled through
# .data, and one module-level list cleared and refilled by every call.
CASES += [
    Wrong("leaf_refilled_each_call",
          fails={"the leaf error on other inputs": "what a first call of inplace_on_leaf returned changed"},
          edits={"    w = Value(w, requires_grad=True)\n    error = None\n":
                 "    _LEAF.data.fill_(w)\n    w = _LEAF\n    error = None\n",
                 "def inplace_on_leaf(": "_LEAF = Value(0.0, requires_grad=True)\n\n\ndef inplace_on_leaf("},
          names=("inplace_on_leaf", "called again")),
    Wrong("steps_in_a_module_list",
          fails={"a = a + 1 and a += 1 on other inputs": "what a first call of rebind_then_inplace returned changed"},
          edits={"    return [a0, a1, a2]\n": "    _STEPS.clear()\n    _STEPS.extend([a0, a1, a2])\n    return _STEPS\n",
                 "def rebind_then_inplace(": "_STEPS = []\n\n\ndef rebind_then_inplace("},
          names=("rebind_then_inplace", "called again")),
]

# The combine given ignored: y is always a product, whatever modify_saved_value was handed.
CASES += [
    Wrong('combine_ignored', fails={SAVED: "modify_saved_value(w, x, 1, micrograph.mul) never called the combine it was given"},
          edits={'    y = combine(a, b)': '    y = a * b'},
          names=('never called the combine',)),
]

# The add on the leaf made through .data: nothing refuses it, and no version counter moves.
CASES += [
    Wrong('leaf_added_through_data', fails={LEAF: "your code changed it through .data"},
          edits={'        w.add_(amount)  # refused': '        w.data.add_(amount)  # not refused'},
          names=('changed it through .data', 'never refuses')),
]

# rebind_then_inplace returns one module-level list, extended by every call.
CASES += [
    Wrong("list_kept_between_calls",
          fails={"a = a + 1 and a += 1": "returned the very list an earlier call returned"},
          edits={"    return [a0, a1, a2]\n": "    _SEEN.extend([a0, a1, a2])\n    return _SEEN\n",
                 "def rebind_then_inplace(": "_SEEN = []\n\n\ndef rebind_then_inplace("},
          names=("rebind_then_inplace", "kept between calls")),
]

# combine given its arguments the other way round: each call's sentences name its combine.
CASES += [
    Wrong("combine_swapped",
          fails={"an unsaved value may change": "backward never wrote x.grad in modify_saved_value(w, x, 3, lambda a, b: -a)"},
          edits={"    y = combine(a, b)": "    y = combine(b, a)"},
          names=("in modify_saved_value(w, x, 3, lambda a, b: -a)",)),
]

# The dict's names holding other Values than the ones the steps made: the b given to combine
# returned as a, and a y built again after the changes (not the one backward ran on).
CASES += [
    Wrong("b_returned_as_a", fails={SAVED: "is the one your code passed to combine as b, not the one it passed as a"},
          edits={'    return {"w": w, "x": x, "a": a, "y": y, "error": error}\n':
                 '    return {"w": w, "x": x, "a": b, "y": y, "error": error}\n'},
          names=("returned as a", "passed to combine as b"), unsaid=("version counter",)),
    Wrong("y_built_again", fails={SAVED: "modify_saved_value returned a y other than the one its backward pass started from"},
          edits={'    return {"w": w, "x": x, "a": a, "y": y, "error": error}\n':
                 '    return {"w": w, "x": x, "a": a, "y": combine(a, b), "error": error}\n'},
          names=("a y other than the one its backward pass started from",)),
]

# The refused add_ caught and passed over: the engine raised into the code, nothing was returned.
CASES += [
    Wrong("leaf_error_passed_over",
          fails={LEAF: "but the engine's add_() raised an error when your code called it"},
          edits={'    except RuntimeError as e:\n        error = e\n    return {"w": w, "error": error}':
                 '    except RuntimeError:\n        pass\n    return {"w": w, "error": error}'},
          names=("the error returned is None", "caught that error and did not return it")),
]

# w.add_ under no_grad: the engine lets the leaf change, nothing is raised, None is returned.
CASES += [
    Wrong("leaf_added_under_no_grad", fails={LEAF: "your code changed the leaf w in place with grad mode off (no_grad)"},
          edits={LEAF_TRY: "    with micrograph.no_grad():\n        w.add_(amount)\n",
                 "from micrograph import Value\n": "import micrograph\nfrom micrograph import Value\n"},
          names=("changed the leaf w in place with grad mode off", "raises nothing")),
]

# A result cached by its inputs (functools.lru_cache): a repeated call hands out the first call's list.
CASES += [
    Wrong("rebind_cached_by_start",  # its a0 told as handed out again, as the list it is in is
          fails={"a = a + 1 and a += 1 on other inputs": "is still the a0 an earlier call of rebind_then_inplace returned"},
          edits={"from typing import Callable\n": "import functools\nfrom typing import Callable\n",
                 "def rebind_then_inplace(": "@functools.lru_cache\ndef rebind_then_inplace("},
          names=("rebind_then_inplace", "kept between calls")),
]


# Each step kept as copy.copy(a): the copies share the numbers of the Values a named, but are
# other objects (copying a Value writes nothing to the engine's classes: it is no reach).
CASES += [
    Wrong("steps_copied",
          fails={REBIND: "a1 (after a = a + 1) is not the Value an operation of the engine returned to your code"},
          edits={"from typing import Callable\n": "import copy\nfrom typing import Callable\n",
                 "    a1 = a\n": "    a1 = copy.copy(a)\n", "    a2 = a\n": "    a2 = copy.copy(a)\n"},
          names=("a1 (after a = a + 1)", "a copy of it (copy.copy(...)")),
]

# The boundaries the statement names: times = 0 (a changed once all the same, by a first add_
# outside the loop), and w equal to x (one leaf per distinct number: w and x one Value).
CASES += [
    Wrong("first_change_outside_the_loop",
          fails={"saved values on other inputs": "a in modify_saved_value(w, x, 0, micrograph.mul) was changed in place"},
          edits={"    for _ in range(times):\n": "    a.add_(1)\n    for _ in range(times - 1):\n"},
          names=("modify_saved_value(w, x, 0, micrograph.mul) was changed in place",)),
    Wrong("one_leaf_per_number",
          fails={"saved values on other inputs": "x is the very Value w is in modify_saved_value(w, x, 1, micrograph.add)"},
          edits={"    w = Value(w, requires_grad=True)\n    x = Value(x, requires_grad=True)\n    a = x + w":
                 "    made = {}\n    w = made.setdefault(w, Value(w, requires_grad=True))\n"
                 "    x = made.setdefault(x, Value(x, requires_grad=True))\n    a = x + w"},
          names=("one leaf for both",)),
]

# The two steps in the other order: a += 1 first (a1 is a0, changed), then a = a + 1 (a2 new):
# told by identity alone, not as an a1 made another way (Value(...) of a number).
CASES += [
    Wrong("steps_in_the_other_order",
          fails={"a = a + 1 and a += 1": "a1 (after a = a + 1) is still a0"},
          edits={"    a = a + 1  # a new Value; the name a moves to it, a0 is untouched\n    a1 = a\n"
                 "    a += 1  # a.add_(1): the same object gets a new number and _version 1\n":
                 "    a += 1\n    a1 = a\n    a = a + 1\n"},
          names=("is still a0", "a2 (after a += 1) is a new object"), unsaid=("made another way",)),
]

# a changed through a Value detached from it: the number and the version counter are a's, but
# a's graph records no addition; told by the detach, not only by the graph's count of additions.
CASES += [
    Wrong("changed_through_detach",
          fails={"changing a saved value breaks backward": "modify_saved_value called detach() or detach_()"},
          edits={"        a.add_(1)  # allowed on a non-leaf; each call bumps a._version\n":
                 "        a.detach().add_(1)\n"},
          names=("called detach() or detach_() on a Value that requires grad",)),
]

# add_ skipped when amount is 0: no in-place change was tried, so nothing was refused; the
# feedback says w was never changed in place, not only that no error was caught.
CASES += [
    Wrong("skip_zero_amount", fails={"the leaf error on other inputs": "never changed the leaf w in place"},
          edits={"    try:\n        w.add_(amount)  # refused: a leaf that requires grad, with grad mode on\n"
                 "    except RuntimeError as e:\n        error = e\n":
                 "    if amount:\n        try:\n            w.add_(amount)\n        except RuntimeError as e:\n"
                 "            error = e\n"},
          names=("the error returned", "never changed the leaf w in place")),
]

# a0 kept as the number start, taken before a = Value(start): a0 is no Value, and a1 is still
# computed by the engine from the Value a was made as (no "not computed from" of a1).
CASES += [
    Wrong("a0_the_float", fails={"a = a + 1 and a += 1": "a0 is of type float, not a Value: the statement's is the "
                                                         "Value a named at the start itself"},
          unsaid=("not computed from", "is of type Value"),
          edits={"    a = Value(start)\n    a0 = a\n": "    a0 = start\n    a = Value(start)\n"},
          names=("a0 is of type float", "the Value a named at the start")),
]

# After the refused add_, a new leaf made with the sum and returned as w.
CASES += [
    Wrong("new_leaf_after_error", fails={"in-place on a leaf raises": "another Value than the leaf your code tried"},
          edits={"        error = e\n    return {\"w\": w, \"error\"": "        error = e\n        w = Value(w.item() + amount, requires_grad=True)\n    return {\"w\": w, \"error\""},
          names=("returned as w another Value", "tried the in-place operation on")),
]

# b changed in place too: seen only where combine saves b alone (a + b * b), where the statement's
# backward works.
CASES += [
    Wrong("b_changed_too", fails={"an unsaved value may change": "lambda a, b: a + b * b) returned is an exception"},
          edits={IN_PLACE: IN_PLACE + "        b.add_(1)\n"},
          names=("lambda a, b: a + b * b", "modified by an inplace operation")),
]

# The leaf made under another name and the float parameter returned as w (a plain name slip): the
# feedback says w is that float, handed back, and derives nothing from it (no .grad of a float, no
# Value said to be made after the in-place operation).
CASES += [
    Wrong("leaf_returned_as_float", fails={LEAF: "w is the very float your function was given"},
          edits={"    w = Value(w, requires_grad=True)\n    error = None\n    try:\n        w.add_(amount)":
                 "    leaf = Value(w, requires_grad=True)\n    error = None\n    try:\n        leaf.add_(amount)"},
          names=("w is the very float your function was given",), unsaid=("made after it",)),
    Wrong("saved_w_returned_as_float", fails={SAVED: "w modify_saved_value returned is of type float"},
          edits={"    w = Value(w, requires_grad=True)\n    x = Value(x, requires_grad=True)\n    a = x + w\n    b = w + 1\n":
                 "    w_leaf = Value(w, requires_grad=True)\n    x = Value(x, requires_grad=True)\n"
                 "    a = x + w_leaf\n    b = w_leaf + 1\n"},
          names=("w modify_saved_value returned is of type float",), unsaid=("w.grad",)),
]

# combine given a twice (b made, never used): told as the call it made, not as the numbers that follow.
CASES += [
    Wrong("combine_a_twice", fails={SAVED: "passed the same Value to combine as a and as b"},
          edits={"    y = combine(a, b)": "    y = combine(a, a)"},
          names=("the same Value to combine as a and as b",), unsaid=("holds a different number",)),
]

# One Value kept per number in a module dict: a call with a number an earlier call had returns that
# very Value (the same number, so only its identity tells), where the statement makes a new one.
CASES += [
    Wrong("start_kept_per_number", fails={"a = a + 1 and a += 1 on other inputs":
                                          "The a0 rebind_then_inplace returned is still the a0 an earlier call"},
          edits={"    a = Value(start)\n": "    a = _STARTS.setdefault(start, Value(start))\n",
                 "def rebind_then_inplace(": "_STARTS = {}\n\n\ndef rebind_then_inplace("},
          names=("an earlier call of rebind_then_inplace", "kept between calls")),
    Wrong("leaf_kept_per_number", fails={"the leaf error on other inputs":
                                         "The w inplace_on_leaf returned is still the w an earlier call"},
          edits={"    w = Value(w, requires_grad=True)\n    error = None\n    try:\n        w.add_(amount)":
                 "    w = _LEAVES.setdefault(w, Value(w, requires_grad=True))\n    error = None\n    try:\n        w.add_(amount)",
                 "def inplace_on_leaf(": "_LEAVES = {}\n\n\ndef inplace_on_leaf("},
          names=("an earlier call of inplace_on_leaf", "kept between calls")),
]

# The ids of the Values returned, not the Values: told by their type; ids of new objects differ from call to call
# (or take a freed one's), which is no state kept between calls.  a2's id is a1's (a += 1 keeps the object):
# "a2 is of type int, not a1" read as if a2 were not a1; the type is told once, with what the statement's a2 is.
CASES += [
    Wrong("ids_returned", fails={"a = a + 1 and a += 1 on other inputs": "a0 is of type int",
                                 "a = a + 1 and a += 1": "a2 (after a += 1) is of type int, not a Value: the "
                                                         "statement's is a1 itself."},
          edits={"    return [a0, a1, a2]": "    return [id(a0), id(a1), id(a2)]"},
          names=("a0 is of type int",), unsaid=("state kept between calls", "not a1.", "a2 is of type int",
                                                        "rebind_then_inplace returned is of type int")),
    Wrong("leaf_id_returned", fails={"the leaf error on other inputs": "w is of type int"},
          edits={'    return {"w": w, "error": error}': '    return {"w": id(w), "error": error}'},
          names=("w is of type int",), unsaid=("state kept between calls",)),
]

# Grad mode switched off by the file's top-level code, each function decorated with enable_grad(): every
# function behaves, and only the import shows the mode left off for whoever imports the file.
CASES += [
    Wrong("grad_off_at_import_decorated", fails={LEAF: "switched grad mode off at line"}),
]

# The leaf's error kept per (w, amount) and returned in a new dict beside a new leaf, no add_ tried: every
# entry holds what the statement's does, and only the error's identity tells it.
CASES += [
    Wrong("error_kept_per_inputs", fails={"the leaf error on other inputs": "the very error object that call returned"},
          edits={'    w = Value(w, requires_grad=True)\n    error = None\n':
                 '    key = (w, amount)\n    w = Value(w, requires_grad=True)\n    if key in _ERRORS:\n'
                 '        return {"w": w, "error": _ERRORS[key]}\n    error = None\n',
                 '    return {"w": w, "error": error}': '    _ERRORS[key] = error\n    return {"w": w, "error": error}',
                 "def inplace_on_leaf(": "_ERRORS: dict = {}\n\n\ndef inplace_on_leaf("},
          names=("inplace_on_leaf", "keeps the error between calls")),
    Correct("ordered_dicts", edits={"from micrograph import Value\n": "from collections import OrderedDict\n\nfrom micrograph import Value\n",
            'return {"w": w, "error": error}': 'return OrderedDict(w=w, error=error)',
            'return {"w": w, "x": x, "a": a, "y": y, "error": error}': 'return OrderedDict(w=w, x=x, a=a, y=y, error=error)'}),
    # a2 returned as the start Value: an older object than a1, not a new one
    Wrong("a0_returned_as_a2", fails={"a = a + 1 and a += 1": "a2 (after a += 1) is the very Value returned as a0, not a1"},
          edits={"    return [a0, a1, a2]\n": "    return [a0, a1, a0]\n"},
          names=("a2 (after a += 1) is the very Value returned as a0",), unsaid=("is a new object",)),
    # a key typo returning the leaf w as x too: two leaves made, one Value under two names
    Wrong("x_key_holds_w", fails={"changing a saved value breaks backward": "The Value returned as x is the very one returned as w"},
          edits={'return {"w": w, "x": x, "a": a, "y": y, "error": error}': 'return {"w": w, "x": w, "a": a, "y": y, "error": error}'},
          names=("The Value returned as x is the very one returned as w",),
          unsaid=("made one leaf for both", "as a Value an operation made")),
]

# The statement's Values returned in another order: each entry is told by the place it has, not
# as a Value made some other way ("such as Value(...) of a number computed in Python").
CASES += [
    Wrong("start_returned_second", fails={REBIND: "in another order"},
          edits={"    return [a0, a1, a2]\n": "    return [a1, a0, a2]\n"},
          names=("rebind_then_inplace returned the statement's Values in another order", "returned as a1, not as a0"),
          unsaid=("made another way", "a2 (after a += 1) is a new object")),
    Wrong("start_returned_last", fails={REBIND: "in another order"},
          edits={"    return [a0, a1, a2]\n": "    return [a1, a2, a0]\n"},
          names=("in another order", "returned as a2, not as a0"), unsaid=("is still a0",)),
]

# State kept between calls in more forms: the error in a mutable default list, written only where backward raised
# (a later call whose backward works returns an earlier call's error); the first call's leaf kept in a global; the
# start Value shared by every call, its .data overwritten; x kept in a global, refilled through .data; and b = w + ONE
# with ONE a module-level leaf that requires grad, whose .grad every working backward adds to (the leaf was made at
# import, not by an earlier call: the sentence says what its .grad held, not who made it).
ERROR_LINES = ("    error = None\n    try:\n        y.backward()  # checks every saved value's version before using it\n"
               "    except RuntimeError as e:\n        error = e\n"
               "    return {\"w\": w, \"x\": x, \"a\": a, \"y\": y, \"error\": error}")
CASES += [
    # the first call of a test can return the error of a call no probe watched (a repeat in the test before): told
    # as kept all the same, from the pass that raised it and none of this call's did
    Wrong("error_in_a_default_list", fails={SAVED: "an error the engine raised during an earlier call",
                                            "an unsaved value may change": "The error modify_saved_value(w, x, 1, "
                                            "micrograph.add) returned is an error the engine raised during an earlier call"},
          edits={"combine: Callable[[Value, Value], Value]\n) -> dict[str, object]:":
                 "combine: Callable[[Value, Value], Value], _error=[None]\n) -> dict[str, object]:",
                 ERROR_LINES: ERROR_LINES.replace("    error = None\n", "").replace("        error = e\n", "        _error[0] = e\n")
                 .replace('"error": error}', '"error": _error[0]}')},
          names=("modify_saved_value", "an error kept between calls")),
    Wrong("first_leaf_kept_in_a_global",
          fails={LEAF: "The w inplace_on_leaf returned is still the w an earlier call of inplace_on_leaf returned"},
          edits={"    w = Value(w, requires_grad=True)\n    error = None\n":
                 "    global _LEAF\n    if _LEAF is None:\n        _LEAF = Value(w, requires_grad=True)\n    w = _LEAF\n    error = None\n",
                 "def inplace_on_leaf(": "_LEAF = None\n\n\ndef inplace_on_leaf("},
          names=("inplace_on_leaf", "kept between calls and returned again")),
    Wrong("start_value_shared_data_overwritten",
          fails={REBIND: "The a0 rebind_then_inplace returned is still the a0 an earlier call of rebind_then_inplace returned"},
          edits={"    a = Value(start)\n": "    _START.data.fill_(start)\n    a = _START\n",
                 "def rebind_then_inplace(": "_START = Value(0.0)\n\n\ndef rebind_then_inplace("},
          names=("rebind_then_inplace", "kept between calls and returned again")),
    Wrong("x_kept_in_a_global",
          fails={SAVED: "The x modify_saved_value returned is still the x an earlier call of modify_saved_value returned"},
          edits={"    x = Value(x, requires_grad=True)\n    a = x + w\n": "    _X.data.fill_(x)\n    x = _X\n    a = x + w\n",
                 "def modify_saved_value(": "_X = Value(0.0, requires_grad=True)\n\n\ndef modify_saved_value("},
          names=("modify_saved_value", "kept between calls and returned again")),
    Wrong("one_kept_as_a_leaf",
          fails={"an unsaved value may change": "modify_saved_value's first backward pass wrote into a leaf whose .grad "
                                                "still held the gradient earlier calls left"},
          edits={"    b = w + 1\n": "    b = w + _ONE\n",
                 "def modify_saved_value(": "_ONE = Value(1.0, requires_grad=True)\n\n\ndef modify_saved_value("},
          names=("modify_saved_value", "state kept between calls"), unsaid=("an earlier call had made",)),
    # a hook registered on w to print its gradient while debugging: it returns None, so the gradient stands
    Correct("hook_prints_grad", edits={"    a = x + w\n    b = w + 1\n":
                                       "    w.register_hook(lambda g: print('w.grad', g))\n    a = x + w\n    b = w + 1\n"}),
]

# The leaf changed in place by a Value that required no grad as the change ran: w itself, made to require
# grad only after its add_ (or requires_grad switched off around it), or a detach() of w.  Nothing was
# refused, and the feedback says why, not only that w's version counter moved.
CASES += [
    Wrong("requires_grad_toggled_around_add", fails={LEAF: "changed w in place while w did not require grad"},
          edits={"        w.add_(amount)  # refused: a leaf that requires grad, with grad mode on\n":
                 "        w.requires_grad_(False)\n        w.add_(amount)\n        w.requires_grad_(True)\n"},
          names=("the error returned is None", "while w did not require grad"), unsaid=("grad mode off",)),
    Wrong("leaf_added_through_detach", fails={LEAF: "through a detach() of w"},
          edits={"        w.add_(amount)  # refused: a leaf that requires grad, with grad mode on\n":
                 "        w.detach().add_(amount)\n"},
          names=("the error returned is None", "through a detach() of w")),
    # add_ on the leaf as w += amount: __iadd__ raises before the name is rebound, so w is the leaf, unchanged
    Correct("leaf_iadd", edits={"        w.add_(amount)  # refused: a leaf that requires grad, with grad mode on\n":
                                "        w += amount\n"}),
    # a = a.add(1) makes a new Value as a + 1 does; a.add_(1) is a += 1; the changes counted down in a while loop
    Correct("method_spellings", edits={
        "    a = a + 1  # a new Value; the name a moves to it, a0 is untouched\n": "    a = a.add(1)\n",
        "    a += 1  # a.add_(1): the same object gets a new number and _version 1\n": "    a.add_(1)\n",
        "    for _ in range(times):\n        a.add_(1)  # allowed on a non-leaf; each call bumps a._version\n":
        "    while times > 0:\n        a += 1\n        times -= 1\n"}),
    # one a.add_(times) for times changes: the same number, one version; times = 0 still changes a once
    Wrong("added_times_at_once", fails={"saved values on other inputs": "was changed in place fewer times"},
          edits={"    for _ in range(times):\n        a.add_(1)  # allowed on a non-leaf; each call bumps a._version\n":
                 "    a.add_(times)\n"},
          names=("was changed in place fewer times",)),
    # the leaf's error and the rebinding without the engine: an error made by hand, a1 from a Python number, a2's
    # number set through .data
    Wrong("without_the_engine", fails={LEAF: "made by hand", REBIND: "was not returned by an operation"},
          edits={LEAF_TRY: '    error = RuntimeError("a leaf Variable that requires grad is being used in an in-place '
                           'operation.")\n',
                 "    a = Value(start)\n    a0 = a\n    a = a + 1  # a new Value; the name a moves to it, a0 is untouched\n"
                 "    a1 = a\n    a += 1  # a.add_(1): the same object gets a new number and _version 1\n    a2 = a\n":
                 "    a0 = Value(start)\n    a1 = Value(start + 1)\n    a1.data = Value(start + 2)\n    a2 = a1\n"},
          names=("the error returned was made by hand", "a1 (after a = a + 1) was not returned by an operation",
                 "through .data")),
]

# y changed in place where a is asked: y's grad_fn is then the add_'s node, told as y changed in place, never
# as y made by another operation (it was made by combine, as the statement's).
CASES += [
    Wrong("y_changed_not_a", fails={SAVED: "y in modify_saved_value(w, x, 1, micrograph.mul) was changed in place"},
          edits={IN_PLACE: "        y.add_(1)\n"},
          names=("a in modify_saved_value(w, x, 1, micrograph.mul) has a version counter still at 0",
                 "y in modify_saved_value(w, x, 1, micrograph.mul) was changed in place"),
          unsaid=("was made by AddBackward0",)),
]

# combine given a.data, which requires no grad: where b is not used (lambda a, b: -a), y requires no grad and
# this call's own backward is refused before any pass starts; told as the exception it is, never as an error
# kept from an earlier call.
CASES += [
    Wrong("combine_given_data", fails={"an unsaved value may change": "element 0 of tensors does not require grad"},
          edits={"    y = combine(a, b)  # a product saves a (at version 0); a sum saves nothing\n": "    y = combine(a.data, b)\n"},
          names=("passed combine as a the .data of the Value returned as a", "does not reach a in modify_saved_value",
                 "element 0 of tensors does not require grad"),
          unsaid=("during an earlier call", "kept between calls")),
]

# After the refused add_, w.detach() returned in the leaf's place: told as the detach() it is, not as a new Value
# made after the operation.
CASES += [
    Wrong("leaf_returned_detached", fails={LEAF: "returned as w a detach() of the leaf"},
          edits={'    except RuntimeError as e:\n        error = e\n    return {"w": w, "error": error}':
                 '    except RuntimeError as e:\n        error = e\n    return {"w": w.detach(), "error": error}'},
          names=("returned as w a detach() of the leaf your code tried the in-place operation on",),
          unsaid=("a new Value made after it",)),
]

# combine handed a.detach(): a new Value sharing a's number and version counter, no graph back to a.
CASES += [
    Wrong("combine_given_detach_of_a", fails={SAVED: "As a, your code passed combine a detach() of the Value returned as a"},
          edits={"    y = combine(a, b)  #": "    y = combine(a.detach(), b)  #"},
          names=("your code passed combine a detach() of the Value returned as a", "does not reach a in modify_saved_value")),
]

# a0 made again as a new Value of the start number, a1 computed from the real start: told as a0
# a new object, not as a1 computed from no start.
CASES += [
    Wrong("a0_made_again", fails={"a = a + 1 and a += 1": "a0 is a new object, not the Value a named at the start"},
          edits={"    a0 = a\n": "    a0 = Value(start)\n"},
          names=("a0 is a new object",), unsaid=("times one", "was not computed from")),
]

# b built from x where the statement builds it from w: y's graph (combine's b) is told as b's,
# not only as y's and the gradients' numbers.
CASES += [
    Wrong("b_from_x", fails={"changing a saved value breaks backward": "'s graph never reaches w"},
          edits={"    b = w + 1\n": "    b = x + 1\n"},
          names=("b in modify_saved_value", "never reaches w", "reaches x")),
]
# b computed from w another way (w - (-1)): the same number from the same leaf, full marks
CASES += [Correct("b_by_subtraction", edits={"    b = w + 1\n": "    b = w - (-1)\n"})]
# retain_grad() on non-leaves the statement never reads a .grad of: nothing it asks changes
CASES += [Correct("retain_grad_on_a_and_y",
                  edits={"    for _ in range(times):\n        a.add_(1)": "    a.retain_grad()\n    y.retain_grad()\n"
                                                                      "    for _ in range(times):\n        a.add_(1)"}),
          # a hook on w that only prints what it is handed
          Correct("hook_that_prints_w", edits={"    y = combine(a, b)": "    w.register_hook(print)\n    y = combine(a, b)"})]

# w.add_(amount) under set_grad_enabled(False): nothing refused, told with the spelling used
CASES += [
    Wrong("leaf_added_under_set_grad_enabled_false", fails={"in-place on a leaf raises": "(set_grad_enabled(False))"},
          edits={"        w.add_(amount)  # refused: a leaf that requires grad, with grad mode on\n":
                 "        with micrograph.set_grad_enabled(False):\n            w.add_(amount)\n",
                 "from micrograph import Value\n": "import micrograph\nfrom micrograph import Value\n"},
          names=("changed the leaf w in place with grad mode off", "set_grad_enabled(False)"), unsaid=("(no_grad)",)),
]

# b.add_(1) where the statement calls a.add_(1): told as b changed in place and a never, not only by a's version counter
CASES += [
    Wrong("b_changed_for_a", fails={SAVED: "modify_saved_value changed b in place"},
          edits={"        a.add_(1)  # allowed on a non-leaf; each call bumps a._version\n": "        b.add_(1)\n"},
          names=("changed b in place", "never a")),
]

# w.add_(amount) inside inference_mode(), which is no no_grad block: nothing refused, told with that spelling
CASES += [
    Wrong("leaf_added_under_inference_mode", fails={"in-place on a leaf raises": "inside inference_mode()"},
          edits={"        w.add_(amount)  # refused: a leaf that requires grad, with grad mode on\n":
                 "        with micrograph.inference_mode():\n            w.add_(amount)\n",
                 "from micrograph import Value\n": "import micrograph\nfrom micrograph import Value\n"},
          names=("changed the leaf w in place inside inference_mode()",), unsaid=("(no_grad)",)),
]

# w.add_(amount) inside a helper of the student's decorated with @no_grad(): nothing refused, told by that helper
CASES += [
    Wrong("leaf_added_in_no_grad_helper", fails={"in-place on a leaf raises": "inside _added"},
          edits={"def inplace_on_leaf(": "@micrograph.no_grad()\ndef _added(w: Value, amount: float) -> None:\n"
                                         "    w.add_(amount)\n\n\ndef inplace_on_leaf(",
                 "        w.add_(amount)  # refused: a leaf that requires grad, with grad mode on\n":
                 "        _added(w, amount)\n",
                 "from micrograph import Value\n": "import micrograph\nfrom micrograph import Value\n"},
          names=("changed the leaf w in place inside _added, a function of yours decorated",), unsaid=("(no_grad)",)),
]
