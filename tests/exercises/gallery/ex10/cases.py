"""ex10 gallery: plausible wrong answers and correct variants (format: gallery_case.py)."""

from gallery_case import Correct, Wrong

BRANCH = "branch picks the operation"
BRANCH_HIDDEN = "a new graph per call"
CHAIN = "grad_fn_chain reads a branch"
LOOP = "the while loop on two inputs"
LOOP_HIDDEN = "the while loop follows the data"

IF = "    if x_value > 0:  # a plain Python if: only the branch that runs is recorded\n"
LOOP_LINE = "    while y < limit:  # the data decides how many nodes get recorded\n"
DOUBLE = "        y = y * 2\n"
FIRST = "        node = next((child for child, _ in node.next_functions if child is not None), None)\n"

CASES = [
    # the limit cut to an int: a doubling that passes between int(limit) and limit never runs
    Wrong("limit_cut_to_int", names=("is still below the limit: your loop stopped doubling before y reached it",),
          fails={LOOP_HIDDEN: "is still below the limit"},
          edits={LOOP_LINE: LOOP_LINE.replace("y < limit", "y < int(limit)")}),
    # double_until keeps its answer per leaf (id(w), limit): after a step changed w, the same call returns the old one
    Wrong("doubling_kept_per_leaf", names=("double_until returned something else than the same call returns in a fresh import",),
          fails={LOOP_HIDDEN: "depends on state kept between calls"},
          edits={"    y = w\n    steps = 0\n": "    if (id(w), limit) in _DOUBLED:\n"
                                               "        return _DOUBLED[(id(w), limit)]\n"
                                               "    y = w\n    steps = 0\n",
                 "    return y, steps\n": "    _DOUBLED[(id(w), limit)] = (y, steps)\n    return y, steps\n",
                 "def double_until(": "_DOUBLED = {}\n\n\ndef double_until("}),
    # double_until keeps its answer per limit only: a later call with that limit returns the y built on an
    # earlier call's w (whose graph the earlier test backpropagated), where it raised SECOND_BACKWARD in the probe
    Wrong("doubling_kept_per_limit", names=("The y double_until returned is still the y an earlier call of double_until returned",),
          fails={LOOP_HIDDEN: "kept between calls and returned again"},
          edits={"    y = w\n    steps = 0\n": "    if limit in _DOUBLED:\n        return _DOUBLED[limit]\n"
                                               "    y = w\n    steps = 0\n",
                 "    return y, steps\n": "    _DOUBLED[limit] = (y, steps)\n    return y, steps\n",
                 "def double_until(": "_DOUBLED = {}\n\n\ndef double_until("}),
    # a chain kept by id(y.grad_fn): a node made where a freed one was gets the freed graph's chain
    # (which probe meets a freed id first depends on the allocator: the repeated call tells it on every run)
    Wrong("chain_kept_by_node_id", names=("returned the very object that call returned", "kept between calls"),
          fails={"grad_fn_chain on other graphs": "called again with the inputs of an earlier call"},
          edits={"    names: list[str] = []\n": "    if id(y.grad_fn) in _CHAINS:\n"
                                                 "        return _CHAINS[id(y.grad_fn)]\n"
                                                 "    names: list[str] = []\n"
                                                 "    _CHAINS[id(y.grad_fn)] = names\n",
                 "def grad_fn_chain(": "_CHAINS = {}\n\n\ndef grad_fn_chain("}),
    # a chain kept by id(y): y changed in place gets its own old chain (a y made where a freed y was gets that y's,
    # on one run and not on the next: told as state kept between calls where it happens, tests/grader/test_facts.py)
    Wrong("chain_kept_by_y_id", names=("grad_fn_chain(y) returned what the call before that change returned",
                                       "an answer kept between calls"),
          fails={"grad_fn_chain on other graphs": "returned what the call before that change returned"},
          edits={"    names: list[str] = []\n": "    if id(y) in _CHAINS:\n"
                                                 "        return list(_CHAINS[id(y)])\n"
                                                 "    names: list[str] = []\n"
                                                 "    _CHAINS[id(y)] = names\n",
                 "def grad_fn_chain(": "_CHAINS = {}\n\n\ndef grad_fn_chain("}),
    # the product computed, then x_value returned in its place: told as the Value computed and not returned
    Wrong("branch_returns_x_value", names=("is not the Value your code computed for it",),
          fails={BRANCH: "y (x > 0) is not the Value your code computed for it"},
          unsaid=("was not recorded by the graph",),
          edits={"        return x_value * w\n": "        y = x_value * w\n        return x_value\n"}),
    # the exp computed, then the leaf w given returned in its place
    Wrong("branch_returns_w", names=("is the leaf w the call was given, returned in place of the Value",),
          fails={BRANCH: "is the leaf w the call was given, returned in place of the Value your code computed"},
          unsaid=("differs at its root",),
          edits={"    return (x_value - w).exp()\n": "    y = (x_value - w).exp()\n    return w\n"}),
    # y.detach() returned: the detach the call made is named
    Wrong("double_until_detached", names=("double_until returned what detach() returned for a Value that requires grad",),
          fails={LOOP: "double_until returned what detach() returned for a Value that requires grad"},
          edits={"    return y, steps\n": "    return y.detach(), steps\n"}),
    Wrong("chain_first_input", fails={CHAIN: "for y = (c * (w * w)).sin(), grad_fn_chain(y) holds MulBackward0 once"}),
    Wrong("fixed_loop", fails={LOOP: "y"}),
    # a slip in branch is branch's alone: grad_fn_chain's test reads a branch the probe builds
    Wrong("branch_divides", names=("was made by DivBackward0",), fails={BRANCH: "was made by DivBackward0"},
          passes=(CHAIN,), edits={"    return (x_value - w).exp()\n": "    return x_value.exp() / w.exp()\n"}),
    Wrong("static_mask", fails={BRANCH: "'s graph"}),
    # the leaf given returned as y, the loop's y left unused: a leaf whose graph is its own AccumulateGrad follows
    Wrong("returns_the_leaf", names=("is still the leaf w given to double_until, not a new object",),
          fails={LOOP: "is still the leaf w given to double_until"}, edits={"    return y, steps\n": "    return w, steps\n"}),
    # the product made from w.detach(): y records no graph, and the probe's backward through it is not the error
    Wrong("branch_on_detached_w", names=("branch called detach() or detach_() on a Value that requires grad",),
          fails={BRANCH: "branch called detach() or detach_() on a Value that requires grad"},
          edits={"        return x_value * w\n": "        return x_value * w.detach()\n"}),
    Wrong("zero_is_positive", names=("y (x = 0) is the other branch's y", "the other side of x > 0"),
          fails={BRANCH: "y (x = 0) is the other branch's y"}, edits={IF: "    if x >= 0:\n"}),
    Wrong("loop_to_the_limit", names=('double_until(w, limit)[1] counts one doubling too many', 'when y equalled the limit'),
          fails={LOOP: "your loop went on doubling when y equalled the limit",
                 LOOP_HIDDEN: "your loop went on doubling when y equalled the limit"},
          unsaid=("holds a different number", "differs at its root"),  # what the doubling at the limit made
          edits={LOOP_LINE: "    while y <= limit:\n"}),
    Wrong("branch_from_floats", names=('is a leaf', "'s graph never reaches w"), fails={BRANCH: "y (x > 0) is a leaf (no grad_fn)"},
          edits={"        return x_value * w\n":
                 "        return Value(x * w.item(), requires_grad=True)\n"}),
    Wrong("loop_as_one_product", names=("records MulBackward0 fewer times",), unsaid=("your count differs",), fails={LOOP: "'s graph"},
          edits={LOOP_LINE + DOUBLE: "    while w.item() * 2 ** steps < limit:\n",
                 "    return y, steps\n": "    return w * 2 ** steps, steps\n"}),
    Wrong("chain_last_input", names=('for y = (w.exp() + w * 3).tanh(), grad_fn_chain(y)[2]',
                                      "goes on from AddBackward0 through a later entry of its next_functions"), fails={CHAIN: "for y = (w.exp() + w * 3).tanh(), grad_fn_chain(y)[2] is \"MulBackward0\" here"},
          edits={FIRST: "        tracked = [child for child, _ in node.next_functions if child is not None]\n"
                        "        node = tracked[-1] if tracked else None\n"}),
    Wrong("doubling_as_sum", names=('was made by AddBackward0',), fails={LOOP: "'s graph"}, edits={DOUBLE: "        y = y + y\n"}),
    Wrong("backward_inside_branch", names=('branch started a backward pass',), fails={BRANCH: "branch started a backward pass"},
          edits={"        return x_value * w\n":
                 "        y = x_value * w\n        y.backward(retain_graph=True)\n"
                 "        w.grad = None\n        return y\n"}),
    Correct("other_spelling", edits={
        "from micrograph import Value\n": "import micrograph\nfrom micrograph import Value\n",
        "        return x_value * w\n": "        return w * x_value\n",
        "    return (x_value - w).exp()\n": "    return micrograph.exp(micrograph.sub(x_value, w))\n",
        LOOP_LINE: "    while True:\n        if not y < limit:\n            break\n",
        DOUBLE: "        y = micrograph.mul(y, 2.0)\n"}),
    Correct("recursive_chain"),
    # sys.argv set at import (a notebook's habit before argparse): no reach for grading's internals
    Correct("argv_set_at_import", edits={"from micrograph import Value\n": "import sys\n\nfrom micrograph import Value\n\n"
                                         "sys.argv = [\"\"]\n"}),
    # the Windows habit for printing Chinese, at import: a fresh copy's top level prints to a stream that takes it too
    Correct("stdout_reconfigured", edits={"from micrograph import Value\n": "import sys\n\nfrom micrograph import Value\n\n"
                                          "sys.stdout.reconfigure(encoding=\"utf-8\")\nsys.stderr.reconfigure(encoding=\"utf-8\")\n"}),
    Correct("stdout_rewrapped", edits={"from micrograph import Value\n": "import io\nimport sys\n\nfrom micrograph import Value\n\n"
                                       "sys.stdout = io.TextIOWrapper(sys.stdout.buffer, encoding=\"utf-8\")\n"}),
    # a detach whose number only the loop's comparison reads: nothing computed from it, the graph is the plain loop's
    Correct("loop_compares_detached", edits={LOOP_LINE: "    while y.detach() < limit:  # only its number is read\n"}),
    Correct("loop_reads_float_of_detached", edits={LOOP_LINE: "    while float(y.detach()) < limit:\n"}),
    # each doubling made from a detach: y is computed from the detached Value, and its graph records one doubling
    Wrong("doubles_the_detached", names=("double_until called detach() or detach_() on a Value that requires grad",),
          fails={LOOP: "double_until called detach() or detach_() on a Value that requires grad"},
          edits={DOUBLE: "        y = y.detach() * 2\n"}),
    # an operation input preferred to a leaf input met first: a leaf-before-op graph shows it
    Wrong("chain_prefers_an_operation", names=("for y = w * (w + 1), grad_fn_chain(y)", "more entries",
                                                "goes on from MulBackward0 through a later entry"),
          fails={"grad_fn_chain on other graphs": "for y = w * (w + 1), grad_fn_chain(y) has more entries"},
          edits={FIRST: "        tracked = [child for child, _ in node.next_functions if child is not None]\n"
                        "        ops = [child for child in tracked if not hasattr(child, \"variable\")]\n"
                        "        node = (ops or tracked or [None])[0]\n"}),
    Wrong("chain_stops_at_none", names=('grad_fn_chain(y)', 'fewer entries', "whose first entry of next_functions is None",
                                        "the walk stopped there"), fails={"grad_fn_chain on other graphs": "has fewer entries"},
          edits={FIRST: "        node = node.next_functions[0][0] if node.next_functions else None\n"}),
    Wrong("chain_with_accumulate", names=('grad_fn_chain(y)', 'AccumulateGrad", is one too many', 'the same holds for y = '),
          fails={CHAIN: "has more entries than the statement's"},
          edits={'    while node is not None and not hasattr(node, "variable"):': "    while node is not None:"}),
    Correct("chain_for_loop", edits={FIRST: """        following = None
        for child, _ in node.next_functions:
            if child is not None:
                following = child
                break
        node = following
"""}),
    # branch is an instance of a class with __call__, not a function
    Correct("branch_as_a_callable_object", edits={"def branch(x: float, w: Value) -> Value:":
        "class _Branch:\n    \"\"\"branch as a callable object.\"\"\"\n\n    def __call__(self, x: float, w: Value) -> Value:\n"
        "        x_value = Value(x)\n        return x_value * w if x > 0 else (x_value - w).exp()\n\n\nbranch = _Branch()\n\n\n"
        "def _unused_branch(x: float, w: Value) -> Value:"}),
]


# Plausible mistakes of more kinds, each graded as a student reads it: state kept between calls
# (a default argument, a module-level or class-level store), generic list and generator bugs,
# off-by-one, a wrong operand or flag; and correct answers written another way.
CASES += [
    Wrong('sub_operands_swapped', fails={'branch picks the operation': "your SubBackward0 takes its inputs in the other order"},
          edits={'    return (x_value - w).exp()': '    return (w - x_value).exp()'},
          names=("'s graph differs at", 'SubBackward0 takes its inputs in the other order')),
    Wrong('data_requires_grad', fails={'branch picks the operation': "'s graph reaches x_value: your x_value requires grad"},
          edits={'    x_value = Value(x)\n': '    x_value = Value(x, requires_grad=True)\n'},
          names=("'s graph reaches x_value", "your x_value requires grad", "the statement's is data")),
    Wrong('chain_of_a_leaf_fails', fails={'grad_fn_chain reads a branch': 'AttributeError'},
          edits={'    node = y.grad_fn\n    while node is not None and not hasattr(node, "variable"):': '    node = y.grad_fn\n    names.append(node.name())\n    node = next((child for child, _ in node.next_functions if child is not None), None)\n    while node is not None and not hasattr(node, "variable"):'},
          names=('grad_fn_chain', 'AttributeError')),
    Wrong('chain_names_default', fails={'grad_fn_chain reads a branch': 'what a first call of grad_fn_chain returned changed',
                                        'grad_fn_chain on other graphs': 'what a first call of grad_fn_chain returned changed'},
          edits={'def grad_fn_chain(y: Value) -> list[str]:': 'def grad_fn_chain(y: Value, names: list[str] = []) -> list[str]:', '    names: list[str] = []\n    node = y.grad_fn': '    node = y.grad_fn'},
          names=('grad_fn_chain(y)', 'more entries', 'called again')),
    Wrong('double_to_the_limit', fails={'the while loop on two inputs': 'counts one doubling too many'},
          edits={'    while y < limit:': '    while y <= limit:'},
          names=('double_until(w, limit)[1]', 'when y equalled the limit')),
    Wrong('double_in_place', fails={'the while loop on two inputs': 'in-place operation'},
          edits={'        y = y * 2\n': '        y *= 2\n'},
          names=('double_until', 'in-place')),
    Correct('chain_recursive_generator', edits={'    names: list[str] = []\n    node = y.grad_fn\n    while node is not None and not hasattr(node, "variable"):  # a leaf\'s AccumulateGrad ends it\n        names.append(node.name())\n        node = next((child for child, _ in node.next_functions if child is not None), None)\n    return names': '    def walk(node):\n        while node is not None and not hasattr(node, "variable"):\n            yield node.name()\n            node = next((c for c, _ in node.next_functions if c is not None), None)\n    return list(walk(y.grad_fn))'}),
]


# Tried as a student reads them: the branch chosen by w, a sign slip in the other branch, an
# extra leaf, the names or the step count kept between calls; and the class name spelled out.
CASES += [
    Wrong('branch_on_w',
          edits={'    if x_value > 0:': '    if w > 0:'},  # w > 0 in the public test: x < 0 and x = 0 take the product
          fails={BRANCH: "y (x < 0 or x = 0) is the other branch's y: your if picked the branch"},
          names=("is the other branch's y", "the other side of x > 0")),
    Wrong('exp_of_the_sum',
          edits={'    return (x_value - w).exp()': '    return (x_value + w).exp()'},
          names=('AddBackward0',)),
    Wrong('x_requires_grad',  # x is a constant of the graph, not a leaf of it
          edits={'    x_value = Value(x)\n': '    x_value = Value(x, requires_grad=True)\n'},
          names=('graph reaches x_value', 'your x_value requires grad')),
    Wrong('names_kept_in_a_global',
          edits={'    names: list[str] = []\n    node = y.grad_fn\n': '    names = _NAMES\n    node = y.grad_fn\n',
                 '    return names\n': '    return list(names)\n',
                 'def grad_fn_chain(': '_NAMES: list[str] = []\n\n\ndef grad_fn_chain('},
          names=('grad_fn_chain',)),
    Wrong('steps_kept_in_a_global', fails={LOOP: "double_until, called again with the inputs of an earlier call"},
          edits={'    steps = 0\n': '',
                 '        steps += 1\n    return y, steps': '        _STEPS[0] += 1\n    return y, _STEPS[0]',
                 'def double_until(': '_STEPS = [0]\n\n\ndef double_until('},
          names=('double_until', 'state kept')),
]

# State kept between calls that an earlier call primed: each y cached by its x, so that a call
# returns a y built on the w of the first call with that x (the diagram probe's, or a test's).
CASES += [
    Wrong("branch_made_once_per_x",
          fails={BRANCH: "branch returned something else than the same call returns in a fresh import"},
          edits={"    x_value = Value(x)\n    if x_value > 0:  # a plain Python if: only the branch that runs is recorded\n"
                 "        return x_value * w\n    return (x_value - w).exp()\n":
                 "    if x not in _MADE:\n        x_value = Value(x)\n"
                 "        _MADE[x] = x_value * w if x_value > 0 else (x_value - w).exp()\n    return _MADE[x]\n",
                 "def branch(": "_MADE = {}\n\n\ndef branch("},
          names=("branch", "state kept between calls")),
]

# One data Value made once and refilled through .data at each call: every y holds its own number,
# but the x_value a kept y saved is the later call's, and so is its gradient.
CASES += [
    Wrong("x_value_refilled_through_data",
          fails={BRANCH: "what a first call of branch returned changed when branch was called again"},
          edits={"    x_value = Value(x)\n    if x_value > 0:": "    x_value = _X_VALUE\n    x_value.data.fill_(x)\n    if x_value > 0:",
                 "def branch(": "_X_VALUE = Value(0.0)\n\n\ndef branch("},
          names=("branch", "state kept between calls")),
]

# The count off from the loop that ran (started at one), and a loop run past the statement's
# limit: the count and the doublings agree, and both differ from the statement's.
CASES += [
    Wrong("count_from_one", fails={LOOP: "double_until(w, limit)[1] is not the number of doublings the y returned"},
          edits={"    steps = 0\n": "    steps = 1\n"},
          names=("your count differs from the doublings y's graph records",)),
    Wrong("limit_squared", fails={LOOP: "'s graph records MulBackward0 more times than the statement's"},
          edits={"    while y < limit:": "    while y < limit * limit:"},
          names=("records MulBackward0 more times",), unsaid=("your count differs",)),
]

# The input to go on through taken from a set of the non-None entries: its order is that of the
# nodes' ids, so only graphs whose roots take the same two nodes in both orders show it, and
# only several such pairs every time (the public test's two pairs may both fall in the set's
# order where the ids of two nodes clash in its table).
CASES += [
    Wrong("chain_input_from_a_set",
          fails={"grad_fn_chain on other graphs": "through a later entry of its next_functions"},
          edits={FIRST: "        node = next(iter({child for child, _ in node.next_functions if child is not None}), None)\n"},
          names=("grad_fn_chain(y) goes on from", "through a later entry of its next_functions than the first one that is not None")),
    # node.name appended without its call: the list holds the node's bound method
    Wrong("name_not_called", fails={CHAIN: "holds the method node.name itself"},
          edits={"        names.append(node.name())\n": "        names.append(node.name)\n"},
          names=("holds the method node.name itself", "the call is missing"), unsaid=("not the kind of result",)),
]

# double_until's answer kept on the leaf itself (w.doubled[limit]): a fresh import of the file
# finds it there too, so only a second call on the same leaf and limit, after a backward through
# the first y, shows the first y returned again.
CASES += [
    Wrong("doubling_kept_on_the_leaf",
          fails={LOOP_HIDDEN: "is still the y an earlier call of double_until returned"},
          edits={"    y = w\n    steps = 0\n": "    kept = getattr(w, \"doubled\", None)\n"
                                               "    if kept is None:\n        kept = w.doubled = {}\n"
                                               "    if limit in kept:\n        return kept[limit]\n"
                                               "    y = w\n    steps = 0\n",
                 "    return y, steps\n": "    kept[limit] = (y, steps)\n    return y, steps\n"},
          names=("The y double_until returned is still the y an earlier call of double_until returned",),
          unsaid=("has freed its saved values",)),
]

# The x > 0 arm computes its y and forgets to return it: the code goes on to the other branch's
# return. The if is right (its arm ran and recorded x_value * w): the sentence says the statement's y
# for this x was made and dropped, not that the if picked the other side.
CASES += [
    Wrong("arm_without_return", fails={BRANCH: "though your code also computed the y the statement returns"},
          edits={"        return x_value * w\n": "        y = x_value * w\n"},
          names=("y (x > 0) is the other branch's y", "that y was not returned"),
          unsaid=("your if picked the branch",)),
]

# grad_fn_chain keeps its names on y and hands out a copy on a later call with that y ("a graph is
# fixed once built"): an in-place op on y since gave it a new grad_fn, and the copy is the old chain.
CASES += [
    Wrong("chain_kept_on_y", fails={"grad_fn_chain on other graphs": "returned what the call before that change returned"},
          edits={"    names: list[str] = []\n    node = y.grad_fn\n":
                 "    if hasattr(y, \"chain_names\"):\n        return list(y.chain_names)\n"
                 "    names: list[str] = []\n    y.chain_names = names\n    node = y.grad_fn\n"},
          names=("y.mul_(2), grad_fn_chain(y) returned what the call before that change returned", "kept between calls")),
]

# The product computed in the if, but its return indented into the else: branch returns None for
# x > 0. Told as None returned in place of the Value computed, not as another Value returned.
CASES += [
    Wrong("branch_return_in_else", fails={BRANCH: "y (x > 0) is None"},
          edits={IF + "        return x_value * w\n    return (x_value - w).exp()\n":
                 IF + "        y = x_value * w\n    else:\n        y = (x_value - w).exp()\n        return y\n"},
          names=("returned None in its place",), unsaid=("returned another Value", "of type NoneType")),
]

# The walk looks at the first two entries of next_functions only: on a node of three inputs whose
# first two are data (a clamp's number and its min), it stops where the third leads on.
CASES += [
    Wrong("first_two_entries_only", fails={"grad_fn_chain on other graphs": "ends at ClampBackward0"},
          edits={FIRST: "        nf = node.next_functions\n"
                        "        node = nf[0][0] if nf[0][0] is not None else (nf[1][0] if len(nf) > 1 else None)\n"},
          names=("grad_fn_chain(y) ends at ClampBackward0", "first entry that is not None")),
    # branch clears the caller's w.grad: a gradient accumulated there is lost
    Wrong("branch_clears_w_grad", names=("set w.grad to None",), fails={BRANCH: "set w.grad to None",
                                                                     BRANCH_HIDDEN: "set w.grad to None"},
          edits={IF: "    w.grad = None  # a new graph: clear the old gradient\n" + IF}),
    # grad_fn_chain runs a backward through the y it reads: it adds into w.grad
    Wrong("chain_calls_backward", names=("grad_fn_chain(y) wrote into w.grad",),
          fails={"grad_fn_chain on other graphs": "grad_fn_chain(y) wrote into w.grad"},
          edits={"    names: list[str] = []\n": "    names: list[str] = []\n    if y.requires_grad:\n"
                                                 "        y.backward(retain_graph=True)  # check the graph is whole first\n"}),
    # double_until zeroes the caller's w.grad in place before its loop
    Wrong("loop_zeroes_w_grad", names=("zeroed w.grad",), fails={LOOP: "double_until(w, limit) zeroed w.grad",
                                                                  LOOP_HIDDEN: "double_until(w, limit) zeroed w.grad"},
          edits={LOOP_LINE: "    if w.grad is not None:\n        w.grad.zero_()\n" + LOOP_LINE}),
]

# branch keeps each y by its x in a module-level dict: a later call with that x returns the y built on an earlier
# call's w, told as reaching that earlier w, not as a Value the student's code made requiring grad
CASES += [
    Wrong("branch_cached_by_x", fails={"branch picks the operation": "the w given to an earlier call of branch"},
          edits={"def branch(x: float, w: Value) -> Value:\n": "_CACHE: dict = {}\n\n\ndef branch(x: float, w: Value) -> Value:\n"
                 "    if x in _CACHE:\n        return _CACHE[x]\n    _CACHE[x] = _branch(x, w)\n    return _CACHE[x]\n\n\n"
                 "def _branch(x: float, w: Value) -> Value:\n"},
          names=("reaches the w given to an earlier call of branch",), unsaid=("a Value your code made requiring grad",)),
]

# The doublings counted from 0.0: the loop is the statement's, the count a float where it is an int.
CASES += [
    Wrong("count_a_float", names=("double_until(w, limit)[1]", "of type float, not an int"),
          fails={LOOP: "yours is of type float, not an int", LOOP_HIDDEN: "yours is of type float, not an int"},
          edits={"    steps = 0\n": "    steps = 0.0\n"}),
]

# The doublings computed by a formula, ceil(log2(limit / w)), then run in a for loop: where w is above
# the limit the count is below zero (a range of it runs nothing), told with that case, not as a bare number.
CASES += [
    Wrong("count_by_log2", names=("double_until(w, limit)[1] is below zero for w above the limit",),
          fails={LOOP: "is below zero for w above the limit", LOOP_HIDDEN: "is below zero for w above the limit"},
          edits={"    steps = 0\n" + LOOP_LINE + DOUBLE + "        steps += 1\n":
                 "    import math\n    steps = math.ceil(math.log2(limit / w.item()))\n    for _ in range(steps):\n" + DOUBLE}),
]

# grad_fn_chain detaches the y it was given once it has read it: every chain it returns is right, but the caller's
# y is cut off its graph, and reading y again finds no graph. Told as that, not as state kept between calls.
CASES += [
    Wrong("chain_detaches_the_y_given", names=("grad_fn_chain(y) cut y off its graph", "detach_()"),
          fails={CHAIN: "grad_fn_chain(y) cut y off its graph"}, unsaid=("state kept between calls",),
          edits={"    return names\n": "    y.detach_()\n    return names\n"}),
]

# What branch or double_until returned is not a Value (None where no arm ran, a float, a tuple, a count in y's
# place), or is the very leaf this call was given: told by what it is, with no story of a Value's graph or
# number (no detach(), no "another Value", no loop stopped short, nothing kept between calls).
POSITIVE, NEGATIVE = "        return x_value * w\n", "    return (x_value - w).exp()\n"
CASES += [
    Wrong("branch_misses_zero", names=("y (x = 0) is of type NoneType",), unsaid=("detach()",),
          fails={BRANCH: "y (x = 0) is of type NoneType"},
          edits={NEGATIVE: "    if x < 0:\n        return (x_value - w).exp()\n    return None\n"}),
    Wrong("branch_returns_a_float", names=("is of type float, not a Value",), unsaid=("another Value",),
          fails={BRANCH: "is of type float, not a Value"},
          edits={POSITIVE: "        return (x_value * w).item()\n", NEGATIVE: "    return (x_value - w).exp().item()\n"}),
    Wrong("branch_returns_a_tuple", names=("is of type tuple, not a Value",), unsaid=("another Value",),
          fails={BRANCH: "is of type tuple, not a Value"},
          edits={POSITIVE: "        return x_value * w,\n", NEGATIVE: "    return (x_value - w).exp(),\n"}),
    Wrong("double_returns_swapped", names=("The y double_until returned is of type int",), unsaid=("stopped doubling",),
          fails={LOOP: "The y double_until returned is of type int"},
          edits={"    return y, steps\n": "    return steps, y\n"}),
    Wrong("double_returns_w", names=("is still the leaf w given to double_until",), unsaid=("kept between calls",),
          fails={LOOP_HIDDEN: "is still the leaf w given to double_until"},
          edits={"    return y, steps\n": "    return w, steps\n"}),
]

# A student's reading of "an if on x" and "a while loop on y": the if on the Value x_value itself (its truth: any
# number but zero takes the product), the doubling done before the test (a do-while: one doubling even where w is
# at or above the limit), the loop bounded by range(int(limit)) (fewer doublings than a small w needs), y's next
# number built from y.item() (a new Value no graph records); and two right ones written otherwise.
STEPS_LOOP = LOOP_LINE + DOUBLE + "        steps += 1\n"
CASES += [
    Wrong("branch_on_truthiness", names=("y (x < 0) is the other branch's y", "the other side of x > 0"),
          fails={BRANCH: "y (x < 0) is the other branch's y"},
          edits={IF: "    if x_value:  # x_value 不是零就走乘法\n"}),
    Wrong("double_then_check", names=("y (w above the limit) is not a leaf", "a doubling of a y that was no longer below the limit"),
          fails={LOOP: "y (w above the limit) is not a leaf"},
          edits={STEPS_LOOP: "    while True:  # 先翻倍再判断\n" + DOUBLE + "        steps += 1\n"
                             "        if y >= limit:\n            break\n"}),
    Wrong("for_bounded_by_int_limit", names=("is still below the limit: your loop stopped doubling before y reached it",),
          fails={"the loop's graph and gradient": "is still below the limit"},
          edits={STEPS_LOOP: "    for _ in range(int(limit)):\n        if y >= limit:\n            break\n"
                             + DOUBLE + "        steps += 1\n"}),
    Wrong("double_from_item", names=("was not recorded by the graph", "no grad_fn"),
          fails={LOOP: "was not recorded by the graph"},
          edits={DOUBLE: "        y = Value(y.item() * 2)\n"}),
    Correct("count_with_break_and_rmul",
            edits={"    y = w\n    steps = 0\n" + STEPS_LOOP + "    return y, steps\n":
                   "    import itertools\n    y = w\n    for steps in itertools.count():\n        if not y < limit:\n"
                   "            return y, steps\n        y = 2 * y\n"}),
    Correct("branch_by_item_and_sub",
            edits={IF + "        return x_value * w\n    return (x_value - w).exp()\n":
                   "    y = x_value * w if x_value.item() > 0 else x_value.sub(w).exp()\n    return y\n"}),
]

# The doubling done on y's number through .data (y is w): no graph records it, and the caller's leaf w itself now
# holds the doubled number; and the loop's test on int(y), which goes on doubling a y above a limit it truncates below.
CASES += [
    Wrong("double_the_data_in_place", names=("double_until(w, limit) changed the number w holds", "is still the leaf w"),
          fails={LOOP_HIDDEN: "double_until(w, limit) changed the number w holds"},
          edits={DOUBLE: "        y.data *= 2  # 只改数值，不建新的计算图\n"}),
    Wrong("loop_on_int_of_y", names=("y (w above the limit) is not a leaf", "a doubling of a y that was no longer below the limit"),
          fails={"the loop's graph and gradient": "y (w above the limit) is not a leaf"},
          edits={LOOP_LINE: "    while int(y) < limit:\n"}),
]

# grad_fn_chain with a set of nodes seen as a default argument (to stop on a cycle): a later call on a graph an
# earlier call walked stops at once; names added with += (a str's characters); names put first (insert(0, ...)).
# branch keeps the first w it is given in a module dict (a parameter "registered once"); double_until detaches
# each old y once the next is made, which leaves the y returned its whole graph (as in torch): full marks.
CASES += [
    Wrong("chain_seen_in_a_default_set", fails={CHAIN: "depends on state kept between calls"},
          edits={"def grad_fn_chain(y: Value) -> list[str]:": "def grad_fn_chain(y: Value, seen: set = set()) -> list[str]:",
                 "        names.append(node.name())\n": "        if node in seen:\n            break\n        seen.add(node)\n"
                                                       "        names.append(node.name())\n"},
          names=("grad_fn_chain returned something else than the same call returns in a fresh import",)),
    Wrong("chain_extends_by_characters", fails={CHAIN: "holds single characters where the statement's holds node names"},
          edits={"        names.append(node.name())\n": "        names += node.name()\n"},
          names=("grad_fn_chain(y) holds single characters", "character by character"), unsaid=("more entries",)),
    Wrong("chain_built_front_first", fails={CHAIN: "in another order"},
          edits={"        names.append(node.name())\n": "        names.insert(0, node.name())\n"},
          names=("grad_fn_chain(y) holds the statement's entries, but in another order",)),
    Wrong("branch_keeps_first_w", fails={BRANCH: "depends on state kept between calls"},
          edits={"    x_value = Value(x)\n    if x_value > 0:": "    w = _PARAMS.setdefault(\"w\", w)\n    x_value = Value(x)\n"
                                                            "    if x_value > 0:",
                 "def branch(": "_PARAMS = {}\n\n\ndef branch("},
          names=("the w given to an earlier call of branch",)),
    Correct("loop_detaches_each_old_y", edits={DOUBLE + "        steps += 1\n": "        new = y * 2\n        if y is not w:\n"
                                               "            y.detach_()\n        y = new\n        steps += 1\n"}),
]

# The count kept in a default list every call adds to; the factor 2 a module-level leaf that requires grad (its
# graph reaches a leaf the statement's has not). The factor a module-level Value that requires no grad, and
# x_value detached in place (a leaf requiring no grad: nothing to cut): full marks.
CASES += [
    Wrong("steps_in_a_default_list", fails={LOOP: "depends on state kept between calls"},
          edits={"def double_until(w: Value, limit: float) -> tuple[Value, int]:":
                 "def double_until(w: Value, limit: float, count: list = [0]) -> tuple[Value, int]:",
                 "    steps = 0\n": "", "        steps += 1\n": "        count[0] += 1\n", "    return y, steps\n": "    return y, count[0]\n"},
          names=("double_until", "state kept between calls", "double_until(w, limit)[1]")),
    Wrong("two_as_a_global_leaf", fails={LOOP: "takes a Value your code made requiring grad"},
          edits={DOUBLE: "        y = y * _TWO\n", "def double_until(": "_TWO = Value(2.0, requires_grad=True)\n\n\ndef double_until("},
          names=("'s graph reaches a leaf the statement's does not", "MulBackward0")),
    Correct("two_as_a_global_constant", edits={DOUBLE: "        y = y * _TWO\n",
                                               "def double_until(": "_TWO = Value(2.0)\n\n\ndef double_until("}),
    Correct("x_value_detached_in_place", edits={"    x_value = Value(x)\n": "    x_value = Value(x)\n    x_value.detach_()\n"}),
]

# the loop goes on while y is below four times the limit: two doublings past the limit, told as doubling on
# where the statement's loop stops, never as one doubling more
CASES += [Wrong("loop_to_four_limits", fails={LOOP: "went through a doubling of a y that was no longer below the limit"},
                names=("went through a doubling of a y that was no longer below the limit",
                       "your code went on doubling y where the statement's loop stops"),
                unsaid=("once more", "one doubling too many"),
                edits={LOOP_LINE: "    while y < limit * 4:\n"})]

# x_value left a plain float: x_value - w records RsubBackward1 (number minus Value), told as such, where
# only the node's name was said
CASES += [Wrong("x_value_a_float", fails={BRANCH: "your graph has RsubBackward1 there, the node of a plain Python number minus a Value"},
                names=("RsubBackward1", "a plain Python number minus a Value"),
                edits={"    x_value = Value(x)\n": "    x_value = x\n"})]

# grad_fn_chain listing each name once (dict.fromkeys): its chain of (c * (w * w)).sin() ends at the product whose
# first input is c, as a walk that stopped at that None would, but it went on; told as the name it holds once where
# the walk meets two nodes of it, and the None where the chain ends (true of both), never as stopped.
CASES += [Wrong("chain_names_listed_once", fails={CHAIN: "grad_fn_chain(y) holds MulBackward0 once"},
                names=("for y = (c * (w * w)).sin(), grad_fn_chain(y) holds MulBackward0 once",
                       "meets MulBackward0 more than once"),
                unsaid=("the walk stopped there", "fewer entries"),
                edits={"    return names\n": "    return list(dict.fromkeys(names))\n"})]
# retain_grad() on the y each iteration makes, or on branch's result: no test reads their .grad, nothing the
# statement asks changes
CASES += [Correct("retain_grad_in_loop", edits={"        y = y * 2\n": "        y = y * 2\n        y.retain_grad()\n"}),
          Correct("retain_grad_on_branch", edits={"        return x_value * w": "        y = x_value * w\n        y.retain_grad()\n        return y"})]

# grad_fn_chain taking next_functions[0][0] blindly: its chain of (c * (w * w)).sin() stops at the product whose first
# input is c, and holds MulBackward0 once where the statement's walk meets two; told with the None it stopped at
CASES += [Wrong("chain_first_entry_blind", fails={CHAIN: "and ends at MulBackward0, whose first entry of next_functions is None"},
                names=("grad_fn_chain(y)", "first entry of next_functions is None"),
                edits={FIRST: "        node = node.next_functions[0][0]\n"})]
