"""ex12 gallery: plausible wrong answers and correct variants (format: gallery_case.py)."""

from gallery_case import Correct, Wrong

FORWARD = "forward gives input leaves, output rows, summed loss"
RAISES = "a second backward raises"
TWICE = "the gradients after each call"

SECOND = '''    loss.backward()  # adds the same gradients again: .grad accumulates
    second = [p.grad.item() for p in net.parameters()]
'''
TRY = '''    try:
        loss.backward()
    except RuntimeError as error:
        return error  # the layer node's saved input and weights are gone; no gradient was added
    return None
'''
LOSS = "    loss = micrograph.sum([v for row in output for v in row])\n"

CASES = [
    Wrong("flat_output", names=("output is one flat list of Values",),
          fails={FORWARD: "not in one list per input row"},
          edits={"    return inputs, output, loss\n":
                 "    return inputs, [v for row in output for v in row], loss\n"}),
    Wrong("always_retain", fails={RAISES: "the error returned is None"}),
    Wrong("fake_doubling", names=('each entry of input has requires_grad=False', 'grads_twice ran backward fewer times'), fails={FORWARD: "each entry of input has requires_grad=False",
                                  TWICE: "grads_twice ran backward fewer times"},
          edits={"    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n":
                 "    inputs = [[Value(v) for v in row] for row in rows]\n",
                 SECOND: "    second = [2 * g for g in first]\n"}),
    Wrong("own_net", names=("loss's graph never reaches weight[0][0]",), fails={FORWARD: "loss's graph never reaches weight[0][0]",  # nn.Linear(n, 4), as the documents
                            RAISES: "backward never wrote weight[0][0].grad"},
          edits={"    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n":
                 "    net = nn.Linear(len(rows[0]), 4)\n"
                 "    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n"}),
    Wrong("error_by_hand", names=('the error returned is another error', 'second_backward_error ran backward fewer times'), fails={RAISES: "the error returned is another error"},
          edits={TRY: '    return RuntimeError("Trying to backward through the graph a second time")\n'}),
    Wrong("second_as_formula", names=('grads_twice ran backward fewer times', 'grads_twice(net, rows) is not one the engine produced'), fails={TWICE: "grads_twice ran backward fewer times"},
          edits={SECOND: "    second = [2 * g for g in first]\n"},
          unsaid=("it was read after that pass",)),  # one pass: the list records the last
    Wrong("doubled_by_hand", names=('weight[0][0].grad holds a value that backward did not write',), fails={TWICE: "assigned by hand"},
          edits={SECOND: "    for p in net.parameters():\n        p.grad = p.grad * 2\n"
                         "    second = [p.grad.item() for p in net.parameters()]\n"}),
    Wrong("cleared_between", names=('grads_twice cleared .grad',), fails={TWICE: "grads_twice cleared .grad (None or zero) before a backward pass"},
          edits={"    loss.backward()  # adds the same gradients again: .grad accumulates\n":
                 "    net.zero_grad()\n    loss.backward()\n"}),
    Wrong("loss_from_first_row", names=("only some rows of output", "no entry of output[1] reaches it"),
          fails={FORWARD: "loss is computed from only some rows of output", TWICE: "no entry of output[1] reaches it"},
          edits={LOSS: "    loss = micrograph.sum(output[0])\n"}),
    Wrong("loss_without_last_column", names=("only some entries of output", "output[0][3] does not reach it"),
          fails={FORWARD: "output[0][3] does not reach it"},
          edits={LOSS: "    loss = micrograph.sum([v for row in output for v in row[:-1]])\n"}),
    Wrong("loss_from_a_second_call", names=("loss is not computed from the output returned with it",),
          fails={FORWARD: "none of its entries reaches loss"},  # the same numbers, from another call of net
          edits={LOSS: "    loss = micrograph.sum([v for row in net(inputs) for v in row])\n"}),
    Wrong("forward_runs_backward", names=('forward started a backward pass',), fails={FORWARD: "forward started a backward pass"},
          edits={"    return inputs, output, loss\n": "    loss.backward(retain_graph=True)\n"
                                                     "    return inputs, output, loss\n"}),
    # the statement names micrograph.sum: told as the chain Python's sum() makes, not only by the root's op
    Wrong("python_sum", fails={FORWARD: "the graph Python's built-in sum() makes"},
          edits={LOSS: "    loss = sum(v for row in output for v in row)\n"},
          names=("loss is a chain of additions", "built-in sum()", "micrograph.sum")),
    Correct("other_names"),
    Wrong("second_pass_on_new_graph", names=('grads_twice ran its backward passes on different graphs',), fails={TWICE: "ran its backward passes on different graphs"},
          edits={SECOND: "    _, _, loss = forward(net, rows)\n" + SECOND}),
    Wrong("second_formula_after_reading", names=('grads_twice(net, rows) is not one the engine produced',),  # two real passes, .grad read, the second written down
          fails={TWICE: "is not one the engine produced"},
          edits={"    second = [p.grad.item() for p in net.parameters()]\n":
                 "    assert all(p.grad is not None for p in net.parameters())\n"
                 "    second = [2 * g for g in first]\n"}),
]

# State kept between calls: the records in a mutable default argument.
CASES += [
    Wrong("records_as_default_argument",  # every call after the first returns the first call's lists
          fails={"other layer sizes": "is a gradient the engine produced in an earlier call"},
          edits={"def grads_twice(net: nn.Linear, rows: list[list[float]]) -> tuple[list[float], list[float]]:":
                 "def grads_twice(net: nn.Linear, rows: list[list[float]], records: list = []) -> tuple[list[float], list[float]]:",
                 "    first = [p.grad.item() for p in net.parameters()]\n":
                 "    records.append([p.grad.item() for p in net.parameters()])\n",
                 "    second = [p.grad.item() for p in net.parameters()]\n    return first, second":
                 "    records.append([p.grad.item() for p in net.parameters()])\n    return records[0], records[1]"},
          names=("grads_twice", "earlier call")),
    # the hooks' gradients kept in a module list: a fresh import's first call pairs its own two passes
    Wrong("hook_values_in_a_module_list",
          fails={TWICE: "depends on state kept between calls"},
          edits={"    loss.backward(retain_graph=True)  # keep the saved operands for a second pass\n":
                 "    params = list(net.parameters())\n    for p in params:\n"
                 "        p.register_hook(lambda g: _SEEN.append(g.item()))\n    loss.backward(retain_graph=True)\n",
                 "    second = [p.grad.item() for p in net.parameters()]\n":
                 "    second = [a + b for a, b in zip(_SEEN[:len(params)], _SEEN[len(params):2 * len(params)])]\n",
                 "def grads_twice(": "_SEEN = []  # every gradient the hooks saw\n\n\ndef grads_twice("},
          names=("grads_twice", "state kept between calls")),
]
CASES += [
    Wrong("second_error_on_new_graph",  # the graph built again: its second backward works
          fails={RAISES: "second_backward_error ran its backward passes on different graphs"},
          edits={"    try:\n        loss.backward()\n    except RuntimeError as error:":
                 "    try:\n        _, _, loss = forward(net, rows)\n        loss.backward()\n    except RuntimeError as error:"},
          names=("second_backward_error ran its backward passes on different graphs",)),
    Wrong("doubled_in_place",  # cleared, one backward, then .grad doubled through .data
          fails={TWICE: "was changed after backward wrote it"},
          edits={"    loss.backward()  # adds the same gradients again: .grad accumulates\n":
                 "    net.zero_grad()\n    loss.backward()\n    for p in net.parameters():\n        p.grad.data.mul_(2)\n"},
          names=("grads_twice cleared .grad", "was changed after backward wrote it")),
]


# Plausible mistakes of more kinds, each graded as a student reads it: state kept between calls
# (a default argument, a module-level or class-level store), generic list and generator bugs,
# off-by-one, a wrong operand or flag; and correct answers written another way.
CASES += [
    # every entry of every input row made without grad: told of the whole matrix, not of each row's first entry
    Wrong('inputs_without_grad', fails={'forward gives input leaves, output rows, summed loss': 'each entry of input has requires_grad=False'},
          edits={'    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n': '    inputs = [[Value(v) for v in row] for row in rows]\n'},
          names=('each entry of input', 'requires_grad=False'),
          # every input leaf is missing, not one; and loss's graph reaches none because none requires grad
          unsaid=("is missing a leaf", "the same holds for input[1][0]", "never reaches input[")),
    # the first row alone made without grad: each of its entries is named, not its first alone
    Wrong('first_row_without_grad',
          fails={'forward gives input leaves, output rows, summed loss':
                 'input[0][0] has requires_grad=False, unlike the statement\'s; the same holds for input[0][1], input[0][2]'},
          edits={'    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n':
                 '    inputs = [[Value(v, requires_grad=i > 0) for v in row] for i, row in enumerate(rows)]\n'},
          names=('input[0][1]', 'requires_grad=False'), unsaid=("each entry of input", "never reaches input[")),
    # net given detach()es of the input leaves: one sentence for the whole matrix, not one an entry
    Wrong('net_given_detached_input', fails={FORWARD: "loss's graph never reaches any entry of input"},
          edits={"    output = net(inputs)\n": "    output = net([[v.detach() for v in row] for row in inputs])\n"},
          names=("loss's graph never reaches any entry of input",), unsaid=("never reaches input[",)),
    # the first row alone detached: its entries named in one sentence
    Wrong('first_row_detached', fails={FORWARD: "loss's graph never reaches input[0][0]; the same holds for input[0][1], input[0][2]"},
          edits={"    output = net(inputs)\n": "    output = net([[v.detach() for v in inputs[0]], *inputs[1:]])\n"},
          names=("never reaches input[0][0]",), unsaid=("any entry of input",)),
    Wrong('first_as_values', fails={'the gradients after each call': 'grads_twice(net, rows)[0] holds the very numbers'},
          edits={'    first = [p.grad.item() for p in net.parameters()]\n': '    first = [p.grad for p in net.parameters()]\n', '    return first, second': '    return [g.item() for g in first], second'},
          names=('grads_twice(net, rows)[0]', 'read after that pass'),
          unsaid=("are all the same",)),  # the two lists are equal; the numbers in each differ
    Wrong('mean_loss', fails={'forward gives input leaves, output rows, summed loss': 'DivBackward0'},
          edits={'    loss = micrograph.sum([v for row in output for v in row])\n': '    entries = [v for row in output for v in row]\n    loss = micrograph.sum(entries) / len(entries)\n'},
          names=("loss's graph", 'DivBackward0'),
          unsaid=('loss.grad_fn is',)),  # the root op, told once
    Wrong('error_as_text', fails={'a second backward raises': 'is of type str'},
          edits={"        return error  # the layer node's saved input and weights are gone; no gradient was added": '        return str(error)'},
          names=('the error returned', 'str')),
    Wrong('error_text_changed_near_its_end', edits={  # PyTorch's long text, one word changed: the quote ends marked cut
        "        return error  # the layer": "        return RuntimeError(str(error).replace('retain_graph=True', 'retain_graph=False'))  # the layer"},
          fails={RAISES: 'Specify retain_graph=False if you need to backward through the graph a second time \u2026"'},
          names=('the error returned is another error', 'retain_graph=False')),
    Wrong('parameters_consumed', fails={'the gradients after each call': 'grads_twice(net, rows)[1] is empty'},
          edits={'    loss.backward(retain_graph=True)  # keep the saved operands for a second pass\n    first = [p.grad.item() for p in net.parameters()]\n    loss.backward()  # adds the same gradients again: .grad accumulates\n    second = [p.grad.item() for p in net.parameters()]': '    params = net.parameters()\n    loss.backward(retain_graph=True)\n    first = [p.grad.item() for p in params]\n    loss.backward()\n    second = [p.grad.item() for p in params]'},
          names=('grads_twice(net, rows)[1]', 'is empty'), unsaid=('retain_graph',)),  # a generator read to its end
    Correct('python_sum_of_rows', edits={'    loss = micrograph.sum([v for row in output for v in row])\n': '    loss = micrograph.sum([micrograph.sum(row) for row in output])\n'}),
]

# More answers read as a student: the loss summed over the inputs, the layer given the first
# row only, the first record read after the second pass, the gradients cleared between the
# passes, the second record in reversed parameter order.
CASES += [
    Wrong('loss_of_inputs', fails={'forward gives input leaves, output rows, summed loss': "loss's graph never reaches weight[0][0]"},
          edits={'    loss = micrograph.sum([v for row in output for v in row])': '    loss = micrograph.sum([v for row in inputs for v in row])'},
          names=("loss's graph never reaches weight[0][0]",)),
    Wrong('first_row_only', fails={'forward gives input leaves, output rows, summed loss': "loss's graph never reaches input[1][0]"},
          edits={'    output = net(inputs)': '    output = net(inputs[:1])'},
          names=("loss's graph never reaches input[1][0]",)),
    Wrong('first_read_after_second', fails={'the gradients after each call': 'grads_twice(net, rows)[0] holds the very numbers'},
          edits={'    first = [p.grad.item() for p in net.parameters()]\n    loss.backward()  # adds the same gradients again: .grad accumulates\n': '    loss.backward()\n    first = [p.grad.item() for p in net.parameters()]\n'},
          names=('grads_twice(net, rows)[0]', 'read after that pass')),
    Wrong('zero_grad_between', fails={'the gradients after each call': 'grads_twice cleared .grad (None or zero) before a backward pass'},
          edits={'    loss.backward()  # adds the same gradients again: .grad accumulates\n': '    net.zero_grad()\n    loss.backward()\n'},
          names=('grads_twice cleared .grad',)),
    Wrong('second_reversed', fails={'the gradients after each call': "grads_twice(net, rows)[1] holds the statement's entries, but in another order"},
          edits={'    second = [p.grad.item() for p in net.parameters()]': '    second = [p.grad.item() for p in reversed(list(net.parameters()))]'},
          names=('grads_twice(net, rows)[1]',)),
]


# The second backward from a forward pass made again: it needs no retain_graph, and is no
# second pass through the first graph.
CASES += [
    Wrong('second_pass_on_a_new_graph', fails={'the gradients after each call': 'on different graphs'},
          edits={'    loss.backward()  # adds the same gradients again':
                 '    _, _, loss = forward(net, rows)\n    loss.backward()  # adds the same gradients again'},
          names=('grads_twice', 'different graphs')),
]


# The first list kept as the .grad Values and read after the second backward, which changed them
# in place: told by the very numbers it holds.
CASES += [
    Wrong('first_list_read_last', fails={'the gradients after each call': 'holds the very numbers'},
          edits={'    first = [p.grad.item() for p in net.parameters()]\n':
                 '    first = [p.grad for p in net.parameters()]\n',
                 '    return first, second': '    return [g.item() for g in first], second'},
          names=('grads_twice(net, rows)[0]', 'after the last backward')),
]


# The mean of the outputs where the statement sums them: the loss's own node tells it.
CASES += [
    Wrong('micrograph_mean_loss', fails={FORWARD: "your graph has MeanBackward0 there"},
          edits={LOSS: "    loss = micrograph.mean([v for row in output for v in row])\n"},
          names=("loss's graph differs at its root", 'MeanBackward0')),
]

# State kept between calls: forward's result cached by the net it was given, whatever the rows.
CASES += [
    Wrong("forward_cached_by_net",
          fails={FORWARD: "forward returned something else than the same call returns in a fresh import"},
          edits={"    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n    output = net(inputs)\n":
                 "    if id(net) in _CACHE:\n        return _CACHE[id(net)]\n"
                 "    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n    output = net(inputs)\n",
                 "    loss = micrograph.sum([v for row in output for v in row])\n    return inputs, output, loss\n":
                 "    loss = micrograph.sum([v for row in output for v in row])\n"
                 "    _CACHE[id(net)] = inputs, output, loss\n    return inputs, output, loss\n",
                 "def forward(": "_CACHE = {}\n\n\ndef forward("},
          names=("forward", "state kept between calls")),
]

# State kept between calls where every number is the statement's: the input leaves cached on the
# rows (a later batch of the same rows shares them, and their .grad), the loss cached per net
# (a second call on that net backpropagates through a graph already freed, and raises).
CASES += [
    Wrong("inputs_cached_on_the_rows",
          fails={FORWARD: "the input[0][0] forward returned is still the input[0][0] an earlier call"},
          edits={"    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n":
                 "    key = tuple(map(tuple, rows))\n"
                 "    inputs = _INPUTS.setdefault(key, [[Value(v, requires_grad=True) for v in row] for row in rows])\n",
                 "def forward(": "_INPUTS: dict = {}\n\n\ndef forward("},
          names=("forward", "an earlier call", "kept between calls and returned again"),
          unsaid=("called again with the inputs of an earlier call",)),  # told once, by the leaf it kept
    Wrong("loss_cached_per_net",
          fails={"a second backward raises": "raised an error where the first call returned"},
          edits={"    _, _, loss = forward(net, rows)\n    loss.backward()  # frees what the products saved\n":
                 "    if id(net) not in _LOSSES:\n        _LOSSES[id(net)] = forward(net, rows)[2]\n"
                 "    loss = _LOSSES[id(net)]\n    loss.backward()  # frees what the products saved\n",
                 "def second_backward_error(": "_LOSSES: dict = {}\n\n\ndef second_backward_error("},
          names=("second_backward_error", "state kept between calls")),
]

# The parameters' .grad Values returned where floats are asked for.
CASES += [
    Wrong("second_as_values",
          fails={TWICE: "grads_twice(net, rows)[1][0] is of type Value, not a Python float"},
          edits={"    second = [p.grad.item() for p in net.parameters()]\n":
                 "    second = [p.grad for p in net.parameters()]\n"},
          names=("grads_twice(net, rows)[1][0]", "of type Value, not a Python float")),
]

# forward's whole result cached on the rows: the functions that call it are right, but get an
# earlier call's graph (freed by an earlier backward, or built on another net) and raise.
CASES += [
    Wrong("graph_cached_on_the_rows",
          fails={RAISES: "second_backward_error called forward, which returned what an earlier call of "
                         "forward returned",
                 "other layer sizes": "grads_twice called forward, which returned what an earlier call"},
          edits={"    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n":
                 "    key = tuple(map(tuple, rows))\n"
                 "    if key in _GRAPHS:\n        return _GRAPHS[key]\n"
                 "    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n",
                 "    return inputs, output, loss\n": "    _GRAPHS[key] = inputs, output, loss\n"
                                                      "    return inputs, output, loss\n",
                 "def forward(": "_GRAPHS: dict = {}\n\n\ndef forward("},
          names=("called forward", "an earlier call of forward", "state kept between calls")),
]

# The input rows gathered in a mutable default argument: each call's rows join every earlier
# call's, and the net then refuses rows of another size.  The crash is forward's own, and only
# on a later call: the feedback says that the same call returns on a fresh import.
CASES += [
    Wrong("inputs_in_a_default_list",
          fails={"forward on other nets": "forward raised an error where the same call returns, as the first call "
                                          "of a fresh import",
                 RAISES: "second_backward_error called forward, which raised an error where the same call returns",
                 TWICE: "state kept between calls"},
          edits={"def forward(net: nn.Linear, rows: list[list[float]])":
                 "def forward(net: nn.Linear, rows: list[list[float]], inputs: list = [])",  # noqa: B006 - the mistake
                 "    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n":
                 "    inputs += [[Value(v, requires_grad=True) for v in row] for row in rows]\n"},
          names=("forward", "fresh import", "state kept between calls")),
]

# The first backward asked create_graph=True (which keeps the graph as retain_graph=True does):
# the second works and no error is caught; the feedback names the flag written, not retain_graph.
# loss.detach_() between the calls: the second backward raises before its pass begins, another
# error than the freed graph's.  The exception class returned in place of the object caught.
FIRST_BACKWARD = "    loss.backward()  # frees what the products saved\n"
CASES += [
    Wrong("first_backward_creates_graph", fails={RAISES: "create_graph=True, which keeps it"},
          edits={FIRST_BACKWARD: "    loss.backward(create_graph=True)\n"},
          names=("second_backward_error kept the graph", "create_graph=True")),
    Wrong("loss_detached_between", fails={RAISES: "called detach() or detach_()"},
          edits={FIRST_BACKWARD: FIRST_BACKWARD + "    loss.detach_()\n"},
          names=("second_backward_error started fewer backward passes", "detach_()")),
    Wrong("error_class_returned", fails={RAISES: "the exception class RuntimeError itself"},
          edits={"        return error  # the layer node's saved input and weights are gone; no gradient was added\n":
                 "        return RuntimeError\n"},
          names=("the exception class RuntimeError itself",)),
]

# The second pass started from an entry of output, a node inside the first pass's graph: one
# graph, two roots, nothing built again.
CASES += [
    Wrong("second_pass_from_an_output_entry",
          fails={TWICE: "started its backward passes from different nodes of one graph"},
          edits={"    _, _, loss = forward(net, rows)\n    loss.backward(retain_graph=True)":
                 "    _, output, loss = forward(net, rows)\n    loss.backward(retain_graph=True)",
                 "    loss.backward()  # adds the same gradients again: .grad accumulates\n":
                 "    output[0][0].backward()\n"},
          names=("grads_twice", "SumBackward0", "AddmmBackward0")),
]

# The second list read from what hooks on the parameters were handed, not from .grad: each pass
# hands a hook the same gradient, so the second list repeats the first.
CASES += [
    Wrong("second_from_hooks",
          fails={TWICE: "holds numbers a hook your code registered on weight[0][0] was handed"},
          edits={"    loss.backward(retain_graph=True)  # keep the saved operands for a second pass\n":
                 "    seen = {}\n    for i, p in enumerate(net.parameters()):\n"
                 "        p.register_hook(lambda g, i=i: seen.__setitem__(i, g.item()))\n"
                 "    loss.backward(retain_graph=True)\n",
                 "    second = [p.grad.item() for p in net.parameters()]\n":
                 "    second = [seen[i] for i in range(len(first))]\n"},
          names=("grads_twice(net, rows)[1]", "hook", "weight[0][0].grad")),
]

# forward replaces the numbers of the caller's rows with leaves, in place: its first call works,
# a second call on the same rows meets leaves where it expects numbers (a Value of a Value is a new
# leaf, as torch.tensor(t)) and returns other values: told as the list forward changed.
CASES += [
    Wrong("rows_replaced_in_place",
          fails={FORWARD: "forward changed a list it was given (entries replaced, added or removed)"},
          edits={"    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n":
                 "    for row in rows:\n        for i, v in enumerate(row):\n"
                 "            row[i] = Value(v, requires_grad=True)\n    inputs = rows\n"},
          names=("forward changed a list it was given", "called again with that list"),
          unsaid=("fresh import",)),
]

# forward makes one leaf per distinct number (a dict keyed by the number): equal entries of the
# input share one leaf, and the net's node takes it twice.
CASES += [
    Wrong("one_leaf_per_number",
          fails={"forward on other nets": "your code made one leaf for two entries of input"},
          edits={"    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n":
                 "    leaves: dict = {}\n"
                 "    inputs = [[leaves.setdefault(v, Value(v, requires_grad=True)) for v in row] for row in rows]\n"},
          names=("is the very Value", "one leaf for two entries of input")),
]

# grads_twice reads the input leaves' gradients, not the net's parameters'.
CASES += [
    Wrong("input_grads_read",
          fails={TWICE: "holds input[0][0].grad: your code read the gradients of Values that are not in "
                        "net.parameters()"},
          edits={"    _, _, loss = forward(net, rows)\n    loss.backward(retain_graph=True)":
                 "    inputs, _, loss = forward(net, rows)\n    loss.backward(retain_graph=True)",
                 "    first = [p.grad.item() for p in net.parameters()]\n":
                 "    first = [v.grad.item() for row in inputs for v in row]\n",
                 SECOND: "    loss.backward()\n    second = [v.grad.item() for row in inputs for v in row]\n"},
          names=("input[0][0].grad", "net.parameters()")),
]

# forward builds the input rows in reversed order: loss and gradients agree, the rows do not.
CASES += [
    Wrong("rows_reversed",
          fails={FORWARD: "input[0] holds the numbers of rows[1]: your code put the rows of input in another order"},
          edits={"    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n":
                 "    inputs = [[Value(v, requires_grad=True) for v in row] for row in reversed(rows)]\n"},
          names=("in another order than the rows it was given",), unsaid=("holds a different number",)),
]

# One list for both records: the first pass's numbers, read in turn, are overwritten in place by
# the second pass's.
CASES += [
    Wrong("one_list_for_both_passes", fails={TWICE: "is the very list the call returned for its later pass too"},
          edits={"    first = [p.grad.item() for p in net.parameters()]\n    loss.backward()  # adds the same gradients again: .grad accumulates\n    second = [p.grad.item() for p in net.parameters()]\n":
                 "    first = [p.grad.item() for p in net.parameters()]\n    loss.backward()  # adds the same gradients again: .grad accumulates\n"
                 "    for i, p in enumerate(net.parameters()):\n        first[i] = p.grad.item()\n    second = first\n"},
          names=("grads_twice(net, rows)[0]", "overwritten in place"),
          unsaid=("it was read after that pass",)),
]

# The right gradients in another order: the weights read column by column, then the biases.
COLUMNS = ("[net.weight[j][k].grad.item() for k in range(len(net.weight[0])) for j in range(len(net.weight))]"
           " + [b.grad.item() for b in net.bias]")
CASES += [
    Wrong("weights_by_column", fails={TWICE: "holds the statement's entries, but in another order"},
          edits={"    first = [p.grad.item() for p in net.parameters()]\n": f"    first = {COLUMNS}\n",
                 "    second = [p.grad.item() for p in net.parameters()]\n": f"    second = {COLUMNS}\n"},
          names=("grads_twice(net, rows)[0]", "in another order")),
]

# forward returns loss.item(), a float; the two other functions sum forward's output themselves and
# are right: the float is forward's mistake alone, not theirs.
CASES += [
    Wrong("forward_returns_the_float",
          fails={FORWARD: "loss is of type float"},
          edits={"    return inputs, output, loss\n": "    return inputs, output, loss.item()\n",
                 "    _, _, loss = forward(net, rows)\n    loss.backward()  # frees":
                 "    _, output, _ = forward(net, rows)\n    loss = micrograph.sum([v for row in output for v in row])\n"
                 "    loss.backward()  # frees",
                 "    _, _, loss = forward(net, rows)\n    loss.backward(retain_graph=True)":
                 "    _, output, _ = forward(net, rows)\n    loss = micrograph.sum([v for row in output for v in row])\n"
                 "    loss.backward(retain_graph=True)"},
          names=("loss is of type float",),
          passes=(RAISES, TWICE),
          unsaid=("loss.grad_fn is",)),  # a float has no grad_fn: its type is told once
]

# The documents' torch.sum(output) copied as micrograph.sum(output), output a list of rows: the
# engine's refusal is quoted whole, without the repr of the list it was given (the numbers of the
# layer's outputs, a hidden test's among them).
CASES += [
    Wrong("sum_of_the_rows_themselves",
          fails={FORWARD: "Value(data) takes a real number, got list"},
          edits={LOSS: "    loss = micrograph.sum(output)\n"},
          names=("TypeError", "got list"),
          unsaid=("grad_fn=<",)),
]

# The input leaves kept in a module global and refilled through .data when the next rows have the
# same shape (a training loop's next batch): the first call's input changes under it.
CASES += [
    Wrong("input_leaves_refilled",
          fails={FORWARD: "The input[0][0] forward returned is still the input[0][0] an earlier call"},
          edits={"def forward(": "_INPUTS: list = []\n\n\ndef forward(",
                 "    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n":
                 "    if [len(r) for r in _INPUTS] != [len(r) for r in rows]:\n"
                 "        _INPUTS[:] = [[Value(v, requires_grad=True) for v in row] for row in rows]\n"
                 "    for leaf_row, row in zip(_INPUTS, rows):  # the same shape: refill the leaves\n"
                 "        for leaf, v in zip(leaf_row, row):\n"
                 "            leaf.data = Value(v)\n"
                 "    inputs = _INPUTS\n"},
          names=("forward", "kept between calls")),
]

# Slips told by what the code did: each list of .grad Values returned as it is (the second backward
# adds into them in place), and grad() called twice (nothing accumulates; no .grad is cleared).
CASES += [
    Wrong("grad_values_returned",
          fails={TWICE: "holds the .grad Values themselves"},
          edits={"    first = [p.grad.item() for p in net.parameters()]\n": "    first = [p.grad for p in net.parameters()]\n",
                 "    second = [p.grad.item() for p in net.parameters()]\n":
                 "    second = [p.grad for p in net.parameters()]\n"},
          names=("grads_twice(net, rows)[0]", ".grad Values themselves", "in place"),
          unsaid=("it was read after that pass",)),
    Wrong("grads_by_autograd_grad",
          fails={TWICE: "computed gradients with grad()"},
          edits={"    loss.backward(retain_graph=True)  # keep the saved operands for a second pass\n"
                 "    first = [p.grad.item() for p in net.parameters()]\n"
                 "    loss.backward()  # adds the same gradients again: .grad accumulates\n"
                 "    second = [p.grad.item() for p in net.parameters()]\n":
                 "    params = list(net.parameters())\n"
                 "    first = [g.item() for g in micrograph.grad(loss, params, retain_graph=True)]\n"
                 "    second = [g.item() for g in micrograph.grad(loss, params)]\n"},
          names=("grads_twice", "grad()"),
          unsaid=("cleared .grad", "backward never wrote")),
]

# The first backward without retain_graph, the second's RuntimeError caught and passed over: the
# second list is the first pass's gradients, read in turn.
CASES += [
    Wrong("second_error_swallowed",
          fails={TWICE: "caught an error that one of its backward passes raised and went on"},
          edits={"    loss.backward(retain_graph=True)  # keep the saved operands for a second pass\n":
                 "    loss.backward()\n",
                 "    loss.backward()  # adds the same gradients again: .grad accumulates\n":
                 "    try:\n        loss.backward()\n    except RuntimeError:\n        pass  # the graph is gone\n"},
          names=("grads_twice", "caught an error", "added nothing"),
          unsaid=("it was read after that pass",)),
    # the same error caught, then forward and backward again on a new graph before reading: the
    # gradients read hold that later pass's, not only those of the passes before the failed one; the
    # first pass, which freed the graph the second needed, is told too, though the passes are not as many
    Wrong("second_error_then_new_pass",
          fails={TWICE: "a backward pass ran after it"},
          edits={"    loss.backward(retain_graph=True)  # keep the saved operands for a second pass\n":
                 "    loss.backward()\n",
                 "    loss.backward()  # adds the same gradients again: .grad accumulates\n":
                 "    try:\n        loss.backward()\n    except RuntimeError:\n"
                 "        _, _, loss = forward(net, rows)  # the graph is gone: build it again\n        loss.backward()\n"},
          names=("grads_twice", "let backward free the graph (no retain_graph=True)", "caught an error",
                 "a backward pass ran after it"),
          unsaid=("those of the passes before it",)),
]

# The input made of non-leaves (a leaf times 1.0), the lists returned in the other order, and the
# net's gradients cleared after they were read (the statement leaves them as backward wrote them).
CASES += [
    Wrong("inputs_scaled_non_leaves",
          fails={TWICE: "your graph has MulBackward0 there"},
          edits={"    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n":
                 "    inputs = [[Value(v, requires_grad=True) * 1.0 for v in row] for row in rows]\n"},
          names=("each entry of input is not a leaf", "MulBackward0"),
          unsaid=("takes its inputs in the other order", "printed")),
    Wrong("lists_returned_swapped",
          fails={TWICE: "the two lists are returned in the other order"},
          edits={"    return first, second\n": "    return second, first\n"},
          names=("grads_twice(net, rows)[0]", "in the other order"),
          unsaid=("it was read after that pass",)),
    Wrong("grads_cleared_after_reading",
          fails={TWICE: "where the statement leaves it as backward wrote it"},
          edits={"    return first, second\n": "    net.zero_grad()  # leave the net clean for the next caller\n"
                                               "    return first, second\n"},
          names=("set it to None", "as backward wrote it")),
]


# forward's output rows reversed (the loss, a sum, is the same): told against net(input)'s rows.
CASES += [
    Wrong("output_rows_reversed",
          fails={FORWARD: "in another order than net(input) returns them"},
          edits={"    output = net(inputs)\n": "    output = net(inputs)[::-1]\n"},
          names=("output[0] holds the numbers of net(input)[1]", "another order")),
]


# grads_twice keeps its result on the net it is given and returns it when called on that net again.
CASES += [
    Wrong("result_kept_on_the_net",
          fails={TWICE: "called again on the net an earlier call was given"},
          edits={"    _, _, loss = forward(net, rows)\n    loss.backward(retain_graph=True)":
                 "    if hasattr(net, \"twice\"):\n        return net.twice\n"
                 "    _, _, loss = forward(net, rows)\n    loss.backward(retain_graph=True)",
                 "    return first, second\n": "    net.twice = (first, second)\n    return first, second\n"},
          names=("grads_twice", "kept on the net")),
]


# grads_twice runs the documents' failing program first, through second_backward_error, which
# catches the second backward's error itself: grads_twice catches nothing, and the passes
# second_backward_error ran count among grads_twice's.
CASES += [
    Wrong("grads_twice_calls_failing_program_first",
          fails={TWICE: "second_backward_error, which grads_twice calls, caught an error"},
          edits={"    _, _, loss = forward(net, rows)\n    loss.backward(retain_graph=True)":
                 "    assert second_backward_error(net, rows) is not None  # the documents' error first\n"
                 "    _, _, loss = forward(net, rows)\n    loss.backward(retain_graph=True)"},
          names=("ran backward more times", "second_backward_error, which grads_twice calls"),
          unsaid=("grads_twice caught an error",)),
]

# input rebuilt for each row in a loop (= where a list is to grow): only the last row is left, and
# nothing is in another order; the entries of the rows left out are in no graph of the student's.
CASES += [
    Wrong("input_last_row_only",
          fails={FORWARD: "input has fewer rows than the rows it was made from"},
          edits={"    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n":
                 "    for row in rows:\n        inputs = [[Value(v, requires_grad=True) for v in row]]\n"},
          names=("fewer rows", "no row for the others"),
          unsaid=("in another order", "graph never reaches")),
]

# A gradient read through a reduction of its one entry (torch's idiom for a number from a tensor): read from
# the engine all the same.
CASES += [
    Correct("gradients_read_through_mean", edits={'    first = [p.grad.item() for p in net.parameters()]': '    first = [p.grad.mean().item() for p in net.parameters()]'}),
]

# The second backward of grads_twice asked retain_graph=True too: every number right, but the graph is never
# freed, where ex12's lesson is that backward frees it; told as the graph kept. A second call that frees it
# any other way (retain_graph=False, or the engine's backward function) is right.
SECOND_CALL = "    loss.backward()  # adds the same gradients again: .grad accumulates\n"
CASES += [
    Wrong("second_backward_retains", fails={TWICE: "grads_twice kept the graph (retain_graph=True) in a pass"},
          edits={SECOND_CALL: "    loss.backward(retain_graph=True)\n"},
          names=("kept the graph (retain_graph=True)",)),
    Correct("second_backward_retain_false", edits={SECOND_CALL: "    loss.backward(retain_graph=False)\n"}),
    Correct("second_backward_by_autograd", edits={SECOND_CALL: "    micrograph.autograd.backward([loss])\n"}),
]

# An input of one row where rows has two (forward builds the statement's own one-row example, whatever rows is):
# told as fewer rows, never as an entry input[1][0] the answer's input does not have.
CASES += [
    Wrong("input_of_other_rows", fails={FORWARD: "input has fewer rows than the rows given"},
          edits={"    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n":
                 "    inputs = [[Value(v, requires_grad=True) for v in (1.0, 2.0, 3.0)]]\n"},
          names=("fewer rows",), unsaid=("never reaches input[1][0]",)),
]

# The weight's gradients read column by column (x W^T misread): a layer of other sizes whose rows have unequal
# column sums shows it there too, not only the documents' nets.
CASES += [
    Wrong("weight_read_by_columns", fails={"other layer sizes": "but in another order"},
          edits={"    first = [p.grad.item() for p in net.parameters()]\n":
                 "    w = net.weight\n    params = [w[j][k] for k in range(len(w[0])) for j in range(len(w))] + list(net.bias)\n"
                 "    first = [p.grad.item() for p in params]\n",
                 "    second = [p.grad.item() for p in net.parameters()]\n": "    second = [p.grad.item() for p in params]\n"},
          names=("in another order",)),
    # forward clears the net's gradients before its pass: the caller's accumulated gradients are lost
    Wrong("forward_zero_grad_net", names=("forward(net, rows) set net.weight[0][0].grad to None",),
          fails={FORWARD: "forward(net, rows) set net.weight[0][0].grad to None",
                 "forward on other nets": "forward(net, rows) set net.weight[0][0].grad to None"},
          edits={"    output = net(inputs)\n": "    net.zero_grad()\n    output = net(inputs)\n"}),
]

# second_backward_error counts its calls in a global and, from its second call on, clears the net's gradients
# before its forward: on a net whose parameters held gradients, a later call clears them and the first call of a
# fresh import does not. A count kept for nothing else changes nothing, and is right.
CALLS = "_CALLS = [0]\n\n\ndef second_backward_error("
FIRST_PASS = "    _, _, loss = forward(net, rows)\n    loss.backward()  # frees what the products saved\n"
CASES += [
    Wrong("second_error_clears_from_second_call",
          names=("second_backward_error", "set them to None or zero", "state kept between calls"),
          fails={"a failed backward adds nothing": "when called after other calls, and left them as the first call"},
          edits={"def second_backward_error(": CALLS,
                 FIRST_PASS: "    _CALLS[0] += 1\n    if _CALLS[0] > 1:  # the earlier call's gradients: cleared\n"
                             "        for p in net.parameters():\n            p.grad = None\n" + FIRST_PASS},
          passes=(RAISES,)),
    Correct("second_error_counts_calls",
            edits={"def second_backward_error(": CALLS,
                   FIRST_PASS: "    _CALLS[0] += 1  # how many times the failing program ran\n" + FIRST_PASS}),
]

# forward makes one row of leaves from rows[0] and repeats that list for every row ([row] * n): told as rows that
# are one list, by their places (so not as one leaf for two entries), not as rows put in another order, nor as the
# leaf loss's graph takes at input[0][0]
CASES += [
    Wrong("input_first_row_repeated", names=("the rows input[0], input[1] are one and the same list object",),
          fails={FORWARD: "are one and the same list object"},
          edits={"    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n":
                 "    inputs = [[Value(v, requires_grad=True) for v in rows[0]]] * len(rows)\n"},
          unsaid=("in another order", "repeated a row", "takes the leaf input[0][0]")),
]

# grads_twice records p.grad.data (the documents' spelling) instead of p.grad.item(): Values sharing the .grad
# Values' numbers, so the later backward's in-place addition shows through; nothing was read after the last pass
CASES += [
    Wrong("grad_data_values_returned",
          fails={TWICE: "share their numbers with the .grad Values (as .grad.data does)"},
          edits={"    first = [p.grad.item() for p in net.parameters()]\n": "    first = [p.grad.data for p in net.parameters()]\n",
                 "    second = [p.grad.item() for p in net.parameters()]\n":
                 "    second = [p.grad.data for p in net.parameters()]\n"},
          names=("grads_twice(net, rows)[0]", "as .grad.data does", "in place"),
          unsaid=("it was read after that pass",)),
]

# The first list kept in a module-level list that every call extends and returns: a later call's list holds
# numbers an earlier call read from the engine, told as kept between calls, never as numbers computed.
CASES += [
    Wrong("first_in_a_module_list", fails={"with retain_graph=True, the gradients after each call": "in an earlier call"},
          edits={"    first = [p.grad.item() for p in net.parameters()]\n":
                 "    _FIRST.extend(p.grad.item() for p in net.parameters())\n    first = _FIRST\n",
                 "def grads_twice(": "_FIRST = []\n\n\ndef grads_twice("},
          names=("state kept between calls",), unsaid=("it was computed, not read from the engine",)),
    # retain_graph=True put on the second call, the one that needs the graph, not on the first that frees it
    Wrong("retain_on_second_call", fails={TWICE: "RuntimeError"},
          edits={"    loss.backward(retain_graph=True)  # keep the saved operands for a second pass\n": "    loss.backward()\n",
                 SECOND_CALL: "    loss.backward(retain_graph=True)\n"},
          names=("RuntimeError", "in grads_twice", "Trying to backward through the graph a second time")),
    # the first gradients copied with clone() and read after the second pass; the rows made by a loop
    Correct("first_cloned", edits={"    first = [p.grad.item() for p in net.parameters()]\n":
                                   "    first = [p.grad.clone() for p in net.parameters()]\n",
                                   "    return first, second\n": "    return [g.item() for g in first], second\n"}),
    Correct("inputs_by_loop", edits={"    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n":
                                     "    inputs = []\n    for row in rows:\n        inputs.append([])\n"
                                     "        for v in row:\n            inputs[-1].append(Value(v, requires_grad=True))\n"}),
]

# The first list kept as .grad.data (taken for a copy) and read with .item() after the second backward, which added
# into .grad in place; and input made as [[None] * n] * m, then filled in: every row is one list, the last row's leaves.
CASES += [
    Wrong("first_as_grad_data_read_last", fails={TWICE: "or their .data, which shares their numbers"},
          edits={"    first = [p.grad.item() for p in net.parameters()]\n": "    first = [p.grad.data for p in net.parameters()]\n",
                 "    return first, second\n": "    return [g.item() for g in first], second\n"},
          names=("grads_twice(net, rows)[0]", "read after that pass", "their .data")),
    Wrong("input_rows_one_list_filled_in", fails={FORWARD: "are one and the same list object"},
          edits={"    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n":
                 "    inputs = [[None] * len(rows[0])] * len(rows)\n    for i, row in enumerate(rows):\n"
                 "        for k, v in enumerate(row):\n            inputs[i][k] = Value(v, requires_grad=True)\n"},
          names=("the rows input[0], input[1] are one and the same list object",),
          unsaid=("in another order", "one leaf for two entries", "repeated a row",  # a leaf per entry; one list
                  "takes the leaf input[0][0]", "holds a different number")),  # for every row, told once
]

# One list cleared, refilled and appended for every row: the rows are that list, told once by their places; and each
# row a new list of rows[0]'s leaves: a row repeated, told once, its entries and output rows not told again.
CASES += [
    Wrong("input_one_list_appended", fails={FORWARD: "are one and the same list object"},
          edits={"    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n":
                 "    inputs, values = [], []\n    for row in rows:\n        values.clear()\n"
                 "        values.extend(Value(v, requires_grad=True) for v in row)\n        inputs.append(values)\n"},
          names=("the rows input[0], input[1] are one and the same list object", "appended again"),
          unsaid=("repeated a row", "takes the leaf", "holds a different number")),
    Wrong("input_first_row_copied", fails={FORWARD: "your code repeated a row"},
          edits={"    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n":
                 "    inputs = [[Value(v, requires_grad=True) for v in rows[0]] for _ in rows]\n"},
          names=("input[1] holds the numbers of rows[0]", "your code repeated a row"),
          unsaid=("holds a different number", "one and the same list")),
]

# grads_twice reads the parameters of a module-level list every call extends; retain_graph=True passed as backward's
# first argument (its gradient); the first list a map() run only once the second pass is done; the error kept in a
# default list and its first returned; forward keeps its first input leaf in a global and puts it back in a later
# input of as many rows. micrograph.sum given a generator, and detach_() of the loss once read: full marks.
FIRST = "    first = [p.grad.item() for p in net.parameters()]\n"
CASES += [
    Wrong("parameters_in_a_module_list", fails={TWICE: "depends on state kept between calls"},
          edits={FIRST: "    _PARAMS.extend(net.parameters())\n    first = [p.grad.item() for p in _PARAMS]\n",
                 "    second = [p.grad.item() for p in net.parameters()]\n": "    second = [p.grad.item() for p in _PARAMS]\n",
                 "def grads_twice(": "_PARAMS = []\n\n\ndef grads_twice("},
          names=("grads_twice", "state kept between calls", "has more entries")),
    Wrong("retain_passed_positionally", fails={TWICE: "'bool' object is not iterable"},
          edits={"    loss.backward(retain_graph=True)  # keep the saved operands for a second pass\n": "    loss.backward(True)\n"},
          names=("grads_twice called loss.backward with True as its gradient argument",
                 "True went in as the gradient, not as retain_graph")),
    Wrong("first_as_lazy_map", fails={TWICE: "by a map() or generator that ran only then"},
          edits={FIRST: "    first = map(lambda p: p.grad.item(), net.parameters())\n",
                 "    return first, second\n": "    return list(first), second\n"},
          names=("grads_twice(net, rows)[0]", "read after that pass"), unsaid=("retain_graph",)),
    Wrong("error_kept_in_a_default", fails={RAISES: "an exception the engine raised during an earlier call"},
          edits={"rows: list[list[float]]) -> RuntimeError | None:": "rows: list[list[float]], errors: list = []) -> RuntimeError | None:",
                 "        return error  # the layer node's saved input and weights are gone; no gradient was added\n":
                 "        errors.append(error)\n        return errors[0]\n"},
          names=("an error kept from before",)),
    Wrong("input_leaf_kept_in_a_global", fails={FORWARD: "kept between calls and returned again"},
          edits={"    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n":
                 "    global _LAST_INPUT\n    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n"
                 "    if _LAST_INPUT is not None and len(_LAST_INPUT) == len(inputs):\n"
                 "        inputs[0][0] = _LAST_INPUT[0][0]\n    _LAST_INPUT = inputs\n",
                 "def forward(": "_LAST_INPUT = None\n\n\ndef forward("},
          names=("is still the input[0][0] an earlier call of forward returned",)),
    Correct("loss_sum_of_a_generator", edits={"    loss = micrograph.sum([v for row in output for v in row])\n":
                                              "    loss = micrograph.sum(v for row in output for v in row)\n"}),
    Correct("loss_detached_at_the_end", edits={"    return first, second\n": "    loss.detach_()\n    return first, second\n"}),
]

# second_backward_error detaches its own loss once the error is caught; grads_twice reads p.grad.detach().item():
# nothing the caller holds changes, the numbers are the same: full marks.
CASES += [
    Correct("own_loss_detached_after_error",
            edits={"        return error  # the layer node's saved input and weights are gone; no gradient was added\n":
                   "        loss.detach_()\n        return error\n"}),
    Correct("grads_read_through_detach", edits={FIRST: "    first = [p.grad.detach().item() for p in net.parameters()]\n"}),
]

# loss summed over the first column of output only: one SumBackward0 of fewer inputs, told as entries of output
# left out, never as SumBackward0 recorded fewer times (the graph holds one, as the statement's does)
CASES += [Wrong("loss_of_first_column", fails={"forward gives input leaves, output rows, summed loss":
                                               "loss is computed from only some entries of output"},
                names=("loss is computed from only some entries of output", "output[0][1] does not reach it"),
                unsaid=("records SumBackward0 fewer times",),
                edits={"    loss = micrograph.sum([v for row in output for v in row])\n":
                       "    loss = micrograph.sum([row[0] for row in output])\n"})]

# forward's parts returned as (output, input, loss), its callers unpacking only the loss: told once, as the order of
# the parts by what each holds, not as sentences on input[0][1] (the student's input is its second part)
CASES += [Wrong("parts_in_other_order", fails={FORWARD: "forward returned its parts in another order: (output, input, loss)"},
                names=("forward returned its parts in another order", "(output, input, loss)"),
                unsaid=("input[0][0] as a Value an operation made", "never reaches input[0][1]"),
                edits={"    return inputs, output, loss\n": "    return output, inputs, loss\n"})]

# forward called inside `with micrograph.no_grad():` (in second_backward_error, and in grads_twice): loss has no graph
# and the first backward raises the engine's "does not have a grad_fn" at its line; told as forward called with grad
# mode off, which that line names neither of.
NO_GRAD_FORWARD = "    with micrograph.no_grad():\n        _, _, loss = forward(net, rows)\n"
CASES += [
    Wrong("forward_under_no_grad_in_failing_program", fails={RAISES: "called forward while grad mode was off"},
          edits={"    _, _, loss = forward(net, rows)\n    loss.backward()  # frees":
                 NO_GRAD_FORWARD + "    loss.backward()  # frees"},
          names=("second_backward_error called forward while grad mode was off (no_grad)",), passes=(TWICE,)),
    Wrong("forward_under_no_grad_in_grads_twice", fails={TWICE: "called forward while grad mode was off"},
          edits={"    _, _, loss = forward(net, rows)\n    loss.backward(retain_graph=True)":
                 NO_GRAD_FORWARD + "    loss.backward(retain_graph=True)"},
          names=("grads_twice called forward while grad mode was off (no_grad)",), passes=(RAISES,)),
]

# forward leaves a hook on each parameter of the net it is given (an average over the batch): every later backward
# through the net runs it, told as a hook forward left; and second_backward_error switches grad mode off once its
# first backward ran and returns so: told as the mode it left off. The documents' Variable(...) around a Value, a
# leaf flagged with requires_grad_(), and hooks that only look (return None): full marks.
CASES += [
    Wrong("forward_leaves_an_averaging_hook", fails={"forward on other nets": "left a hook on net.weight[0][0]"},
          edits={"    output = net(inputs)\n": "    for p in net.parameters():\n"
                                               "        p.register_hook(lambda g: g / len(rows))  # average over the batch\n"
                                               "    output = net(inputs)\n"},
          names=("forward(net, rows) left a hook on net.weight[0][0]", "a hook of yours ran in that backward pass")),
    Wrong("grad_mode_left_off", fails={RAISES: "returned with grad mode still off"},
          edits={FIRST_BACKWARD: FIRST_BACKWARD + "    micrograph.set_grad_enabled(False)  # no graph needed any more\n"},
          names=("second_backward_error returned with grad mode still off",), passes=(FORWARD, TWICE)),
    Correct("input_by_variable", edits={"    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n":
                                        "    from micrograph.autograd import Variable\n"
                                        "    inputs = [[Variable(Value(v), requires_grad=True) for v in row] for row in rows]\n"}),
    Correct("input_by_requires_grad_", edits={"    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n":
                                              "    inputs = [[Value(v).requires_grad_() for v in row] for row in rows]\n"}),
    Correct("hooks_that_only_look", edits={"    loss.backward(retain_graph=True)  # keep the saved operands for a second pass\n":
                                           "    seen = []\n    for p in net.parameters():\n"
                                           "        p.register_hook(lambda g: seen.append(g.item()))  # returns None\n"
                                           "    loss.backward(retain_graph=True)\n"}),
]

# grads_twice's lists kept in a module-level dict by the net's id and the rows, copies handed out: a call on a
# net and rows an earlier call was given (its .grad cleared between) runs nothing and returns that call's floats.
CASES += [
    Wrong("twice_cached_by_net_and_rows", fails={TWICE: "called again on the net an earlier call was given"},
          edits={"    _, _, loss = forward(net, rows)\n    loss.backward(retain_graph=True)":
                 "    key = (id(net), str(rows))\n    if key in _TWICE:\n        first, second = _TWICE[key]\n"
                 "        return list(first), list(second)\n    _, _, loss = forward(net, rows)\n"
                 "    loss.backward(retain_graph=True)",
                 "    return first, second\n": "    _TWICE[key] = first, second\n    return list(first), list(second)\n",
                 "def grads_twice(": "_TWICE: dict = {}\n\n\ndef grads_twice("},
          names=("grads_twice", "an earlier call", "between calls")),
]
# retain_grad() on every entry of output: no test reads their .grad, nothing the statement asks changes
CASES += [Correct("output_entries_retained",
                  edits={"    output = net(inputs)\n": "    output = net(inputs)\n    for row in output:\n"
                                                       "        for v in row:\n            v.retain_grad()\n"}),
          # a hook on each parameter that only prints the gradient it is handed
          Correct("parameter_hooks_that_print",
                  edits={"    _, _, loss = forward(net, rows)\n    loss.backward()  # frees":
                         "    _, _, loss = forward(net, rows)\n    for p in net.parameters():\n"
                         "        p.register_hook(lambda g: print(g.item()))\n    loss.backward()  # frees"})]

# a hook forward registers on each input leaf that zeroes its gradient ("the input is data, not trained"): the
# statement's input gets its gradients from backward, so it is told by the hook on the first entry; a hook there
# that only looks (returns None) gets full marks.
INPUT_LEAVES = "    inputs = [[Value(v, requires_grad=True) for v in row] for row in rows]\n"
CASES += [
    Wrong("input_gradients_zeroed_by_hooks", fails={FORWARD: "forward registered a hook on input[0][0]"},
          edits={INPUT_LEAVES: INPUT_LEAVES + "    for row in inputs:\n        for v in row:\n"
                                              "            v.register_hook(lambda g: g * 0)  # the input is data\n"},
          names=("forward registered a hook on input[0][0]", "changes the gradient backward gives it")),
    Correct("input_hooks_that_only_look",
            edits={INPUT_LEAVES: INPUT_LEAVES + "    seen = []\n    for row in inputs:\n        for v in row:\n"
                                                "            v.register_hook(lambda g: seen.append(g.item()))\n"}),
]

# loss added up with + in a loop from the first entry: told as that chain, where only its root's op was said
CASES += [Wrong("loss_added_in_a_loop", fails={FORWARD: "a chain of additions written with +"},
                edits={LOSS: "    entries = [v for row in output for v in row]\n    loss = entries[0]\n"
                             "    for v in entries[1:]:\n        loss = loss + v\n"},
                names=("loss is a chain of additions written with +", "micrograph.sum"))]

# the same, forward called inside set_grad_enabled(False): told by that spelling
SET_GRAD_FORWARD = "    with micrograph.set_grad_enabled(False):\n        _, _, loss = forward(net, rows)\n"
CASES += [
    Wrong("forward_under_set_grad_enabled_false_in_failing_program",
          fails={RAISES: "called forward while grad mode was off (set_grad_enabled(False))"},
          edits={"    _, _, loss = forward(net, rows)\n    loss.backward()  # frees":
                 SET_GRAD_FORWARD + "    loss.backward()  # frees"},
          names=("second_backward_error called forward while grad mode was off (set_grad_enabled(False))",),
          unsaid=("(no_grad)",), passes=(TWICE,)),
    Wrong("forward_under_set_grad_enabled_false_in_grads_twice",
          fails={TWICE: "called forward while grad mode was off (set_grad_enabled(False))"},
          edits={"    _, _, loss = forward(net, rows)\n    loss.backward(retain_graph=True)":
                 SET_GRAD_FORWARD + "    loss.backward(retain_graph=True)"},
          names=("grads_twice called forward while grad mode was off (set_grad_enabled(False))",),
          unsaid=("(no_grad)",), passes=(RAISES,)),
]
