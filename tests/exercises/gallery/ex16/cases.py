"""ex16 gallery: plausible wrong engines and correct variants (format: gallery_case.py)."""

from gallery_case import Correct, Wrong

DOCS = "the documents' graph y = (x + w) * (w + 1)"
CONSTANTS = "values that require no grad"
ACCUMULATOR = '''    if v._accumulator is None:
        v._accumulator = AccumulateGrad(v)
    return v._accumulator, 0'''
RECORD = '''    out = Value(number)
    if recording(*inputs):
        out.grad_fn = op(tuple(gradient_edge(v) for v in inputs))
        out.requires_grad = True
    return out'''
CASES = [
    Wrong("new_accumulator_each_time", edits={ACCUMULATOR: "    return AccumulateGrad(v), 0"},
          fails={DOCS: "in PyTorch, but not in your engine"}, names=("w's AccumulateGrad in a.grad_fn.next_functions", "must give a leaf the same AccumulateGrad"),
          drawn=("w reaches a.grad_fn (AddBackward0) through an AccumulateGrad node of its own",),  # both drawn
          unsaid=("come in another order",)),
    Wrong("accumulator_found_by_number", edits={  # a leaf of an equal number gets an earlier leaf's node
        ACCUMULATOR: "    return _BY_NUMBER.setdefault(v.item(), AccumulateGrad(v)), 0",
        "def gradient_edge(": "_BY_NUMBER = {}\n\n\ndef gradient_edge("},
          fails={DOCS: "A second x + w on new leaves of the same numbers reaches new AccumulateGrad nodes in PyTorch, "
                       "but not in your engine",
                 "the documents' graph on other inputs": "With x and w two leaves of the same number, "
                                                         "a.grad_fn.next_functions[0][0] and [1][0] are two nodes"},
          names=("variable is w", "found by the leaf's number"),
          unsaid=("The number 1 in b = w + 1 became a Value",)),  # the 1's entry is (None, 0): w's node is another leaf's
    Wrong("number_requires_grad_like_self", edits={  # w + 1: the 1 made a Value that requires grad, as w does
        "        other = as_value(other)\n        return record(AddBackward0,":
        "        if not isinstance(other, Value):\n            other = Value(other, requires_grad=self.requires_grad)\n"
        "        return record(AddBackward0,"},
          fails={DOCS: "The number 1 in b = w + 1 became a Value that requires grad, whose AccumulateGrad is in "
                       "b.grad_fn.next_functions in your engine, but not in PyTorch"},
          names=("The number 1 in b = w + 1", "a Python number in an operation is a constant"),
          unsaid=("holds an entry for an input that requires no grad",)),  # the entry is there: an AccumulateGrad
    Wrong("operand_wrapped_again", edits={  # Value(other) for a Value too: a copy that requires no grad
        "        other = as_value(other)\n        return record(AddBackward0,": "        other = Value(other)\n        return record(AddBackward0,",
        "        other = as_value(other)\n        out = record(MulBackward0,": "        other = Value(other)\n        out = record(MulBackward0,"},
          fails={DOCS: "The inputs a = x + w records are the Values x and w themselves in PyTorch, but not in your engine",
                 CONSTANTS: "The inputs c * w records are the Values c and w themselves"},
          names=("hand record the very Values they are given", "as_value leaves a Value as it is"),
          unsaid=("gradient_edge must give a leaf the same AccumulateGrad", "recording(*inputs) is True then")),
    Wrong("edge_flag_inverted", edits={  # the test on requires_grad the wrong way round in gradient_edge
        "    if not v.requires_grad:\n        return None, 0\n": "    if v.requires_grad:\n        return None, 0\n"},
          fails={DOCS: "b.grad_fn.next_functions holds an AccumulateGrad node whose .variable requires no grad"},
          names=("whose .variable requires no grad", "(None, 0)"), unsaid=("in another order",)),
    Wrong("add_zero_is_self", edits={  # "x + 0 is x": no new value, no node
        "        other = as_value(other)\n        return record(AddBackward0,":
        "        if not isinstance(other, Value) and other == 0:\n            return self\n"
        "        other = as_value(other)\n        return record(AddBackward0,"},
          fails={"Python numbers on either side": "w + 0 is a new value in PyTorch, but not in your engine"},
          names=("w + 0 is a new value", "never w itself"), unsaid=("not w itself in PyTorch, but not",)),
    Wrong("records_every_op", edits={"    if recording(*inputs):\n        out.grad_fn": "    if True:\n        out.grad_fn"},
          fails={CONSTANTS: "(c * 3).grad_fn is not None, where PyTorch's is None"},
          names=("(c * 3).grad_fn", "none of whose inputs requires grad records nothing")),
    Wrong("skips_constant_edges", edits={"tuple(gradient_edge(v) for v in inputs)":
                                         "tuple(gradient_edge(v) for v in inputs if v.requires_grad)"},
          fails={DOCS: "b.grad_fn.next_functions has fewer entries than PyTorch's. A node's next_functions holds an entry "
                       "for an input that requires no grad (a Python number too) as well: (None, 0), in that input's place."},
          names=("next_functions", "(None, 0)")),  # the rule of that input alone
    Wrong("edges_as_bare_nodes", edits={"tuple(gradient_edge(v) for v in inputs)":  # the node without its 0
                                        "tuple(gradient_edge(v)[0] for v in inputs)"},
          fails={DOCS: "b.grad_fn.next_functions[0] is not the kind of result PyTorch's is: yours is not a (node, "
                       "input_nr) pair: AccumulateGrad"},
          names=("next_functions", "not a (node, input_nr) pair"),
          unsaid=("a value that requires no grad stands",)),  # the diagram's note: a bare node is no constant
    Wrong("leaf_means_no_grad", edits={"        return self.grad_fn is None": "        return not self.requires_grad"},
          fails={DOCS: "w.is_leaf is False"}, names=("is_leaf", "no recorded operation made it")),
    Wrong("requires_grad_not_propagated", edits={"        out.requires_grad = True\n": ""},
          fails={DOCS: "a.requires_grad is False"}, names=("requires_grad", "when one of its inputs does")),
    Wrong("accumulator_for_constants", edits={"    if not v.requires_grad:\n        return None, 0\n": ""},
          fails={CONSTANTS: "next_functions"}, names=("next_functions", "(None, 0)")),
    Wrong("edges_in_reverse", edits={"tuple(gradient_edge(v) for v in inputs)":
                                     "tuple(gradient_edge(v) for v in reversed(inputs))"},
          fails={DOCS: "next_functions"}, names=("next_functions", "in input order")),
    Wrong("requires_grad_from_first_input", edits={"    return any(v.requires_grad for v in inputs)":
                                                   "    return inputs[0].requires_grad"},
          fails={CONSTANTS: "(c * w).grad_fn is None, where PyTorch's is not"},
          names=("(c * w).grad_fn", "as soon as one of its inputs requires grad")),
    Wrong("mul_saves_both", edits={"""            if self.requires_grad:
                out.grad_fn.save("other", other)
            if other.requires_grad:
                out.grad_fn.save("self", self)""": """            out.grad_fn.save("other", other)
            out.grad_fn.save("self", self)"""},
          fails={CONSTANTS: "the list of operands that (c * w).grad_fn saved has more entries than PyTorch's"},
          names=("grad_fn saved", "saves only what its backward needs")),
    Wrong("mul_skips_a_zero_factor", edits={  # "a zero factor makes the gradient 0": nothing saved for it
        """            if self.requires_grad:
                out.grad_fn.save("other", other)
            if other.requires_grad:
                out.grad_fn.save("self", self)""": """            if self.requires_grad and other.item() != 0:
                out.grad_fn.save("other", other)
            if other.requires_grad and self.item() != 0:
                out.grad_fn.save("self", self)"""},
          fails={"the documents' graph on other inputs": 'With a = 0: y.grad_fn saved a itself as "self" in PyTorch, but not in your engine'},
          names=("a = 0", "whatever that operand's number"), unsaid=("saves only what its backward needs",)),
    Wrong("mul_saves_the_input_that_requires_grad", edits={"""            if self.requires_grad:
                out.grad_fn.save("other", other)
            if other.requires_grad:
                out.grad_fn.save("self", self)""": """            if self.requires_grad:
                out.grad_fn.save("self", self)
            if other.requires_grad:
                out.grad_fn.save("other", other)"""},
          fails={"Python numbers on either side": "the list of operands that (w * 3).grad_fn saved"},
          names=("grad_fn saved", "the other operand (\"other\") when self requires grad")),
    Wrong("record_edges_default_list", edits={  # every call appends to one list: edges pile up
        "def record(op: type[Node], number: float, *inputs: Value) -> Value:": "def record(op, number, *inputs, edges=[]):",
        "out.grad_fn = op(tuple(gradient_edge(v) for v in inputs))":
        "edges.extend(gradient_edge(v) for v in inputs)\n        out.grad_fn = op(tuple(edges))"},
          fails={DOCS: "The documents' graph built again has the next_functions it had the first time in PyTorch, but not in your engine",
                 "Python numbers on either side": "built again"},
          names=("built again", "record keeps nothing between calls")),
    Wrong("mul_saves_numbers", edits={"""                out.grad_fn.save("other", other)""": """                out.grad_fn.save("other", other.item())""",
                                      """                out.grad_fn.save("self", self)""": """                out.grad_fn.save("self", self.item())"""},
          fails={DOCS: 'y.grad_fn saved b itself as "other" in PyTorch, but not in your engine'},
          names=("saved", "itself", "neither its number")),  # ex17's backward would still run: ex20 and ex21 need the Value
    Wrong("number_made_a_leaf_that_requires_grad", edits={
        "        other = as_value(other)\n        return record(AddBackward0":
        "        other = other if isinstance(other, Value) else Value(other, requires_grad=True)\n"
        "        return record(AddBackward0"},
          fails={DOCS: "b.grad_fn.next_functions"}, names=("next_functions", "(None, 0)")),
    Wrong("constant_is_not_a_leaf", edits={"        return self.grad_fn is None": "        return self.grad_fn is None and self.requires_grad"},
          fails={CONSTANTS: "is_leaf is False"}, names=("is_leaf", "no recorded operation made it")),
    Wrong("mul_records_add", edits={"        out = record(MulBackward0,": "        out = record(AddBackward0,"},
          fails={"Python numbers on either side": '(3 * w).grad_fn is "AddBackward0" here'},
          names=("(3 * w).grad_fn", "MulBackward0 for *")),
    Wrong("leaf_edge_numbered_one", edits={"    return v._accumulator, 0": "    return v._accumulator, 1"},
          fails={"Python numbers on either side": "(3 * w).grad_fn.next_functions[0][1] is a different number from "
                                                  "PyTorch's. (w * 3).grad_fn"},  # each expression told whole
          names=("grad_fn.next_functions[0][1]", "one (node, 0) per input",
                 "holds (w's AccumulateGrad, 0)", "a leaf that requires grad has the entry (its AccumulateGrad, 0)"),
          unsaid=("(a Python number too) as well",)),  # the constant's (None, 0) is right: w's entry is not
    Wrong("rmul_as_number_times_value", edits={"    __rmul__ = __mul__": "    def __rmul__(self, other):\n"
                                                                        "        return as_value(other) * self"},
          fails={"Python numbers on either side": "(3 * w).grad_fn.next_functions holds PyTorch's entries, but in another order"},
          names=("(3 * w).grad_fn.next_functions", "in that input's place", "__rmul__")),
    Wrong("no_radd", edits={"    __radd__ = __add__\n": ""},  # Python's TypeError at 2 + w, told with the method it wants
          fails={"Python numbers on either side": "2 + w: your Value has no __radd__"},
          names=("2 + w", "__radd__")),
    Wrong("every_result_requires_grad", edits={"    out = Value(number)\n    if recording(*inputs):":
                                               "    out = Value(number, requires_grad=True)\n    if recording(*inputs):"},
          fails={CONSTANTS: "((c * 3) * w).grad_fn.next_functions[0][0] is not None, where PyTorch's is None"},
          names=("(c * 3).requires_grad", "when one of its inputs does")),  # two AccumulateGrad objects: not "all the same"
    Wrong("edges_reversed_when_all_require_grad", edits={  # the rule told is the one without (None, 0)
        "tuple(gradient_edge(v) for v in inputs)":
        "tuple(gradient_edge(v) for v in (inputs[::-1] if all(i.requires_grad for i in inputs) else inputs))"},
          fails={DOCS: "a.grad_fn.next_functions[1][0].variable is w in PyTorch, but not in your engine",
                 "a chain and a leaf used many times": "v1.grad_fn.next_functions holds PyTorch's entries, but in another order"},
          names=("next_functions", "in input order: the input's grad_fn, or a leaf's AccumulateGrad")),
    Correct("recording_by_loop", edits={"    return any(v.requires_grad for v in inputs)": '''    for v in inputs:
        if v.requires_grad:
            return True
    return False'''}),
    Wrong("edges_in_a_list", edits={"        out.grad_fn = op(tuple(gradient_edge(v) for v in inputs))":
                                    "        out.grad_fn = op([gradient_edge(v) for v in inputs])"},
          fails={DOCS: "b.grad_fn.next_functions is a tuple of (node, 0) tuples in PyTorch, but not in your engine"},
          names=("next_functions", "tuple")),
    Wrong("edges_in_a_generator", edits={"        out.grad_fn = op(tuple(gradient_edge(v) for v in inputs))":
                                         "        out.grad_fn = op(gradient_edge(v) for v in inputs)"},
          fails={DOCS: "b.grad_fn.next_functions is not the kind of result PyTorch's is: yours is of type generator"},
          names=("next_functions", "generator", "tuple")),  # never "a str": the type of what the student made
    Wrong("recording_when_all_inputs_require_grad", edits={"    return any(v.requires_grad for v in inputs)":
                                                           "    return all(v.requires_grad for v in inputs)"},
          fails={DOCS: "y.grad_fn is None, where PyTorch's is not; the same holds with b.grad_fn"},
          names=("b.grad_fn", "recording(*inputs)", "as soon as one of its inputs requires grad")),
    Wrong("add_saves_its_operands", edits={  # AddBackward0 saves nothing: operands kept alive until ex20's release
        "        return record(AddBackward0, self.item() + other.item(), self, other)":
        "        out = record(AddBackward0, self.item() + other.item(), self, other)\n"
        "        if out.grad_fn is not None:\n"
        "            out.grad_fn.save(\"self\", self)\n"
        "            out.grad_fn.save(\"other\", other)\n"
        "        return out"},
          fails={DOCS: "The list of operands that a.grad_fn saved has more entries than PyTorch's"},
          names=("a.grad_fn saved", "AddBackward0 saves nothing")),
    Wrong("mul_saves_under_its_own_names", edits={'out.grad_fn.save("other", other)': 'out.grad_fn.save("b", other)',
                                                  'out.grad_fn.save("self", self)': 'out.grad_fn.save("a", self)'},
          fails={DOCS: "[0] of the list of operands that y.grad_fn saved is \"a\" here"},
          names=("y.grad_fn saved", "\"other\"", "\"self\"")),  # never "neither its number": the names differ
    Wrong("nodes_kept_by_edges", edits={  # one node for every op on the same inputs, kept between calls
        "        out.grad_fn = op(tuple(gradient_edge(v) for v in inputs))":
        "        edges = tuple(gradient_edge(v) for v in inputs)\n"
        "        out.grad_fn = _NODES.setdefault((op, tuple(id(n) for n, _ in edges)), op(edges))",
        "\ndef record(": "\n_NODES = {}\n\n\ndef record("},
          fails={CONSTANTS: "c * w made twice, both results kept, has two nodes in PyTorch, but not in your engine"},
          names=("c * w made twice", "a node of its own from record")),
    Correct("record_by_loop", edits={RECORD: '''    out = Value(number)
    if not recording(*inputs):
        return out
    edges = []
    for v in inputs:
        edges.append(gradient_edge(v))
    out.grad_fn, out.requires_grad = op(tuple(edges)), True
    return out'''}),
    Correct("accumulator_by_getattr", edits={ACCUMULATOR: '''    if getattr(v, "_node", None) is None:
        v._node = AccumulateGrad(v)
    return v._node, 0'''}),
]

# requires_grad set on a leaf after it was made, either way: the AccumulateGrad made in __init__
# only, or a kept one handed out whatever the flag.
CASES += [
    Wrong("accumulator_made_in_init", edits={
        "        self._accumulator: AccumulateGrad | None = None": "        self._accumulator = AccumulateGrad(self) if requires_grad else None",
        ACCUMULATOR: "    return v._accumulator, 0"},
          fails={CONSTANTS: "After c = Value(2); c.requires_grad = True: (c * 3).grad_fn.next_functions[0][0] is None"},
          names=("c.requires_grad = True", "set True after the leaf was made")),
    Wrong("kept_accumulator_first", edits={
        "    if v.grad_fn is not None:\n        return v.grad_fn, 0\n":
        "    if v.grad_fn is not None:\n        return v.grad_fn, 0\n    if v._accumulator is not None:\n        return v._accumulator, 0\n"},
          fails={CONSTANTS: "After w * 3; w.requires_grad = False: (w * x).grad_fn.next_functions[0][0] is not None"},
          names=("w.requires_grad = False", "whatever node it had before")),
]

# The first operand handed to record twice: the node's second edge leads to its first input's node,
# told as that, not as a leaf's AccumulateGrad made anew or found by its number.
CASES += [
    Wrong("add_records_self_twice", edits={
        "        return record(AddBackward0, self.item() + other.item(), self, other)":
        "        return record(AddBackward0, self.item() + other.item(), self, self)"},
          fails={DOCS: "a.grad_fn.next_functions[1][0] is not [0][0], x's AccumulateGrad"},
          names=("an edge to each of their two inputs", "handed that input for both"),
          unsaid=("make it once and keep it on the leaf", "found by the leaf's number")),
    Wrong("mul_records_self_twice", edits={
        "        out = record(MulBackward0, self.item() * other.item(), self, other)":
        "        out = record(MulBackward0, self.item() * other.item(), self, self)"},
          fails={DOCS: "y.grad_fn.next_functions[1][0] is not [0][0], a.grad_fn"},
          names=("an edge to each of their two inputs", "handed that input for both")),
]

# gradient_edge gives every leaf (None, 0), no AccumulateGrad: x still requires grad, so the
# diagram's note says what its place holds (an entry with no node), not that a value requiring
# no grad stands there.
CASES += [
    Wrong("no_accumulator_for_leaves", edits={ACCUMULATOR: "    return None, 0"},
          fails={DOCS: "b.grad_fn.next_functions[0][0] is None, where PyTorch's is not",
                 CONSTANTS: "c * w, w + c and (c * 3) * w each hold (w's AccumulateGrad, 0) in PyTorch, but not in your engine"},
          names=("next_functions", "a leaf that requires grad has the entry (its AccumulateGrad, 0)"),
          unsaid=("a value that requires no grad stands", "(a Python number too) as well")),  # w's entry, not the 1's
]

# MulBackward0 saves the right Values under each other's names (save("self", other)): the
# feedback names the swap, not a number saved in a Value's place.
CASES += [
    Wrong("mul_saves_under_swapped_names", edits={'out.grad_fn.save("other", other)': 'out.grad_fn.save("self", other)',
                                                  'out.grad_fn.save("self", self)': 'out.grad_fn.save("other", self)'},
          fails={DOCS: 'y.grad_fn saved a itself as "other" in your engine, but not in PyTorch'},
          names=('saved a itself as "other"', "under its own name"), unsaid=("neither its number",)),
]

# gradient_edge gives a leaf that requires grad (the leaf itself, 0): an edge to the Value, not to a
# node. The diagram draws the entry as what it is (no op box named "Value" under a non-leaf x), and
# the rows tell its type, not a node's name.
CASES += [
    Wrong("leaf_edge_to_the_value_itself", edits={ACCUMULATOR: "    return v, 0"},
          fails={DOCS: "b.grad_fn.next_functions[0][0] is not the kind of result PyTorch's is: yours is of type Value"},
          names=("gradient_edge", "(its AccumulateGrad, 0)"),
          unsaid=("is a non-leaf that does not retain its grad", "a node whose name() is not a str",
                  "(a Python number too) as well")),
]

SAVES_NOTHING = {"        out = record(MulBackward0, self.item() * other.item(), self, other)\n        if out.grad_fn is not None:\n"
                 "            if self.requires_grad:\n                out.grad_fn.save(\"other\", other)\n"
                 "            if other.requires_grad:\n                out.grad_fn.save(\"self\", self)\n        return out":
                 "        return record(MulBackward0, self.item() * other.item(), self, other)"}

# record sets the node's class as grad_fn, not a node made from it: the tests read the class's
# name() (which needs an object) and are told what grad_fn holds, not the error their read met.
CASES += [
    Wrong("grad_fn_the_node_class", edits={"        out.grad_fn = op(tuple(gradient_edge(v) for v in inputs))":
                                           "        out.grad_fn = op\n"
                                           "        out.grad_fn.next_functions = tuple(gradient_edge(v) for v in inputs)",
                                           **SAVES_NOTHING},  # as the node's class has no save to call
          fails={DOCS: "a.grad_fn is the class AddBackward0 itself, not a node made from it"},
          names=("is the class AddBackward0 itself", "records a node"),
          unsaid=("raised while the test used what your code returned",)),
]

# Node.name printing its name instead of returning it: every node read is told by what its name()
# returned (in Chinese too), not quoted as a text of the engine's.
CASES += [
    Wrong("name_printed_not_returned",
          edits={"    def name(self) -> str:\n        return type(self).__name__\n":
                 "    def name(self) -> str:\n        print(type(self).__name__)\n"},
          fails={DOCS: "a.grad_fn is a node whose name() returns an object of type NoneType, where PyTorch's name() "
                       "returns a str"},
          names=("name()", "NoneType"), unsaid=("a node whose name() is not a str",)),
]

# The class of +'s node named AddBackward (PyTorch's is AddBackward0): told once, on the first node
# of that name, not again for each entry of a later node's next_functions that is one of them.
CASES += [
    Wrong("add_node_class_misnamed",
          edits={"class AddBackward0(Node):": "class AddBackward(Node):",
                 "        return record(AddBackward0, self.item() + other.item(), self, other)":
                 "        return record(AddBackward, self.item() + other.item(), self, other)"},
          fails={DOCS: "a.grad_fn is \"AddBackward\" here, which differs from PyTorch's"},
          names=("grad_fn", "AddBackward"), unsaid=("next_functions[0][0] is \"AddBackward\"", "b.grad_fn is \"AddBackward\"")),
]

# c + 0 and c * 1 handed back as c itself when nothing is recorded: a Value that requires grad is
# never given back, so only a constant shows it.
IDENTITY_SHORTCUT = {
    "        other = as_value(other)\n        return record(AddBackward0,":
    "        other = as_value(other)\n        if not recording(self, other) and other.item() == 0:\n            return self\n"
    "        return record(AddBackward0,",
    "        other = as_value(other)\n        out = record(MulBackward0,":
    "        other = as_value(other)\n        if not recording(self, other) and other.item() == 1:\n            return self\n"
    "        out = record(MulBackward0,"}
CASES += [
    Wrong("constant_plus_zero_is_itself", edits=IDENTITY_SHORTCUT,
          fails={CONSTANTS: "c + 0 is c, c = Value(-2) in your engine, but not in PyTorch"},
          names=("c + 0 is c", "whether it records a node or not")),
]

# A product with a factor 0 left unrecorded ("its gradient is 0 anyway"): nothing is recorded, no copy of
# an operand is handed to record.
CASES += [
    Wrong("product_with_zero_unrecorded", edits={
        "        other = as_value(other)\n        out = record(MulBackward0,":
        "        other = as_value(other)\n        if self.item() == 0 or other.item() == 0:\n            return Value(0.0)\n"
        "        out = record(MulBackward0,"},
          fails={"the documents' graph on other inputs": "With a = 0: y.grad_fn is None, where PyTorch's is not"},
          names=("With a = 0: y.grad_fn", "whatever the numbers"),
          unsaid=("records are the Values a and b themselves", "such as Value(w)")),
]

# record marking its inputs as requiring grad: a constant used in a recorded operation is changed by it.
CASES += [
    Wrong("record_marks_its_inputs", edits={RECORD: RECORD.replace(
        "    if recording(*inputs):\n", "    if recording(*inputs):\n        for v in inputs:\n            v.requires_grad = True\n")},
          fails={CONSTANTS: "c.requires_grad is False after c * w, c = Value(-2) in PyTorch, but not in your engine"},
          names=("c.requires_grad is False after c * w", "never on an input")),
]

# Nodes equal by name(): the picture's graph is read by identity, so two MulBackward0 nodes stay two and
# the note beside difference.svg blames no order of inputs the engine never changed.
CASES += [
    Wrong("nodes_equal_by_name_and_new_accumulators", edits={
        ACCUMULATOR: "    return AccumulateGrad(v), 0",
        "    def name(self) -> str:\n        return type(self).__name__\n":
        "    def name(self) -> str:\n        return type(self).__name__\n\n"
        "    def __eq__(self, other):\n        return isinstance(other, Node) and self.name() == other.name()\n\n"
        "    def __hash__(self):\n        return hash(self.name())\n"},
          fails={DOCS: "w's AccumulateGrad in a.grad_fn.next_functions is the one in b.grad_fn.next_functions in PyTorch"},
          names=("must give a leaf the same AccumulateGrad",), unsaid=("come in another order",)),
]

# AccumulateGrad.name() shortened to "AccumulateGrad" (as the documents' pictures label it): a name
# that differs alone is told by that name, not by the rules of (None, 0) entries or input order.
CASES += [
    Wrong("accumulator_named_short", edits={
        '        return "torch::autograd::AccumulateGrad"': '        return "AccumulateGrad"'},
          fails={DOCS: "The name() of w's AccumulateGrad is \"AccumulateGrad\" here"},
          names=("the name() of w's AccumulateGrad", "named as PyTorch names its node"),
          unsaid=("in input order", "in that input's place")),
]

# MulBackward0 saving a new Value of each operand's number: the rule names that copy, not a number.
CASES += [
    Wrong("mul_saves_value_copies", edits={
        """                out.grad_fn.save("other", other)""": """                out.grad_fn.save("other", Value(other.item()))""",
        """                out.grad_fn.save("self", self)""": """                out.grad_fn.save("self", Value(self.item()))"""},
          fails={DOCS: "y.grad_fn saved b itself as \"other\" in PyTorch, but not in your engine"},
          names=("saved b itself", "nor a new Value made of it")),
]

# gradient_edge letting a leaf's AccumulateGrad go when it meets the leaf with requires_grad False: switched
# on again, the leaf gets a second node, and a graph built before the switch reaches it through the first.
CASES += [
    Wrong("accumulator_dropped_when_flag_off", edits={
        "    if not v.requires_grad:\n        return None, 0\n":
        "    if not v.requires_grad:\n        v._accumulator = None  # no longer needs one: let it go\n        return None, 0\n"},
          fails={CONSTANTS: "w's AccumulateGrad in (w + x).grad_fn.next_functions is the one in (w * 3)"},
          names=("keeps its AccumulateGrad for its whole life",)),
]

# Node's saved dict moved to the class (a field declared once, as a dataclass's would be): every node shares one
# dict, so each shows what all saved. Told as nodes not keeping what they saved apart, not as AddBackward0's rule.
CASES += [
    Wrong("saved_in_one_class_dict", edits={
        '        self.saved: dict[str, Value] = {}  # what apply needs, by torch\'s name ("self", "other")\n': "",
        '    """A backward function, torch\'s ``grad_fn``: one per recorded operation."""\n\n    def __init__':
        '    """A backward function, torch\'s ``grad_fn``: one per recorded operation."""\n\n    saved: dict = {}\n\n    def __init__'},
          fails={DOCS: "keep what they saved apart in PyTorch, but not in your engine",
                 CONSTANTS: "keep what they saved apart in PyTorch, but not in your engine"},
          names=("keep what they saved apart", "a dict of its own"), unsaid=("AddBackward0 saves nothing",)),
    # the operands saved through .data, taken for the operand itself: a new Value each
    Wrong("mul_saves_data", edits={'                out.grad_fn.save("other", other)\n': '                out.grad_fn.save("other", other.data)\n',
                                   '                out.grad_fn.save("self", self)\n': '                out.grad_fn.save("self", self.data)\n'},
          fails={DOCS: "y.grad_fn saved b itself as \"other\" in PyTorch, but not in your engine"},
          names=("saved b itself", "nor a new Value made of it")),
    Correct("is_leaf_by_requires_grad_too", edits={"        return self.grad_fn is None\n":
                                                   "        return not self.requires_grad or self.grad_fn is None\n"}),
    Correct("requires_grad_given_to_the_result", edits={RECORD: '''    needs = recording(*inputs)
    out = Value(number, requires_grad=needs)
    if needs:
        out.grad_fn = op(tuple(gradient_edge(v) for v in inputs))
    return out'''}),
]

# MulBackward0 saving a Python number as it was given (w * 3 saves the int 3, not the Value as_value made of it):
# nothing of this stage reads it, ex17's apply calls item() on it; told by what was saved.
CASES += [
    Wrong("mul_saves_the_number_as_given", edits={
        "        other = as_value(other)\n        out = record(MulBackward0,":
        "        given = other\n        other = as_value(other)\n        out = record(MulBackward0,",
        '                out.grad_fn.save("other", other)': '                out.grad_fn.save("other", given)'},
          fails={"Python numbers on either side": 'saved as "other" is a Value in PyTorch, but not in your engine'},
          names=("(w * 3).grad_fn", "the number 3", "is a Value")),
]

# __radd__ written as the number plus the Value (as_value(other) + self): 2 + w records the number's entry first.
# Told by the method Python ran for a number on the left, not only by an order of entries.
CASES += [
    Wrong("radd_as_number_plus_value", edits={"    __radd__ = __add__\n": "    def __radd__(self, other: float) -> Value:\n"
                                                                       "        return as_value(other) + self\n"},
          fails={"Python numbers on either side": "Python runs your Value's __radd__, and it put the number's entry"},
          names=("(2 + w).grad_fn.next_functions", "__radd__")),
    # Value.__eq__ by number (__hash__ by identity): no part of this stage compares Values, PyTorch's == is no test of it
    Correct("value_equal_by_number", edits={"    __radd__ = __add__\n": "    def __eq__(self, other: object) -> bool:\n"
                                                                     "        return isinstance(other, Value) and self.item() == other.item()\n\n"
                                                                     "    def __hash__(self) -> int:\n        return id(self)\n\n"
                                                                     "    __radd__ = __add__\n"}),
]

# __rmul__ written as other * self: a number on the left again, so Python calls __rmul__ again, without end.
CASES += [
    Wrong("rmul_as_other_times_self", edits={"    __rmul__ = __mul__": "    def __rmul__(self, other: float) -> Value:\n"
                                                                      "        return other * self"},
          fails={"Python numbers on either side": "RecursionError"}, names=("Value.__rmul__", "RecursionError")),
]

# The edges gathered in a set: ordered by the nodes' hashes, another order at each build (w * w's two edges one).
CASES += [
    Wrong("edges_gathered_in_a_set", edits={"out.grad_fn = op(tuple(gradient_edge(v) for v in inputs))":
                                            "out.grad_fn = op(tuple({gradient_edge(v) for v in inputs}))"},
          fails={"the documents' graph on other inputs": "has its next_functions in the order they had the first time"},
          names=("in the order they had the first time", "changes from one build to the next"),
          unsaid=("record keeps nothing between calls",)),
]

# record keeps each node in a module dict by its operation and its inputs' ids: a later operation whose inputs
# sit at an earlier one's addresses gets that node, told as one node for two operations, not a saved dict shared.
CASES += [
    Wrong("nodes_kept_by_operation_and_input_ids", edits={
        "def record(op: type[Node], number: float, *inputs: Value) -> Value:":
        "_MADE: dict = {}\n\n\ndef record(op: type[Node], number: float, *inputs: Value) -> Value:",
        "        out.grad_fn = op(tuple(gradient_edge(v) for v in inputs))\n":
        "        key = (op, *(id(v) for v in inputs))\n        if key not in _MADE:\n"
        "            _MADE[key] = op(tuple(gradient_edge(v) for v in inputs))\n        out.grad_fn = _MADE[key]\n"},
          fails={"Python numbers on either side": "have a node each, five nodes in PyTorch, but not in your engine"},
          names=("five nodes", "a node of its own from record"), unsaid=("one dict shared by several nodes",)),
]

# __add__ makes a result with a Python number directly, w's requires_grad copied, never through record:
# recording is right for those inputs, the result has no node; told as + leaving record out.
CASES += [
    Wrong("add_number_made_without_record", edits={
        "        other = as_value(other)\n        return record(AddBackward0,":
        "        if not isinstance(other, Value):\n            return Value(self.item() + other, requires_grad=self.requires_grad)\n"
        "        other = as_value(other)\n        return record(AddBackward0,"},
          fails={DOCS: "b = w + 1 has a node whenever recording(w, Value(1)) is True in PyTorch, but not in your engine"},
          names=("b.grad_fn is None", "make every result through record"),
          unsaid=("recording(*inputs) is True then",)),
]

# recording keeps a module flag that the first recorded operation turns on: every later operation records.
CASES += [
    Wrong("recording_flag_kept_on", edits={
        "    return any(v.requires_grad for v in inputs)\n":
        "    global _ON\n    if any(v.requires_grad for v in inputs):\n        _ON = True\n    return _ON\n",
        "def recording(": "_ON = False\n\n\ndef recording("},
          fails={CONSTANTS: "records no node after w * 3 recorded one, as before it in PyTorch, but not in your engine"},
          names=("(c * 3).grad_fn is not None", "recording keeps nothing between calls")),
]

# __mul__ hands record its operands swapped (other, self): the very Values, in another order. Told by the order
# of the entries, not as a copy of an operand handed to record.
CASES += [
    Wrong("mul_records_operands_swapped", edits={
        "out = record(MulBackward0, self.item() * other.item(), self, other)":
        "out = record(MulBackward0, self.item() * other.item(), other, self)"},
          fails={CONSTANTS: "(c * w).grad_fn.next_functions holds PyTorch's entries, but in another order"},
          names=("next_functions", "in another order"),
          unsaid=("hand record the very Values they are given",)),
]

# gradient_edge asks requires_grad before grad_fn: every value that requires grad, one an operation made too, gets an
# AccumulateGrad. Told as an AccumulateGrad whose .variable an operation made, not as a name that differs alone.
CASES += [
    Wrong("accumulator_for_values_an_operation_made", edits={
        "    if v.grad_fn is not None:\n        return v.grad_fn, 0\n    if not v.requires_grad:\n":
        "    if not v.requires_grad:\n"},
          fails={DOCS: "y.grad_fn.next_functions[0][0] is an AccumulateGrad node whose .variable is a value an operation made"},
          names=("y.grad_fn.next_functions[0][0]", "only to a leaf that requires grad")),
]

# + writing its result into self, as += would: the results hold the right numbers, the leaves changed. Told by the
# rule of operands left as they were, not as a result's number.
CASES += [
    Wrong("add_changes_self", edits={
        "        return record(AddBackward0, self.item() + other.item(), self, other)":
        "        self._box[0] += other.item()\n        return record(AddBackward0, self.item(), self, other)"},
          fails={DOCS: "w.item() is a different number from PyTorch's"},
          names=("w.item()", "leaves its operands as they were")),
]

# is_leaf asked of the leaf's AccumulateGrad: a leaf that requires grad is no leaf until an operation made
# its node
CASES += [
    Wrong("is_leaf_once_it_has_an_accumulator",
          edits={"        return self.grad_fn is None\n":
                 "        return self._accumulator is not None or not self.requires_grad\n"},
          fails={DOCS: "For a leaf w that requires grad and that no operation has used yet, w.is_leaf is False"},
          names=("no operation has used yet, w.is_leaf is False", "a leaf exactly when no recorded operation made it")),
]

# an operator that hands a Python number on as it came (no as_value): the engine reads a Value's attribute of
# the number, told with the operator and its argument, not with Python's text alone
CASES += [
    Wrong("add_hands_the_number_on", edits={
        "        other = as_value(other)\n        return record(AddBackward0, self.item() + other.item(), self, other)\n":
        "        number = other.item() if isinstance(other, Value) else other\n"
        "        return record(AddBackward0, self.item() + number, self, other)\n"},
          fails={DOCS: "Your Value.__add__ was given other as a Python number (of type int) and used it where a Value belongs"},
          names=("Value.__add__ was given other as a Python number", "where a Value belongs")),
    Wrong("mul_reads_item_of_the_number", edits={
        "        other = as_value(other)\n        out = record(MulBackward0": "        out = record(MulBackward0"},
          fails={"Python numbers on either side": "Your Value.__mul__ was given other as a Python number (of type int)"},
          names=("Value.__mul__ was given other as a Python number", "where a Value belongs")),
]

# the leaf's one AccumulateGrad kept with `or`: made on the first call, handed out after
CASES += [
    Correct("accumulator_kept_with_or", edits={
        "    if v._accumulator is None:\n        v._accumulator = AccumulateGrad(v)\n    return v._accumulator, 0\n":
        "    v._accumulator = v._accumulator or AccumulateGrad(v)\n    return v._accumulator, 0\n"}),
]
