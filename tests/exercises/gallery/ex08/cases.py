"""ex08 gallery: plausible wrong answers and correct variants (format: gallery_case.py)."""

from gallery_case import Correct, Wrong

SHARES = "the detached copy shares w's data"
SHARES_HIDDEN = "w stays a leaf and keeps its gradient"
CUT = "w * w.detach() sends gradient through one factor"
CUT_HIDDEN = "same value, different graph"
DETACHED = "backward of a detached value raises"

DETACH = ("    w_detach = w.detach()  # the same number, but no requires_grad: in-place changes are allowed\n"
          "    w_detach.fill_(new)  # writes into the shared number, so w changes too\n")
BACKWARD = "    y.backward()\n"
Y = "    y = micrograph.mul(micrograph.add(x, w), micrograph.add(w, 1))\n"
CUT_LINE = "    y_cut = w_cut * w_cut_detached  # the second factor is a constant: dy/dw = w\n"
TRY = '''    try:
        z.backward()
    except RuntimeError as e:
        return e
    return None
'''

CASES = [
    Wrong("reloads_the_engine", names=("to reload a module (importlib.reload, line 39)", "Nothing needs reloading"),
          fails={SHARES: "a submission may not import importlib"},  # a habit of editing the engine in a notebook
          unsaid=("through it, code can reach",),
          edits={"import micrograph\n": "import importlib\nimport micrograph\nimportlib.reload(micrograph)\n"}),
    Wrong("copy_not_detach", fails={SHARES: "w_detach does not share its number",
                                    DETACHED: "the error returned"}),
    Wrong("no_cut", names=('backward wrote w_cut.grad, but its number differs', "y_cut's graph differs at its root"), fails={CUT: "differs", CUT_HIDDEN: "differs"},  # the detach forgotten
          edits={CUT_LINE: "    y_cut = w_cut * w_cut\n"}),
    Wrong("hardcoded", names=('w_detach is still w', "y_cut's constant input"), fails={SHARES: "w_detach", CUT: "is not a detach() of the leaf beside it"},
          edits={  # the documents' 999 for `new`, w itself for w_detach, a constant for the cut
              "    w_detach.fill_(new)  # writes into the shared number, so w changes too\n":
              "    w_detach.fill_(999.0)\n",
              '"w_detach": w_detach}': '"w_detach": w}',
              CUT_LINE: "    w_cut_detached = Value(1.0)\n    y_cut = w_cut * 1.0\n"}),
    Wrong("cut_by_new_value", names=('w_cut_detached does not share its number',), fails={CUT: "w_cut_detached does not share its number",
                                     CUT_HIDDEN: "w_cut_detached does not share its number"},
          edits={CUT_LINE: "    w_cut_detached = Value(w)\n    y_cut = w_cut * w_cut_detached\n"}),
    Wrong("cut_made_under_no_grad", names=('not a detach()', 'w_cut_detached does not share its number'), fails={CUT: "w_cut_detached does not share its number"},
          edits={"    w_cut_detached = w_cut.detach()  # shares w_cut's number, but no graph leads back to w_cut\n":
                 "    with micrograph.no_grad():\n        w_cut_detached = w_cut * 1\n"}),
    Wrong("data_not_detach", names=('w_detach does not share its version counter',), fails={SHARES: "w_detach does not share its version counter"},
          edits={DETACH: "    w_detach = w.data\n    w_detach.fill_(new)\n"}),
    Wrong("no_grad_instead_of_detach", names=('changed w itself in place', 'never wrote into w_detach'),
          fails={SHARES: "changed w itself in place and never wrote into w_detach"},
          edits={DETACH: "    with micrograph.no_grad():\n        w.fill_(new)\n"
                         "    w_detach = w.detach()\n"}),
    Wrong("new_leaf_instead_of_change", names=('w_detach does not share its number',), fails={SHARES: "w_detach does not share its number"},
          edits={DETACH: "    w_detach = Value(new)\n"}),
    Wrong("change_before_backward", names=('y was computed from w after your code changed w',),
          fails={SHARES: "y was computed from w after your code changed w"},
          edits={DETACH: "", Y: "    w_detach = w.detach()\n    w_detach.fill_(new)\n" + Y}),
    Wrong("cut_grad_by_hand", names=('w_cut.grad holds a value that backward did not write',), fails={CUT: "w_cut.grad holds a value that backward did not write"},
          edits={"    y_cut.backward()\n": "    w_cut.grad = w_cut.detach()\n"}),
    Wrong("cut_under_no_grad", names=('your code raised RuntimeError', 'in detach_cuts_graph'), fails={CUT: "RuntimeError"},
          edits={CUT_LINE: "    with micrograph.no_grad():\n        y_cut = w_cut * w_cut\n"}),
    Wrong("error_by_hand", names=('the error returned was made by hand',), fails={DETACHED: "made by hand"},
          edits={TRY: "    return RuntimeError(\"element 0 of tensors does not require grad and "
                      "does not have a grad_fn\")\n"}),
    Wrong("cut_by_float_detach_returned", names=("y_cut's constant input", 'is not a detach()'),  # w_cut.detach() returned, but a float in the product
          fails={CUT: "y_cut's constant input (the one no gradient flows to) is not a detach()", CUT_HIDDEN: "version counter"},
          edits={CUT_LINE: "    y_cut = w_cut * w\n"}),
    Wrong("cut_by_new_value_detach_returned", names=("y_cut's constant input", 'is not a detach()'),  # ... or a new Value of the same number
          fails={CUT: "y_cut's constant input (the one no gradient flows to) is not a detach()"},
          edits={CUT_LINE: "    y_cut = Value(w) * w_cut\n"}),
    # a copy slip in the returned dict, the cut itself right: the detach is judged against the
    # leaf y_cut multiplied, so only the returned w_cut is told, and first
    Wrong("returns_w_full_as_w_cut", names=("The Value returned as w_cut is the very one returned as w_full",),
          unsaid=("is not a detach() of the leaf beside it", "w_cut_detached does not share", "w_cut is still w_full"),
          fails={CUT: "The Value returned as w_cut is the very one returned as w_full",
                 CUT_HIDDEN: "The Value returned as w_cut is the very one returned as w_full"},
          edits={'"w_cut": w_cut, "y_cut"': '"w_cut": w_full, "y_cut"'}),
    Correct("copy_and_one_backward", edits={
        "    w_detach.fill_(new)  # writes into the shared number, so w changes too\n":
        "    w_detach.copy_(Value(new))\n",
        CUT_LINE: "    y_cut = w_cut_detached * w_cut\n",
        "    y_full.backward()\n    y_cut.backward()\n": "    micrograph.backward([y_full, y_cut])\n"}),
    Correct("other_names"),
    Correct("hook_returning_the_same_number", edits={  # a new Value, the very number: nothing chosen
        "    y_cut.backward()\n": "    y_cut.register_hook(lambda g: g * 1)\n    y_cut.backward()\n"}),
    Correct("second_detach_in_product",  # a detach() of its own in the product: the same cut
            edits={CUT_LINE: "    y_cut = w_cut.detach() * w_cut\n"}),
    Wrong("detached_as_new_value", names=('backward_of_detached never called detach()',),  # no detach(): a new Value of the number fails backward the same way
          fails={DETACHED: "never called detach() or detach_() on a Value that requires grad"},
          edits={"    z = (w * 2).detach()  # a leaf that does not require grad: no graph behind it\n":
                 "    z = Value((w * 2).item())\n"}),
    Correct("detach_before_product",  # w.detach() * 2 has no graph either
            edits={"    z = (w * 2).detach()  # a leaf that does not require grad: no graph behind it\n":
                   "    z = w.detach() * 2\n"}),
]

# Other spellings of the same behaviour, and mistakes of other kinds.
CASES += [
    Correct("detach_in_place",  # z.detach_() cuts z itself: the same Value without a graph
            edits={"    z = (w * 2).detach()  # a leaf that does not require grad: no graph behind it\n":
                   "    z = w * 2\n    z.detach_()\n"}),
    Correct("documents_data_fill",  # the documents write through w_detach.data
            edits={"    w_detach.fill_(new)  # writes into the shared number, so w changes too\n":
                   "    w_detach.data.fill_(new)\n"}),
    Wrong("detach_kept_in_a_global",  # one detached factor for every call: the first w_cut's
          fails={"same value, different graph": "w_cut_detached does not share its number"},
          edits={"    w_cut_detached = w_cut.detach()  # shares w_cut's number, but no graph leads back to w_cut\n":
                 "    global _CUT\n    _CUT = _CUT if _CUT is not None else w_cut.detach()\n"
                 "    w_cut_detached = _CUT\n",
                 "def detach_cuts_graph(": "_CUT = None\n\n\ndef detach_cuts_graph("},
          names=("w_cut_detached", "does not share")),
]
CASES += [
    Wrong("detach_rebound",  # w_detach = w_detach + ...: a new Value, w never changes
          fails={SHARES: "w_detach does not share its number"},
          edits={"    w_detach.fill_(new)  # writes into the shared number, so w changes too\n":
                 "    w_detach = w_detach + (new - w_detach.item())\n"},
          names=("w_detach does not share its number", "w still holds the number it came with")),
]


# Plausible mistakes of more kinds, each graded as a student reads it: state kept between calls
# (a default argument, a module-level or class-level store), generic list and generator bugs,
# off-by-one, a wrong operand or flag; and correct answers written another way.
CASES += [
    Wrong('full_also_cut', fails={'w * w.detach() sends gradient through one factor': "y_full's graph differs"},
          edits={'    y_full = w_full * w_full  # both factors lead back to w_full: dy/dw = 2w\n': '    y_full = w_full * w_full.detach()\n'},
          names=('y_full',)),
    Wrong('both_factors_cut', fails={'w * w.detach() sends gradient through one factor': 'RuntimeError'},
          edits={'    y_cut = w_cut * w_cut_detached  # the second factor is a constant: dy/dw = w\n': '    y_cut = w_cut_detached * w_cut.detach()\n'},
          names=('detach_cuts_graph', 'RuntimeError')),
    Wrong('requires_grad_again', fails={'backward of a detached value raises': 'the error returned is None'},
          edits={'    z = (w * 2).detach()  # a leaf that does not require grad: no graph behind it\n': '    z = (w * 2).detach().requires_grad_()\n'},
          names=('the error returned', 'backward_of_detached started a backward pass')),
    Wrong('error_args', fails={'backward of a detached value raises': 'is of type tuple'},
          edits={'    except RuntimeError as e:\n        return e\n    return None': '    except RuntimeError as e:\n        return e.args\n    return None'},
          names=('the error returned', 'tuple')),
    Wrong('detach_in_place_on_leaf', fails={'w * w.detach() sends gradient through one factor': 'does not share its number'},
          edits={"    w_cut_detached = w_cut.detach()  # shares w_cut's number, but no graph leads back to w_cut\n": '    w_cut_detached = Value(w, requires_grad=True).detach_()\n'},
          names=('w_cut_detached', 'does not share')),
    Correct('cut_backward_first', edits={'    y_full.backward()\n    y_cut.backward()\n': '    y_cut.backward()\n    y_full.backward()\n'}),
    Correct('detach_then_double', edits={'    z = (w * 2).detach()  # a leaf that does not require grad: no graph behind it\n': '    z = w.detach() * 2\n'}),
]

# More answers read as a student: y detached instead of w, both factors of the cut detached,
# a backward that runs before the detach, a detached value made to require grad again; and the
# fill made before backward (correct: the product saved x + w and w + 1, not w, so the pass
# and w's final number are the same).
CASES += [
    Wrong('detach_of_y', fails={"the detached copy shares w's data": 'w_detach is a detach() of y'},
          edits={'    w_detach = w.detach()  # the same number, but no requires_grad: in-place changes are allowed\n    w_detach.fill_(new)': '    w_detach = y.detach()\n    w_detach.fill_(new)'},
          names=('w_detach is a detach() of y', 'y was changed in place')),
    Wrong('both_factors_detached', fails={},
          edits={'    y_cut = w_cut * w_cut_detached  # the second factor is a constant: dy/dw = w': '    y_cut = w_cut_detached * w_cut_detached'},
          names=('RuntimeError', 'detach_cuts_graph')),
    Wrong('detach_after_backward', fails={'backward of a detached value raises': 'backward_of_detached started a backward pass'},
          edits={'    z = (w * 2).detach()  # a leaf that does not require grad: no graph behind it\n    try:\n        z.backward()': '    z = w * 2\n    try:\n        z.backward()\n        z = z.detach()'},
          names=('the error returned is None', 'backward_of_detached started a backward pass')),
    Wrong('detach_then_requires_grad', fails={'backward of a detached value raises': 'backward_of_detached started a backward pass'},
          edits={'    z = (w * 2).detach()  # a leaf that does not require grad: no graph behind it\n': '    z = (w * 2).detach().requires_grad_()\n'},
          names=('the error returned is None', 'backward_of_detached started a backward pass')),
    # the write made before y.backward(): this graph saves no w, so every number is the statement's; the order is not
    Wrong('fill_before_backward', names=("detach_shares_data changed w in place before y.backward() ran",),
          fails={SHARES: "detach_shares_data changed w in place before y.backward() ran"}, edits={'    y.backward()\n    w_detach = w.detach()  # the same number, but no requires_grad: in-place changes are allowed\n    w_detach.fill_(new)  # writes into the shared number, so w changes too\n': '    w_detach = w.detach()\n    w_detach.fill_(new)\n    y.backward()\n'}),
]


# w changed through its own .data and detached afterwards: the same numbers, but the change never
# went through the detached copy.
CASES += [
    Wrong('changed_through_own_data',
          fails={"the detached copy shares w's data": "reached w's own .data and never wrote into w_detach"},
          edits={'    w_detach = w.detach()  # the same number, but no requires_grad: in-place changes are allowed\n'
                 '    w_detach.fill_(new)  # writes into the shared number, so w changes too\n':
                 '    w.data.fill_(new)\n    w_detach = w.detach()\n'},
          names=('detach_shares_data', "w's own .data", 'w_detach')),
]


# State kept between calls: one w_cut leaf made once and refilled through .data, and one
# module-level dict of results updated by every call.
CASES += [
    Wrong("cut_leaf_in_a_global",
          fails={"same value, different graph": "what a first call of detach_cuts_graph returned changed"},
          edits={"    w_cut = Value(w, requires_grad=True)\n":
                 "    _W_CUT.data.fill_(w)\n    _W_CUT.grad = None\n    w_cut = _W_CUT\n",
                 "def detach_cuts_graph(": "_W_CUT = Value(0.0, requires_grad=True)\n\n\ndef detach_cuts_graph("},
          names=("detach_cuts_graph", "called again")),
    Wrong("shared_result_dict",
          fails={"w stays a leaf and keeps its gradient": "what a first call of detach_shares_data returned changed"},
          edits={'    return {"w": w, "x": x, "y": y, "w_detach": w_detach}\n':
                 '    _RESULT.update(w=w, x=x, y=y, w_detach=w_detach)\n    return _RESULT\n',
                 "def detach_shares_data(": "_RESULT = {}\n\n\ndef detach_shares_data("},
          names=("detach_shares_data", "called again")),
]

# detach() called with its result dropped: z keeps its grad_fn, and backward runs through it.
CASES += [
    Wrong('detach_result_dropped', fails={"backward of a detached value raises": "ran backward on a Value that still has its grad_fn"},
          edits={'    z = (w * 2).detach()': '    z = w * 2\n    z.detach()'},
          names=('still has its grad_fn', 'detach() returns a new Value')),
]

# w_detach rebound to a new Value instead of written into: w keeps its number, nothing is shared.
CASES += [
    Wrong('detach_rebound_to_new', fails={"the detached copy shares w's data": "w_detach does not share its number"},
          edits={'    w_detach.fill_(new)': '    w_detach = Value(new)'},
          names=('w still holds the number it came with', 'not a detach() of it')),
]

# One leaf for both products: both backward passes add into its one .grad.
CASES += [
    Wrong('one_leaf_for_both', fails={"w * w.detach() sends gradient through one factor": "w_cut is still w_full"},
          edits={'    w_full = Value(w, requires_grad=True)\n    w_cut = Value(w, requires_grad=True)\n':
                 '    w_full = w_cut = Value(w, requires_grad=True)\n'},
          names=('w_cut is still w_full',)),
]

# State kept between calls, seen by the public test too: both leaves kept per number in a
# module-level dict, so a repeated number gets leaves whose .grad an earlier call wrote.
CASES += [
    Wrong("leaves_kept_per_number",
          fails={CUT: "detach_cuts_graph, called again with the inputs of an earlier call"},
          edits={"    w_full = Value(w, requires_grad=True)\n    w_cut = Value(w, requires_grad=True)\n":
                 "    w_full, w_cut = _LEAVES.setdefault(w, (Value(w, requires_grad=True), Value(w, requires_grad=True)))\n",
                 "def detach_cuts_graph(": "_LEAVES = {}\n\n\ndef detach_cuts_graph("},
          names=("detach_cuts_graph", "state kept between calls")),
]

# detach_() where detach() is asked: named by what it did to the leaf.
CASES += [
    Wrong("cut_detached_in_place", fails={CUT: "detach_cuts_graph called w_cut.detach_()"},
          edits={"    w_cut_detached = w_cut.detach()  # shares w_cut's number, but no graph leads back to w_cut\n":
                 "    w_cut_detached = w_cut.detach_()\n"},
          names=("w_cut.detach_()", "detaches the leaf w_cut itself")),
]

# backward's error caught and printed, None returned: the engine raised into the code.
CASES += [
    Wrong("detached_error_printed",
          fails={"backward of a detached value raises": "but the engine's backward() raised an error when your code called it"},
          edits={"    except RuntimeError as e:\n        return e\n    return None":
                 "    except RuntimeError as e:\n        print(e)\n    return None"},
          names=("the error returned is None", "caught that error and did not return it")),
]

# The fill of w_detach needs no grad mode either way: w_detach requires no grad.
CASES += [
    Correct("fill_under_no_grad",
            edits={"    w_detach.fill_(new)  # writes into the shared number, so w changes too\n":
                   "    with micrograph.no_grad():\n        w_detach.fill_(new)\n"}),
]

# the detached copy made to require grad again: y_cut's op takes a leaf where the statement's takes
# an input that requires no grad (here a Value; the graph does not tell a Value from a number)
CASES += [
    Wrong("detached_requires_grad_again",
          fails={"w * w.detach() sends gradient through one factor":
                 "the MulBackward0 that made y_cut takes a Value your code made requiring grad, where the statement's "
                 "takes an input that requires no grad (a number, or a Value that does not require grad)"},
          edits={"    w_cut_detached = w_cut.detach()  #": "    w_cut_detached = w_cut.detach().requires_grad_()  #"},
          names=("w_cut_detached has requires_grad=True", "MulBackward0 that made y_cut")),
]

# The fill skipped when new equals w's number: w ends with the same number, but nothing was
# written through w_detach; the documents' spellings of that write, under no_grad or not, hold.
CASES += [
    Wrong('fill_skipped_when_equal', fails={SHARES_HIDDEN: "was given a new equal to w's number and wrote nothing into w_detach"},
          edits={'    w_detach.fill_(new)  # writes into the shared number, so w changes too\n':
                 '    if new != w_detach.item():\n        w_detach.fill_(new)\n'},
          names=('detach_shares_data', "new equal to w's number", 'wrote nothing into w_detach')),
    Correct('documents_data_fill_under_no_grad',
            edits={'    w_detach.fill_(new)  # writes into the shared number, so w changes too\n':
                   '    with micrograph.no_grad():\n        w_detach.data.fill_(new)\n'}),
    Correct('filled_through_a_second_detach',
            edits={'    w_detach = w.detach()  # the same number, but no requires_grad: in-place changes are allowed\n'
                   '    w_detach.fill_(new)  # writes into the shared number, so w changes too\n':
                   '    w.detach().copy_(Value(new))\n    w_detach = w.detach()\n'}),
]

# backward_of_detached's leaf made without requires_grad: (w * 2).detach() cuts no graph, and the
# same error comes back; the feedback names the leaf's flag, not a Value "made another way".
CASES += [
    Wrong('leaf_without_grad', fails={DETACHED: "detached a Value computed from a leaf that does not require grad"},
          edits={'    w = Value(w, requires_grad=True)\n    z = (w * 2).detach()': '    w = Value(w)\n    z = (w * 2).detach()'},
          names=('backward_of_detached', 'leaf that does not require grad', 'no graph to cut'),
          unsaid=('made another way',)),
]

# w_detach = w.detach(), then w_detach.data assigned a new Value: the detach() is there, but the
# assignment gave w_detach a number of its own; the feedback names the .data assignment.
CASES += [
    Wrong('detached_data_assigned', fails={SHARES: "a .data assignment gave one of them a number of its own"},
          edits={'    w_detach.fill_(new)  # writes into the shared number, so w changes too\n':
                 '    w_detach.data = Value(new)\n'},
          names=('w_detach', 'version counter', '.data assignment'), unsaid=('not a detach() of it',)),
]

# new added to w_detach where it is to be set to new: w holds its own number plus new.
CASES += [
    Wrong('add_not_fill', fails={SHARES: "your code added new to w_detach", SHARES_HIDDEN: "added new to w_detach"},
          edits={'    w_detach.fill_(new)  # writes into the shared number, so w changes too\n': '    w_detach.add_(new)\n'},
          names=('plus new', 'added new to w_detach')),
]

# The first call's error kept and returned by every later call, which makes nothing: no sentence
# says how a Value without a graph was made.
CASES += [
    Wrong("error_kept_from_the_first_call", edits={
        "    w = Value(w, requires_grad=True)\n    z = (w * 2).detach()":
        "    if KEPT:\n        return KEPT[0]\n    w = Value(w, requires_grad=True)\n    z = (w * 2).detach()",
        "        return e\n    return None": "        KEPT.append(e)\n        return e\n    return None",
        "def backward_of_detached(": "KEPT: list = []\n\n\ndef backward_of_detached("},
          fails={"backward of a detached value raises": "an error kept from before"},
          names=("an earlier call",), unsaid=("made another way",)),
]

# The fill left out: no call writes anything. The row holding the call given a new equal to w's
# number says what the other calls show (w left as it came), not that call's sentence beside it,
# which would read as contradicting it.
CASES += [
    Wrong('fill_left_out', fails={SHARES_HIDDEN: "w still holds the number it came with"},
          edits={'    w_detach.fill_(new)  # writes into the shared number, so w changes too\n': ''},
          names=('w still holds the number it came with',), unsaid=("new equal to w's number",)),
]

# The leaf made under another name and the float parameter returned as w: the feedback says w is that
# float, handed back, and derives nothing through it (its .grad, a graph missing it, w_detach not sharing it).
CASES += [
    Wrong('w_returned_as_float', fails={SHARES: "w is the very float your function was given"},
          edits={'    w = Value(w, requires_grad=True)\n    x = Value(x, requires_grad=True)\n'
                 '    y = micrograph.mul(micrograph.add(x, w), micrograph.add(w, 1))\n    y.backward()\n'
                 '    w_detach = w.detach()':
                 '    w_leaf = Value(w, requires_grad=True)\n    x = Value(x, requires_grad=True)\n'
                 '    y = micrograph.mul(micrograph.add(x, w_leaf), micrograph.add(w_leaf, 1))\n    y.backward()\n'
                 '    w_detach = w_leaf.detach()'},
          names=("w is the very float your function was given",), unsaid=("w.grad", "never reaches", "must share")),
]

# x returned under w's name too (a dict slip): one Value under two names, told as such; nothing of
# w_detach or y's graph, which are the statement's, is told as a mistake.
CASES += [
    Wrong('x_returned_as_w', fails={SHARES: "one Value under two names"},
          edits={'    return {"w": w, "x": x, "y": y, "w_detach": w_detach}': '    return {"w": x, "x": x, "y": y, "w_detach": w_detach}'},
          names=("one Value under two names",), unsaid=("does not share its number", "as a Value an operation made")),
]

# w_detach moved to new by an addition (add_(new - w_detach.item())): exact on most inputs, but not
# where w is far from new and the sum rounds; the statement sets w_detach to new.
CASES += [
    Wrong('set_by_addition', fails={SHARES_HIDDEN: "w holds a different number from the statement's"},
          edits={'    w_detach.fill_(new)  # writes into the shared number, so w changes too\n':
                 '    w_detach.add_(new - w_detach.item())\n'},
          names=("w holds a different number",)),
]

# y's first factor a product (x * w for x + w): the node told (and bordered in the diagram) is that
# product, not b's addition, which is the statement's and which a pairing by op alone took for a.
CASES += [
    Wrong('first_factor_product', fails={SHARES: "y's graph differs at a node below its root: your graph has MulBackward0 there"},
          edits={Y: "    y = micrograph.mul(micrograph.mul(x, w), micrograph.add(w, 1))\n"},
          names=("your graph has MulBackward0 there",), unsaid=("AddBackward0 fewer times",)),
]

# The product detached, not its second factor: y_cut is a detach(), which no graph records, and its
# backward raises; the feedback says which Value backward was called on and why it has no graph.
CASES += [
    Wrong('cut_detaches_product', fails={CUT: "detach_cuts_graph called backward on y_cut, which is what detach() returned"},
          edits={CUT_LINE: "    y_cut = (w_cut * w_cut).detach()\n"},
          names=("called backward on y_cut", "detach()")),
]

# detach() spelled as the class's function, given the Value: the same call, made by detach.
CASES += [
    Correct("detach_through_the_class",
            edits={"    w_detach = w.detach()": "    w_detach = Value.detach(w)",
                   "    w_cut_detached = w_cut.detach()": "    w_cut_detached = Value.detach(w_cut)",
                   "    z = (w * 2).detach()": "    z = micrograph.Value.detach(w * 2)"}),
]

# backward_of_detached's error kept in a dict by the float w: the hidden test's second call on an earlier
# w makes nothing and returns that error again.  A dict keyed by the leaf made instead (a Value hashes by
# its id), looked up by the float, is never found: each call makes its own error, which is right.
CASES += [
    Wrong("error_kept_per_w", fails={"backward of a detached value on other inputs": "the very object that call returned"},
          edits={"    w = Value(w, requires_grad=True)\n    z = (w * 2).detach()":
                 "    if w in KEPT:\n        return KEPT[w]\n    key, w = w, Value(w, requires_grad=True)\n    z = (w * 2).detach()",
                 "        return e\n    return None": "        KEPT[key] = e\n        return e\n    return None",
                 "def backward_of_detached(": "KEPT: dict = {}\n\n\ndef backward_of_detached("},
          names=("backward_of_detached", "kept between calls")),
    Correct("errors_by_leaf_never_looked_up"),
]

# z detached as asked, but the error returned is that of a backward on a new Value made from z's
# number: the same type and text, from another Value.
CASES += [
    Wrong('error_of_a_new_value', fails={DETACHED: "neither detach() returned nor was computed from one"},
          edits={'        z.backward()\n': '        Value(z.item()).backward()\n'},
          names=('backward_of_detached', 'a Value that neither detach() returned')),
]

# new written through w_detach cut to an int: w holds a whole number made from new, told so.
# y_cut returned as the very Value y_full is: one Value under two names, not a product of other factors.
CASES += [
    Wrong("fill_int_of_new", fails={SHARES: "w holds new cut to a whole number"},
          edits={"    w_detach.fill_(new)": "    w_detach.fill_(int(new))"},
          names=("w holds new cut to a whole number",)),
    Wrong("y_cut_is_y_full", fails={CUT: "The Value returned as y_cut is the very one returned as y_full"},
          edits={'    return {"w_full": w_full, "y_full": y_full, "w_cut": w_cut, "y_cut": y_cut,':
                 '    y_cut = y_full\n    return {"w_full": w_full, "y_full": y_full, "w_cut": w_cut, "y_cut": y_cut,'},
          names=("y_cut is the very one returned as y_full",), unsaid=("a Value your code made requiring grad",)),
    Correct("ordered_dicts", edits={"from micrograph import Value\n": "from collections import OrderedDict\n\nfrom micrograph import Value\n",
            'return {"w": w, "x": x, "y": y, "w_detach": w_detach}': 'return OrderedDict(w=w, x=x, y=y, w_detach=w_detach)',
            '    return {"w_full": w_full, "y_full": y_full, "w_cut": w_cut, "y_cut": y_cut,\n            "w_cut_detached": w_cut_detached}':
            '    return OrderedDict(w_full=w_full, y_full=y_full, w_cut=w_cut, y_cut=y_cut, w_cut_detached=w_cut_detached)'}),
    # a key typo returning w_cut as w_full too: two leaves made, one Value under two names
    Wrong("w_full_key_holds_w_cut",
          fails={"w * w.detach() sends gradient through one factor": "The Value returned as w_cut is the very one returned as w_full"},
          edits={'    return {"w_full": w_full, "y_full": y_full,': '    return {"w_full": w_cut, "y_full": y_full,'},
          names=("The Value returned as w_cut is the very one returned as w_full",), unsaid=("is still w_full, not a new object",)),
]

# every backward written as backward(retain_graph=True), the documents' habit: the statement never says
# whether the graph is freed, so what y's nodes still hold after the pass is not graded
CASES += [
    Correct("retain_graph_kept", edits={"    y.backward()\n    w_detach": "    y.backward(retain_graph=True)\n    w_detach",
                                        "    y_full.backward()\n    y_cut.backward()\n":
                                        "    y_full.backward(retain_graph=True)\n    y_cut.backward(retain_graph=True)\n"}),
]

# the error caught into a name declared before the try and returned after it: Python unbinds an except's name when
# the block ends, so the return raises UnboundLocalError at that line
CASES += [
    Wrong("error_returned_after_except", names=("UnboundLocalError", "in backward_of_detached", "`except RuntimeError as err:`",
                                                "Python deletes the name a handler binds when its except block ends"),
          fails={DETACHED: "UnboundLocalError at line"},
          edits={TRY: "    err = None\n    try:\n        z.backward()\n    except RuntimeError as err:\n"
                      "        print(\"error:\", err)\n    return err\n"}),
]

# State kept between calls in detach_shares_data: x kept in a global and refilled through .data (each backward adds
# to the x.grad earlier calls left), one module-level Value reused as w_detach with its .data assigned w's (it
# shares w's number, not its version counter), and the first call's detach() kept in a global (later calls write
# into the first call's w): each told by the identity of what it returned, not only by a number that differs.
W_DETACH = "    w_detach = w.detach()  # the same number, but no requires_grad: in-place changes are allowed\n"
CASES += [
    Wrong("x_kept_in_a_global",
          fails={SHARES: "The x detach_shares_data returned is still the x an earlier call of detach_shares_data returned"},
          edits={"    x = Value(x, requires_grad=True)\n" + Y: "    _X.data.fill_(x)\n    x = _X\n" + Y,
                 "def detach_shares_data(": "_X = Value(0.0, requires_grad=True)\n\n\ndef detach_shares_data("},
          names=("detach_shares_data", "kept between calls and returned again"), unsaid=("x.grad, but its number differs",)),
    Wrong("shared_value_data_assigned", fails={SHARES: "w_detach does not share its version counter"},
          edits={W_DETACH: "    _DETACHED.data = w.data\n    w_detach = _DETACHED\n",
                 "def detach_shares_data(": "_DETACHED = Value(0.0)\n\n\ndef detach_shares_data("},
          names=(".data shares the number only", "the w_detach an earlier call of detach_shares_data returned")),
    Wrong("detach_kept_from_the_first_call",
          fails={SHARES: "The w_detach detach_shares_data returned is still the w_detach an earlier call"},
          edits={W_DETACH: "    global _W_DETACH\n    if _W_DETACH is None:\n        _W_DETACH = w.detach()\n"
                           "    w_detach = _W_DETACH\n",
                 "def detach_shares_data(": "_W_DETACH = None\n\n\ndef detach_shares_data("},
          names=("w_detach does not share its number", "kept between calls and returned again")),
    # the cut made by a hook halving w_cut's gradient: the number of a detach() on this graph, but no detach
    Wrong("cut_by_halving_hook", fails={CUT: "a hook of yours ran in that backward pass and chose its number"},
          edits={"    w_cut_detached = w_cut.detach()  # shares w_cut's number, but no graph leads back to w_cut\n" + CUT_LINE:
                 "    w_cut.register_hook(lambda g: g / 2)\n    w_cut_detached = w_cut\n    y_cut = w_cut * w_cut\n"},
          names=("a hook of yours", "w_cut_detached is still w_cut")),
    # z computed under no_grad in place of a detach(): the same error, but detach() never called
    Wrong("no_grad_for_detach", fails={DETACHED: "backward_of_detached never called detach() or detach_()"},
          edits={"    z = (w * 2).detach()  # a leaf that does not require grad: no graph behind it\n":
                 "    with micrograph.no_grad():\n        z = w * 2\n"},
          names=("never called detach() or detach_()",)),
    # w_cut's .grad zeroed through .data between the two backward passes, a training loop's habit: correct
    Correct("grad_data_zeroed_between", edits={"    y_full.backward()\n    y_cut.backward()\n":
            "    y_full.backward()\n    if w_cut.grad is not None:\n        w_cut.grad.data.zero_()\n    y_cut.backward()\n"}),
]

# w_cut.detach() written as a statement, as if it cut w_cut in place, and w_cut itself returned as w_cut_detached:
# told as that very object, not by its flag (that object's), nor only by y_cut's graph.
CASES += [
    Wrong("detach_dropped_in_cut", fails={CUT: "w_cut_detached is still w_cut, not a new object"},
          unsaid=("w_cut_detached has requires_grad", "y_cut's graph differs", "w_cut.grad, but its number differs"),
          edits={"    w_cut_detached = w_cut.detach()  # shares w_cut's number, but no graph leads back to w_cut\n":
                 "    w_cut.detach()\n    w_cut_detached = w_cut\n"},
          names=("w_cut_detached is still w_cut",)),
]

# detach() called on the wrong Value: x's for w_detach, w_full's for the cut.  Each is a real detach(), of
# another Value returned; the feedback names that Value, not only "not a detach() of it".
CASES += [
    Wrong("detach_of_x", fails={SHARES: "w_detach is a detach() of x"},
          edits={"    w_detach = w.detach()  # the same number, but no requires_grad: in-place changes are allowed\n":
                 "    w_detach = x.detach()\n"},
          names=("w_detach is a detach() of x", "reaches x")),
    Wrong("cut_detached_from_full", fails={"w * w.detach() sends gradient through one factor":
                                           "w_cut_detached is a detach() of w_full"},
          edits={"    w_cut_detached = w_cut.detach()  # shares w_cut's number, but no graph leads back to w_cut\n":
                 "    w_cut_detached = w_full.detach()\n"},
          names=("w_cut_detached is a detach() of w_full",)),
    # the documents' w_detach.data.fill_(new), one loop over both backward passes; copy_ of a Value, the
    # product by micrograph.mul, the error kept in a name and returned after the try
    Correct("documents_fill_one_loop",
            edits={"    w_detach.fill_(new)  # writes into the shared number, so w changes too\n": "    w_detach.data.fill_(new)\n",
                   "    y_full.backward()\n    y_cut.backward()\n": "    for y in (y_full, y_cut):\n        y.backward()\n"}),
    Correct("copy_in_and_error_kept",
            edits={"    w_detach.fill_(new)  # writes into the shared number, so w changes too\n": "    w_detach.copy_(Value(new))\n",
                   "    z = (w * 2).detach()  # a leaf that does not require grad: no graph behind it\n    try:\n"
                   "        z.backward()\n    except RuntimeError as e:\n        return e\n    return None\n":
                   "    z = micrograph.mul(w, 2).detach()\n    error = None\n    try:\n        z.backward()\n"
                   "    except RuntimeError as caught:\n        error = caught\n    return error\n"}),
    # the products' numbers and gradients written by hand, no graph: no pass, .grad assigned
    Wrong("cut_without_the_engine", fails={"w * w.detach() sends gradient through one factor": "ran no backward pass"},
          edits={"    y_full = w_full * w_full  # both factors lead back to w_full: dy/dw = 2w\n"
                 "    w_cut_detached = w_cut.detach()  # shares w_cut's number, but no graph leads back to w_cut\n"
                 "    y_cut = w_cut * w_cut_detached  # the second factor is a constant: dy/dw = w\n"
                 "    y_full.backward()\n    y_cut.backward()\n":
                 "    y_full = Value(w * w)\n    w_cut_detached = Value(w)\n    y_cut = Value(w * w)\n"
                 "    w_full.grad = Value(2 * w)\n    w_cut.grad = Value(w)\n"},
          names=("detach_cuts_graph ran no backward pass", "assigned by hand")),
]

# w_cut_detached taken of the product y_cut (the cut itself made right): told as a detach() of y_cut.
CASES += [
    Wrong("cut_returned_as_detached_product", fails={"w * w.detach() sends gradient through one factor":
                                                     "w_cut_detached is a detach() of y_cut"},
          edits={"    w_cut_detached = w_cut.detach()  # shares w_cut's number, but no graph leads back to w_cut\n"
                 "    y_cut = w_cut * w_cut_detached  # the second factor is a constant: dy/dw = w\n":
                 "    y_cut = w_cut * w_cut.detach()\n    w_cut_detached = y_cut.detach()\n"},
          names=("w_cut_detached is a detach() of y_cut",)),
]

# The first error kept in a list and returned by every later call, each of which still calls z.backward(): the
# error returned went through the first call's frames, not this call's, so it is told as kept from before.
CASES += [
    Wrong("error_kept_while_backward_called", fails={"backward of a detached value raises": "an error kept from before"},
          edits={"    try:\n        z.backward()\n    except RuntimeError as e:\n        return e\n    return None\n":
                 "    try:\n        z.backward()\n    except RuntimeError as e:\n        KEPT.append(e)\n        return KEPT[0]\n"
                 "    return None\n",
                 "def backward_of_detached(": "KEPT: list = []\n\n\ndef backward_of_detached("},
          names=("raised during an earlier call",)),
]

# w_detach filled, then its number copied back into w under no_grad, as if detach() copied: every number is
# the statement's, but w was written by copy_ on itself, which hides that the fill alone changes w.
CASES += [
    Wrong("copied_back_into_w", fails={SHARES: "and also called copy_ on w itself"},
          edits={"    w_detach.fill_(new)  # writes into the shared number, so w changes too\n":
                 "    w_detach.fill_(new)\n    with micrograph.no_grad():\n        w.copy_(w_detach)\n"},
          names=("wrote into w_detach, which shares w's number", "called copy_ on w itself"),
          unsaid=("never wrote into w_detach",)),
]

# z cut from its graph by writing its attributes, as if they were plain fields: torch refuses both writes (grad_fn has
# a getter only; requires_grad of a non-leaf), so the student's own statement raises before backward is tried.
Z_DETACHED = "    z = (w * 2).detach()  # a leaf that does not require grad: no graph behind it\n"
CASES += [
    Wrong("grad_fn_set_to_none", fails={DETACHED: "AttributeError at line"},
          edits={Z_DETACHED: "    z = w * 2\n    z.grad_fn = None  # cut z off from the graph\n"},
          names=("in backward_of_detached", "attribute 'grad_fn'", "is not writable")),
    Wrong("requires_grad_set_false_on_a_result", fails={DETACHED: "RuntimeError at line"},
          edits={Z_DETACHED: "    z = w * 2\n    z.requires_grad = False\n"},
          names=("in backward_of_detached", "you can only change requires_grad flags of leaf variables")),
]

# y_cut made from w_full (a leaf of the same number) times w_cut.detach(): w_cut_detached is the
# detach() asked; the slip is y_cut's leaf, told as that, not as w_cut_detached a new Value.
CASES += [
    Wrong("y_cut_from_w_full", fails={"w * w.detach() sends gradient through one factor": "y_cut's graph never reaches w_cut"},
          edits={"    y_cut = w_cut * w_cut_detached  #": "    y_cut = w_full * w_cut_detached  #"},
          names=("y_cut's graph never reaches w_cut",), unsaid=("w_cut_detached does not share its number",)),
]

# z computed from w.detach() and from w itself: the detach() cut one path, z keeps a graph to w;
# told as that, not as a detach() whose result was dropped.
CASES += [
    Wrong("detach_on_one_path", fails={DETACHED: "the detach() cut one path to w, not all"},
          edits={Z_DETACHED: "    z = w.detach() * w\n"},
          names=("backward_of_detached ran backward on a Value that still has its grad_fn", "cut one path"),
          unsaid=("the Value it detached is not the one backward ran on",)),
]
# y_full computed by a helper decorated with no_grad(): told as y_full computed from w_full with grad mode off,
# not by the engine's error alone
CASES += [Wrong("square_in_no_grad_helper",
                fails={"w * w.detach() sends gradient through one factor": "computed y_full from w_full"},
                edits={"def detach_cuts_graph(": "@micrograph.no_grad()\ndef _square(v: Value) -> Value:\n"
                                                 "    return v * v\n\n\ndef detach_cuts_graph(",
                       "    y_full = w_full * w_full": "    y_full = _square(w_full)"},
                names=("detach_cuts_graph computed y_full from w_full (which requires grad) inside _square",
                       "decorated to run with grad mode off"))]
# detach_shares_data computes y inside no_grad: told as y computed with grad mode off, not by the engine's error alone
CASES += [Wrong("shares_y_under_no_grad",
                fails={"the detached copy shares w's data": "detach_shares_data computed y from w"},
                edits={"    y = micrograph.mul(micrograph.add(x, w), micrograph.add(w, 1))\n    y.backward()":
                       "    with micrograph.no_grad():\n        y = micrograph.mul(micrograph.add(x, w), micrograph.add(w, 1))\n"
                       "    y.backward()"},
                names=("detach_shares_data computed y from w (which requires grad) while grad mode was off",))]

# Value(v) written for torch.tensor(t) where detach() belongs: a copy of the number (with torch's warning), sharing
# neither storage nor version counter; told as another Value than a detach() of it, in each of the three functions.
CASES += [
    Wrong("copy_constructed_for_detach", fails={SHARES: "w_detach does not share its number"},
          edits={"    w_detach = w.detach()  #": "    w_detach = Value(w)  #"},
          names=("w_detach does not share its number", "not a detach() of it"), passes=(CUT, DETACHED)),
    Wrong("copy_constructed_for_the_cut", fails={CUT: "is not a detach() of the leaf beside it"},
          edits={"    w_cut_detached = w_cut.detach()  #": "    w_cut_detached = Value(w_cut)  #"},
          names=("is not a detach() of the leaf beside it", "w_cut_detached does not share its number"), passes=(SHARES,)),
    Wrong("copy_constructed_before_backward", fails={DETACHED: "never called detach() or detach_()"},
          edits={"    z = (w * 2).detach()  #": "    z = Value(w * 2)  #"},
          names=("backward_of_detached never called detach() or detach_()", "made another way"), passes=(SHARES, CUT)),
]

# after the fill through w_detach, w's own .data written back in place (w.data.copy_(w_detach), w.data.fill_): the
# same numbers, but a write into w itself beside the one through w_detach, told with the method called on w.data
CASES += [
    Wrong("data_copied_back_after_fill", fails={SHARES: "also called copy_ on w.data"},
          edits={"    w_detach.fill_(new)  # writes into the shared number, so w changes too\n":
                 "    w_detach.fill_(new)  # writes into the shared number, so w changes too\n    w.data.copy_(w_detach)\n"},
          names=("detach_shares_data", "copy_", "w.data")),
    Wrong("data_filled_again_after_fill", fails={SHARES: "also called fill_ on w.data"},
          edits={"    w_detach.fill_(new)  # writes into the shared number, so w changes too\n":
                 "    w_detach.fill_(new)  # writes into the shared number, so w changes too\n"
                 "    w.data.fill_(w_detach.item())\n"},
          names=("detach_shares_data", "fill_", "w.data")),
    Correct("documents_data_fill_then_w_data_read",
            edits={"    w_detach.fill_(new)  # writes into the shared number, so w changes too\n":
                   "    w_detach.data.fill_(new)\n    assert w.data.item() == new\n"}),
]
