"""micrograph.observe: who wrote .grad, how many passes ran, and the steps of a pass.

Each step is checked against evidence the seam does not produce: the order in
which the engine fires hooks, the gradients the engine leaves in ``.grad``, and
the errors it raises.
"""

import math
import sys

import pytest

import micrograph as mg
from micrograph import Value, observe
from micrograph.engine import backward as engine_backward
from micrograph.node import AccumulateGrad
from micrograph.observe import PassKind, Writer


class Recorder(observe.Observer):
    def __init__(self):
        self.starts, self.steps, self.failures = [], [], []

    def pass_started(self, start):
        self.starts.append(start)

    def step(self, step):
        self.steps.append(step)

    def failed(self, failure):
        self.failures.append(failure)


def documents_graph(x=2.0, w=1.0):
    """y = (x + w) * (w + 1), the source documents' graph."""
    w, x = Value(w, requires_grad=True), Value(x, requires_grad=True)
    a = x + w
    b = w + 1
    return w, x, a, b, a * b


def node_of(v):
    return v.grad_fn if v.grad_fn is not None else v._accumulator()


def hook_order(values):
    """Register a hook on every value; the list fills in the order the engine calls them."""
    fired = []
    for v in values:
        v.register_hook(lambda g, v=v: fired.append(node_of(v)))
    return fired


# -- passes ---------------------------------------------------------------------------------
def test_passes_counts_backward_and_grad_under_any_name():
    before = observe.passes()
    w, *_, y = documents_graph()
    engine_backward(y, retain_graph=True)
    mg.grad(y, [w], retain_graph=True)
    y.backward()
    assert observe.passes() == before + 3


def test_a_pass_that_fails_counts_and_argument_errors_do_not():
    *_, y = documents_graph()
    y.backward()
    before = observe.passes()
    with pytest.raises(RuntimeError, match="second time"):
        y.backward()
    assert observe.passes() == before + 1
    with pytest.raises(RuntimeError, match="does not require grad"):
        Value(1.0).backward()
    assert observe.passes() == before + 1


# -- grad_write -----------------------------------------------------------------------------
def test_backward_writes_leaf_grads_and_the_record_follows_accumulation():
    w, x, a, b, y = documents_graph()
    assert observe.grad_write(w) is None
    y.backward(retain_graph=True)
    first = observe.grad_write(w)
    assert first.writer is Writer.ACCUMULATE_GRAD and first.by_engine
    assert first.pass_number == observe.passes() and first.grad is w.grad and first.intact(w)
    y.backward()
    second = observe.grad_write(w)
    assert second.grad is first.grad  # accumulated in place: the same object (its version is not modelled)
    assert second.pass_number == first.pass_number + 1 and second.data == 10.0 and first.data == 5.0
    assert second.intact(w) and w.grad.item() == 10.0


@pytest.mark.parametrize(
    "tamper",
    [
        lambda w: w.grad.zero_(),
        lambda w: w.grad.add_(1.0),
        lambda w: w.grad.data.copy_(Value(3.0)),
        lambda w: setattr(w, "_gradient", Value(5.0)),
    ],
    ids=["zero_", "add_", "through .data (no version bump)", "private swap"],
)
def test_a_change_after_backward_leaves_the_record_not_intact(tamper):
    w, *_, y = documents_graph()
    y.backward()
    tamper(w)
    record = observe.grad_write(w)
    assert record.by_engine and not record.intact(w)


def test_assignment_is_recorded_as_the_user_write():
    w, *_, y = documents_graph()
    y.backward()
    w.grad = Value(5.0)
    record = observe.grad_write(w)
    assert record.writer is Writer.USER and not record.by_engine and record.intact(w)
    assert record.pass_number == observe.passes()
    w.grad += 1  # in place, then the same Value assigned back: no new write, a change in place
    assert observe.grad_write(w).writer is Writer.USER and not observe.grad_write(w).intact(w)
    (w * 1).backward()
    w.grad -= w.grad  # the engine's Value, zeroed in place: still the engine's write, changed since
    assert observe.grad_write(w).by_engine and not observe.grad_write(w).intact(w)
    w.grad = None
    assert observe.grad_write(w) == (Writer.USER, observe.passes(), None, None, None)
    w._grad = Value(2.0)  # torch's other name for .grad: the same setter, so the same write
    assert observe.grad_write(w).writer is Writer.USER and observe.grad_write(w).intact(w)


def test_optimizer_zero_grad_is_not_the_engine():
    w, *_, y = documents_graph()
    y.backward()
    mg.optim.SGD([w], lr=0.1).zero_grad()
    assert observe.grad_write(w).writer is Writer.USER and w.grad is None


def test_retain_grad_and_backward_inputs_are_engine_writes_on_non_leaves():
    w, x, a, b, y = documents_graph()
    a.retain_grad()
    y.backward(retain_graph=True)
    assert observe.grad_write(a).writer is Writer.RETAIN_GRAD and observe.grad_write(a).intact(a)
    assert observe.grad_write(b) is None
    y.backward(inputs=[b])
    record = observe.grad_write(b)
    assert record.writer is Writer.RETAIN_GRAD and record.grad is b.grad and b.grad.item() == 3.0


def test_grad_writes_no_grad_field():
    w, x, *_, y = documents_graph()
    (dw,) = mg.grad(y, [w])
    assert dw.item() == 5.0 and observe.grad_write(w) is None and observe.grad_write(x) is None


# -- observing: the documents' graph ----------------------------------------------------------
def test_documents_graph_steps_follow_the_engine():
    w, x, a, b, y = documents_graph()
    fired = hook_order([w, x, a, b, y])
    with observe.observing(Recorder()) as rec:
        y.backward()
    (start,) = rec.starts
    assert start.kind is PassKind.BACKWARD and start.number == observe.passes()
    assert start.roots == ((y.grad_fn, 1.0),) and not start.retain_graph and not start.create_graph
    assert start.ready == (y.grad_fn,)
    assert start.dependencies[w._accumulator()] == 2 and start.dependencies[x._accumulator()] == 1
    assert [s.node for s in rec.steps] == fired  # the engine's own order
    assert [s.index for s in rec.steps] == list(range(5))
    by_node = {s.node: s for s in rec.steps}
    mul = by_node[y.grad_fn]
    assert mul.received == 1.0 and mul.contributions == 1 and mul.released
    assert [(s.to, s.grad) for s in mul.sent] == [(a.grad_fn, 2.0), (b.grad_fn, 3.0)]
    acc_w = by_node[w._accumulator()]
    assert acc_w.received == w.grad.item() == 5.0 and acc_w.contributions == 2
    assert acc_w.wrote is w and acc_w.write == observe.grad_write(w) and acc_w.sent == ()
    assert by_node[a.grad_fn].released is False  # AddBackward0 saves nothing
    assert by_node[b.grad_fn].sent[1] == observe.Send(None, None, False)  # the constant 1
    assert rec.steps[-1].ready == () and rec.failures == []


def test_ready_queue_is_what_runs_next():
    *_, y = documents_graph()
    with observe.observing(Recorder()) as rec:
        y.backward()
    for step, following in zip(rec.steps, rec.steps[1:]):
        assert step.ready[0] is following.node
    assert all(isinstance(n, AccumulateGrad) for n in rec.steps[-2].ready)


def test_waiting_counts_reach_zero_when_a_node_becomes_ready():
    w, *_, y = documents_graph()
    with observe.observing(Recorder()) as rec:
        y.backward()
    acc = w._accumulator()
    counts = [c for s in rec.steps for n, c in s.waiting if n is acc]
    assert counts == [1, 0]


def test_diamond_sums_both_paths_at_the_shared_node():
    x = Value(1.5, requires_grad=True)
    a = x * 2
    a.retain_grad()
    b, c = a + 1, a * 3
    y = b * c
    fired = hook_order([x, a, b, c, y])
    with observe.observing(Recorder()) as rec:
        y.backward()
    assert [s.node for s in rec.steps] == fired
    step_a = next(s for s in rec.steps if s.node is a.grad_fn)
    sent_to_a = [s.grad for st in rec.steps for s in st.sent if s.to is a.grad_fn]
    assert step_a.contributions == 2 and step_a.received == sent_to_a[0] + sent_to_a[1]
    assert step_a.received == a.grad.item()
    assert step_a.wrote is a and step_a.write.writer is Writer.RETAIN_GRAD
    assert step_a.sent[0].grad == x.grad.item()


def test_a_hook_that_replaces_the_gradient_shows_both():
    w, x, a, b, y = documents_graph()
    a.register_hook(lambda g: g * 10)
    with observe.observing(Recorder()) as rec:
        y.backward()
    step = next(s for s in rec.steps if s.node is a.grad_fn)
    assert step.received == 2.0 and step.grad == 20.0 and step.sent[0].grad == 20.0


def test_retain_graph_frees_nothing():
    *_, y = documents_graph()
    with observe.observing(Recorder()) as rec:
        y.backward(retain_graph=True)
    assert rec.starts[0].retain_graph and not any(s.released for s in rec.steps)


def test_failing_second_backward_reports_the_node_and_the_same_error():
    *_, y = documents_graph()
    y.backward()
    with observe.observing(Recorder()) as rec, pytest.raises(RuntimeError) as raised:
        y.backward()
    assert rec.steps == []
    (failure,) = rec.failures
    assert failure.node is y.grad_fn and failure.error is raised.value and failure.index == 0


def test_failure_after_in_place_change_names_the_node_that_unpacked():
    w = Value(2.0, requires_grad=True)
    a = w * 1
    s = a.sin()
    y = s * 2
    a.add_(1.0)
    with observe.observing(Recorder()) as rec, pytest.raises(RuntimeError, match="inplace"):
        y.backward()
    assert [st.node for st in rec.steps] == [y.grad_fn]
    assert rec.failures[0].node is s.grad_fn and rec.failures[0].index == 1


def test_grad_pass_is_restricted_and_writes_nothing():
    w, x, a, b, y = documents_graph()
    with observe.observing(Recorder()) as rec:
        mg.grad(y, [x])
    (start,) = rec.starts
    assert start.kind is PassKind.GRAD and x._accumulator() in start.restricted_to
    assert b.grad_fn not in start.restricted_to
    assert [s.node for s in rec.steps] == [y.grad_fn, a.grad_fn, x._accumulator()]
    assert all(s.wrote is None for s in rec.steps)


def test_create_graph_reports_values():
    w, *_, y = documents_graph()
    with observe.observing(Recorder()) as rec:  # grad(): backward() would spend the once-per-process warning
        mg.grad(y, [w], create_graph=True)
    acc = next(s for s in rec.steps if s.node is w._accumulator())
    assert isinstance(acc.received, Value) and acc.received.item() == 5.0 and rec.starts[0].create_graph


def test_a_chain_deeper_than_the_recursion_limit():
    n = 2 * sys.getrecursionlimit()  # an observer that recursed along the chain would stop at the limit
    x = Value(1.0, requires_grad=True)
    y = x
    for _ in range(n):
        y = y * 1.0001
    with observe.observing(Recorder()) as rec:
        y.backward()
    assert len(rec.steps) == n + 1 and rec.steps[-1].node is x._accumulator()
    assert rec.steps[-1].received == x.grad.item()
    assert all(s.contributions == 1 and len(s.ready) <= 1 for s in rec.steps)


# -- the seam leaves results alone ------------------------------------------------------------
def grads_of_a_busy_graph():
    xs = [Value(0.3 * i - 1.0, requires_grad=True) for i in range(6)]
    h = [xi.tanh() * xs[(i + 1) % 6] + xi.exp() for i, xi in enumerate(xs)]
    y = mg.sum([hi * hi for hi in h]) / 3.0
    h[2].retain_grad()
    y.backward()
    return [xi.grad.item() for xi in xs] + [h[2].grad.item()]


def test_results_are_bit_identical_with_and_without_an_observer():
    plain = grads_of_a_busy_graph()
    with observe.observing(Recorder()) as rec:
        watched = grads_of_a_busy_graph()
    assert rec.steps and [math.copysign(1, g) for g in plain] == [math.copysign(1, g) for g in watched]
    assert [g.hex() for g in plain] == [g.hex() for g in watched]


def test_observing_is_restored_after_the_block_and_nests():
    outer, inner = Recorder(), Recorder()
    with observe.observing(outer):
        with pytest.raises(ZeroDivisionError):
            with observe.observing(inner):
                documents_graph()[-1].backward()
                1 / 0
        documents_graph()[-1].backward()
    documents_graph()[-1].backward()
    # the outer observer hears the inner block's pass too (a trace around watched code loses none)
    assert len(inner.starts) == 1 and len(outer.starts) == 2
    assert [s.pass_number for s in outer.steps] == sorted(s.pass_number for s in outer.steps)
    assert {s.pass_number for s in inner.steps} < {s.pass_number for s in outer.steps}



class FirstPassOnly(Recorder):
    def pass_started(self, start):
        super().pass_started(start)
        self.finished = True


def test_a_finished_observer_leaves_the_other_one_its_passes():
    outer, inner = FirstPassOnly(), Recorder()
    with observe.observing(outer), observe.observing(inner):
        documents_graph()[-1].backward()
        documents_graph()[-1].backward()
    assert len(outer.starts) == 1 and not outer.steps  # finished before its first step
    assert len(inner.starts) == 2 and {s.pass_number for s in inner.steps} == {s.number for s in inner.starts}

def test_observing_refuses_a_non_observer():
    with pytest.raises(TypeError, match="Observer"):
        with observe.observing(print):
            pass


def test_a_finished_observer_sees_no_more_passes():
    class FirstOnly(Recorder):
        def pass_started(self, start):
            super().pass_started(start)
            self.finished = len(self.starts) >= 2

    with observe.observing(FirstOnly()) as rec:
        for _ in range(3):
            documents_graph()[-1].backward()
    assert len(rec.starts) == 2 and len(rec.steps) == 5  # the second pass started, then nothing


def test_an_observer_of_starts_only_gets_no_steps_and_the_same_gradients():
    class StartsOnly(Recorder):
        wants_steps = False

    with observe.observing(StartsOnly()) as rec:
        w, x, *_, y = documents_graph()
        y.backward()
    assert len(rec.starts) == 1 and rec.steps == [] and rec.failures == []
    assert (w.grad.item(), x.grad.item()) == (5.0, 2.0)  # d/dw (x + w)(w + 1) = 2w + x + 1
