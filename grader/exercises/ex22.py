"""ex22 build_no_grad_hooks: in the student's engine no_grad records nothing, detach() cuts the
graph, and tensor hooks see and replace gradients in PyTorch's order."""

from __future__ import annotations

from typing import Any

from micrograph.i18n import N_

from grader.spec import Exercise
from grader.spec.build import claim, described, documents_drawn, fact, fresh_mode, needs, node_name, number
from grader.spec.build_aliases import DETACHED_LEAF_RULE, detached_leaf
from grader.spec.build_reads import grad_quiet
from grader.spec.build_hooks import (freed_hooks, grad_own_value, hook_error, hook_keeps_nothing, hook_results, hook_under_no_grad,
                                     in_place_hooks, NONE_RULE, none_result, one_shot_hook, READDED_RULE, registered_after_removal, removed_with, root_hooks)
from grader.spec.build_hooks_handles import TWICE_KEPT_RULE, removed_by_handle
from grader.spec.build_hooks_kept import argument_kept, detached_retains, equal_leaf_hooks, flag_flipped, freed_leaf_hooks, hooks_after_error
from grader.spec.build_mode_kept import BACKWARD_MODE, MODE_KEPT, after_one_block, backward_in_block, mode_kept
from grader.spec.build_no_grad import ZERO_SELF, in_place_no_grad
from grader.spec.held import held
from grader.spec.leaf_retained import RETAINED_LEAF, leaf_retained
from grader.spec.probe import by_key
from grader.spec.probe_error import BUILTIN_KINDS, ProbeError
from grader.spec.raised import SAID, raised

EXERCISE = Exercise("ex22", "Build an engine: no_grad, detach and hooks",
                    module="ex22_build_no_grad_hooks", rules=True, own_engine=True)

FEEDBACK = ("no_grad switches recording off inside its block; hooks run with the gradient before "
            "it is written or passed on, and a Value they return replaces it.")
HOOKED_GRADS = ("backward uses a value's gradient only after its hooks ran, as they left it: "
                "before a leaf's .grad is written or a retained gradient kept")
KEYS = {
    "no_grad": "inside no_grad nothing is recorded: no_grad.__enter__ switches grad mode off (GradMode.enabled), "
               "and every operation, a product as a sum, records through record(...), which asks recording(...), "
               "False while it is off: a result is a leaf that requires no grad",
    "recording": "recording(...) must be True only while grad mode is on and some input requires grad: "
                 "an operation whose inputs all require no grad records nothing, outside no_grad too",
    "nested": "recording is still off after a nested no_grad block ends: as it was before that block",
    "after": "after a no_grad block, recording is as it was before it",
    "after_nested": "a no_grad block nested in another puts back in its __exit__ the mode its own __enter__ found (off, "
                    "inside the outer block), and leaves the outer block's saved mode as it was: the outer block's "
                    "__exit__ puts back the mode found before the outer block, not the one the nested block found",
    "raised": "recording is back on after a block that raised, whose error goes on: no_grad.__exit__ returns nothing (None), never a true value, which would swallow the error",
    "hook_error": "an error a hook raises goes on out of backward, as PyTorch's does",
    "hook_kinds": "an error a hook raises goes on out of backward whatever its type, as PyTorch's does: neither "
                  "run_hooks nor backward catches it",
    "raised_kinds": "an error raised inside a no_grad block goes on out of it whatever its type: no_grad.__exit__ "
                    "returns nothing (None), never True, for any of them",
    "step": "under no_grad a leaf that requires grad may change in place (the SGD step), with zero_ as with add_",
    "step_version": "an in-place op under no_grad bumps the version counter as it does outside it: no_grad only "
                    "switches recording off, and a graph that saved the value before the change must see it",
    "step_unrecorded": "an in-place op under no_grad records nothing: add_ and zero_ ask recording(...), which is "
                       "False while grad mode is off, so a leaf stays a leaf and a non-leaf keeps its grad_fn",
    "detach": "a result computed from a detached value has no edge back to the original",
    "detached_leaf": DETACHED_LEAF_RULE, "mode_kept": MODE_KEPT, "zero_self": ZERO_SELF, "backward_mode": BACKWARD_MODE,
    "hooks_ran": "run each hook a value still has once, in the order registered",
    "leaf_hooks": "register_hook on a leaf puts the hook on the node gradient_edge gives for it, the leaf's one "
                  "AccumulateGrad: the node backward runs for that leaf",
    "hooks_listed": "run each hook a value still has once, in the order registered",
    "in_place_hooks": "a hook stays on the node its value had when it was registered: after an in-place op gives "
                      "the value a new node, an earlier hook receives the gradient of the value as it was before "
                      "the op, once the node of the op (and the hooks registered since) ran",
    "handed_on": "a hook is called with its value's gradient; a Value a hook returns replaces "
                 "the gradient, the next hook's argument too",
    "plain": "a hook is called with the gradient as a Value that requires no grad, as PyTorch calls it: "
             "what the hook computes from it records no graph",
    "one_shot": "a hook may take itself out with its handle while backward runs it, as PyTorch allows: "
                "removing a hook from the node's dict must not break run_hooks' walk over that dict",
    "hooked_grads": HOOKED_GRADS,
    "removed_grad": HOOKED_GRADS,  # the gradient a hook taken out through its handle leaves
    "handle": "register_hook returns a handle, whose remove() takes that hook out",
    "removed": "handle.remove() takes out the hook that handle registered, and no other", "twice_kept": TWICE_KEPT_RULE, "none_result": NONE_RULE,
    "removed_twice": "handle.remove() a second time does nothing: the hook is out already", "readded": READDED_RULE,
    "root_hooks": "backward runs the hooks of the value it starts from too: they are handed the "
                  "gradient 1 it starts with, and a Value they return replaces it",
    "leaf_hook": "register_hook on a leaf that no operation has used yet puts the hook on the leaf's "
                 "AccumulateGrad, which gradient_edge makes then if the leaf has none",
    "fresh_hooks": "a leaf keeps its AccumulateGrad for its life: backward from a graph made after register_hook "
                   "runs the hooks put on it",
    "freed_hooks": "a node keeps its own hooks (pre_hooks): hooks kept elsewhere by id(node) reach a new node "
                   "that CPython puts at a freed node's id",
    "hook_not_retained": "register_hook on a non-leaf puts the hook on its grad_fn and nothing more: it does not make "
                         "the value retain its gradient, so retains_grad stays False, and after backward its .grad is None "
                         "and reading it warns, as for any non-leaf that did not call retain_grad()",
    "argument": "a hook is called with the gradient as a Value, the type of the value it is "
                "registered on, as PyTorch calls it with a tensor: it may read it with item() or "
                "return it itself",
    "order": "backward runs the ready node with the highest sequence number first (the newest)",
    "errors": "register_hook on a value that requires no grad raises HOOK_ON_CONSTANT",
    "hook_no_grad": "register_hook asks whether the value requires grad, not whether grad mode is on: a hook "
                    "registered inside no_grad is kept, and runs in the next backward",
    "retained_leaf": RETAINED_LEAF,
    "zero_result": "a Value a hook returns replaces the gradient whatever number it holds, 0 too (g * 0 blocks "
                   "the path): only a hook that returns None leaves the gradient as it was",
    "hooks_stay": "a hook stays on its value until its handle's remove(): it runs in every backward that reaches "
                  "the value, not in the first one only",
    "grad_own": "a leaf's first .grad is a Value of its own, which store_grad makes from the number the gradient "
                "holds: never the Value a hook returned, which the program may hold, so a later backward adding into "
                ".grad leaves that Value as it was",
    "arg_kept": "each hook is handed the gradient as it is when the hook runs, and a Value a hook returns is a new one: "
                "the next hook's result leaves the Value an earlier hook was handed (and may keep) as it was",
    "freed_leaf_hooks": "a leaf's hooks are on its AccumulateGrad, which lives as long as the leaf: hooks kept elsewhere "
                        "by id(leaf) reach a new leaf that CPython puts at a freed leaf's id",
    "equal_leaf_hooks": "a hook belongs to the value it was registered on: another leaf holding the same number is "
                        "another value, which a lookup by == (a Value comparing numbers) takes for it",
    "hooks_after_error": "a hook that raised leaves nothing behind: a flag or counter set while a hook runs, grad mode too, is "
                         "put back however the hook ends (try/finally), so later operations record and later backward calls run their hooks",
    "flag_kept": "a leaf keeps its one AccumulateGrad, with the hooks on it, for its whole life: an operation while its "
                 "requires_grad is False records no edge to it and leaves that node on the leaf",
    "detached_flags": "detach() gives a leaf that requires no grad and retains nothing (retains_grad False), whatever "
                      "the Value it is called on retains",
    "result_number": "run_hooks hands on the number a hook's Value holds (result.item()), a float as every "
                     "gradient backward passes on: never the Value itself",
}

STEP = "w.add_(w.grad * -0.1) under no_grad"
# recording on inside the block: after a nested block too; a hook left in place changes the gradient;
# a recording() that records in grad mode whatever the inputs also records inside no_grad, and
# check_in_place, which asks it, refuses the step
CAUSED_BY = {"no_grad": ("recording",), "nested": ("no_grad", "recording"), "after_nested": ("after",),
             "raised": ("after", "after_nested"), "step": ("recording",), "step_unrecorded": ("recording", "step"),
             "step_version": ("recording", "step"), "hooked_grads": ("removed", "handle"), "removed": ("handle", "hooks_listed"),
             "removed_grad": ("removed", "handle"), "readded": ("removed", "handle", "hooks_listed"),
             # hooks run in another order: each is handed what another hook left, and a list of them is in that order
             "handed_on": ("hooks_listed",), "arg_kept": ("hooks_listed",),
             # a hook's result that backward does not go on with changes what every later program's gradients
             # show: told by that rule, not by each program's own
             **{key: ("hooked_grads",) for key in ("root_hooks", "zero_result", "result_number", "one_shot",
                                                   "hook_no_grad", "flag_kept")}}
# hooks found by == run for every leaf holding the number, or none run once one raised: each other hook rule follows
KEPT = ("equal_leaf_hooks", "hooks_after_error")
CAUSED_BY = {**CAUSED_BY, **{key: CAUSED_BY.get(key, ()) + KEPT for key in KEYS if key not in KEPT}}
# what a hook taken out through its handle leaves: nothing was taken out where no handle came back
# and nothing of the program after a hook on a fresh leaf was refused (leaf_hook) ran
# and what a hook was handed, or did, means something only where the hooks ran as PyTorch runs them
RAN = ("hooks_ran", "leaf_hooks")  # a non-leaf's hooks and a leaf's: each key below observes hooks of both kinds
PRESUMES = {"removed": ("handle", "leaf_hook", "fresh_hooks", *RAN), "removed_grad": ("handle", "leaf_hook", "fresh_hooks", *RAN),
            "handle": ("leaf_hook",), "handed_on": RAN, "one_shot": RAN, "hook_error": RAN, "hooks_listed": RAN,
            "removed_twice": ("handle",), "twice_kept": ("leaf_hook", *RAN), "readded": ("handle", *RAN), "hook_kinds": ("hook_error", *RAN), "raised_kinds": ("raised",), "root_hooks": RAN, "fresh_hooks": ("leaf_hook", *RAN), "freed_hooks": RAN,
            "hooked_grads": RAN, "result_number": (*RAN, "hooks_stay"), "hooks_stay": RAN, "zero_result": RAN, "in_place_hooks": RAN,
            "grad_own": RAN, "arg_kept": RAN, "freed_leaf_hooks": RAN, "flag_kept": RAN}
PRESUMES = {key: (*presumed, "hooks_after_error") for key, presumed in PRESUMES.items()}  # none ran once one raised
# no other program of the public test runs once a hook returning None broke backward
PRESUMES = {key: (*PRESUMES.get(key, ()), "none_result") for key in KEYS if key != "none_result"}
B_HANDLE = N_("b.register_hook(hook) returned a handle with a remove() method")

OWN_ERROR = N_("with no_grad(): raise ProbeError(...) (an error class of the test's own)")


def _no_grad(sub: Any, w0: float) -> dict[str, Any]:
    """What no_grad records, and, beside it, that an operation on a constant records nothing
    outside it: a recording() that records when grad mode is on *or* an input requires grad
    shows there, where no_grad itself is right (``CAUSED_BY``)."""
    w = sub.Value(w0, requires_grad=True)
    c = sub.Value(2.0)
    constant = described(c * 3, "(c * 3)", N_("outside no_grad, c = Value(2)"))
    with sub.no_grad():
        product = w * 2  # an operation that records by itself, past record(...), shows here
        inside = product + 1
        with sub.no_grad():
            deep = w * 4  # an __enter__ that toggles the mode, not switches it off, records here
        nested = w * 3
    after = w * 2

    def failing(kind: type[Exception]) -> None:
        with sub.no_grad():
            raise kind("raised inside no_grad")
    own = raised(failing, OWN_ERROR, ProbeError)  # swallowed only by an __exit__ that swallows every error
    # each built-in error class in turn: an __exit__ that swallows some (by issubclass or by is) is told which
    kinds = [raised(failing, f"with no_grad(): raise {kind.__name__}(...)", kind) for kind in BUILTIN_KINDS]
    return {"recording": [constant], "no_grad": [described(inside, "(w * 2 + 1)", N_("inside no_grad")),
                                                 described(product, "(w * 2)", N_("inside no_grad")),
                                                 described(deep, "(w * 4)", N_("inside a no_grad block nested in another"))],
            "nested": [described(nested, "(w * 3)", N_("inside no_grad, after a nested no_grad block ended"))], "mode_kept": mode_kept(sub),
            "after": [after_one_block(sub, w0)],
            "after_nested": [described(after, "(w * 2)", N_("after a no_grad block with another nested in it"))],
            "raised": [own, described(w * 7, "(w * 7)", N_("after a no_grad block that raised"))], "raised_kinds": kinds}


KEPT_LEFT = {"a": N_("a.grad is the Value a's hook returned"), "w": N_("w.grad is the Value w's second hook returned"),
             "x": N_("x.grad is the Value x's first hook returned (its second returns None)")}
RECEIVED = {"a": N_("the gradient a's hook received"), "w": N_("the gradient w's first hook received"),
            "w second": N_("the gradient w's second hook received"),
            "x second": N_("the gradient x's second hook received (its first returns a Value)")}
HOOKS_ON = {"a": N_("the hooks on a ran during y.backward()"), "w": N_("the hooks on w ran during y.backward()"),
            "x": N_("the hooks on x ran during y.backward()")}


def _hooked(sub: Any, w0: float, x0: float) -> dict[str, Any]:
    calls: list[Any] = []
    w, x = sub.Value(w0, requires_grad=True), sub.Value(x0, requires_grad=True)
    a = x + w
    a.retain_grad()
    b = w + 1
    y = a * b
    held(y, a, b, w, x)  # hooked values live on: a node kept by id() is never freed but on purpose (freed_hooks)
    plain: list[bool] = []  # whether each gradient a hook was handed requires no grad, as PyTorch's never do
    left: dict[str, Any] = {}  # by value: the gradient its hooks left (the last Value returned, else the argument)

    def on(name: str, scale: float | None) -> Any:
        def hook(g: Any) -> Any:
            calls.append([name, number(g)])
            plain.append(getattr(g, "requires_grad", None) is not True)
            out = None if scale is None else g * scale
            left[name.split(" ")[0]] = number(g if out is None else out)
            return out
        return hook

    a.register_hook(on("a", 10.0))
    w.register_hook(on("w", None))
    w.register_hook(on("w second", 2.0))
    x.register_hook(on("x", 3.0))
    x.register_hook(on("x second", None))  # is handed what the first returned
    handle = removed_with(b.register_hook(on("b", None)), B_HANDLE)
    y.backward()
    received = {name: next((g for n, g in calls if n == name), None) for name in ("a", "w", "w second", "x second")}
    ran = [n for n, _ in calls]
    ran_on = {v: claim(any(n.split(" ")[0] == v for n in ran), label) for v, label in HOOKS_ON.items()}  # one each, ever
    # value by value (a stable sort): each value's hooks in the order they ran, the values as a set, as
    # ex17 compares leaves made ready together, whose order the statement leaves open
    by_value = sorted((n for n in ran if n != "b"), key=lambda n: n.split(" ")[0])
    return {"handle": [handle], "hooks_ran": [ran_on["a"]], "leaf_hooks": [ran_on["w"], ran_on["x"]],
            "hooks_listed": [fact(by_value, N_("the list of the hooks that ran, value by value"))],
            "removed": [claim("b" not in ran, N_("b's hook, taken out with handle.remove(), stays out"))],
            "plain": [claim(all(plain), N_("every gradient the hooks of y = a * b received requires no grad"))],
            "handed_on": [fact(g, RECEIVED[name]) for name, g in received.items()],
            "hooked_grads": [fact(grad_quiet(a), f"a.grad ({N_('a retained, its hook scales it')})"),
                             fact(grad_quiet(w), f"w.grad ({N_('its second hook doubles')})"),
                             fact(grad_quiet(x), f"x.grad ({N_('its first hook triples')})"),
                             *[claim(grad_quiet(v) == left[name], KEPT_LEFT[name]) for name, v in (("a", a), ("w", w), ("x", x))
                               if name in left]]}


@EXERCISE.test("no_grad and hooks on the documents' graph", points=3, public=True, feedback=FEEDBACK,
               key_feedback=KEYS, caused_by=CAUSED_BY, presumes=PRESUMES)
def public(sub):
    sub = needs(sub, 7)
    if (none := none_result(fresh_mode(sub))) and none[0][SAID] is not None:  # before the documents' graph's hooks
        return {"none_result": none}
    hooked = _hooked(sub, 0.5, -3.0)  # a backward may run hooks under the student's own no_grad: fresh_mode after it
    return {**_no_grad(fresh_mode(sub), 0.5), **hooked, "hook_not_retained": hook_keeps_nothing(fresh_mode(sub), 1.5), "none_result": none}


RETURNS_IT = N_("its hook returns its argument")


def _argument(sub: Any) -> list[Any]:
    """A hook is called with a Value (PyTorch's with a tensor): the hook on a checks that its
    argument is of a's type and returns it itself; the one on w reads it with item() and
    returns it.  A float passed where a Value is asked shows here, and nowhere else: the other
    hooks only do arithmetic, which a float does too."""
    kinds: list[bool] = []
    w = sub.Value(-0.75, requires_grad=True)
    a = w * 4
    a.retain_grad()
    y = a * a
    held(y, a, w)  # ``_hooked``'s reason

    def same_kind(g: Any) -> Any:
        kinds.append(type(g) is type(a))
        return g

    def read(g: Any) -> Any:
        g.item()
        return g

    a.register_hook(same_kind)
    w.register_hook(read)
    ran = raised(y.backward, N_("the backward of y = a * a, a = w * 4, whose hook on w reads g.item() and returns g"))
    return [claim(all(kinds), N_("a hook is called with a Value (the type of the value it is registered on)")),
            ran, fact(grad_quiet(a), f"a.grad ({RETURNS_IT})"), fact(grad_quiet(w), f"w.grad ({RETURNS_IT})")]


@EXERCISE.test("hooks on other inputs", points=2, feedback=FEEDBACK, key_feedback=KEYS, caused_by=CAUSED_BY,
               presumes=PRESUMES)
def hooks_hidden(sub):
    sub = needs(sub, 7)
    if (none := none_result(fresh_mode(sub))[:1]) and none[0][SAID] is not None:  # whether it raises only: numbers are the public test's
        return {"none_result": none}
    # Each program starts with grad mode as a fresh import leaves it (fresh_mode): a backward that
    # runs hooks under the student's own no_grad leaves the mode as that __exit__ does, which the
    # no_grad tests judge.
    runs = [_hooked(fresh_mode(sub), w, x) for w, x in [(2.0, 4.0), (-1.5, 0.0)]]
    seen: dict[str, Any] = by_key(runs)
    for probe in (removed_by_handle, root_hooks, registered_after_removal):
        for key, observed in probe(fresh_mode(sub)).items():
            seen.setdefault(key, []).append(observed)
    return {"hooks_after_error": hooks_after_error(sub), "equal_leaf_hooks": equal_leaf_hooks(sub), **seen, **hook_results(fresh_mode(sub)), "argument": _argument(fresh_mode(sub)), **hook_error(fresh_mode(sub)),
            "grad_own": grad_own_value(fresh_mode(sub)),
            "one_shot": one_shot_hook(fresh_mode(sub)), "retained_leaf": leaf_retained(fresh_mode(sub), 3.0, -4.0),
            "freed_hooks": freed_hooks(fresh_mode(sub)), "in_place_hooks": in_place_hooks(fresh_mode(sub)),
            "hook_no_grad": hook_under_no_grad(fresh_mode(sub)), "hook_not_retained": hook_keeps_nothing(fresh_mode(sub), -0.75),
            "arg_kept": argument_kept(fresh_mode(sub)), "freed_leaf_hooks": freed_leaf_hooks(fresh_mode(sub)),
            "flag_kept": flag_flipped(fresh_mode(sub)), "none_result": none}


@EXERCISE.test("an SGD step under no_grad", points=2, feedback=FEEDBACK, key_feedback=KEYS,
               caused_by=CAUSED_BY, presumes=PRESUMES)
def sgd(sub):
    sub = needs(sub, 7)
    w = sub.Value(1.5, requires_grad=True)
    (w * w).backward()
    with sub.no_grad():
        stepped = raised(w.add_, STEP, w.grad * -0.1)
    in_place = in_place_no_grad(fresh_mode(sub))
    return {**_no_grad(sub, -2.0), "backward_mode": backward_in_block(fresh_mode(sub)),
            "step": [stepped, fact(number(w), N_("w.item() after w.add_(w.grad * -0.1) under no_grad")), *in_place["step"]],
            "step_version": [fact(w._version, f"w._version after {STEP}"), *in_place["step_version"]], "zero_self": in_place["zero_self"],
            "step_unrecorded": [fact(w.is_leaf, f"w.is_leaf after {STEP}"),
                                fact(node_name(getattr(w, "grad_fn", None)), f"w.grad_fn after {STEP}"),
                                *in_place["step_unrecorded"]]}


# a detach() that gives the Value itself, or one still in its graph, sends a re-flagged copy's gradient back
@EXERCISE.test("detach() cuts the graph", points=2, feedback=FEEDBACK, key_feedback=KEYS,
               caused_by={"detached_leaf": ("detach",)})
def detach(sub):
    sub = needs(sub, 7)
    w, x = sub.Value(-0.5, requires_grad=True), sub.Value(3.0, requires_grad=True)
    y = w.detach() * x + w
    y.backward()
    return {"detach": [described(y, "y"), fact(grad_quiet(w), "w.grad for y = w.detach() * x + w"),
                       fact(grad_quiet(x), "x.grad for y = w.detach() * x + w")], "detached_leaf": detached_leaf(sub),
            "detached_flags": detached_retains(sub)}


ONCE = N_("each hook on a, b, c, d and w ran at most once during (c * d).backward()")


# an order of hooks that never ran says nothing more; one with a hook run twice (once per edge
# into its node) is told by that rule, not by the rule of which node runs first
@EXERCISE.test("the order hooks run in", points=2, feedback=FEEDBACK, key_feedback=KEYS,
               presumes={**PRESUMES, "order": (*RAN, "none_result"), "hooks_listed": (*RAN, "none_result")}, caused_by={"order": ("hooks_listed", "hooks_after_error"),
                                                                       **dict.fromkeys(("hooks_listed", *RAN), ("hooks_after_error",))})
def order(sub):
    sub = needs(sub, 7)
    if (none := none_result(fresh_mode(sub))[:1]) and none[0][SAID] is not None:  # whether it raises only: numbers are the public test's
        return {"none_result": none}
    calls: list[str] = []
    w = sub.Value(1.25, requires_grad=True)
    a = w * 2
    b = w * 3
    c = a * b
    d = b + 1
    held(c, d, w)  # ``_hooked``'s reason
    for name, v in (("a", a), ("b", b), ("c", c), ("d", d), ("w", w)):
        v.register_hook(lambda g, name=name: calls.append(name))
    (c * d).backward()
    constant = sub.Value(2.0)
    ran = {name: claim(name in calls, f"the hooks on {name} ran during (c * d).backward()") for name in "abcdw"}
    return {"hooks_after_error": hooks_after_error(sub), "hooks_ran": [ran[name] for name in "abcd"], "leaf_hooks": [ran["w"]],
            "none_result": none,
            "hooks_listed": claim(len(calls) == len(set(calls)), ONCE),
            "order": fact(calls, "the order the hooks of a, b, c, d and w ran in"),
            "errors": raised(constant.register_hook, "register_hook on a Value that requires no grad", lambda g: None)}


@EXERCISE.diagram
def draw(sub):
    return documents_drawn(sub, 7)
