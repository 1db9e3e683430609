"""ex13 gallery: plausible wrong answers and correct variants (format: gallery_case.py).

The alias cases run the engine's backward pass under another name and put every ``.grad``
back: ``micrograph.observe.passes()`` still counts the pass, whatever name started it."""

from gallery_case import Correct, Wrong

DIAMOND = "the diamond b = a + a, c = b * b"
RANDOM = "gradients on random graphs match backward"
ONCE = "each node runs once"
BLOCKED = "a node no gradient reaches is skipped"
CHAIN = "a chain of 1,200 ops at the default recursion limit"
SHORT_CHAIN = "a chain of 1,200 ops"
ORDER = "topological order of random graphs"
BY_HAND = "backprop started"

START = "    arrived: dict[Node, float] = {root.grad_fn: 1.0}  # d root / d(node's output), so far\n"
LEAVES = ("    leaves = [n.variable for n in topological_order(root)\n"
          "              if isinstance(n, micrograph.AccumulateGrad) and n.variable.requires_grad]\n")
READ_AND_RESTORE = ("    found = {leaf: leaf.grad.item() for leaf in leaves if leaf.grad is not None}\n"
                    "    for leaf in leaves:\n        leaf.grad = None\n    return found\n")
ASKED = "    return {leaf: g.item() for leaf, g in zip(leaves, found) if g is not None}\n"


def _engine(call: str, imports: str = "") -> dict[str, str]:
    """The solution's backprop replaced by ``call`` (runs the engine) and reading its result."""
    body = imports + LEAVES + call
    return {START: body + (ASKED if "found =" in call else READ_AND_RESTORE) + START}


BY_HAND_TESTS = {DIAMOND: BY_HAND, RANDOM: BY_HAND, ONCE: BY_HAND, BLOCKED: BY_HAND,
                 CHAIN: BY_HAND, SHORT_CHAIN: BY_HAND}

ORDER_BODY = (
    "    start = root.grad_fn\n"
    "    # 1. How many edges point at each node: a walk with an explicit stack, each node once.\n")
RECURSIVE = """    done, post = set(), []

    def visit(node):
        done.add(node)
        for child, _ in node.next_functions:
            if child is not None and child not in done:
                visit(child)
        post.append(node)

    visit(root.grad_fn)
    return post[::-1]
""" + ORDER_BODY
BREADTH_FIRST = """    order, seen, i = [root.grad_fn], {root.grad_fn}, 0
    while i < len(order):
        for child, _ in order[i].next_functions:
            if child is not None and child not in seen:
                seen.add(child)
                order.append(child)
        i += 1
    return order
""" + ORDER_BODY

# The engine's backward pass run under every name a student could find, then every .grad
# put back (or read and left): ``observe.passes()`` counts each pass, whatever started it.
ENGINE_ALIASES = {  # name: (the call, imports it needs)
    "engine_backward": ("    root.backward(retain_graph=True)\n"  # reads .grad, leaves it set
                        "    return {leaf: leaf.grad.item() for leaf in leaves if leaf.grad is not None}\n", ""),
    "backward_restoring": ("    root.backward(retain_graph=True)\n", ""),
    "grad_imported": ("    found = grad(root, leaves, retain_graph=True, allow_unused=True)\n",
                      "    from micrograph import grad\n"),
    "engine_backward_alias": ("    b(root, retain_graph=True)\n", "    from micrograph.engine import backward as b\n"),
    "engine_module_alias": ("    found = e.grad(root, leaves, retain_graph=True, allow_unused=True)\n",
                            "    import micrograph.engine as e\n"),
    "micrograph_grad": ("    found = micrograph.grad(root, leaves, retain_graph=True, allow_unused=True)\n", ""),
    "autograd_grad": ("    found = micrograph.autograd.grad(root, leaves, retain_graph=True, allow_unused=True)\n", ""),
    "autograd_backward": ("    micrograph.autograd.backward([root], retain_graph=True)\n", ""),
    "backward_by_getattr": ("    getattr(Value, 'back' + 'ward')(root, retain_graph=True)\n", ""),
}
# ... and under names computed at run time: a getattr of a built name is no reach (the
# submission's own getattr refuses grading's internals as it runs), and the engine's pass it starts
# is counted as any other; importlib, __import__, sys.modules and a class's __dict__ read through
# type(x) (the way to any object's generic __getattribute__) reach grading's internals too, so the
# run forfeits every test.
REACHING_ALIASES = {
    "class_dict_method": ("    type(root).__dict__['backward'](root, retain_graph=True)\n", ""),
    "importlib_engine": ("    importlib.import_module('micrograph.engine').backward(root, retain_graph=True)\n",
                         "    import importlib\n"),
    "sys_modules": ("    sys.modules['micrograph.engine'].backward(root, retain_graph=True)\n", "    import sys\n"),
}
REACHES = "reach"  # "reaches for ..." (a name), or "imports importlib ...: through it, code can reach ..."
USES_IMPORT = "uses __import__"  # __import__ other than with a module's name written out: "... a submission may call it only as"

CASES = [
    Wrong("recursive", names=('RecursionError',), fails={CHAIN: "RecursionError", SHORT_CHAIN: "RecursionError"},
          edits={ORDER_BODY: RECURSIVE}),  # right on small graphs
    Wrong("overwrite", names=('backprop(diamond_a)[a] is a different number', 'instead of their sum'), fails={DIAMOND: "backprop(diamond_a)[a] is a different number"},  # no accumulation where paths meet
          # documents_a's w keeps the gradient 1.5 of the two sent, which is also their sum plus the 2.5 its .grad held
          unsaid=("already held when the call began",),
          edits={"            arrived[child] = arrived[child] + child_grad if child in arrived else child_grad\n":
                 "            arrived[child] = child_grad\n"}),
    Wrong("bfs_order", names=('puts a node before a node that feeds gradient into it',), fails={ORDER: "puts a node before a node that feeds gradient into it"},
          edits={ORDER_BODY: BREADTH_FIRST}),  # each node at its first discovery
    Wrong("root_not_first", names=('does not start at root.grad_fn',), fails={"topological order of the diamond": "topological_order(diamond) does not start at root.grad_fn"},
          edits={"    return order\n": "    return order[::-1]\n"}),
    Correct("reversed_dfs"),
    Correct("kahn_queue"),
    # each node is expanded once: only the leaves' nodes are dropped; the walks that used the order are told
    # it once, not their empty answers, nor again where a test tells topological_order's own order
    Wrong("order_without_leaves", names=('leaves out every AccumulateGrad node',), fails={"topological order of the diamond":
                                         "leaves out every AccumulateGrad node",
                                         DIAMOND: "the order your topological_order returned holds no AccumulateGrad node"},
          edits={"        order.append(node)\n": "        if not isinstance(node, micrograph.AccumulateGrad):\n"
                                                  "            order.append(node)\n"},
          unsaid=("counts the edges below it twice", "returned an empty dict", "never went on from a node")),
    Wrong("keyed_by_node", names=('has keys that are not leaf Values of the graph',), fails={DIAMOND: "keys that are not leaf Values of the graph"},
          edits={"            leaves[node.variable] = g\n": "            leaves[node] = g\n"},
          unsaid=("passed on only the first of the gradients",)),  # it passes every one: its leaves' answers are unseen
    Wrong("blocked_as_zero", names=('backprop(blocked) has an entry for w',), fails={"a node no gradient reaches, on one graph": "has an entry for w, where the statement's has none"},
          edits={"            if child is None or child_grad is None:\n                continue\n":
                 "            if child is None:\n                continue\n            child_grad = child_grad or 0.0\n"}),
    Wrong("engine_order", names=("topological_order called the engine's own backward walk",), fails={"topological order of random graphs":  # the engine's own sort
                                 "topological_order called the engine's own backward walk"},
          edits={ORDER_BODY: "    return list(micrograph.engine._dependencies([(root.grad_fn, 0)]))\n" + ORDER_BODY}),
    Wrong("star_import", names=("the engine's own backward",), fails=BY_HAND_TESTS,  # the engine's loop under its own name, via import *
          edits={"import micrograph\n": "import micrograph\nfrom micrograph.engine import *  # noqa: F403\n",
                 **_engine("    backward(root, retain_graph=True)\n")}),
] + [Wrong(name, fails=BY_HAND_TESTS, edits=_engine(*call), names=("the engine's own backward",))
   for name, call in ENGINE_ALIASES.items()
   ] + [Wrong(name, fails=dict.fromkeys(BY_HAND_TESTS, REACHES), edits=_engine(*call), names=(REACHES,))
        for name, call in REACHING_ALIASES.items()]

# The engine's pass in backprop runs local_grads on no node: told once, in words, beside the
# engine's pass (not as a count of nodes for each graph, nor as "a backward pass, where the
# statement's runs none").
CASES += [Wrong("engine_backward_counted", edits=_engine(*ENGINE_ALIASES["engine_backward"]),
                fails={ONCE: "backprop never called local_grads"},
                names=("the engine's own backward", "never called local_grads"))]

# A recursive walk that calls a one-line helper for the children: the limit is hit in the
# helper or in the walk, wherever the depth runs out; the feedback names the walk, which recurses.
RECURSIVE_THROUGH_HELPER = RECURSIVE.replace(
    "        for child, _ in node.next_functions:\n            if child is not None and child not in done:\n",
    "        for child in _kids(node):\n            if child not in done:\n")
CASES += [
    Wrong("recursive_through_helper", names=("RecursionError", "in visit"),
          fails={CHAIN: "RecursionError", SHORT_CHAIN: "in visit"},
          edits={ORDER_BODY: RECURSIVE_THROUGH_HELPER,
                 "def topological_order(": "def _kids(node):\n    return [c for c, _ in node.next_functions if c is not None]\n\n\n"
                                           "def topological_order("}),
]

# Nodes marked done in a module-level set: backprop's walk of the chain topological_order has
# walked already finds every node done.
CASES += [Wrong("done_set_kept", fails={SHORT_CHAIN: "state kept between calls",
                                        CHAIN: "state kept between calls"})]

# A recursive walk with Python's recursion limit raised: at import (the hidden chain runs at the
# default limit anyway), or inside topological_order as it runs (then a chain of 20,000 ops is
# walked too); and a walk with an explicit stack that raises the limit all the same is right.
RAISED_AT_IMPORT = {"import micrograph\n": "import sys\n\nimport micrograph\n\nsys.setrecursionlimit(100_000)\n"}
CASES += [
    Wrong("recursive_limit_raised", names=("RecursionError",), fails={CHAIN: "RecursionError"},
          edits={ORDER_BODY: RECURSIVE, **RAISED_AT_IMPORT}),
    Wrong("recursive_limit_raised_inside", names=("RecursionError",), fails={CHAIN: "RecursionError"},
          edits={ORDER_BODY: "    import sys\n    sys.setrecursionlimit(12_000)\n" + RECURSIVE}),
    Correct("stack_with_limit_raised", edits=RAISED_AT_IMPORT),
]

# Tried as a student: an edge counted only the first time its node is met (a + a, a node reached twice).
CASES += [
    Wrong("edges_counted_once",
          fails={ORDER: "puts a node before a node that feeds gradient into it"},
          edits={"            incoming[child] = incoming.get(child, 0) + 1\n            if child not in seen:\n":
                 "            if child not in seen:\n                incoming[child] = incoming.get(child, 0) + 1\n"},
          names=("puts a node before a node that feeds gradient into it",)),
]


# Plausible mistakes of more kinds, each graded as a student reads it: state kept between calls
# (a default argument, a module-level or class-level store), generic list and generator bugs,
# off-by-one, a wrong operand or flag; and correct answers written another way.
CASES += [
    Wrong('seen_as_default', fails={'a chain of 1,200 ops': 'KeyError'},
          edits={'def topological_order(root: Value) -> list[Node]:': 'def topological_order(root: Value, seen: set = set()) -> list[Node]:', '    seen = {start}\n': '    seen.add(start)\n'},
          names=('topological_order', 'KeyError', 'called again on a graph an earlier call of it had walked')),
    # the same set at module level: only a second call on one graph meets the nodes the first left in it
    Wrong('seen_at_module_level', fails={DIAMOND: 'called again on a graph an earlier call of it had walked'},
          edits={'def topological_order(root: Value) -> list[Node]:':
                 'seen: set = set()  # nodes the walk has met\n\n\ndef topological_order(root: Value) -> list[Node]:',
                 '    seen = {start}\n': '    seen.add(start)\n'},
          names=('topological_order', 'state it keeps between calls', 'KeyError')),
    Wrong('order_reversed', fails={'topological order of the diamond': 'does not start at root.grad_fn'},
          edits={'                ready.append(child)\n    return order': '                ready.append(child)\n    return order[::-1]'},
          names=('topological_order(diamond)', 'root.grad_fn')),
    Wrong('includes_none', fails={'topological order of random graphs': "topological_order(random_a) holds None"},
          edits={'    while ready:\n        node = ready.pop()\n        order.append(node)\n        for child, _ in node.next_functions:\n            if child is None:\n                continue\n': '    while ready:\n        node = ready.pop()\n        order.append(node)\n        for child, _ in node.next_functions:\n            if child is None:\n                order.append(None)\n                continue\n'},
          names=('topological_order(random_a)', "holds None", "leads to no node"),
          unsaid=("raised while the test used what your code returned",)),  # the None told, not the test's own read
    Wrong('keyed_by_id', fails={'the diamond b = a + a, c = b * b': 'has keys that are not leaf Values'},
          edits={'            leaves[node.variable] = g\n': '            leaves[id(node.variable)] = g\n'},
          names=('backprop(diamond_a)', 'keys')),
    Wrong('preorder_walk', fails={'the diamond b = a + a, c = b * b': 'backprop(documents_a)[w] is a different number'},
          edits={'    for node in topological_order(root):\n': '    for node in _preorder(root.grad_fn):\n', 'def backprop(': 'def _preorder(start):\n    out, stack, seen = [], [start], set()\n    while stack:\n        n = stack.pop()\n        if n in seen:\n            continue\n        seen.add(n)\n        out.append(n)\n        stack.extend(c for c, _ in n.next_functions if c is not None)\n    return out\n\n\ndef backprop('},
          names=('backprop(documents_a)[w]', 'instead of their sum', 'before every gradient')),
    # topological_order a depth-first pre-order: backprop, right for the order it is given, takes
    # w's gradient before (w + 1)'s node has sent its share
    Wrong('preorder_order_walked', fails={DIAMOND: "returned for w only the gradients sent by the nodes before its node"},
          edits={"    # 2. Kahn's algorithm: a node is placed once every node feeding gradient into it is placed.\n"
                 "    order = []\n    ready = [start]\n    while ready:\n        node = ready.pop()\n        order.append(node)\n"
                 "        for child, _ in node.next_functions:\n            if child is None:\n                continue\n"
                 "            incoming[child] -= 1\n            if incoming[child] == 0:\n                ready.append(child)\n":
                 "    order, seen, stack = [], set(), [start]\n    while stack:\n        node = stack.pop()\n"
                 "        if node in seen:\n            continue\n        seen.add(node)\n        order.append(node)\n"
                 "        stack.extend(child for child, _ in reversed(node.next_functions) if child is not None)\n"},
          names=('backprop(documents_a)', 'the order your topological_order returned', 'puts a node before a node')),
    Correct('ready_as_deque', edits={'    ready = [start]\n    while ready:\n        node = ready.pop()\n': '    from collections import deque\n    ready = deque([start])\n    while ready:\n        node = ready.popleft()\n'}),
]

# More answers read as a student: the root seeded with 0, a leaf's answer doubled, edges counted
# only on a node's first visit, leaves keyed by their node's name; and two correct variants
# (the gradient read without pop: each node is visited once; ready when the count reaches 0 or
# less: it never goes below).
CASES += [
    Wrong('seed_zero', fails={'the diamond b = a + a, c = b * b': 'backprop called local_grads on root.grad_fn with a gradient other than one'},
          edits={'    arrived: dict[Node, float] = {root.grad_fn: 1.0}': '    arrived: dict[Node, float] = {root.grad_fn: 0.0}'},
          names=('root.grad_fn', 'a gradient other than one')),
    Wrong('leaf_answer_doubled', fails={'a chain of 1,200 ops': 'backprop(chain)[w] is a different number'},
          edits={'            leaves[node.variable] = g\n': '            leaves[node.variable] = g * 2\n'},
          names=('backprop(chain)[w]',)),
    Wrong('edges_counted_on_first_visit', fails={'topological order of random graphs': 'puts a node before a node that feeds gradient into it'},
          edits={'            incoming[child] = incoming.get(child, 0) + 1\n            if child not in seen:': '            if child not in seen:\n                incoming[child] = incoming.get(child, 0) + 1'},
          names=('topological_order(random_a) puts a node before a node that feeds gradient into it',)),
    Wrong('leaves_keyed_by_name', fails={'the diamond b = a + a, c = b * b': 'has keys that are not leaf Values of the graph'},
          edits={'            leaves[node.variable] = g\n': '            leaves[node.name()] = g\n'},
          names=('backprop(diamond_a) has keys that are not leaf Values',)),
    Correct('gradient_read_without_pop', edits={'        g = arrived.pop(node)  # complete: every node that feeds it has run already': '        g = arrived[node]'}),
    Correct('ready_at_or_below_zero', edits={'            if incoming[child] == 0:\n                ready.append(child)': '            if incoming[child] <= 0:\n                ready.append(child)'}),
]


# Gradients that meet at a node, not added up: a leaf's answer overwritten by each edge into it
# (the nodes above it summed), and the first gradient to arrive kept (setdefault).
SUM_LINES = ("            # the chain rule's sum over paths: add to what other paths brought already\n"
             "            arrived[child] = arrived[child] + child_grad if child in arrived else child_grad\n")
CASES += [
    Wrong("leaf_answer_overwritten", fails={DIAMOND: "instead of their sum"},
          edits={SUM_LINES: "            if isinstance(child, micrograph.AccumulateGrad):\n"
                            "                leaves[child.variable] = child_grad\n                continue\n"
                            "            arrived[child] = arrived[child] + child_grad if child in arrived else child_grad\n"},
          names=("backprop(diamond_a)", "instead of their sum")),
    Wrong("first_arrival_kept", fails={RANDOM: "instead of their sum"},
          edits={SUM_LINES: "            arrived.setdefault(child, child_grad)\n"},
          names=("backprop(random_a)", "instead of their sum")),
]


# An order kept for each root, keyed by id(root): right while the root lives, stale once CPython
# gives a later root a freed one's id; the probe sees it by changing a root in place (a new
# grad_fn on the same object), on every run alike; the chain tests, which call it again on a root
# after a call on another, see the very list handed out again.
CASES += [
    Wrong("order_kept_by_id",
          fails={"topological order of the diamond": "after an in-place op on it (root.add_(x)) gave it a new grad_fn",
                 ORDER: "state kept between calls",
                 CHAIN: "kept between calls and handed out again",
                 SHORT_CHAIN: "kept between calls and handed out again"},
          passes=(DIAMOND, ONCE, BLOCKED),  # backprop on a y at a freed y's id gets the stale order: told
          edits={"def topological_order(root: Value) -> list[Node]:":
                 "_ORDERS: dict = {}\n\n\ndef topological_order(root: Value) -> list[Node]:\n"
                 "    if id(root) not in _ORDERS:\n        _ORDERS[id(root)] = _order(root)\n"
                 "    return _ORDERS[id(root)]\n\n\ndef _order(root: Value) -> list[Node]:"},
          names=("topological_order", "in-place", "state kept between calls")),
]


# A leaf's answer found by == between Values (true for two leaves of one number), not by identity.
CASES += [
    Wrong('leaf_found_by_equality', fails={RANDOM: 'backprop(equal_leaves) has no entry for u, but one for v'},
          edits={'            leaves[node.variable] = g\n':
                 '            same = next((k for k in leaves if k == node.variable), node.variable)\n'
                 '            leaves[same] = leaves.get(same, 0.0) + g\n'},
          names=('backprop(equal_leaves)', 'no entry for u', 'one entry')),
]


# State kept between calls: backprop's answers gathered in a module-level dict, a copy returned.
CASES += [
    Wrong("leaves_in_a_module_dict",
          fails={DIAMOND: "backprop returned something else than the same call returns in a fresh import",
                 RANDOM: "backprop returned something else than the same call returns in a fresh import"},
          edits={"    leaves: dict[Value, float] = {}\n": "    leaves = _LEAVES\n",
                 "    return leaves\n": "    return dict(leaves)\n",
                 "def backprop(": "_LEAVES: dict = {}\n\n\ndef backprop("},
          names=("backprop", "state kept between calls")),
]

# A node skipped when the gradient that reached it is 0 (falsy), not when none reached it: the
# leaf behind a product by 0 is left out, where backward writes its gradient of 0.
CASES += [
    Wrong("zero_gradient_skipped",
          fails={BLOCKED: "backprop(times_zero) has no entry for w, where the statement's has one"},
          edits={"        if node not in arrived:\n": "        if not arrived.get(node):\n"},
          names=("backprop(times_zero)", "no entry for w")),
]

# The given local_grads edited (it passes on the local derivatives alone, not times the gradient
# that reached the node): backprop is right, and the feedback names local_grads.
GIVEN_APPLY = "        return tuple(node.apply([grad]))\n"
CASES += [
    Wrong("given_local_grads_edited", fails={DIAMOND: "local_grads was edited", RANDOM: "local_grads was edited"},
          edits={GIVEN_APPLY: "        return tuple(node.apply([1.0]))\n"},
          names=("local_grads was edited", "differs from what the local_grads given with the exercise returns")),
    Correct("given_local_grads_as_list", edits={GIVEN_APPLY: "        return list(node.apply([grad]))\n"}),
]

# Gradients as Values where the statement asks for floats: the seed made a Value (local_grads then
# hands back Values), or each leaf's number wrapped in one.  The numbers are right; the type is
# told once per test, not once per leaf and graph.
CASES += [
    Wrong("seed_as_value",
          fails={DIAMOND: "backprop(diamond_a)[a] is of type Value, not a Python float",
                 RANDOM: "backprop(random_a)[p] is of type Value, not a Python float"},
          edits={START: START.replace("{root.grad_fn: 1.0}", "{root.grad_fn: Value(1.0)}")},
          names=("backprop(", "of type Value, not a Python float")),
    Wrong("leaf_answer_as_value",
          fails={BLOCKED: "backprop(blocked_a)[x] is of type Value, not a Python float",
                 CHAIN: "backprop(chain)[w] is of type Value, not a Python float"},
          edits={"            leaves[node.variable] = g\n": "            leaves[node.variable] = Value(g)\n"},
          names=("backprop(", "of type Value, not a Python float")),
]

# Every leaf's .grad cleared before the walk ("so that old gradients do not mix in"): the numbers
# are right, but a .grad the leaf held before the call is gone, where the statement leaves it.
CASES += [
    Wrong("grads_cleared_first",
          fails=dict.fromkeys((DIAMOND, RANDOM, SHORT_CHAIN, CHAIN), "backprop changed a leaf's .grad"),
          edits={START: "    for n in topological_order(root):\n"
                        "        if isinstance(n, micrograph.AccumulateGrad):\n"
                        "            n.variable.grad = None\n" + START},
          names=("backprop changed a leaf's .grad",)),
]

# The chain rule written as local derivative times the node's gradient (micrograd's way):
# local_grads(node, 1.0) gives the local derivatives, each times the sum that reached the node.
# Every backward formula is linear in its gradient, so the numbers are backward's.
CASES += [
    Correct("local_derivative_times_gradient",
            edits={"        for (child, _), child_grad in zip(node.next_functions, local_grads(node, g)):\n"
                   "            if child is None or child_grad is None:\n                continue\n":
                   "        for (child, _), local in zip(node.next_functions, local_grads(node, 1.0)):\n"
                   "            if child is None or local is None:\n                continue\n"
                   "            child_grad = local * g\n"}),
]

# Dependency counts keyed by node.name(): two AccumulateGrad nodes (or two AddBackward0) share one
# count, so a node whose namesake brought the count to 0 first is never placed.  backprop keys its
# answer by the leaf itself: a leaf missing is topological_order's doing, not two leaves merged.
CASES += [
    Wrong("counts_keyed_by_name",
          fails={ORDER: "while another node of the same name() is in it",
                 RANDOM: "This test runs your topological_order too"},
          edits={"            incoming[child] = incoming.get(child, 0) + 1\n":
                 "            incoming[child.name()] = incoming.get(child.name(), 0) + 1\n",
                 "            incoming[child] -= 1\n            if incoming[child] == 0:\n":
                 "            incoming[child.name()] -= 1\n            if incoming[child.name()] == 0:\n"},
          names=("topological_order", "leaves out a node", "same name()")),
]

# A name written out to __import__ or operator.attrgetter is read as the statement it stands for
# (import math, node.variable): a correct answer so spelled scores full marks; a name computed
# as the code runs, or __import__ given more than a name, is refused and said to be so.
VARIABLE = "            leaves[node.variable] = g\n"
CASES += [
    Correct("attrgetter_literal", edits={"import micrograph\n": "import operator\n\nimport micrograph\n",
                                         VARIABLE: "            leaves[operator.attrgetter('variable')(node)] = g\n"}),
    Wrong("attrgetter_computed", fails=dict.fromkeys(BY_HAND_TESTS, "uses attrgetter"),
          names=("uses attrgetter", "attribute names written out"),
          edits={"import micrograph\n": "import operator\n\nimport micrograph\n",
                 VARIABLE: "            leaves[operator.attrgetter('vari' + 'able')(node)] = g\n"}),
    Wrong("dunder_import", fails=dict.fromkeys(BY_HAND_TESTS, USES_IMPORT), names=(USES_IMPORT,),
          edits=_engine("    __import__('micrograph.engine', fromlist=['backward']).backward(root, retain_graph=True)\n")),
]

# The given local_grads called as it cannot run: on an AccumulateGrad node (the leaf recorded,
# then no continue), or with its arguments swapped.  The call is named by its arguments' types,
# not local_grads, which is the given one and raises on that call too.
CASES += [
    Wrong("local_grads_on_accumulate_grad",
          fails={DIAMOND: "backprop called local_grads as local_grads(AccumulateGrad, float)"},
          edits={"            leaves[node.variable] = g\n            continue\n":
                 "            leaves[node.variable] = g\n"},
          names=("backprop called local_grads", "AccumulateGrad", "the given local_grads raises")),
    Wrong("local_grads_arguments_swapped",
          fails={DIAMOND: "backprop called local_grads as local_grads(float, MulBackward0)"},
          edits={"local_grads(node, g)):\n": "local_grads(g, node)):\n"},
          names=("backprop called local_grads", "local_grads(float, MulBackward0)")),
]

# The counting walk marks a node seen when it is popped, not when pushed: a node reached by two
# edges before it is popped is expanded twice, so the edges below it are counted twice and Kahn's
# algorithm never frees the node beneath.  Its node names are all distinct on the diamond, so
# no name() merging is blamed.
SEEN_ON_PUSH = ("    seen = {start}\n    stack = [start]\n    while stack:\n"
                "        for child, _ in stack.pop().next_functions:\n            if child is None:\n"
                "                continue\n            incoming[child] = incoming.get(child, 0) + 1\n"
                "            if child not in seen:\n                seen.add(child)\n                stack.append(child)\n")
CASES += [
    Wrong("seen_when_popped",
          fails={"topological order of the diamond": "though every node that feeds gradient into it is in it; "
                                                     "one of those, AddBackward0, is reached by more than one edge"},
          edits={SEEN_ON_PUSH: "    seen = set()\n    stack = [start]\n    while stack:\n"
                               "        node = stack.pop()\n        seen.add(node)\n"
                               "        for child, _ in node.next_functions:\n            if child is None:\n"
                               "                continue\n            incoming[child] = incoming.get(child, 0) + 1\n"
                               "            if child not in seen:\n                stack.append(child)\n"},
          names=("leaves out a node", "reached by more than one edge"),
          unsaid=("of the same name()",)),
]

# backprop passes on only the gradient local_grads returned for a node's first input: every input
# after the first gets nothing.
CASES += [
    Wrong("first_input_only",
          fails={DIAMOND: "passed on only the first of the gradients local_grads returned for a node"},
          edits={"        for (child, _), child_grad in zip(node.next_functions, local_grads(node, g)):\n":
                 "        for (child, _), child_grad in zip(node.next_functions[:1], local_grads(node, g)[:1]):\n"},
          names=("passed on only the first of the gradients", "next_functions")),
]

# topological_order marks the nodes themselves as seen (an attribute set on each node): a second
# call on the same graph skips the walk below the root, and Kahn's algorithm meets an uncounted
# node.  The state is on the graph, so a fresh import raises on it too.
CASES += [
    Wrong("visited_flag_on_the_nodes",
          fails={"topological order of the diamond": "an earlier call of topological_order set attributes on the "
                                                     "nodes of the graph of the root it was given"},
          edits={SEEN_ON_PUSH: "    start.visited = True\n    stack = [start]\n    while stack:\n"
                               "        for child, _ in stack.pop().next_functions:\n            if child is None:\n"
                               "                continue\n            incoming[child] = incoming.get(child, 0) + 1\n"
                               "            if not getattr(child, \"visited\", False):\n"
                               "                child.visited = True\n                stack.append(child)\n"},
          names=("set attributes on the nodes", "called again on that same graph")),
]


# The answer as a dict subclass: a defaultdict with the right entries is a dict, and reading it
# inserts no key.
CASES += [
    Correct("leaves_in_a_defaultdict",
            edits={"    leaves: dict[Value, float] = {}\n": "    leaves: dict[Value, float] = collections.defaultdict(float)\n",
                   "import micrograph\nfrom micrograph import Node, Value\n":
                   "import collections\n\nimport micrograph\nfrom micrograph import Node, Value\n"}),
]

# One order list kept at module level, cleared and refilled by every call: each call's order is
# right when it returns, so only the sharing is told, not the order a later call put in the list.
CASES += [
    Wrong("order_in_a_module_list", fails={"topological order of the diamond": "returned the very object"},
          edits={"    order = []\n    ready = [start]\n": "    order = _ORDER\n    order.clear()\n    ready = [start]\n",
                 "def topological_order(": "_ORDER: list = []\n\n\ndef topological_order("},
          names=("topological_order", "kept between calls"),
          unsaid=("does not start at root.grad_fn", "leaves out a node")),
]

# The mirror slip: each edge counted, but Kahn's walk takes one off per node fed (its children as a
# set), so a node fed through two entries by one node never comes down to zero.
CASES += [
    Wrong("count_per_edge_decrement_per_feeder",
          fails={"topological order of the diamond": "came down by one for that MulBackward0, not one per entry",
                 ORDER: "not one per entry"},
          edits={"        for child, _ in node.next_functions:\n            if child is None:\n"
                 "                continue\n            incoming[child] -= 1\n":
                 "        for child in {child for child, _ in node.next_functions}:\n            if child is None:\n"
                 "                continue\n            incoming[child] -= 1\n"},
          names=("leaves out a node", "not one per entry"),
          unsaid=("a walk that expands", "counts the edges below it twice")),
]

# Each feeding node counted once (a set of the children), each edge taken away: a node fed twice by
# one node (b = a + a) and by another besides is placed before that other one.
CASES += [
    Wrong("count_per_feeder_decrement_per_edge",
          fails={ORDER: "came down by one for each entry"},
          edits={"        for child, _ in stack.pop().next_functions:\n            if child is None:\n"
                 "                continue\n            incoming[child] = incoming.get(child, 0) + 1\n":
                 "        for child in {child for child, _ in stack.pop().next_functions}:\n            if child is None:\n"
                 "                continue\n            incoming[child] = incoming.get(child, 0) + 1\n"},
          names=("counted another MulBackward0", "feeds it through two entries of next_functions"),
          unsaid=("counted the MulBackward0 that feeds it",)),  # two nodes of one name: not one feeding itself
]

# micrograd's habit: the order walked from its end, so every node is met before a gradient reached
# it, and only the root, met last, runs.
CASES += [
    Wrong("order_walked_reversed",
          fails={DIAMOND: "ran local_grads on root.grad_fn alone"},
          edits={"    for node in topological_order(root):\n": "    for node in reversed(topological_order(root)):\n"},
          names=("root.grad_fn alone", "reversed")),
]

# The last gradient to arrive replaces the earlier ones (= for +=): every gradient is passed on, one
# is kept; and an order that places a node when its count comes down to one, so twice: backprop
# (the statement's) uses the node at each place. Neither passes on the first gradient alone.
CASES += [
    Wrong("arrived_overwritten",
          fails={DIAMOND: "one of those gradients instead of their sum"},
          edits={"            arrived[child] = arrived[child] + child_grad if child in arrived else child_grad\n":
                 "            arrived[child] = child_grad\n"},
          names=("one of those gradients instead of their sum",),
          unsaid=("passed on only the first of the gradients",)),
    Wrong("ready_at_count_one",
          fails={RANDOM: "used a node once for each time the order your topological_order returned lists it",
                 ONCE: "ran local_grads on a node once for each time the order"},
          edits={"            if incoming[child] == 0:\n": "            if incoming[child] <= 1:\n"},
          names=("lists a node more than once",),
          unsaid=("passed on only the first of the gradients", "once per path")),
]

# The None entries of next_functions dropped before pairing the nodes with local_grads' gradients:
# after a constant input (3 * a) each gradient goes to the next node along.
CASES += [
    Wrong("nones_dropped_before_zip",
          fails={RANDOM: "gave a node the gradient local_grads returned for another entry"},
          edits={"        for (child, _), child_grad in zip(node.next_functions, local_grads(node, g)):\n"
                 "            if child is None or child_grad is None:\n":
                 "        children = [child for child, _ in node.next_functions if child is not None]\n"
                 "        for child, child_grad in zip(children, local_grads(node, g)):\n"
                 "            if child_grad is None:\n"},
          names=("None entries included",),
          unsaid=("where paths meet, their gradients add up",)),
]

# The order returned as a tuple: the nodes, each once, in a topological order, which the statement asks.
CASES += [
    Correct("order_as_a_tuple", edits={"    return order\n": "    return tuple(order)\n"}),
]

# A recursive walk that raises Python's recursion limit first: no RecursionError stops it, and it is
# still the recursion the statement rules out.
CASES += [
    Wrong("recursive_after_raising_the_limit",
          fails={SHORT_CHAIN: "walked the graph recursively", CHAIN: "walked the graph recursively"},
          edits={"    start = root.grad_fn\n    # 1. How many edges point at each node: a walk with an explicit stack, each node once.\n":
                 "    import sys\n    sys.setrecursionlimit(100_000)\n" + RECURSIVE},
          names=("recursively", "without recursion")),
]

# What local_grads sent kept in a module dict by id(node): right on each graph alone, wrong once a
# node of a new graph takes a freed node's id.
CASES += [
    Wrong("local_grads_kept_by_node_id",
          fails={RANDOM: "built once an earlier such y was backpropagated and freed returned something else than the "
                         "same call returns in a fresh import of your code"},
          edits={"        for (child, _), child_grad in zip(node.next_functions, local_grads(node, g)):\n":
                 "        if id(node) not in SENT:\n            SENT[id(node)] = local_grads(node, g)\n"
                 "        for (child, _), child_grad in zip(node.next_functions, SENT[id(node)]):\n",
                 "def backprop(": "SENT: dict = {}\n\n\ndef backprop("},
          names=("state kept between calls",), passes=(DIAMOND, ONCE, BLOCKED, SHORT_CHAIN)),
]


# backprop returns the node buffer the walk emptied, not the leaves' answers: an empty dict.
CASES += [
    Wrong("returns_the_emptied_buffer",
          fails={DIAMOND: "returned an empty dict"},
          edits={"    return leaves\n": "    return arrived\n"},
          names=("returned an empty dict", "no leaf has an entry"),
          unsaid=("has no entry for",)),
]


# break for continue after a leaf's answer: the walk stops at the first leaf of its order.
CASES += [
    Wrong("stops_at_the_first_leaf",
          fails={RANDOM: "the walk stopped at the first leaf it answered"},
          edits={"            leaves[node.variable] = g\n            continue\n":
                 "            leaves[node.variable] = g\n            break\n"},
          names=("stopped at the first leaf", "end of the order")),
]


# The gradients meeting at a node multiplied (* for +): where one of them is 0 their product is
# that one too, which is no sign of a gradient kept: told as no sum, on every graph.
CASES += [
    Wrong("arrivals_multiplied",
          fails={BLOCKED: "a gradient that is not their sum", DIAMOND: "a gradient that is not their sum"},
          edits={"            arrived[child] = arrived[child] + child_grad if child in arrived else child_grad\n":
                 "            arrived[child] = arrived[child] * child_grad if child in arrived else child_grad\n"},
          names=("a gradient that is not their sum",),
          unsaid=("one of those gradients instead of their sum",)),
]

# What reaches a node kept under node.name(): two AccumulateGrad nodes, two MulBackward0 nodes,
# share one entry; the first of them met uses it all and the others are passed over. Nothing is
# compared by number, and the walk goes on to the end of its order.
CASES += [
    Wrong("arrived_keyed_by_name",
          fails={DIAMOND: "under each node's name", BLOCKED: "backprop(times_zero) has no entry for w"},
          edits={"    arrived: dict[Node, float] = {root.grad_fn: 1.0}  # d root / d(node's output), so far\n":
                 "    arrived = {root.grad_fn.name(): 1.0}\n",
                 "        if node not in arrived:\n": "        if node.name() not in arrived:\n",
                 "        g = arrived.pop(node)  # complete: every node that feeds it has run already\n":
                 "        g = arrived.pop(node.name())\n",
                 "            arrived[child] = arrived[child] + child_grad if child in arrived else child_grad\n":
                 "            key = child.name()\n"
                 "            arrived[key] = arrived[key] + child_grad if key in arrived else child_grad\n"},
          names=("node.name()", "shared one entry"),
          unsaid=("not by == or number", "the walk stopped at the first leaf")),
]

# A return inside the walk's loop: backprop returns after root.grad_fn, its first node; told as the
# root run alone, with both walks that do that, never as a walk that ran it last.
CASES += [
    Wrong("return_inside_the_loop",
          fails={DIAMOND: "ran local_grads on root.grad_fn alone"},
          edits={"            arrived[child] = arrived[child] + child_grad if child in arrived else child_grad\n    return leaves\n":
                 "            arrived[child] = arrived[child] + child_grad if child in arrived else child_grad\n        return leaves\n"
                 "    return leaves\n"},
          names=("root.grad_fn alone", "a return inside its loop"),
          unsaid=("and last",)),
]

# Each node's first input left out (next_functions[1:] zipped with local_grads(...)[1:]): the walk
# goes on to the end of its order, nodes reached only along first edges get nothing; never told as
# a walk stopped at its first leaf, nor as leaves found by ==.
CASES += [
    Wrong("first_edges_dropped",
          fails={DIAMOND: "passed on none of the gradients local_grads returned for the first entry"},
          edits={"        for (child, _), child_grad in zip(node.next_functions, local_grads(node, g)):\n":
                 "        for (child, _), child_grad in zip(node.next_functions[1:], local_grads(node, g)[1:]):\n"},
          names=("first entry of a node's next_functions",),
          unsaid=("the walk stopped at the first leaf", "not by == or number")),
    Wrong("zero_gradients_run_and_unanswered",
          fails={BLOCKED: "backprop(times_zero) has no entry for w"},
          edits={"        if node not in arrived:\n            continue  # no gradient flows here (only None gradients reached it)\n"
                 "        g = arrived.pop(node)  # complete: every node that feeds it has run already\n":
                 "        g = arrived.get(node, 0.0)\n",
                 "            leaves[node.variable] = g\n": "            if g:\n                leaves[node.variable] = g\n"},
          names=("has no entry for w",),
          unsaid=("the walk stopped at the first leaf", "under each node's name")),
]

# Gradients overwritten where they meet (= for +=), walked in a LIFO ready list's order: on the diamond,
# where both edges of a node go to one node, the gradient kept is the second edge's, as if every first
# edge were dropped; told as one gradient kept, never as first edges left out.
CASES += [
    Wrong("overwrite_with_a_stack_order",
          fails={DIAMOND: "one of those gradients instead of their sum"},
          unsaid=("passed on none of the gradients local_grads returned for the first entry",)),
]

# Leaf gradients added up in a dict keyed by the leaf's number: on u * v + v with u and v of one number
# both leaves get the sum of both, told as two leaves added up as one, not only as other numbers.
CASES += [
    Wrong("leaf_gradients_keyed_by_number",
          fails={RANDOM: "two leaves of the same number, one gradient, the sum of the gradients sent to both"},
          unsaid=("is a different number from the statement's",)),
]

# local_grads' body copied into backprop instead of the call the statement asks for: every gradient right,
# the "runs once" tests see no node run; told as local_grads never called, not as no node run at all.
CASES += [
    Wrong("local_grads_body_inlined",
          fails={ONCE: "never called local_grads, which the statement asks it to pass each node's gradient on with"},
          edits={"        for (child, _), child_grad in zip(node.next_functions, local_grads(node, g)):\n":
                 "        with micrograph.no_grad():\n            sent = tuple(node.apply([g]))\n"
                 "        for (child, _), child_grad in zip(node.next_functions, sent):\n"},
          names=("never called local_grads",),
          unsaid=("ran none of the graph's nodes itself",)),
]

# local_grads' gradients paired with next_functions read from its end: each gradient goes to the input at the
# mirrored position, told as such (the grader sees which entry each gradient belongs to), and the nodes run as
# fewer than the statement's, not only as "a different number".
CASES += [
    Wrong("gradients_paired_in_reverse",
          fails={DIAMOND: "gave each node's inputs the gradients local_grads returned for them in reverse order",
                 ONCE: "is smaller than the statement's: your backprop never ran some node"},
          edits={"        for (child, _), child_grad in zip(node.next_functions, local_grads(node, g)):\n":
                 "        for (child, _), child_grad in zip(node.next_functions[::-1], local_grads(node, g)):\n"},
          names=("in reverse order",)),
]

# topological_order putting a leaf Value where its AccumulateGrad node belongs: told by what the order
# holds, not by an error of the test's own reads (a None kept in it: includes_none above).
CASES += [
    Wrong("order_holds_leaf_values", edits={"        order.append(node)\n": "        order.append(getattr(node, \"variable\", node))\n"},
          fails={"topological order of the diamond": "topological_order(diamond) holds a Value"},
          names=("holds a Value", "not the leaf itself"), unsaid=("raised while the test used what your code returned",)),
]

# The gradients of op nodes kept under node.name(), those of leaves' nodes under their id, no entry popped: two
# AddBackward0 nodes share one entry; told as kept by name, not only as other numbers.
CASES += [
    # every call of the blocked graph's walk is sent 1.0, which alone is no sign of a sum missed: the
    # walk by name is told there too, as on the chain; on the public blocked graph alone its calls are also
    # those of a walk that runs the node no gradient reached with the seed's one, told as that node run
    Wrong("op_gradients_keyed_by_name", fails={DIAMOND: "under each node's name (node.name())",
                                               "a node no gradient reaches, on one graph":
                                               "called local_grads on a node that none of your local_grads calls sent",
                                               BLOCKED: "called local_grads on a node that none of your local_grads calls sent",
                                               SHORT_CHAIN: "under each node's name"}),
]

# Each node's gradients handed to its inputs in reverse order (zip(reversed(next_functions), ...)):
# on a chain of sums and products by a constant every call is sent 1.0, and the constant's None
# entry takes the product's gradient; told as the reversed pairing there too.  On the blocked graph, where no leaf
# gets an entry, the walk does what one stopping at the node nothing reached does, and is told by that.
CASES += [
    Wrong("inputs_paired_reversed",
          fails={SHORT_CHAIN: "in reverse order", CHAIN: "in reverse order", BLOCKED: "no leaf after it an answer",
                 "a node no gradient reaches, on one graph": "no leaf after it an answer", DIAMOND: "in reverse order"},
          edits={"        for (child, _), child_grad in zip(node.next_functions, local_grads(node, g)):\n":
                 "        for (child, _), child_grad in zip(reversed(node.next_functions), local_grads(node, g)):\n"},
          names=("in reverse order", "mirrored position")),
]

# Kahn's algorithm taking its ready nodes in an order of its own choosing (shuffled by a generator of
# its own, so another order on each call): every order is a topological one, and the gradients
# summed along it agree to rounding; no state is kept between calls, and none is told.
CASES += [
    Correct("ready_taken_at_random",
            edits={"import micrograph\n": "import random\n\nimport micrograph\n\n_PICK = random.Random(7)\n",
                   "        node = ready.pop()\n": "        _PICK.shuffle(ready)  # any ready node may go first\n"
                                                  "        node = ready.pop()\n"}),
]

# The sums right and passed on as they are; only the number returned for a leaf is rounded
# (round(g, 4)): told as that sum rounded, not as a gradient that is not their sum.
CASES += [
    Wrong("leaf_answer_rounded",
          fails={RANDOM: "their sum rounded to fewer digits", SHORT_CHAIN: "their sum rounded to fewer digits"},
          edits={"            leaves[node.variable] = g\n": "            leaves[node.variable] = round(g, 4)\n"},
          names=("their sum rounded to fewer digits",), unsaid=("a gradient that is not their sum",)),
]

# A Value where a float is asked for, made by no Value(...) of the student's: micrograph's sum bound
# by a star import, or the int 1 as the seed (local_grads, handed an int, returns Values at a product);
# and micrograph's abs, bound the same way, raising on a float: each told with where it came from.
CASES += [
    Wrong("star_import_sum", fails={DIAMOND: "from micrograph import *` at line", BLOCKED: "is micrograph's sum"},
          unsaid=("in reverse order",)),
    Wrong("star_import_abs_key", fails={DIAMOND: "from micrograph import *` at line"}),
    Wrong("seeded_with_an_int", fails={DIAMOND: "seeded root.grad_fn with an int, not a float"},
          edits={START: START.replace("{root.grad_fn: 1.0}", "{root.grad_fn: 1}")},
          names=("seeded root.grad_fn with an int", "returned Values")),
]

# The number returned for a leaf adds what the leaf's .grad held when the call began, as backward adds into
# .grad: told as that sum plus the .grad held, not as one of the gradients met there kept (on the documents'
# graph the sum plus the .grad held is, by chance, one of them).
CASES += [
    Wrong("leaf_answer_adds_held_grad",
          fails={DIAMOND: "plus the number the leaf's .grad already held", RANDOM: "plus the number the leaf's .grad already held",
                 SHORT_CHAIN: "plus the number the leaf's .grad already held"},
          edits={"            leaves[node.variable] = g\n":
                 "            old = node.variable.grad  # gradients accumulate, as in backward\n"
                 "            leaves[node.variable] = g + (old.item() if old is not None else 0.0)\n"},
          names=("plus the number the leaf's .grad already held",),
          unsaid=("one of those gradients instead of their sum", "a gradient that is not their sum")),
]

# Every call of local_grads handed the gradient one, what reached the node never multiplied in: told as
# that, not as gradients kept under each node's name (on times_zero the two walks give the same numbers).
CASES += [
    Wrong("local_grads_given_one",
          fails={DIAMOND: "called local_grads with the gradient one at every node",
                 BLOCKED: "called local_grads with the gradient one at every node"},
          edits={"zip(node.next_functions, local_grads(node, g))": "zip(node.next_functions, local_grads(node, 1.0))"},
          names=("called local_grads with the gradient one at every node", "never multiplied"),
          unsaid=("under each node's name",)),
]

# topological_order counts each node's own inputs (its next_functions), not the edges into it: nodes are left out of
# the order, and backprop, right itself, never runs them; told as nodes the order leaves out, not as a backprop that
# hands gradients to mirrored inputs or drops every first edge (which the numbers it returns also fit).
CASES += [
    Wrong("order_counts_each_nodes_own_inputs",
          fails={ORDER: "leaves out a node that is reachable from root.grad_fn",
                 SHORT_CHAIN: "and the order your topological_order returned leaves that node out"},
          edits={"            incoming[child] = incoming.get(child, 0) + 1\n":
                 "            incoming[child] = len([c for c, _ in child.next_functions if c is not None]) or 1\n"},
          names=("leaves out a node", "the order your topological_order returned leaves that node out"),
          unsaid=("in reverse order", "first entry of a node's next_functions")),
]

# A node no gradient reached run with the seed's one for a default (arrived.pop(node, 1.0)): on the blocked graph its
# calls are those of a walk keeping gradients under node names (the product beside it was sent one), told as the
# node run, not as gradients kept by name.
CASES += [
    Wrong("unreached_run_with_one",
          fails={BLOCKED: "called local_grads on a node that none of your local_grads calls sent a gradient to",
                 "a node no gradient reaches, on one graph": "has an entry for w, where the statement's has none"},
          edits={"        if node not in arrived:\n            continue  # no gradient flows here (only None gradients reached it)\n"
                 "        g = arrived.pop(node)  # complete: every node that feeds it has run already\n":
                 "        g = arrived.pop(node, 1.0)\n"},
          names=("called local_grads on a node that none of your local_grads calls sent a gradient to",),
          unsaid=("under each node's name",)),
]

# What local_grads returned multiplied by the node's gradient again (local_grads taken for the local derivative
# alone): told as that, not only as gradients met at a node that are not summed (their sum is not what went on).
CASES += [
    Wrong("local_grads_times_the_gradient_again",
          fails={DIAMOND: "multiplied each gradient local_grads returned by the gradient that had reached its node",
                 SHORT_CHAIN: "multiplied each gradient local_grads returned by the gradient that had reached its node"},
          edits={"            arrived[child] = arrived[child] + child_grad if child in arrived else child_grad\n":
                 "            child_grad = child_grad * g  # the chain rule: local derivative times the gradient\n"
                 "            arrived[child] = arrived[child] + child_grad if child in arrived else child_grad\n"},
          names=("multiplied each gradient local_grads returned",),
          unsaid=("a gradient that is not their sum",)),
]

# topological_order returning Kahn's order reversed (leaves' nodes first, root.grad_fn last): backprop, right itself,
# skips every node before the root and runs the root alone; told as the root run alone, never as first edges dropped
# (which the root's calls alone also fit).
CASES += [
    Wrong("order_returned_reversed",
          fails={ORDER: "does not start at root.grad_fn", RANDOM: "ran local_grads on root.grad_fn alone",
                 SHORT_CHAIN: "ran local_grads on root.grad_fn alone"},
          edits={"    return order\n": "    return order[::-1]\n"},
          names=("does not start at root.grad_fn",),
          unsaid=("passed on none of the gradients local_grads returned for the first entry",)),
    Wrong("seeded_with_the_roots_number",
          fails={DIAMOND: "called local_grads on root.grad_fn with a gradient other than one"},
          edits={START: "    arrived = {root.grad_fn: root.item()}\n"},
          names=("called local_grads on root.grad_fn with a gradient other than one",)),
    # the leaves' AccumulateGrad nodes put after every other node (they feed no node: still an order); the
    # gradients met at a node kept as a list and summed when it runs; Kahn's counts kept by id(node)
    Correct("leaves_appended_last",
            edits={"        order.append(node)\n": "        if not isinstance(node, micrograph.AccumulateGrad):\n"
                                                   "            order.append(node)\n",
                   "    return order\n": "    return order + [n for n in seen if isinstance(n, micrograph.AccumulateGrad)]\n"}),
    Correct("arrivals_listed_then_summed",
            edits={START: "    arrived = {root.grad_fn: [1.0]}\n",
                   "        g = arrived.pop(node)  # complete": "        g = sum(arrived.pop(node))  # complete",
                   "            arrived[child] = arrived[child] + child_grad if child in arrived else child_grad\n":
                   "            arrived.setdefault(child, []).append(child_grad)\n"}),
    Correct("counts_kept_by_id",
            edits={"    incoming: dict[Node, int] = {}\n": "    incoming = {}\n",
                   "            incoming[child] = incoming.get(child, 0) + 1\n":
                   "            incoming[id(child)] = incoming.get(id(child), 0) + 1\n",
                   "            incoming[child] -= 1\n            if incoming[child] == 0:\n":
                   "            incoming[id(child)] -= 1\n            if incoming[id(child)] == 0:\n"}),
]

# topological_order returning its nodes sorted by name (AccumulateGrad, AddBackward0, MulBackward0): on the chain the
# nodes a gradient reaches late are passed over, which the gradients handed to mirrored inputs also fit; told by the
# order, never as a backprop (right itself) that pairs the gradients in reverse.
CASES += [
    Wrong("order_sorted_by_name",
          fails={ORDER: "puts a node before a node that feeds gradient into it",
                 SHORT_CHAIN: "puts a node before a node that feeds gradient into it"},
          edits={"    return order\n": "    return sorted(order, key=lambda n: n.name())\n"},
          names=("puts a node before a node that feeds gradient into it",),
          unsaid=("in reverse order",)),
]

# Kahn's walk that appends each node to the order as it becomes ready, never the one it starts from: the order lacks
# root.grad_fn, and backprop (right itself) meets no node holding a gradient; told as root.grad_fn left out, never as
# a backprop that ran its nodes without calling local_grads.
CASES += [
    Wrong("order_without_its_root",
          fails={"topological order of the diamond": "leaves out root.grad_fn",
                 ONCE: "the order your topological_order returned leaves out root.grad_fn",
                 DIAMOND: "the order your topological_order returned leaves out root.grad_fn"},
          edits={"        node = ready.pop()\n        order.append(node)\n": "        node = ready.pop()\n",
                 "                ready.append(child)\n": "                ready.append(child)\n                order.append(child)\n"},
          names=("topological_order", "leaves out root.grad_fn"),
          unsaid=("which the statement asks it to pass each node's gradient on with", "see no node run any other way")),
]

# The walk over the order stops one node short (order[:-1]): the last node, a leaf's AccumulateGrad node, is never
# answered; told as the last node of the order left out, never as a walk that stopped at its first leaf (on a graph
# whose first leaf is the last node but one, where both walks do the same, as either).  The seed put
# on the root Value, not on root.grad_fn: no node runs; told as root.grad_fn never run, not as nodes run without
# local_grads.
CASES += [
    Wrong("order_walked_but_its_last_node",
          fails={DIAMOND: "or left out the last node of the order", RANDOM: "the walk left out the last node of the order",
                 SHORT_CHAIN: "the walk left out the last node"},
          edits={"    for node in topological_order(root):\n": "    order = topological_order(root)\n    for node in order[:-1]:\n"},
          names=("left out the last node of the order",),
          unsaid=("the first leaf it answered, where it goes on",)),
    Wrong("seed_on_the_root_value",
          fails={DIAMOND: "the walk never ran root.grad_fn", ONCE: "the walk never ran root.grad_fn"},
          edits={START: "    arrived = {root: 1.0}\n"},
          names=("never ran root.grad_fn", "seeds with the gradient one"),
          unsaid=("see no node run any other way",)),
]

# The seed of one handed to root.grad_fn's inputs, root.grad_fn itself never run (its local derivatives never applied):
# told as that, never as gradients met at a node that are not summed, nor as a node run that no call sent one to.
CASES += [
    Wrong("seed_on_the_roots_inputs",
          fails={DIAMOND: "the walk gave the inputs of root.grad_fn the gradient one each",
                 ONCE: "never called local_grads on root.grad_fn"},
          edits={START: "    arrived = {child: 1.0 for child, _ in root.grad_fn.next_functions if child is not None}\n",
                 "    for node in topological_order(root):\n": "    for node in topological_order(root)[1:]:\n"},
          names=("never called local_grads on root.grad_fn", "the inputs of root.grad_fn"),
          unsaid=("a gradient that is not their sum", "none of your local_grads calls sent a gradient to")),
]

# backprop's answers kept in a module-level dict by id(root), copies handed out: right while the root lives,
# stale once a new root takes a freed one's id; the probe frees roots until a new one sits at such an id.
CASES += [
    Wrong("answers_kept_by_root_id", fails={RANDOM: "built once an earlier such y was backpropagated and freed"},
          edits={"    arrived: dict[Node, float] = {root.grad_fn: 1.0}":
                 "    if id(root) in _ANSWERS:\n        return dict(_ANSWERS[id(root)])\n"
                 "    arrived: dict[Node, float] = {root.grad_fn: 1.0}",
                 "    return leaves\n": "    _ANSWERS[id(root)] = dict(leaves)\n    return leaves\n",
                 "def backprop(": "_ANSWERS: dict = {}\n\n\ndef backprop("},
          names=("backprop(y)", "state kept between calls")),
]
# topological_order switches grad mode off and leaves it off: told as that, on every graph the tests build
# after it (they are recorded all the same), never as an error its walk met on a graph with no grad_fn
CASES += [Wrong("order_leaves_grad_mode_off",
                fails={RANDOM: "backprop returned with grad mode still off", ORDER: "grad mode still off"},
                edits={"    start = root.grad_fn\n": "    micrograph.set_grad_enabled(False)  # only reading the graph\n"
                                                     "    start = root.grad_fn\n"},
                names=("topological_order returned with grad mode still off",),
                unsaid=("'NoneType' object has no attribute",))]

# State kept between calls that is right: a module-level itertools.count as the heap's tie-breaker in Kahn's algorithm
# (it only orders the ready nodes; any topological order is the statement's).
CASES += [
    Correct("ready_heap_with_a_module_counter",
            edits={"import micrograph\n": "import heapq\nimport itertools\n\nimport micrograph\n",
                   "    order = []\n    ready = [start]\n    while ready:\n        node = ready.pop()\n":
                   "    order = []\n    ready = [(next(_TICKS), start)]\n    while ready:\n        _, node = heapq.heappop(ready)\n",
                   "            if incoming[child] == 0:\n                ready.append(child)":
                   "            if incoming[child] == 0:\n                heapq.heappush(ready, (next(_TICKS), child))",
                   "def topological_order(": "_TICKS = itertools.count()\n\n\ndef topological_order("}),
]

# A method of the engine's classes replaced inside backprop (Node.name made to answer one name): refused as the line
# runs, the run flagged and scored nothing, its feedback naming the function and line where it was refused.
CASES += [
    Wrong("node_name_replaced_in_backprop", fails={DIAMOND: "observation records while running (in backprop, line"},
          edits={"def backprop(root: Value) -> dict[Value, float]:\n":
                 "def backprop(root: Value) -> dict[Value, float]:\n"
                 "    micrograph.Node.name = lambda self: \"AddBackward0\"\n"},
          names=("the engine's code", "in backprop")),
]

# a `break` where the statement's walk skips a node no gradient reached (`continue`): the walk stops there, and the
# leaves after it get no answer; told as stopped at that node, never as gradients paired with next_functions in
# reverse (the mirrored pairing happened to fit a walk that ran only the nodes before it)
CASES += [
    Wrong("unreached_breaks_the_walk", fails={"a node no gradient reaches, on one graph": "ran local_grads on no node after"},
          edits={"            continue  # no gradient flows here (only None gradients reached it)\n":
                 "            break  # nothing reaches it: nothing more to do\n"},
          names=("on no node after the first node of its order that no gradient reached", "goes on with the nodes after it"),
          unsaid=("in reverse order", "mirrored position")),
]
