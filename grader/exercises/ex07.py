"""ex07 inplace: the leaf error, ``a = a + 1`` versus ``a += 1``, and the version counter.

Every probe calls the submission on inputs that are not in the exercise text, several per test.
``modify_saved_value`` gets several ``combine`` functions: some save ``a`` for backward (a
product, a quotient), some do not (a sum, a difference, a product by a constant).
"""

import micrograph
from micrograph import Value

from grader.spec import Exercise
from grader.spec.probe import caught, grad, grad_fn, num, value

EXERCISE = Exercise("ex07", "In-place operations and the version counter", module="ex07_inplace")

# y = combine(a, b) for which backward needs a's value (a product, a quotient) ...
SAVING = [micrograph.mul, lambda a, b: b / a, lambda a, b: a * a + b]
# ... and for which it does not (a sum, a difference, a product by a number).
NOT_SAVING = [micrograph.add, micrograph.sub, lambda a, b: a * 3 + b]



def _version(v: object) -> int | str:
    if not isinstance(v, Value):
        return f"not a Value: {type(v).__name__}"
    return int(v._version)


def _is(a: object, b: object) -> bool | str:
    """Whether two returned objects are the same Value (identity, never ``==``)."""
    if not (isinstance(a, Value) and isinstance(b, Value)):
        return "not Values"
    return a is b


@EXERCISE.test(
    "in-place on a leaf raises",
    points=2,
    public=True,
    feedback="Call w.add_(amount) on the leaf, catch the RuntimeError and return it as 'error'.",
    key_feedback={
        "error": "a leaf that requires grad cannot be changed in place: w.add_(amount) raises a "
        "RuntimeError; catch it and return it",
    },
)
def leaf_error_public(sub):
    runs = [sub.inplace_on_leaf(w, d) for w, d in [(1.25, 3.0), (-3.0, 0.25)]]
    return {"error": [caught(r["error"]) for r in runs]}


@EXERCISE.test(
    "the leaf is left unchanged",
    points=1,
    feedback="The refused in-place change happens before anything changes: w keeps its value, "
    "its version and stays a leaf that requires grad.",
)
def leaf_unchanged(sub):
    runs = [sub.inplace_on_leaf(w, d)["w"] for w, d in [(1.75, -1.0), (-0.5, 4.0), (6.0, 0.5)]]
    return [[value(w), _version(w)] for w in runs]


@EXERCISE.test(
    "a = a + 1 makes a new object",
    points=1,
    public=True,
    feedback="Return [a0, a1, a2]: the object a names at the start, after a = a + 1, after a += 1.",
    key_feedback={
        "same_object": "a = a + 1 builds a new Value and rebinds the name: a1 is not a0",
        "original": "a = a + 1 leaves the original object's value and version alone",
    },
)
def rebind_public(sub):
    runs = [sub.rebind_then_inplace(s) for s in (0.5, -4.0)]
    return {
        "same_object": [_is(r[1], r[0]) for r in runs],
        "original": [[num(r[0]), _version(r[0])] for r in runs],
    }


@EXERCISE.test(
    "a += 1 changes the same object",
    points=2,
    feedback="a += 1 is a.add_(1): it changes the object in place.",
    key_feedback={
        "same_object": "a += 1 keeps the same object: a2 is a1",
        "values": "a = a + 1 and a += 1 both add to the value: the second one changes the "
        "object in place",
        "version": "an in-place change bumps the object's _version by one",
    },
)
def inplace_same_object(sub):
    runs = [sub.rebind_then_inplace(s) for s in (2.25, -1.5, 0.0)]
    return {
        "same_object": [_is(r[2], r[1]) for r in runs],
        "values": [[num(v) for v in r[1:]] for r in runs],
        "version": [_version(r[2]) for r in runs],
    }


@EXERCISE.test(
    "changing a saved value breaks backward",
    points=3,
    feedback="Build y = combine(a, b), call a.add_(1) the number of times given, then catch the "
    "RuntimeError of y.backward() and return it.",
    key_feedback={
        "error": "backward must raise the 'modified by an inplace operation' error when combine "
        "saved a: call a.add_(1) exactly `times` times after computing y",
    },
)
def saved_value_error(sub):
    cases = zip([(0.5, 1.5, 1), (-2.0, 3.0, 2), (1.25, -0.5, 3)], SAVING)
    runs = [sub.modify_saved_value(w, x, times, combine) for (w, x, times), combine in cases]
    return {"error": [caught(r["error"]) for r in runs]}


@EXERCISE.test(
    "the version counter counts in-place changes",
    points=1,
    feedback="a.add_(1) is allowed on the non-leaf a: it keeps the object, records the "
    "in-place addition in the graph and bumps a._version on every call.",
    key_feedback={
        "a": "call a.add_(1) exactly `times` times on the non-leaf a: each call changes its "
        "value in place, bumps its version counter and is recorded as its grad_fn",
        "y": "y was computed before the change and keeps its old value",
    },
)
def version_counter(sub):
    cases = [(3.0, -1.0, 1), (0.25, 0.5, 4)]
    runs = [sub.modify_saved_value(w, x, t, micrograph.mul) for w, x, t in cases]
    return {
        "a": [[num(r["a"]), _version(r["a"]), grad_fn(r["a"])] for r in runs],
        "y": [num(r["y"]) for r in runs],
    }


@EXERCISE.test(
    "a failed backward writes no gradient",
    points=1,
    feedback="When backward raises the version error, no gradient has been written: w.grad and "
    "x.grad stay None. Call y.backward() only once.",
)
def no_grads_after_error(sub):
    runs = [sub.modify_saved_value(w, x, 1, micrograph.mul) for w, x in [(-1.5, 2.5), (4.0, 0.75)]]
    return [[grad(r["w"]), grad(r["x"])] for r in runs]


@EXERCISE.test(
    "an unsaved value may change",
    points=2,
    feedback="When combine does not save a (a sum, a difference, a product by a number), "
    "backward works after the change: return error None and let backward fill the grads.",
    key_feedback={
        "error": "backward only fails when a saved value changed: here it must work (error None)",
        "grads": "after a successful backward, w.grad and x.grad hold dy/dw and dy/dx",
    },
)
def unsaved_value_ok(sub):
    cases = zip([(0.5, -2.5, 1), (2.0, 1.0, 2), (-0.75, 3.5, 1)], NOT_SAVING)
    runs = [sub.modify_saved_value(w, x, times, combine) for (w, x, times), combine in cases]
    return {
        "error": [caught(r["error"]) for r in runs],
        "grads": [[grad(r["w"]), grad(r["x"])] for r in runs],
    }


@EXERCISE.diagram
def draw(sub):
    r = sub.modify_saved_value(0.5, 1.5, 1, micrograph.mul)
    return [r["y"], r["a"]], {k: r[k] for k in ("w", "x", "a", "y")}
