"""ex01 gallery: plausible wrong answers and correct variants (format: gallery_case.py)."""

from gallery_case import LEAVES_KEPT_IN_A_GLOBAL, Correct, Wrong

GRAPH = "build_graph records y = (x + w) * (w + 1)"
BACKPROP = "backprop gives dy/dw and dy/dx"
CHAIN = "chain rule by paths on the documents' graph"

CASES = [
    Wrong("a_and_b_exchanged", names=("returned as a and b are exchanged",), fails={"build_graph records y = (x + w) * (w + 1)": "are exchanged"},
          unsaid=("graph differs",),  # y is built right, at a == b too
          edits={'    return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y}\n': '    return {"w": w_leaf, "x": x_leaf, "a": b, "b": a, "y": y}\n'}),
    # the dict's a holds b: y's graph is the statement's, matched by position, and only the name is told
    Wrong("a_holds_b", names=("returned as a", "the very one returned as b"), unsaid=("graph differs",),
          fails={GRAPH: "one Value under two names", "the graph on other inputs": "one Value under two names"},
          edits={'    return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y}\n': '    return {"w": w_leaf, "x": x_leaf, "a": b, "b": b, "y": y}\n'}),
    # backprop runs the student's build_graph, as the statement asks: a slip there is said to be
    # build_graph's, and the numbers backprop passes on are watched
    Wrong("a_as_product", names=("this test runs your build_graph too", "a was made by MulBackward0"),
          fails={GRAPH: "a was made by MulBackward0", BACKPROP: "this test runs your build_graph too"},
          edits={"    a = micrograph.add(x_leaf, w_leaf)\n": "    a = micrograph.mul(x_leaf, w_leaf)\n"}),
    Wrong("arguments_exchanged", names=("backprop called build_graph with w and x exchanged",),
          fails={BACKPROP: "backprop called build_graph with w and x exchanged"},
          edits={"    g = build_graph(w, x)\n": "    g = build_graph(x, w)\n"}),
    Wrong("grads_as_values", names=("backprop(w, x)[0]", "Value", "float"),  # the statement asks for two floats
          fails={BACKPROP: "backprop(w, x)[0] is of type Value, not a Python float"},
          edits={'    return g["w"].grad.item(), g["x"].grad.item()': '    return g["w"].grad, g["x"].grad'}),
    Wrong("formula_backprop", names=('backprop ran no backward pass',), fails={BACKPROP: "backprop ran no backward pass"},
          edits={'''    g["y"].backward()
    return g["w"].grad.item(), g["x"].grad.item()''': "    return 2 * w + x + 1, w + 1"}),
    Wrong("floats_graph", names=('a is a leaf', "y's graph never reaches w"), fails={GRAPH: "y's graph never reaches w"},
          edits={"""    a = micrograph.add(x_leaf, w_leaf)
    b = micrograph.add(w_leaf, 1)
    y = micrograph.mul(a, b)""": """    a = Value(x + w, requires_grad=True)
    b = Value(w + 1, requires_grad=True)
    y = Value((x + w) * (w + 1), requires_grad=True)"""}),
    Wrong("new_leaf_b", names=('b is a leaf',), fails={GRAPH: "b is a leaf (no grad_fn)"},
          edits={"b = micrograph.add(w_leaf, 1)": "b = Value(w + 1, requires_grad=True)"}),
    Wrong("b_under_no_grad", names=('grad mode was off (no_grad) while build_graph ran', 'b was not recorded'), fails={GRAPH: "grad mode was off (no_grad) while build_graph ran"},
          edits={"    b = micrograph.add(w_leaf, 1)": """    with micrograph.no_grad():
        b = micrograph.add(w_leaf, 1)"""}),
    Wrong("backward_in_build", names=('build_graph started a backward pass',), fails={GRAPH: "build_graph started a backward pass"},
          edits={"    y = micrograph.mul(a, b)\n": "    y = micrograph.mul(a, b)\n    y.backward(retain_graph=True)\n",
                 '    g["y"].backward()\n': ""}),
    Wrong("hardcoded_paths", fails={"paths in other graphs": "for y = w*w + x*w, paths(y, w) has fewer entries"},
          names=("paths(y, w)",),
          edits={"    walk(y.grad_fn, [])\n": """    for node, _ in y.grad_fn.next_functions:  # written for y = a * b, a and b sums of leaves
        if any(getattr(c, "variable", None) is leaf for c, _ in node.next_functions if c):
            found.append(["MulBackward0", "AddBackward0"])
"""}),
    # nodes before leaves among one node's inputs: the statement keeps next_functions' order
    Wrong("paths_nodes_before_leaves", names=("paths(y, w)", "in another order"),
          fails={"paths in other graphs": "for y = w * (x + w), paths(y, w) holds the statement's entries, but in "
                                          "another order"},
          edits={"for child in _inputs(node):": "for child in sorted(_inputs(node), key=lambda c: hasattr(c, 'variable')):"}),
    Wrong("first_input_only", fails={"paths from y to w and to x": "paths(y, w) is empty",
                                     CHAIN: "for y = (x + w) * (w + 1), grad_by_paths(y, w) leaves out every path "
                                            "that enters a node through its last input"},
          names=("paths(y, w)", "grad_by_paths(y, w)"),
          edits={"for child in _inputs(node):": "for child in _inputs(node)[:1]:",
                 "enumerate(node.next_functions)": "enumerate(node.next_functions[:1])"}),
    Wrong("backward_in_grad_by_paths", names=('grad_by_paths started a backward pass',), fails={CHAIN: "grad_by_paths started a backward pass"},
          edits={"    def produced_by(node) -> Value:": """    before = 0.0 if leaf.grad is None else leaf.grad.item()
    y.backward(retain_graph=True)
    return leaf.grad.item() - before

    def produced_by(node) -> Value:"""}),
    Wrong("own_factor", fails={"chain rule by paths in other graphs": "for y = w * x, grad_by_paths(y, w) is the sum over "
                                   "the paths with, at each MulBackward0, the data of the input the path goes through as the local factor",
                               # the public test names it too, on the documents' graph, where dy/dx shows it
                               CHAIN: "for y = (x + w) * (w + 1), grad_by_paths(y, x) is the sum over the paths with, at each "
                                      "MulBackward0, the data of the input the path goes through as the local factor"},
          names=("grad_by_paths", "MulBackward0", "the data of the input the path goes through"),
          edits={"other = node.next_functions[1 - i][0]": "other = node.next_functions[i][0]"}),
    Wrong("paths_end_at_accumulate", names=('paths(y, w)[0]', 'more entries'), fails={"paths from y to w and to x": "paths(y, w)[0] has more entries"},
          edits={"found.append(trail)": "found.append(trail + [child.name()])"}),
    Wrong("paths_last_input_only", names=('paths(y, w)', 'fewer entries'), fails={"paths in other graphs": "has fewer entries than the statement's"},
          edits={"for child in _inputs(node):": "for child in _inputs(node)[-1:]:"}),
    Wrong("paths_leaf_first", names=('paths(y, w)[0]', 'in another order'), fails={"paths from y to w and to x": "in another order"},
          edits={"found.append(trail)": "found.append(trail[::-1])"}),
    Wrong("count_paths", names=('grad_by_paths(y, w)', 'MulBackward0', 'one as the local factor'),
          fails={CHAIN: "for y = (x + w) * (w + 1), grad_by_paths(y, w) is the sum over the paths with, at each "
                        "MulBackward0, one as the local factor (as at an addition)",
                 "chain rule by paths in other graphs":
                 "for y = w * x, grad_by_paths(y, w) is the sum over the paths with, at each "
                 "MulBackward0, one as the local factor (as at an addition)"},
          edits={"            other = node.next_functions[1 - i][0]\n            return produced_by(other).item()":
                 "            return 1.0"}),
    # backward forgotten: the .grad read is None, told as that, not by Python's error alone
    Wrong("backward_forgotten", names=("backprop read w.grad, which is None", "ran no backward pass"),
          fails={BACKPROP: "backprop read w.grad, which is None: it ran no backward pass before this error"},
          edits={'    g["y"].backward()\n': ""}),
    Wrong("grad_set_by_hand", names=('backprop ran no backward pass',), fails={BACKPROP: "backprop ran no backward pass"},
          edits={'''    g["y"].backward()
    return g["w"].grad.item(), g["x"].grad.item()''': '''    g["w"].grad = Value(2 * w + x + 1)
    g["x"].grad = Value(w + 1)
    return g["w"].grad.item(), g["x"].grad.item()'''}),
    Correct("operands_swapped", edits={"a = micrograph.add(x_leaf, w_leaf)": "a = micrograph.add(w_leaf, x_leaf)",
                                       "y = micrograph.mul(a, b)": "y = micrograph.mul(b, a)"}),
    Correct("autograd_grad", edits={'''    g["y"].backward()
    return g["w"].grad.item(), g["x"].grad.item()''': '''    dw, dx = micrograph.autograd.grad(g["y"], [g["w"], g["x"]])
    return dw.item(), dx.item()'''}),
    Correct("operators_and_grad"),
    Correct("recursive_memo"),
    Wrong("formula_after_backward", names=('backprop(w, x)', 'not one the engine produced'),  # backward runs, but the numbers returned are written down
          fails={BACKPROP: "is not one the engine produced"},
          edits={'    return g["w"].grad.item(), g["x"].grad.item()\n':
                 "    return 2 * w + x + 1, w + 1\n"}),
    # from-imports of every name, and typing's aliases in the annotations
    Correct("star_import_and_typing_aliases", edits={"import micrograph\nfrom micrograph import Value\n": "import micrograph\nfrom micrograph import *\nfrom typing import Dict, Tuple\n",
                                                     "def build_graph(w: float, x: float) -> dict[str, Value]:": "def build_graph(w: float, x: float) -> Dict[str, Value]:",
                                                     "def backprop(w: float, x: float) -> tuple[float, float]:": "def backprop(w: float, x: float) -> Tuple[float, float]:"}),
]

# Mistakes of other kinds: one function wrong, state kept between calls, a boundary.
CASES += [
    Wrong("build_graph_times_one",  # a slip in build_graph fails build_graph's tests only
          fails={GRAPH: "y's graph differs at b: your graph has MulBackward0 there"},
          edits={"b = micrograph.add(w_leaf, 1)": "b = micrograph.mul(w_leaf, 1)"},
          names=("b", "MulBackward0")),
    Wrong("paths_by_equality",  # == compares numbers: a leaf of the same value matches too
          fails={"paths in other graphs": "for y = w * x + x (w == x), paths(y, w) has more entries"},
          edits={'if getattr(child, "variable", None) is leaf:':
                 'if hasattr(child, "variable") and bool(child.variable == leaf):'},
          names=("paths(y, w)", "more entries")),
    Wrong("leaves_kept_in_a_global",  # the leaves made once and reused: .data overwritten
          fails={"the graph on other inputs": "build_graph was called again",
                 # backprop keeps nothing itself: the state is told as build_graph's
                 "backprop on other inputs": "the state is kept by your build_graph, which it calls"},
          edits=LEAVES_KEPT_IN_A_GLOBAL,
          names=("build_graph", "state")),
]


# Plausible mistakes of more kinds, each graded as a student reads it: state kept between calls
# (a default argument, a module-level or class-level store), generic list and generator bugs,
# off-by-one, a wrong operand or flag; and correct answers written another way.
CASES += [
    Wrong('paths_default_list', fails={'paths from y to w and to x': 'paths(y, x) has more entries',
                                       'paths in other graphs': 'what a first call of paths returned changed'},
          edits={'def paths(y: Value, leaf: Value) -> list[list[str]]:\n    """Every path from y down to ``leaf``, as the names of the grad_fn nodes it passes through."""\n    found: list[list[str]] = []\n': 'def paths(y: Value, leaf: Value, found: list = []) -> list[list[str]]:\n    """Every path from y down to ``leaf``, as the names of the grad_fn nodes it passes through."""\n'},
          names=('paths(y, x)', 'more entries', 'called again'),
          unsaid=('appended the same list more than once',)),  # w * w's two paths: one list, rightly
    Wrong('paths_shared_trail', fails={'paths from y to w and to x': 'paths(y, w) holds one list object as several of its entries'},
          edits={'        trail = trail + [node.name()]\n': '        trail.append(node.name())\n', '                walk(child, trail)\n': '                walk(child, trail)\n        trail.pop()\n'},
          names=('paths(y, w)', 'the same list more than once', 'not a copy')),
    Wrong('paths_generator', fails={'paths from y to w and to x': 'yours is of type generator'},
          edits={'    walk(y.grad_fn, [])\n    return found': '    walk(y.grad_fn, [])\n    return (p for p in found)'},
          names=('paths(y, w)', 'generator')),
    Wrong('grad_by_paths_equality', fails={'chain rule by paths in other graphs': 'for y = w * x + x (w == x), grad_by_paths(y, w) also counts the paths that end at the other leaf'},
          edits={'return 1.0 if node.variable is leaf else 0.0': 'return 1.0 if bool(node.variable == leaf) else 0.0'},
          names=('grad_by_paths(y, w)', 'w * x + x (w == x)', 'equal (==)')),
    Wrong('sum_taken_for_a_product', fails={'chain rule by paths in other graphs': "the other input's data as the local factor, as at a product"},
          edits={'        if node.name().startswith("Mul"):\n            other = node.next_functions[1 - i][0]\n            return produced_by(other).item()\n        return 1.0':
                 '        other = node.next_functions[1 - i][0] if len(node.next_functions) == 2 else None\n        return produced_by(other).item() if other is not None else 1.0'},
          names=('grad_by_paths(y, w)', 'AddBackward0 of two Values')),
    Wrong('local_derivatives_added', fails={'chain rule by paths in other graphs': 'added together, not multiplied'},
          edits={'            local(node, i) * d(child)\n':
                 '            (local(node, i) if node.name().startswith("Mul") else 0.0) * _paths_to(child) + d(child)\n',
                 '    return d(y.grad_fn)': '    def _paths_to(node) -> float:\n        if hasattr(node, "variable"):\n            return float(node.variable is leaf)\n        return sum(_paths_to(c) for c, _ in node.next_functions if c is not None)\n\n    return d(y.grad_fn)',
                 '            return 1.0 if node.variable is leaf else 0.0\n        return sum(': '            return 0.0\n        return sum('},
          names=('added together, not multiplied',)),
    Wrong('paths_without_the_root', fails={'paths from y to w and to x': "paths(y, w)[0] holds the statement's entries without its first one"},
          edits={'    walk(y.grad_fn, [])\n': '    for child in _inputs(y.grad_fn):\n        walk(child, [])\n'},
          names=('paths(y, w)[0]', 'without its first one')),
    Wrong('grad_by_paths_equal_numbers', fails={'chain rule by paths in other graphs': 'which holds the same number'},
          edits={'return 1.0 if node.variable is leaf else 0.0': 'return 1.0 if node.variable.item() == leaf.item() else 0.0'},
          names=('grad_by_paths(y, w)', 'the other leaf', 'equal (==)'), unsaid=('is a different number',)),
    Wrong('graph_dict_default', fails={'the graph on other inputs': 'what a first call of build_graph returned changed'},
          edits={'def build_graph(w: float, x: float) -> dict[str, Value]:': 'def build_graph(w: float, x: float, g: dict = {}) -> dict[str, Value]:', '    return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y}': '    g.update({"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y})\n    return g'},
          names=('build_graph', 'called again')),
    Wrong('memo_by_name', fails={"chain rule by paths on the documents' graph": 'grad_by_paths(y, x) is a different number'},
          edits={'    def d(node) -> float:\n': '    memo: dict[str, float] = {}\n\n    def d(node) -> float:\n', '        return sum(\n            local(node, i) * d(child)\n            for i, (child, _) in enumerate(node.next_functions)\n            if child is not None\n        )': '        if node.name() not in memo:\n            memo[node.name()] = sum(\n                local(node, i) * d(child)\n                for i, (child, _) in enumerate(node.next_functions)\n                if child is not None\n            )\n        return memo[node.name()]'},
          names=('grad_by_paths(y, x)',)),
    Correct('hook_that_watches', edits={'    g["y"].backward()\n': '    seen = []\n    g["w"].register_hook(lambda grad: seen.append(grad.item()))\n    g["y"].backward()\n'}),
]

# More plausible slips: the pair returned in the other order, every leaf counted as the one
# asked about, only the first path kept, backward run twice, b built from the other leaf.
CASES += [
    Wrong('backprop_swapped', fails={'backprop gives dy/dw and dy/dx': "backprop(w, x) holds the statement's entries, but in another order"},
          edits={'    return g["w"].grad.item(), g["x"].grad.item()': '    return g["x"].grad.item(), g["w"].grad.item()'},
          names=('backprop(w, x)', 'in another order')),
    Wrong('every_leaf_counts', fails={"chain rule by paths on the documents' graph": 'grad_by_paths(y, w) also counts the paths '
                                                                                    'that end at the other leaves'},
          edits={'            return 1.0 if node.variable is leaf else 0.0': '            return 1.0'},
          names=('grad_by_paths(y, w)', 'the other leaves')),
    Wrong('first_path_only', fails={'paths in other graphs': 'paths(y, w) has fewer entries'},
          edits={'    walk(y.grad_fn, [])\n    return found': '    walk(y.grad_fn, [])\n    return found[:1]'},
          names=('paths(y, w)', 'fewer entries')),
    Wrong('backward_twice_retained', fails={'backprop gives dy/dw and dy/dx': 'backprop ran backward more times'},
          edits={'    g["y"].backward()\n    return g["w"]': '    g["y"].backward(retain_graph=True)\n    g["y"].backward()\n    return g["w"]'},
          names=('backprop ran backward more times',)),
    Wrong('b_from_x', fails={'build_graph records y = (x + w) * (w + 1)': "y's graph differs at b: your AddBackward0 takes the leaf x where the statement's takes w"},
          edits={'    b = micrograph.add(w_leaf, 1)': '    b = micrograph.add(x_leaf, 1)'},
          names=('b', 'AddBackward0 takes the leaf x where the statement\'s takes w')),
]


# Answers kept by w alone, in a default argument: a later call with that w and another x gets them.
CASES += [
    Wrong('backprop_cached_by_w',
          fails={'backprop on other inputs': 'in a fresh import of your code'},
          edits={'def backprop(w: float, x: float) -> tuple[float, float]:\n':
                 'def backprop(w: float, x: float, _cache={}) -> tuple[float, float]:\n'
                 '    if w in _cache:\n        return _cache[w]\n',
                 '    return g["w"].grad.item(), g["x"].grad.item()':
                 '    _cache[w] = g["w"].grad.item(), g["x"].grad.item()\n    return _cache[w]'},
          names=('backprop', 'state kept')),
]


# A graph memoised on its inputs: a later call with the same numbers gets the graph an earlier
# call made (and whose backward already ran); a list kept in a default argument of paths; a
# function that ends without its return.
CASES += [
    Wrong('graph_memoised_on_inputs',
          fails={GRAPH: 'is still the w an earlier call of build_graph returned',  # backprop's errors: build_graph's state
                 BACKPROP: 'backprop called build_graph, which returned what an earlier call of build_graph returned',
                 'backprop on other inputs': 'returned what an earlier call of build_graph returned'},
          edits={'def build_graph(w: float, x: float) -> dict[str, Value]:\n':
                 '_GRAPHS: dict = {}\n\n\ndef build_graph(w: float, x: float) -> dict[str, Value]:\n'
                 '    if (w, x) in _GRAPHS:\n        return _GRAPHS[w, x]\n',
                 '    return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y}':
                 '    _GRAPHS[w, x] = {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y}\n    return _GRAPHS[w, x]'},
          names=('build_graph', 'an earlier call')),
    Wrong('paths_in_a_default_list',
          fails={'paths from y to w and to x': 'what a first call of paths returned changed'},
          edits={'def paths(y: Value, leaf: Value) -> list[list[str]]:':
                 'def paths(y: Value, leaf: Value, found: list = []) -> list[list[str]]:',
                 '    found: list[list[str]] = []\n': ''},
          names=('paths', 'state kept between calls')),
    Wrong('backprop_without_return', fails={BACKPROP: 'backprop returned None'},
          edits={'    return g["w"].grad.item(), g["x"].grad.item()':
                 '    dw, dx = g["w"].grad.item(), g["x"].grad.item()'},
          names=('backprop returned None',)),
]


# A product's local derivative taken as the factor's own data instead of the other factor's:
# told first on y = w * x, a single product.
CASES += [
    Wrong('product_uses_own_factor',
          fails={'chain rule by paths in other graphs': "for y = w * x, grad_by_paths(y, w) is the sum over the paths with, "
                                                         "at each MulBackward0, the data of the input"},
          edits={'            other = node.next_functions[1 - i][0]': '            other = node.next_functions[i][0]'},
          names=('grad_by_paths', 'y = w * x', 'MulBackward0')),
]


# grad_by_paths memoises each node's derivative in a module-level dict keyed by id(node): a call
# for x on the graph of an earlier call for w returns what that call stored.
CASES += [
    Wrong("memo_per_node_in_a_global",
          fails={"chain rule by paths on the documents' graph": "depends on state kept between calls"},
          edits={'        if hasattr(node, "variable"):\n            return 1.0 if node.variable is leaf else 0.0\n        return sum(\n':
                 '        if id(node) in _MEMO:\n            return _MEMO[id(node)]\n'
                 '        if hasattr(node, "variable"):\n            return 1.0 if node.variable is leaf else 0.0\n'
                 '        _MEMO[id(node)] = sum(\n',
                 "            if child is not None\n        )\n":
                 "            if child is not None\n        )\n        return _MEMO[id(node)]\n",
                 "def grad_by_paths(": "_MEMO = {}\n\n\ndef grad_by_paths("},
          names=("grad_by_paths", "state kept between calls")),
]


# An off-by-one over next_functions: each node's last input is never walked, so every path that
# enters a node through it is left out (y = w * x gives no path to x; the documents' graph none to w,
# told so in the public test too).
CASES += [
    Wrong("last_input_never_walked",
          fails={"chain rule by paths in other graphs": "for y = w * x, grad_by_paths(y, x) leaves out every path "
                                                        "that enters a node through its last input",
                 CHAIN: "for y = (x + w) * (w + 1), grad_by_paths(y, w) leaves out every path that enters a node "
                        "through its last input"},
          edits={"enumerate(node.next_functions)": "enumerate(node.next_functions[:-1])"},
          names=("grad_by_paths(y, x)", "leaves out every path", "last input")),
    # a product's other factor found by identity, and for w * w the product divided by w
    Wrong("other_factor_by_division", fails={"chain rule by paths in other graphs": "ZeroDivisionError"}),
]

# One leaf kept per number: with w == x, build_graph returns one Value as both leaves; its own
# test says so, and backprop's says it runs that build_graph.
CASES += [
    Wrong("one_leaf_per_number",
          fails={"the graph on other inputs": "The Value returned as x (w == x) is the very one returned as w",
                 "backprop on other inputs": "This test runs your build_graph too"},
          edits={"    w_leaf = Value(w, requires_grad=True)\n    x_leaf = Value(x, requires_grad=True)\n":
                 "    made: dict[float, Value] = {}\n    w_leaf = made.setdefault(w, Value(w, requires_grad=True))\n"
                 "    x_leaf = made.setdefault(x, Value(x, requires_grad=True))\n"},
          names=("x (w == x)", "the very one returned as w")),
]

# paths returning None where no path reaches the leaf: the statement asks for the list of every
# path, an empty one there.
CASES += [
    Wrong("no_paths_as_none",
          fails={"paths in other graphs": "for y = w * w, paths(y, x) is None, where the statement's is not"},
          edits={"    walk(y.grad_fn, [])\n    return found": "    walk(y.grad_fn, [])\n    return found or None"},
          names=("for y = w * w, paths(y, x)", "None")),
]

# Kept between the calls of one walk or of several: a memo keyed by the node's name (two nodes
# of one name share it), one kept as an attribute of the graph's nodes (a second call on the same
# graph for another leaf reads the first call's numbers), and a path left out because its names
# repeat an earlier path's.
CASES += [
    Wrong("memo_by_node_name",
          fails={CHAIN: "grad_by_paths(y, w) is the sum over the paths with one derivative kept per node name",
                 "chain rule by paths in other graphs": "one derivative kept per node name"},
          edits={'    def d(node) -> float:\n        """d(node\'s output)/d(leaf): sum over this node\'s inputs of local * downstream."""\n': """    memo: dict[str, float] = {}

    def d(node) -> float:
        if node.name() not in memo:
            memo[node.name()] = d_once(node)
        return memo[node.name()]

    def d_once(node) -> float:
"""},
          names=("grad_by_paths(y, w)", "per node name", "the same derivative")),
    Wrong("memo_on_the_nodes",
          fails={CHAIN: "grad_by_paths(y, x), called on a graph after grad_by_paths(y, w) on it",
                 "chain rule by paths in other graphs": "on a new graph of the same numbers"},
          edits={'    def d(node) -> float:\n        """d(node\'s output)/d(leaf): sum over this node\'s inputs of local * downstream."""\n': """    def d(node) -> float:
        if not hasattr(node, "memo_d"):
            node.memo_d = d_once(node)
        return node.memo_d

    def d_once(node) -> float:
"""},
          names=("grad_by_paths(y, x)", "after grad_by_paths(y, w)", "left on the graph")),
    # paths' answer kept on y: a later call on that y, for another leaf, returns it again
    Wrong("paths_kept_on_y",
          fails={"paths from y to w and to x": "paths(y, x), called on a graph after paths(y, w) on it",
                 "paths in other graphs": "left on the graph"},
          edits={"    found: list[list[str]] = []\n": """    if hasattr(y, "paths_found"):
        return [list(p) for p in y.paths_found]
    found: list[list[str]] = []
    y.paths_found = found
"""},
          names=("paths(y, x)", "after paths(y, w)", "left on the graph")),
    # a product's first input's data taken as its local factor on both edges: the first input gets its own
    Wrong("first_factor_for_both",
          fails={CHAIN: "grad_by_paths(y, w) is the sum over the paths with, at a MulBackward0, the data of its first input",
                 "chain rule by paths in other graphs": "the path through the first input got that input's own data"},
          edits={"            other = node.next_functions[1 - i][0]\n": "            other = node.next_functions[0][0]\n"},
          names=("grad_by_paths(y, w)", "MulBackward0", "first input", "own data")),
    Wrong("paths_repeats_left_out",
          fails={"paths from y to w and to x": "paths(y, w) holds each of the statement's entries once",
                 "paths in other graphs": "leaves out an entry that repeats an earlier one"},
          edits={"                found.append(trail)\n": "                if trail not in found:\n                    found.append(trail)\n"},
          names=("paths(y, w)", "more than once", "repeats")),
]

# The Value a node made, looked up by its node's name: b's AddBackward0 finds a, made first.
CASES += [
    # on the documents' graph this slip's numbers are those of the next one: what is told there is what both do
    Wrong("data_found_by_node_name",
          fails={CHAIN: "grad_by_paths(y, w) is the sum over the paths with, at a MulBackward0, the data of its first input",
                 "chain rule by paths in other graphs": "found by its node's name"},
          edits={"        return next(v for v in values if v.grad_fn is node)":
                 "        return next(v for v in values if v.grad_fn is not None and v.grad_fn.name() == node.name())"},
          names=("grad_by_paths(y, w)", "MulBackward0", "node's name")),
]

# The first call's y kept in a module dict and backpropagated again by every later call, which
# then reads the .grad of its own new leaves: None, and .item() on it raises, from the second call on.
CASES += [
    Wrong("first_y_kept",
          fails={"backprop gives dy/dw and dy/dx": "backprop raised an error where the same call returns, as the first "
                                                  "call of a fresh import of your code"},
          edits={"def backprop(": "_LAST: dict = {}\n\n\ndef backprop(",
                 '    g = build_graph(w, x)\n    g["y"].backward()\n    return g["w"].grad.item(), g["x"].grad.item()':
                 '    g = build_graph(w, x)\n    _LAST.setdefault("y", g["y"]).backward(retain_graph=True)\n'
                 '    return g["w"].grad.item(), g["x"].grad.item()'},
          names=("backprop raised an error", "state kept between calls", "AttributeError")),
]

# grad_by_paths returns the leaf's .grad where one is set (a gradient another graph's backward
# left there), and walks the graph only where it is None.
CASES += [
    Wrong("held_grad_returned",
          fails={"chain rule by paths in other graphs": "is the number its leaf's .grad already held when the call began"},
          edits={'    def produced_by(node) -> Value:':
                 '    if leaf.grad is not None:\n        return leaf.grad.item()\n\n    def produced_by(node) -> Value:'},
          names=("grad_by_paths(y, w)", "already held", "another graph")),
]

# The same slip with math.isclose patched at import (everything "close"): the slip is matched with
# the grader's own isclose, bound before the file ran, so it is still told.
CASES += [
    Wrong("first_factor_isclose_patched",
          fails={CHAIN: "grad_by_paths(y, w) is the sum over the paths with, at a MulBackward0, the data of its first input"},
          edits={"            other = node.next_functions[1 - i][0]\n": "            other = node.next_functions[0][0]\n",
                 "import micrograph\n": "import math\n\nimport micrograph\n\nmath.isclose = lambda *a, **k: True\n"},
          names=("grad_by_paths(y, w)", "MulBackward0", "first input")),
    Wrong("full_width_space_indent", edits={"    y = micrograph.mul(a, b)\n": "\u3000\u3000y = micrograph.mul(a, b)\n"},
          fails={GRAPH: "full-width space U+3000 at line 60"},  # a Chinese input method's space, indenting a line
          names=("full-width space U+3000", "line 60")),
    Wrong("no_break_space", edits={"    y = micrograph.mul(a, b)\n": "    y =\u00a0micrograph.mul(a, b)\n"},
          fails={GRAPH: "no-break space U+00A0 at line 60"},  # copied with the code from a web page
          names=("no-break space U+00A0", "line 60")),
    Wrong("double_precision_copy", edits={"    y = micrograph.mul(a, b)\n": "    y = micrograph.mul(a, b.double())\n"},
          fails={GRAPH: "AttributeError at line 60 (in build_graph): 'Tensor' object has no attribute 'double'"},
          names=("no attribute 'double'",)),  # torch's conversions are not modelled: the error names the one called
    # the documents call a.retain_grad() where they build this graph: the graph and everything the
    # statement asks of it are the same, so it costs nothing
    Correct("retain_grad_on_a", edits={'    a = micrograph.add(x_leaf, w_leaf)\n': '    a = micrograph.add(x_leaf, w_leaf)\n    a.retain_grad()  # as the documents do\n'}),
    # ... and beside a slip, the slip alone is told
    Wrong("retain_grad_on_a_and_b_as_product", names=("b was made by MulBackward0",), unsaid=("retain_grad() was called",),
          fails={GRAPH: "b was made by MulBackward0"},
          edits={'    a = micrograph.add(x_leaf, w_leaf)\n': '    a = micrograph.add(x_leaf, w_leaf)\n    a.retain_grad()  # as the documents do\n', "    b = micrograph.add(w_leaf, 1)\n": "    b = micrograph.mul(w_leaf, 1)\n"}),
]

# A product's other factor taken as the product over its own factor, in Values: at a factor of zero
# that is 0/0, nan, told as what it is, not as another number.  And the paths' products kept one at a
# time, the last overwriting the rest: the graph whose leaves already hold a .grad is named with that note.
OTHER_FACTOR = "            return produced_by(other).item()\n"
CASES += [
    Wrong("other_factor_over_own_in_values", fails={"chain rule by paths in other graphs": "is nan (not a number)"},
          edits={OTHER_FACTOR: "            a, b = (produced_by(child) for child, _ in node.next_functions)\n"
                               "            return ((a * b) / (a, b)[i]).item()\n"},
          names=("grad_by_paths(y, w) is nan (not a number)",), unsaid=("grad_by_paths(y, w) is a different number",)),
    # each node keeps its last input's sum alone (a running total replaced, not added to): told as
    # the product along one path alone, or zero where that input does not lead to the leaf
    Wrong("last_path_only", fails={"chain rule by paths in other graphs": "(x + w) * (w + 1) (w and x already hold a .grad)",
                                   CHAIN: "grad_by_paths(y, w) is the product of the local derivatives along one path alone"},
          edits={"        return sum(\n": "        return [0.0, *(\n",
                 "            if child is not None\n        )\n": "            if child is not None\n        )][-1]\n"},
          names=("y = (x + w) * (w + 1) (w and x already hold a .grad)", "along one path alone"),
          unsaid=("a different number",)),
    Wrong("total_replaced", fails={CHAIN: "grad_by_paths(y, x) is zero, though paths from y reach that leaf",
                                   "chain rule by paths in other graphs": "along one path alone"},
          edits={"        return sum(\n            local(node, i) * d(child)\n            for i, (child, _) in enumerate(node.next_functions)\n"
                 "            if child is not None\n        )\n":
                 "        total = 0.0\n        for i, (child, _) in enumerate(node.next_functions):\n            if child is not None:\n"
                 "                total = local(node, i) * d(child)\n        return total\n"},
          names=("grad_by_paths(y, w)", "along one path alone"), unsaid=("a different number",)),
    Wrong("last_path_product"),  # every path listed, then each one's product replaces the total
    # a factor read as a leaf's (other.variable) raises on a node of an op, and a bare except answers 0.0:
    # told as zero though paths reach the leaf, never as one path's product where that product is 0 too
    Wrong("error_swallowed_as_zero", fails={CHAIN: "grad_by_paths(y, w) is zero, though paths from y reach that leaf"},
          edits={"            return produced_by(other).item()\n": "            return other.variable.item()\n",
                 "    return d(y.grad_fn)\n": "    try:\n        return d(y.grad_fn)\n    except Exception:\n        return 0.0\n"},
          names=("grad_by_paths(y, w) is zero",), unsaid=("one path alone", "a different number")),
    Correct("ordered_dict_graph", edits={"from micrograph import Value\n": "from collections import OrderedDict\n\nfrom micrograph import Value\n",
            'return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y}': 'return OrderedDict(w=w_leaf, x=x_leaf, a=a, b=b, y=y)'}),
    # "accumulates like backward": a leaf that already holds a .grad gets the answer added to it
    Wrong("grad_by_paths_adds_to_held_grad", fails={"chain rule by paths in other graphs": "grad_by_paths(y, w) wrote into w.grad"},
          edits={"    return d(y.grad_fn)\n": "    result = d(y.grad_fn)\n    if leaf.grad is not None:\n"
                                              "        leaf.grad = Value(leaf.grad.item() + result)\n    return result\n"},
          names=("already hold a .grad", "wrote into w.grad")),
    # each Value found is popped from the caller's list: a later call finds it no more
    Wrong("grad_by_paths_pops_values", fails={CHAIN: "grad_by_paths(y, w) changed the list values it was given"},
          edits={"        return next(v for v in values if v.grad_fn is node)\n":
                 "        return values.pop(next(i for i, v in enumerate(values) if v.grad_fn is node))\n"},
          names=("changed the list values it was given",)),
]

# A product's other factor looked up by its node's name in a dict comprehension: the last Value of
# each name wins (b for both of y's inputs, AddBackward0 each).  On the documents' graph that is b's
# data on both of y's edges; on the other graphs, the lookup by name, the last Value kept.
CASES += [
    Wrong("factor_by_name_last_wins",
          fails={CHAIN: "the data of its last input as the local factor on both of its edges",
                 "chain rule by paths in other graphs": "the last Value whose grad_fn has that name"},
          edits={"    def produced_by(node) -> Value:\n":
                 "    named = {v.grad_fn.name(): v for v in values if v.grad_fn is not None}\n\n"
                 "    def produced_by(node) -> Value:\n",
                 "        return next(v for v in values if v.grad_fn is node)\n":
                 "        return named[node.name()]\n"},
          names=("grad_by_paths(y, w)",), unsaid=("is a different number",)),
]

# build_graph returns a fresh leaf of x's number as x, y built on the leaf it made: told as an x
# that is not in y's graph, not only with the recipe the code follows.
CASES += [
    Wrong("x_returned_a_copy", fails={GRAPH: "The Value returned as x is not in y's graph"},
          edits={'    return {"w": w_leaf, "x": x_leaf, "a": a, "b": b, "y": y}\n':
                 '    return {"w": w_leaf, "x": Value(x_leaf.item(), requires_grad=True), "a": a, "b": b, "y": y}\n'},
          names=("The Value returned as x is not in y's graph",)),
]

# backprop clears both leaves' .grad after reading w's, then reads x's: the .grad told as None is the
# one read last, x's, not the first one cleared.
CASES += [
    Wrong("clears_both_then_reads_x",
          fails={BACKPROP: "backprop read x.grad, which is None: your code set it to None after a backward pass"},
          edits={'    return g["w"].grad.item(), g["x"].grad.item()':
                 '    dw = g["w"].grad.item()\n    g["w"].grad = None\n    g["x"].grad = None\n    return dw, g["x"].grad.item()'},
          names=("backprop read x.grad, which is None", "set it to None"), unsaid=("read w.grad",)),
]

# A clipping hook on w, a habit from training loops: backprop reads w.grad, which the hook's number
# is, told as read from a .grad a hook chose, not as a number computed instead of read.
CASES += [
    Wrong("clipping_hook_on_w",
          fails={BACKPROP: "was read from a .grad that backward wrote, but a hook of yours ran in that backward pass"},
          edits={'    g["y"].backward()\n': '    g["w"].register_hook(lambda grad: grad.clamp(-1.0, 1.0))\n    g["y"].backward()\n'},
          names=("backprop(w, x)", "a hook of yours"), unsaid=("computed, not read",)),
]

# build_graph makes x without requires_grad: backprop, which runs it, reads x.grad, None, and is
# told why; the tests of paths and grad_by_paths build their own graphs and pass.
CASES += [
    Wrong("x_made_without_grad",
          fails={GRAPH: "x has requires_grad=False",
                 BACKPROP: "backprop read x.grad, which is None: x does not require grad"},
          edits={"    x_leaf = Value(x, requires_grad=True)\n": "    x_leaf = Value(x)\n"},
          passes=("paths from y to w and to x", CHAIN),
          names=("x has requires_grad=False",)),
]

# A module-level set of the nodes walked: a later call on the same graph walks nothing; ids
# compared with `is` (two equal ints, never one object): no entry ever ends at the leaf.
CASES += [
    Wrong("walked_nodes_in_a_module_set",
          fails={"paths from y to w and to x": "depends on state kept between calls"},
          edits={"def paths(": "_WALKED: set = set()\n\n\ndef paths(",
                 "        trail = trail + [node.name()]\n":
                 "        if node in _WALKED:\n            return\n        _WALKED.add(node)\n        trail = trail + [node.name()]\n"},
          names=("paths", "state kept between calls")),
    Wrong("leaf_ids_compared_by_is",
          fails={"paths from y to w and to x": "paths(y, w) is empty"},
          edits={'if getattr(child, "variable", None) is leaf:': 'if id(getattr(child, "variable", None)) is id(leaf):'},
          names=("paths(y, w)", "is empty")),
]

# dy/dx read from w.grad too (a copy-paste slip): told by the .grad it was read from, not only as
# entries that are all the same.
CASES += [
    Wrong("dx_read_from_w_grad", fails={BACKPROP: "backprop(w, x)[1] was read from w.grad, where the statement records x.grad"},
          edits={'    return g["w"].grad.item(), g["x"].grad.item()': '    return g["w"].grad.item(), g["w"].grad.item()'},
          names=("backprop(w, x)[1] was read from w.grad",)),
]

# paths lists the nodes themselves, not their names: told as entries of another type, never as an
# answer left on the graph by an earlier call (two graphs' nodes are never one object).
CASES += [
    Wrong("paths_of_node_objects", fails={"paths from y to w and to x": "yours is of type MulBackward0"},
          edits={"        trail = trail + [node.name()]\n": "        trail = trail + [node]\n"},
          names=("paths(y, w)[0][0]", "of type MulBackward0"), unsaid=("left on the graph",)),
]

# backprop calls backward on the y of one build_graph call and reads the .grad of another call's
# leaves: told as a .grad no pass of its graphs could reach, not by Python's error on None alone.
CASES += [
    Wrong("backward_on_one_build_read_from_another",
          fails={BACKPROP: "the backward passes it ran went through graphs that do not reach this w"},
          edits={'    g = build_graph(w, x)\n    g["y"].backward()\n': '    build_graph(w, x)["y"].backward()\n    g = build_graph(w, x)\n'},
          names=("backprop read w.grad, which is None", "do not reach this w"), unsaid=("ran no backward pass",)),
]

# grad_by_paths takes a product's own result (the Value the MulBackward0 made) as its local factor:
# told as that, not only as a number that differs.
CASES += [
    Wrong("product_result_as_factor",
          fails={CHAIN: "the data of the node's own result (the product of its inputs' data) as the local factor",
                 "chain rule by paths in other graphs": "for y = w * x, grad_by_paths(y, w) is the sum over the paths"},
          edits={"            other = node.next_functions[1 - i][0]\n            return produced_by(other).item()\n":
                 "            return produced_by(node).item()\n"},
          names=("grad_by_paths(y, w)", "MulBackward0", "the node's own result"), unsaid=("a different number",)),
]

# Correct, spelled otherwise: operators with w first, backward through micrograph.backward, each
# gradient read through .data in a generator.
CASES += [
    Correct("backward_function_and_grad_data", edits={
        "    a = micrograph.add(x_leaf, w_leaf)\n    b = micrograph.add(w_leaf, 1)\n    y = micrograph.mul(a, b)\n":
        "    b = w_leaf + 1\n    a = w_leaf + x_leaf\n    y = a * b\n",
        '    g["y"].backward()\n    return g["w"].grad.item(), g["x"].grad.item()':
        '    micrograph.backward(g["y"])\n    dw, dx = (g[k].grad.data.item() for k in "wx")\n    return dw, dx'}),
]

# grad_by_paths works dy/dw = b + a and dy/dx = b out from the leaves' numbers (the documents'
# formula), walking no graph: right on the documents' graph, and told on the others as a walk that
# never read a node's next_functions.
CASES += [
    Wrong("by_paths_documents_formula",
          fails={"chain rule by paths in other graphs": "without ever reading a node's next_functions"},
          edits={"    return d(y.grad_fn)\n": "    w, x = values[0], values[1]  # the documents' leaves\n"
                                              "    a, b = x.data + w.data, w.data + 1\n"
                                              "    return b + a if leaf is w else b\n"},
          names=("grad_by_paths", "next_functions", "followed none of the paths")),
]

# grad_by_paths written for the documents' shape, y = a * b with a and b sums of leaves: it reads y's
# inputs and theirs, two levels down, and no deeper; on a deeper graph the node it never looked into is named.
CASES += [
    Wrong("by_paths_two_levels_only",
          fails={"chain rule by paths in other graphs": "never read the next_functions of a node of that graph (AddBackward0)"},
          edits={"    return d(y.grad_fn)\n": "    total = 0.0  # y = a * b, a and b sums of leaves: two levels down\n"
                                              "    for i, (node, _) in enumerate(y.grad_fn.next_functions):\n"
                                              "        for child, _ in node.next_functions:\n"
                                              "            if getattr(child, \"variable\", None) is leaf:\n"
                                              "                total += local(y.grad_fn, i)\n"
                                              "    return total\n"},
          names=("grad_by_paths", "(w + x) * w * (w + 2)", "no path through it was followed"),
          unsaid=("without ever reading",)),
]

# paths appends each node's name to one trail list it hands down to every branch, and appends that
# very list for each path found (no copy, nothing taken off on the way back): told as one list object
# standing for several paths, which shows every name the walk added after it was appended.
CASES += [
    Wrong("paths_one_trail_list",
          fails={"paths from y to w and to x": "paths(y, w) holds one list object as several of its entries"},
          edits={"    def walk(node, trail: list[str]) -> None:\n        trail = trail + [node.name()]\n":
                 "    def walk(node, trail: list[str]) -> None:\n        trail.append(node.name())\n"},
          names=("paths(y, w)", "one list object"), unsaid=("paths(y, w)[0] has more entries",)),
]

# paths appends each path from the leaf up to y (its names reversed): told as the statement's order reversed.
CASES += [
    Wrong("paths_from_the_leaf_up",
          fails={"paths from y to w and to x": "in another order: the statement's order reversed"},
          edits={"                found.append(trail)\n": "                found.append(trail[::-1])\n"},
          names=("paths(y, w)[0]", "the statement's order reversed")),
]

# grad_by_paths adds one where a path reaches the leaf's node, without the local factor of that last
# edge: right on the documents' graph (its leaves hang from additions), told on the others as one on
# each edge from a product straight into a leaf.
CASES += [
    Wrong("by_paths_last_edge_unscaled",
          fails={"chain rule by paths in other graphs": "one as the local factor on each edge from a MulBackward0 straight into"},
          edits={"        return sum(\n            local(node, i) * d(child)\n            for i, (child, _) in enumerate(node.next_functions)\n"
                 "            if child is not None\n        )\n":
                 "        total = 0.0\n        for i, (child, _) in enumerate(node.next_functions):\n            if child is None:\n"
                 "                continue\n            if hasattr(child, \"variable\"):\n"
                 "                total += 1.0 if child.variable is leaf else 0.0\n            else:\n"
                 "                total += local(node, i) * d(child)\n        return total\n"},
          names=("grad_by_paths(y, w)", "MulBackward0", "straight into a leaf"), unsaid=("a different number",)),
]

# paths switches grad mode off for its walk and never back on: told as that in both tests of paths,
# not as an error the later graphs of the probe, made unrecorded, raise in its code; grad_by_paths alike.
CASES += [
    Wrong("paths_leaves_grad_mode_off",
          fails={"paths from y to w and to x": "paths returned with grad mode still off",
                 "paths in other graphs": "paths returned with grad mode still off"},
          edits={"    walk(y.grad_fn, [])\n    return found\n":
                 "    micrograph.set_grad_enabled(False)  # only reading the graph\n    walk(y.grad_fn, [])\n    return found\n"},
          names=("paths returned with grad mode still off",), unsaid=("AttributeError",)),
    Wrong("grad_by_paths_leaves_grad_mode_off",
          fails={CHAIN: "grad_by_paths returned with grad mode still off",
                 "chain rule by paths in other graphs": "grad_by_paths returned with grad mode still off"},
          edits={"    return d(y.grad_fn)\n": "    micrograph.set_grad_enabled(False)  # no graph needed while walking\n"
                                              "    return d(y.grad_fn)\n"},
          names=("grad_by_paths returned with grad mode still off",), unsaid=("AttributeError",)),
    # the whole graph built inside no_grad: told as backprop's call of build_graph with grad mode off,
    # not by the engine's error alone
    Wrong("build_graph_called_under_no_grad", fails={BACKPROP: "backprop called build_graph while grad mode was off"},
          edits={'    g = build_graph(w, x)\n    g["y"].backward()\n':
                 '    with micrograph.no_grad():  # only backward needs the graph\n        g = build_graph(w, x)\n'
                 '    g["y"].backward()\n'},
          names=("backprop called build_graph while grad mode was off",)),
    # a hook that only prints the gradient it is handed: no mistake
    Correct("hook_that_prints", edits={'    g["y"].backward()\n': '    g["w"].register_hook(lambda grad: print("dy/dw", grad))\n    g["y"].backward()\n'}),
]

# b computed from a detach() of w: told by the detach() that cut it from the graph, not only as a b
# the graph did not record.
CASES += [
    Wrong("b_from_detached_w",
          fails={GRAPH: "build_graph called detach() or detach_() on a Value that requires grad"},
          edits={"    b = micrograph.add(w_leaf, 1)\n": "    b = w_leaf.detach() + 1\n"},
          names=("build_graph called detach()", "b was not recorded by the graph")),
]

# backprop seeds its backward pass with two: both gradients doubled, told by the gradient the pass started from.
CASES += [
    Wrong("backprop_seeded_with_two", fails={BACKPROP: "backprop started its backward pass from a gradient other than one"},
          edits={'    g["y"].backward()\n': '    g["y"].backward(micrograph.Value(2.0))\n'},
          names=("backprop started its backward pass from a gradient other than one",), unsaid=("a different number",)),
]

# grad_by_paths divides a product's data by the factor's own: right where no factor is zero, and on the graph whose b
# is zero an error, told with the call (its graph and leaf) that raised it.
CASES += [
    Wrong("factor_by_division_raises", fails={"chain rule by paths in other graphs": "grad_by_paths(y, w) raised an error"},
          edits={"            return produced_by(other).item()\n":
                 "            return produced_by(node).item() / produced_by(node.next_functions[i][0]).item()\n"},
          names=("for y = (x + w) * (w + 1), grad_by_paths(y, w) raised an error", "ZeroDivisionError")),
]

# Right answers spelled otherwise: paths walked with an explicit stack; build_graph called with keywords, backward given
# the gradient one, each .grad read with float().
CASES += [
    Correct('paths_with_a_stack', edits={'    found: list[list[str]] = []\n\n    def walk(node, trail: list[str]) -> None:\n        trail = trail + [node.name()]\n        for child in _inputs(node):\n            if getattr(child, "variable", None) is leaf:\n                found.append(trail)\n            elif not hasattr(child, "variable"):\n                walk(child, trail)\n\n    walk(y.grad_fn, [])\n    return found': '    found: list[list[str]] = []\n    stack = [(y.grad_fn, [y.grad_fn.name()])]\n    while stack:\n        node, trail = stack.pop()\n        ahead = []\n        for child in _inputs(node):\n            if getattr(child, "variable", None) is leaf:\n                ahead.append(("leaf", trail))\n            elif not hasattr(child, "variable"):\n                ahead.append((child, trail + [child.name()]))\n        for item in reversed(ahead):\n            stack.append(item)\n        while stack and stack[-1][0] == "leaf":\n            found.append(stack.pop()[1])\n    return found'}),
    Correct('backprop_float_and_keywords', edits={'    g = build_graph(w, x)\n    g["y"].backward()\n    return g["w"].grad.item(), g["x"].grad.item()': '    g = build_graph(x=x, w=w)\n    g["y"].backward(gradient=micrograph.Value(1.0))\n    return float(g["w"].grad), float(g["x"].grad)'}),
]

# A sum of thousands of terms in one statement: nested deeper than the parent's reading of the source takes, so what
# the file names cannot be checked; told as that, with no line and no reach it never made.
CASES += [
    Wrong("expression_nested_too_deep", fails={GRAPH: "nested deeper than the grader can read"},
          edits={"def build_graph(": "DEPTH = " + " + ".join(["1"] * 5000) + "\n\n\ndef build_graph("},
          names=("nested deeper than the grader can read",),
          unsaid=("attributes by a computed name", "line 1")),
]

# the whole graph built inside set_grad_enabled(False): told as backprop's call of build_graph with grad mode off,
# by the spelling the code turned it off with
CASES += [
    Wrong("build_graph_called_under_set_grad_enabled_false",
          fails={BACKPROP: "backprop called build_graph while grad mode was off (set_grad_enabled(False))"},
          edits={'    g = build_graph(w, x)\n    g["y"].backward()\n':
                 '    with micrograph.set_grad_enabled(False):\n        g = build_graph(w, x)\n'
                 '    g["y"].backward()\n'},
          names=("backprop called build_graph while grad mode was off (set_grad_enabled(False))",),
          unsaid=("(no_grad)",)),
]

# The walk multiplies by the leaf's own data where a path reaches it (instead of ending there with one);
# and each path's product kept, then the products multiplied together where the chain rule adds them.
CASES += [
    Wrong("leaf_data_at_path_end", fails={CHAIN: "multiplied by the leaf's own data",
                                          "chain rule by paths in other graphs": "multiplied by the leaf's own data"},
          edits={"            return 1.0 if node.variable is leaf else 0.0\n":
                 "            return node.variable.item() if node.variable is leaf else 0.0\n"},
          names=("grad_by_paths(y, w)", "the leaf's own data"), unsaid=("is a different number",)),
    Wrong("paths_products_multiplied", fails={CHAIN: "the product of the paths' products, not their sum",
                                              "chain rule by paths in other graphs": "the product of the paths' products"},
          edits={"    return d(y.grad_fn)\n": "    def products(node) -> list[float]:\n"
                 "        if hasattr(node, \"variable\"):\n            return [1.0] if node.variable is leaf else []\n"
                 "        return [local(node, i) * p for i, (child, _) in enumerate(node.next_functions)\n"
                 "                if child is not None for p in products(child)]\n\n"
                 "    total = 1.0\n    for p in products(y.grad_fn):\n        total *= p\n    return total\n"},
          names=("grad_by_paths(y, w)", "the product of the paths' products", "the chain rule adds"),
          unsaid=("is a different number",)),
]

# the whole graph built inside inference_mode(), which is no no_grad block: told by that spelling
CASES += [
    Wrong("build_graph_called_under_inference_mode",
          fails={BACKPROP: "backprop called build_graph while grad mode was off (inference_mode())"},
          edits={'    g = build_graph(w, x)\n    g["y"].backward()\n':
                 '    with micrograph.inference_mode():\n        g = build_graph(w, x)\n'
                 '    g["y"].backward()\n'},
          names=("backprop called build_graph while grad mode was off (inference_mode())",),
          unsaid=("(no_grad)",)),
]

# y computed inside inference_mode(), which is no no_grad block: told by that spelling
CASES += [
    Wrong("y_under_inference_mode", fails={GRAPH: "grad mode was off (inference_mode()) while build_graph ran"},
          edits={"    y = micrograph.mul(a, b)\n": "    with micrograph.inference_mode():\n"
                                                   "        y = micrograph.mul(a, b)\n"},
          names=("grad mode was off (inference_mode()) while build_graph ran", "y was made under inference_mode:",
                 "an ordinary Value that its graph records"),
          unsaid=("(no_grad)", "not no_grad", "made under no_grad")),
]
