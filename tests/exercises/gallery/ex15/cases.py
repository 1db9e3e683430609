"""ex15 gallery: plausible wrong answers and correct variants (format: gallery_case.py)."""

from gallery_case import Correct, Wrong

MAKE = "make_model seeds and builds MLP(2, 8, 1)"
LOSSES = "train returns one loss per step"
ONE_STEP = "one step is one SGD update"
CLEARED = "gradients are cleared every step"
LOSSES_HIDDEN = "losses on other data and step counts"

ZERO = "        optimizer.zero_grad()  # backward adds into .grad: start every step from nothing\n"
FORWARD = "        prediction = model(inputs)  # a new graph, from the parameters' current values\n"
LOSS = "        loss = nn.mse_loss(prediction, targets)\n"
BACKWARD = "        loss.backward()  # frees this step's graph: the next step builds its own\n"
STEP = "        optimizer.step()  # p -= lr * p.grad, in place, under no_grad\n"
RECORD = "        losses.append(loss.item())  # a float: keeping the Value would keep its graph alive\n"
LOOP = "    for _ in range(steps):\n"
OPTIMIZER = "    optimizer = optim.SGD(model.parameters(), lr=lr)\n"

CASES = [
    Wrong("model_cached_per_seed", names=("make_model returned is still", "kept between calls and returned again"),
          fails={"make_model on other seeds": "an earlier call of make_model returned, kept between calls and returned again"},
          edits={"    micrograph.manual_seed(seed)  # the initial weights are drawn from this generator\n"
                 "    return nn.MLP([2, 8, 1])\n":
                 "    if seed not in _MODELS:  # a model kept per seed, and trained by earlier calls\n"
                 "        micrograph.manual_seed(seed)\n"
                 "        _MODELS[seed] = nn.MLP([2, 8, 1])\n"
                 "    return _MODELS[seed]\n",
                 "def make_model(": "_MODELS = {}\n\n\ndef make_model("}),
    Wrong("no_zero_grad", fails={CLEARED: "still held the gradient of an earlier pass"}),
    Wrong("per_sample", fails={ONE_STEP: "ran backward more times"}),
    Wrong("unseeded_values", fails={MAKE: "holds a different number", LOSSES: "losses[0] is of type Value"}),
    Wrong("grad_by_hand", names=('train computed gradients with grad()',), fails={ONE_STEP: "computed gradients with grad()"},
          edits={BACKWARD: "        params = list(model.parameters())\n"
                           "        for p, g in zip(params, micrograph.grad(loss, params)):\n"
                           "            p.grad = g\n"}),
    Wrong("loss_as_float_formula", names=('train ran backward from a value that does not depend on every parameter',), fails={ONE_STEP: "does not depend on every parameter"},
          edits={LOSS: "        error = sum((row[0].item() - t[0]) ** 2 for row, t in zip(prediction, targets))\n"
                       "        loss = micrograph.Value(error / len(targets), requires_grad=True)\n"}),
    Wrong("loss_after_update", names=("losses[0] is not the loss of the model you were given", "after its step's update"), fails={LOSSES: "each loss was taken after its step's update, not before it."},
          edits={RECORD: "        losses.append(nn.mse_loss(model(inputs), targets).item())\n"}),
    # only the last loss replaced by the loss after training: "each loss" is said of no call of one step
    Wrong("last_loss_after_training", names=("of the model after the", "update"),
          fails={"losses on other data and step counts": "the one loss returned is that of the model after the update",
                 LOSSES: "losses[2] is the loss of the model after the last update"},
          edits={"    return losses\n": "    if losses:\n        with micrograph.no_grad():\n"
                                       "            losses[-1] = nn.mse_loss(model(inputs), targets).item()\n"
                                       "    return losses\n"},
          unsaid=("each loss was taken after its step's update",)),
    # the caller's rows converted to Values in place: a caller's list no longer holds what it was given
    Wrong("rows_converted_in_place", names=("train changed the list inputs it was given", "no longer holds the items"),
          fails={LOSSES: "after the call it no longer holds the items it was given"},
          edits={OPTIMIZER: "    for i, row in enumerate(inputs):\n"
                            "        inputs[i] = [micrograph.Value(v) for v in row]\n" + OPTIMIZER},
          unsaid=("your code raised TypeError",)),
    Wrong("no_grad_skipped", names=('your code raised RuntimeError', 'in train', 'in-place operation'), fails={ONE_STEP: "RuntimeError at line"},
          edits={STEP: "        for p in model.parameters():\n"
                       "            p -= lr * p.grad\n"}),
    Wrong("forward_under_no_grad", names=('called model at line 68 while grad mode was off', 'does not require grad'),
          fails={ONE_STEP: "RuntimeError at line"},
          edits={FORWARD: "        with micrograph.no_grad():\n"
                          "            prediction = model(inputs)\n"}),
    Wrong("steps_from_one", names=('train returned one loss fewer than the steps it was given', 'one step fewer'),
          fails={LOSSES: "the loop ran one step fewer than steps", ONE_STEP: "ran no backward pass"},
          unsaid=("at the id of a freed trained model",),  # the probe's own model, not a call the student wrote
          edits={LOOP: "    for _ in range(1, steps):\n"}),
    Wrong("own_model", names=('train ran backward from a value that does not depend on every parameter',), fails={ONE_STEP: "does not depend on every parameter"},
          unsaid=("the step had nothing to apply", "the gradients the model came with"),  # its own model's step applied its gradients
          edits={"    optimizer = optim.SGD(model.parameters(), lr=lr)\n":
                 "    model = make_model(0)\n    optimizer = optim.SGD(model.parameters(), lr=lr)\n"}),
    Wrong("zero_grad_before_step", names=('p in model.parameters() has a version counter still at 0', 'between backward and step'),
          fails={ONE_STEP: "cleared after a backward pass had written it", CLEARED: "between backward and step",
                 LOSSES: "are one number at every step"},
          unsaid=("called again on the model an earlier call was given",),  # its steps change nothing: nothing is kept
          edits={ZERO: "", STEP: "        optimizer.zero_grad()\n        optimizer.step()\n"}),
    Wrong("new_leaves_each_step", names=('p in model.parameters() is a new object',), fails={ONE_STEP: "is a new object"},
          edits={STEP: "        for layer in model.children():\n"
                       "            if isinstance(layer, nn.Linear):\n"
                       "                layer.weight = [[nn.Parameter(micrograph.Value(w.item() - lr * w.grad.item())) for w in row]\n"
                       "                                for row in layer.weight]\n"
                       "                layer.bias = [nn.Parameter(micrograph.Value(b.item() - lr * b.grad.item()))\n"
                       "                              for b in layer.bias]\n"}),
    Wrong("retains_every_graph", names=('train kept the graph (retain_graph=True)',), fails={ONE_STEP: "kept the graph (retain_graph=True)"},
          edits={BACKWARD: "        loss.backward(retain_graph=True)\n"}),
    Wrong("clamping_hook_kept", names=("a hook of yours replaced a gradient on its way to the parameters",),
          fails={LOSSES: "a hook of yours replaced a gradient"},
          edits={OPTIMIZER: OPTIMIZER + "    for p in model.parameters():  # gradient clipping, left on the model\n"
                                        "        p.register_hook(lambda g: g.clamp(-0.5, 0.5))\n"}),
    Correct("by_hand"),
    Correct("other_names"),
    # the rows of the batch shuffled at each step (Python's random, unseeded): the whole batch's mean squared
    # error and its gradient are the same sum in another order, alike to the last digits, so no state is kept
    Correct("batch_shuffled_each_step",
            edits={"        prediction = model(inputs)": "        rows = list(zip(inputs, targets))\n"
                                                         "        random.shuffle(rows)\n"
                                                         "        inputs, targets = [r[0] for r in rows], [r[1] for r in rows]\n"
                                                         "        prediction = model(inputs)",
                   "import micrograph\n": "import random\n\nimport micrograph\n"}),
    # the documents' spelling: the numbers (and the gradients) changed through .data, in place, the same
    # leaves; no version counter moves, in PyTorch too
    Correct("update_through_data", edits={STEP: "        for p in model.parameters():\n"
                                                "            p.data -= lr * p.grad.item()\n"}),
    Correct("step_through_data",
            edits={ZERO: "        for p in model.parameters():\n"
                         "            if p.grad is not None:\n"
                         "                p.grad.data.zero_()\n",
                   STEP: "        for p in model.parameters():\n"
                         "            p.data.sub_(lr * p.grad.data)\n"}),
]

# The gradients cleared at the end of each step, not at its start: on a fresh model every step
# applies its own gradient, but the first step of a model that comes with gradients adds them.
CASES += [
    Wrong("zeroed_in_place_at_the_end", fails={CLEARED: "clears the gradients after each step's backward"},
          edits={ZERO: "", RECORD: "        optimizer.zero_grad(set_to_none=False)\n"
                                   "        losses.append(loss.item())\n"},
          names=("the gradients the model came with", "after each step's backward")),
    Wrong("zero_grad_after_step", fails={CLEARED: "not at the start of the step"},
          edits={ZERO: "", STEP: STEP + "        optimizer.zero_grad()  # clean up for the next step\n"},
          names=("the gradients the model came with", "not at the start of the step")),
    # cleared at the start of every step but the first: the last pass's gradients stay in .grad
    Wrong("zero_grad_from_the_second_step", fails={CLEARED: "at the start of every step but the first"},
          edits={LOOP: "    for step in range(steps):\n",
                 ZERO: "        if step > 0:  # the first step has no gradients yet\n"
                       "            optimizer.zero_grad()\n"},
          names=("the gradients the model came with", "every step but the first"),
          unsaid=("after each step's backward",)),
]

# Another loss function, and one spelled differently that is the same.
CASES += [
    Wrong("sum_of_squares_loss",  # the squared errors summed, not averaged
          fails={LOSSES: "losses[0] is the sum of the squared errors"},
          edits={LOSS: "        loss = micrograph.sum([(p - t) ** 2 for row_p, row_t in zip(prediction, targets)"
                       " for p, t in zip(row_p, row_t)])\n"},
          names=("losses[0]", "not their mean")),
    Wrong("absolute_error_loss",  # the mean absolute error
          fails={LOSSES: "losses[0] is not nn.mse_loss(model(inputs), targets)"},
          edits={LOSS: "        pairs = [(p, t) for row_p, row_t in zip(prediction, targets) for p, t in zip(row_p, row_t)]\n"
                       "        loss = micrograph.sum([(p - t).abs() for p, t in pairs]) / len(pairs)\n"},
          names=("losses[0]", "is not nn.mse_loss(model(inputs), targets) of the model you were given")),
]

# State kept between calls: the optimizer made once and kept (later calls step the first model),
# and one module-level list of losses.
CASES += [
    Wrong("optimizer_kept_in_a_global",  # a second model is trained with the first model's parameters
          fails={"one step is one SGD update": "a model given to an earlier call"},
          edits={"    optimizer = optim.SGD(model.parameters(), lr=lr)\n":
                 "    optimizer = _OPTIMIZERS.setdefault(\"sgd\", optim.SGD(model.parameters(), lr=lr))\n",
                 "def train(": "_OPTIMIZERS: dict = {}\n\n\ndef train("},
          names=("train", "earlier call", "kept between calls")),
    Wrong("losses_in_a_module_list",  # each call's losses are right; the list is shared
          fails={"losses on other data and step counts": "what a first call of train returned changed"},
          edits={"    losses = []\n": "    losses = _LOSSES\n    losses.clear()\n",
                 "def train(": "_LOSSES: list[float] = []\n\n\ndef train("},
          names=("train", "called again")),
]

# The inputs turned into Values once, on the first call, and kept in a module-level name: a later call on
# other data trains on the first call's rows and raises at the loss; told as state kept between calls, since
# the same tests raise nothing on fresh imports of the file.
CASES += [
    Wrong("inputs_in_a_global",
          fails={LOSSES: "raised no error when run again on fresh imports of your file",
                 LOSSES_HIDDEN: "this error, in train, depends on state kept between calls"},
          edits={OPTIMIZER: "    global _X\n    if _X is None:  # the inputs as Values, made once\n"
                            "        _X = [[micrograph.Value(v) for v in row] for row in inputs]\n" + OPTIMIZER,
                 FORWARD: "        prediction = model(_X)\n",
                 "def make_model(": "_X = None\n\n\ndef make_model("},
          names=("train", "fresh imports of your file", "state kept between calls")),
]


# Plausible mistakes of more kinds, each graded as a student reads it: state kept between calls
# (a default argument, a module-level or class-level store), generic list and generator bugs,
# off-by-one, a wrong operand or flag; and correct answers written another way.
CASES += [
    Wrong('one_step_too_many', fails={'train returns one loss per step': 'the loop ran one step more than steps'},
          edits={'    for _ in range(steps):\n': '    for _ in range(steps + 1):\n'},
          names=('train returned one loss more than the steps it was given', 'more times')),
    # model.parameters() is a generator: SGD's list() spends it, and the clearing loop runs over nothing (told
    # where the probe saw the optimizer read the very generator the loop still holds as params)
    Wrong('parameters_consumed', fails={'gradients are cleared every step': "a loop over params after that gets no parameter"},
          edits={'    optimizer = optim.SGD(model.parameters(), lr=lr)\n': '    params = model.parameters()\n    optimizer = optim.SGD(params, lr=lr)\n', '        optimizer.zero_grad()  # backward adds into .grad: start every step from nothing\n': '        for p in params:\n            p.grad = None\n'},
          names=('train', 'earlier pass', "no parameter's .grad was zeroed or set to None")),
    Wrong('seeded_after_model', fails={'make_model seeds and builds MLP(2, 8, 1)': 'seeded the generator (manual_seed) after it built the model'},
          edits={'    micrograph.manual_seed(seed)  # the initial weights are drawn from this generator\n    return nn.MLP([2, 8, 1])': '    model = nn.MLP([2, 8, 1])\n    micrograph.manual_seed(seed)\n    return model'},
          names=('make_model seeded the generator (manual_seed) after it built the model',)),
    Wrong('two_updates_per_step', fails={'one step is one SGD update': 'changed in place more times'},
          edits={'        optimizer.step()  # p -= lr * p.grad, in place, under no_grad\n': '        optimizer.step()\n        optimizer.step()\n'},
          names=('p in model.parameters()', 'more times', 'the gradient of that step was applied more than once'),
          unsaid=('does not follow the lr',)),  # each update is -lr * p.grad: there are two of them
    Wrong('optimizer_in_a_default', fails={'one step is one SGD update': 'has a version counter still at 0'},
          edits={'def train(model: nn.Module, inputs: list[list[float]], targets: list[list[float]], lr: float,\n          steps: int) -> list[float]:': 'def train(model: nn.Module, inputs: list[list[float]], targets: list[list[float]], lr: float,\n          steps: int, _kept: dict = {}) -> list[float]:', '    optimizer = optim.SGD(model.parameters(), lr=lr)\n': '    if "opt" not in _kept:\n        _kept["opt"] = optim.SGD(model.parameters(), lr=lr)\n    optimizer = _kept["opt"]\n'},
          names=('train', 'earlier call', 'kept between calls')),
    Wrong('last_loss_only', fails={'train returns one loss per step': 'UnboundLocalError'},
          edits={'        losses.append(loss.item())  # a float: keeping the Value would keep its graph alive\n    return losses': '    losses.append(loss.item())\n    return losses * steps'},
          names=('train', 'UnboundLocalError')),
    Correct('loss_arguments_swapped', edits={'        loss = nn.mse_loss(prediction, targets)\n': '        loss = nn.mse_loss(targets, prediction)\n'}),
]

# Hooks: the engine runs them with grad mode off, which is not the student's no_grad; one that
# changes the gradient is told by the numbers it changed.
CASES += [
    Wrong('gradients_halved_by_hooks', fails={'one step is one SGD update': 'train moved every parameter by one multiple of its gradient'},
          edits={'    optimizer = optim.SGD(model.parameters(), lr=lr)\n': '    optimizer = optim.SGD(model.parameters(), lr=lr)\n    for p in model.parameters():\n        p.register_hook(lambda g: g * 0.5)\n'},
          names=('train moved every parameter', 'not by lr times it')),
    Correct('hooks_that_watch', edits={'    optimizer = optim.SGD(model.parameters(), lr=lr)\n': '    optimizer = optim.SGD(model.parameters(), lr=lr)\n    norms = []\n    for p in model.parameters():\n        p.register_hook(lambda g: norms.append(abs(g.item())))\n'}),
]


# Tried as a student reads them: the learning rate of a first call kept, half the loss, the
# update before backward, each loss kept as a Value; and the gradients zeroed through .grad.data.
CASES += [
    Wrong('lr_kept_in_a_default', fails={'train returns one loss per step': 'in a fresh import of your code'},
          edits={'    optimizer = optim.SGD(model.parameters(), lr=lr)\n':
                 '    _LR.append(lr)\n    optimizer = optim.SGD(model.parameters(), lr=_LR[0])\n',
                 'def train(': '_LR: list = []\n\n\ndef train('},
          names=('train', 'state kept')),
    Wrong('half_the_loss',
          edits={'        loss = nn.mse_loss(prediction, targets)\n': '        loss = nn.mse_loss(prediction, targets) * 0.5\n'},
          names=('a fixed multiple of nn.mse_loss(model(inputs), targets)',)),
    Wrong('update_before_backward',
          edits={'        loss.backward()  # frees this step\'s graph: the next step builds its own\n        optimizer.step()':
                 '        optimizer.step()\n        loss.backward()'},
          names=('version counter still at 0', 'before any backward pass')),
    Wrong('losses_kept_as_values',
          edits={'        losses.append(loss.item())': '        losses.append(loss)'},
          names=('Value',)),
    Correct('zeroed_through_data',
            edits={'        optimizer.zero_grad()  # backward adds into .grad: start every step from nothing\n':
                   '        for p in model.parameters():\n            if p.grad is not None:\n                p.grad.data.zero_()\n'}),
]


# The gradients zeroed in place between backward and step: every step runs, and applies zeros.
CASES += [
    Wrong("zeroed_in_place_before_step", fails={ONE_STEP: "cleared after a backward pass had written it"},
          edits={STEP: "        optimizer.zero_grad(set_to_none=False)\n" + STEP},
          names=("optimizer.step()", "between backward and step")),
]


# Functions that end without their return: each told by the call that returned None, and
# train's tests, which build their own models, are not failed by make_model's.
CASES += [
    Wrong("make_model_without_return", fails={"make_model seeds and builds MLP(2, 8, 1)": "not NoneType"},
          edits={"    return nn.MLP([2, 8, 1])": "    model = nn.MLP([2, 8, 1])"},
          names=("make_model", "NoneType")),
    Wrong("train_without_return", fails={"train returns one loss per step": "train(model, inputs, targets, lr, steps) is not"},
          edits={"    return losses\n": "    losses.sort()\n"},
          names=("train(model, inputs, targets, lr, steps)", "yours is None")),
]

# A network of another shape: the layer that differs is named, as the student built it.
CASES += [
    Wrong("hidden_layer_of_four", fails={MAKE: 'list(make_model(seed).children())[0] is "Linear(2, 4)" here'},
          edits={"    return nn.MLP([2, 8, 1])": "    return nn.MLP([2, 4, 1])"},
          names=("list(make_model(seed).children())[0]", "differs from the statement's"),
          unsaid=("did not leave the generator",)),  # a smaller model draws fewer numbers from the seeded generator
    Wrong("two_hidden_layers", fails={MAKE: "list(make_model(seed).children()) has more entries"},
          edits={"    return nn.MLP([2, 8, 1])": "    return nn.MLP([2, 8, 8, 1])"},
          names=("list(make_model(seed).children())", "more entries")),
]

# The loss summed over the batch, not averaged (the tutorial's reduction='sum'): told as a sum.
CASES += [
    Wrong("loss_summed", fails={LOSSES: "the sum of the squared errors"}, names=("losses[0]", "not their mean"),
          edits={LOSS: "        loss = nn.mse_loss(prediction, targets, reduction='sum')\n"}),
]

# Half the mean squared error (the textbook's 1/2 for a neater derivative): every step is taken on
# that multiple of the statement's loss, and the step tests say so rather than "a different number".
CASES += [
    Wrong("half_mean_squared_error",
          fails={"one step is one SGD update": "train took its steps on a loss that is a fixed multiple of nn.mse_loss",
                 "gradients are cleared every step": "train took its steps on a loss that is a fixed multiple",
                 LOSSES: "train took its steps on a loss that is a fixed multiple"},
          edits={LOSS: "        loss = nn.mse_loss(prediction, targets) * 0.5\n"},
          names=("train", "fixed multiple of nn.mse_loss(model(inputs), targets)", "every update")),
]

# The learning rate written into the optimizer, not read from train's lr: right at the public
# tests' lr only.  Runs of several steps show only where the parameters end; a call of one step
# on the same model, data and lr tells why.
CASES += [
    Wrong("learning_rate_fixed",
          fails={"one step on other data": "does not follow the lr train was given",
                 "losses on other data and step counts": "does not follow the lr train was given",
                 "gradients cleared over more steps": "does not follow the lr train was given",
                 "the loss falls over longer runs": "does not follow the lr train was given"},
          edits={"    optimizer = optim.SGD(model.parameters(), lr=lr)": "    optimizer = optim.SGD(model.parameters(), lr=0.1)"},
          names=("train", "does not follow the lr")),
]

# The losses gathered in a mutable default argument: every loss is the statement's, but the list
# starts with an earlier call's; told as state kept between calls, not also as a first loss of
# another kind.
CASES += [
    Wrong("losses_in_a_default_list",
          fails={LOSSES: "what a first call of train returned changed",
                 "losses on other data and step counts": "state kept between calls"},
          edits={"          steps: int) -> list[float]:": "          steps: int, losses: list = []) -> list[float]:",  # noqa: B006
                 "    losses = []\n": ""},
          names=("train", "state kept between calls")),
]

# One optimizer per id(model), kept between calls: a new model at a freed model's id is "trained"
# by an optimizer over the freed model's parameters, and its own stay as they were.
CASES += [
    Wrong("optimizer_by_model_id", edits={
        "    optimizer = optim.SGD(model.parameters(), lr=lr)\n":
        "    if (id(model), lr) not in _OPTIMIZERS:\n        _OPTIMIZERS[id(model), lr] = optim.SGD(model.parameters(), lr=lr)\n"
        "    optimizer = _OPTIMIZERS[id(model), lr]\n",
        "\ndef make_model(": "\n_OPTIMIZERS: dict = {}\n\n\ndef make_model("},
          fails={"losses on other data and step counts": "reached the parameters of a model it was not given"},
          # where the allocator hands a model of a later call a freed id too, that model's parameters are
          # also told as never changed in place: true of them, so not listed as unsaid
          names=("train", "took the id of a trained model let go of", "kept between calls"),
          unsaid=("returned the losses of the call",)),
]

# An optimizer with momentum: its first step is lr * p.grad, every later one carries the earlier
# gradients too.  make_model seeding only on its first call in the process: a later call builds
# from wherever the generator stands.
CASES += [
    Wrong("momentum",  # told by its steps in the losses tests too, and nothing said of a model at a freed id
          fails={CLEARED: "from the second optimizer.step() on, a parameter moved by another amount than -lr * p.grad",
                 LOSSES: "from the second optimizer.step() on", LOSSES_HIDDEN: "from the second optimizer.step() on"},
          unsaid=("after a trained model was freed",),
          edits={"    optimizer = optim.SGD(model.parameters(), lr=lr)\n":
                 "    optimizer = optim.SGD(model.parameters(), lr=lr, momentum=0.9)\n"},
          names=("from the second optimizer.step() on", "-lr * p.grad")),
    Wrong("seeded_once",
          fails={MAKE: "make_model, called again with the inputs of an earlier call"},
          edits={"    micrograph.manual_seed(seed)  # the initial weights are drawn from this generator\n":
                 "    global _SEEDED\n    if not _SEEDED:\n        micrograph.manual_seed(seed)\n        _SEEDED = True\n",
                 "def make_model(": "_SEEDED = False\n\n\ndef make_model("},
          names=("make_model", "state kept between calls")),
]

# Gradient clipping by a hook on every parameter: on targets large enough for a gradient above
# one, the clamp changes what each step applies.
CASES += [
    Wrong("clipping_hook",
          fails={"gradients cleared over more steps": "a hook of yours replaced a gradient on its way to the parameters"},
          edits={LOOP: "    for p in model.parameters():\n        p.register_hook(lambda g: g.clamp(-1.0, 1.0))\n" + LOOP},
          names=("hook", "replaced a gradient")),
]

# Steps of another rule than p -= lr * p.grad, told by the rule one step shows: along the
# gradient (ascent), and with weight decay (each step also shrinks p by a share of itself).
CASES += [
    Wrong("step_along_the_gradient", fails={ONE_STEP: "moved every parameter along its .grad"},
          edits={STEP: "        with micrograph.no_grad():\n"
                       "            for p in model.parameters():\n"
                       "                p.add_(p.grad, alpha=lr)\n"},
          names=("along its .grad", "against it")),
    Wrong("weight_decay", fails={ONE_STEP: "(weight decay)", LOSSES: "moved a parameter by another amount than -lr * p.grad"},
          unsaid=("after a trained model was freed",),
          edits={OPTIMIZER: "    optimizer = optim.SGD(model.parameters(), lr=lr, weight_decay=1e-4)\n"},
          names=("more than lr times its .grad", "weight decay")),
]

# A loop that runs its body before testing the count: steps=0 still runs a step.
CASES += [
    Wrong("step_before_the_count", fails={LOSSES: "train(model, inputs, targets, lr, 0) started a backward pass",
                                          "zero steps leave the model as it was": "started a backward pass"},
          edits={LOOP: "    step = 0\n    while True:\n",
                 RECORD: RECORD + "        step += 1\n        if step >= steps:\n            break\n"},
          names=("train(model, inputs, targets, lr, 0)", "started a backward pass")),
]

# The prediction made once, before the loop, backpropagated at every step with retain_graph=True:
# the second pass meets the parameters the first update changed in place.
CASES += [
    Wrong("prediction_before_the_loop",
          fails={LOSSES: "ran a later backward pass through nodes of the graph an earlier pass had run through"},
          edits={LOOP + ZERO + FORWARD: "    prediction = model(inputs)\n" + LOOP + ZERO,
                 BACKWARD: "        loss.backward(retain_graph=True)\n"},
          names=("nodes of the graph an earlier pass had run through", "before the loop")),
]

# Each seed's model built once and a copy returned on every call: new objects with the seed's weights,
# but a second make_model(seed) never seeds the generator, which the statement's does.
CASES += [
    Wrong("model_copied_per_seed",
          fails={"make_model on other seeds": "did not leave the generator as manual_seed(seed)"},
          edits={"    micrograph.manual_seed(seed)  # the initial weights are drawn from this generator\n"
                 "    return nn.MLP([2, 8, 1])\n":
                 "    if seed not in _BUILT:\n        micrograph.manual_seed(seed)\n"
                 "        _BUILT[seed] = nn.MLP([2, 8, 1])\n    return copy.deepcopy(_BUILT[seed])\n",
                 "def make_model(": "_BUILT: dict = {}\n\n\ndef make_model(",
                 "import micrograph\n": "import copy\n\nimport micrograph\n"},
          names=("make_model", "generator")),
]


# Slips told by what they did: each loss rounded, the loss of the first row alone, one seed for every
# model, the last parameter left out of the optimizer, and grad mode switched off by the import.
CASES += [
    Wrong("losses_rounded", fails={LOSSES: "rounded to fewer digits"},
          edits={RECORD: "        losses.append(round(loss.item(), 4))\n"},
          names=("losses[0]", "rounded to fewer digits"), unsaid=("of the model you were given, before its first update.",)),
    Wrong("loss_of_the_first_row", fails={LOSSES: "of one row of the batch alone", ONE_STEP: "of one row of the batch alone"},
          edits={LOSS: "        loss = nn.mse_loss(prediction[0], targets[0])\n"},
          names=("one row of the batch alone", "whole batch"), unsaid=("holds a different number",)),
    Wrong("one_seed_for_all", fails={MAKE: "the same parameters for different seeds"},
          edits={"    micrograph.manual_seed(seed)  # the initial weights are drawn from this generator\n":
                 "    micrograph.manual_seed(0)\n"},
          names=("make_model", "same parameters for different seeds"), unsaid=("holds a different number",)),
    Wrong("last_parameter_left_out", fails={ONE_STEP: "never changed list(model.parameters())[-1]"},
          edits={OPTIMIZER: "    params = list(model.parameters())\n"
                            "    optimizer = optim.SGD(params[:len(params) - 1], lr=lr)\n"},
          names=("list(model.parameters())[-1]", "never changed"), unsaid=("version counter still at 0",)),
    Wrong("grad_mode_off_at_import", fails={MAKE: "switched grad mode off at line"},
          edits={"def make_model(": "micrograph.set_grad_enabled(False)  # nothing at import needs a graph\n\n\n"
                                    "def make_model(",
                 LOOP: "    micrograph.set_grad_enabled(True)\n" + LOOP},
          names=("importing ex15_train.py", "grad mode off", "left it off")),
]


# A loss of the prediction against itself (zero gradients: nothing was cleared), and the batch kept
# by id(inputs) between calls (a new list at a freed list's id trains on the old rows).
CASES += [
    Wrong("loss_of_prediction_against_itself",
          fails={ONE_STEP: "backward had written a gradient of zero into every parameter's .grad"},
          edits={LOSS: "        loss = nn.mse_loss(prediction, prediction)\n"},
          names=("gradient of zero", "does not change with the parameters"),
          unsaid=("cleared after a backward pass", "between backward and step")),
    # the lists the tests hand to train are kept alive (``grader.spec.held``): only the probe that frees
    # its own puts a new inputs list at an earlier one's id, so a batch kept by id(inputs) is told so on every run
    Wrong("rows_kept_by_id",
          fails={"losses on other data and step counts": "keyed by id(inputs)"},
          edits={"def make_model(": "_ROWS: dict = {}\n\n\ndef make_model(",
                 OPTIMIZER: OPTIMIZER + "    if id(inputs) not in _ROWS:\n"
                                        "        _ROWS[id(inputs)] = [[micrograph.Value(v) for v in row] for row in inputs]\n"
                                        "    inputs = _ROWS[id(inputs)]\n"},
          names=("train", "keyed by id(inputs)")),
]

# The optimizer given the first layer's parameters only: the second layer is never stepped (nor
# zeroed), told by the layer, not as a zeroing slip.
CASES += [
    Wrong("first_layer_only",
          fails={ONE_STEP: "never changed the parameters of list(model.children())[2]"},
          edits={OPTIMIZER: "    optimizer = optim.SGD(list(model.children())[0].parameters(), lr=lr)\n"},
          names=("list(model.children())[2]", "never changed"),
          unsaid=("still held the gradient of an earlier pass", "the gradients the model came with")),
]

# backward run from one prediction, not from the loss (which is still computed and recorded).
CASES += [
    Wrong("backward_from_a_prediction",
          fails={ONE_STEP: "started a backward pass from an entry of model(inputs)"},
          edits={BACKWARD: "        prediction[0][0].backward()\n"},
          names=("entry of model(inputs)", "not from the loss")),
]


# The losses kept on the model: a second call on the same model returns the first call's list, grown.
CASES += [
    Wrong("losses_kept_on_the_model",
          fails={LOSSES: "called again on the model an earlier call was given"},
          edits={"    losses = []\n": "    if not hasattr(model, \"losses\"):\n        model.losses = []\n"
                                     "    losses = model.losses\n"},
          names=("train", "kept on the model")),
]

CASES += [
    Wrong("optimizer_kept_on_the_model",
          fails={LOSSES: "stepped with that call's lr, not the lr it was given"},
          edits={OPTIMIZER: "    if not hasattr(model, \"optimizer\"):\n"
                            "        model.optimizer = optim.SGD(model.parameters(), lr=lr)\n"
                            "    optimizer = model.optimizer\n"},
          names=("train", "that call's lr")),
    # a new optimizer in every call, its lr written in the code: nothing is kept, the step ignores lr
    Wrong("lr_written_in_the_code", fails={LOSSES: "does not follow the lr train was given"},
          edits={OPTIMIZER: "    optimizer = optim.SGD(model.parameters(), lr=0.1)\n"},
          names=("train", "does not follow the lr"), unsaid=("stepped with that call's lr",)),
]

# The tutorials' evaluation idiom around the training step's forward: the prediction is recorded
# by no graph, and the backward raises at its own line; the error is told with the call of the
# model under no_grad, and that call's line.
CASES += [
    Wrong("forward_under_no_grad_loss_enabled",
          fails={LOSSES: "train called model at line 68 while grad mode was off (no_grad)"},
          edits={FORWARD + LOSS: "        with micrograph.no_grad():\n            prediction = model(inputs)\n"
                                 "        with micrograph.enable_grad():\n"
                                 "            loss = nn.mse_loss(prediction, targets)\n"},
          names=("called model at line", "while grad mode was off", "recorded by no graph")),
]

# The mean absolute error for the loss: its gradient along the output bias is the mean of the
# errors' signs, 0 on a batch balanced between them, so every step moves that bias by nothing.
# The update is the statement's: told as a zero gradient, not as a parameter the step left out.
CASES += [
    Wrong("loss_mean_absolute_error",
          fails={LOSSES: "losses[0] is not nn.mse_loss(model(inputs), targets)"},
          edits={LOSS: "        loss = micrograph.mean([abs(p[0] - t[0]) for p, t in zip(prediction, targets)])\n"},
          names=("losses[0] is not nn.mse_loss(model(inputs), targets)", "wrote into its .grad is 0"),
          unsaid=("each step updates every parameter",)),
]

# An early stop once the loss is small, or stops changing ("converged"): the statement's list holds one
# loss per step.  On data its model fits at once (its loss 0 from the first step, or nearly by the second)
# every threshold stops.
STOPPED = "losses on other data and step counts"
CASES += [
    Wrong("stopped_below_a_loss", fails={STOPPED: "the loop stopped before it had run steps steps"},
          edits={RECORD: RECORD + "        if loss.item() < 1e-3:  # converged\n            break\n"},
          names=("train", "fewer losses than the steps", "stopped before")),
    Wrong("stopped_on_a_small_change", fails={STOPPED: "the loop stopped before it had run steps steps"},
          edits={RECORD: RECORD + "        if len(losses) > 1 and abs(losses[-1] - losses[-2]) < 1e-6:\n"
                                  "            break\n"},
          names=("train", "fewer losses than the steps", "stopped before")),
    Wrong("stopped_once_not_falling", fails={STOPPED: "the loop stopped before it had run steps steps"},
          edits={RECORD: RECORD + "        if len(losses) > 1 and losses[-1] >= losses[-2]:\n            break\n"},
          names=("train", "fewer losses than the steps", "stopped before")),
    Wrong("stopped_once_fallen_far", fails={STOPPED: "the loop stopped before it had run steps steps"},
          edits={RECORD: RECORD + "        if loss.item() < 1e-3 * losses[0]:  # fallen a thousandfold\n            break\n"},
          names=("train", "fewer losses than the steps", "stopped before")),
    # the tutorials' order: zero_grad() after step(), and once before the loop for the gradients the model came with;
    # with steps=0 that first zero_grad() still clears them, where the statement leaves the model as it was
    Wrong("zeroed_before_the_loop_and_after_step", edits={ZERO: "", STEP: STEP + "        optimizer.zero_grad()\n",
                                                          LOOP: "    optimizer.zero_grad()\n" + LOOP},
          fails={"zero steps leave the model as it was": "train(model, inputs, targets, lr, 0) set list(model.parameters())[0].grad to None"},
          names=("set list(model.parameters())[0].grad to None",)),
]

# Loops that never change the model: a second call on the same model computes the same losses afresh,
# which is no result kept between calls.  The parameters rebound to new Values (the model's own
# are left as they were), and a stop below a loss the data's first step is already under, placed
# before backward (one loss, no step).
CASES += [
    Wrong("parameters_rebound",
          fails={LOSSES: "are one number at every step",
                 "losses on other data and step counts": "are one number at every step"},
          edits={STEP: "        with micrograph.no_grad():\n"
                       "            for p in model.parameters():\n"
                       "                p = p - lr * p.grad\n"},
          names=("no step changed the model", "nothing applied their gradients to the parameters"),
          unsaid=("called again on the model an earlier call was given", "at the id of a freed trained model")),
    Wrong("stopped_before_backward_at_the_first_step",
          fails={LOSSES: "fewer losses than the steps it was given"},
          edits={LOSS: LOSS + "        if loss.item() < 0.3:  # converged\n"
                              "            losses.append(loss.item())\n            break\n"},
          names=("fewer losses than the steps", "no backward pass"),
          unsaid=("called again on the model an earlier call was given",)),
]

# Each step's loss recorded as a float computed in Python from the step's predictions (their .item())
# and the targets: the loss of that step before its update, the number loss.item() gives up to the
# order of the additions, and no graph kept.  The loop itself is the statement's.
CASES += [
    Correct("losses_recomputed_from_predictions",
            edits={RECORD: "        n = len(targets)\n"
                           "        losses.append(sum((p[0].item() - t[0]) ** 2 for p, t in zip(prediction, targets)) / n)\n"}),
    # an extra zero_grad before the loop: with steps=0, train still clears the gradients the model came with
    Wrong("zero_grad_before_loop_too", names=("set list(model.parameters())[0].grad to None",),
          fails={"zero steps leave the model as it was": "train(model, inputs, targets, lr, 0) set list(model.parameters())[0].grad to None"},
          edits={OPTIMIZER: OPTIMIZER + "    optimizer.zero_grad()  # clear once before the loop too\n"}),
]

# Two calls that each return a result of their own, alike: a generator (train has yield, so none of its
# body runs) and a new empty list each call (the losses kept in another list).  Nothing is handed out again.
CASES += [
    # the tests that look at the model, not at the losses, tell the generator nobody ran, not the numbers it left
    Wrong("train_yields", names=("train", "generator"),
          fails={LOSSES: "yours is of type generator", ONE_STEP: "returned a generator that nothing ran",
                 LOSSES_HIDDEN: "returned a generator that nothing ran",
                 CLEARED: "returned a generator that nothing ran", "the loss falls over longer runs": "train holds yield"},
          edits={RECORD: "        yield loss.item()\n"},
          unsaid=("called again on the model an earlier call was given", "holds a different number",
                  "after a trained model was freed")),
    Wrong("losses_kept_elsewhere", names=("fewer losses than the steps",),
          fails={LOSSES: "fewer losses than the steps it was given"},
          edits={RECORD: "        history.append(loss.item())\n", "    losses = []\n": "    losses, history = [], []\n"},
          unsaid=("called again on the model an earlier call was given",)),
    # losses kept by (id(model), lr, steps): a new model at a freed model's id, trained alike, is not trained
    Wrong("losses_kept_by_id", names=("took the id of a trained model let go of", "returned the losses of the call"),
          fails={LOSSES_HIDDEN: "a result kept between calls, found again by the id the new model took over"},
          unsaid=("version counter still at 0",),
          edits={"    optimizer = optim.SGD(model.parameters(), lr=lr)\n":
                 "    if (id(model), lr, steps) in _DONE:\n        return list(_DONE[id(model), lr, steps])\n"
                 "    optimizer = optim.SGD(model.parameters(), lr=lr)\n",
                 "    return losses\n": "    _DONE[id(model), lr, steps] = losses\n    return list(losses)\n",
                 "def train(": "_DONE = {}\n\n\ndef train("}),
]

# Every model and batch train was given kept in a module-level history (for plotting later): nothing is
# read back, so it is right; no object it was given is ever freed, and the search for a new model or
# list at a freed one's id stops after a few calls, telling nothing, rather than training on to the limit.
CASES += [
    Correct("history_of_every_run",
            edits={OPTIMIZER: "    _HISTORY.append((model, inputs, targets))\n" + OPTIMIZER,
                   "def train(": "_HISTORY: list = []  # every run, for plotting later\n\n\ndef train("}),
]


# The forward under no_grad: every backward raises, and a try around it swallows the error; each step then finds
# no gradient.  Told by the error caught, not as a loop that records after its update or steps before backward.
CASES += [
    Wrong("backward_error_swallowed", fails={ONE_STEP: "caught an error that the engine's backward() raised",
                                             LOSSES: "your code caught an error that the engine's backward() raised"},
          edits={FORWARD: "        with micrograph.no_grad():  # no graph needed for the forward, it saves memory\n"
                          "            prediction = model(inputs)\n",
                 BACKWARD: "        try:\n"
                           "            loss.backward()\n"
                           "        except RuntimeError as error:\n"
                           "            print(\"backward failed, skipped:\", error)\n"},
          names=("caught an error that the engine's backward() raised",),
          unsaid=("after the last update", "backward comes before step")),
]


# One optimizer.step() more after the loop, on the last step's gradients: each update is -lr * p.grad, and the
# last gradient is applied twice; told as that update, not as a step that does not follow lr.
CASES += [
    Wrong("step_again_after_the_loop",
          fails={LOSSES: "once more after its last step", ONE_STEP: "changed every parameter in place more than once"},
          edits={"    return losses\n": "    if steps:\n"
                                      "        optimizer.step()  # one more step on the last gradients, to finish\n"
                                      "    return losses\n"},
          names=("once more after its last step", "the last gradient applied twice"),
          unsaid=("does not follow the lr",)),
]

# The caller's rows made Values in place, once: every later call on those lists trains alike, and only the
# lists the caller reads again show it.
CASES += [
    Wrong("rows_made_values_in_place", fails={LOSSES: "changed the list inputs[0] it was given"},
          edits={OPTIMIZER: "    for row in inputs:  # the data as Values, in place, once\n"
                            "        for k, number in enumerate(row):\n"
                            "            row[k] = micrograph.Value(float(number))\n" + OPTIMIZER},
          names=("changed the list inputs[0] it was given",)),
]

# "Mean squared error" read another way: the square of the mean error, or its square root (RMSE). Told by the
# losses, which are not nn.mse_loss of the model, not as the step's learning rate.
CASES += [
    Wrong("loss_square_of_mean_error", fails={LOSSES: "is not nn.mse_loss(model(inputs), targets)"},
          edits={LOSS: "        errors = [p[0] - t[0] for p, t in zip(prediction, targets)]\n"
                       "        loss = (micrograph.sum(errors) / len(errors)) ** 2\n"},
          names=("losses[0] is not nn.mse_loss(model(inputs), targets)",)),
    Wrong("loss_root_mean_squared", fails={LOSSES: "is not nn.mse_loss(model(inputs), targets)",
                                           ONE_STEP: "by one multiple of its gradient of the statement's loss"},
          edits={LOSS: "        loss = nn.mse_loss(prediction, targets) ** 0.5\n"},
          names=("losses[0] is not nn.mse_loss(model(inputs), targets)",)),
    # the lr of the first call kept in a module-level list and used by every later call
    Wrong("lr_of_the_first_call_kept", fails={LOSSES: "depends on state kept between calls"},
          edits={"def make_model(": "_LR = []\n\n\ndef make_model(",
                 OPTIMIZER: "    if not _LR:\n        _LR.append(lr)\n    optimizer = optim.SGD(model.parameters(), lr=_LR[0])\n"},
          names=("state kept between calls", "does not follow the lr")),
    # the update written by hand outside no_grad, through .data: p.data -= lr * p.grad, or p.data given the new
    # number p - lr * p.grad (whose graph .data leaves behind); the grads cleared with detach_() then zero_()
    Correct("update_through_data_by_a_value",
            edits={STEP: "        for p in model.parameters():\n            p.data -= lr * p.grad\n"}),
    Correct("data_assigned_the_stepped_value",
            edits={STEP: "        for p in model.parameters():\n            p.data = p - lr * p.grad\n"}),
    Correct("zeroed_after_detach_",
            edits={ZERO: "        for p in model.parameters():\n            if p.grad is not None:\n"
                         "                p.grad.detach_()\n                p.grad.zero_()\n"}),
]

# The loss recorded as loss.data (no graph kept, but a Value, not a float); the mean squared error written out
# with Python's sum over the rows, the same number and gradients as nn.mse_loss: right.
CASES += [
    Wrong("losses_as_data", fails={LOSSES: "losses[0] is of type Value, not a Python float"},
          edits={RECORD: "        losses.append(loss.data)  # no graph kept\n"},
          names=("of type Value", "not a Python float")),
    Correct("mse_written_out", edits={LOSS: "        loss = sum((p[0] - t[0]) ** 2 for p, t in zip(prediction, targets)) / len(targets)\n"}),
]

# The loss written by hand as the mean absolute error: told in the step tests too as steps taken on another loss
# (every parameter moved by lr times a .grad that is not mse_loss's gradient), not only as parameters elsewhere.
CASES += [
    Wrong("loss_absolute_error_by_hand",
          fails={ONE_STEP: "took its steps on another loss than nn.mse_loss(model(inputs), targets)"},
          edits={LOSS: "        terms = [(p - t).abs() for row_p, row_t in zip(prediction, targets) for p, t in zip(row_p, row_t)]\n"
                       "        loss = sum(terms[1:], terms[0]) / len(terms)\n"},
          names=("took its steps on another loss", "those .grad are not its gradients")),
]

# Every .grad set to None between backward and step: the first backward pass added the gradients the model came
# with, and no step applied anything; told as such, not as a first step that added the old gradients to its own.
CASES += [
    Wrong("grads_set_to_none_before_step", names=("between backward and step", "the first backward pass added"),
          fails={ONE_STEP: "cleared after a backward pass had written it"},
          unsaid=("so the first step added",),
          edits={ZERO: "", STEP: "        for p in model.parameters():\n            p.grad = None\n        optimizer.step()\n"}),
]

# An L2 penalty added to the loss: every parameter moves by exactly lr times its .grad, which holds the penalty's
# gradient too; told as steps on another loss, not as a weight decay beyond lr times .grad.
CASES += [
    Wrong("loss_with_an_l2_penalty", names=("took its steps on another loss",),
          fails={ONE_STEP: "took its steps on another loss than nn.mse_loss(model(inputs), targets)"},
          unsaid=("by more than lr times its .grad",),
          edits={LOSS: LOSS + "        for p in model.parameters():\n            loss = loss + 0.01 * (p * p)\n"}),
]

# Grad mode switched off before each step and on again at the start of the next: train returns with it off. Told
# as that in the tests whose probe reads it, never as an error the test raised while it used what train returned
# (the probe's own passes after a call run with grad mode on again).
CASES += [
    Wrong("grad_mode_left_off_after_the_loop",
          fails={ONE_STEP: "train returned with grad mode still off"},
          edits={ZERO: "        micrograph.set_grad_enabled(True)\n" + ZERO,
                 STEP: "        micrograph.set_grad_enabled(False)\n" + STEP},
          names=("train returned with grad mode still off",),
          unsaid=("raised while the test used what your code returned",)),
]

# Correct loops written otherwise: a new SGD made at every step (plain SGD keeps no state between steps); the
# gradients cleared with model.zero_grad() and the loss recorded with float(loss); the batch predicted row by row;
# the mean squared error taken over flat lists of numbers (the same terms, the same mean). And a wrong one: the
# step applied twice per step, told as the gradient applied more than once.
CASES += [
    Correct("optimizer_made_each_step", edits={OPTIMIZER: "", ZERO: "        optimizer = optim.SGD(model.parameters(), lr=lr)\n" + ZERO}),
    Correct("model_zero_grad_and_float", edits={ZERO: "        model.zero_grad()\n", RECORD: "        losses.append(float(loss))\n"}),
    Correct("predicted_row_by_row", edits={FORWARD: "        prediction = [model([row])[0] for row in inputs]\n"}),
    Correct("mse_of_flat_lists",
            edits={LOSS: "        loss = nn.mse_loss([row[0] for row in prediction], [t[0] for t in targets])\n"}),
    Wrong("step_applied_twice", fails={ONE_STEP: "the gradient of that step was applied more than once"},
          edits={STEP: STEP + STEP}, names=("the gradient of that step was applied more than once",)),
]

# A copy of the model trained (copy.deepcopy, to keep the caller's model safe): told as steps on an optimizer that
# holds none of the given model's parameters; the batch's rows fed in reverse against targets in order: told as
# steps on another loss.
CASES += [
    Wrong("trains_a_deep_copy", fails={ONE_STEP: "holds none of the parameters of the model it was given"},
          edits={OPTIMIZER: "    model = copy.deepcopy(model)  # keep the caller's model safe\n" + OPTIMIZER,
                 "import micrograph\n": "import copy\n\nimport micrograph\n"},
          names=("holds none of the parameters of the model it was given",)),
    Wrong("rows_fed_in_reverse", fails={ONE_STEP: "took its steps on another loss"},
          edits={FORWARD: "        prediction = model(inputs[::-1])\n"},
          names=("took its steps on another loss",)),
]

# backward with create_graph=True (a student who reads it as "build the graph"): every loss and step is the statement's;
# told as the graph kept, while the losses tests, which copy the model given (its .grad holding a graph: a Parameter's
# deepcopy leaves .grad out, as torch's), and the search for a model at a freed id see the student's real losses.
CASES += [
    Wrong("backward_with_create_graph", names=("create_graph=True",), fails={ONE_STEP: "kept the graph (create_graph=True"},
          edits={BACKWARD: "        loss.backward(create_graph=True)\n"}, passes=(LOSSES, LOSSES_HIDDEN),
          unsaid=("Only Tensors created explicitly by the user", "CPU time")),
]

# The learning rate divided by the batch's size (a student who thinks the mean needs it again): told as steps whose size
# does not follow lr (the loss's arguments swapped, full marks, is ``loss_arguments_swapped`` above).
CASES += [
    Wrong("lr_divided_by_the_batch_size", names=("does not follow the lr train was given",),
          fails={ONE_STEP: "moved every parameter by another multiple of its .grad than lr"},
          edits={OPTIMIZER: "    optimizer = optim.SGD(model.parameters(), lr=lr / len(inputs))\n"}),
]

# optimizer.step written without its parentheses: no step is ever taken, and no parameter moves; told as step never
# called, not only as version counters still at 0.
CASES += [
    Wrong("step_without_parentheses", names=("never called optimizer.step()",),
          fails={ONE_STEP: "never called optimizer.step(), and no parameter of the model it was given changed",
                 LOSSES: "one number at every step"},
          edits={STEP: "        optimizer.step  # p -= lr * p.grad, in place, under no_grad\n"}),
]

# loss.item written without its parentheses: the list holds bound methods; told by their type, never as losses all one
# number (no step changed the model) nor as an earlier call's result returned again (the methods' type names agree).
CASES += [
    Wrong("item_without_parentheses", names=("of type method, not a Python float",),
          fails={LOSSES: "losses[0] is of type method, not a Python float"},
          edits={RECORD: "        losses.append(loss.item)\n"},
          unsaid=("one number at every step", "returned that call's result", "is not nn.mse_loss(model(inputs), targets)")),
]

# train's losses kept in a module-level dict by the model's id, lr and steps, copies handed out: training on with the
# same lr and steps returns the earlier call's floats and steps nothing.
CASES += [
    Wrong("losses_cached_by_model_lr_steps", fails={"train returns one loss per step": "called again on the model an earlier call was given"},
          edits={"    losses = []\n": "    key = (id(model), lr, steps)\n    if key in _RUNS:\n        return list(_RUNS[key])\n"
                                      "    losses = []\n",
                 "    return losses\n": "    _RUNS[key] = list(losses)\n    return losses\n",
                 "def train(": "_RUNS: dict = {}\n\n\ndef train("},
          names=("train", "an earlier call", "between calls")),
]

# optimizer.step() left out: no parameter moves; the tests that watch no step tell that nothing applied the gradients
# (as step() does), never only a version counter still at zero
CASES += [
    Wrong("step_left_out", names=("never called optimizer.step()", "nothing applied their gradients to the parameters"),
          fails={"gradients cleared over more steps": "nothing applied their gradients to the parameters, as optimizer.step() does",
                 "the loss falls over longer runs": "as optimizer.step() does"},
          unsaid=("version counter still at", "returned the losses of the call"),  # every model of a seed: one loss
          edits={STEP: ""}),
]

# A look at the model at the bottom of the file, kept under the name of the module it came from (nn = make_model(0)):
# make_model's nn.MLP and train's nn.mse_loss then look their names up on that MLP, told with the import's line and
# the line that bound nn again; where the file's own train(nn, ...) after it meets that at import, so is the import.
CASES += [
    Wrong("model_demo_named_nn", fails={MAKE: "binds the name nn again after that import, so nn.MLP looks MLP up",
                                        LOSSES: "so nn.mse_loss looks mse_loss up on what that line gave"},
          edits={"    return losses\n": "    return losses\n\n\nnn = make_model(0)  # a look at the model\nprint(nn)\n"},
          names=("nn is imported at", "binds the name nn again")),
    Wrong("model_demo_named_nn_trained", fails={MAKE: "when imported (line",
                                                LOSSES: "so nn.mse_loss looks mse_loss up on what that line gave"},
          edits={"    return losses\n": "    return losses\n\n\nnn = make_model(0)  # a look at the model\n"
                                        "print(train(nn, [[0.0, 1.0]], [[1.0]], 0.1, 2))\n"},
          names=("nn is imported at", "binds the name nn again")),
]

# each loss put at the front of the list (losses.insert(0, ...)): the first step's loss ends up last; told so, not
# only as a first loss that is not the model's before its first update
CASES += [
    Wrong("losses_inserted_at_the_front", fails={LOSSES: "put the first step's loss at the end of its list"},
          edits={RECORD: "        losses.insert(0, loss.item())\n"},
          names=("losses[0]", "the first step's loss at the end of its list")),
]

# The same forward under set_grad_enabled(False): told with that call's line and the spelling the code turned grad
# mode off with.
CASES += [
    Wrong("forward_under_set_grad_enabled_false",
          fails={ONE_STEP: "train called model at line 68 while grad mode was off (set_grad_enabled(False))"},
          edits={FORWARD: "        with micrograph.set_grad_enabled(False):\n"
                          "            prediction = model(inputs)\n"},
          names=("train called model at line 68 while grad mode was off (set_grad_enabled(False))",),
          unsaid=("(no_grad)",)),
]

# The same forward under inference_mode(), which is no no_grad block: told by that spelling.
CASES += [
    Wrong("forward_under_inference_mode",
          fails={ONE_STEP: "train called model at line 68 while grad mode was off (inference_mode())"},
          edits={FORWARD: "        with micrograph.inference_mode():\n"
                          "            prediction = model(inputs)\n"},
          names=("train called model at line 68 while grad mode was off (inference_mode())",),
          unsaid=("(no_grad)",)),
]

# The forward made by a helper of the student's decorated with @no_grad(): told by that helper and the call's line.
CASES += [
    Wrong("forward_in_no_grad_helper",
          fails={ONE_STEP: "train called model at line 55, inside _predict, a function of yours decorated"},
          edits={"def train(": "@micrograph.no_grad()\ndef _predict(model, inputs):\n    return model(inputs)\n\n\ndef train(",
                 FORWARD: "        prediction = _predict(model, inputs)\n"},
          names=("train called model at line 55, inside _predict, a function of yours decorated to run with grad "
                 "mode off",), unsaid=("(no_grad)",)),
]
