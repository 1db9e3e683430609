"""ex11 gallery: plausible wrong answers and correct variants (format: gallery_case.py)."""

from gallery_case import Correct, Wrong

BUILD = "build makes loss = mm(x, y)"
VJP = "v times the Jacobian"
Y_GRAD = "y gets its gradient too when it requires grad"
ROWS = "one Jacobian row per backward"
NOT_ZEROED = "rows without zeroing"

VJP_BACKWARD = "    micrograph.backward(loss, [v])\n"
ZERO = "                leaf.grad.zero_()\n"
ROW_BACKWARD = "        micrograph.backward(loss, [one_hot], retain_graph=j < m - 1)\n"
Y = "    y = [[Value(v) for v in row] for row in y_rows]\n"

CASES = [
    # the one of every pass's one-hot gradient at entry 0 (a typo for j): every row but the first is entry 0's
    Wrong("one_hot_at_entry_zero", names=("one-hot gradients with their one at the same entry of loss",),
          fails={ROWS: "one row of the Jacobian was computed twice, another never"},
          unsaid=("comparing numbers", "ran in another order"),
          edits={"        one_hot = [1.0 if i == j else 0.0 for i in range(m)]\n":
                 "        one_hot = [1.0 if i == 0 else 0.0 for i in range(m)]\n"}),
    # the flag read the other way round: said once, before the numbers it changes
    Wrong("zero_between_inverted", names=("jacobian_rows reads zero_between the other way round",),
          fails={"one Jacobian row per backward": "jacobian_rows reads zero_between the other way round",
                 "rows without zeroing": "jacobian_rows reads zero_between the other way round"},
          edits={"        if zero_between:\n": "        if not zero_between:\n"}),
    Wrong("hardcoded", fails={BUILD: "each entry of y has requires_grad=True"}),
    Wrong("no_retain_graph", names=('RuntimeError', 'in jacobian_rows', 'Trying to backward through the graph a second time'), fails={ROWS: "RuntimeError"},  # every backward frees the graph
          edits={"retain_graph=j < m - 1)": ")"}),
    Wrong("no_zeroing", names=("left x's gradients as backward wrote them with zero_between=True too",),  # the records
          fails={ROWS: "ran backward while .grad still held the gradient of an earlier pass"},  # accumulate
          edits={"            for leaf in x[0]:\n                leaf.grad.zero_()\n": "            pass\n"}),
    Wrong("vjp_one_backward_per_entry", names=('vjp ran backward more times',), fails={VJP: "vjp ran backward more times"},
          edits={VJP_BACKWARD: "    for j, vj in enumerate(v):\n"
                               "        loss[0][j].backward(Value(vj), retain_graph=True)\n"}),
    Wrong("vjp_grad_assigned", names=('x_a[0][0].grad holds a value that backward did not write',), fails={VJP: "assigned by hand"},
          edits={VJP_BACKWARD: "    found = micrograph.grad(loss, x[0], [v])\n"
                               "    for leaf, g in zip(x[0], found):\n        leaf.grad = g\n"}),
    Wrong("vjp_x_only", names=('backward never wrote y_a[0][0].grad',), fails={Y_GRAD: "backward never wrote y_a[0][0].grad"},
          edits={VJP_BACKWARD: "    micrograph.backward(loss, [v], inputs=x[0])\n"}),
    Wrong("rows_cleared_not_zeroed", names=('x_a[0][0].grad is None because your code set it to None',), fails={ROWS: "x_a[0][0].grad"},
          edits={ZERO: "                leaf.grad = None\n",
                 "    return [v.grad.item() for v in x[0]]\n":
                 "    return [v.grad.item() if v.grad is not None else 0.0 for v in x[0]]\n"}),
    Wrong("rows_by_grad", names=('jacobian_rows computed gradients with grad()', "writes no .grad"),
          fails={ROWS: "jacobian_rows computed gradients with grad(), which writes no .grad"},
          edits={ROW_BACKWARD: "        found = micrograph.grad(loss, x[0], [one_hot], retain_graph=True)\n",
                 "        rows.append(x_grads(x))\n": "        rows.append([g.item() for g in found])\n",
                 ZERO: "                pass\n"}),
    # every entry of y alike: told once of the whole matrix, not of each row's first entry
    Wrong("y_requires_grad", names=('each entry of y has requires_grad=True',),
          fails={BUILD: "each entry of y has requires_grad=True, unlike the statement's"}, unsaid=("the same holds for y[1][0]",),
          edits={Y: "    y = [[Value(v, requires_grad=True) for v in row] for row in y_rows]\n"}),
    Wrong("build_runs_backward", names=('build started a backward pass',), fails={BUILD: "build started a backward pass"},
          edits={'    return {"x": x, "y": y, "loss": micrograph.mm(x, y)}\n':
                 '    loss = micrograph.mm(x, y)\n    micrograph.backward(loss, [[1.0] * len(loss[0])])\n'
                 '    return {"x": x, "y": y, "loss": loss}\n'}),
    Correct("other_forms"),
    # the last pass keeps the graph too: mm's saved operands outlive the call, where the statement frees them
    Wrong("always_retain", names=("jacobian_rows kept the graph (retain_graph=True) in its last backward pass",
                                  "where the statement frees it"), unsaid=("lets backward free it",),
          fails={ROWS: "jacobian_rows kept the graph (retain_graph=True)", NOT_ZEROED: "kept the graph"},
          edits={ROW_BACKWARD: "        micrograph.backward(loss, [one_hot], retain_graph=True)\n"}),
    Wrong("vjp_as_weighted_sum", names=('vjp started backward from a Value it made itself',), fails={VJP: "vjp started backward from a Value it made itself"},
          edits={VJP_BACKWARD: "    micrograph.sum([e * c for e, c in zip(loss[0], v)]).backward()\n"}),
    Correct("one_entry_per_backward", edits={ROW_BACKWARD: "        loss[0][j].backward(retain_graph=j < m - 1)\n"}),
    # x built as one flat list of leaves, loss from [x]: loss's graph is the statement's, x's shape is not
    Wrong("x_one_flat_list", names=("x[0] is not the kind of result the statement's is: yours is of type Value",),
          fails={BUILD: "x[0] is not the kind of result the statement's is: yours is of type Value"},
          unsaid=("never reaches x[0][0]", "reaches a leaf the statement's does not"),
          edits={"    x = [[Value(v, requires_grad=True) for v in x_row]]\n": "    x = [Value(v, requires_grad=True) for v in x_row]\n",
                 '"loss": micrograph.mm(x, y)}': '"loss": micrograph.mm([x], y)}'}),
    # x's gradients set to None before the pass: x comes with none (the statement says so), so this changes nothing
    Correct("vjp_clears_first", edits={VJP_BACKWARD: "    for leaf in x[0]:\n        leaf.grad = None\n" + VJP_BACKWARD}),
    # each entry's own graph, freed by its pass: no later pass goes through it
    Correct("one_entry_per_backward_freed", edits={ROW_BACKWARD: "        loss[0][j].backward()\n"}),
]
CASES += [
    # the 1 of the entry before stays: the second gradient is not one-hot; the gradients are the
    # code's, whichever call shows them: every test names the call alike
    Wrong("one_hot_never_reset",
          fails={ROWS: "jacobian_rows(x, loss, True) gave a backward pass a gradient with more than one nonzero entry",
                 "rows without zeroing": "jacobian_rows(x, loss, False) gave a backward pass a gradient with more"},
          edits={"    for j in range(m):\n        one_hot = [1.0 if i == j else 0.0 for i in range(m)]\n":
                 "    one_hot = [0.0] * m\n    for j in range(m):\n        one_hot[j] = 1.0\n"},
          names=("jacobian_rows(x, loss, True)", "more than one nonzero entry")),
    Wrong("one_hot_of_twos",  # one entry each time, but not a one: every row comes out doubled
          fails={ROWS: "jacobian_rows(x, loss, True) gave a backward pass a gradient whose one nonzero entry is not one"},
          edits={"        one_hot = [1.0 if i == j else 0.0 for i in range(m)]\n":
                 "        one_hot = [2.0 if i == j else 0.0 for i in range(m)]\n"},
          names=("jacobian_rows(x, loss, True)", "nonzero entry is not one")),
]


# Plausible mistakes of more kinds, each graded as a student reads it: state kept between calls
# (a default argument, a module-level or class-level store), generic list and generator bugs,
# off-by-one, a wrong operand or flag; and correct answers written another way.
CASES += [
    Wrong('vjp_flat_gradient', fails={'v times the Jacobian': 'TypeError'},
          edits={'    micrograph.backward(loss, [v])\n': '    micrograph.backward(loss[0], v)\n'},
          names=('vjp', 'TypeError')),
    Wrong('rows_of_grad_values', fails={'one Jacobian row per backward': "Every row of jacobian_rows(x_a, loss_a, True) holds only zeros",
                                        'rows without zeroing': "the earlier rows of jacobian_rows(x, loss, False) hold the very numbers x's .grad hold after the last backward pass"},
          edits={'        rows.append(x_grads(x))\n': '        rows.append([leaf.grad for leaf in x[0]])\n', '    return rows\n': '    return [[g.item() for g in row] for row in rows]\n'},
          names=('jacobian_rows(x_a, loss_a, True)', 'the .grad Values kept in the rows')),
    Wrong('rows_one_short', fails={'one Jacobian row per backward': 'ran backward fewer times'},
          edits={'    for j in range(m):\n': '    for j in range(m - 1):\n'},
          names=('jacobian_rows', 'fewer')),
    Wrong('zero_before_record', fails={'one Jacobian row per backward': 'the entries of jacobian_rows(x_a, loss_a, True)[1] are all the same'},
          edits={'        rows.append(x_grads(x))\n        if zero_between:\n            # backward adds into .grad: without this, the next record would be this row plus\n            # the next one (the gradient of loss[j] + loss[j + 1]), not the next row alone.\n            for leaf in x[0]:\n                leaf.grad.zero_()': '        if zero_between and j > 0:\n            for leaf in x[0]:\n                leaf.grad.zero_()\n        rows.append(x_grads(x))'},
          names=('jacobian_rows(x_a, loss_a, True)[1]', 'all the same')),
    Wrong('x_flat', fails={'build makes loss = mm(x, y)': 'RuntimeError'},
          edits={'    x = [[Value(v, requires_grad=True) for v in x_row]]\n': '    x = [[Value(v, requires_grad=True)] for v in x_row]\n'},
          names=('build', 'shapes cannot be multiplied')),
    Wrong('rows_in_a_default', fails={'one Jacobian row per backward': 'earlier call'},
          edits={'def jacobian_rows(x: Matrix, loss: Matrix, zero_between: bool = True) -> list[list[float]]:': 'def jacobian_rows(x: Matrix, loss: Matrix, zero_between: bool = True, rows: list = []) -> list[list[float]]:', '    rows = []\n    for j in range(m):': '    for j in range(m):'},
          names=('jacobian_rows', 'earlier call')),
    Correct('one_hot_by_comprehension', edits={'        one_hot = [1.0 if i == j else 0.0 for i in range(m)]\n': '        one_hot = [0.0] * m\n        one_hot[j] = 1.0\n'}),
]

# More answers read as a student: zeroing whatever zero_between says, the one-hot vector
# inverted, v reversed, retain_graph kept for the wrong calls, vjp's backward run twice.
CASES += [
    Wrong('always_zeroing', fails={'rows without zeroing': "zeroed x's gradients with zero_between=False too"},
          edits={'        if zero_between:\n': '        if True:\n'}, passes=('one Jacobian row per backward',),
          names=('with zero_between=False too',)),
    Wrong('one_hot_inverted', fails={'one Jacobian row per backward': 'in another order'},
          edits={'        one_hot = [1.0 if i == j else 0.0 for i in range(m)]': '        one_hot = [0.0 if i == j else 1.0 for i in range(m)]'},
          names=('jacobian_rows(x_a, loss_a, True)',)),
    Wrong('vjp_reversed', fails={'v times the Jacobian': 'vjp(x_a, loss_a, v_a) started its backward pass from a gradient other than the v'},
          edits={'    micrograph.backward(loss, [v])': '    micrograph.backward(loss, [v[::-1]])'},
          names=('vjp(x_a, loss_a, v_a)', 'a gradient other than the v it was given')),
    Wrong('retain_for_the_wrong_calls', fails={},
          edits={'retain_graph=j < m - 1)': 'retain_graph=j > 0)'},
          names=('jacobian_rows', 'Trying to backward through the graph a second time')),
    Wrong('vjp_twice', fails={'v times the Jacobian': 'vjp ran backward more times'},
          edits={'    micrograph.backward(loss, [v])': '    micrograph.backward(loss, [v], retain_graph=True)\n    micrograph.backward(loss, [v])'},
          names=('vjp ran backward more times',)),
]


# x's gradients read into one module-level list that every call fills again and returns.
CASES += [
    Wrong('grads_in_one_module_list',
          fails={'a gradient vector gives v times the Jacobian': 'what a first call of vjp returned changed',
                 'Jacobian rows for other shapes': 'what a first call of jacobian_rows returned changed'},
          edits={'def x_grads(x: Matrix) -> list[float]:\n':
                 '_GRADS: list[float] = []\n\n\ndef x_grads(x: Matrix) -> list[float]:\n'
                 '    _GRADS[:] = [v.grad.item() for v in x[0]]\n    return _GRADS\n'},
          names=('called again', 'state kept between calls')),
]

# The gradients returned as the .grad Values themselves, where the statement asks for floats.
CASES += [
    Wrong("vjp_returns_values",  # the same numbers, but each the x leaf's gradient object
          fails={VJP: "vjp(x_a, loss_a, v_a)[0] is of type Value, not a Python float"},
          edits={"    micrograph.backward(loss, [v])\n    return x_grads(x)\n":
                 "    micrograph.backward(loss, [v])\n    return [leaf.grad for leaf in x[0]]\n"},
          names=("vjp(x_a, loss_a, v_a)[0]", "of type Value, not a Python float")),
    Wrong("rows_of_values",  # each row the .grad Values, which zero_() then empties
          fails={ROWS: "jacobian_rows(x_a, loss_a, True)[0][0] is of type Value, not a Python float"},
          edits={"        rows.append(x_grads(x))\n": "        rows.append([leaf.grad for leaf in x[0]])\n"},
          names=("jacobian_rows(x_a, loss_a, True)[0][0]", "of type Value, not a Python float",
                 "read after it")),
]


# The gradients zeroed before each backward instead of after each record: the last row's
# gradients are left in .grad, which is told by that order, not as a flag never read.
CASES += [
    Wrong("zeroed_before_each_backward",
          fails={"one Jacobian row per backward": "cleared the gradients between backward passes"},
          edits={"        micrograph.backward(loss, [one_hot], retain_graph=j < m - 1)\n":
                 "        if zero_between:\n            for leaf in x[0]:\n                if leaf.grad is not None:\n"
                 "                    leaf.grad.zero_()\n"
                 "        micrograph.backward(loss, [one_hot], retain_graph=j < m - 1)\n",
                 "        rows.append(x_grads(x))\n        if zero_between:\n"
                 "            # backward adds into .grad: without this, the next record would be this row plus\n"
                 "            # the next one (the gradient of loss[j] + loss[j + 1]), not the next row alone.\n"
                 "            for leaf in x[0]:\n                leaf.grad.zero_()\n": "        rows.append(x_grads(x))\n"},
          names=("x_a[0][0].grad", "not after recording what the last one wrote"),
          unsaid=("with zero_between=True too",)),  # the flag is read: the rows differ from those without zeroing
]

# y's Values made once, at the first call, and refilled through .data by every later call: the
# first call's y (and what its loss was built from) changes when build is called again.
CASES += [
    Wrong("y_kept_and_refilled", fails={BUILD: "state kept between calls"}, names=("build", "state kept between calls"),
          edits={"    y = [[Value(v) for v in row] for row in y_rows]\n":
                 "    if not _Y:\n        _Y.extend([Value(v) for v in row] for row in y_rows)\n"
                 "    for row, values in zip(_Y, y_rows):\n        for cell, v in zip(row, values):\n"
                 "            cell.data.fill_(v)\n    y = _Y\n",
                 "def build(": "_Y: list = []\n\n\ndef build("}),
]

# loss summed into one entry in build: its shape is told by its lengths, not by the rule for loss;
# x's .grad recorded after zeroing it: every row is zeros, read after the clear, not after the pass.
CASES += [
    Wrong("loss_summed_in_build", fails={"build makes loss = mm(x, y)": "len(loss[0]) is a different number"},
          edits={'    return {"x": x, "y": y, "loss": micrograph.mm(x, y)}':
                 '    product = micrograph.mm(x, y)\n    return {"x": x, "y": y, "loss": [[micrograph.sum(product[0])]]}'},
          names=("len(loss[0])", "loss's row holds a single entry, whose number is the sum of every entry of mm(x, y)")),
    # the same row added up by Python's own sum: a Value of the same number, made by other operations
    Wrong("loss_summed_by_builtin_sum", fails={"build makes loss = mm(x, y)": "the product's entries were added up into one"},
          edits={'    return {"x": x, "y": y, "loss": micrograph.mm(x, y)}':
                 '    return {"x": x, "y": y, "loss": [[sum(micrograph.mm(x, y)[0])]]}'},
          names=("loss's row holds a single entry", "the sum of every entry of mm(x, y)")),
    Wrong("recorded_after_zeroing", fails={ROWS: "Every row of jacobian_rows(x_a, loss_a, True) holds only zeros"},
          edits={"        rows.append(x_grads(x))\n        if zero_between:": "        if zero_between:",
                 "                leaf.grad.zero_()\n    return rows":
                 "                leaf.grad.zero_()\n        rows.append(x_grads(x))\n    return rows"},
          names=("jacobian_rows(x_a, loss_a, True)", "read after it was zeroed")),
]

# The x leaves cached per x_row: build called again with the x_row of an earlier call returns the
# leaves of that call (holding whatever gradient they got since), not new ones.
CASES += [
    Wrong("x_leaves_cached_per_row",
          fails={"build on other shapes": "the x[0][0] build returned is still the x[0][0] an earlier call of build returned"},
          edits={"    x = [[Value(v, requires_grad=True) for v in x_row]]\n":
                 "    x = _X.setdefault(tuple(x_row), [[Value(v, requires_grad=True) for v in x_row]])\n",
                 "def build(": "_X = {}\n\n\ndef build("},
          names=("build", "an earlier call", "kept between calls and returned again")),
]

# The given x_grads edited (it returns the leaves' numbers, not their gradients): vjp and
# jacobian_rows are right, and the feedback names x_grads.
CASES += [
    Wrong("given_x_grads_edited", fails={VJP: "x_grads was edited", ROWS: "x_grads was edited"},
          edits={"    return [v.grad.item() for v in x[0]]\n": "    return [v.item() for v in x[0]]\n"},
          names=("x_grads was edited", "differs from what the x_grads given with the exercise returns")),
]

# jacobian_rows zeroing each leaf once, looked up with == (`leaf in zeroed`): a leaf of x of the
# same value as an earlier one is skipped, and its gradient adds up from one row to the next.
CASES += [
    Wrong("zeroed_compared_by_value",
          fails={"Jacobian rows for other shapes": "x[0][1].grad is still exactly what backward wrote"},
          edits={"            for leaf in x[0]:\n                leaf.grad.zero_()\n":
                 "            zeroed = []\n            for leaf in x[0]:\n                if leaf in zeroed:\n"
                 "                    continue\n                zeroed.append(leaf)\n                leaf.grad.zero_()\n"},
          names=("jacobian_rows(x, loss, True)", "x[0][1].grad")),
]

# x's gradients collected by hooks on x's entries: they run in the order backward reaches the
# leaves, and stay on the caller's leaves.
CASES += [
    Wrong("grads_by_hooks", fails={"v times the Jacobian": "returned a list that grew when a backward pass ran through"},
          edits={"    micrograph.backward(loss, [v])\n    return x_grads(x)\n":
                 "    out = []\n    for leaf in x[0]:\n        leaf.register_hook(lambda g: out.append(g.item()))\n"
                 "    micrograph.backward(loss, [v])\n    return out\n"},
          names=("vjp", "hooks your code registered on x")),
]

# build returns loss's one row, a list of Values, for loss, the 1 x m matrix.
CASES += [
    Wrong("loss_row", fails={"build makes loss = mm(x, y)": "loss[0] is not the kind of result the statement's is"},
          edits={'    return {"x": x, "y": y, "loss": micrograph.mm(x, y)}\n':
                 '    return {"x": x, "y": y, "loss": micrograph.mm(x, y)[0]}\n'},
          names=("loss[0]", "of type Value")),
    # zero_between defaulting to False: jacobian_rows(x, loss), the documents' call, accumulates
    Wrong("zero_between_default_false", names=("zero_between left out", "default"),
          fails={ROWS: "jacobian_rows(x, loss) (zero_between left out) did not do what the stub's default asks"},
          edits={"zero_between: bool = True) -> list[list[float]]:": "zero_between: bool = False) -> list[list[float]]:"}),
]

# A one-hot gradient never given its one: every pass is seeded with zeros and writes zeros, read
# right after it; told by the gradient given, not as rows read after zeroing.
CASES += [
    Wrong("one_hot_never_set",
          fails={ROWS: "gave a backward pass a gradient that is not one-hot"},
          edits={"        one_hot = [1.0 if i == j else 0.0 for i in range(m)]": "        one_hot = [0.0] * m"},
          names=("not one-hot",), unsaid=("read after it was zeroed",)),
]

# The rows kept in a module-level list that every call appends to and returns: told as numbers
# an earlier call left, never as a default changed in the signature (it is the stub's).
CASES += [
    Wrong("rows_in_a_module_list",
          fails={ROWS: "is a gradient the engine produced in an earlier call",
                 "rows without zeroing": "is a gradient the engine produced in an earlier call"},
          edits={"    rows = []\n    for j in range(m):": "    rows = _ROWS\n    for j in range(m):",
                 "def jacobian_rows(": "_ROWS: list = []\n\n\ndef jacobian_rows("},
          names=("earlier call", "state kept between calls"), unsaid=("another default", "it was computed")),
]

# x's gradients set to None after the rows were recorded: the rows returned are right, but the
# statement leaves x's gradients as the loop leaves them, for the caller to read.
CASES += [
    Wrong("grads_set_to_none_after",
          fails={ROWS: "because your code set it to None", NOT_ZEROED: "because your code set it to None"},
          edits={"                leaf.grad.zero_()\n    return rows\n":
                 "                leaf.grad.zero_()\n    for leaf in x[0]:\n        leaf.grad = None\n    return rows\n"},
          names=("set it to None",)),
]

# One leaf per distinct number in build: two equal entries of x_row give x one leaf twice.
CASES += [
    Wrong("one_leaf_per_number",
          fails={"build on other shapes": "x[0][1] is the very Value x[0][0] is"},
          edits={"    x = [[Value(v, requires_grad=True) for v in x_row]]\n":
                 "    made = {}\n    x = [[made.setdefault(v, Value(v, requires_grad=True)) for v in x_row]]\n"},
          names=("one leaf for two entries of x",)),
]

# The passes run from the last entry to the first, each row put in front: every row is read right
# after its own pass, so nothing is "read after the last pass"; the order of the ones is the mistake.
CASES += [
    Wrong("passes_in_reverse",
          fails={"rows without zeroing": "one-hot gradients whose ones are not at the entries in turn"},
          edits={"    for j in range(m):\n": "    for j in reversed(range(m)):\n",
                 "retain_graph=j < m - 1)": "retain_graph=j > 0)",
                 "        rows.append(x_grads(x))\n": "        rows.insert(0, x_grads(x))\n"},
          names=("not at the entries in turn",), unsaid=("read after it",)),
    # the same passes, each row stored at its own index: with zeroing the rows are the statement's
    Wrong("passes_in_reverse_stored_at_j",
          fails={"rows without zeroing": "its passes ran in another order than the statement's"},
          edits={"    rows = []\n    for j in range(m):\n": "    rows = [None] * m\n    for j in reversed(range(m)):\n",
                 "retain_graph=j < m - 1)": "retain_graph=j > 0)",
                 "        rows.append(x_grads(x))\n": "        rows[j] = x_grads(x)\n"},
          names=("not at the entries in turn",), passes=("one Jacobian row per backward", "Jacobian rows for other shapes"),
          unsaid=("another entry of loss than their own",)),
]

# A zero v taken as a shortcut: zeros returned without a backward pass. The statement
# backpropagates once whatever v holds, and x's gradients are read, not written down; the
# zeros are the file's own constants, the one-hot vectors' zeros too, never an earlier call's.
CASES += [
    Wrong("zero_v_skips_backward",
          fails={"a gradient vector gives v times the Jacobian": "vjp ran no backward pass"},
          edits={VJP_BACKWARD: "    if not any(v):\n        return [0.0 for _ in x[0]]\n" + VJP_BACKWARD},
          names=("vjp ran no backward pass", "it was computed, not read from the engine"),
          unsaid=("in an earlier call",)),
]

# The zeroing loop over x, the matrix, not its row x[0]: only zero_between=True raises. The tests of
# zero_between=False also call jacobian_rows(x, loss, True), to check the flag is read the right way
# round: they say that call raised, not only the test's instructions.
CASES += [
    Wrong("zero_loop_over_matrix",
          fails={ROWS: "AttributeError", NOT_ZEROED: "also calls jacobian_rows(x, loss, True)"},
          edits={"            for leaf in x[0]:\n": "            for leaf in x:\n"},
          names=("this test also calls jacobian_rows(x, loss, True)", "raised an error", "could not be checked")),
]

# The given x_grads edited to zero x's gradients once read (the zeroing moved from jacobian_rows into
# the helper): vjp's caller finds them zeroed, and the sentence names the helper that did it.
CASES += [
    Wrong("x_grads_zeroes", fails={VJP: "by x_grads, which your code called"},
          edits={"    return [v.grad.item() for v in x[0]]\n":
                 "    values = [v.grad.item() for v in x[0]]\n    for v in x[0]:\n        v.grad.zero_()\n    return values\n"},
          names=("x_a[0][0].grad was changed after backward wrote it, by x_grads", "given with the exercise only reads it")),
]

# build computes loss from the leaves it made, then returns a detach() of each as x (made to require
# grad again): loss's graph is the statement's, the leaves returned are others; told as the detach(),
# not as a graph that reaches a leaf the statement's does not.
CASES += [
    Wrong("build_returns_detached_x", fails={BUILD: "x's entries are detach()es of the leaves loss was computed from"},
          edits={'    return {"x": x, "y": y, "loss": micrograph.mm(x, y)}\n':
                 '    loss = micrograph.mm(x, y)\n'
                 '    return {"x": [[v.detach().requires_grad_() for v in x[0]]], "y": y, "loss": loss}\n'},
          names=("detach()", "not those leaves"), unsaid=("reaches a leaf the statement's does not",)),
]

# The boundaries of jacobian_rows: two leaves of x of one number (a leaf's entry found with
# x[0].index(leaf), which compares with ==: both gradients land at the first entry), and two equal
# columns of y (equal rows of the Jacobian, a row recorded only if not already there).
CASES += [
    Wrong("rows_by_index_of_leaf", fails={"Jacobian rows for other shapes": "hold the same number"},
          edits={"        rows.append(x_grads(x))\n":
                 "        row = [0.0] * len(x[0])\n        for leaf in x[0]:\n"
                 "            row[x[0].index(leaf)] = leaf.grad.item()\n        rows.append(row)\n"},
          names=("x[0][1]'s gradient", "found a leaf's entry by its number"), unsaid=("is a different number",)),
    Wrong("rows_each_once", fails={"Jacobian rows for other shapes": "(y with two equal columns)"},
          edits={"        rows.append(x_grads(x))\n": "        if x_grads(x) not in rows:\n            rows.append(x_grads(x))\n"},
          names=("y with two equal columns", "leaves out")),
]

# build's y made through a module-level cache of one Value per number: two equal numbers of y are
# one Value, and a later call's y holds an earlier call's Values (state kept between calls).
CASES += [
    Wrong("build_y_cached_by_number", fails={"build on other shapes": "your code made one leaf for two entries of y"},
          edits={Y: "    y = [[_Y.setdefault(v, Value(v)) for v in row] for row in y_rows]\n",
                 "def build(": "_Y = {}\n\n\ndef build("},
          names=("the very Value", "kept between calls")),
]

# A gradient read through a reduction of its one entry (torch's idiom for a number from a tensor): read from
# the engine all the same.
CASES += [
    Correct("gradients_read_through_sum", edits={'    return [v.grad.item() for v in x[0]]': '    return [v.grad.sum().item() for v in x[0]]'}),
]

# Rows made as [[0.0] * n] * m and written in place: each row read right after its pass, into one list
# object every row is; told as that list, not as rows read after the last pass.
CASES += [
    Wrong("rows_one_list_repeated", fails={NOT_ZEROED: "stands in more than one row"},
          edits={"    rows = []\n": "    rows = [[0.0] * len(x[0])] * m\n",
                 "        rows.append(x_grads(x))\n": "        for k, g in enumerate(x_grads(x)):\n            rows[j][k] = g\n"},
          names=("same list object stands in more than one row", "[...] * m"), unsaid=("they were read after it",)),
]

# One row list written in place after each pass and appended again, zeroing between: every row is that list,
# which shows the last pass's numbers; told as one list object, not as rows that are equal.
CASES += [
    Wrong("row_appended_again_zeroed",
          fails={ROWS: "stands in more than one row", "Jacobian rows for other shapes": "stands in more than one row"},
          edits={"    rows = []\n": "    rows = []\n    row = [0.0] * len(x[0])\n",
                 "        rows.append(x_grads(x))\n": "        row[:] = x_grads(x)\n        rows.append(row)\n"},
          names=("The same list object stands in more than one row of jacobian_rows(x_a, loss_a, True)", "appended it again"),
          unsaid=("are equal, where the statement's differ", "are all the same, where the statement's")),
]

# jacobian_rows reading its rows from hooks on x's leaves (what each pass sends them), not from .grad: without
# zeroing the rows never add up, told as the hook's records.
CASES += [
    Wrong("rows_from_hooks", fails={"rows without zeroing": "holds numbers a hook your code registered"}),
]

# Hooks that write x's gradients into the list vjp returns, left registered on the caller's leaves: a later
# backward through x writes that list over. Removed once the pass ran, they change nothing: correct.
CASES += [
    Wrong("vjp_hooks_left_write_result", fails={VJP: "are still registered"},
          edits={VJP_BACKWARD + "    return x_grads(x)\n":
                 "    out = [0.0] * len(x[0])\n    for k, leaf in enumerate(x[0]):\n"
                 "        leaf.register_hook(lambda g, k=k: out.__setitem__(k, g.item()))\n"
                 + VJP_BACKWARD + "    return out\n"},
          names=("vjp(x_a, loss_a, v_a)", "hooks your code registered on x_a are still registered")),
    Correct("vjp_hooks_removed",
            edits={VJP_BACKWARD + "    return x_grads(x)\n":
                   "    out = [0.0] * len(x[0])\n    handles = [leaf.register_hook(lambda g, k=k: out.__setitem__(k, g.item()))\n"
                   "               for k, leaf in enumerate(x[0])]\n" + VJP_BACKWARD +
                   "    for handle in handles:\n        handle.remove()\n    return out\n"}),
    # a hook per leaf registered again at every pass, each writing its pass's row: never removed, the earlier
    # passes' hooks run again in every later pass and write their rows over
    Wrong("rows_hooks_registered_per_pass", fails={ROWS: "are still registered", NOT_ZEROED: "are still registered"},
          edits={ROW_BACKWARD: "        row = [0.0] * len(x[0])\n        for k, leaf in enumerate(x[0]):\n"
                               "            leaf.register_hook(lambda g, k=k, row=row: row.__setitem__(k, g.item()))\n"
                               + ROW_BACKWARD + "        rows.append(row)\n",
                 "        rows.append(x_grads(x))\n": ""},
          names=("jacobian_rows(x_a, loss_a, True)", "hooks your code registered on x_a are still registered")),
]

# The given x_grads edited to round the numbers it reads (to three places, where the tests' gradients
# have no more): vjp and jacobian_rows are right, and the floats x_grads made are told as its own.
CASES += [
    Wrong("given_x_grads_rounded", fails={VJP: "x_grads was edited", ROWS: "x_grads was edited"},
          edits={"    return [v.grad.item() for v in x[0]]\n": "    return [round(v.grad.item(), 3) for v in x[0]]\n"},
          names=("x_grads was edited", "returned floats it computed"), unsaid=("is not one the engine produced",)),
]

# vjp writes Values over the caller's list v before its pass: the caller's v no longer holds its numbers.
# The same Values in a new list of vjp's own leave the caller's v as it was: correct.
CASES += [
    Wrong("vjp_rewrites_v", fails={VJP: "changed the list v it was given"},
          edits={VJP_BACKWARD: "    for i in range(len(v)):\n        v[i] = Value(float(v[i]))\n" + VJP_BACKWARD},
          names=("vjp(x_a, loss_a, v_a) changed the list v it was given",)),
    Correct("vjp_values_in_a_new_list",
            edits={VJP_BACKWARD: "    v = [Value(float(e)) for e in v]\n" + VJP_BACKWARD}),
]

# each backward frees the graph and the second-backward error it raises is caught and passed over: every later row
# repeats the first pass's gradients. Told as the error caught, not as rows read after the last pass.
CASES += [
    Wrong("rows_swallow_backward_error", fails={ROWS: "jacobian_rows caught an error that the engine's backward()",
                                                NOT_ZEROED: "jacobian_rows caught an error that the engine's backward()"},
          edits={ROW_BACKWARD: "        try:\n            micrograph.backward(loss, [one_hot])\n"
                               "        except RuntimeError:\n            pass\n"},
          names=("jacobian_rows caught an error that the engine's backward() raised", "went on"),
          unsaid=("they were read after it",)),
]

# build turns the caller's x_row into the leaves in place and returns it as x's row: the graph is right,
# but the list it was given no longer holds its numbers (a caller building again from it meets Values).
CASES += [
    Wrong("x_row_replaced_in_place", names=("build changed the list x_row it was given",),
          fails={BUILD: "build changed the list x_row it was given"},
          edits={"    x = [[Value(v, requires_grad=True) for v in x_row]]\n":
                 "    x_row[:] = [Value(v, requires_grad=True) for v in x_row]\n    x = [x_row]\n"},
          passes=("v times the Jacobian", "one Jacobian row per backward")),
]

# build turns the floats of the caller's y_rows into Values in place and returns that list as y: the graph
# is right, but the lists it was given no longer hold their numbers; a rows list whose rows build replaced
# is told as that list. A build that copies the rows first, or reads them without a list comprehension, is right.
CASES += [
    Wrong("y_rows_entries_replaced_in_place", names=("build changed the list y_rows[0] it was given",),
          fails={BUILD: "build changed the list y_rows[0] it was given"},
          edits={Y: "    for row in y_rows:\n        for k, v in enumerate(row):\n            row[k] = Value(v)\n"
                    "    y = y_rows\n"},
          passes=(VJP, ROWS)),
    Wrong("y_rows_rows_replaced_in_place", names=("build changed the list y_rows it was given",),
          fails={BUILD: "build changed the list y_rows it was given"},
          edits={Y: "    for i, row in enumerate(y_rows):\n        y_rows[i] = [Value(v) for v in row]\n    y = y_rows\n"},
          passes=(VJP, ROWS)),
    Correct("y_rows_copied_first",
            edits={Y: "    y = [list(row) for row in y_rows]\n    for row in y:\n        for k, v in enumerate(row):\n"
                      "            row[k] = Value(v)\n"}),
    Correct("y_rows_mapped", edits={Y: "    y = [list(map(Value, row)) for row in y_rows]\n"}),
]

# vjp detaches the loss it was given in place after its pass: its numbers are right, but the caller's loss is cut
# off its graph. Told as that, not as a pass started from a Value vjp made.
CASES += [
    Wrong("vjp_detaches_the_loss_given", fails={VJP: "vjp cut a Value it was given off its graph"},
          edits={VJP_BACKWARD: VJP_BACKWARD + "    for row in loss:\n        for entry in row:\n"
                                              "            entry.detach_()\n"},
          names=("vjp cut a Value it was given off its graph", "detach_()"),
          unsaid=("made itself",)),
]

# A default read from what the last call passed (None in the signature, replaced by the last value given, kept in a
# module-level dict): a fresh import's first call zeroes as the stub's default, but not after a call that passed
# False.  Told as that state, not as a signature with another default.
CASES += [
    Wrong("zero_between_default_from_last_call",
          fails={"Jacobian rows for other shapes": "made after a call of jacobian_rows that passed zero_between"},
          names=("made after a call of jacobian_rows that passed zero_between", "state kept between calls"),
          unsaid=("your signature has another default",),
          edits={'def jacobian_rows(x: Matrix, loss: Matrix, zero_between: bool = True) -> list[list[float]]:\n':
                 '_LAST = {"zero_between": True}  # the choice the last call passed\n\n\ndef jacobian_rows(x: Matrix, loss: Matrix, zero_between: bool | None = None) -> list[list[float]]:\n',
                 '    m = len(loss[0])\n':
                 '    if zero_between is not None:\n        _LAST["zero_between"] = zero_between\n    zero_between = _LAST["zero_between"]\n    m = len(loss[0])\n'}),
]

# Rows of x's .grad.data (taken for a copy), read with .item() only at the end: the zeroing in place changed them.
# Told as the rows keeping Values that share .grad's numbers, not only as .grad read after it was zeroed.
CASES += [
    Wrong("rows_of_grad_data_views",
          fails={ROWS: "the rows kept the .grad Values, or Values sharing their numbers (as .grad.data does)",
                 NOT_ZEROED: "the .grad Values kept in the rows and read at the end"},
          edits={"        rows.append(x_grads(x))\n": "        rows.append([leaf.grad.data for leaf in x[0]])\n",
                 "    return rows\n": "    return [[g.item() for g in row] for row in rows]\n"},
          names=("as .grad.data does", "changed in place")),
    # the one-hot list made once before the loop: its 1 set at j, the earlier 1 never put back to 0
    Wrong("one_hot_list_reused", fails={ROWS: "a gradient with more than one nonzero entry"},
          edits={"    rows = []\n    for j in range(m):\n        one_hot = [1.0 if i == j else 0.0 for i in range(m)]\n":
                 "    rows = []\n    one_hot = [0.0] * m\n    for j in range(m):\n        one_hot[j] = 1.0\n"},
          names=("more than one nonzero entry",)),
    # retain_graph thought to be needed on the last pass (the graph must last to the end), not on the earlier ones
    Wrong("retain_on_last_pass_only", fails={ROWS: "RuntimeError"},
          edits={"retain_graph=j < m - 1)": "retain_graph=j == m - 1)"},
          names=("RuntimeError", "in jacobian_rows", "Trying to backward through the graph a second time")),
    # only x[0][0] zeroed (x.grad.data.zero_() read as zeroing x's first entry)
    Wrong("zero_first_leaf_only", fails={ROWS: "x_a[0][1].grad is still exactly what backward wrote"},
          edits={"            for leaf in x[0]:\n                leaf.grad.zero_()\n": "            x[0][0].grad.data.zero_()\n"},
          names=("x_a[0][1].grad", "not changed in place")),
    # the documents' spelling, and the one-hot vector made of two Values kept at module level (never changed)
    Correct("zeroed_through_grad_data", edits={ZERO: "                leaf.grad.data.zero_()\n"}),
    Correct("one_hot_of_module_constants",
            edits={"        one_hot = [1.0 if i == j else 0.0 for i in range(m)]\n":
                   "        one_hot = [_ONE if i == j else _ZERO for i in range(m)]\n",
                   "def jacobian_rows(": "_ONE, _ZERO = Value(1.0), Value(0.0)\n\n\ndef jacobian_rows("}),
]

# retain_graph passed the flag zero_between (two flags taken for one): with True every pass keeps the graph, with
# False the first frees it and the second raises; an entry's place found with loss[0].index(entry), which compares
# numbers: of two equal entries of loss the second is seeded at the first's place; loss's entries cut by detach_()
# once the rows are read; the rows yielded (a generator nothing ran); `zero_between is True`: full marks.
CASES += [
    Wrong("retain_by_zero_between", fails={ROWS: "kept the graph (retain_graph=True) in its last backward pass"},
          edits={"retain_graph=j < m - 1)": "retain_graph=zero_between)"},
          names=("jacobian_rows kept the graph", "Trying to backward through the graph a second time")),
    Wrong("one_hot_by_index_of_entry", fails={"Jacobian rows for other shapes": "by comparing numbers"},
          edits={"    for j in range(m):\n": "    for entry in loss[0]:\n        j = loss[0].index(entry)\n"},
          names=("with their one at the same entry of loss", "comparing numbers")),
    Wrong("rows_detach_the_loss_after", fails={ROWS: "cut a Value it was given off its graph, in place"},
          edits={"    return rows\n": "    for entry in loss[0]:\n        entry.detach_()\n    return rows\n"},
          names=("jacobian_rows cut a Value it was given off its graph", "detach_()")),
    Wrong("rows_as_a_generator", fails={ROWS: "yours is of type generator"},
          edits={"    rows = []\n": "", "        rows.append(x_grads(x))\n": "        yield x_grads(x)\n", "    return rows\n": ""},
          names=("ran no backward pass", "generator"), unsaid=("retain_graph",)),
    Correct("zero_between_is_true", edits={"        if zero_between:\n": "        if zero_between is True:\n"}),
]

# y's Values made once, from the first call's rows, and kept in a module-level name: a later call on other
# shapes multiplies by the first call's y and raises; told as state kept between calls, since the same test
# raises nothing on fresh imports of the file.
CASES += [
    Wrong("y_in_a_global", fails={"build on other shapes": "raised no error when run again on fresh imports of your file"},
          edits={Y: "    global _Y\n    if _Y is None:  # the constants, made once\n"
                    "        _Y = [[Value(v) for v in row] for row in y_rows]\n    y = _Y\n",
                 "def build(": "_Y = None\n\n\ndef build("},
          names=("build", "fresh imports of your file", "state kept between calls")),
]

# vjp skips a loss it has seen, kept in a default list and looked up with `in` (numbers compared): a later graph of
# the same numbers gets no backward pass, and x_grads meets .grad None: told as the call on Values with no .grad.
CASES += [
    Wrong("vjp_skips_a_loss_seen", fails={"a gradient vector gives v times the Jacobian": "on Values whose .grad is None"},
          edits={"def vjp(x: Matrix, loss: Matrix, v: list[float]) -> list[float]:":
                 "def vjp(x: Matrix, loss: Matrix, v: list[float], seen: list = []) -> list[float]:",
                 VJP_BACKWARD: "    if loss in seen:\n        return x_grads(x)\n    seen.append(loss)\n" + VJP_BACKWARD},
          names=("vjp called x_grads", "on Values whose .grad is None"), unsaid=("as x_grads(list)",)),
]

# zero_between compared with the text "True": never zeroed, whatever the flag; retain_graph kept on every pass when
# zeroing; zero_between made keyword-only (the test passes it by place); a default of None read as True: full marks.
JACOBIAN_ROWS = "def jacobian_rows(x: Matrix, loss: Matrix, zero_between: bool = True)"
CASES += [
    Wrong("zero_between_compared_to_text", fails={ROWS: "with zero_between=True too, as it does with zero_between=False"},
          edits={"        if zero_between:\n": "        if zero_between == \"True\":\n"},
          names=("jacobian_rows left x's gradients as backward wrote them with zero_between=True too",)),
    Wrong("retain_when_zeroing_or_not_last", fails={ROWS: "kept the graph (retain_graph=True) in its last backward pass"},
          edits={"retain_graph=j < m - 1)": "retain_graph=zero_between or j < m - 1)"},
          names=("jacobian_rows kept the graph",)),
    Wrong("zero_between_keyword_only", fails={ROWS: "does not take the arguments the statement's takes"},
          edits={JACOBIAN_ROWS: "def jacobian_rows(x: Matrix, loss: Matrix, *, zero_between: bool = True)"},
          names=("jacobian_rows() takes", "positional arguments")),
    Correct("zero_between_default_none", edits={JACOBIAN_ROWS: "def jacobian_rows(x: Matrix, loss: Matrix, zero_between: bool | None = None)",
                                                "    m = len(loss[0])\n": "    if zero_between is None:\n        zero_between = True\n"
                                                                          "    m = len(loss[0])\n"}),
]

# each .grad detached in place before zero_() (it requires no grad: nothing to cut): full marks.
CASES += [Correct("grad_detached_then_zeroed", edits={ZERO: "                leaf.grad.detach_()\n" + ZERO})]

# the row recorded is zeroed in its place, x's .grad never: the rows' zeros are told as no gradient of x,
# never as .grad Values kept and zeroed later (x's .grad was never zeroed)
CASES += [Wrong("record_zeroed_not_grad", fails={"one Jacobian row per backward": "yet your code never zeroed x's .grad"},
                names=("jacobian_rows(x_a, loss_a, True) holds only zeros", "never zeroed x's .grad"),
                unsaid=("once your code had zeroed it", "was read after it was zeroed"),
                edits={"        rows.append(x_grads(x))\n": "        row = x_grads(x)\n        rows.append(row)\n",
                       "            for leaf in x[0]:\n" + ZERO: "            for k in range(len(row)):\n                row[k] = 0.0\n"})]

# the rows returned the other way round (one per leaf, each holding that leaf's gradient of every pass): told
# as rows of one leaf each, never as leaves found by their number (where two leaves hold one number)
CASES += [Wrong("rows_by_leaf", fails={ROWS: "each of your rows holds the gradients of one leaf only"},
                names=("holds x_a[0][0]'s gradient, where the statement records x_a[0][1]'s",
                       "each of your rows holds the gradients of one leaf only"),
                unsaid=("found a leaf's entry by its number",),
                edits={"    return rows\n": "    return [list(column) for column in zip(*rows)]\n"})]

# Gradients asked of grad(), which writes no .grad: vjp's answer is right and x's .grad stay None, told as grad()
# where the statement runs backward (not only as .grad never written); jacobian_rows's rows by grad() the same
# (rows_by_grad above).
CASES += [
    Wrong("vjp_by_grad_call", fails={VJP: "vjp computed gradients with grad(), which writes no .grad"},
          edits={VJP_BACKWARD + "    return x_grads(x)\n": "    return [g.item() for g in micrograph.grad(loss, x[0], [v])]\n"},
          names=("vjp computed gradients with grad()", "writes no .grad"), unsaid=("backward never wrote",)),
]
# a hook on x's leaves that changes the gradient vjp returns: told as the hook, never as x_grads edited
# (the unedited x_grads read the .grad the hook's number went into)
CASES += [Wrong("hook_shifts_x_grads", fails={"v times the Jacobian": "a hook of yours ran in that backward pass"},
                edits={"    micrograph.backward(loss, [v])\n    return":
                       "    for leaf in x[0]:\n        leaf.register_hook(lambda g: g + 0.5)\n"
                       "    micrograph.backward(loss, [v])\n    return"},
                names=("a hook of yours ran in that backward pass and chose its number",), unsaid=("x_grads was edited",))]

# an answer kept in a module-level dict by id(loss): right while every graph given lives, and told once a new graph of
# other numbers takes a freed one's ids (the probe puts it there), never by where the allocator happened to put it
CASES += [
    Wrong("vjp_cached_by_id", fails={"a gradient vector gives v times the Jacobian": "what it returned for an earlier graph"},
          edits={"def vjp(": "_SEEN: dict = {}\n\n\ndef vjp(",
                 VJP_BACKWARD + "    return x_grads(x)\n":
                 "    key = (id(loss), tuple(v))\n    if key not in _SEEN:\n" + "    " + VJP_BACKWARD +
                 "        _SEEN[key] = x_grads(x)\n    return list(_SEEN[key])\n"},
          names=("vjp(x, loss, v)", "a result kept between calls", "the id of an object of the new graph")),
    Wrong("rows_cached_by_id", fails={"Jacobian rows for other shapes": "kept between calls"},
          edits={"def jacobian_rows(": "_ROWS: dict = {}\n\n\ndef jacobian_rows(",
                 "    m = len(loss[0])\n": "    if id(loss) in _ROWS:\n        return [list(r) for r in _ROWS[id(loss)]]\n"
                                          "    m = len(loss[0])\n",
                 "    return rows\n": "    _ROWS[id(loss)] = rows\n    return [list(r) for r in rows]\n"},
          names=("jacobian_rows", "kept between calls")),
]

# x's gradients returned in reverse order, each as backward wrote it: told as vjp's result in another order, where
# only the test's advice was shown (the list returned was compared, but no sentence told how it differs)
CASES += [Wrong("vjp_grads_reversed", fails={VJP: "holds the statement's entries, but in another order"},
                edits={VJP_BACKWARD + "    return x_grads(x)\n": VJP_BACKWARD + "    return x_grads(x)[::-1]\n"},
                names=("vjp(x_a, loss_a, v_a) holds the statement's entries, but in another order",))]

# y's entries left as the floats given: told once, as every entry of y a float, never again as y[0][0] alone
CASES += [Wrong("y_of_plain_floats", fails={BUILD: "Each entry of y is of type float, not a Value"},
                edits={Y: "    y = [list(row) for row in y_rows]\n"},
                names=("each entry of y is of type float",), unsaid=("the y[0][0] build returned",))]
