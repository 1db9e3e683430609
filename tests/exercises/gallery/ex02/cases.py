"""ex02 gallery: plausible wrong answers and correct variants (format: gallery_case.py)."""

from gallery_case import Correct, Wrong

DOCS = "the documents' graph"
W_OFF = "a leaf that does not require grad"
ALL_FLAGS = "every combination of flags on other inputs"
LEAF_GRADS = "which leaves get a gradient"
READ_GRADS = '''    g["y"].backward()
    # A leaf that does not require grad is never written to: its .grad stays None.
'''
GRAPH = '''    a = micrograph.add(x_leaf, w_leaf)
    b = micrograph.add(w_leaf, 1)
    y = micrograph.mul(a, b)
'''

LEAF_GRADS_BODY = """    g = build_graph(w, x, w_requires_grad, x_requires_grad)
    g["y"].backward()"""
HARDCODED = """    return {"w": 5.0 if w_requires_grad else None, "x": 2.0 if x_requires_grad else None}"""

CASES = [
    # a backward pass seeded with 2 where y.backward() starts from one: the seed is told
    Wrong("seeded_with_two", names=("started its backward pass from a gradient other than one",),
          unsaid=("is a different number",), fails={LEAF_GRADS: "a gradient other than one"},
          edits={'    g["y"].backward()\n    # A leaf': '    g["y"].backward(Value(2.0))\n    # A leaf'}),
    # leaf_grads returning each leaf's gradient under the other's key: the exchange is told
    Wrong("grads_under_each_others_key", names=("holds under 'w' the entry the statement's holds under 'x'",),
          unsaid=("is a different number",),
          fails={LEAF_GRADS: "and the other way round"},
          edits={'        name: None if g[name].grad is None else g[name].grad.item() for name in ("w", "x")':
                 '        name: None if g[other].grad is None else g[other].grad.item()\n        for name, other in (("w", "x"), ("x", "w"))'}),
    # a slip in build_graph shows in leaf_grads's backward too: the node is placed below the
    # graph's root, not below the graph's own label again
    Wrong("b_as_product", names=("this test runs your build_graph too", "MulBackward0"),
          unsaid=("below leaf_grads", "backward's graph"),
          fails={DOCS: "b (first and second call) was made by MulBackward0", LEAF_GRADS: "a node below its root"},
          edits={"    b = micrograph.add(w_leaf, 1)\n": "    b = micrograph.mul(w_leaf, 1)\n"}),
    # the dict's x holds the leaf w: y's graph reaches the very leaf w, and only the name is told
    Wrong("x_holds_w", names=("returned as x", "the very one returned as w"),
          unsaid=("as a Value an operation made", "graph differs", "never reaches"),
          fails={DOCS: "one Value under two names", W_OFF: "one Value under two names"},
          edits={'    return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y}\n':
                 '    return {"w": w_leaf, "x": w_leaf, "a": a, "b": b, "y": y}\n'}),
    Wrong("flags_ignored", names=('w (first and second call) has requires_grad=True',),
          fails={W_OFF: "w (first and second call) has requires_grad=True"},
          edits={"Value(w, requires_grad=w_requires_grad)": "Value(w, requires_grad=True)",
                 "Value(x, requires_grad=x_requires_grad)": "Value(x, requires_grad=True)"}),
    Wrong("x_given_w_flag", names=("x (first and second call) has requires_grad=False",),
          fails={LEAF_GRADS: "fails as well. leaf_grads(w, x, False, True) raised an error: your code raised RuntimeError"},  # a sentence of its own, naming the call
          edits={"Value(x, requires_grad=x_requires_grad)": "Value(x, requires_grad=w_requires_grad)"}),
    Wrong("leaf_means_requires_grad", names=("node_info(w)['is_leaf'] is False",), fails={"node_info reads the attributes": "node_info(w)['is_leaf'] is False"},
          edits={'"is_leaf": v.is_leaf,': '"is_leaf": v.requires_grad and v.grad_fn is None,'}),
    Wrong("hardcoded", names=('leaf_grads ran no backward pass',), fails={LEAF_GRADS: "leaf_grads ran no backward pass"},
          edits={LEAF_GRADS_BODY: HARDCODED}),
    Wrong("formula_leaf_grads", names=('leaf_grads ran no backward pass',), fails={LEAF_GRADS: "leaf_grads ran no backward pass"},
          edits={'''    g = build_graph(w, x, w_requires_grad, x_requires_grad)
    g["y"].backward()''': '''    return {"w": 2 * w + x + 1 if w_requires_grad else None,
            "x": w + 1 if x_requires_grad else None}'''}),
    Wrong("no_grad_when_flag_off", names=('grad mode was off (set_grad_enabled(False)) while build_graph ran',),
          fails={W_OFF: "grad mode was off (set_grad_enabled(False)) while build_graph ran"},
          edits={GRAPH: "    with micrograph.set_grad_enabled(w_requires_grad and x_requires_grad):\n"
                        + GRAPH.replace("\n    ", "\n        ").replace("    a", "        a", 1)}),
    Wrong("zero_for_no_grad", names=("leaf_grads(w, x, False, True)['w'] is not None",), fails={LEAF_GRADS: "['w'] is not None"},
          edits={"name: None if g[name].grad is None": "name: 0.0 if g[name].grad is None"}),
    Wrong("new_leaf_b", names=('b is a leaf',), fails={DOCS: "b is a leaf (no grad_fn)"},
          edits={"b = micrograph.add(w_leaf, 1)": "b = Value(w + 1, requires_grad=w_requires_grad)"}),
    Wrong("backward_in_build", names=('build_graph started a backward pass',), fails={DOCS: "build_graph started a backward pass"},
          edits={"    y = micrograph.mul(a, b)\n": "    y = micrograph.mul(a, b)\n    if y.requires_grad:\n        y.backward()\n",
                 READ_GRADS: ""}),
    Wrong("asks_for_w_at_import", names=("EOFError when imported (line 109)", "input() reads nothing when graded"),
          fails={DOCS: "no one types"},  # a try-it line the student answered at the keyboard
          edits={'        name: None if g[name].grad is None else g[name].grad.item() for name in ("w", "x")\n    }\n':
                 '        name: None if g[name].grad is None else g[name].grad.item() for name in ("w", "x")\n    }\n'
                 '\n\nw0 = float(input("w = "))\nprint(build_graph(w0, -3.0))\n'}),
    Wrong("asks_for_w_in_leaf_grads", names=("EOFError at line 101 (in leaf_grads)", "no one types"),
          fails={LEAF_GRADS: "input() reads nothing when graded"},  # a function that asks at the keyboard
          edits={LEAF_GRADS_BODY: '    w = float(input("w = "))\n' + LEAF_GRADS_BODY}),
    Correct("attributes_differently"),
    Correct("grad_function"),
    Wrong("requires_grad_from_grad_fn", names=("node_info(x)['requires_grad'] is False",), fails={"node_info reads the attributes":
                                               "node_info(x)['requires_grad'] is False"},
          edits={'"requires_grad": v.requires_grad,': '"requires_grad": v.grad_fn is not None,'}),
    Correct("requires_grad_method", edits={
        "    w_leaf = Value(w, requires_grad=w_requires_grad)\n":
        "    w_leaf = Value(w)\n    w_leaf.requires_grad_(w_requires_grad)\n"}),
    Wrong("formula_after_backward", names=('leaf_grads(w, x, True, True)', 'not one the engine produced'),  # .grad looked at for None, the numbers written down
          fails={LEAF_GRADS: "is not one the engine produced"},
          edits={'''    return {
        name: None if g[name].grad is None else g[name].grad.item() for name in ("w", "x")
    }''': '''    return {"w": None if g["w"].grad is None else 2 * w + x + 1,
            "x": None if g["x"].grad is None else w + 1}'''}),
]

# The flags given: a graph built with every leaf requiring grad, the flags applied to the answer.
CASES += [
    Wrong("flags_applied_afterwards",  # the numbers are right: only the graph backward ran on shows
          fails={LEAF_GRADS: "went through a graph recorded with w.requires_grad=True, against the flag it was given for w"},
          edits={LEAF_GRADS_BODY: '''    g = build_graph(w, x, True, True)
    g["y"].backward()''',
                 "name: None if g[name].grad is None else g[name].grad.item() for name in (\"w\", \"x\")":
                 "name: g[name].grad.item() if flag else None\n"
                 "        for name, flag in ((\"w\", w_requires_grad), (\"x\", x_requires_grad))"},
          names=("leaf_grads(w, x, False, True)", "against the flag it was given for w")),
    Wrong("flags_set_after_recording",  # torch then writes no .grad into w: only the recorded graph shows
          fails={LEAF_GRADS: "went through a graph recorded with w.requires_grad=True, against the flag it was given for w"},
          edits={LEAF_GRADS_BODY: '''    g = build_graph(w, x, True, True)
    g["w"].requires_grad = w_requires_grad
    g["x"].requires_grad = x_requires_grad
    g["y"].backward()'''},
          names=("leaf_grads(w, x, False, True)", "against the flag it was given for w", "recorded")),
    Wrong("flags_not_passed",  # build_graph's defaults used: every leaf requires grad
          fails={LEAF_GRADS: "went through a graph recorded with w.requires_grad=True, against the flag it was given for w"},
          edits={LEAF_GRADS_BODY: '''    g = build_graph(w, x)
    g["y"].backward()'''},
          names=("leaf_grads(w, x, False, True)", "against the flag it was given for w")),
]


# Plausible mistakes of more kinds, each graded as a student reads it: state kept between calls
# (a default argument, a module-level or class-level store), generic list and generator bugs,
# off-by-one, a wrong operand or flag; and correct answers written another way.
CASES += [
    Wrong('flags_swapped', fails={'which leaves get a gradient': "leaf_grads(w, x, False, True)['w'] is not None",
                                  'a leaf without grad stays without': "w.grad (w without grad) holds a gradient",
                                  'a leaf that does not require grad': "made w with the requires_grad that x is meant to have"},
          edits={'    w_leaf = Value(w, requires_grad=w_requires_grad)\n    x_leaf = Value(x, requires_grad=x_requires_grad)\n': '    w_leaf = Value(w, requires_grad=x_requires_grad)\n    x_leaf = Value(x, requires_grad=w_requires_grad)\n'},
          names=('made w with the requires_grad that x is meant to have', "leaf_grads(w, x, False, True)['w']")),
    Wrong('leaves_in_a_global', fails={'which leaves get a gradient': 'produced in an earlier call'},
          edits={'    w_leaf = Value(w, requires_grad=w_requires_grad)\n    x_leaf = Value(x, requires_grad=x_requires_grad)\n': '    w_leaf, x_leaf = _LEAVES\n    w_leaf.data.fill_(w)\n    x_leaf.data.fill_(x)\n    w_leaf.requires_grad = w_requires_grad\n    x_leaf.requires_grad = x_requires_grad\n', 'def build_graph(': '_LEAVES = (Value(0.0), Value(0.0))\n\n\ndef build_graph('},
          names=('leaf_grads', 'earlier call')),
    # the Values node_info is given are kept alive but for new leaves put at one id on purpose: an entry
    # cached by id is met there alone, told as kept between calls and handed out again on every run
    Wrong('info_cached_by_id', fails={'node_info on every kind of Value': "kept between calls and handed out again"},
          edits={'    node = v.grad_fn\n    return {': '    if id(v) in _INFO:\n        return _INFO[id(v)]\n    node = v.grad_fn\n    _INFO[id(v)] = {', '        "grad_fn": None if node is None else node.name(),\n    }\n': '        "grad_fn": None if node is None else node.name(),\n    }\n    return _INFO[id(v)]\n', 'def node_info(': '_INFO: dict = {}\n\n\ndef node_info('},
          names=('node_info', 'kept between calls'), unsaid=("unlike the statement's",)),
    Wrong('constant_as_leaf', fails={"the documents' graph": "y (first and second call)'s graph reaches a leaf the statement's "
                                                             "does not: the AddBackward0 that made b takes a Value your code made "
                                                             "requiring grad, where the statement's takes an input that requires no grad"},
          edits={'b = micrograph.add(w_leaf, 1)': 'b = micrograph.add(w_leaf, Value(1.0, requires_grad=True))'},
          names=("'s graph reaches a leaf", "AddBackward0 that made b", "requires no grad")),
    # b made from a second leaf holding w's number, not from w: the op that takes it is named, and the leaf it copies
    Wrong('b_from_a_second_leaf', fails={"the documents' graph": "the AddBackward0 that made b takes a second Value holding "
                                                                 "w's number, where the statement's takes the leaf w itself"},
          edits={'b = micrograph.add(w_leaf, 1)': 'b = micrograph.add(Value(w, requires_grad=w_requires_grad), 1)'},
          names=("AddBackward0 that made b", "second Value holding w's number")),
    Correct('grads_cleared_after_reading', edits={'    return {\n        name: None if g[name].grad is None else g[name].grad.item() for name in ("w", "x")\n    }': '    grads = {\n        name: None if g[name].grad is None else g[name].grad.item() for name in ("w", "x")\n    }\n    for name in ("w", "x"):\n        g[name].grad = None\n    return grads'}),
    Correct('leaf_from_grad_fn', edits={'"is_leaf": v.is_leaf,': '"is_leaf": v.grad_fn is None,'}),
]

# What node_info returns for grad_fn: the node itself, not its name.
CASES += [
    Wrong('grad_fn_object', fails={'node_info reads the attributes': "node_info(a)['grad_fn'] is not the kind of result"},
          edits={'        "grad_fn": None if node is None else node.name(),': '        "grad_fn": node,'},
          names=("node_info(a)['grad_fn']", 'of type AddBackward0')),
    # a leaf's None names its type: the student's own text is quoted where the statement's is None
    Wrong('grad_fn_class_name', fails={'node_info reads the attributes': 'node_info(w)[\'grad_fn\'] is "NoneType" here, where the statement\'s is None'},
          edits={'        "grad_fn": None if node is None else node.name(),': '        "grad_fn": type(node).__name__,'},
          names=("node_info(w)['grad_fn']", '"NoneType"')),
]

# State carried between calls: a dict kept at module level or in a default argument, filled
# again by every call, so the dict a first call returned changes when the function runs again.
RETURN_NODES = '    return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y}\n'
RETURN_GRADS = '''    return {
        name: None if g[name].grad is None else g[name].grad.item() for name in ("w", "x")
    }'''
CASES += [
    Wrong('nodes_in_a_module_dict', fails={'every combination of flags on other inputs': 'what a first call of build_graph returned changed'},
          edits={RETURN_NODES: '    _NODES.update(w=w_leaf, x=x_leaf, a=a, b=b, y=y)\n    return _NODES\n',
                 'def build_graph(': '_NODES: dict = {}\n\n\ndef build_graph('},
          names=('build_graph', 'called again', 'state kept between calls')),
    Wrong('nodes_in_a_default_dict', fails={'every combination of flags on other inputs': 'what a first call of build_graph returned changed'},
          edits={'w: float, x: float, w_requires_grad: bool = True, x_requires_grad: bool = True\n)':
                 'w: float, x: float, w_requires_grad: bool = True, x_requires_grad: bool = True,\n    nodes: dict = {}\n)',
                 RETURN_NODES: '    nodes.update(w=w_leaf, x=x_leaf, a=a, b=b, y=y)\n    return nodes\n'},
          names=('build_graph', 'called again', 'state kept between calls')),
    Wrong('grads_in_a_module_dict', fails={'leaf gradients on other inputs': 'what a first call of leaf_grads returned changed'},
          edits={RETURN_GRADS: '''    for name in ("w", "x"):
        _GRADS[name] = None if g[name].grad is None else g[name].grad.item()
    return _GRADS''', 'def leaf_grads(': '_GRADS: dict = {}\n\n\ndef leaf_grads('},
          names=('leaf_grads', 'called again', 'state kept between calls')),
]


# Tried as a student reads them: state kept between calls, a slip in build_graph that leaf_grads
# runs too, a gradient of 0 taken for None, one backward per flag; and a correct other spelling.
CASES += [
    Wrong('grads_cached_by_point',  # the flags of a first call at the same point win
          edits={'    g = build_graph(w, x, w_requires_grad, x_requires_grad)\n    g["y"].backward()\n':
                 '    if (w, x) in _SEEN:\n        return _SEEN[w, x]\n'
                 '    g = build_graph(w, x, w_requires_grad, x_requires_grad)\n    g["y"].backward()\n'
                 '    _SEEN[w, x] = {name: None if g[name].grad is None else g[name].grad.item() for name in ("w", "x")}\n',
                 'def leaf_grads(': '_SEEN: dict = {}\n\n\ndef leaf_grads('},
          fails={'leaf gradients on other inputs': "is not None, where the statement's is None"},
          names=('leaf_grads',)),
    Wrong('b_from_x',  # the slip is build_graph's; leaf_grads runs it
          edits={'    b = micrograph.add(w_leaf, 1)\n': '    b = micrograph.add(x_leaf, 1)\n'},
          fails={'which leaves get a gradient': 'this test runs your build_graph too'},
          names=('b', 'build_graph')),
    Wrong('backward_per_flag',  # one backward per leaf that requires grad: the gradients add up
          edits={'    g["y"].backward()\n': '    for flag in (w_requires_grad, x_requires_grad):\n'
                                            '        if flag:\n            g["y"].backward(retain_graph=True)\n'},
          names=('leaf_grads', 'more times')),
    Correct('grad_read_through_data',
            edits={'        name: None if g[name].grad is None else g[name].grad.item() for name in ("w", "x")':
                   '        name: None if g[name].grad is None else g[name].grad.data.item() for name in ("w", "x")'}),
]


# 0.0 returned for a leaf whose .grad is None: the entry's own difference tells it (a number
# standing for None is no formula computed instead of a gradient read).
CASES += [
    Wrong("zero_for_none", fails={"which leaves get a gradient": "['w'] is not None, where the statement's is None"},
          edits={"        name: None if g[name].grad is None else g[name].grad.item() for name in (\"w\", \"x\")":
                 "        name: 0.0 if g[name].grad is None else g[name].grad.item() for name in (\"w\", \"x\")"},
          names=("is not None",)),
]


# State kept between calls that the public tests see, each fact named by the call it is of: b
# made once, by the first call, and handed out again by every later one.
CASES += [
    Wrong("b_made_once",
          fails={DOCS: "build_graph returned something else than the same call returns in a fresh import"},
          edits={"    b = micrograph.add(w_leaf, 1)\n":
                 "    if not _B:\n        _B.append(micrograph.add(w_leaf, 1))\n    b = _B[0]\n",
                 "def build_graph(": "_B: list = []\n\n\ndef build_graph("},
          names=("state kept between calls", "y (second call) holds a different number")),
]

# The .grad Values returned where floats are asked for: told by their type, once.
CASES += [
    Wrong("grads_as_values",
          fails={LEAF_GRADS: "leaf_grads(w, x, True, True)['w'] is of type Value, not a Python float"},
          edits={"else g[name].grad.item() for name": "else g[name].grad for name"},
          names=("['w'] is of type Value, not a Python float",)),
]

# node_info's answers kept by id(v) in a module-level dict: a Value freed and its id reused is
# given the earlier Value's answer.
CASES += [
    Wrong("node_info_by_id", fails={"node_info on every kind of Value": "state kept between calls"},
          names=("node_info", "state kept between calls"),
          edits={"    node = v.grad_fn\n    return {\n": "    if id(v) in _SEEN:\n        return _SEEN[id(v)]\n"
                                                      "    node = v.grad_fn\n    _SEEN[id(v)] = {\n",
                 "        \"grad_fn\": None if node is None else node.name(),\n    }\n":
                 "        \"grad_fn\": None if node is None else node.name(),\n    }\n    return _SEEN[id(v)]\n",
                 "def node_info(": "_SEEN: dict = {}\n\n\ndef node_info("}),
]

# Leaves made once per pair of flags in build_graph and refilled through .data: leaf_grads, which
# calls it, keeps nothing itself, and the state is told as build_graph's.
CASES += [
    Wrong("leaves_kept_per_flags",
          fails={LEAF_GRADS: "the state is kept by your build_graph, which it calls"},
          edits={'    w_leaf = Value(w, requires_grad=w_requires_grad)\n    x_leaf = Value(x, requires_grad=x_requires_grad)\n':
                 "    flags = (w_requires_grad, x_requires_grad)\n"
                 "    if flags not in _LEAVES:\n"
                 "        _LEAVES[flags] = (Value(0.0, requires_grad=flags[0]), Value(0.0, requires_grad=flags[1]))\n"
                 "    w_leaf, x_leaf = _LEAVES[flags]\n    w_leaf.data.fill_(w)\n    x_leaf.data.fill_(x)\n",
                 "def build_graph(": "_LEAVES = {}\n\n\ndef build_graph("},
          names=("leaf_grads", "kept by your build_graph")),
    # flags whose defaults are not the stub's: build_graph(w, x) records nothing
    Wrong("flags_default_false", names=("the flags left out", "default"),
          fails={DOCS: "build_graph(w, x) (the flags left out) did not do what the stub's default asks"},
          edits={"    w: float, x: float, w_requires_grad: bool = True, x_requires_grad: bool = True\n":
                 "    w: float, x: float, w_requires_grad: bool = False, x_requires_grad: bool = False\n"}),
]

# b's constant made a Value with w's flag: leaf_grads's backward writes a third leaf's .grad, told as
# neither w nor x (the leaves build_graph returned, by identity), not as x against its flag, though
# the constant holds x's number in one call
CASES += [
    Wrong("constant_with_w_flag",
          fails={"leaf gradients on other inputs": "wrote .grad into a leaf that is neither w nor x"},
          edits={'b = micrograph.add(w_leaf, 1)': 'b = micrograph.add(w_leaf, Value(1.0, requires_grad=w_requires_grad))'},
          names=("neither w nor x",), unsaid=("against the flag it was given for x",)),
]

# One leaf kept per number: with w == x, x is w, and carries w's flag.
CASES += [
    Wrong("one_leaf_per_number",
          fails={"every combination of flags on other inputs":
                 "The Value returned as x (x without grad, w == x"},
          edits={"    w_leaf = Value(w, requires_grad=w_requires_grad)\n    x_leaf = Value(x, requires_grad=x_requires_grad)\n":
                 "    made: dict[float, Value] = {}\n    w_leaf = made.setdefault(w, Value(w, requires_grad=w_requires_grad))\n"
                 "    x_leaf = made.setdefault(x, Value(x, requires_grad=x_requires_grad))\n"},
          names=("w == x", "the very one returned as w")),
]

# One leaf for w and x where both the numbers and the flags agree ("one leaf is enough"): only a
# call with w == x and both flags True shows it.
CASES += [
    Wrong("one_leaf_per_number_and_flag",
          fails={"every combination of flags on other inputs":
                 "The Value returned as x (both leaves require grad, w == x) is the very one returned as w"},
          edits={"    x_leaf = Value(x, requires_grad=x_requires_grad)\n":
                 "    x_leaf = Value(x, requires_grad=x_requires_grad)\n"
                 "    if (x, x_requires_grad) == (w, w_requires_grad):\n        x_leaf = w_leaf\n"},
          names=("both leaves require grad, w == x", "the very one returned as w")),
]

# A gradient tested for truth: a .grad Value of zero is false, and None is returned in its place.
CASES += [
    Wrong("zero_gradient_as_none",
          fails={"leaf gradients on other inputs": "although x.grad held a gradient after backward"},
          edits={"        name: None if g[name].grad is None else g[name].grad.item() for name in (\"w\", \"x\")":
                 "        name: g[name].grad.item() if g[name].grad else None for name in (\"w\", \"x\")"},
          names=("leaf_grads", "['x'] is None", "x.grad held a gradient")),
]

# is_leaf taken as the opposite of requires_grad: right for every Value but a leaf that requires grad.
CASES += [
    Wrong("is_leaf_as_no_grad",
          fails={"node_info reads the attributes": "node_info's is_leaf is the opposite of its requires_grad",
                 "node_info on every kind of Value": "node_info's is_leaf is the opposite of its requires_grad"},
          edits={'"is_leaf": v.is_leaf': '"is_leaf": not v.requires_grad'},
          names=("is_leaf", "opposite of its requires_grad")),
]

# node_info keeps its first answer on the Value and hands it back on every later call: after
# w.requires_grad_() or a.detach_() the answer is the Value's attributes as they were.
CASES += [
    # one module-level dict refilled and returned by every call: each answer is judged as its call
    # returned it, and the change a later call makes to it is told as state, in the public test too
    Wrong("info_one_dict_refilled",
          fails={"node_info reads the attributes": "What a first call of node_info returned changed",
                 "node_info on every kind of Value": "state kept between calls"},
          unsaid=("is the opposite of its requires_grad", "is False, unlike the statement's"),
          edits={"    node = v.grad_fn\n    return {\n": "    node = v.grad_fn\n    _INFO.update({\n",
                 '''        "grad_fn": None if node is None else node.name(),
    }
''': '''        "grad_fn": None if node is None else node.name(),
    })
    return _INFO


_INFO: dict = {}
'''},
          names=("What a first call of node_info returned changed", "state kept between calls")),
    # requires_grad_() taken for a getter: it sets the flag on the Value node_info was asked about
    Wrong("requires_grad_called",
          fails={"node_info reads the attributes": "node_info(w) changed the Value it was given",
                 "node_info on every kind of Value": "changed the Value it was given"},
          edits={'        "requires_grad": v.requires_grad,\n': '        "requires_grad": v.requires_grad_().requires_grad,\n'},
          names=("node_info(w) changed the Value it was given", "requires_grad")),
    Wrong("info_kept_on_the_value",
          fails={"node_info on every kind of Value": "node_info(w), called again once w.requires_grad_() had changed that Value"},
          edits={'''    node = v.grad_fn
    return {
        "is_leaf": v.is_leaf,''': '''    if hasattr(v, "info"):
        return v.info
    node = v.grad_fn
    v.info = {
        "is_leaf": v.is_leaf,''',
                 '''        "grad_fn": None if node is None else node.name(),
    }
''': '''        "grad_fn": None if node is None else node.name(),
    }
    return v.info
'''},
          names=("node_info(w)", "returned what its first call returned", "keeps its answer between calls")),
]

# leaf_grads returns each leaf's own number where its .grad is set: float(w), not float(w.grad).
CASES += [
    Wrong("leaf_number_for_grad",
          fails={"which leaves get a gradient": "is the number a leaf backward wrote into holds itself (its data)"},
          edits={'        name: None if g[name].grad is None else g[name].grad.item() for name in ("w", "x")':
                 '        name: None if g[name].grad is None else float(g[name]) for name in ("w", "x")'},
          names=("leaf_grads(w, x, True, True)", "its data", "not that leaf's .grad"), unsaid=("computed",)),
]

# build_graph's flags made keyword-only: the test's call build_graph(w, x, True, False) is refused
# by Python before any line of the file runs, and is told as that call, not as a result used.
CASES += [
    Wrong("flags_keyword_only",
          fails={"the documents' graph": "the test's call of build_graph raised TypeError"},
          edits={"    w: float, x: float, w_requires_grad: bool = True, x_requires_grad: bool = True\n":
                 "    w: float, x: float, *, w_requires_grad: bool = True, x_requires_grad: bool = True\n"},
          names=("build_graph", "does not take the arguments"), unsaid=("raised while the test used what your code returned",)),
]

# leaf_grads' dict under other keys, and one whose keys come from comparing the leaves' numbers
# (w and x equal: both named w): told by the keys it has, and the equal inputs named.
CASES += [
    Wrong("keys_dw_dx", fails={LEAF_GRADS: "leaf_grads(w, x, True, True) is a dict whose keys are 'dw', 'dx', where the statement's are 'w', 'x'."},
          edits={'        name: None if g[name].grad is None else g[name].grad.item() for name in ("w", "x")':
                 '        "d" + name: None if g[name].grad is None else g[name].grad.item() for name in ("w", "x")'},
          names=("'dw', 'dx'", "'w', 'x'"), unsaid=("not the kind of result",)),
    Wrong("named_by_equality",
          fails={"leaf gradients on other inputs": "leaf_grads(w, x, True, False) (w == x) is a dict whose keys are 'w', where"},
          edits={'''    return {
        name: None if g[name].grad is None else g[name].grad.item() for name in ("w", "x")
    }''': '''    out = {}
    for leaf in (g["w"], g["x"]):
        out["w" if leaf == g["w"] else "x"] = None if leaf.grad is None else leaf.grad.item()
    return out'''},
          names=("(w == x)", "whose keys are 'w'"), unsaid=("not the kind of result",)),
]

# A gradient read through a reduction of its one entry (torch's idiom for a number from a tensor): read from
# the engine all the same.
CASES += [
    Correct("gradient_read_through_sum", edits={'g[name].grad.item() for name in ("w", "x")': 'g[name].grad.sum().item() for name in ("w", "x")'}),
]

# The graph built twice, backward run through the second and the first's leaves read: told by the build whose
# leaves were read, not as a None put in place of a gradient read.
CASES += [
    Wrong("leaves_of_another_build", fails={LEAF_GRADS: "from a leaf one build_graph call made"},
          edits={'    g["y"].backward()\n    # A leaf':
                 '    build_graph(w, x, w_requires_grad, x_requires_grad)["y"].backward()\n    # A leaf'},
          names=("build_graph", "backward ran through another call's graph"), unsaid=("returned None in its place",)),
]

# Grad mode switched off by the file's top-level code, each function decorated with enable_grad(): every
# function behaves, and only the import shows the mode left off for whoever imports the file.
CASES += [
    Wrong("grad_off_at_import_decorated", fails={DOCS: "switched grad mode off at line"}),
]

# The leaves kept in a module-level dict by their flags, made by the first call with those flags and
# returned again by every later one (their numbers that call's): the public test of a leaf without
# grad, whose first call meets the leaves the diagram's call made, names the leaves kept, not only
# numbers that differ; so does the hidden test of the leaf left without grad, whose backward ran
# through them.
CASES += [
    Wrong("leaves_kept_by_flags",
          fails={W_OFF: "is still the w an earlier call of build_graph returned",
                 "a leaf without grad stays without": "is still the w an earlier call of build_graph returned"},
          edits={"    w_leaf = Value(w, requires_grad=w_requires_grad)\n    x_leaf = Value(x, requires_grad=x_requires_grad)\n":
                 "    key = (w_requires_grad, x_requires_grad)\n"
                 "    if key not in _LEAVES:\n"
                 "        _LEAVES[key] = (Value(w, requires_grad=w_requires_grad), Value(x, requires_grad=x_requires_grad))\n"
                 "    w_leaf, x_leaf = _LEAVES[key]\n",
                 "def build_graph(": "_LEAVES: dict = {}\n\n\ndef build_graph("},
          names=("build_graph", "an earlier call of build_graph returned", "kept between calls"),
          unsaid=("with the requires_grad that x is meant to have",)),
]

# each gradient read from .grad and rounded to two places: told as rounded, not as computed without the engine
CASES += [
    Wrong("leaf_grads_rounded", fails={LEAF_GRADS: "rounded to fewer digits"},
          edits={"else g[name].grad.item() for": "else round(g[name].grad.item(), 2) for"},
          names=("leaf_grads(w, x, False, True) is a gradient the engine produced during the call, rounded",),
          unsaid=("computed, not read from the engine",)),
    Correct("ordered_dicts", edits={"from micrograph import Value\n": "from collections import OrderedDict\n\nfrom micrograph import Value\n",
            'return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y}': 'return OrderedDict(w=w_leaf, x=x_leaf, a=a, b=b, y=y)',
            '    return {\n        "is_leaf"': '    return OrderedDict({\n        "is_leaf"',
            '    }\n\n\ndef leaf_grads(': '    })\n\n\ndef leaf_grads(',
            '    return {\n        name: None': '    return OrderedDict({\n        name: None',
            'for name in ("w", "x")\n    }': 'for name in ("w", "x")\n    })'}),
]

# build_graph builds on its leaf w, flag kept, but returns a fresh Value of w's number as w: the
# graph was recorded with w requiring grad; the w returned is not in it.
CASES += [
    Wrong("w_returned_a_copy", fails={"the documents' graph": "is not in y's graph", LEAF_GRADS: "another leaf than the w"},
          edits={'    return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y}':
                 '    return {"w": Value(w_leaf.item(), requires_grad=w_requires_grad), "x": x_leaf, "a": a, "b": b, "y": y}'},
          names=("the w your build_graph returned", "not in the graph the pass went through"),
          unsaid=("went through a graph recorded with w.requires_grad=False",)),
]

# is_leaf taken from .grad (a Value with a gradient counted as a leaf): a non-leaf that retained its gradient
# and went through backward holds one too, and is still no leaf
CASES += [
    Wrong("is_leaf_from_grad", names=("node_info(e = p - q; e.retain_grad())['is_leaf'] is True",),
          fails={"node_info on every kind of Value": "node_info(e = p - q; e.retain_grad())['is_leaf'] is True"},
          edits={'        "is_leaf": v.is_leaf,\n': '        "is_leaf": v.grad is not None or v.grad_fn is None,\n'}),
]

# A default read from what the last call passed (None in the signature, the flags kept in a module-level dict): a
# fresh import's first call does as the stub's default, but not after a call that passed a flag off.  Told as
# that state, not as a signature with another default.
CASES += [
    Wrong("flags_default_from_last_call", fails={"every combination of flags on other inputs":
                                                 "made after a call of build_graph that passed w_requires_grad"},
          names=("made after a call of build_graph that passed w_requires_grad", "state kept between calls"),
          unsaid=("your signature has another default",),
          edits={'def build_graph(\n    w: float, x: float, w_requires_grad: bool = True, x_requires_grad: bool = True\n) -> dict[str, Value]:\n':
                 '_FLAGS = {"w": True, "x": True}  # the flags the last call passed\n\n\ndef build_graph(\n    w: float, x: float, w_requires_grad: bool | None = None, x_requires_grad: bool | None = None\n) -> dict[str, Value]:\n',
                 '    w_leaf = Value(w, requires_grad=w_requires_grad)\n':
                 '    if w_requires_grad is not None:\n        _FLAGS["w"] = w_requires_grad\n    if x_requires_grad is not None:\n        _FLAGS["x"] = x_requires_grad\n    w_requires_grad, x_requires_grad = _FLAGS["w"], _FLAGS["x"]\n    w_leaf = Value(w, requires_grad=w_requires_grad)\n'}),
]

# A mutable default argument filled and returned: every call hands back the one dict the default is, its
# earlier contents overwritten; told as state kept between calls, by the function it is in.
CASES += [
    Wrong("graph_in_mutable_default", fails={DOCS: "What a first call of build_graph returned changed"},
          edits={"    w: float, x: float, w_requires_grad: bool = True, x_requires_grad: bool = True\n) -> dict[str, Value]:\n":
                 "    w: float, x: float, w_requires_grad: bool = True, x_requires_grad: bool = True, nodes: dict = {}\n"
                 ") -> dict[str, Value]:\n",
                 '    return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y}':
                 '    nodes.update(w=w_leaf, x=x_leaf, a=a, b=b, y=y)\n    return nodes'},
          names=("build_graph", "state kept between calls"), unsaid=("unlike the statement's",)),
    Wrong("info_in_mutable_default", fails={"node_info reads the attributes": "What a first call of node_info returned changed"},
          edits={"def node_info(v: Value) -> dict[str, bool | str | None]:":
                 "def node_info(v: Value, info: dict = {}) -> dict[str, bool | str | None]:",
                 '''    return {
        "is_leaf": v.is_leaf,
        "requires_grad": v.requires_grad,
        "grad_fn": None if node is None else node.name(),
    }''': '''    info["is_leaf"] = v.is_leaf
    info["requires_grad"] = v.requires_grad
    info["grad_fn"] = None if node is None else node.name()
    return info'''},
          names=("node_info", "state kept between calls"), unsaid=("unlike the statement's",)),
]

# A constant made a Value requiring grad ("every Value in the graph needs it"): b is never a leaf, and
# backward writes into a third leaf; told as that Value, not as a flag given to w or x.
CASES += [
    Wrong("constant_requiring_grad",
          fails={DOCS: "a Value your code made requiring grad", W_OFF: "b (first and second call) is not a leaf",
                 LEAF_GRADS: "neither w nor x"},
          edits={"    b = micrograph.add(w_leaf, 1)\n":
                 "    one = Value(1.0, requires_grad=True)\n    b = micrograph.add(w_leaf, one)\n"},
          names=("a Value your code made requiring grad", "neither w nor x"), unsaid=("against the flag",)),
]

# detach() taken for in-place: its new Value dropped, the leaf still requires grad; told as the detach() dropped.
CASES += [
    Wrong("detach_result_dropped", fails={W_OFF: "build_graph called w.detach() and left the new Value it returned out",
                                          ALL_FLAGS: "build_graph called x.detach() and left the new Value it returned out"},
          edits={"    w_leaf = Value(w, requires_grad=w_requires_grad)\n    x_leaf = Value(x, requires_grad=x_requires_grad)\n":
                 "    w_leaf = Value(w, requires_grad=True)\n    x_leaf = Value(x, requires_grad=True)\n"
                 "    if not w_requires_grad:\n        w_leaf.detach()\n    if not x_requires_grad:\n        x_leaf.detach()\n"},
          names=("still requiring grad", "against the flag it was given for w",
                 "called w.detach() and left the new Value it returned out", "detach() leaves w itself as it was",
                 "called x.detach() and left the new Value it returned out", "detach() leaves x itself as it was")),
    # detach() and detach_() on a new leaf before any operation: leaves without grad, as Value(w) makes
    Correct("leaves_detached_first",
            edits={"    w_leaf = Value(w, requires_grad=w_requires_grad)\n    x_leaf = Value(x, requires_grad=x_requires_grad)\n":
                   "    w_leaf = Value(w, requires_grad=True)\n    x_leaf = Value(x, requires_grad=True)\n"
                   "    if not w_requires_grad:\n        w_leaf = w_leaf.detach()\n    if not x_requires_grad:\n        x_leaf.detach_()\n"}),
    # operators, grad_fn compared with == None, and the gradients gathered in a loop
    Correct("operators_and_loop",
            edits={GRAPH: "    a = x_leaf + w_leaf\n    b = w_leaf + 1\n    y = a * b\n",
                   '''    node = v.grad_fn
    return {
        "is_leaf": v.is_leaf,
        "requires_grad": v.requires_grad,
        "grad_fn": None if node is None else node.name(),
    }''': '''    info = {"is_leaf": v.grad_fn == None, "requires_grad": bool(v.requires_grad), "grad_fn": None}
    if v.grad_fn != None:
        info["grad_fn"] = v.grad_fn.name()
    return info''',
                   '''    return {
        name: None if g[name].grad is None else g[name].grad.item() for name in ("w", "x")
    }''': '''    result = {}
    for name in ["w", "x"]:
        grad = g[name].grad
        result[name] = float(grad.item()) if grad is not None else None
    return result'''}),
]

# is_leaf read from .grad alone ("only a leaf holds a .grad"): told as that rule where some Values held a
# gradient and some did not, not as the opposite of requires_grad
CASES += [
    Wrong("is_leaf_as_holding_grad",
          fails={"node_info reads the attributes": "node_info(w)['is_leaf'] is False",
                 "node_info on every kind of Value": "is True on every Value it was given that held a .grad"},
          edits={'        "is_leaf": v.is_leaf,\n': '        "is_leaf": v.grad is not None,\n'},
          names=("node_info's is_leaf is True on every Value it was given that held a .grad",),
          unsaid=("opposite of its requires_grad",)),
]

# Leaves made requiring grad and detach_() called on those without once y is built: the graph recorded them
# requiring grad; told as that flag changed afterwards, in build_graph's own tests as in leaf_grads's
CASES += [
    Wrong("detached_in_place_after_graph",
          fails={W_OFF: "whose requires_grad is False: the graph recorded w while it required grad",
                 LEAF_GRADS: "recorded with w.requires_grad=True"},
          edits={"    w_leaf = Value(w, requires_grad=w_requires_grad)\n    x_leaf = Value(x, requires_grad=x_requires_grad)\n":
                 "    w_leaf = Value(w, requires_grad=True)\n    x_leaf = Value(x, requires_grad=True)\n",
                 '    return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y}':
                 '    if not w_requires_grad:\n        w_leaf.detach_()\n    if not x_requires_grad:\n        x_leaf.detach_()\n'
                 '    return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y}'},
          names=("its flag was changed afterwards", "against the flag it was given for w"),
          unsaid=("has requires_grad=True",)),
]

# .item() read on every leaf's .grad, also on the one built with requires_grad=False: the error on
# None is told with why that .grad is None, the leaf requiring no grad.
CASES += [
    Wrong("item_on_every_leaf",
          fails={LEAF_GRADS: "leaf_grads read w.grad, which is None: w does not require grad"},
          edits={'        name: None if g[name].grad is None else g[name].grad.item() for name in ("w", "x")':
                 '        name: g[name].grad.item() for name in ("w", "x")'},
          names=("leaf_grads read w.grad, which is None", "w does not require grad")),
]

# build_graph gives x the flag of w: leaf_grads, which runs it, raises in its backward; its error is
# told beside the note that it runs the student's build_graph, whose own test fails too.
CASES += [
    Wrong("x_given_w_flag_in_build_graph",
          fails={W_OFF: "x (first and second call) has requires_grad=False",
                 LEAF_GRADS: "This test runs your build_graph too"},
          edits={"    x_leaf = Value(x, requires_grad=x_requires_grad)": "    x_leaf = Value(x, requires_grad=w_requires_grad)"},
          names=("requires_grad=False", "build_graph")),
]

# grad() asked for both leaves' gradients, also of the leaf built without requires_grad: the
# engine's error names it (in zh with what it says after it).
CASES += [
    Wrong("grad_asked_of_both_leaves",
          fails={LEAF_GRADS: "One of the differentiated Tensors does not require grad"},
          edits={'''    g["y"].backward()
    # A leaf that does not require grad is never written to: its .grad stays None.
    return {
        name: None if g[name].grad is None else g[name].grad.item() for name in ("w", "x")
    }''': '''    dw, dx = micrograph.autograd.grad(g["y"], [g["w"], g["x"]])
    return {"w": dw.item(), "x": dx.item()}'''},
          names=("leaf_grads", "One of the differentiated Tensors does not require grad")),
]

# leaf_grads returns w's gradient under "x" too (a copy-paste slip): told by the .grad it was read
# from, not only as a number or a None that differs.
CASES += [
    Wrong("x_read_from_w_grad", fails={LEAF_GRADS: "leaf_grads(w, x, True, True)['x'] was read from w.grad"},
          edits={'name: None if g[name].grad is None else g[name].grad.item() for name in ("w", "x")':
                 '"w": None if g["w"].grad is None else g["w"].grad.item(),\n'
                 '        "x": None if g["w"].grad is None else g["w"].grad.item(),'},
          names=("['x'] was read from w.grad",)),
]

# Correct, spelled otherwise: is_leaf from the statement's rule, grad_fn's name through getattr, and
# the gradients of the leaves that require grad asked of micrograph.autograd.grad.
CASES += [
    Correct("rule_and_autograd_grad", edits={
        '''    node = v.grad_fn
    return {
        "is_leaf": v.is_leaf,
        "requires_grad": v.requires_grad,
        "grad_fn": None if node is None else node.name(),
    }''': '''    return dict(grad_fn=getattr(v.grad_fn, "name", lambda: None)(), requires_grad=bool(v.requires_grad),
                is_leaf=not v.requires_grad or v.grad_fn is None)''',
        '''    g["y"].backward()
    # A leaf that does not require grad is never written to: its .grad stays None.
    return {
        name: None if g[name].grad is None else g[name].grad.item() for name in ("w", "x")
    }''': '''    wanted = [k for k in ("w", "x") if g[k].requires_grad]
    out = {"w": None, "x": None}
    for k, gr in zip(wanted, micrograph.autograd.grad(g["y"], [g[k] for k in wanted])):
        out[k] = gr.item()
    return out'''}),
]

# A hook of the student's on w that doubles its gradient: told as a hook that chose the number, and
# never as a graph recorded with w not requiring grad (w's AccumulateGrad ran, the hook before it).
# Hooks that only look, and requires_grad read through is_leaf, are correct.
CASES += [
    Wrong("hook_doubles_w_grad", fails={LEAF_GRADS: "a hook of yours ran in that backward pass"},
          edits={'    g["y"].backward()\n    # A leaf': '    if g["w"].requires_grad:\n'
                 '        g["w"].register_hook(lambda grad: grad + grad)\n    g["y"].backward()\n    # A leaf'},
          names=("a hook of yours ran in that backward pass", "leaf_grads(w, x, True, True)['w']"),
          unsaid=("recorded with w.requires_grad=False",)),
    Correct("grads_caught_by_hooks", edits={'''    g["y"].backward()
    # A leaf that does not require grad is never written to: its .grad stays None.
    return {
        name: None if g[name].grad is None else g[name].grad.item() for name in ("w", "x")
    }''': '''    seen = {"w": None, "x": None}
    for name in ("w", "x"):
        if g[name].requires_grad:
            g[name].register_hook(lambda grad, name=name: seen.__setitem__(name, grad.item()))
    g["y"].backward()
    return seen'''}),
    Correct("requires_grad_of_non_leaf_always", edits={
        '"requires_grad": v.requires_grad,': '"requires_grad": True if not v.is_leaf else v.requires_grad,'}),
]

# build_graph switching grad mode by the flags, outside a with: with neither flag it returns with grad mode off,
# so whatever its caller builds next records nothing. Told as the mode it left off.
CASES += [
    Wrong("grad_mode_set_by_the_flags", fails={ALL_FLAGS: "build_graph returned with grad mode still off"},
          edits={"    w_leaf = Value(w, requires_grad=w_requires_grad)\n":
                 "    micrograph.set_grad_enabled(w_requires_grad or x_requires_grad)\n"
                 "    w_leaf = Value(w, requires_grad=w_requires_grad)\n"},
          names=("build_graph returned with grad mode still off", "outside a with")),
]

# leaf_grads running backward with inputs=[x] (a student who thinks inputs= names the leaves to read): w.grad is never
# written, and where x needs no gradient torch's own error. Told as the inputs= its backward was given.
CASES += [
    Wrong("backward_given_inputs_x", fails={LEAF_GRADS: "gave its backward pass inputs="},
          edits={'    g["y"].backward()\n': '    g["y"].backward(inputs=[g["x"]])\n'},
          names=("leaf_grads gave its backward pass inputs=", "writes the .grad of only the Values inputs= names")),
]

# leaf_grads zeroes each .grad "to clean up" before reading it: told as a .grad read after the code changed it in
# place, not as a number that differs; zeroed after the read, the numbers returned are backward's (a right answer).
CASES += [
    Wrong("grads_zeroed_before_the_read", fails={LEAF_GRADS: "was read from w.grad after your code had changed that .grad in place"},
          edits={'    g["y"].backward()\n': '    g["y"].backward()\n    for name in ("w", "x"):\n'
                                              '        if g[name].grad is not None:\n            g[name].grad.data.zero_()\n'},
          names=("leaf_grads(w, x, True, True)['w'] was read from w.grad", "changed that .grad in place"),
          unsaid=("a different number",)),
    Correct("grads_zeroed_after_the_read", edits={
        '    return {\n        name: None if g[name].grad is None else g[name].grad.item() for name in ("w", "x")\n    }':
        '    grads = {name: None if g[name].grad is None else g[name].grad.item() for name in ("w", "x")}\n'
        '    for name in ("w", "x"):\n        if g[name].grad is not None:\n            g[name].grad.zero_()\n    return grads'}),
]

# A right answer spelled otherwise: backward run inside no_grad (as in torch, it writes .grad all the same).
CASES += [
    Correct('backward_under_no_grad', edits={'    g["y"].backward()\n': '    with micrograph.no_grad():\n        g["y"].backward()\n'}),
]


# build_graph gives w requires_grad only when both flags are set: leaf_grads(w, x, True, False) then backpropagates
# from a y no graph recorded, told with that call.
CASES += [
    Wrong("w_flag_and_x_flag", fails={"leaf gradients on other inputs": "leaf_grads(w, x, True, False) raised an error",
                                      ALL_FLAGS: "w (x without grad; x without grad, w == x) has requires_grad=False"},
          edits={"    w_leaf = Value(w, requires_grad=w_requires_grad)\n":
                 "    w_leaf = Value(w, requires_grad=w_requires_grad and x_requires_grad)\n"},
          names=("has requires_grad=False",)),
]

# A script's check at the bottom of the file ended with exit(): the child has no site, which defines exit; it raises
# SystemExit where the file is graded as where the student runs it, told as the import's end, never as a NameError.
CASES += [
    Wrong("check_then_exit", fails={DOCS: "exiting ends the import"},
          edits={"    return {\n        name: None if g[name].grad is None else g[name].grad.item() for name in (\"w\", \"x\")\n    }\n":
                 "    return {\n        name: None if g[name].grad is None else g[name].grad.item() for name in (\"w\", \"x\")\n    }\n"
                 "\n\nprint(leaf_grads(2.0, 3.0, True, True))\nexit()\n"},
          names=("SystemExit(None)", "exiting ends the import"), unsaid=("NameError",)),
]

# node_info switches grad mode off "as it only reads" and never back on: told as the mode it left off (it was full
# marks); inside a with no_grad() block, which restores it, a right answer.
CASES += [
    Wrong("node_info_leaves_grad_mode_off", fails={"node_info reads the attributes": "node_info returned with grad mode still off"},
          edits={"    node = v.grad_fn\n": "    micrograph.set_grad_enabled(False)  # only reading\n    node = v.grad_fn\n"},
          names=("node_info returned with grad mode still off",)),
    Correct("node_info_read_under_no_grad", edits={"    node = v.grad_fn\n    return {\n": "    with micrograph.no_grad():\n        node = v.grad_fn\n    return {\n"}),
]

# node_info calls retain_grad() on the Value it reads "so that its .grad can be read later": every later
# backward pass keeps a gradient there (it was full marks); told as the retains_grad it set.
CASES += [
    Wrong("node_info_retains_grad", fails={"node_info reads the attributes": "retains_grad is True after the call"},
          edits={"    node = v.grad_fn\n    return {\n": "    node = v.grad_fn\n    if v.requires_grad:\n"
                 "        v.retain_grad()  # so that its .grad can be read later\n    return {\n"},
          names=("node_info(a)", "retain_grad()", "retains_grad is True"), unsaid=("changed the Value it was given",)),
]
