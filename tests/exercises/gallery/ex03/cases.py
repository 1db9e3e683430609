"""ex03 gallery: plausible wrong answers and correct variants (format: gallery_case.py)."""

from gallery_case import LEAVES_KEPT_IN_A_GLOBAL, Correct, Wrong

A = "a.grad after retain_grad"
NAMED = "retain_grad on exactly the nodes named"
WITHOUT = "non-leaf grads are None after backward"
WARNING = "the warning on reading a non-leaf's .grad"
RETAIN_LOOP = '''    for name in names:
        g[name].retain_grad()  # must happen before backward: afterwards it is too late
'''

WARN_READ = '''    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _ = v.grad  # reading is enough: a non-leaf that does not retain its grad warns
    return str(caught[0].message) if caught else None'''
TORCH_TEXT = ("The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
              "attribute won't be populated during autograd.backward().")
CASES = [
    Wrong("no_retain_grad", fails={A: 'retain_grad() was not called on a in backward_retaining(w, x, ["a"]) before backward'}),
    Wrong("retain_after_backward", names=('backward never wrote a.grad', 'although retain_grad() was called'),
          fails={A: 'backward never wrote a.grad in backward_retaining(w, x, ["a"]), although retain_grad() was called'},
          edits={RETAIN_LOOP: "", '''    g["y"].backward()
    return g''': '''    g["y"].backward()
    for name in names:
        g[name].retain_grad()
    return g'''}),
    Wrong("hardcoded", fails={WITHOUT: "grads_after_backward ran no backward pass",
                              WARNING: 'grad_warning(w) is "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed.'}),
    Wrong("hardcoded_none", fails={WITHOUT: "grads_after_backward did not read the .grad of each of a, b and y"}),
    Wrong("retain_everything", names=('retain_grad() was called on a', 'does not ask for'), fails={NAMED: 'retain_grad() was called on a in backward_retaining(w, x, ["b", "y"]), which the statement'},
          edits={RETAIN_LOOP: '''    for name in ("a", "b", "y"):
        g[name].retain_grad()
'''}),
    Wrong("grad_by_hand", names=('a.grad in backward_retaining', 'holds a value that backward did not write', 'assigned by hand'),
          fails={A: 'a.grad in backward_retaining(w, x, ["a"]) holds a value that backward did not write'},
          edits={RETAIN_LOOP: "", '''    g["y"].backward()
    return g''': '''    g["y"].backward()
    local = {"a": g["b"].item(), "b": g["a"].item(), "y": 1.0}
    for name in names:
        g[name].grad = Value(local[name])
    return g'''}),
    Wrong("backward_twice", names=('backward_retaining', 'ran backward more times'), fails={A: 'backward_retaining(w, x, ["a"]) ran backward more times'},
          edits={'''    g["y"].backward()
    return g''': '''    g["y"].backward(retain_graph=True)
    g["y"].backward()
    return g'''}),
    Wrong("silenced_warning", names=('grads_after_backward read the .grad of each of a, b and y', 'your code silenced them'),
          fails={WITHOUT: "reached its caller: your code silenced them"},
          edits={'''    g["y"].backward()
    return {name: node.grad for name, node in g.items()}''': '''    g["y"].backward()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {name: node.grad for name, node in g.items()}'''}),
    Wrong("warning_by_is_leaf", names=('grad_warning(b) never read .grad', 'the same holds for grad_warning(w)'), fails={"the warning on every kind of Value": 'grad_warning(a) (a retained) is "The .grad attribute'},
          edits={'''    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _ = v.grad  # reading is enough: a non-leaf that does not retain its grad warns
    return str(caught[0].message) if caught else None''': '''    if v.is_leaf:
        return None
    return ("The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its "
            ".grad attribute won't be populated during autograd.backward().")'''}),
    Correct("error_as_warning"),
    Correct("record_list"),
    Wrong("warning_text_written_down", names=('grad_warning(b) never read .grad',), fails={"the warning on reading a non-leaf's .grad":
                                              "grad_warning(b) never read .grad: its answer was not read through the Value's .grad; the same holds for grad_warning(w)"},
          edits={WARN_READ: f"    if v.is_leaf or v.retains_grad:\n        return None\n    return {TORCH_TEXT!r}"}),
    Wrong("warning_without_always", names=("grad_warning(b) returned None under the caller's warnings.simplefilter('ignore')",
                                           "recorded no warning"),
          fails={"the warning on every kind of Value": "your code recorded no warning under that filter."},
          edits={'        warnings.simplefilter("always")\n': ""}),
    Wrong("warning_object_returned", names=('grad_warning(b)', 'of type UserWarning'), fails={"the warning on reading a non-leaf's .grad":
                                            'grad_warning(b) is not the kind of result the statement\'s is: yours is of type UserWarning'},
          edits={"return str(caught[0].message) if caught else None":
                 "return caught[0].message if caught else None"}),
    Correct("last_warning", edits={"return str(caught[0].message) if caught else None":
                                   "return str(caught[-1].message) if len(caught) else None"}),
    Wrong("leaf_grads_as_formula", names=("grads_after_backward(w, x)['w'] and ['x']", 'not one the engine produced'),  # non-leaves read (they warn), the leaves' grads written down
          fails={"non-leaf grads are None after backward": "is not one the engine produced"},
          edits={'    return {name: node.grad for name, node in g.items()}':
                 '    out = {name: node.grad for name, node in g.items()}\n'
                 '    out["w"], out["x"] = Value(2 * w + x + 1), Value(w + 1)\n    return out'}),
    # every .grad read twice (printed, then returned): each read warns, as in PyTorch
    Correct("grads_printed_then_returned", edits={"    return {name: node.grad for name, node in g.items()}":
        "    print({name: node.grad for name, node in g.items()})\n    return {name: node.grad for name, node in g.items()}"}),
]

# A tensor hook instead of retain_grad(): the engine runs it (with grad mode off), and the
# gradient it sees is kept nowhere the statement reads.
CASES += [
    Wrong("hook_instead_of_retain_grad",
          fails={NAMED: 'retain_grad() was not called on b in backward_retaining(w, x, ["b", "y"]) before backward'},
          edits={RETAIN_LOOP: '''    seen = {}
    for name in names:
        g[name].register_hook(lambda grad, name=name: seen.__setitem__(name, grad))
'''},
          names=("retain_grad() was not called",)),
]

# State kept between calls: the leaves made once, their numbers overwritten on every call.
CASES += [
    Wrong("leaves_kept_in_a_global",  # every call shares w and x: their .grad adds up across calls
          fails={"retained grads on other inputs": "backward_retaining was called again"},
          edits=LEAVES_KEPT_IN_A_GLOBAL,
          names=("backward_retaining", "called again")),
]


# Plausible mistakes of more kinds, each graded as a student reads it: state kept between calls
# (a default argument, a module-level or class-level store), generic list and generator bugs,
# off-by-one, a wrong operand or flag; and correct answers written another way.
CASES += [
    Wrong('names_appended_to', fails={'a.grad after retain_grad': 'retain_grad() was called on y'},
          edits={'    g = build_graph(w, x)\n    for name in names:\n': '    g = build_graph(w, x)\n    names.append("y")\n    for name in names:\n'},
          names=('retain_grad()', 'y')),
    Wrong('names_from_one', fails={'a.grad after retain_grad': 'retain_grad() was not called on a'},
          edits={'    for name in names:\n': '    for name in names[1:]:\n'},
          names=('retain_grad()', 'a')),
    Wrong('read_outside_record', fails={"the warning on reading a non-leaf's .grad": 'grad_warning(b) read .grad, and the warning that read raised reached its caller unrecorded'},
          edits={'    with warnings.catch_warnings(record=True) as caught:\n        warnings.simplefilter("always")\n        _ = v.grad': '    _ = v.grad\n    with warnings.catch_warnings(record=True) as caught:\n        warnings.simplefilter("always")'},
          names=('grad_warning(b)', 'None', 'reached its caller unrecorded')),
    Wrong('retained_on_another_graph', fails={'a.grad after retain_grad': 'retain_grad() was not called on a in backward_retaining(w, x, ["a"]) before backward'},
          edits={'    g = build_graph(w, x)\n    for name in names:\n        g[name].retain_grad()': '    for name in names:\n        build_graph(w, x)[name].retain_grad()\n    g = build_graph(w, x)'},
          names=('retain_grad()',)),
    Correct('getattr_grad', edits={'    return {name: node.grad for name, node in g.items()}': '    return {name: getattr(node, "grad", None) for name, node in g.items()}'}),
    Correct('getattr_read_warns', edits={'        _ = v.grad  #': '        getattr(v, "grad")  #'}),  # the same read, through the guarded builtin
    Wrong('warning_category', fails={"the warning on reading a non-leaf's .grad": 'grad_warning(b) is "UserWarning" here'},
          edits={'    return str(caught[0].message) if caught else None': '    return caught[0].category.__name__ if caught else None'},
          names=('grad_warning(b)', 'UserWarning')),
    Wrong('only_named_returned', fails={'a.grad after retain_grad': 'backward_retaining(w, x, ["a"]) is a dict whose keys are \'a\', where the statement\'s are'},
          edits={'    g["y"].backward()\n    return g\n': '    g["y"].backward()\n    return {name: g[name] for name in names}\n'},
          names=('backward_retaining', "whose keys are 'a'"), unsaid=('TypeError',)),
]

# The statement asks for exactly what each .grad holds (a Value or None), as the documents print
# it: the numbers read out of the Values are another kind of result.
CASES += [
    Wrong('grads_as_floats', fails={WITHOUT: 'yours is of type float'},
          edits={'    return {name: node.grad for name, node in g.items()}':
                 '    return {name: None if node.grad is None else node.grad.item() for name, node in g.items()}'},
          names=("grads_after_backward(w, x)['w']", 'of type float')),
]


# Tried as a student reads them: names kept from call to call, one name short, retain_grad on a
# leaf (a no-op, as in PyTorch), the warning looked for on another attribute, .grad read before
# backward.
CASES += [
    Wrong('retained_names_kept_in_a_default',  # every call retains the names of the calls before
          edits={'def backward_retaining(w: float, x: float, names: list[str]) -> dict[str, Value]:':
                 'def backward_retaining(w: float, x: float, names: list[str], _all: list = []) -> dict[str, Value]:',
                 '    for name in names:\n        g[name].retain_grad()':
                 '    _all.extend(names)\n    for name in _all:\n        g[name].retain_grad()'},
          fails={NAMED: "depends on state kept between calls"},  # the public test says it too
          names=('backward_retaining', 'state kept between calls')),
    Wrong('first_name_only',
          edits={'    for name in names:\n        g[name].retain_grad()': '    for name in names[:1]:\n        g[name].retain_grad()'},
          names=('retain_grad() was not called',)),
    Correct('leaf_retained_too',  # retain_grad() on a leaf changes nothing
            edits={'    for name in names:\n        g[name].retain_grad()':
                   '    for name in names:\n        g[name].retain_grad()\n    g["w"].retain_grad()'}),
    Wrong('warning_of_grad_fn',  # reading grad_fn warns about nothing
          edits={'        _ = v.grad  # reading is enough': '        _ = v.grad_fn  # reading is enough'},
          names=('grad_warning',)),
    Wrong('grads_read_before_backward',
          edits={'    g = build_graph(w, x)\n    g["y"].backward()\n    return {name: node.grad for name, node in g.items()}':
                 '    g = build_graph(w, x)\n    grads = {name: node.grad for name, node in g.items()}\n'
                 '    g["y"].backward()\n    return grads'},
          names=('is None, where the statement',)),
]



# The given build_graph edited: the functions tested are right, and the feedback names build_graph.
CASES += [
    Wrong('given_graph_edited', fails={A: 'build_graph was edited', WITHOUT: 'build_graph was edited'},
          edits={'    a = micrograph.add(x_leaf, w_leaf)\n': '    a = micrograph.sub(x_leaf, w_leaf)\n'},
          names=('build_graph was edited', 'differs at a')),
    # the given graph built, its a and b returned under each other's names: no graph that differs
    Wrong('given_graph_names_exchanged', fails={A: 'build_graph was edited', WITHOUT: 'build_graph was edited'},
          edits={'    return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y}\n':
                 '    return {"w": w_leaf, "x": x_leaf, "a": b, "b": a, "y": y}\n'},
          names=('build_graph was edited', 'returned another Value of that graph as a'), unsaid=('differs at',)),
    Correct('given_graph_with_operators',
            edits={"    a = micrograph.add(x_leaf, w_leaf)\n    b = micrograph.add(w_leaf, 1)\n    y = micrograph.mul(a, b)\n":
                   "    a = w_leaf + x_leaf\n    b = 1 + w_leaf\n    y = b * a\n"}),
]

# A graph cached per inputs: the call on the same inputs again backpropagates through the graph
# its first call freed, and raises.
CASES += [
    Wrong('graph_cached_per_inputs',
          fails={"grads after backward on other inputs": "raised an error where the first call returned"},
          edits={'    g = build_graph(w, x)\n    g["y"].backward()\n    return {name: node.grad for name, node in g.items()}':
                 '    g = _GRAPHS.setdefault((w, x), build_graph(w, x))\n    g["y"].backward()\n'
                 '    return {name: node.grad for name, node in g.items()}',
                 'def grads_after_backward(': '_GRAPHS: dict = {}\n\n\ndef grads_after_backward('},
          names=('grads_after_backward', 'state kept between calls')),
]


# grad_warning keeps every warning it caught in a module-level list and returns the first: after
# one non-leaf, a leaf's call returns that text too.
CASES += [
    Wrong("warnings_kept_in_a_global",
          fails={"the warning on every kind of Value": "depends on state kept between calls; the same holds for "
                                                       "grad_warning(x)",  # one sentence for the calls it covers
                 WARNING: "grad_warning(w) returned something else than the same call returns in a fresh import"},
          edits={"        _ = v.grad  # reading is enough: a non-leaf that does not retain its grad warns\n"
                 "    return str(caught[0].message) if caught else None\n":
                 "        _ = v.grad\n    _CAUGHT.extend(caught)\n    return str(_CAUGHT[0].message) if _CAUGHT else None\n",
                 "def grad_warning(": "_CAUGHT = []\n\n\ndef grad_warning("},
          names=("grad_warning", "state kept between calls"),
          unsaid=("grad_warning returned something else",)),  # said once, of the call that shows it
]

# backward_retaining retains and backpropagates, then returns a second graph built afresh.
CASES += [
    # the given build_graph called with w and x the other way round: told by the numbers it was passed
    Wrong("build_args_swapped",
          fails={WITHOUT: "grads_after_backward called build_graph with w and x exchanged"},
          edits={'    g = build_graph(w, x)\n    g["y"].backward()\n    return {': '    g = build_graph(x, w)\n    g["y"].backward()\n    return {'},
          names=("grads_after_backward called build_graph with w and x exchanged",)),
    # backward seeded with another gradient than one: told by the gradient the pass started from
    Wrong("seeded_with_two",
          fails={WITHOUT: "grads_after_backward started its backward pass from a gradient other than one"},
          edits={'    g = build_graph(w, x)\n    g["y"].backward()\n    return {': '    g = build_graph(w, x)\n    g["y"].backward(Value(2.0))\n    return {'},
          names=("grads_after_backward started its backward pass from a gradient other than one",)),
    # the read dedented out of the catch_warnings block: its warning reaches the caller, unrecorded
    Wrong("read_after_the_block",
          fails={WARNING: "grad_warning(b) read .grad, and the warning that read raised reached its caller unrecorded"},
          edits={"        _ = v.grad  # reading is enough": "    _ = v.grad  # reading is enough"},
          names=("grad_warning(b)", "catch_warnings(record=True)")),
    # the answer kept on the Value it was given, returned again without reading .grad
    Wrong("warning_kept_on_the_value",
          fails={"the warning on every kind of Value": "grad_warning(a), called again once a.retain_grad() had changed"},
          edits={'''    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _ = v.grad  # reading is enough: a non-leaf that does not retain its grad warns
    return str(caught[0].message) if caught else None
''': '''    if hasattr(v, "warning_text"):
        return v.warning_text
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _ = v.grad  # reading is enough: a non-leaf that does not retain its grad warns
    v.warning_text = str(caught[0].message) if caught else None
    return v.warning_text
'''},
          names=("grad_warning(a)", "called again", "keeps its answer between calls")),
    Wrong("returns_a_new_graph", fails={A: 'backward_retaining(w, x, ["a"]) returned a y other than the one its backward pass started from'},
          edits={'''    g["y"].backward()
    return g''': '''    g["y"].backward()
    return build_graph(w, x)'''},
          names=("backward_retaining", "a y other than the one its backward pass started from")),
]

# Each name mapped to the node before it (a to x, b to a, y to b): each call's sentences name that
# call, so what is true of one choice of names does not read as said of another.
CASES += [
    Wrong("retain_off_by_one",
          fails={"retain_grad on every choice of names":
                 'retain_grad() was called on a in backward_retaining(w, x, ["b"]), which the statement'},
          edits={RETAIN_LOOP: '''    nodes = [g["x"], g["a"], g["b"], g["y"]]
    for name in names:
        nodes[["a", "b", "y"].index(name)].retain_grad()
'''},
          names=('retain_grad() was not called on a in backward_retaining(w, x, ["a"])',
                 'retain_grad() was called on a in backward_retaining(w, x, ["b"])')),
]

# Every .grad read (so the warnings happen), but the dict of the nodes themselves returned.
CASES += [
    Wrong("returns_the_nodes",
          fails={WITHOUT: "a Value returned for grads_after_backward(w, x)['w'] and ['x'] is a leaf backward wrote into, itself"},
          edits={'''    g["y"].backward()
    return {name: node.grad for name, node in g.items()}''': '''    g["y"].backward()
    read = [node.grad for node in g.values()]
    return g if read else {}'''},
          names=("is a leaf backward wrote into, itself, not that leaf's .grad",),
          unsaid=("computed, not read from the engine",)),
]

# A result cached by its inputs (functools.lru_cache): a repeated call runs nothing and hands out
# the first call's dict again.
CASES += [
    Wrong("grads_cached_by_inputs",
          fails={"grads after backward on other inputs": "returned the very object that call returned"},
          edits={"\nimport warnings\n": "\nimport functools\nimport warnings\n",
                 "def grads_after_backward(": "@functools.lru_cache\ndef grads_after_backward("},
          names=("grads_after_backward", "kept between calls")),
]

# "" for "nothing warned": the student's own text is quoted where the statement's is None.
CASES += [
    Wrong("empty_text_for_no_warning",
          fails={WARNING: 'grad_warning(w) is "" here, where the statement\'s is None'},
          edits={"    return str(caught[0].message) if caught else None": '    return str(caught[0].message) if caught else ""'},
          names=('grad_warning(w)', '""', "where the statement's is None")),
]

# .grad read at the wrong time or of the wrong Value: every .grad read before backward, none
# after it; v.data.grad, an untracked alias of v, read instead of v.grad.
CASES += [
    Wrong("read_before_backward",
          fails={WITHOUT: "grads_after_backward read .grad only before its last backward pass, and no .grad after it"},
          edits={'''    g["y"].backward()
    return {name: node.grad for name, node in g.items()}''': '''    grads = {name: node.grad for name, node in g.items()}
    g["y"].backward()
    return grads'''},
          names=("grads_after_backward", "only before its last backward pass")),
    Wrong("reads_data_grad",
          fails={WARNING: "grad_warning(b) never read the .grad of the Value it was given: it read the .grad of "
                          "that Value's .data"},
          edits={"        _ = v.grad  # reading is enough": "        _ = v.data.grad  # reading is enough"},
          names=("grad_warning(b)", "never read the .grad of the Value it was given", ".data")),
]

# The list of names emptied while it is read (the statement only reads it): the call made again
# with that list got an empty one, which is told, not as state kept between calls; a leaf
# answered without reading its .grad, told of that call.
CASES += [
    Wrong("names_popped",
          fails={"retained grads on other inputs": "backward_retaining emptied a list it was given, which the "
                                                   "statement's only reads"},
          edits={"    for name in names:\n        g[name].retain_grad()": "    while names:\n        g[names.pop()].retain_grad()"},
          names=("backward_retaining", "emptied a list it was given"), unsaid=("state kept between calls",)),
    Wrong("leaf_answered_unread",
          fails={WARNING: "grad_warning(w) never read .grad"},
          edits={"    with warnings.catch_warnings(record=True) as caught:\n        warnings.simplefilter(\"always\")\n        _ = v.grad":
                 "    if v.is_leaf:\n        return None\n    with warnings.catch_warnings(record=True) as caught:\n"
                 "        warnings.simplefilter(\"always\")\n        _ = v.grad"},
          names=("grad_warning(w)", "never read .grad")),
]

# The caller's names sorted in place (every item still there, in another order), and the Value
# given to grad_warning retained, so a second read of it no longer warns: told as the change the
# call made to what it was given, not as the caller's warning filter.
CASES += [
    Wrong("names_sorted",
          fails={"retained grads on other inputs": 'backward_retaining(w, x, ["b", "a", "y"]) changed the order '
                                                   "of the list names it was given"},
          edits={"    for name in names:\n        g[name].retain_grad()": "    names.sort()\n    for name in names:\n        g[name].retain_grad()"},
          names=("backward_retaining", "changed the order of the list names")),
    Wrong("warning_then_retained",
          fails={WARNING: "grad_warning(b) called retain_grad() on the Value it was given",
                 "the warning on every kind of Value": "called retain_grad() on the Value it was given"},
          edits={"    return str(caught[0].message) if caught else None":
                 "    if not v.is_leaf:\n        v.retain_grad()  # the next read is quiet\n"
                 "    return str(caught[0].message) if caught else None"},
          names=("grad_warning", "retain_grad()", "Value it was given"), unsaid=("simplefilter",)),
]

# grad_warning returns the warning formatted with warnings.formatwarning, its file and line first:
# the text quoted names the file handed in, not the scratch copy the sandbox ran.
CASES += [
    Wrong("warning_formatted",
          fails={WARNING: "ex03_retain_grad.py:"},
          edits={"    return str(caught[0].message) if caught else None":
                 "    if not caught:\n        return None\n    r = caught[0]\n"
                 "    return warnings.formatwarning(r.message, r.category, r.filename, r.lineno)"},
          names=("grad_warning(b)", "UserWarning"), unsaid=("grade-",)),
]

# grad_warning keeps the first warning text it caught and returns it for every later non-leaf
# without reading .grad: a retained node, which warns no more, gets that text too.
CASES += [
    Wrong("warning_text_cached",
          fails={"the warning on every kind of Value": "grad_warning(a) (a retained) returned, without reading .grad, "
                                                       "the text of a warning caught in an earlier call"},
          edits={"def grad_warning(": "_TEXT: list = []\n\n\ndef grad_warning(",
                 "    with warnings.catch_warnings(record=True) as caught:\n        warnings.simplefilter(\"always\")\n"
                 "        _ = v.grad  # reading is enough: a non-leaf that does not retain its grad warns\n"
                 "    return str(caught[0].message) if caught else None":
                 "    if _TEXT and not v.is_leaf:\n        return _TEXT[0]\n"
                 "    with warnings.catch_warnings(record=True) as caught:\n        warnings.simplefilter(\"always\")\n"
                 "        _ = v.grad\n    if caught:\n        _TEXT.append(str(caught[0].message))\n"
                 "    return _TEXT[0] if caught else None"},
          names=("grad_warning(a) (a retained)", "without reading .grad", "keeps that text between calls"),
          unsaid=("grad_warning(a) (a retained) never read",)),
]

# backward_retaining right, but its dict names a twice ("b": a): told as one Value under two names,
# not as retain_grad() called, or not, on b, which the code did as asked on the b it built.
CASES += [
    Wrong("b_returned_as_a",
          fails={A: "The Value returned as b is the very one returned as a: one Value under two names."},
          edits={'    g["y"].backward()\n    return g\n': '    g["y"].backward()\n    return {**g, "b": g["a"]}\n'},
          names=("returned as b", "returned as a", "two names"), unsaid=("retain_grad() was",)),
]

# grads_after_backward reads the .grad of one graph's Values and runs backward on a second graph it
# built: told as that, not only as the leaves' None.
CASES += [
    Wrong("backward_on_a_second_graph",
          fails={WITHOUT: "grads_after_backward read the .grad of the leaves of one graph and ran its backward pass through another"},
          edits={'    g = build_graph(w, x)\n    g["y"].backward()\n    return {': '    g = build_graph(w, x)\n    build_graph(w, x)["y"].backward()\n    return {'},
          names=("grads_after_backward", "build_graph was called more than once"), unsaid=("is None, where",)),
]

# grads_after_backward's dict without the non-leaves' entries (each .grad read, so each warned):
# told by the keys it has, not as an error the test raised.
CASES += [
    Wrong("grads_of_leaves_and_root_only",
          fails={WITHOUT: "grads_after_backward(w, x) is a dict whose keys are 'w', 'x', 'y', where the statement's are"},
          edits={'    return {name: node.grad for name, node in g.items()}':
                 '    return {name: node.grad for name, node in g.items() if name not in ("a", "b") or node.grad}'},
          names=("grads_after_backward(w, x)", "'w', 'x', 'y'"), unsaid=("TypeError",)),
]

# grad_warning keeps the ids of the Values it warned about and answers None at once for one seen
# before (a hand-made "once" filter): told as state kept between calls, not as the caller's filter.
CASES += [
    Wrong("warned_ids_kept",
          fails={WARNING: "depends on state kept between calls"},
          edits={"def grad_warning(": "_SEEN: set = set()\n\n\ndef grad_warning(",
                 "    with warnings.catch_warnings(record=True) as caught:\n        warnings.simplefilter(\"always\")\n"
                 "        _ = v.grad  # reading is enough":
                 "    if id(v) in _SEEN:\n        return None\n    _SEEN.add(id(v))\n"
                 "    with warnings.catch_warnings(record=True) as caught:\n        warnings.simplefilter(\"always\")\n"
                 "        _ = v.grad  # reading is enough"},
          names=("grad_warning", "state kept between calls"), unsaid=("under the caller's", "under that filter")),
]

# A warnings filter set when the file is imported: the statement's reads of a non-leaf's .grad warn in the
# importer's code, which such a filter hides ("ignore") or turns into an error ("error").  A filter that
# leaves the engine's warning alone (another category) changes nothing the statement asks for.
IMPORTS = "\nimport warnings\n"
CASES += [
    Wrong("warnings_ignored_at_import", fails={WITHOUT: "set a warnings filter at line 51 that silences"},
          edits={IMPORTS: IMPORTS + "\nwarnings.filterwarnings(\"ignore\")  # the non-leaf warnings clutter the output\n"},
          names=("importing ex03_retain_grad.py", "warnings filter", "shows no warning")),
    Wrong("warnings_made_errors_at_import", fails={WITHOUT: "set a warnings filter at line 51 that makes the warning"},
          edits={IMPORTS: IMPORTS + "\nwarnings.simplefilter(\"error\")\n"},
          names=("importing ex03_retain_grad.py", "warnings filter", "an error")),
    Correct("other_warnings_ignored_at_import",
            edits={IMPORTS: IMPORTS + "\nwarnings.filterwarnings(\"ignore\", category=DeprecationWarning)\n"}),
]

# A filter set outside catch_warnings() by grad_warning: every answer is right, and the caller's own filters
# are overridden once it returns; told by the line that set it.
CASES += [
    Wrong("always_set_outside_catch", fails={WARNING: "changed the warnings filters at line"}),
]

# grads_after_backward built through the student's own backward_retaining (no names), whose loop retains y
# always: the grads_after_backward tests point at the test of backward_retaining alone that fails too.
# A backward_retaining that picks its nodes with `in` (==) retains y where it holds a named node's
# number: told as that, by a call on inputs where they differ.
CASES += [
    Wrong("grads_through_retaining", fails={WITHOUT: "This test runs your backward_retaining too"}),
    Wrong("retained_by_equal_number", fails={"retained grads on other inputs": "a node equal (==) to a named one"},
          edits={RETAIN_LOOP: '    wanted = [g[name] for name in names]\n    for name in ("a", "b", "y"):\n'
                              '        if g[name] in wanted:\n            g[name].retain_grad()\n'},
          names=("same number as b", "equal (==)")),
    # the given build_graph edited to call a.retain_grad(), as the documents do: it returns the very
    # a it built, retained; the tests whose results that changes fail, each naming the edit
    Wrong("given_build_graph_retains_a", names=("build_graph was edited", "calls retain_grad() on a"),
          unsaid=("returned another Value",), passes=("a.grad after retain_grad",),
          fails={"non-leaf grads are None after backward": "calls retain_grad() on a"},
          edits={'    a = micrograph.add(x_leaf, w_leaf)\n': '    a = micrograph.add(x_leaf, w_leaf)\n    a.retain_grad()  # as the documents do\n'}),
    Correct("ordered_dicts", edits={"from micrograph import Value\n": "from collections import OrderedDict\n\nfrom micrograph import Value\n",
            'return {name: node.grad for name, node in g.items()}': 'return OrderedDict((name, node.grad) for name, node in g.items())'}),
    # a copy of each .grad returned ("safe for the caller"): the numbers, but not what .grad holds
    Wrong("grads_detached_copies", fails={"non-leaf grads are None after backward": "is a new object, not w.grad"},
          edits={"return {name: node.grad for name, node in g.items()}":
                 "return {name: None if node.grad is None else node.grad.detach() for name, node in g.items()}"},
          names=("grads_after_backward(w, x)['w'] is a new object, not w.grad",)),
    # the gradient read dropped afterwards ("put it back as it was"): the caller's leaf loses it
    Wrong("grad_warning_drops_leaf_grad", fails={"the warning on every kind of Value": "grad_warning(w) set w.grad to None"},
          edits={"    return str(caught[0].message) if caught else None\n":
                 "    if v.is_leaf:\n        v.grad = None\n    return str(caught[0].message) if caught else None\n"},
          names=("grad_warning(w) set w.grad to None",)),
    # sys.path made anew at import (a notebook's habit before importing its own helpers): it reaches no further
    # than sys.path.insert, and scores as the same answer without it
    Correct("sys_path_rebound", edits={"from micrograph import Value\n":
                                       "from micrograph import Value\n\nsys.path = sys.path + [\".\"]\n",
                                       "import micrograph\n": "import sys\n\nimport micrograph\n"}),
    # another name of sys bound again: told as that name and its line, not as a reach for profile or trace hooks
    Wrong("sys_name_rebound", fails={"a.grad after retain_grad": "binds sys.maxsize again (line"},
          edits={"import micrograph\n": "import sys\n\nimport micrograph\n\nsys.maxsize = 2**31 - 1\n"},
          names=("binds sys.maxsize again",), unsaid=("profile or trace hooks",)),
]

# v.detach().grad read "so v stays as it was": a copy sharing v's number, a leaf, which warns not;
# told as that copy, not as v.data (the code never read .data).
CASES += [
    Wrong("warning_of_a_detached_copy",
          fails={WARNING: "grad_warning(b) never read the .grad of the Value it was given: it read the .grad of a copy"},
          edits={"        _ = v.grad  # reading is enough": "        _ = v.detach().grad  # a copy, so v stays as it was"},
          names=("grad_warning(b)", "never read the .grad of the Value it was given", "a copy of that Value"),
          unsaid=("Value's .data",)),
]

# y.retain_grad() in grads_after_backward ("so y.grad is there"): told as that call, not only as y.grad
# not None.
CASES += [
    Wrong("y_retained_before_backward", fails={WITHOUT: "retain_grad() was called on y in grads_after_backward(w, x)"},
          edits={'''    g = build_graph(w, x)
    g["y"].backward()
    return {name: node.grad for name, node in g.items()}''': '''    g = build_graph(w, x)
    g["y"].retain_grad()
    g["y"].backward()
    return {name: node.grad for name, node in g.items()}'''},
          names=("retain_grad() was called on y in grads_after_backward(w, x)", "does not ask for")),
]

# w.grad and x.grad zeroed "to clean up" after the dict of .grad Values was made: the dict holds those
# very Values, zeroed; told as a .grad changed in place after backward wrote it, not only as other numbers.
CASES += [
    Wrong("grads_cleaned_up_after_reading", fails={WITHOUT: "which your code then changed in place"},
          edits={"    return {name: node.grad for name, node in g.items()}":
                 "    grads = {name: node.grad for name, node in g.items()}\n"
                 "    g[\"w\"].grad.zero_()  # clean up for the next call\n    g[\"x\"].grad.zero_()\n    return grads"},
          names=("grads_after_backward(w, x)['w'] is the .grad Value backward wrote", "changed in place")),
]

# y cut off its graph in place after backward ("free the graph") before the .grad reads: y is a leaf then, and
# reading its .grad warns not; told as that cut, not as a .grad left unread.  Cut after the reads, it changes
# no answer.
GAB = '    g["y"].backward()\n    return {name: node.grad for name, node in g.items()}\n'
CASES += [
    Wrong("y_detached_before_reading", fails={WITHOUT: "y in grads_after_backward(w, x) was cut off its graph in place"},
          edits={GAB: '    g["y"].backward()\n    g["y"].detach_()  # free the graph\n'
                      '    return {name: node.grad for name, node in g.items()}\n'},
          names=("y in grads_after_backward(w, x)", "detach_()", "a leaf now"),
          unsaid=("did not read the .grad of each", "a None written down")),
    Correct("y_detached_after_reading",
            edits={GAB: '    g["y"].backward()\n    grads = {name: node.grad for name, node in g.items()}\n'
                        '    g["y"].detach_()  # done with the graph\n    return grads\n'}),
]

# backward(inputs=[...]) for retain_grad(): the named nodes get their gradient (and retain it, as in PyTorch),
# the leaves none; told as the inputs= the pass was given, beside w.grad and x.grad never written.
CASES += [
    Wrong("backward_inputs_for_retain", fails={A: 'backward_retaining(w, x, ["a"]) gave its backward pass inputs='},
          edits={RETAIN_LOOP + '    g["y"].backward()\n    return g\n':
                 '    g["y"].backward(inputs=[g[name] for name in names])\n    return g\n'},
          names=("gave its backward pass inputs=", "backward never wrote w.grad")),
]

# The gradients read as node._grad (hoping for "no warning that way"): torch's _grad is .grad itself, the same
# getter with the same warning on a non-leaf, and so is micrograph's: the same reads, full marks.
CASES += [
    Correct("private_grad_read",
            edits={"    return {name: node.grad for name, node in g.items()}": "    return {name: node._grad for name, node in g.items()}"}),
]

# Every gradient written by hand, no backward at all: the named nodes' and the leaves'.
CASES += [
    Wrong("all_grads_by_hand", fails={A: 'backward_retaining(w, x, ["a"]) ran no backward pass'},
          edits={RETAIN_LOOP + '    g["y"].backward()\n    return g\n':
                 '    local = {"a": g["b"].item(), "b": g["a"].item(), "y": 1.0}\n    for name in names:\n'
                 '        g[name].grad = Value(local[name])\n    g["w"].grad = Value(2 * w + x + 1)\n'
                 '    g["x"].grad = Value(w + 1)\n    return g\n'},
          names=('ran no backward pass', 'assigned by hand')),
]

# grad_warning returns `caught and str(caught[0].message)`: where nothing was caught, the empty list of
# records itself, not None; told by the type it returned, once for the calls that show it.
CASES += [
    Wrong("caught_list_for_none",
          fails={WARNING: "grad_warning(w) is of type list here, where the statement's is None",
                 "the warning on every kind of Value": "the same holds for grad_warning(x)"},
          edits={"    return str(caught[0].message) if caught else None\n": "    return caught and str(caught[0].message)\n"},
          names=("grad_warning(w)", "of type list"), unsaid=("is not None",)),
]

# The flag set where the method belongs: retains_grad has a getter only, as torch's, so the assignment raises.
CASES += [
    Wrong("retains_grad_assigned", fails={"a.grad after retain_grad": "AttributeError at line"},
          edits={"        g[name].retain_grad()  # must happen before backward: afterwards it is too late\n":
                 "        g[name].retains_grad = True\n"},
          names=("in backward_retaining", "attribute 'retains_grad'", "is not writable")),
]

# grad_warning switches grad mode off after its read and never back on: told as that in both tests of
# grad_warning, not as an error the test's later graphs, made unrecorded, raise in its own code.
CASES += [
    Wrong("grad_warning_leaves_grad_mode_off",
          fails={WARNING: "grad_warning(b) returned with grad mode still off",
                 "the warning on every kind of Value": "grad_warning(a) returned with grad mode still off"},
          edits={"    return str(caught[0].message) if caught else None\n":
                 "    micrograph.set_grad_enabled(False)  # reading only\n    return str(caught[0].message) if caught else None\n"},
          names=("returned with grad mode still off",), unsaid=("RuntimeError", "under the caller's")),
]
# grads_after_backward builds its graph inside no_grad: told as its call of build_graph with grad mode off
CASES += [Wrong("grads_after_build_under_no_grad",
                fails={"non-leaf grads are None after backward": "grads_after_backward called build_graph while grad mode was off"},
                edits={"    g = build_graph(w, x)\n    g[\"y\"].backward()\n    return {name":
                       "    with micrograph.no_grad():\n        g = build_graph(w, x)\n    g[\"y\"].backward()\n    return {name"},
                names=("grads_after_backward called build_graph while grad mode was off",))]
# backward_retaining builds its graph inside no_grad, so retain_grad() raises on a node that requires no grad: told
# as its call of build_graph with grad mode off, not by the engine's error alone
CASES += [Wrong("retaining_build_under_no_grad",
                fails={"a.grad after retain_grad": "backward_retaining called build_graph while grad mode was off"},
                edits={"    g = build_graph(w, x)\n    for name in names:":
                       "    with micrograph.no_grad():\n        g = build_graph(w, x)\n    for name in names:"},
                names=("backward_retaining called build_graph while grad mode was off",
                       "retain_grad() on such a Value raises"))]

# backward_retaining's graph kept in a module-level dict by its inputs, a copy of the dict handed out: a later call
# with those inputs runs no backward and returns the very Values the first call made.
CASES += [
    Wrong("retaining_cached_as_a_copy",
          fails={"retain_grad on exactly the nodes named": "returned in a new dict the very Values that call returned"},
          edits={"    g = build_graph(w, x)\n    for name in names:":
                 "    key = (w, x, tuple(names))\n    if key in _DONE:\n        return dict(_DONE[key])\n"
                 "    g = build_graph(w, x)\n    for name in names:",
                 '    g["y"].backward()\n    return g\n': '    g["y"].backward()\n    _DONE[key] = g\n    return dict(g)\n',
                 "def backward_retaining(": "_DONE: dict = {}\n\n\ndef backward_retaining("},
          names=("backward_retaining", "the very Values that call returned", "between calls")),
]

# grad_warning indexes caught[0] with no check: the call given a leaf, which records no warning, raises. Told
# with that call, not only with the line of grad_warning.
CASES += [
    Wrong("first_warning_unchecked", fails={WARNING: "grad_warning(w) raised an error"},
          edits={"return str(caught[0].message) if caught else None": "return str(caught[0].message)"},
          names=("grad_warning(w) raised an error", "IndexError")),
    # grad_warning memoised with functools.lru_cache: a retained a gets its first answer again; told as an
    # answer kept tied to the Value, not also as a call that never read .grad
    Wrong("grad_warning_lru_cache", fails={"the warning on every kind of Value": "your code keeps its answer between calls"},
          edits={"def grad_warning(": "@functools.lru_cache(maxsize=None)\ndef grad_warning(",
                 "\nimport warnings\n": "\nimport functools\nimport warnings\n"},
          names=("grad_warning(a), called again once a.retain_grad() had changed that Value",),
          unsaid=("never read .grad",)),
]

# Right answers spelled otherwise: the warning's text as its message's args[0]; simplefilter('default'), which inside
# a new catch_warnings() block records the warning again on every call.
CASES += [
    Correct('message_args', edits={'return str(caught[0].message) if caught else None': 'return caught[0].message.args[0] if caught else None'}),
    Correct('simplefilter_default', edits={'        warnings.simplefilter("always")\n': '        warnings.simplefilter("default")\n'}),
]

# backward_retaining runs backward inside its loop over names: with two names the second pass raises, told with the
# call whose names made it raise.
CASES += [
    Wrong("backward_inside_the_loop", fails={"retain_grad on exactly the nodes named": 'backward_retaining(w, x, ["b", "y"]) raised an error'},
          edits={'    for name in names:\n        g[name].retain_grad()  # must happen before backward: afterwards it is too late\n    g["y"].backward()\n':
                 '    for name in names:\n        g[name].retain_grad()\n        g["y"].backward()\n'},
          names=('backward_retaining(w, x, ["b", "y"]) raised an error', "a second time")),
]

# grad_warning spelled grad_warnings: the tests find no grad_warning, told with the file's own name close to it.
CASES += [
    Wrong("grad_warning_spelled_otherwise", fails={WARNING: "the file defines grad_warnings at line"},
          edits={"def grad_warning(v: Value)": "def grad_warnings(v: Value)"},
          names=("defines no grad_warning", "grad_warnings")),
]

# backward_retaining runs its pass from y * 1, not y: told as a root computed from the y returned, not as a y other
# than the one the pass started from followed by nothing.
CASES += [
    Wrong("backward_from_y_times_one", fails={A: 'backward_retaining(w, x, ["a"]) started its backward pass from a Value your code computed from the y it returned'},
          edits={'    g["y"].backward()\n    return g\n': '    (g["y"] * 1).backward()\n    return g\n'},
          names=("started its backward pass from a Value your code computed from the y it returned",),
          unsaid=("what follows is about",)),
]

# backward_retaining seeds its pass with two: told by the gradient the pass started from, not as every .grad differing.
CASES += [
    Wrong("retaining_seeded_with_two", fails={A: "started its backward pass from a gradient other than one"},
          edits={'    g["y"].backward()\n    return g\n': '    g["y"].backward(micrograph.Value(2.0))\n    return g\n'},
          names=('backward_retaining(w, x, ["a"]) started its backward pass from a gradient other than one',),
          unsaid=("its number differs",)),
]
# the same two, the graph built inside set_grad_enabled(False): told by that spelling
CASES += [Wrong("grads_after_build_under_set_grad_enabled_false",
                fails={"non-leaf grads are None after backward":
                       "grads_after_backward called build_graph while grad mode was off (set_grad_enabled(False))"},
                edits={"    g = build_graph(w, x)\n    g[\"y\"].backward()\n    return {name":
                       "    with micrograph.set_grad_enabled(False):\n        g = build_graph(w, x)\n"
                       "    g[\"y\"].backward()\n    return {name"},
                names=("grads_after_backward called build_graph while grad mode was off (set_grad_enabled(False))",),
                unsaid=("(no_grad)",)),
          Wrong("retaining_build_under_set_grad_enabled_false",
                fails={"a.grad after retain_grad":
                       "backward_retaining called build_graph while grad mode was off (set_grad_enabled(False))"},
                edits={"    g = build_graph(w, x)\n    for name in names:":
                       "    with micrograph.set_grad_enabled(False):\n        g = build_graph(w, x)\n    for name in names:"},
                names=("backward_retaining called build_graph while grad mode was off (set_grad_enabled(False))",
                       "retain_grad() on such a Value raises"), unsaid=("(no_grad)",))]
# the graph built inside inference_mode(), which is no no_grad block: told by that spelling
CASES += [Wrong("retaining_build_under_inference_mode",
                fails={"a.grad after retain_grad":
                       "backward_retaining called build_graph while grad mode was off (inference_mode())"},
                edits={"    g = build_graph(w, x)\n    for name in names:":
                       "    with micrograph.inference_mode():\n        g = build_graph(w, x)\n    for name in names:"},
                names=("backward_retaining called build_graph while grad mode was off (inference_mode())",
                       "retain_grad() on such a Value raises"), unsaid=("(no_grad)",))]
# the graph built by a helper of the student's decorated with @no_grad(): told by that helper
CASES += [Wrong("grads_after_build_in_no_grad_helper",
                fails={"non-leaf grads are None after backward":
                       "grads_after_backward called build_graph inside _built, a function of yours decorated"},
                edits={"def grads_after_backward(": "@micrograph.no_grad()\ndef _built(w: float, x: float) -> dict:\n"
                                                   "    return build_graph(w, x)\n\n\ndef grads_after_backward(",
                       "    g = build_graph(w, x)\n    g[\"y\"].backward()\n    return {name":
                       "    g = _built(w, x)\n    g[\"y\"].backward()\n    return {name"},
                names=("grads_after_backward called build_graph inside _built, a function of yours decorated to run "
                       "with grad mode off",), unsaid=("(no_grad)",))]
