"""ex14 gallery: plausible wrong answers and correct variants (format: gallery_case.py)."""

from gallery_case import Correct, Wrong

SOFTPLUS = "Softplus values, node and gradient"
CLIP = "Clip values, node and gradient"
BOUNDS = "Clip on the bounds of other intervals"
FREED = "backward frees what was saved"
INPLACE = "an in-place change of the saved x is caught"
COMPOSED = "a Function inside a bigger graph"

INSIDE = "        inside = ctx.low <= x.item() <= ctx.high\n"
SOFTPLUS_BACKWARD = "        return grad * x.sigmoid()\n"

CASES = [
    Wrong("forward_returns_a_float", names=("Softplus.apply(x)", "float", "Value"),  # computed outside the engine
          fails={SOFTPLUS: "yours is of type float, not a Value",
                 "Softplus's gradient far from 0": "Softplus.apply(x) returned no Value"},
          unsaid=("difference quotient",),  # its backward is right: no gradient was compared
          edits={"        return (x.exp() + 1.0).log()\n": "        return math.log1p(math.exp(x.item()))\n",
                 "from micrograph import Function, Value\n": "import math\n\nfrom micrograph import Function, Value\n"}),
    Wrong("ctx_attribute", fails={FREED: "saved no value with ctx.save_for_backward",
                                  INPLACE: "saved no value with ctx.save_for_backward"}),
    Wrong("one_gradient", fails={CLIP: "RuntimeError"}),
    Wrong("wrong_derivative", fails={SOFTPLUS: "backward wrote x.grad through Softplus.backward (x < 0, x = 0, or x > 0), but its number differs"}),
    Wrong("strict_bounds", names=('x.grad through Clip.backward', 'number differs'), fails={CLIP: "x.grad", BOUNDS: "x.grad",
                                                                                     "a Function inside a bigger graph": "backward wrote a.grad in z = Softplus.apply(a * b) * a + Clip.apply(b - a, -1, 1), but its number differs"},
          edits={INSIDE: "        inside = ctx.low < x.item() < ctx.high\n"},
          unsaid=("x = low and high",)),  # x = low or x = high: never a number equal to both
    Wrong("gradient_everywhere", names=('x.grad through Clip.backward', 'number differs'), fails={CLIP: "x.grad"},
          edits={INSIDE: "        inside = True\n"}),
    Wrong("clip_reads_output", names=('x.grad through Clip.backward', 'ctx.saved_tensors[0] is a new object'), fails={CLIP: "x.grad", INPLACE: "ctx.saved_tensors[0] is a new object"},
          edits={"        ctx.save_for_backward(x)\n        ctx.low, ctx.high = low, high":
                 "        ctx.save_for_backward(Value(min(max(x.item(), low), high)))\n        ctx.low, ctx.high = low, high"}),
    Wrong("softplus_exp_gradient", names=('x.grad through Softplus.backward', 'number differs', 'local derivative'), fails={SOFTPLUS: "x.grad"},
          edits={SOFTPLUS_BACKWARD: "        return grad * x.exp() / (x.exp() + 2.0)\n"}),
    Wrong("softplus_forward_only_engine_ops", names=("Softplus.apply(x).grad_fn", "LogBackward0"), fails={SOFTPLUS: "Softplus.apply(x).grad_fn is"},
          edits={"        ctx.save_for_backward(x)  # freed by backward, version-checked like any saved operand\n        return (x.exp() + 1.0).log()\n":
                 "        ctx.save_for_backward(x)\n        return (x.exp() + 1.0).log()\n\n    apply = staticmethod(lambda x: (x.exp() + 1.0).log())\n"}),
    Wrong("ignores_incoming_grad", names=('gradcheck(lambda a, b: Softplus.apply(a * b) * a, [a, b]) is False', 'a.grad'), fails={COMPOSED: "a.grad"},
          edits={SOFTPLUS_BACKWARD: "        return x.sigmoid()\n"}),
    Wrong("reads_ctx_attribute_too", names=('the error for a second y.backward() after y.backward() is None',), fails={FREED: "the error for a second y.backward() after y.backward() is None"},
          edits={"        ctx.save_for_backward(x)  # freed by backward, version-checked like any saved operand\n":
                 "        ctx.save_for_backward(x)\n        ctx.x = x\n",
                 "        (x,) = ctx.saved_tensors  # raises once a backward without retain_graph freed it\n":
                 "        x = ctx.x\n"}),
    Correct("sigmoid_spelled_out", edits={SOFTPLUS_BACKWARD: "        return grad / (1.0 + (-x).exp())\n"}),
    Correct("clip_with_if", edits={INSIDE: "        value = x.item()\n        inside = not (value < ctx.low or value > ctx.high)\n"}),
    # softplus's forward through micrograph.log1p (forward records nothing: only the number counts)
    Correct("softplus_by_log1p", edits={"from micrograph import Function, Value\n": "import micrograph\nfrom micrograph import Function, Value\n",
                                        "        return (x.exp() + 1.0).log()": "        return micrograph.log1p(x.exp())"}),
]

# Backwards that agree with gradcheck but are no graph: computed from numbers.
SECOND = "Softplus's gradient is differentiable"
CASES += [
    Wrong("softplus_finite_differences",  # central differences agree with gradcheck to 1e-10
          fails={SECOND: "is None: under create_graph=True, Softplus.backward returned the statement's number in no graph"},
          edits={SOFTPLUS_BACKWARD: "        h = 1e-5\n"
                 "        f = lambda t: math.log(1.0 + math.exp(t))\n"
                 "        return grad * ((f(x.item() + h) - f(x.item() - h)) / (2 * h))\n",
                 "from micrograph import Function, Value\n": "import math\n\nfrom micrograph import Function, Value\n"},
          names=("grad(grad(Softplus.apply(x), x, create_graph=True), x)",)),
    Wrong("softplus_sigmoid_of_a_number",  # the right number, from x.item(): no graph behind it
          fails={SECOND: "is None: under create_graph=True, Softplus.backward returned the statement's number in no graph"},
          edits={SOFTPLUS_BACKWARD: "        return grad * (1.0 / (1.0 + math.exp(-x.item())))\n",
                 "from micrograph import Function, Value\n": "import math\n\nfrom micrograph import Function, Value\n"},
          names=("grad(grad(Softplus.apply(x), x, create_graph=True), x)",)),
]


# Plausible mistakes of more kinds, each graded as a student reads it: state kept between calls
# (a default argument, a module-level or class-level store), generic list and generator bugs,
# off-by-one, a wrong operand or flag; and correct answers written another way.
CASES += [
    Wrong('bounds_on_the_class', fails={'the Functions inside a bigger graph': 'a.grad in z = Clip.apply(a, -1, 1) * 2 + Clip.apply(a, 2, 3)',
                                        COMPOSED: "forward sets Clip.low on the class, which every node shares"},
          edits={'        ctx.low, ctx.high = low, high  # plain numbers: notes on ctx, nothing to free or check\n': '        Clip.low, Clip.high = low, high\n', '        inside = ctx.low <= x.item() <= ctx.high\n': '        inside = Clip.low <= x.item() <= Clip.high\n'},
          names=('Clip.apply(a, -1, 1)', 'a later call Clip.apply(a, 2, 3)', 'Clip.low on the class', 'ctx')),
    Wrong('sigmoid_as_number', fails={"Softplus's gradient is differentiable": "in no graph back to x"},
          edits={'        return grad * x.sigmoid()\n': '        return grad * x.sigmoid().item()\n'},
          names=('grad(grad(Softplus.apply(x), x, create_graph=True), x)',)),
    Wrong('sigmoid_of_data', fails={"Softplus's gradient is differentiable": "in no graph back to x"},
          edits={'        return grad * x.sigmoid()\n': '        return grad * x.data.sigmoid()\n'},
          names=('grad(grad(Softplus.apply(x), x, create_graph=True), x)',)),
    Wrong('high_excluded', fails={'Clip values, node and gradient': 'x.grad through Clip.backward'},
          edits={'        inside = ctx.low <= x.item() <= ctx.high\n': '        inside = ctx.low <= x.item() < ctx.high\n'},
          names=('x.grad through Clip.backward',)),
    Wrong('x_on_the_class', fails={'backward frees what was saved': 'saved no value with ctx.save_for_backward'},
          edits={'        ctx.save_for_backward(x)  # freed by backward, version-checked like any saved operand\n': '        Softplus.x = x\n', '        (x,) = ctx.saved_tensors  # raises once a backward without retain_graph freed it\n': '        x = Softplus.x\n'},
          names=('SoftplusBackward', 'ctx.save_for_backward')),
    Wrong('saves_output', fails={'an in-place change of the saved x is caught': 'ctx.saved_tensors[0] is a new object'},
          edits={'        ctx.save_for_backward(x)  # freed by backward, version-checked like any saved operand\n        return (x.exp() + 1.0).log()': '        out = (x.exp() + 1.0).log()\n        ctx.save_for_backward(out)\n        return out', '        (x,) = ctx.saved_tensors  # raises once a backward without retain_graph freed it\n        return grad * x.sigmoid()': '        (out,) = ctx.saved_tensors\n        return grad * (1.0 - (-out).exp())'},
          names=('ctx.saved_tensors[0]', 'x in forward(ctx, x)')),
]

# More answers read as a student: softplus as log(exp(x)) + 1, sigmoid(-x) as its derivative,
# Clip's min and max swapped, Clip's gradient inverted, zeros returned for the bounds.
CASES += [
    Wrong('softplus_log_of_exp', fails={'a Function inside a bigger graph': 'z = Softplus.apply(a * b) * a + Clip.apply(b - a, -1, 1) is a different number'},
          edits={'        return (x.exp() + 1.0).log()': '        return x.exp().log() + 1.0'},
          names=('Softplus.apply(x) (x < 0, x = 0, or x > 0) is a different number',)),
    Wrong('sigmoid_of_minus_x', fails={'Softplus values, node and gradient': 'backward wrote x.grad through Softplus.backward'},
          edits={'        return grad * x.sigmoid()': '        return grad * (-x).sigmoid()'},
          names=('x.grad through Softplus.backward', 'local derivative other than the statement')),
    Wrong('clip_min_max_swapped', fails={'Clip values, node and gradient': 'Clip.apply(x, low, high) (low < x < high'},
          edits={'        return Value(min(max(x.item(), low), high))': '        return Value(max(min(x.item(), low), high))'},
          names=('Clip.apply(x, low, high) (low < x < high', 'is a different number')),
    Wrong('clip_gradient_inverted', fails={'Clip values, node and gradient': 'backward wrote x.grad through Clip.backward'},
          edits={'        return grad * (1.0 if inside else 0.0), None, None': '        return grad * (0.0 if inside else 1.0), None, None'},
          names=('x.grad through Clip.backward',)),
    Wrong('clip_zeros_for_bounds', fails={},
          edits={'        return grad * (1.0 if inside else 0.0), None, None  # low and high are numbers: None': '        return grad * (1.0 if inside else 0.0), 0.0, 0.0'},
          names=('returned a gradient different than None at position 2',)),
]


# backward's grad argument ignored: the local derivative returned alone.  Seeded with 1 (a
# Function alone, or under a sum) the numbers agree; the output seeded with two gradients shows it.
CASES += [
    Wrong("softplus_ignores_grad", fails={"a Function inside a bigger graph": "Softplus.backward passed on the same gradient"},
          edits={"        return grad * x.sigmoid()": "        return x.sigmoid()"},
          names=("Softplus.backward", "grad times the local derivative")),
    Wrong("clip_ignores_grad", fails={"a Function inside a bigger graph": "Clip.backward passed on the same gradient"},
          edits={"        return grad * (1.0 if inside else 0.0), None, None":
                 "        return Value(1.0 if inside else 0.0), None, None"},
          names=("Clip.backward", "grad times the local derivative")),
    Wrong("softplus_adds_grad", fails={"a Function inside a bigger graph": "does not grow in proportion"},
          edits={"        return grad * x.sigmoid()": "        return grad + x.sigmoid() - 1.0"},
          names=("Softplus.backward", "does not grow in proportion")),
]


# A backward that returns a plain number: the engine refuses it after backward returned, and the
# feedback names the backward whose result it refused.
CASES += [
    Wrong("softplus_backward_returns_a_float", fails={SOFTPLUS: "Softplus.backward returned"},
          edits={SOFTPLUS_BACKWARD: "        return grad.item() * x.sigmoid().item()\n"},
          names=("Softplus.backward returned", "expected Variable or None")),
]

# x kept on the class by forward and read there by backward (saved_tensors read and ignored): a
# result kept while another apply ran backpropagates the later x, which the feedback names as the
# class attribute the later forward set and the first node's backward read.
CASES += [
    Wrong("softplus_x_kept_on_the_class",
          fails={COMPOSED: "forward sets Softplus.last_x on the class, which every node shares, so this node's "
                           "backward read the later call's Softplus.last_x"},
          unsaid=("what a first call of Softplus.apply returned changed",),
          edits={"        ctx.save_for_backward(x)  # freed by backward, version-checked like any saved operand\n":
                 "        ctx.save_for_backward(x)  # freed by backward, version-checked like any saved operand\n"
                 "        Softplus.last_x = x\n",
                 "        (x,) = ctx.saved_tensors  # raises once a backward without retain_graph freed it\n"
                 "        return grad * x.sigmoid()\n":
                 "        ctx.saved_tensors  # raises once a backward without retain_graph freed it\n"
                 "        return grad * Softplus.last_x.sigmoid()\n"},
          names=("Softplus.apply", "later call", "Softplus.last_x on the class")),
]

# The derivative as a difference quotient of Value ops: in a graph, and within gradcheck's
# tolerance near 0; far below 0, where sigmoid(x) is tiny, its rounding is no longer small.
CASES += [
    Wrong("softplus_difference_quotient",
          fails={"Softplus's gradient far from 0": "x.grad through Softplus.backward (x far below 0)"},
          edits={SOFTPLUS_BACKWARD: "        step = 5e-7\n"
                 "        f = lambda t: (t.exp() + 1.0).log()\n"
                 "        return grad * (f(x + step) - f(x - step)) / (2 * step)\n"},
          names=("x.grad through Softplus.backward (x far below 0)", "agrees with sigmoid(x) near 0",
                 "loses its digits far from 0", "with other operations than sigmoid(x)")),
]

# sigmoid(x) spelled with a subtraction or through tanh: it keeps its digits to the grader's
# tolerance far from 0 too (its error is absolute, about 1e-16), so it is the derivative.
CASES += [
    Correct("sigmoid_as_one_minus", edits={SOFTPLUS_BACKWARD: "        return grad * (1.0 - 1.0 / (1.0 + x.exp()))\n"}),
    Correct("sigmoid_through_tanh", edits={SOFTPLUS_BACKWARD: "        return grad * ((x / 2.0).tanh() + 1.0) / 2.0\n"}),
]

# Clip's bounds on a module-level stack (pushed by forward, popped by backward, "backward runs in
# reverse"): a second backward through the node retain_graph=True kept finds another call's
# bounds, or none.
CASES += [
    Wrong("clip_bounds_on_a_stack",
          fails={"backward frees what was saved": "Clip.backward, run again on the same node"},
          edits={"        ctx.low, ctx.high = low, high  # plain numbers: notes on ctx, nothing to free or check\n":
                 "        BOUNDS.append((low, high))\n",
                 "        inside = ctx.low <= x.item() <= ctx.high\n":
                 "        low, high = BOUNDS.pop() if BOUNDS else (float('-inf'), float('inf'))\n"
                 "        inside = low <= x.item() <= high\n",
                 "class Clip(Function):": "BOUNDS = []\n\n\nclass Clip(Function):"},
          names=("Clip.backward", "run again on the same node", "state kept between calls")),
]

# Softplus's formula under the student's own no_grad, in backward: the gradient returned has no
# graph under create_graph=True.
CASES += [
    Wrong("softplus_backward_under_no_grad",
          fails={"Softplus's gradient is differentiable": "Softplus.backward turned grad mode off itself"},
          edits={SOFTPLUS_BACKWARD: "        with no_grad():\n            return grad * x.sigmoid()\n",
                 "from micrograph import Function, Value\n": "from micrograph import Function, Value, no_grad\n"},
          names=("Softplus.backward", "grad mode off", "create_graph=True")),
]

# Clip's forward returning its input when it lies inside the interval ("nothing to clip").
CASES += [
    Wrong("clip_returns_its_input",
          fails={"an in-place change of the saved x is caught": "Clip.forward returned its input (or a view of it), not a new Value"},
          edits={"        return Value(min(max(x.item(), low), high))\n":
                 "        if low <= x.item() <= high:\n            return x\n"
                 "        return Value(min(max(x.item(), low), high))\n"},
          names=("Clip.forward", "returned its input", "not a new Value")),
]

# sigmoid(x) memoised in a module-level dict keyed by x.item(): right numbers, but a create_graph
# gradient at a number a plain backward met first is that backward's Value, with no graph to x.
SECOND = "Softplus's gradient is differentiable"
CASES += [
    Wrong("sigmoid_memoised_by_number",
          fails={SECOND: "returned something else than the same call returns in a fresh import"},
          passes=(SOFTPLUS, CLIP, FREED, INPLACE, COMPOSED),
          edits={SOFTPLUS_BACKWARD: "        if x.item() not in _SIGMOID:\n"
                                    "            _SIGMOID[x.item()] = x.sigmoid()\n"
                                    "        return grad * _SIGMOID[x.item()]\n",
                 "class Softplus(": "_SIGMOID = {}\n\n\nclass Softplus("},
          names=("grad(grad(Softplus.apply(x), x, create_graph=True), x)", "state kept between calls")),
]

# sigmoid_() on the saved x in backward: the right gradient, but the leaf x itself changes, so a
# later backward through the graph refuses it; no state is kept between calls.
CASES += [
    Wrong("sigmoid_in_place_on_x",
          fails={FREED: "Softplus.backward changed x in place"},
          passes=(SOFTPLUS, COMPOSED),
          edits={SOFTPLUS_BACKWARD: "        return grad * x.sigmoid_()\n"},
          names=("Softplus.backward changed x in place", "x._version")),
]

# sigmoid of x.detach() in backward: the right number, but the gradient returned under
# create_graph=True does not reach x, and the feedback names the ways a Value is cut from x.
CASES += [
    Wrong("sigmoid_of_detached_x", fails={SECOND: "in no graph back to x"},
          passes=(SOFTPLUS, CLIP, FREED, INPLACE, COMPOSED),
          edits={SOFTPLUS_BACKWARD: "        return grad * x.detach().sigmoid()\n"},
          names=("grad(grad(Softplus.apply(x), x, create_graph=True), x)", "x.detach()")),
]

# __import__ given a module's name written out is read as the import statement it stands for
# (math = __import__("math") as import math): full marks; given a name computed as the code
# runs, it is refused, and the feedback says how __import__ may be called.
MATH = "from micrograph import Function, Value\n"
CLIPPED = "        return Value(min(max(x.item(), low), high))\n"
CASES += [
    Correct("dunder_import_math", edits={MATH: MATH + "\nmath = __import__('math')\n",
                                         CLIPPED: "        return Value(math.fsum([min(max(x.item(), low), high)]))\n"}),
    Wrong("dunder_import_computed", fails=dict.fromkeys((SOFTPLUS, CLIP), "uses __import__"),
          names=("uses __import__", "module's name written out"),
          edits={MATH: MATH + "\nmath = __import__('ma' + 'th')\n",
                 CLIPPED: "        return Value(math.fsum([min(max(x.item(), low), high)]))\n"}),
]

# Clip.forward clamps x in place, marks it dirty and returns it: x is a leaf that requires grad,
# so Clip.apply itself raises as forward returns (no line of the answer is in the traceback).
# Clip.forward marks its output non-differentiable: apply's output has no grad_fn.
CLIP_RETURN = "        return Value(min(max(x.item(), low), high))\n"
CASES += [
    Wrong("clip_marks_its_input_dirty",
          fails={CLIP: "Clip.apply raised as Clip.forward returned: forward marked its input with ctx.mark_dirty"},
          edits={CLIP_RETURN: "        x.clamp_(low, high)\n        ctx.mark_dirty(x)\n        return x\n"},
          names=("ctx.mark_dirty", "a leaf that requires grad"),
          unsaid=("raised while the test used what your code returned",)),
    Wrong("clip_output_not_differentiable",
          fails={CLIP: "Clip.forward marked its output with ctx.mark_non_differentiable"},
          edits={CLIP_RETURN: "        out = Value(min(max(x.item(), low), high))\n"
                              "        ctx.mark_non_differentiable(out)\n        return out\n"},
          names=("ctx.mark_non_differentiable", "no grad_fn"),
          unsaid=("raised while the test used what your code returned", "the engine recorded no operation")),
]

# Clip.backward decides inside / outside from the incoming gradient, not from x: seeded with a
# gradient inside [low, high] it passes it on, seeded with one outside it passes nothing.
CASES += [
    Wrong("clip_mask_from_grad",
          fails={COMPOSED: "whether it passes the gradient on follows the incoming gradient"},
          edits={INSIDE: "        inside = ctx.low <= grad.item() <= ctx.high\n"},
          names=("follows the incoming gradient",),
          unsaid=("the number grows in proportion",)),
]

# Clip.backward returns None for x outside the interval, where a zero gradient is asked for: x.grad
# stays None below and above it, two cases told together, each meeting one condition.
CASES += [
    Wrong("clip_none_outside",
          fails={CLIP: "backward never wrote x.grad through Clip.backward (x < low or x > high)"},
          edits={"        return grad * (1.0 if inside else 0.0), None, None  # low and high are numbers: None\n":
                 "        return (grad if inside else None), None, None\n"},
          names=("x.grad through Clip.backward (x < low or x > high)", "still None")),
]

# Clip's interval kept in a module-level dict by forward and read there by backward: a node
# backpropagated after a later apply with another interval reads that call's interval.
CASES += [
    Wrong("clip_bounds_in_a_global",
          fails={COMPOSED: "backpropagated once a later call Clip.apply(a, 2, 3) had run, passed on another gradient"},
          edits={"        ctx.low, ctx.high = low, high  # plain numbers: notes on ctx, nothing to free or check\n":
                 "        LAST[\"bounds\"] = (low, high)\n",
                 INSIDE: "        low, high = LAST[\"bounds\"]\n        inside = low <= x.item() <= high\n",
                 "class Clip(Function):": "LAST = {}\n\n\nclass Clip(Function):"},
          names=("Clip.apply(a, -1, 1)", "later call", "state kept between calls", "ctx")),
]

# Softplus.backward reads the incoming gradient as a number (grad.item()): right wherever that
# gradient is a constant, but inside z = Softplus.apply(a * b) * a it depends on a, and under
# create_graph=True the second derivative loses the part that comes through it.
CASES += [
    Wrong("softplus_grad_as_number",
          fails={SECOND: "has no graph back to the grad it receives"},
          passes=(SOFTPLUS, CLIP, FREED, INPLACE, COMPOSED),
          edits={SOFTPLUS_BACKWARD: "        return x.sigmoid() * grad.item()\n"},
          names=("grad(grad(z, a, create_graph=True), a) in z = Softplus.apply(a * b) * a", "grad.item()")),
]

# Clip.forward clips x itself (x.data = the clipped number) and returns a Value of that number:
# the right output and gradient, but the caller's x has changed.
CASES += [
    Wrong("clip_overwrites_its_input",
          fails={CLIP: "Clip.forward (x < low or x > high) changed the number of the x it was given"},
          edits={CLIPPED: "        x.data = Value(min(max(x.item(), low), high))\n        return x.detach()\n"},
          names=("Clip.forward", "changed the number of the x it was given", "a new Value")),
]

# Clip.backward makes a new Value of the gradient's number: right at every seed, but inside
# z = Clip.apply(a * b, -1, 1) * a the gradient reaching the node depends on a, and the second
# derivative loses that part.
CASES += [
    Wrong("clip_grad_as_number",
          fails={"the Functions inside a bigger graph": "the gradient Clip.backward returns has no graph back to the grad"},
          passes=(SOFTPLUS, CLIP, FREED, INPLACE, COMPOSED),
          edits={"        return grad * (1.0 if inside else 0.0), None, None  # low and high are numbers: None\n":
                 "        return Value(grad.item() if inside else 0.0), None, None\n"},
          names=("grad(grad(z, a, create_graph=True), a) in z = Clip.apply(a * b, -1, 1) * a", "grad.item()")),
]

# Softplus.forward saves exp(x) beside x and backward computes sigmoid(x) from it: the right
# number, but exp(x) was made under forward's no_grad, so the gradient has no graph back to x.
CASES += [
    Wrong("softplus_saves_exp",
          fails={SECOND: "ctx.saved_tensors[1] is a Value other than x with no graph back to x"},
          passes=(SOFTPLUS, CLIP, FREED, INPLACE, COMPOSED),
          edits={"        ctx.save_for_backward(x)  # freed by backward, version-checked like any saved operand\n"
                 "        return (x.exp() + 1.0).log()\n":
                 "        e = x.exp()\n        ctx.save_for_backward(x, e)\n        return (e + 1.0).log()\n",
                 "        (x,) = ctx.saved_tensors  # raises once a backward without retain_graph freed it\n"
                 "        return grad * x.sigmoid()\n":
                 "        x, e = ctx.saved_tensors\n        return grad * e / (e + 1.0)\n"},
          names=("ctx.saved_tensors[1]", "no_grad", "no graph back to x"),
          unsaid=("a Value kept from an earlier call",)),
]

# Clip decides inside / outside in forward (a note on ctx) and backward never reads the x it
# saved: the statement asks backward to read x back from ctx.saved_tensors, where a freed or
# changed x is refused.
CASES += [
    Wrong("clip_mask_in_forward",
          fails={FREED: "Clip.backward never read ctx.saved_tensors", INPLACE: "Clip.backward never read ctx.saved_tensors"},
          passes=(SOFTPLUS, CLIP, COMPOSED),
          edits={"        ctx.low, ctx.high = low, high  # plain numbers: notes on ctx, nothing to free or check\n":
                 "        ctx.inside = low <= x.item() <= high\n",
                 "        (x,) = ctx.saved_tensors\n" + INSIDE: "        inside = ctx.inside\n"},
          names=("Clip.backward never read ctx.saved_tensors",)),
]

# sigmoid(x) cached by id(x) in a module-level dict: a later x at a freed x's id (where the probe
# puts one, in a bigger graph's test), or the same leaf once a step changed its number, gets the
# earlier sigmoid.  apply returns the right number:
# what differs is the gradient its backward passes on, so apply is not said to return another.
CASES += [
    Wrong("sigmoid_cached_by_id",
          fails={SOFTPLUS: "Softplus.backward returned something else than the same call returns in a fresh import",
                 COMPOSED: "Softplus.backward (x a new leaf at the id of a freed leaf that Softplus.apply(x).backward() "
                           "ran on) returned something else than the same call returns in a fresh import"},
          edits={SOFTPLUS_BACKWARD: "        if id(x) not in _SIGMOID:\n"
                                    "            _SIGMOID[id(x)] = x.sigmoid()\n"
                                    "        return grad * _SIGMOID[id(x)]\n",
                 "class Softplus(": "_SIGMOID = {}\n\n\nclass Softplus("},
          names=("Softplus.backward", "state kept between calls"),
          unsaid=("local derivative other than the statement's", "does not grow in proportion",
                  "Softplus.apply, called again")),
]

# The "stable" softplus with a sign slip, x.relu() + log(1 + exp(-x)): right for x >= 0 only, so
# the feedback says for which x the number differs, and a graph of both Functions that it fails
# says that Softplus alone fails too (not Clip).
CASES += [
    Wrong("softplus_stable_sign_slip",
          fails={SOFTPLUS: "Softplus.apply(x) (x < 0) is a different number",
                 COMPOSED: 'This test runs your Softplus too, and "Softplus values, node and gradient", '
                           "which tests Softplus alone, fails as well"},
          edits={"        return (x.exp() + 1.0).log()\n": "        return x.relu() + ((-x).exp() + 1.0).log()\n"},
          names=("Softplus.apply(x) (x < 0)", "runs your Softplus too")),
]

# Clip's interval kept in a module-level dict keyed by id(x): two Clip calls on one input share
# an entry, and the first node's backward reads the later call's interval.
CASES += [
    Wrong("clip_bounds_by_input_id",
          fails={COMPOSED: "backpropagated once a later call Clip.apply(a, 2, 3) had run, passed on another gradient"},
          edits={"        ctx.low, ctx.high = low, high  # plain numbers: notes on ctx, nothing to free or check\n":
                 "        BOUNDS[id(x)] = (low, high)\n",
                 INSIDE: "        low, high = BOUNDS[id(x)]\n        inside = low <= x.item() <= high\n",
                 "class Clip(Function):": "BOUNDS = {}\n\n\nclass Clip(Function):"},
          names=("Clip.apply(a, -1, 1)", "later call", "state kept between calls")),
]

# Softplus saves x.detach(): the same number and version counter, so the change in place is still
# refused, but the saved Value has no grad_fn, and the engine's message then lacks the node it is
# the output of: the feedback says where the two messages part, not only that they differ.
CASES += [
    Wrong("softplus_saves_detached_x",
          fails={INPLACE: "whose message parts from the statement's right after \"inplace operation: [torch.DoubleTensor []]\""},
          edits={"        ctx.save_for_backward(x)  # freed by backward, version-checked like any saved operand\n":
                 "        ctx.save_for_backward(x.detach())\n"},
          names=("ctx.saved_tensors[0] is a new object", "parts from the statement's right after")),
]

# Softplus.forward hands back the Value it made for an earlier input of the same number (a cache
# keyed by x.item()): apply returns that very object, as PyTorch's does, and the later call's node
# replaces its grad_fn, so of two equal leaves applied before either is used, the first gets none.
CASES += [
    Wrong("softplus_forward_cached_by_number",
          fails={COMPOSED: "y2 = Softplus.apply(b) (a.item() == b.item()) is still y1 = Softplus.apply(a), kept between calls"},
          edits={"        ctx.save_for_backward(x)  # freed by backward, version-checked like any saved operand\n"
                 "        return (x.exp() + 1.0).log()\n":
                 "        ctx.save_for_backward(x)\n        if x.item() not in _OUT:\n"
                 "            _OUT[x.item()] = (x.exp() + 1.0).log()\n        return _OUT[x.item()]\n",
                 "class Softplus(": "_OUT = {}\n\n\nclass Softplus("},
          names=("Softplus.apply(b)", "is still y1", "kept between calls")),
]

# Clip.backward keeps whether x is inside the interval by id(x): a new leaf at a freed leaf's id,
# inside where the freed one was outside, gets the freed one's answer; the probe puts it there, so
# the public test tells it on every run, as state kept between calls, not as another derivative.
CASES += [
    Wrong("clip_inside_cached_by_id",
          fails={CLIP: "Clip.backward (x a new leaf at the id of a freed leaf that Clip.apply(x, -1, 1).backward() ran on)"},
          edits={INSIDE: "        if id(x) not in _INSIDE:\n"
                         "            _INSIDE[id(x)] = ctx.low <= x.item() <= ctx.high\n"
                         "        inside = _INSIDE[id(x)]\n",
                 "class Clip(Function):": "_INSIDE = {}\n\n\nclass Clip(Function):"},
          names=("Clip.backward", "id of a freed leaf", "state kept between calls"),
          unsaid=("local derivative other than the statement's",)),
]

# Clip.forward keeps the bounds of its first call on the class and notes them on every ctx: the
# public test calls Clip again with another interval, against a fresh import where that call is the
# first, and tells state kept between calls, not only that a gradient differs.
CASES += [
    Wrong("clip_bounds_of_the_first_call_kept",
          fails={CLIP: "Clip.backward returned something else than the same call returns in a fresh import"},
          edits={"        ctx.low, ctx.high = low, high  # plain numbers: notes on ctx, nothing to free or check\n":
                 "        if not _FIRST:\n            _FIRST.extend([low, high])\n"
                 "        ctx.low, ctx.high = _FIRST\n",
                 "class Clip(Function):": "_FIRST: list = []\n\n\nclass Clip(Function):"},
          names=("Clip.backward", "state kept between calls")),
]

# Softplus.backward decorated with @once_differentiable (torch's spelling, micrograph's too): the
# decorator runs it with grad mode off, so create_graph=True finds no graph to differentiate; the
# feedback names the decorator, not a detach() or a number the body never took.
CASES += [
    Wrong("softplus_once_differentiable",
          fails={"Softplus's gradient is differentiable": "Softplus.backward is decorated with @once_differentiable"},
          edits={"    @staticmethod\n    def backward(ctx, grad: Value) -> Value:\n":
                 "    @staticmethod\n    @once_differentiable\n    def backward(ctx, grad: Value) -> Value:\n",
                 "from micrograph import Function, Value\n":
                 "from micrograph import Function, Value\nfrom micrograph.function import once_differentiable\n"},
          names=("@once_differentiable", "grad mode off", "create_graph=True"),
          unsaid=("x.detach()", "grad.item()")),
]

# Clip.backward returns None for x when ctx.needs_input_grad[0] is True (the test read the other
# way round): x.grad stays None, and the feedback says that backward returned None for an input
# that requires grad, not only that nothing was written.
CASES += [
    Wrong("clip_needs_input_grad_inverted",
          fails={CLIP: "since Clip.backward returned None as x's gradient"},
          edits={INSIDE: INSIDE + "        if ctx.needs_input_grad[0]:\n            return None, None, None\n"},
          names=("Clip.backward returned None", "needs_input_grad")),
]

# Softplus.forward keeps its result on x and returns it again for x: once a step changed x's number
# in place, apply returns the earlier number; the feedback tells apply's result as kept between
# calls, where the gradient, read from x again, is right.
CASES += [
    Wrong("softplus_result_kept_on_x",
          fails={SOFTPLUS: "Softplus.apply(x) (x a leaf whose number a step changed in place since an earlier"},
          edits={"        return (x.exp() + 1.0).log()\n":
                 "        if getattr(x, \"softplus\", None) is None:\n"
                 "            x.softplus = (x.exp() + 1.0).log()\n"
                 "        return x.softplus\n"},
          names=("Softplus.apply(x)", "a step changed", "state kept between calls")),
]

# Clip's bounds written into forward and backward ([-1, 1], the tests' usual interval) instead of the low and
# high given: told as bounds not used, not only as other numbers.
CASES += [
    Wrong("clip_bounds_written_in", fails={CLIP: "your Clip does not use the low and high it is given",
                                           BOUNDS: "your Clip does not use the low and high it is given"},
          edits={"        return Value(min(max(x.item(), low), high))\n": "        return Value(min(max(x.item(), -1.0), 1.0))\n",
                 INSIDE: "        inside = -1.0 <= x.item() <= 1.0\n"},
          names=("does not use the low and high it is given",)),
    # Softplus.forward clears the caller's x.grad: a gradient accumulated on x is lost
    Wrong("softplus_forward_clears_x_grad", names=("Softplus.apply(x) set x.grad to None",),
          fails={"the Functions inside a bigger graph": "Softplus.apply(x) set x.grad to None"},
          edits={"        return (x.exp() + 1.0).log()\n": "        x.grad = None\n        return (x.exp() + 1.0).log()\n"}),
    # Softplus.forward turns off the flag of the x it is given: no gradient reaches x, and backward did return one
    Wrong("softplus_forward_turns_off_requires_grad", names=("changed x.requires_grad",),
          fails={SOFTPLUS: "Softplus.forward (x < 0, x = 0, or x > 0) changed x.requires_grad"},
          unsaid=("state kept between calls", "returned None as x's gradient"),
          edits={"        return (x.exp() + 1.0).log()\n": "        x.requires_grad_(False)\n        return (x.exp() + 1.0).log()\n"}),
    # Clip.forward truncates a bound to an integer: x clipped to -0.5 gets 0
    Wrong("clip_int_bounds", names=("is a different number from the statement's",),
          fails={BOUNDS: "Clip.apply(x, low, high) (x < low or x > high) is a different number"},
          edits={"        return Value(min(max(x.item(), low), high))\n":
                 "        v = x.item()\n        if v < low:\n            return Value(int(low))\n"
                 "        if v > high:\n            return Value(int(high))\n        return Value(v)\n"}),
]

# Softplus.backward reads ctx.saved_tensors, and where that read is refused (freed, or changed in place) catches the
# error and goes on with a copy of x kept on ctx: told as the error caught, not as a backward that never read it.
CASES += [
    Wrong("saved_read_refused_and_caught", names=("caught an error that reading .saved_tensors", "went on"),
          fails={FREED: "caught an error", INPLACE: "caught an error"},
          unsaid=("never read ctx.saved_tensors", "saved_tensors()"),  # an attribute read, not a call of saved_tensors
          edits={"        ctx.save_for_backward(x)  # freed by backward, version-checked like any saved operand\n":
                 "        ctx.save_for_backward(x)  # freed by backward, version-checked like any saved operand\n"
                 "        ctx.kept = Value(x.item())\n",
                 "        (x,) = ctx.saved_tensors  # raises once a backward without retain_graph freed it\n":
                 "        try:\n            (x,) = ctx.saved_tensors\n        except RuntimeError:\n            x = ctx.kept\n"}),
]

# Clip's forward registers a hook on its input that doubles its gradient: a second apply on the same leaf adds
# another, so the first node's backward leaves another a.grad once it ran; told as the hooks, not as notes a
# later forward left for the first node's backward.
CASES += [
    Wrong("clip_registers_a_doubling_hook", names=("a hook your code registered on a",),
          fails={COMPOSED: "a hook your code registered on a ran in that pass"},
          unsaid=("what the later call's forward left",),
          edits={"        ctx.low, ctx.high = low, high  # plain numbers: notes on ctx, nothing to free or check\n":
                 "        ctx.low, ctx.high = low, high  # plain numbers: notes on ctx, nothing to free or check\n"
                 "        if x.requires_grad:\n            x.register_hook(lambda g: g + g)\n"}),
]

# Clip's backward multiplies by one module-level Value whose .data each call overwrites: the gradient it returns under
# create_graph=True holds that Value, so a later Clip backward changes its second derivative; told as state kept
# between calls.
CASES += [
    Wrong("clip_mask_a_shared_value", names=("state kept between calls", "another Clip backward ran between"),
          fails={"the Functions inside a bigger graph": "another Clip backward ran between the two grad calls"},
          edits={"        return grad * (1.0 if inside else 0.0), None, None  # low and high are numbers: None\n":
                 "        _MASK.data = Value(1.0 if inside else 0.0)\n        return grad * _MASK, None, None\n",
                 "class Clip(Function):\n": "_MASK = Value(0.0)\n\n\nclass Clip(Function):\n"}),
]

# Softplus.backward detaches its own result in place (`(grad * x.sigmoid()).detach_()`): the gradient has no
# graph back to x nor to grad, though it was computed from x itself; told as the result cut, not as a Value
# that does not reach x.
CASES += [
    Wrong("softplus_result_detached_in_place",
          fails={SECOND: "in no graph at all, neither back to x nor back to the grad it receives"},
          passes=(SOFTPLUS, CLIP, FREED, INPLACE, COMPOSED),
          edits={SOFTPLUS_BACKWARD: "        return (grad * x.sigmoid()).detach_()\n"},
          names=("grad(grad(Softplus.apply(x), x, create_graph=True), x)", "detach_()"),
          unsaid=("computed from a Value that does not reach x",)),
]

# Backwards by hand: Clip's slope as a central difference of numbers (a half at either bound), and Softplus's
# derivative from a number forward noted on ctx (1 - exp(-softplus(x))), which never reads ctx.saved_tensors.
CASES += [
    Wrong("clip_central_difference", fails={CLIP: "x.grad through Clip.backward (x = low or x = high)"},
          edits={"        (x,) = ctx.saved_tensors\n" + INSIDE + "        return grad * (1.0 if inside else 0.0), None, None"
                 "  # low and high are numbers: None\n":
                 "        (x,) = ctx.saved_tensors\n        f = lambda t: min(max(t, ctx.low), ctx.high)\n"
                 "        slope = (f(x.item() + 1e-6) - f(x.item() - 1e-6)) / 2e-6\n        return grad * slope, None, None\n"},
          names=("x.grad through Clip.backward (x = low or x = high)", "local derivative other than the statement's")),
    Wrong("softplus_derivative_from_a_noted_number", fails={FREED: "Softplus.backward never read ctx.saved_tensors"},
          edits={MATH: "import math\n\n" + MATH,
                 "        ctx.save_for_backward(x)  # freed by backward, version-checked like any saved operand\n"
                 "        return (x.exp() + 1.0).log()\n":
                 "        ctx.save_for_backward(x)\n        out = (x.exp() + 1.0).log()\n        ctx.out = out.item()\n"
                 "        return out\n",
                 "        (x,) = ctx.saved_tensors  # raises once a backward without retain_graph freed it\n" + SOFTPLUS_BACKWARD:
                 "        return grad * (1.0 - math.exp(-ctx.out))\n"},
          names=("Softplus.backward never read ctx.saved_tensors", "grad(grad(Softplus.apply(x), x, create_graph=True), x)")),
]

# backward changing the gradient it is handed in place (grad.mul_(...), then grad returned): PyTorch hands an
# addition's two inputs one gradient object, so the change reaches the other branch; the engine's plain passes
# hand each backward a Value of its own, and the probe seeds the pass itself (create_graph=True) to see it.
CASES += [
    Wrong("clip_grad_zeroed_in_place", fails={"the Functions inside a bigger graph": "Clip.backward changed the gradient it was handed (grad) in place"},
          edits={"        return grad * (1.0 if inside else 0.0), None, None  # low and high are numbers: None\n":
                 "        if not inside:\n            grad.mul_(0.0)\n        return grad, None, None\n"},
          names=("Clip.backward changed the gradient it was handed (grad) in place",)),
    Wrong("softplus_grad_mul_in_place", fails={"the Functions inside a bigger graph": "Softplus.backward changed the gradient it was handed (grad) in place"},
          edits={SOFTPLUS_BACKWARD: "        grad.mul_(x.sigmoid())\n        return grad\n"},
          names=("Softplus.backward changed the gradient it was handed (grad) in place",)),
]

# Clip decides inside / outside in forward (a note on ctx) and its backward still reads ctx.saved_tensors: nothing
# is refused that the statement's refuses, but an x moved through .data after forward (no version counted) is
# judged by the number it had then, where the statement's backward, as torch.clamp's, reads it when it runs.
CASES += [
    Wrong("clip_inside_noted_saved_read", fails={"the Functions inside a bigger graph": "follows what x was when forward ran"},
          passes=(CLIP, FREED, INPLACE, COMPOSED),
          edits={"        ctx.low, ctx.high = low, high  # plain numbers: notes on ctx, nothing to free or check\n":
                 "        ctx.inside = low <= x.item() <= high\n", INSIDE: "        inside = ctx.inside\n"},
          names=("Clip.backward passed the gradient on for an x moved through .data", "follows what x was when forward ran")),
]

# What forward saves assigned to ctx.saved_tensors, the name backward reads: torch's has a getter only, so the
# assignment raises in forward, and the error names it.
CASES += [
    Wrong("saved_tensors_assigned", fails={SOFTPLUS: "AttributeError at line"},
          edits={"        ctx.save_for_backward(x)  # freed by backward, version-checked like any saved operand\n":
                 "        ctx.saved_tensors = (x,)\n"},
          names=("in Softplus.forward", "attribute 'saved_tensors'", "is not writable")),
    # ctx.saved_values, a name torch never had: torch's AttributeError, told at its line in Softplus.backward
    Wrong("saved_values_read", fails={SOFTPLUS: "AttributeError at line", FREED: "AttributeError at line"},
          edits={"        (x,) = ctx.saved_tensors  # raises once a backward without retain_graph freed it\n":
                 "        (x,) = ctx.saved_values\n"},
          names=("in Softplus.backward", "'SoftplusBackward' object has no attribute 'saved_values'"), passes=(CLIP,)),
]

# Softplus.backward switching grad mode off with set_grad_enabled(False), not no_grad(): told as grad mode turned
# off under create_graph=True, with that spelling among those the sentence names.
CASES += [
    Wrong("softplus_backward_set_grad_disabled",
          fails={"Softplus's gradient is differentiable": "Softplus.backward turned grad mode off itself"},
          edits={"from micrograph import Function, Value\n": "import micrograph\nfrom micrograph import Function, Value\n",
                 "        return grad * x.sigmoid()\n": "        micrograph.set_grad_enabled(False)\n"
                                                        "        return grad * x.sigmoid()\n"},
          names=("set_grad_enabled(False)", "under create_graph=True")),
]
# forward registers a hook on its input that doubles the gradient (and stays there): told as the hook, never
# as a Softplus.backward whose result depends on state kept between calls (backward returns the same)
CASES += [Wrong("hook_doubling_input_in_forward", fails={SOFTPLUS: "a hook of yours ran in that backward pass"},
                edits={"        ctx.save_for_backward(x)  # freed": "        if x.requires_grad:\n"
                                                                  "            x.register_hook(lambda g: g * 2)\n"
                                                                  "        ctx.save_for_backward(x)  # freed"},
                names=("a hook of yours ran in that backward pass and chose its number", "left a hook on x"),
                unsaid=("depends on state kept between calls",)),
          # a hook in forward that only prints what it is handed: no mistake
          Correct("hook_printing_input_in_forward",
                  edits={"        ctx.save_for_backward(x)  # freed": "        if x.requires_grad:\n"
                                                                    "            x.register_hook(print)\n"
                                                                    "        ctx.save_for_backward(x)  # freed"})]

# State kept between calls that is right: a pure helper of floats under functools.lru_cache (the same numbers give
# the same clipped number, whatever call asked first).
CASES += [
    Correct("clip_through_a_cached_pure_helper",
            edits={"from micrograph import Function, Value\n":
                   "import functools\n\nfrom micrograph import Function, Value\n\n\n@functools.lru_cache(maxsize=None)\n"
                   "def _clipped(v: float, low: float, high: float) -> float:\n    return min(max(v, low), high)\n",
                   "        return Value(min(max(x.item(), low), high))": "        return Value(_clipped(x.item(), low, high))"}),
]

# backward spelled vjp, the torch docs' other name for it: the same Functions, full marks; a Softplus defining both
# is refused by the engine when backward reaches its node, with torch's text naming both.
CASES += [
    Correct("backward_spelled_vjp",
            edits={"    def backward(ctx, grad: Value) -> Value:\n": "    def vjp(ctx, grad: Value) -> Value:\n",
                   "    def backward(ctx, grad: Value) -> tuple[Value, None, None]:\n":
                   "    def vjp(ctx, grad: Value) -> tuple[Value, None, None]:\n"}),
    Wrong("softplus_defines_vjp_and_backward", fails={SOFTPLUS: "Implementing both 'backward' and 'vjp'"},
          edits={SOFTPLUS_BACKWARD: SOFTPLUS_BACKWARD + "\n    @staticmethod\n    def vjp(ctx, grad: Value) -> Value:\n"
                                    "        (x,) = ctx.saved_tensors\n" + SOFTPLUS_BACKWARD},
          names=("Implementing both 'backward' and 'vjp'",), passes=(CLIP,)),
    # a mistake in a backward spelled vjp is told by that name: the class has no backward of its own
    Wrong("vjp_wrong_derivative", fails={SOFTPLUS: "x.grad through Softplus.vjp", CLIP: "x.grad through Clip.vjp"},
          edits={"    def backward(ctx, grad: Value) -> Value:\n": "    def vjp(ctx, grad: Value) -> Value:\n",
                 "    def backward(ctx, grad: Value) -> tuple[Value, None, None]:\n":
                 "    def vjp(ctx, grad: Value) -> tuple[Value, None, None]:\n",
                 SOFTPLUS_BACKWARD: "        return grad * x.exp() / (x.exp() + 2.0)\n",
                 INSIDE: "        inside = ctx.low < x.item() < ctx.high\n"},
          names=("Softplus.vjp", "Clip.vjp", "number differs"), unsaid=("Softplus.backward", "Clip.backward")),
    # Clip's backward spelled vjp deciding from a note forward left: the sentence names Clip.vjp
    Wrong("vjp_never_reads_saved", fails={FREED: "Clip.vjp never read ctx.saved_tensors"},
          edits={"    def backward(ctx, grad: Value) -> tuple[Value, None, None]:\n":
                 "    def vjp(ctx, grad: Value) -> tuple[Value, None, None]:\n",
                 "        ctx.low, ctx.high = low, high  # plain numbers: notes on ctx, nothing to free or check\n":
                 "        ctx.low, ctx.high = low, high\n        ctx.inside = low <= x.item() <= high\n",
                 "        (x,) = ctx.saved_tensors\n" + INSIDE: "        inside = ctx.inside\n"},
          names=("Clip.vjp never read ctx.saved_tensors",), unsaid=("Clip.backward",)),
]

# Clip's backward decides by comparing the saved x with the output forward noted on ctx: the gradient is right for
# every x forward saw, but an x moved into the interval through .data gets none, where the statement's backward,
# reading x when it runs, passes it; told as the decision following what x was when forward ran.  Softplus's
# derivative as exp(x) / (exp(x) + 1), a backward that returns a trailing None beyond its inputs (PyTorch drops it),
# and Clip's bounds saved as Values and read back with x: full marks.
CASES += [
    Wrong("clip_inside_by_noted_output", fails={"the Functions inside a bigger graph": "from outside the interval to inside it"},
          passes=(CLIP, BOUNDS, FREED, INPLACE, COMPOSED),
          edits={"        ctx.low, ctx.high = low, high  # plain numbers: notes on ctx, nothing to free or check\n"
                 "        return Value(min(max(x.item(), low), high))\n":
                 "        ctx.low, ctx.high = low, high\n        out = Value(min(max(x.item(), low), high))\n"
                 "        ctx.out = out.item()\n        return out\n",
                 INSIDE: "        inside = ctx.out == x.item()\n"},
          names=("Clip.backward passed nothing on for an x moved through .data", "follows what x was when forward ran")),
    Correct("softplus_derivative_as_exp_ratio", edits={SOFTPLUS_BACKWARD: "        return grad * x.exp() / (x.exp() + 1.0)\n"}),
    Correct("softplus_trailing_none", edits={SOFTPLUS_BACKWARD: "        return grad * x.sigmoid(), None\n"}),
    Correct("clip_bounds_saved_as_values",
            edits={"        ctx.save_for_backward(x)\n        ctx.low, ctx.high = low, high  # plain numbers: notes on ctx, nothing to free or check\n":
                   "        ctx.save_for_backward(x, Value(low), Value(high))\n",
                   "        (x,) = ctx.saved_tensors\n" + INSIDE: "        x, low, high = ctx.saved_tensors\n"
                                                              "        inside = low.item() <= x.item() <= high.item()\n"}),
]
