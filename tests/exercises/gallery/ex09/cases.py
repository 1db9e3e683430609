"""ex09 gallery: plausible wrong answers and correct variants (format: gallery_case.py)."""

from gallery_case import Correct, Wrong

INFERENCE = "inference records nothing"
STEP = "a gradient step under no_grad"
IN_PLACE = "the step changes the leaf in place"
REFUSED = "without no_grad the step is refused"
FORWARD = "set_grad_enabled on one input"
FORWARD_HIDDEN = "set_grad_enabled switches recording"

INFER = ("    with micrograph.no_grad():\n"
         "        y = _graph(w, x)  # computed, not recorded: y is a plain leaf\n")
UPDATE = ("    with micrograph.no_grad():\n"
          "        w -= lr * w.grad  # in place on the leaf, allowed and not recorded under no_grad\n")
BACKWARD = ("    loss = loss_fn(w)\n    loss.backward()\n    with micrograph.no_grad():\n")
TRY = '''    try:
        w -= lr * w.grad  # an in-place change of a leaf that requires grad: refused
    except RuntimeError as e:
        return e
    return None
'''
FORWARD_BODY = ("    with micrograph.set_grad_enabled(training):\n"
                "        return _graph(w, x)\n")

CASES = [
    # a slip in the helper inference and forward share: under no_grad y is the engine's, from the leaves given,
    # whose gradient is zero at one hidden point (w = x = 0): not a number computed in Python
    Wrong("helper_parens", names=("y holds a different number from the statement's",),
          fails={INFERENCE: "y holds a different number from the statement's"},
          unsaid=("not computed from the Values",),
          edits={"    return (x + w) * (w + 1)\n": "    return (x + w) * w + 1\n"}),
    # the float w returned in place of the leaf y was computed from: y is not told as computed in Python
    Wrong("inference_returns_float_w", names=("w is of type float",), fails={INFERENCE: "w is of type float"},
          unsaid=("not computed from the Values",),
          edits={"    w = Value(w, requires_grad=True)\n": "    w_leaf = Value(w, requires_grad=True)\n",
                 INFER: INFER.replace("_graph(w, x)", "_graph(w_leaf, x)")}),
    # torch's inference idiom in place of no_grad: y is an inference value, which the probe reads without an error
    Wrong("inference_mode_for_no_grad", names=("was made under inference_mode, not no_grad",),
          fails={INFERENCE: "y was made under inference_mode, not no_grad"},
          edits={INFER: INFER.replace("micrograph.no_grad()", "micrograph.inference_mode()")}),
    # forward keeps its y per leaf (id(w), x, training): after a step changed w, the same call returns the old y
    Wrong("forward_kept_per_leaf", names=("forward returned something else than the same call returns in a fresh import",),
          fails={"set_grad_enabled switches recording": "depends on state kept between calls"},
          edits={"    with micrograph.set_grad_enabled(training):\n        return _graph(w, x)\n":
                 "    key = (id(w), x, training)\n"
                 "    if key not in _FORWARDS:\n"
                 "        with micrograph.set_grad_enabled(training):\n"
                 "            _FORWARDS[key] = _graph(w, x)\n"
                 "    return _FORWARDS[key]\n",
                 "def forward(": "_FORWARDS = {}\n\n\ndef forward("}),
    Wrong("w_and_x_exchanged", names=("returned as w and x are exchanged",), fails={INFERENCE: "are exchanged"},
          edits={'    return {"w": w, "x": x, "y": y}\n': '    return {"w": x, "x": w, "y": y}\n'}),
    Wrong("global_switch", fails={FORWARD: "grad mode still off", INFERENCE: "grad mode still off"}),
    Wrong("no_zero_no_no_grad", names=('inference computed nothing with grad mode off', 'backward wrote w.grad, but its number differs'), fails={INFERENCE: "grad mode", STEP: "w.grad"},
          edits={INFER: "    y = _graph(w, x)\n",  # recorded; and w.grad piles up over steps
                 "    w.grad = None  # gradients accumulate (ex05): start this step from nothing\n": ""}),
    Wrong("rebinding_step", names=('w has a version counter still at 0',), fails={STEP: "w has a version counter still at 0"},  # the caller's w never moves
          edits={UPDATE: "    w = w - lr * w.grad\n"}),
    Wrong("floats_inference", names=('y was not returned by an operation of the engine',), fails={INFERENCE: "grad mode"},
          edits={INFER: "    y = Value((x.item() + w.item()) * (w.item() + 1))\n"}),
    Wrong("detach_instead_of_no_grad", names=('inference computed nothing with grad mode off',), fails={INFERENCE: "grad mode"},
          edits={INFER: "    y = _graph(w, x).detach()\n"}),
    Wrong("update_through_data", names=('sgd_step computed nothing with grad mode off', 'w has a version counter still at 0', 'reached it through .data'), fails={STEP: "w has a version counter still at 0"},
          edits={UPDATE: "    w.data -= lr * w.grad.item()\n"}),
    Wrong("grad_assigned_by_hand", names=('w.grad holds a value that backward did not write',), fails={STEP: "assigned by hand"},
          edits={BACKWARD: "    loss = loss_fn(w)\n    (g,) = micrograph.grad(loss, w)\n"
                           "    w.grad = g\n    with micrograph.no_grad():\n"}),
    Wrong("error_by_hand", names=('the error returned was made by hand',), fails={REFUSED: "made by hand"},
          edits={TRY: '    return RuntimeError("a leaf Variable that requires grad is being used '
                      'in an in-place operation.")\n'}),
    Wrong("forward_detaches", names=('forward(w, x, False) computed nothing with grad mode off',), fails={FORWARD: "grad mode"},
          edits={FORWARD_BODY: "    y = _graph(w, x)\n    return y if training else y.detach()\n"}),
    Wrong("forward_only_no_grad", names=('with no_grad(): y = forward(w, x, True) was not recorded by the graph',), fails={FORWARD: "y = forward(w, x, True)"},
          edits={FORWARD_BODY: "    if training:\n        return _graph(w, x)\n"
                               "    with micrograph.no_grad():\n        return _graph(w, x)\n"}),
    Correct("sub_in_place", edits={UPDATE: "    with micrograph.no_grad():\n"
                                           "        w.sub_(w.grad * lr)\n"}),
    Correct("other_forms"),
    Wrong("inference_from_floats", names=('y was not returned by an operation of the engine',),  # no_grad entered, but y is a Value of a Python formula
          fails={"inference records nothing": "y was not returned by an operation of the engine"},
          edits={"        y = _graph(w, x)  # computed, not recorded: y is a plain leaf\n":
                 "        y = Value((x.item() + w.item()) * (w.item() + 1))\n"}),
    Wrong("forward_from_floats_when_not_training", names=('y = forward(w, x, False) was not returned by an operation of the engine',),
          fails={"set_grad_enabled on one input": "y = forward(w, x, False) was not returned by an operation of the engine"},
          edits={"    with micrograph.set_grad_enabled(training):\n        return _graph(w, x)":
                 "    with micrograph.set_grad_enabled(training):\n        if not training:\n"
                 "            return Value((x + w.item()) * (w.item() + 1))\n        return _graph(w, x)"}),
    Correct("inference_functional_ops",
            edits={"        y = _graph(w, x)  # computed, not recorded: y is a plain leaf\n":
                   "        y = micrograph.mul(micrograph.add(x, w), micrograph.add(w, 1))\n"}),
    Correct("inference_detached",  # detach() after no_grad changes nothing: still the engine's result
            edits={"        y = _graph(w, x)  # computed, not recorded: y is a plain leaf\n":
                   "        y = _graph(w, x).detach()\n"}),
    # set_grad_enabled called as a function and put back in a finally; a context chosen by the flag
    Correct("set_grad_enabled_called_and_restored", edits={"    with micrograph.set_grad_enabled(training):\n        return _graph(w, x)":
        "    previous = micrograph.is_grad_enabled()\n    micrograph.set_grad_enabled(training)\n    try:\n        return _graph(w, x)\n"
        "    finally:\n        micrograph.set_grad_enabled(previous)"}),
    Correct("enable_grad_or_no_grad_by_flag", edits={"    with micrograph.set_grad_enabled(training):\n        return _graph(w, x)":
        "    mode = micrograph.enable_grad() if training else micrograph.no_grad()\n    with mode:\n        y = _graph(w, x)\n    return y"}),
]

# State kept between calls: leaves cached in a mutable default argument, their numbers overwritten.
CASES += [
    Wrong("leaves_in_a_default_dict",  # a first call's w and x are overwritten by the next call
          fails={"inference on other inputs": "what a first call of inference returned changed"},
          edits={"def inference(w: float, x: float) -> dict[str, Value]:":
                 "def inference(w: float, x: float, _leaves: dict = {}) -> dict[str, Value]:",
                 "    w = Value(w, requires_grad=True)\n    x = Value(x, requires_grad=True)\n    with":
                 "    if not _leaves:\n        _leaves.update(w=Value(0.0, requires_grad=True), x=Value(0.0, requires_grad=True))\n"
                 "    with micrograph.no_grad():\n        _leaves[\"w\"].fill_(w)\n        _leaves[\"x\"].fill_(x)\n"
                 "    w, x = _leaves[\"w\"], _leaves[\"x\"]\n    with"},
          names=("inference", "called again")),
]
CASES += [
    Wrong("grad_not_cleared",  # w.grad of the step before is still there: backward adds to it
          fails={"three steps descend": "sgd_step ran backward while .grad still held the gradient of an earlier pass"},
          edits={"    w.grad = None  # gradients accumulate (ex05): start this step from nothing\n": ""},
          names=("sgd_step ran backward while .grad still held the gradient of an earlier pass",)),
]


# Plausible mistakes of more kinds, each graded as a student reads it: state kept between calls
# (a default argument, a module-level or class-level store), generic list and generator bugs,
# off-by-one, a wrong operand or flag; and correct answers written another way.
CASES += [
    Wrong('whole_step_under_no_grad', fails={'a gradient step under no_grad': 'RuntimeError'},
          edits={'    w.grad = None  # gradients accumulate (ex05): start this step from nothing\n    loss = loss_fn(w)\n    loss.backward()\n    with micrograph.no_grad():\n        w -= lr * w.grad': '    w.grad = None\n    with micrograph.no_grad():\n        loss = loss_fn(w)\n        loss.backward()\n        w -= lr * w.grad'},
          names=('sgd_step', 'RuntimeError')),
    Wrong('step_returns_float', fails={'a gradient step under no_grad': 'is of type float, not a Value'},
          edits={'        w -= lr * w.grad  # in place on the leaf, allowed and not recorded under no_grad\n    return loss': '        w -= lr * w.grad\n    return loss.item()'},
          names=('the loss returned', 'float')),
    Wrong('gradient_ascent', fails={'the step changes the leaf in place': 'moved w in the direction of its gradient'},
          edits={'        w -= lr * w.grad  # in place on the leaf, allowed and not recorded under no_grad': '        w += lr * w.grad'},
          names=('in the direction of its gradient',)),
    # an operator slip (- for *): a step of another size, not the sign flipped; the gradients and losses
    # of the later steps differ because w does, which is not told as backward's
    Wrong('lr_minus_grad', fails={STEP: 'sgd_step moved w by another amount than lr * w.grad'},
          edits={'        w -= lr * w.grad  # in place on the leaf, allowed and not recorded under no_grad': '        w -= lr - w.grad'},
          names=('another amount than lr * w.grad',), unsaid=('in the direction of its gradient', 'backward wrote w.grad')),
    Wrong('training_inverted', fails={'set_grad_enabled on one input': 'was not recorded by the graph'},
          edits={'    with micrograph.set_grad_enabled(training):': '    with micrograph.set_grad_enabled(not training):'},
          names=('forward(w, x, True)', 'grad mode was off')),
    Wrong('error_message_returned', fails={'without no_grad the step is refused': 'is of type str'},
          edits={'        w -= lr * w.grad  # an in-place change of a leaf that requires grad: refused\n    except RuntimeError as e:\n        return e': '        w -= lr * w.grad\n    except RuntimeError as e:\n        return str(e)'},
          names=('the error returned', 'str')),
    Wrong('lr_kept_in_a_default', fails={'three steps descend': 'in a fresh import of your code',
                                         'a gradient step under no_grad': 'in a fresh import of your code'},
          edits={'def sgd_step(w: Value, loss_fn: Callable[[Value], Value], lr: float) -> Value:': 'def sgd_step(w: Value, loss_fn: Callable[[Value], Value], lr: float, _seen: list = []) -> Value:\n    _seen.append(lr)\n    lr = _seen[0]'},
          names=('sgd_step', 'fresh import', 'state kept')),  # the first call's lr, for every call
    # lr decayed by a call count in a default: the loss returned (made before the update) is the same
    # again, only how far w moved differs, which is told as what the call did, not as what it returned
    Wrong('lr_decays_by_call_count', fails={STEP: 'returned what the first call returned, but did not change'},
          edits={'def sgd_step(w: Value, loss_fn: Callable[[Value], Value], lr: float) -> Value:': 'def sgd_step(w: Value, loss_fn: Callable[[Value], Value], lr: float, _step: list = [0]) -> Value:\n    _step[0] += 1\n    lr = lr / _step[0]'},
          names=('sgd_step', 'state kept', 'another amount than lr * w.grad'),
          unsaid=('returned something else than the first time',)),
]

# Hooks: the engine runs them with grad mode off, which is not the student's no_grad; one that
# changes the gradient is told by the numbers it changed.
CASES += [
    Correct('hook_on_loss', edits={'    loss = loss_fn(w)\n    loss.backward()\n    with micrograph.no_grad():\n        w -= lr * w.grad  # in place': '    loss = loss_fn(w)\n    loss.register_hook(lambda g: None)\n    loss.backward()\n    with micrograph.no_grad():\n        w -= lr * w.grad  # in place'}),
]

# More state carried between calls: a dict kept at module level, a leaf kept in a global whose
# number is overwritten, a velocity kept from step to step whatever the leaf.
INFERENCE_LEAVES = "    w = Value(w, requires_grad=True)\n    x = Value(x, requires_grad=True)\n"
CASES += [
    Wrong('inference_into_module_dict', fails={'inference on other inputs': 'what a first call of inference returned changed',
                                 INFERENCE: 'what a first call of inference returned changed'},
          edits={'    return {"w": w, "x": x, "y": y}\n': '    _OUT.update(w=w, x=x, y=y)\n    return _OUT\n',
                 'def inference(': '_OUT: dict = {}\n\n\ndef inference('},
          names=('inference', 'called again', 'state kept between calls')),
    Wrong('inference_global_leaf_data', fails={'inference on other inputs': 'what a first call of inference returned changed',
                                 INFERENCE: 'what a first call of inference returned changed'},
          edits={INFERENCE_LEAVES: '    _W.data.fill_(w)\n    w = _W\n    x = Value(x, requires_grad=True)\n',
                 'def inference(': '_W = Value(0.0, requires_grad=True)\n\n\ndef inference('},
          names=('inference', 'called again', 'state kept between calls')),
    Wrong('velocity_kept_between_steps', fails={'three steps descend': 'sgd_step, called again with the inputs of an earlier call',
                                                'a gradient step under no_grad': 'sgd_step, called again with the inputs of an earlier call'},
          edits={'        w -= lr * w.grad  # in place on the leaf, allowed and not recorded under no_grad':
                 '        _VELOCITY[0] = 0.9 * _VELOCITY[0] + w.grad.item()\n        w -= lr * _VELOCITY[0]',
                 'def sgd_step(': '_VELOCITY = [0.0]\n\n\ndef sgd_step('},
          names=('sgd_step', 'state kept between calls')),
]


# Tried as a student reads them: the gradient zeroed through .grad.data (accepted: backward then
# writes the step's gradient alone), a step count kept between calls, the refused update applied
# anyway, grad mode switched by hand and back; and the mode of forward taken from w.
CASES += [
    Correct('grad_zeroed_through_data',
            edits={'    w.grad = None  # gradients accumulate (ex05): start this step from nothing\n':
                   '    if w.grad is not None:\n        w.grad.data.zero_()\n'}),
    Wrong('lr_divided_by_the_calls',  # a schedule kept in a module-level counter
          edits={'        w -= lr * w.grad  # in place on the leaf, allowed and not recorded under no_grad':
                 '        _CALLS[0] += 1\n        w -= lr / _CALLS[0] * w.grad',
                 'def sgd_step(': '_CALLS = [0]\n\n\ndef sgd_step('},
          names=('sgd_step', 'state kept')),
    Wrong('first_leaf_kept_in_a_global',  # every later step moves the leaf of the first call
          fails={'a gradient step under no_grad': 'state kept between calls'},
          edits={'        w -= lr * w.grad  # in place on the leaf, allowed and not recorded under no_grad':
                 '        global _PARAM\n        _PARAM = w if _PARAM is None else _PARAM\n        _PARAM -= lr * w.grad',
                 'def sgd_step(': '_PARAM = None\n\n\ndef sgd_step('},
          names=('sgd_step', 'state kept', 'w has a version counter still at 0')),
    Wrong('refused_then_applied',
          edits={'    except RuntimeError as e:\n        return e\n    return None\n':
                 '    except RuntimeError as e:\n        with micrograph.no_grad():\n            w -= lr * w.grad\n'
                 '        return e\n    return None\n'},
          names=('w was changed in place',)),
    # recording switched off and on again by hand, not restored (the statement asks the with
    # form): an evaluation loop's no_grad around the call is undone for the rest of its block
    Wrong("grad_mode_switched_by_hand", names=("inference(w, x) returned with grad mode on",),
          fails={INFERENCE: "returned with grad mode on, where it was off when it was called"},
          edits={INFER: "    micrograph.set_grad_enabled(False)\n    y = _graph(w, x)\n"
                        "    micrograph.set_grad_enabled(True)\n"}),
    # the update in a hook run once w's gradient is accumulated, under the student's own no_grad (the
    # engine's backward runs hooks with grad mode off already: the no_grad entered is the student's all the same)
    Correct("update_in_a_hook", edits={
        "    loss.backward()\n    with micrograph.no_grad():\n"
        "        w -= lr * w.grad  # in place on the leaf, allowed and not recorded under no_grad\n":
        "    def update(p):\n        with micrograph.no_grad():\n            p -= lr * p.grad\n\n"
        "    handle = w.register_post_accumulate_grad_hook(update)\n    loss.backward()\n    handle.remove()\n"}),
    # the update made before the loss and its backward, by the gradient cleared to zero: w never moves
    Wrong("update_before_backward", names=("sgd_step changed w in place before its backward pass started",),
          fails={STEP: "sgd_step changed w in place before its backward pass started"},
          edits={"    loss = loss_fn(w)\n    loss.backward()\n    with micrograph.no_grad():\n"
                 "        w -= lr * w.grad  # in place on the leaf, allowed and not recorded under no_grad\n":
                 "    w.grad = micrograph.Value(0.0)\n    with micrograph.no_grad():\n        w -= lr * w.grad\n"
                 "    loss = loss_fn(w)\n    loss.backward()\n"}),
    # the leaf returned where the loss is asked: a leaf, its graph its own AccumulateGrad, follow from it
    Wrong("returns_the_leaf", names=("The loss returned is still the leaf w given to sgd_step",),
          fails={STEP: "The loss returned is still the leaf w given to sgd_step, not a new object."},
          edits={"    return loss\n": "    return w\n"}),
    # the with block opened, y computed after it: the caller's grad mode decides what is recorded
    Wrong("computed_after_the_with", names=("is recorded as the grad mode around the call decides, not as training asks",
                                            "under the caller's grad mode"),
          fails={FORWARD: "forward computed y under the caller's grad mode"},
          edits={FORWARD_BODY: "    with micrograph.set_grad_enabled(training):\n        pass\n    return _graph(w, x)\n"}),
    Wrong('mode_from_requires_grad',  # w requires grad whatever training says
          edits={'    with micrograph.set_grad_enabled(training):': '    with micrograph.set_grad_enabled(w.requires_grad):'},
          names=('forward(w, x, False)',)),
]


# The refused update written as a rebinding: nothing is refused, so no error is returned.
CASES += [
    Wrong('refused_step_rebound', fails={'without no_grad the step is refused': 'the error returned is None: your code never changed the leaf w in place'},
          edits={'        w -= lr * w.grad  # an in-place change of a leaf that requires grad: refused':
                 '        w = w - lr * w.grad  # an in-place change of a leaf that requires grad: refused'},
          names=('the error returned is None', 'never changed the leaf w in place')),
]


# The decorator form of no_grad, PyTorch's own idiom (``@torch.no_grad()``): the wrapper hands back
# what the decorated function returned, which the engine's operations made from w and x; a
# decorated function that returns a Value of a Python formula is told as that.
CASES += [
    Correct('inference_decorated',
            edits={'def inference(': '@micrograph.no_grad()\ndef _evaluate(w: Value, x: Value) -> Value:\n'
                                     '    return _graph(w, x)\n\n\ndef inference(',
                   '    with micrograph.no_grad():\n        y = _graph(w, x)  # computed, not recorded: y is a plain leaf\n':
                   '    y = _evaluate(w, x)\n'}),
    Correct('inference_bare_decorator',
            edits={'def inference(': '@micrograph.no_grad\ndef _evaluate(w: Value, x: Value) -> Value:\n'
                                     '    return micrograph.mul(micrograph.add(x, w), micrograph.add(w, 1))\n\n\ndef inference(',
                   '    with micrograph.no_grad():\n        y = _graph(w, x)  # computed, not recorded: y is a plain leaf\n':
                   '    y = _evaluate(w, x)\n'}),
    Wrong('decorated_from_floats', fails={'inference records nothing': 'y was not returned by an operation of the engine'},
          edits={'def inference(': '@micrograph.no_grad()\ndef _evaluate(w: Value, x: Value) -> Value:\n'
                                   '    return Value((x.item() + w.item()) * (w.item() + 1))\n\n\ndef inference(',
                 '    with micrograph.no_grad():\n        y = _graph(w, x)  # computed, not recorded: y is a plain leaf\n':
                 '    y = _evaluate(w, x)\n'},
          names=('y was not returned by an operation of the engine',)),
]

# State kept between calls that the public tests see too: forward's y cached by its flag, so that
# a call returns the y of the first call with that flag, built on that call's w.
CASES += [
    Wrong("forward_cached_by_flag",
          fails={FORWARD: "forward returned something else than the same call returns in a fresh import",
                 FORWARD_HIDDEN: "forward returned something else than the same call returns in a fresh import"},
          edits={"    with micrograph.set_grad_enabled(training):\n        return _graph(w, x)\n":
                 "    if training not in _MADE:\n        with micrograph.set_grad_enabled(training):\n"
                 "            _MADE[training] = _graph(w, x)\n    return _MADE[training]\n",
                 "def forward(": "_MADE: dict = {}\n\n\ndef forward("},
          names=("forward", "state kept between calls")),
]

# Leaves cached on the inputs in a mutable default: every number is the statement's, and a
# change made to one call's w shows in the w of the next call on the same inputs.
CASES += [
    Wrong("leaves_cached_in_a_default",
          fails={"inference on other inputs": "the w inference returned is still the w an earlier call"},
          edits={"def inference(w: float, x: float) -> dict[str, Value]:":
                 "def inference(w: float, x: float, _leaves: dict = {}) -> dict[str, Value]:",
                 "    w = Value(w, requires_grad=True)\n    x = Value(x, requires_grad=True)\n":
                 "    if (w, x) not in _leaves:\n"
                 "        _leaves[(w, x)] = (Value(w, requires_grad=True), Value(x, requires_grad=True))\n"
                 "    w, x = _leaves[(w, x)]\n"},
          names=("inference", "an earlier call", "kept between calls and returned again")),
]


# forward switches grad mode with a plain call and leaves it off after forward(w, x, False): told
# by forward's tests, never charged to the inference run in a later step (the diagram's probe
# calls forward before the tests).
CASES += [
    Wrong('forward_mode_left_off',
          edits={FORWARD_BODY: "    micrograph.set_grad_enabled(training)\n    return _graph(w, x)\n"},
          fails={FORWARD: "forward(w, x, False) returned with grad mode still off",
                 FORWARD_HIDDEN: "forward(w, x, False) returned with grad mode still off"},
          passes=(INFERENCE, "inference on other inputs"),
          names=("forward(w, x, False) returned with grad mode still off: your code switched it off outside a with",)),
]

# inference computed from detach()es of w and x instead of under no_grad: told as no no_grad, and
# the detached copies share w's and x's numbers, so y is computed from them (not from Python).
CASES += [
    Wrong('inference_from_detached_copies', fails={INFERENCE: "inference computed nothing with grad mode off"},
          edits={INFER: "    wd, xd = w.detach(), x.detach()\n    y = (xd + wd) * (wd + 1)\n"},
          names=("inference computed nothing with grad mode off",)),
]

# The old gradient cleared by a zero .grad instead of None: backward adds the step's gradient into
# it, so w.grad holds that gradient alone, as the statement allows.
CASES += [
    Correct('grad_cleared_to_a_zero_value',
            edits={'    w.grad = None  # gradients accumulate (ex05): start this step from nothing\n':
                   '    w.grad = Value(0.0)  # gradients accumulate (ex05): start this step from zero\n'}),
]

# forward switches the flag of the caller's leaf instead of grad mode: the w it was given changed.
CASES += [
    Wrong('forward_sets_requires_grad', fails={FORWARD: "the w given to forward(w, x, False) has requires_grad=False"},
          edits={FORWARD_BODY: "    w.requires_grad_(training)\n    return _graph(w, x)\n"},
          names=('the w given to forward(w, x, False) has requires_grad=False',)),
]

# A step of lr * w.grad * w: it subtracts, so no sign is wrong; its size is, and with it the
# direction at a negative w.
CASES += [
    Wrong("step_times_w", fails={STEP: "sgd_step moved w by another amount than lr * w.grad"},
          edits={UPDATE: "    with micrograph.no_grad():\n        w -= lr * w.grad * w\n"},
          names=("sgd_step", "lr * w.grad")),
]

# Two ways of choosing w.grad's number, each named as what it is: a hook that halves a large
# gradient (it runs in the pass), and a .grad set to a number before backward (the pass adds to it).
CASES += [
    Wrong("clip_hook", fails={STEP: "a hook of yours ran in that backward pass"},
          edits={"    w.grad = None  # gradients accumulate (ex05): start this step from nothing\n":
                 "    w.grad = None\n    w.register_hook(lambda g: g * 0.5 if abs(g.item()) > 5 else g)\n"},
          names=("backward wrote w.grad, but a hook of yours",)),
    Wrong("grad_seeded_one", fails={STEP: "by adding to a number your code had put in .grad before the pass"},
          edits={"    w.grad = None  # gradients accumulate (ex05): start this step from nothing\n":
                 "    w.grad = Value(1.0)\n"},
          names=("backward wrote w.grad by adding",)),
]

# inference under functools.lru_cache: a call on inputs seen before runs none of its code and
# returns the earlier call's dict, told by the identity of what it returned alone (not as a y
# made another way, or a call that computed nothing with grad mode off).
CASES += [
    Wrong("inference_lru_cached",
          fails={"inference on other inputs": "the y inference returned is still the y an earlier call"},
          edits={"def inference(w: float, x: float) -> dict[str, Value]:":
                 "@__import__(\"functools\").lru_cache(maxsize=None)\ndef inference(w: float, x: float) -> dict[str, Value]:"},
          names=("an earlier call", "kept between calls and returned again"),
          unsaid=("computed nothing with grad mode off", "made another way")),
]

# The whole step inside one no_grad block: the loss is recorded by no graph, and its backward
# raises; the error is told with the call of loss_fn under no_grad that made it raise.
CASES += [
    Wrong("step_all_under_no_grad",
          fails={STEP: "sgd_step called loss_fn while grad mode was off (no_grad)"},
          edits={"    w.grad = None  # gradients accumulate (ex05): start this step from nothing\n"
                 "    loss = loss_fn(w)\n    loss.backward()\n    with micrograph.no_grad():\n"
                 "        w -= lr * w.grad":
                 "    with micrograph.no_grad():\n        w.grad = None\n        loss = loss_fn(w)\n"
                 "        loss.backward()\n        w -= lr * w.grad"},
          names=("called loss_fn while grad mode was off", "recorded by no graph")),
]

# One leaf per distinct number: inference's w and x one Value where the numbers are equal.
CASES += [
    Wrong("one_leaf_per_number",
          fails={"inference on other inputs": "x is the very Value w is in inference"},
          edits={"    w = Value(w, requires_grad=True)\n    x = Value(x, requires_grad=True)\n":
                 "    made = {}\n    w = made.setdefault(w, Value(w, requires_grad=True))\n"
                 "    x = made.setdefault(x, Value(x, requires_grad=True))\n"},
          names=("one leaf for both",)),
    # a leaf made for each, y computed from both, and w returned under the name x too: one Value under
    # two names, not one leaf made for both
    Wrong("x_returned_as_w",
          fails={INFERENCE: "The Value returned as x is the very one returned as w"},
          edits={'    return {"w": w, "x": x, "y": y}\n': '    return {"w": w, "x": w, "y": y}\n'},
          names=("one Value under two names",), unsaid=("one leaf for both",)),
]

# The step left to the engine's optimizer, whose step() runs under no_grad (as torch.optim's):
# the update is the statement's, made under no_grad by a function sgd_step called.
CASES += [
    Correct("step_by_optim_sgd",
            edits={"    w.grad = None  # gradients accumulate (ex05): start this step from nothing\n"
                   "    loss = loss_fn(w)\n    loss.backward()\n    with micrograph.no_grad():\n"
                   "        w -= lr * w.grad":
                   "    optimizer = micrograph.optim.SGD([w], lr=lr)\n    optimizer.zero_grad()\n"
                   "    loss = loss_fn(w)\n    loss.backward()\n    optimizer.step()"}),
]

# The update made outside no_grad inside a try whose except drops the engine's refusal: w never
# moves, and the refusal caught is what the feedback names; a step that tries again under no_grad
# once refused moves w as the statement's does.
CASES += [
    Wrong("refusal_swallowed", fails={STEP: "caught the error that the engine's __isub__() raised"},
          edits={UPDATE: "    try:\n        w -= lr * w.grad\n    except RuntimeError:\n        pass\n"},
          names=("sgd_step caught the error that the engine's __isub__() raised", "computed nothing with grad mode off",
                 "w has a version counter still at 0")),
    Correct("retried_under_no_grad",
            edits={UPDATE: "    try:\n        w -= lr * w.grad\n    except RuntimeError:\n"
                           "        with micrograph.no_grad():\n            w -= lr * w.grad\n"}),
]

# y made by the engine from w and x, then changed in its flags only: requires_grad_() after the
# no_grad block, or detach_() in place of it; either way y was computed from the leaves, and no
# sentence may say otherwise.
CASES += [
    Wrong("y_flagged_after", fails={INFERENCE: "y has requires_grad=True"},
          edits={"    return {\"w\": w, \"x\": x, \"y\": y}\n": "    y.requires_grad_()\n    return {\"w\": w, \"x\": x, \"y\": y}\n"},
          names=("y has requires_grad=True",), unsaid=("not computed from the Values",)),
    Wrong("y_detached_in_place", fails={INFERENCE: "inference computed nothing with grad mode off"},
          edits={INFER: "    y = _graph(w, x)\n    y.detach_()\n"},
          names=("inference computed nothing with grad mode off",), unsaid=("not computed from the Values",)),
]

# The update one step late: the gradient w already holds is applied before this step's backward, so
# the call on a new w (no gradient yet) moves nothing and never enters no_grad; the sentence says
# which call, not that sgd_step never does.
CASES += [
    Wrong("update_one_step_late", fails={"a gradient step under no_grad": "changed w in place before its backward pass"},
          edits={"    w.grad = None  # gradients accumulate (ex05): start this step from nothing\n":
                 "    if w.grad is not None:\n        with micrograph.no_grad():\n            w -= lr * w.grad\n"
                 "    w.grad = None\n",
                 "    with micrograph.no_grad():\n        w -= lr * w.grad  # in place on the leaf, allowed and not recorded under no_grad\n": ""},
          names=("sgd_step on a new w (w.grad is None) computed nothing with grad mode off", "before its backward pass"),
          unsaid=("sgd_step computed nothing with grad mode off",)),
]

# A step that forgets loss.backward(): w.grad is still None at the update, and Python's TypeError on
# None names neither the backward that never ran nor w.grad; the sentence says both.
CASES += [
    Wrong("refused_without_backward", fails={REFUSED: "ran no backward pass before this error"},
          edits={"    loss = loss_fn(w)\n    loss.backward()\n    try:\n": "    loss = loss_fn(w)\n    try:\n"},
          names=("step_without_no_grad read w.grad, which is None", "no backward pass", "NoneType")),
    Wrong("step_without_backward", fails={STEP: "ran no backward pass before this error"},
          edits={BACKWARD: "    loss = loss_fn(w)\n    with micrograph.no_grad():\n"},
          names=("sgd_step read w.grad, which is None", "no backward pass")),
]

# A grad mode switched off by the file's own top-level code (a module-level set_grad_enabled(False), kept in
# a table of modes): told as the import that left it off, not as sgd_step's backward raising, which is right
# when called with grad mode on.
CASES += [
    Wrong("mode_left_off_at_import", fails={INFERENCE: "importing ex09_no_grad.py switched grad mode off at line"},
          edits={"def forward(": "_OFF = micrograph.set_grad_enabled(False)\n\n\ndef forward("},
          names=("switched grad mode off", "left it off"), passes=("three steps descend", "without no_grad the step raises"),
          unsaid=("in sgd_step",)),
]

# A momentum kept as an attribute of the caller's w: the first step on a new leaf is lr * w.grad, later
# steps on it are not; told as state the earlier step left on w.
CASES += [
    Wrong("momentum_on_the_leaf", fails={STEP: "the earlier step left something on w"},
          edits={UPDATE: "    with micrograph.no_grad():\n"
                         "        w.velocity = 0.9 * getattr(w, \"velocity\", 0.0) + w.grad.item()\n"
                         "        w -= lr * w.velocity\n"},
          names=("called again on a leaf an earlier call of it stepped", "an attribute"),
          unsaid=("backward wrote w.grad",)),
]

# .grad zeroed after the update "for the next step", never cleared before backward: every step moves w by
# lr times what backward wrote; told by the .grad changed after backward wrote it, not by the step's size.
CASES += [
    Wrong("zeroed_after_the_update", fails={STEP: "w.grad was changed after backward wrote it"},
          edits={"    w.grad = None  # gradients accumulate (ex05): start this step from nothing\n": "",
                 "        w -= lr * w.grad  # in place on the leaf, allowed and not recorded under no_grad\n":
                 "        w -= lr * w.grad  # in place on the leaf, allowed and not recorded under no_grad\n"
                 "    w.grad.zero_()  # for the next step\n"},
          names=("w.grad was changed after backward wrote it",), unsaid=("another amount than lr * w.grad",)),
]

# The error returned is the engine's refusal of an in-place change, but of a new leaf made from
# w's number, not of the update of the w given.
CASES += [
    Wrong("error_of_another_leaf", fails={REFUSED: "another leaf than the w it was given"},
          edits={"        w -= lr * w.grad  # an in-place change of a leaf that requires grad: refused\n":
                 "        Value(w.item(), requires_grad=True).sub_(lr * w.grad)\n"},
          names=("step_without_no_grad", "another leaf than the w it was given")),
]

# sgd_step switches grad mode off by hand and never back: one slip of its code, which the first call (on a new w) and
# the later ones (on a w with a gradient) both show: told once, naming both calls, not once per call.
CASES += [
    Wrong("mode_left_off_in_step", fails={STEP: "returned with grad mode still off"},
          edits={UPDATE: "    micrograph.set_grad_enabled(False)\n    w -= lr * w.grad\n"},
          names=("sgd_step", "returned with grad mode still off", "the same holds for sgd_step"),
          unsaid=("sgd_step returned with grad mode still off",)),
    # forward clears the caller's w.grad before computing: a gradient accumulated over several passes is lost
    Wrong("forward_clears_w_grad", names=("forward(w, x, True) set w.grad to None",),
          fails={FORWARD_HIDDEN: "forward(w, x, True) set w.grad to None"},
          edits={FORWARD_BODY: "    w.grad = None  # a new forward: start from no gradient\n" + FORWARD_BODY}),
]

# The step cut to an int: int(lr * w.grad) is 0 for the probes' small gradients, so w is changed in place by nothing.
CASES += [
    Wrong("step_cut_to_int", names=("sgd_step changed w in place on a step where w.grad was not 0",),
          fails={STEP: "that step moved w by nothing"},
          edits={"        w -= lr * w.grad  # in place on the leaf, allowed and not recorded under no_grad\n":
                 "        w -= int(lr * w.grad.item())\n"}),
]

# sgd_step's backward written as loss.backward(retain_graph=True), the documents' habit: the statement never
# says whether the graph is freed, so what the loss's nodes still hold after the pass is not graded
CASES += [
    Correct("retain_graph_kept", edits={"    loss = loss_fn(w)\n    loss.backward()\n    with micrograph.no_grad():":
                                        "    loss = loss_fn(w)\n    loss.backward(retain_graph=True)\n    with micrograph.no_grad():"}),
]

# forward's set_grad_enabled(training) inside a no_grad block: with training True it turns recording back
# on, so y is recorded; the no_grad entered around it computed nothing and is not told as grad mode off
CASES += [
    Correct("set_grad_enabled_inside_no_grad",
            edits={"    with micrograph.set_grad_enabled(training):\n        return _graph(w, x)":
                   "    with micrograph.no_grad():\n        with micrograph.set_grad_enabled(training):\n"
                   "            return _graph(w, x)"}),
]

# inference computes a = x + w and b = w + 1 with grad on and only y = a * b under no_grad: y is unrecorded,
# and holds the statement's number, but two additions were recorded on its way
CASES += [
    Wrong("inference_product_alone_under_no_grad", names=("y was computed from a result the graph recorded",),
          fails={INFERENCE: "y was computed from a result the graph recorded (AddBackward0)"},
          edits={INFER: "    a, b = x + w, w + 1\n    with micrograph.no_grad():\n        y = a * b\n"}),
]

# sgd_step keeps the loss it computed for a leaf (by id) and backpropagates it again at every later step on that
# leaf, retain_graph=True so the second pass runs: told as the loss an earlier call returned, handed out again
CASES += [
    # in the three steps, where the loss saved w, that pass raises the engine's in-place error: told with the kept loss;
    # the graph its first call and its later ones kept is told once, of sgd_step, not once per call
    Wrong("loss_kept_per_leaf", names=("is still the loss an earlier call of sgd_step returned",
                                       "sgd_step ran its backward pass from the loss an earlier call of sgd_step returned",
                                       "which earlier calls of sgd_step had changed in place",
                                       "sgd_step kept the graph (retain_graph=True)"),
          unsaid=("(w.grad is None) kept the graph",),
          fails={STEP: "The loss sgd_step returned is still the loss an earlier call of sgd_step returned",
                 "three steps descend": "ran its backward pass from the loss an earlier call of sgd_step returned"},
          edits={"    loss = loss_fn(w)\n    loss.backward()\n    with micrograph.no_grad():\n":
                 "    if id(w) not in _LOSSES:\n        _LOSSES[id(w)] = loss_fn(w)\n    loss = _LOSSES[id(w)]\n"
                 "    loss.backward(retain_graph=True)\n    with micrograph.no_grad():\n",
                 "def sgd_step(": "_LOSSES = {}\n\n\ndef sgd_step("}),
    # forward split by an if: training=True computes with the caller's mode, so under an outer no_grad nothing is recorded
    Wrong("forward_if_training", names=("with no_grad(): y = forward(w, x, True) was not recorded by the graph",),
          fails={FORWARD: "with no_grad(): y = forward(w, x, True) was not recorded by the graph"},
          edits={FORWARD_BODY: "    if training:\n        return _graph(w, x)\n    with micrograph.no_grad():\n"
                               "        return _graph(w, x)\n"}),
]

# the old gradient "cleared" after backward instead of before it: the update then reads a w.grad of None,
# told as set to None by the code once the call's backward pass had started, not as no backward pass run
CASES += [
    Wrong("grad_cleared_after_backward", names=("your code set it to None after a backward pass of this call had started",),
          fails={STEP: "sgd_step read w.grad, which is None: your code set it to None after a backward pass"},
          edits={"    w.grad = None  # gradients accumulate (ex05): start this step from nothing\n"
                 "    loss = loss_fn(w)\n    loss.backward()\n":
                 "    loss = loss_fn(w)\n    loss.backward()\n    w.grad = None  # clear the old gradient\n"},
          unsaid=("it ran no backward pass before this error",)),
]

# no_grad given to the with statement itself, not called (as `with torch.no_grad:`, the same TypeError): told
# with the with statement that gave it, where Python's text names neither no_grad nor the call
CASES += [
    Wrong("no_grad_without_call", names=("inference wrote `with micrograph.no_grad:`", "not called",
                                         "micrograph.no_grad() returns"),
          fails={INFERENCE: "`with micrograph.no_grad:`"},
          edits={INFER: INFER.replace("micrograph.no_grad()", "micrograph.no_grad")}),
    # the same in forward, whose evaluation branch the diagram draws too: its "no diagram" note tells it alike
    Wrong("forward_no_grad_without_call", names=("forward wrote `with micrograph.no_grad:`", "not called"),
          fails={FORWARD: "forward wrote `with micrograph.no_grad:`"},
          edits={FORWARD_BODY: "    if training:\n        return _graph(w, x)\n    with micrograph.no_grad:\n"
                               "        return _graph(w, x)\n"}),
]

# The loss kept per leaf and backpropagated again without retain_graph: the earlier pass freed its graph, and the
# engine's "a second time" is told with the kept loss; and no_grad imported by name and given to the with uncalled.
CASES += [
    Wrong("loss_kept_per_leaf_freed",
          names=("sgd_step ran its backward pass from the loss an earlier call of sgd_step returned",
                 "a backward pass had freed that loss's graph already"),
          fails={STEP: "a backward pass had freed that loss's graph already",
                 "three steps descend": "a backward pass had freed that loss's graph already"},
          edits={"    loss = loss_fn(w)\n    loss.backward()\n    with micrograph.no_grad():\n":
                 "    if id(w) not in _LOSSES:\n        _LOSSES[id(w)] = loss_fn(w)\n    loss = _LOSSES[id(w)]\n"
                 "    loss.backward()\n    with micrograph.no_grad():\n",
                 "def sgd_step(": "_LOSSES = {}\n\n\ndef sgd_step("}),
    Wrong("step_no_grad_imported_without_call", names=("sgd_step wrote `with no_grad:`", "no_grad() returns"),
          fails={STEP: "sgd_step wrote `with no_grad:`"},
          edits={UPDATE: UPDATE.replace("micrograph.no_grad()", "no_grad"),
                 "from micrograph import Value\n": "from micrograph import Value, no_grad\n"}),
]

# set_grad_enabled given to the with statement uncalled: told with the call that makes its context manager, by its argument
CASES += [
    Wrong("set_grad_enabled_without_call", names=("forward wrote `with micrograph.set_grad_enabled:`",
                                                  "micrograph.set_grad_enabled(mode) returns"),
          fails={FORWARD: "forward wrote `with micrograph.set_grad_enabled:`"},
          edits={FORWARD_BODY: FORWARD_BODY.replace("set_grad_enabled(training)", "set_grad_enabled")}),
]

# A fresh student pass: torch's own zero_grad(set_to_none=False) (the gradient detached in place, then zeroed: correct);
# .grad zeroed with no check for None (the first step on a new leaf raises); lr applied by a hook registered at every
# step, hooks piling up on a leaf stepped again; evaluation "freezing" w with a hook that zeroes its gradient, in place of
# switching recording off (the hook stays on the caller's w); and the first refusal kept in a global.
CASES += [
    Correct("grad_detached_then_zeroed",
            edits={"    w.grad = None  # gradients accumulate (ex05): start this step from nothing\n":
                   "    if w.grad is not None:\n        w.grad.detach_()\n        w.grad.zero_()\n"}),
    Wrong("grad_zeroed_unchecked", fails={STEP: "sgd_step read w.grad, which is None"},
          edits={"    w.grad = None  # gradients accumulate (ex05): start this step from nothing\n": "    w.grad.zero_()\n"},
          names=("sgd_step read w.grad, which is None", "'NoneType' object has no attribute 'zero_'")),
    Wrong("lr_in_a_hook_each_step", fails={STEP: "a hook of yours ran in that backward pass"},
          edits={"    w.grad = None  # gradients accumulate (ex05): start this step from nothing\n":
                 "    w.grad = None\n    w.register_hook(lambda g: g * lr)\n",
                 "        w -= lr * w.grad  # in place on the leaf, allowed and not recorded under no_grad\n":
                 "        w -= w.grad\n"},
          names=("sgd_step", "a hook of yours")),
    Wrong("eval_freezes_w_with_a_hook", fails={FORWARD: "forward(w, x, False) computed nothing with grad mode off",
                                               FORWARD_HIDDEN: "forward(w, x, False) left a hook on w"},
          edits={FORWARD_BODY: "    if not training:\n        w.register_hook(lambda g: g * 0)\n    return _graph(w, x)\n"},
          names=("forward", "left a hook on w"), unsaid=("its set_grad_enabled(training)",)),
    Wrong("first_refusal_kept_in_a_global",
          fails={"without no_grad the step raises": "an exception the engine raised during an earlier call"},
          edits={TRY: "    global _REFUSED\n    try:\n        w -= lr * w.grad\n    except RuntimeError as e:\n"
                      "        if _REFUSED is None:\n            _REFUSED = e\n        return _REFUSED\n    return None\n",
                 "def step_without_no_grad(": "_REFUSED = None\n\n\ndef step_without_no_grad("},
          names=("step_without_no_grad", "kept between calls")),
]

# The loss computed by a helper whose mutable default keeps the first loss_fn it was handed: every later step
# computes the first call's loss; told by which loss_fn ran, not only by the loss's graph.
CASES += [
    Wrong("loss_fn_kept_in_a_default", fails={STEP: "sgd_step never called the loss_fn it was given"},
          edits={BACKWARD: "    loss = _loss(w, loss_fn)\n    loss.backward()\n    with micrograph.no_grad():\n",
                 "def sgd_step(": "def _loss(w, loss_fn, _first=[]):\n    if not _first:\n        _first.append(loss_fn)\n"
                                 "    return _first[0](w)\n\n\ndef sgd_step("},
          names=("called the loss_fn an earlier call of sgd_step was given", "kept between calls"),
          unsaid=("which is not the operation the statement describes",)),
]

# step_without_no_grad backpropagating a loss of its own (w * w) in place of the loss_fn it is given: told as the
# loss_fn never called, not only as a w.grad of another number.
CASES += [
    Wrong("refused_on_own_loss", fails={REFUSED: "step_without_no_grad never called the loss_fn it was given"},
          edits={"    loss = loss_fn(w)\n    loss.backward()\n    try:\n": "    loss = w * w\n    loss.backward()\n    try:\n"},
          names=("step_without_no_grad never called the loss_fn it was given",),
          unsaid=("its number differs from the statement's", "the loss it returned")),
]

# The loss returned computed again after the update (return loss_fn(w)): told as not the loss backward
# started from, computed after w changed, not only as a loss of another number.
CASES += [
    Wrong("loss_computed_after_update", fails={STEP: "computed the loss again after changing w"},
          edits={"        w -= lr * w.grad  # in place on the leaf, allowed and not recorded under no_grad\n    return loss\n":
                 "        w -= lr * w.grad\n    return loss_fn(w)\n"},
          names=("The loss returned is not the loss its backward pass started from",
                 "computed the loss again after changing w"), unsaid=("returned a y",)),
    # backward needs no grad mode: backward and the update both under no_grad, the update by sub_ with its
    # operands the other way round
    Correct("backward_under_no_grad_too",
            edits={"    loss = loss_fn(w)\n    loss.backward()\n    with micrograph.no_grad():\n"
                   "        w -= lr * w.grad  # in place on the leaf, allowed and not recorded under no_grad\n":
                   "    loss = loss_fn(w)\n    with micrograph.no_grad():\n        loss.backward()\n"
                   "        w.sub_(w.grad * lr)\n"}),
    # leaves made inside the no_grad block (a constructor's requires_grad=True holds there too); the grad
    # zeroed through .data where there is one; the update written through the docs' .data refill and sub_
    Correct("leaves_made_under_no_grad",
            edits={"    w = Value(w, requires_grad=True)\n    x = Value(x, requires_grad=True)\n    with micrograph.no_grad():\n"
                   "        y = _graph(w, x)  # computed, not recorded: y is a plain leaf\n":
                   "    with micrograph.no_grad():\n        w = Value(w, requires_grad=True)\n"
                   "        x = Value(x, requires_grad=True)\n"
                   "        y = micrograph.mul(micrograph.add(x, w), micrograph.add(w, 1))\n",
                   "    w.grad = None  # gradients accumulate (ex05): start this step from nothing\n":
                   "    if w.grad is not None:\n        w.grad.data.zero_()\n"}),
    # the gradient by central differences of loss_fn on plain Values, written into w.grad by hand: no pass
    Wrong("gradient_by_differences",
          fails={STEP: "ran no backward pass"},
          edits={"    loss = loss_fn(w)\n    loss.backward()\n    with micrograph.no_grad():\n"
                 "        w -= lr * w.grad  # in place on the leaf, allowed and not recorded under no_grad\n":
                 "    h = 1e-6\n    g = (loss_fn(Value(w.item() + h)).item() - loss_fn(Value(w.item() - h)).item()) / (2 * h)\n"
                 "    loss = loss_fn(w)\n    w.grad = Value(g)\n    with micrograph.no_grad():\n        w -= lr * g\n"},
          names=("sgd_step ran no backward pass", "assigned by hand")),
]

# The refused update made unrefused another way than no_grad: requires_grad switched off around it, or the
# update made through a detach() of w.  Told why the engine refused nothing, not only that w's counter moved.
REFUSED_UPDATE = "        w -= lr * w.grad  # an in-place change of a leaf that requires grad: refused\n"
CASES += [
    Wrong("refused_update_flag_toggled", fails={"without no_grad the step is refused": "while w did not require grad"},
          edits={REFUSED_UPDATE: "        w.requires_grad_(False)\n        w -= lr * w.grad\n        w.requires_grad_(True)\n"},
          names=("the error returned is None", "while w did not require grad"), unsaid=("grad mode off",)),
    Wrong("refused_update_through_detach", fails={"without no_grad the step is refused": "through a detach() of w"},
          edits={REFUSED_UPDATE: "        w.detach().sub_(lr * w.grad)\n"},
          names=("the error returned is None", "through a detach() of w")),
    # the step's update with requires_grad switched off around it in place of no_grad: the same numbers
    Wrong("step_flag_toggled_for_no_grad", fails={STEP: "computed nothing with grad mode off"},
          edits={"    with micrograph.no_grad():\n        w -= lr * w.grad  # in place on the leaf, allowed and not recorded under no_grad\n":
                 "    w.requires_grad_(False)\n    w -= lr * w.grad\n    w.requires_grad_(True)\n"},
          names=("sgd_step computed nothing with grad mode off", "it changed w in place while w did not require grad",
                 "requires_grad switched off before that change and on again after it")),
]

# The loss returned detached, or its .data: a new Value sharing the loss's number, no graph; told as what it is.
CASES += [
    Wrong("step_returns_detached_loss", fails={STEP: "The loss returned is a detach() of the Value loss_fn returned"},
          edits={"        w -= lr * w.grad  # in place on the leaf, allowed and not recorded under no_grad\n    return loss\n":
                 "        w -= lr * w.grad\n    return loss.detach()\n"},
          names=("The loss returned is a detach() of the Value loss_fn returned",),
          unsaid=("the engine recorded no operation that made it",)),
    Wrong("step_returns_data_of_loss", fails={STEP: "The loss returned is the .data of the Value loss_fn returned"},
          edits={"        w -= lr * w.grad  # in place on the leaf, allowed and not recorded under no_grad\n    return loss\n":
                 "        w -= lr * w.grad\n    return loss.data\n"},
          names=("The loss returned is the .data of the Value loss_fn returned",),
          unsaid=("the engine recorded no operation that made it",)),
]

# sgd_step under functools.lru_cache: a training loop's second call on the same w, with the very same loss_fn and
# lr, runs nothing and returns the first call's loss (w is not stepped again).
CASES += [
    Wrong("sgd_step_lru_cached", fails={"three steps descend": "called again on the w an earlier call was given"},
          edits={"import micrograph\n": "import functools\n\nimport micrograph\n",
                 "def sgd_step(": "@functools.lru_cache(maxsize=None)\ndef sgd_step("},
          names=("sgd_step", "an earlier call", "between calls")),
]
# forward calls retain_grad() on the y it recorded: no test reads y.grad, nothing the statement asks changes
CASES += [Correct("forward_retains_y",
                  edits={"    with micrograph.set_grad_enabled(training):\n        return _graph(w, x)":
                         "    with micrograph.set_grad_enabled(training):\n        y = _graph(w, x)\n"
                         "    if y.requires_grad:\n        y.retain_grad()\n    return y"}),
          # the update in a helper decorated with no_grad(): the same step
          Correct("update_in_no_grad_helper",
                  edits={"def sgd_step(": "@micrograph.no_grad()\ndef _move(w: Value, lr: float) -> None:\n"
                                          "    w.sub_(lr * w.grad)\n\n\ndef sgd_step(",
                         "    with micrograph.no_grad():\n        w -= lr * w.grad": "    _move(w, lr)"})]

# step_without_no_grad under functools.lru_cache: a second call on the same w, loss_fn and lr runs no backward and
# returns the very error the first call caught.
CASES += [
    Wrong("refused_step_lru_cached", fails={"without no_grad the step raises": "called again on the w an earlier call was given"},
          edits={"import micrograph\n": "import functools\n\nimport micrograph\n",
                 "def step_without_no_grad(": "@functools.lru_cache(maxsize=None)\ndef step_without_no_grad("},
          names=("step_without_no_grad", "an earlier call", "between calls")),
]

# forward ends its own process when not training (a script's habit: os._exit once the evaluation is printed): the
# tests it ends are charged, and the tests after them (inference's, sgd_step's) run in a fresh child and pass.
CASES += [
    Wrong("forward_exits_when_evaluating", fails={FORWARD: "exited with status", FORWARD_HIDDEN: "during this test"},
          edits={"def forward(w: Value, x: float, training: bool) -> Value:\n":
                 "def forward(w: Value, x: float, training: bool) -> Value:\n    import os\n\n"
                 "    if not training:\n        os._exit(0)\n"},
          passes=(INFERENCE, STEP, IN_PLACE, REFUSED),
          names=("os._exit", "during this test")),
]

# grad mode turned off in forward by the spelling the student wrote: the shared helper _graph decorated with
# @no_grad() (named, as the function decorated), or set_grad_enabled(False) where set_grad_enabled(training) is
# asked (named as that spelling, not as no_grad)
CASES += [
    Wrong("graph_helper_decorated_no_grad", fails={FORWARD: "it called _graph, a function of yours decorated"},
          edits={"def _graph(": "@micrograph.no_grad()\ndef _graph("},
          names=("forward(w, x, True)", "_graph", "decorated to run with grad mode off"),
          unsaid=("(no_grad) while",)),
    Wrong("forward_mode_false_always", fails={FORWARD: "grad mode was off (set_grad_enabled(False)) while forward"},
          edits={FORWARD_BODY: FORWARD_BODY.replace("set_grad_enabled(training)", "set_grad_enabled(False)")},
          names=("set_grad_enabled(False)", "forward(w, x, True)"), unsaid=("(no_grad) while",)),
]

# the loss computed for the return, and loss_fn called again for the backward: the loss returned is not the root
# backward ran from, told so, where only the test's advice was said
CASES += [
    Wrong("loss_computed_twice", fails={STEP: "called loss_fn more than once"},
          edits={BACKWARD: "    loss = loss_fn(w)\n    loss_fn(w).backward()\n    with micrograph.no_grad():\n"},
          names=("not the loss its backward pass started from", "called loss_fn more than once")),
]

# the whole step inside set_grad_enabled(False): the loss is recorded by no graph and its backward raises; told
# with the call of loss_fn and the spelling the step turned grad mode off with
CASES += [
    Wrong("step_all_under_set_grad_enabled_false",
          fails={STEP: "sgd_step called loss_fn while grad mode was off (set_grad_enabled(False))"},
          edits={"    w.grad = None  # gradients accumulate (ex05): start this step from nothing\n"
                 "    loss = loss_fn(w)\n    loss.backward()\n    with micrograph.no_grad():\n"
                 "        w -= lr * w.grad":
                 "    with micrograph.set_grad_enabled(False):\n        w.grad = None\n        loss = loss_fn(w)\n"
                 "        loss.backward()\n        w -= lr * w.grad"},
          names=("sgd_step called loss_fn while grad mode was off (set_grad_enabled(False))",), unsaid=("(no_grad)",)),
]

# the whole step in a helper of the student's decorated with @no_grad(): told with the call of loss_fn inside it
CASES += [
    Wrong("step_in_no_grad_helper",
          fails={STEP: "sgd_step called loss_fn inside _step, a function of yours decorated"},
          edits={"    w.grad = None  # gradients accumulate (ex05): start this step from nothing\n"
                 "    loss = loss_fn(w)\n    loss.backward()\n    with micrograph.no_grad():\n"
                 "        w -= lr * w.grad  # in place on the leaf, allowed and not recorded under no_grad\n"
                 "    return loss\n":
                 "    return _step(w, loss_fn, lr)\n\n\n@micrograph.no_grad()\ndef _step(w, loss_fn, lr):\n"
                 "    w.grad = None\n    loss = loss_fn(w)\n    loss.backward()\n    w -= lr * w.grad\n    return loss\n"},
          names=("sgd_step called loss_fn inside _step, a function of yours decorated to run with grad mode off",),
          unsaid=("(no_grad)",)),
]

# .grad cleared under no_grad, then loss_fn called under set_grad_enabled(False): two spellings, so the call of
# loss_fn is told with grad mode off and neither named (no_grad would be untrue of it)
CASES += [
    Wrong("cleared_under_no_grad_loss_under_set_grad_enabled_false",
          fails={STEP: "sgd_step called loss_fn while grad mode was off:"},
          edits={"    w.grad = None  # gradients accumulate (ex05): start this step from nothing\n"
                 "    loss = loss_fn(w)\n":
                 "    with micrograph.no_grad():\n        w.grad = None\n"
                 "    with micrograph.set_grad_enabled(False):\n        loss = loss_fn(w)\n"},
          names=("sgd_step called loss_fn while grad mode was off:",), unsaid=("(no_grad)",)),
]
