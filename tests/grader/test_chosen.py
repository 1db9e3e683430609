"""Who wrote a .grad when the student's code runs inside a backward pass, in-process.

The worker observes every pass of a step through ``hooked.WRITES``: a number the student's
code chose (a hook's, a post-accumulate hook's, a custom Function's backward writing another
leaf's .grad before the engine adds into it) is ``chosen``, never ``backward``, however many
passes ran before; a hook on one branch leaves another branch's leaves to the engine.
"""

from __future__ import annotations

import types
from collections.abc import Callable

from grader.spec import hooked
from grader.spec.call_records import MAX_PASSES_LISTED
from grader.spec.provenance import grad_of, watching
from micrograph import Value, observe
from micrograph.autograd import Function

STUDENT = types.ModuleType("student")
STUDENT.__file__ = __file__  # this file plays the student's
CHOSEN = 42.0  # the number the student's code puts in w.grad while the pass runs


def _by(make: Callable[[], Value]) -> tuple[str, float]:
    """Who wrote the .grad of the Value ``make`` returns, and its number, in a step's registry."""
    with observe.observing(hooked.WRITES):
        w = make()
        fact = grad_of(w, "w.grad")
    return fact["by"], fact["grad"]


def _seeding(w: Value) -> Callable[..., None]:
    def seed(*_: object) -> None:
        w.grad = Value(CHOSEN)
    return seed


def test_a_hook_that_only_looks_but_writes_another_leaf_chose_its_number():
    def make() -> Value:
        w = Value(2.0, requires_grad=True)
        y = w * 0 + 1
        y.register_hook(_seeding(w))  # returns None: the gradient through y is the engine's
        y.backward()  # then adds 0 into the number the hook put in w.grad
        return w
    assert _by(make) == ("chosen", CHOSEN)


def test_a_post_accumulate_hook_outside_a_watched_call_chose_another_leafs_number():
    def make() -> Value:
        w, s = Value(2.0, requires_grad=True), Value(1.0, requires_grad=True)
        s.register_post_accumulate_grad_hook(_seeding(w))
        (s + ((w * 0) * 1) * 1).backward()  # s's accumulator runs before w's
        return w
    assert _by(make) == ("chosen", CHOSEN)


def test_a_post_accumulate_hook_that_rewrites_its_own_leaf_chose_it():
    def rewrite(v: Value) -> None:
        v.grad.data = Value(CHOSEN)

    def make() -> Value:
        w = Value(2.0, requires_grad=True)
        y = w * 3  # the accumulator exists before the hook: it must run the hook's branch too
        w.register_post_accumulate_grad_hook(rewrite)
        y.backward()
        return w
    assert _by(make) == ("chosen", CHOSEN)


def test_a_functions_backward_that_writes_a_leaf_chose_its_number():
    class Same(Function):
        leaf: Value

        @staticmethod
        def forward(ctx: object, a: Value) -> Value:
            return a * 1

        @staticmethod
        def backward(ctx: object, g: Value) -> Value:
            Same.leaf.grad = Value(CHOSEN)
            return g

    def make() -> Value:
        Same.leaf = Value(2.0, requires_grad=True)
        Same.apply(Same.leaf * 0).backward()
        return Same.leaf
    assert _by(make) == ("chosen", CHOSEN)


def test_a_hook_is_seen_after_as_many_passes_as_a_call_lists():
    w = Value(2.0, requires_grad=True)
    with observe.observing(hooked.WRITES), watching(STUDENT, "loop", grad_numbers=True):
        for _ in range(MAX_PASSES_LISTED):
            (w * 3).backward()
        w.grad = None
        w.register_hook(lambda g: Value(CHOSEN))
        (w * 3).backward()
        assert grad_of(w, "w.grad")["by"] == "chosen"


def test_a_hook_that_looks_and_a_hook_on_another_branch_leave_the_engines_numbers():
    def looking() -> Value:
        w = Value(2.0, requires_grad=True)
        seen: list[float] = []
        w.register_hook(lambda g: seen.append(g.item()))
        (w * 3).backward()
        return w

    def other_branch() -> Value:
        w, x = Value(2.0, requires_grad=True), Value(1.0, requires_grad=True)
        a = x * 2
        a.register_hook(lambda g: Value(CHOSEN))  # chooses x's gradient, not w's
        (a + w * 3).backward()
        return w
    assert _by(looking) == ("backward", 3.0)
    assert _by(other_branch) == ("backward", 3.0)
