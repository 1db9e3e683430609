"""ex13 gallery: plausible wrong answers and correct variants (format: gallery_case.py).

The alias cases run the engine's backward pass under another name and put every ``.grad``
back: ``micrograph.observe.passes()`` still counts the pass, whatever name started it."""

from gallery_case import Correct, Wrong

DIAMOND = "the diamond b = a + a, c = b * b"
RANDOM = "gradients on random graphs match backward"
ONCE = "each node runs once"
BLOCKED = "a node no gradient reaches is skipped"
CHAIN = "a chain of 100,000 ops"
SHORT_CHAIN = "a chain of 3,000 ops"
ORDER = "topological order of random graphs"
BY_HAND = "write backward yourself"

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

CASES = [
    Wrong("recursive", fails={CHAIN: "RecursionError", SHORT_CHAIN: "RecursionError"}),
    Wrong("overwrite", fails={DIAMOND: "add both gradients"},  # no accumulation where paths meet
          edits={"            arrived[child] = arrived[child] + child_grad if child in arrived else child_grad\n":
                 "            arrived[child] = child_grad\n"}),
    Wrong("bfs_order", fails={ORDER: "every node that feeds gradient into it"}),
    Wrong("engine_backward", fails=BY_HAND_TESTS, edits=_engine(  # reads .grad, leaves it set
        "    root.backward(retain_graph=True)\n"
        "    return {leaf: leaf.grad.item() for leaf in leaves if leaf.grad is not None}\n")),
    Wrong("backward_restoring", fails=BY_HAND_TESTS, edits=_engine(
        "    root.backward(retain_graph=True)\n")),
    Wrong("grad_imported", fails=BY_HAND_TESTS, edits=_engine(  # grad imported by name
        "    found = grad(root, leaves, retain_graph=True, allow_unused=True)\n",
        "    from micrograph import grad\n")),
    Wrong("engine_backward_alias", fails=BY_HAND_TESTS, edits=_engine(
        "    b(root, retain_graph=True)\n", "    from micrograph.engine import backward as b\n")),
    Wrong("engine_module_alias", fails=BY_HAND_TESTS, edits=_engine(
        "    found = e.grad(root, leaves, retain_graph=True, allow_unused=True)\n",
        "    import micrograph.engine as e\n")),
    Wrong("backward_by_getattr", fails=BY_HAND_TESTS, edits=_engine(
        "    getattr(Value, 'back' + 'ward')(root, retain_graph=True)\n")),
    Wrong("micrograph_grad", fails=BY_HAND_TESTS, edits=_engine(
        "    found = micrograph.grad(root, leaves, retain_graph=True, allow_unused=True)\n")),
    Wrong("autograd_grad", fails=BY_HAND_TESTS, edits=_engine(
        "    found = micrograph.autograd.grad(root, leaves, retain_graph=True, allow_unused=True)\n")),
    Wrong("root_not_first", fails={"topological order of the diamond": "root.grad_fn comes first"},
          edits={"    return order\n": "    return order[::-1]\n"}),
    Correct("reversed_dfs"),
    Correct("kahn_queue"),
]
