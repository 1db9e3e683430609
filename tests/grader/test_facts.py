"""Facts (how a result was made) and the sentences that explain their differences, in-process.

The grading tests run these through the sandbox; here each piece is checked on its own: the
canonical graph ignores the spelling a statement allows and nothing else, each kind of
difference gets its sentence, and no sentence carries a number.
"""

from __future__ import annotations

import importlib
import pkgutil
import string
import types

import grader.judge
import micrograph
from grader.judge.capitals import ANY_WORD, ENGLISH_WORDS, capitalized
from grader.judge.check_sentences import SayCheck
from grader.judge.compare import same
from grader.judge.differences import chosen, find
from grader.judge.per_graph import per_graph
from grader.judge.explained import Difference, difference
from grader.judge.sentences import Say, Sentence
from grader.judge.loop_sentences import SayLoop
from grader.judge.walk_sentences import SayWalk
from grader.judge.inplace_sentences import SayInPlace
from grader.judge.state_sentences import SayState
from grader.judge.clear_sentences import SayClear
from grader.judge.step_sentences import SayStep
from grader.judge.pass_sentences import SayPass
from grader.judge.torch_sentences import SayTorch
from grader.spec.graph import graph
from grader.spec.facts import CONTEXT, FOLLOWS_CALLS, SHARED, Check
from grader.spec.detach_origins import detached_from, detached_some
from grader.spec.mode_restored import LEFT_OFF, called
from grader.spec.origins import made_by_op, made_from, read_from_grad
from grader.spec.errors import error_of
from grader.spec.provenance import check, entry_of, float_of, grad_of, lists_of, result_of, same_object, value_of, watching
from micrograph import Value
from micrograph.i18n import using


def _leaves(w: float = 0.5, x: float = -3.0) -> tuple[Value, Value]:
    return Value(w, requires_grad=True), Value(x, requires_grad=True)


def _said(want: object, got: object) -> list[Say]:
    return [d.say for d in find(want, got)]


def test_operand_order_and_sum_spelling_give_the_same_graph():
    w, x = _leaves()
    names = {"w": w, "x": x}
    one = graph((x + w) * (w + 1), names, label="y")  # compared as the grader compares: the
    assert same(graph((1 + w) * (w + x), names, label="y"), one)  # spelling is context (~op)
    assert same(graph(micrograph.mul(micrograph.add(w, 1), micrograph.add(x, w)), names, label="y"), one)
    parts = [w * x, w * w, x]
    total = graph(sum(parts), names, label="s")
    assert same(graph(micrograph.sum(parts[::-1]), names, label="s"), total)
    assert same(graph(parts[0] + (parts[1] + parts[2]), names, label="s"), total)
    assert not same(graph(sum(parts), names, label="s", flat=False),
                    graph(micrograph.sum(parts), names, label="s", flat=False))


def test_a_held_value_changed_through_data_is_drawn_with_its_number_now():
    """A clone shifted through .data keeps its CloneBackward0: the drawing shows what the clone
    holds where the probe was given it (``held``), its op's number where not; never compared."""
    w, x = _leaves()
    c = x.clone()
    c.data.copy_(c.data + 1)
    y = (c + w) * (w + 1)
    numbers = {n["~op"]: n["~data"] for n in graph(y, {"x": x}, label="y", held=[c])["nodes"] if "~op" in n}
    assert numbers["CloneBackward0"] == x.item() + 1
    assert {n["~op"]: n["~data"] for n in graph(y, {"x": x}, label="y")["nodes"] if "~op" in n}["CloneBackward0"] == x.item()
    assert same(graph(y, {"x": x}, label="y", held=[c]), graph(y, {"x": x}, label="y"))


def test_a_different_graph_is_told_from_the_student_side():
    w, x = _leaves()
    names = {"w": w, "x": x}
    want = graph((x + w) * (w + 1), names, label="y")
    assert _said(want, graph((x + w) * (x + 1), names, label="y")) != []
    assert _said(want, graph((x + w) + (w + 1), names, label="y")) == [Say.ROOT_OP]  # "at its root"
    assert _said(want, graph((x + 2.0) * 3.0, names, label="y")) == [Say.NO_LEAF]
    fresh = Value(0.5, requires_grad=True)
    assert Say.OTHER_LEAF in _said(want, graph((x + fresh) * (fresh + 1), names, label="y"))
    assert _said(want, graph(Value(4.0), names, label="y")) == [Say.NO_GRAPH]
    assert _said(want, graph(4.0, names, label="y")) == [Say.NOT_A_VALUE]
    b = w + 1
    with_b = graph((x + w) * b, {**names, "b": b}, label="y")
    assert _said(with_b, graph((x + w) * (x + 1), {**names, "b": b}, label="y")) == [Say.NOT_FROM]
    untracked = Value(w.item()) + 1  # y is computed from it, but no graph records it
    assert Say.NOT_FROM not in _said(with_b, graph((x + w) * untracked, {**names, "b": untracked}, label="y"))


def test_a_chain_longer_or_shorter_is_told_by_the_count_of_its_op():
    """A loop that doubled once more or once less stacks one node more or less of the op just
    above where the walk meets the leaf: that count is the difference; a leaf where another op
    stands is still told at that place."""
    w = Value(0.75, requires_grad=True)

    def doubled(times: int) -> dict:
        y = w
        for _ in range(times):
            y = y * 2
        return graph(y, {"w": w}, label="y", flat=False)

    want = doubled(3)
    assert _said(want, doubled(4)) == [Say.OP_MORE]
    assert _said(want, doubled(2)) == [Say.OP_FEWER]
    assert [dict(d.fields)["op"] for d in find(want, doubled(2))] == ["MulBackward0"]
    assert _said(graph((w + 1) * 3.0, {"w": w}, label="y"), graph(w * 3.0, {"w": w}, label="y")) != [Say.OP_FEWER]


def test_freed_saved_values_are_seen():
    w, x = _leaves()
    y = w * x
    kept = graph(y, {"w": w, "x": x}, label="y")
    y.backward()
    assert _said(kept, graph(y, {"w": w, "x": x}, label="y")) == [Say.FREED]


def test_who_wrote_a_grad():
    w, x = _leaves()
    (w * x).backward()
    by_engine = grad_of(w, "w.grad")
    assert by_engine["by"] == "backward" and not by_engine["changed"]
    by_hand = Value(1.0, requires_grad=True)
    by_hand.grad = Value(-3.0)
    assert _said(by_engine, grad_of(by_hand, "w.grad")) == [Say.GRAD_BY_HAND]
    assert _said(by_engine, grad_of(Value(1.0, requires_grad=True), "w.grad")) == [
        Say.GRAD_NEVER_WRITTEN]
    w.grad.zero_()
    assert _said(by_engine, grad_of(w, "w.grad")) == [Say.GRAD_CHANGED]


def test_a_call_reports_backward_passes_and_grad_mode():
    module = types.ModuleType("student")
    module.__file__ = __file__  # this file plays the student's

    def with_backward():
        w, x = _leaves()
        (w * x).backward()

    def under_no_grad():
        with micrograph.no_grad():
            return Value(2.0, requires_grad=True) * 3

    def leaves_it_off():
        micrograph.set_grad_enabled(False)

    facts = {}
    for fn in (with_backward, under_no_grad, leaves_it_off):
        with watching(module, fn.__name__, grad_mode=True) as call:
            fn()
        facts[fn.__name__] = call.fact
    assert micrograph.is_grad_enabled()  # restored after the block
    assert facts["with_backward"]["passes"] == 1 and not facts["with_backward"]["grad_mode_off"]
    assert facts["under_no_grad"]["grad_mode_off"] and facts["under_no_grad"]["passes"] == 0
    assert facts["leaves_it_off"]["grad_mode_left_off"]
    plain = dict(facts["with_backward"], label="f")
    assert _said(plain, dict(facts["under_no_grad"], label="f")) == [Say.NO_BACKWARD,
                                                                     Say.GRAD_MODE_OFF]
    assert Say.LEFT_OFF in _said(plain, dict(facts["leaves_it_off"], label="f"))


def test_a_call_that_leaves_grad_mode_off_is_restored_at_once_and_told_by_the_block_that_watched_it():
    module = types.ModuleType("student")
    module.__file__ = __file__  # this file plays the student's

    def leaves_it_off(w):
        micrograph.set_grad_enabled(False)
        return w

    w = Value(2.0, requires_grad=True)
    with watching(module, "leaves_it_off", grad_mode=None) as call:
        called("leaves_it_off", leaves_it_off, w)
        recorded = (w * 3).grad_fn is not None  # the probe's next graph, made inside the block
        called("leaves_it_off", lambda v: v, w)  # a later call that leaves the mode on
    assert recorded and call.fact["grad_mode_left_off"] and micrograph.is_grad_enabled()
    with watching(module, "leaves_it_on", grad_mode=None) as call:
        called("leaves_it_on", lambda v: v, w)
    assert not call.fact["grad_mode_left_off"]  # an earlier call's mode is not this block's
    called("leaves_it_off", leaves_it_off, w)  # unwatched: on again all the same, and noted
    assert micrograph.is_grad_enabled() and LEFT_OFF[-1] == "leaves_it_off"


def test_a_cut_by_detach_is_told_from_a_constant_of_the_same_value():
    """What the product saved is seen as the pass found it (backward frees it): a detach() of
    the leaf shares its number and version counter; a number, a new Value or .data does not."""
    module = types.ModuleType("student")
    module.__file__ = __file__
    held = {}
    for name, factor in (("detach", Value.detach), ("float", Value.item),
                         ("new", lambda w: Value(w.item())), ("data", lambda w: w.data)):
        w = Value(1.5, requires_grad=True)
        with watching(module, name, saves=True) as call:
            y = w * factor(w)
            y.backward()
        held[name] = detached_from(y, w, call, "y")["holds"]
    assert held == {"detach": True, "float": False, "new": False, "data": False}
    w = Value(1.5, requires_grad=True)
    with watching(module, "unwatched") as call:  # saves=False: the freed values are not kept
        y = w * w.detach()
        y.backward()
    assert detached_from(y, w, call, "y")["holds"] is None
    with watching(module, "no_backward", saves=True) as call:
        both = w * w  # no constant input: nothing to judge
        kept = w * w.detach()  # never backpropagated: its saved values are still there
    assert detached_from(both, w, call, "y")["holds"] is None
    assert detached_from(kept, w, call, "y")["holds"] is True
    want, got = check(Check.DETACHED_FROM, True, "y"), check(Check.DETACHED_FROM, False, "y")
    assert _said(want, got) == [SayCheck.NOT_DETACHED]


def test_a_call_tells_whose_no_grad_it_was_and_what_it_reached_after_a_walk():
    """The profile hook reads a frame's code only where it matters (``engine_code.watched_code``,
    ``in_walk``): grad mode off in a hook the engine's walk runs is the engine's, off after the
    walk returned is the student's; a .grad read and a call into the walk are still seen."""
    module = types.ModuleType("student")
    module.__file__ = __file__  # this file plays the student's

    def hooked_walk():
        w, x = _leaves()
        w.register_hook(lambda g: g * 1.0)  # runs with grad off: the engine's walk turned it off
        (w * x).backward()
        return w.grad

    def no_grad_after_walk():
        hooked_walk()
        with micrograph.no_grad():
            return Value(2.0, requires_grad=True) * 3

    def walk_called():
        w, x = _leaves()
        return micrograph.grad(w * x, [w])

    facts = {}
    for fn in (hooked_walk, no_grad_after_walk, walk_called):
        with watching(module, fn.__name__, grad_mode=True, reads_grad=True, engine_walk=True) as call:
            fn()
        facts[fn.__name__] = call.fact
    assert not facts["hooked_walk"]["grad_mode_off"] and facts["hooked_walk"]["read_grad"]
    assert not facts["hooked_walk"]["engine_walk"]  # backward() reached it, not this file
    assert facts["no_grad_after_walk"]["grad_mode_off"]
    assert facts["walk_called"]["engine_walk"] and not facts["walk_called"]["read_grad"]


def test_a_gradient_read_is_told_from_one_written_down():
    """The numbers .grad held (or grad() returned) during the call, however they were reached,
    against a formula of the same value."""
    module = types.ModuleType("student")
    module.__file__ = __file__

    def twice(read):
        w, x = _leaves()
        y = w * x
        y.backward(retain_graph=True)
        first = read(w)
        y.backward()
        return [first, read(w)], first

    held = {}
    for name, read in (("item", lambda w: w.grad.item()), ("float", lambda w: float(w._grad)),
                       ("value", lambda w: w.grad.clone())):
        with watching(module, name, grad_numbers=True) as call:
            numbers, _ = twice(read)
        held[name] = read_from_grad(numbers, call, "w.grad")["holds"]
    with watching(module, "formula", grad_numbers=True) as call:
        (_, first), _ = twice(lambda w: w.grad.item())
        numbers = [first, first * 2]
    held["formula"] = read_from_grad(numbers, call, "w.grad")["holds"]
    w, x = _leaves()
    with watching(module, "grad", grad_numbers=True) as call:
        dw, dx = micrograph.grad(w * x, [w, x])
    held["grad()"] = read_from_grad({"w": dw.item(), "x": [dx]}, call, "w.grad")["holds"]
    with watching(module, "nothing", grad_numbers=True) as call:
        pass
    held["nothing"] = read_from_grad([None], call, "w.grad")["holds"]
    assert held == {"item": True, "float": True, "value": True, "formula": False, "grad()": True,
                    "nothing": None}
    assert _said(check(Check.READ_FROM_GRAD, True, "w.grad"),
                 check(Check.READ_FROM_GRAD, False, "w.grad")) == [SayCheck.NOT_READ_FROM_GRAD]


def _inference(float_formula: bool) -> Value:
    """y under no_grad: from the engine's operations, or a Value of a Python formula."""
    w = Value(0.5, requires_grad=True)
    with micrograph.no_grad():
        return Value((w.item() + 1) * 2) if float_formula else (w + 1) * 2


def test_a_value_an_operation_returned_is_told_from_one_made_of_a_number():
    module = types.ModuleType("student")
    module.__file__ = __file__
    held = {}
    for name, formula in (("ops", False), ("formula", True)):
        with watching(module, name, grad_mode=True, made=True) as call:
            y = _inference(formula)
        held[name] = made_by_op(y, call, "y")["holds"]
    with watching(module, "alias", grad_mode=True, made=True) as call:
        y = Value(3.0).detach()  # an alias of a Value made from a number is no operation
    held["alias"] = made_by_op(y, call, "y")["holds"]
    with watching(module, "alias_of_op", grad_mode=True, made=True) as call:
        y = (Value(3.0) * 2).detach()
    held["alias of an op"] = made_by_op(y, call, "y")["holds"]
    with watching(module, "in_place", grad_mode=True, made=True) as call:
        y = Value(3.0)
        y += 1  # an in-place op returns the Value it changed: made before, not by it
    held["in place"] = made_by_op(y, call, "y")["holds"]
    held["float"] = made_by_op(3.0, call, "y")["holds"]
    assert held == {"ops": True, "formula": False, "alias": False, "alias of an op": True,
                    "in place": False, "float": None}
    made = {}
    for name, make in (("ops", lambda w, x: (x + w) * (w + 1)),
                       ("sum", lambda w, x: micrograph.sum([x * 2, micrograph.Value(1.0)]).exp()),
                       ("alias", lambda w, x: (w * x).detach()),
                       ("formula through an op", lambda w, x: Value((x.item() + w.item()) * 2) * 1),
                       ("detached copies", lambda w, x: (x.detach() + w.detach()) * (w.detach() + 1)),
                       ("formula beside a detach", lambda w, x: w.detach() * 0 + Value(x.item() * 2))):
        w, x = Value(0.5, requires_grad=True), Value(-2.0, requires_grad=True)
        with watching(module, name, grad_mode=True, made=True) as call, micrograph.no_grad():
            y = make(w, x)
        made[name] = made_from(y, (w, x), call, "y")["holds"]
    assert made == {"ops": True, "sum": True, "alias": True, "formula through an op": False,
                    "detached copies": True, "formula beside a detach": False}
    assert made_from(Value(1.0), (w, x), call, "y")["holds"] is None  # not made by an op: made_by_op says so
    assert _said(check(Check.MADE_FROM, True, "y"),
                 check(Check.MADE_FROM, False, "y")) == [SayCheck.NOT_MADE_FROM]
    detached = {}
    for name, make in (("detach", lambda w: (w * 2).detach()),
                       ("new", lambda w: Value(w.item() * 2))):
        with watching(module, name, made=True) as call:
            make(Value(0.5, requires_grad=True))
        detached[name] = detached_some(call, "f")["holds"]
    assert detached == {"detach": True, "new": False}
    assert _said(check(Check.MADE_BY_OP, True, "y"),
                 check(Check.MADE_BY_OP, False, "y")) == [SayCheck.NOT_BY_OP]


def test_values_and_identity():
    w, _ = _leaves()
    want = value_of(w, "x")
    assert _said(want, value_of(0.5, "x")) == [Say.NOT_A_VALUE]
    assert _said(want, value_of(w + 1, "x")) == [Say.NOT_LEAF]
    changed = Value(0.5, requires_grad=True)
    with micrograph.no_grad():
        changed.add_(0.0)
    assert _said(want, value_of(changed, "x")) == [SayInPlace.IN_PLACE]
    assert _said(same_object(w, w, "the x returned", "the leaf x given"),
                 same_object(changed, w, "the x returned", "the leaf x given")) == [Say.NEW_OBJECT]


def _sentence_tables() -> list[type[Sentence]]:
    """Every table of sentences of the judge: each ``*_sentences`` module imported, so that a
    table added later is checked without being listed here."""
    for module in pkgutil.iter_modules(grader.judge.__path__):
        if module.name == "sentences" or module.name.endswith("_sentences"):
            importlib.import_module(f"grader.judge.{module.name}")
    tables = Sentence.__subclasses__()
    assert {Say, SayCheck, SayTorch, SayPass, SayLoop} <= set(tables)
    return tables


def test_sentences_have_no_numbers_and_only_known_fields():
    allowed = {"label", "leaf", "op", "where", "type", "flag", "of", "name", "error", "text", "ran", "feeder", "root",
               "function", "constant", "partner"}  # partner: the other label of an exchanged pair
    for say in (say for table in _sentence_tables() for say in table):
        fields = {f for _, f, _, _ in string.Formatter().parse(say.value) if f}
        assert fields <= allowed, say
        assert not any(c.isdigit() for c in say.value.replace("0.", "").replace(" 0", "")), say
        with using("zh"):
            chinese = say(**{f: f for f in fields})
        assert not any(c.isdigit() for c in chinese.replace(" 0", "")), chinese


def test_fields_from_the_child_are_cleaned():
    w, x = _leaves()
    want = value_of(w, "x")
    got = dict(value_of(w + 1, "x"), grad_fn="Evil\nBackward" + "x" * 500)
    text = find(want, got)[0].sentence()
    assert "\n" not in text and len(text) < 300


def test_grad_mode_is_context_unless_asked():
    module = types.ModuleType("student")
    module.__file__ = __file__

    def clear_under_no_grad():
        with micrograph.no_grad():
            return Value(1.0) * 2

    with watching(module, "plain") as plain:
        Value(1.0) * 2
    with watching(module, "plain") as quiet:
        clear_under_no_grad()
    assert same(plain.fact, quiet.fact)  # no_grad alone is no mistake ...
    w = Value(0.5, requires_grad=True)
    want = {"call": plain.fact, "y": value_of(w * 2, "y")}
    got = {"call": quiet.fact, "y": value_of(Value(1.0), "y")}
    assert _said(want, got) == [Say.GRAD_MODE_OFF, Say.UNTRACKED]  # ... but it explains one


def test_grad_mode_as_context_is_not_told_beside_an_in_place_change():
    """x.add_(1) under no_grad where the statement writes through .data: the version counter
    moved, which grad mode does not decide; the sentence names the in-place change alone."""
    module = types.ModuleType("student")
    module.__file__ = __file__
    x_data, x_add = Value(1.0, requires_grad=True), Value(1.0, requires_grad=True)
    with watching(module, "shift") as plain:
        x_data.data.add_(1)
    with watching(module, "shift") as quiet:
        with micrograph.no_grad():
            x_add.add_(1)
    want = {"call": plain.fact, "x": value_of(x_data, "x")}
    got = {"call": quiet.fact, "x": value_of(x_add, "x")}
    assert _said(want, got) == [SayInPlace.IN_PLACE]


def test_an_error_made_by_hand_is_told_from_one_the_engine_raised():
    def engine_error():
        try:
            Value(1.0, requires_grad=True).add_(1)
        except RuntimeError as e:
            return e

    want = error_of(engine_error(), "the error returned")
    assert want["raised_by"] == "engine"
    by_hand = RuntimeError(want["error"].removeprefix("RuntimeError: "))
    assert _said(want, error_of(by_hand, "the error returned")) == [Say.NOT_RAISED]
    assert _said(want, error_of(None, "the error returned")) == [Say.NO_ERROR]
    assert _said(want, error_of(str(by_hand), "the error returned")) == [Say.NOT_AN_ERROR]


def test_an_error_kept_from_an_earlier_call_is_told_apart_from_this_calls():
    module = types.ModuleType("student")
    kept: list[RuntimeError] = []

    def second_backward(keep: bool) -> RuntimeError | None:
        y = Value(2.0, requires_grad=True) * 3
        y.backward()
        try:
            y.backward()
        except RuntimeError as e:
            kept.append(e)
        return kept[0] if keep else kept[-1]

    facts = {}
    for name, keep in (("first", True), ("own", False), ("kept", True)):
        with watching(module, name, errors=True) as call:
            error = second_backward(keep)
        facts[name] = error_of(error, "the error returned", call)
    assert [facts[n]["raised_by"] for n in facts] == ["engine", "engine", "earlier"]
    assert _said(facts["first"], facts["kept"]) == [Say.RAISED_EARLIER]
    for keep, by in ((False, "engine"), (True, "earlier")):  # errors=False: what calls returned
        with watching(module, "unrecorded") as call:
            error = second_backward(keep)
        assert error_of(error, "the error returned", call)["raised_by"] == by
    assert error_of(error, "the error returned")["raised_by"] == "engine"  # no call: no history


def test_a_grad_cleared_between_passes_is_told_from_new_leaves():
    module = types.ModuleType("student")

    def twice(clear) -> None:
        w = Value(1.5, requires_grad=True)
        y = w * w
        y.backward(retain_graph=True)
        clear(w)
        y.backward()

    def set_none(w: Value) -> None:
        w.grad = None

    found = {}
    for name, clear in (("kept", lambda w: None), ("none", set_none),
                        ("data", lambda w: w.grad.data.zero_()), ("zero_", lambda w: w.grad.zero_())):
        with watching(module, name, clears=True) as call:
            twice(clear)
        found[name] = call.fact["cleared_between"]
    assert found == {"kept": [False, False], "none": [False, True], "data": [False, True],
                     "zero_": [False, True]}
    with watching(module, "new leaves", clears=True) as call:  # a new graph: nothing cleared
        for _ in range(2):
            (Value(1.5, requires_grad=True) * 2).backward()
    assert call.fact["cleared_between"] == [False, False]


def test_an_engine_error_whose_message_was_rewritten_is_not_the_engines():
    def raised(f):
        try:
            f()
        except RuntimeError as e:
            return e

    leaf = lambda: Value(1.0, requires_grad=True).add_(1)  # noqa: E731
    want = error_of(raised(leaf), "the error returned")
    message = want["error"].removeprefix("RuntimeError: ")
    for rewrite in (lambda e: setattr(e, "args", (message,)), lambda e: e.__init__(message)):
        other = raised(lambda: Value(1.0).backward())  # the engine's, for another mistake
        rewrite(other)
        got = error_of(other, "the error returned")
        assert got["error"] == want["error"] and got["raised_by"] == "submission"
        assert _said(want, got) == [Say.NOT_RAISED]
    untouched = raised(leaf)
    untouched.args = tuple(untouched.args)  # the same message written back is still the engine's
    assert error_of(untouched, "the error returned")["raised_by"] == "engine"


def test_the_first_differing_node_is_marked_for_the_diagram():
    from grader.judge.marking import viz_graph
    from micrograph.viz.schema import OpNode, validate

    w, x = _leaves()
    a, b = x + w, w + 1
    want = graph(a * b, {"w": w, "x": x, "a": a, "b": b}, label="y")
    b2 = w * 1  # the student's b: a product where the statement adds
    got = graph(a * b2, {"w": w, "x": x, "a": a, "b": b2}, label="y")
    (found,) = find(want, got)
    assert found.say is Say.NODE_OP and dict(found.fields)["where"] == "b"
    drawn = validate(viz_graph(found.graph, found.node, "y"))
    marked = [n for n in drawn.nodes if getattr(n, "marked", False)]
    assert [(type(n), n.op) for n in marked] == [(OpNode, "MulBackward0")]
    assert viz_graph({"nodes": "forged"}, 0, "y") is None


def test_of_several_differing_nodes_the_one_the_code_made_first_is_marked_and_told():
    """Where a graph parts from the statement's at two nodes, the one the student's code made first
    (the first met reading it) is marked and told, whichever the canonical walk meets first; one
    build of the graph gives one fact, whatever else the engine made before it."""
    from grader.judge.marking import viz_graph

    w, x = _leaves()
    a, b = x + w, w + 1
    want = graph(a * b, {"w": w, "x": x, "a": a, "b": b}, label="y")

    def built(first: str) -> dict:
        made = {}
        for name in (first, "b" if first == "a" else "a"):
            made[name] = x * w if name == "a" else w * 1  # a product at each, where the statement adds
        return graph(made["a"] * made["b"], {"w": w, "x": x, **made}, label="y")

    for first in ("a", "b"):
        got = built(first)
        (found,) = find(want, got)
        assert found.say is Say.NODE_OP and dict(found.fields)["where"] == first
        drawn = viz_graph(found.graph, found.node, "y")
        marked = [n for n in drawn["nodes"] if n.get("marked")]
        edges = {e["from"]: e["to"] for e in drawn["edges"]}
        names = {n["id"]: n.get("name") for n in drawn["nodes"]}
        assert [names[edges[n["id"]]] for n in marked] == [first]
        assert built(first) == got


def test_the_difference_diagram_draws_inputs_in_the_order_the_code_gave_them():
    """The compared graph sorts a product's inputs; the drawing keeps the student's a * b."""
    from grader.judge.marking import viz_graph

    w, x = _leaves()
    for a, b in ((x * w, w + 1), (w + 1, x * w)):
        fact = graph(a * b, {"w": w, "x": x, "a": a, "b": b}, label="y")
        drawn = viz_graph(fact, 0, "y")
        names = {n["id"]: n.get("name") for n in drawn["nodes"]}
        into_root = [names[e["from"]] for e in drawn["edges"] if e["to"] == "f0"]
        assert into_root == ["a", "b"]


def test_the_difference_diagram_draws_a_constant_input_of_a_sum_as_of_any_op():
    """The compared graph leaves a sum's constant terms out (w + 1 and w + Value(1.0) alike); the
    drawing shows each as the engine recorded it, an input of its own, as it does a product's."""
    from grader.judge.marking import viz_graph

    w, x = _leaves()
    fact = graph((2.0 + w) * (x * 3.0), {"w": w, "x": x}, label="y")
    drawn = viz_graph(fact, 0, "y")
    ops = {n["id"]: n["op"] for n in drawn["nodes"] if n["kind"] == "op"}
    constants = {n["id"] for n in drawn["nodes"] if n.get("role") == "const"}
    fed = sorted(ops[e["to"]] for e in drawn["edges"] if e["from"] in constants)
    assert fed == ["AddBackward0", "MulBackward0"]
    assert find(graph((w + 1) * (x * 3.0), {"w": w, "x": x}, label="y"), fact) == []


def test_the_difference_diagram_draws_a_named_value_that_requires_no_grad_as_itself():
    """A product saves its other factor: the student's b = w.detach() + 1 there is drawn as b, with
    its number, and the 3 of x * 3 with its number, never as a nameless constant; once backward
    freed what the node saved, nothing is known of them, and they are drawn as constants."""
    from grader.judge.marking import viz_graph

    w, x = _leaves()
    b = w.detach() + 1
    y = (x + w) * b * 3.0
    fact = graph(y, {"w": w, "x": x, "b": b}, label="y")
    constants = [(n["name"], n["data"]) for n in viz_graph(fact, 0, "y")["nodes"] if n.get("role") == "const"]
    assert sorted(constants, key=str) == sorted([("b", b.item()), (None, 3.0)], key=str)
    y.backward()
    freed = viz_graph(graph(y, {"w": w, "x": x, "b": b}, label="y"), 0, "y")
    assert [(n["name"], n["data"]) for n in freed["nodes"] if n.get("role") == "const"] == [(None, None)] * 2


def test_the_difference_diagram_names_values_named_for_the_drawing_only():
    """``drawn`` names (ex11's y[j][k]) label a leaf and a constant a product saved, never compared."""
    from grader.judge.marking import viz_graph

    x, y0, y1 = Value(1.5, requires_grad=True), Value(2.0), Value(-1.0, requires_grad=True)
    loss = x * y0 + x * y1
    fact = graph(loss, {"x": x}, label="loss", drawn={"y[0][0]": y0, "y[1][0]": y1})
    assert find(graph(loss, {"x": x}, label="loss"), fact) == []
    named = {n.get("name"): n.get("role") for n in viz_graph(fact, 0, "loss")["nodes"]}
    assert named["y[0][0]"] == "const" and named["y[1][0]"] == "leaf" and named["x"] == "leaf"


def test_the_difference_diagram_draws_each_output_of_a_layer_as_a_value_of_its_own():
    """A layer's entries are outputs of one node: each is drawn once, named and numbered by ``drawn``,
    fed by the one op and feeding the sum, where one box stood for all of them."""
    from grader.judge.marking import viz_graph
    from micrograph.viz.schema import validate

    micrograph.manual_seed(3)
    row = micrograph.nn.Linear(2, 3)([[Value(0.5, requires_grad=True), Value(-1.0, requires_grad=True)]])[0]
    entries = {f"output[0][{j}]": v for j, v in enumerate(row)}
    fact = graph(micrograph.sum(row), {}, label="loss", drawn=entries)
    assert find(graph(micrograph.sum(row), {}, label="loss"), fact) == []  # drawn only, never compared
    drawn = viz_graph(fact, 0, "loss")
    validate(drawn)
    boxes = {n["name"]: n for n in drawn["nodes"] if n.get("name") in entries}
    assert {name: box["data"] for name, box in boxes.items()} == {name: v.item() for name, v in entries.items()}
    assert sorted(e["from"] for e in drawn["edges"] if e["to"] == "f0") == sorted(b["id"] for b in boxes.values())


def test_a_backward_pass_graph_draws_its_leaves_by_name_but_compares_them_unnamed():
    """``graph_below``'s ``drawn`` names leaves in the diagram only: the same graph with and
    without those names compares equal, and the drawing labels each leaf."""
    from grader.judge.marking import viz_graph
    from grader.spec.graph import graph_below

    w, x = _leaves()
    y = (x + w) * (w + 1)
    named = graph_below(y.grad_fn, label="f's backward", drawn={"w": w, "x": x})
    assert find(graph_below(y.grad_fn, label="f's backward"), named) == []
    leaves = [n.get("name") for n in viz_graph(named, 0, "y")["nodes"] if n.get("role") == "leaf"]
    assert sorted(leaves) == ["w", "x"]


def test_forged_facts_from_the_child_never_break_the_explanation():
    w, x = _leaves()
    y = (x + w) * (w + 1)
    y.backward()
    want = {"g": graph(y, {"w": w, "x": x}, label="y"), "v": value_of(y, "y"),
            "d": grad_of(w, "w.grad"), "e": error_of(None, "e"),
            "c": {"fact": "call", "label": "f", "passes": 1, "~kept_graph": [False]}}
    junk = [None, 1, "x", [], {}, [None], {"fact": "graph"}, {"a": [1, 2]}, 10**400, 1e308]
    forged_nodes = [[1, "a"], [{"op": 3, "in": "abc"}], [{"op": "MulBackward0", "in": [99, -1]}],
                    [{"op": "MulBackward0", "in": [0, 0]}] * 3]
    for kind, fact in want.items():
        for bad in junk:
            find({kind: fact}, {kind: bad})
            find({kind: fact}, {kind: {**fact, **{k: bad for k in fact if k != "fact"}}})
    for nodes in forged_nodes:
        for found in find(want, {**want, "g": {**want["g"], "nodes": nodes}}):
            found.sentence()


def test_a_plain_result_is_told_by_its_shape():
    paths = [["MulBackward0", "AddBackward0"], ["MulBackward0", "AddBackward0"]]
    want = result_of(paths, "paths(y, w)")
    # two paths of the same names: one of them left out is told as a repeat left out
    assert _said(want, result_of(paths[:1], "paths(y, w)")) == [Say.RESULT_REPEATS_LEFT_OUT]
    two = [["MulBackward0", "AddBackward0"], ["MulBackward0", "MulBackward0"]]
    assert _said(result_of(two, "p"), result_of(two[:1], "p")) == [Say.RESULT_FEWER]
    assert _said(want, result_of(paths * 2, "paths(y, w)")) == [Say.RESULT_MORE]
    # one name too many at the end of the first path: the student's extra name is told
    longer = find(want, result_of([p + ["AccumulateGrad"] for p in paths], "p"))
    assert [d.say for d in longer] == [Say.RESULT_MORE_LAST]
    assert '"AccumulateGrad", is one too many' in longer[0].sentence()
    # any other name one too many is told as more entries only: naming it would tell the
    # statement's list (a walk that goes on past a leaf to an operation)
    past_a_leaf = find(want, result_of([p + ["MulBackward0"] for p in paths], "p"))
    assert [d.say for d in past_a_leaf] == [Say.RESULT_MORE]
    assert _said(want, result_of([p + ["AccumulateGrad", "AccumulateGrad"] for p in paths], "p")) == [Say.RESULT_MORE]
    other = [["MulBackward0", "AddBackward0"], ["AddBackward0", "MulBackward0"]]
    assert _said(result_of(other, "p"), result_of(other[::-1], "p")) == [Say.RESULT_ORDER]
    assert _said(result_of(1.5, "g"), result_of(Value(2.5), "g")) == [Say.RESULT_NUMBER]
    assert _said(result_of(1.5, "g"), result_of(Value(1.5), "g")) == []
    assert _said(result_of(1.5, "g"), result_of(None, "g")) == [Say.RESULT_NONE]
    assert _said(result_of(None, "g"), result_of(0.0, "g")) == [Say.RESULT_NOT_NONE]
    assert _said(want, result_of(object(), "p")) == [Say.RESULT_TYPE]
    assert "yours is of type object." in find(want, result_of(object(), "p"))[0].sentence()


def test_one_list_appended_again_and_again_is_told_where_it_is_no_entry_of_the_statements():
    trail: list[str] = []
    aliased = [trail, trail]  # one trail appended twice, emptied when the walk ended
    want = lists_of([["MulBackward0", "AddBackward0"], ["MulBackward0", "AddBackward0"]], "paths(y, w)")
    assert _said(want, lists_of(aliased, "paths(y, w)")) == [Say.ENTRIES_ONE_LIST]
    assert _said(want, result_of(aliased, "paths(y, w)")) == [Say.RESULT_EMPTY]  # [0] is empty
    # one list shared, but a path of the statement's (one path found twice): not that mistake
    path = ["MulBackward0", "AddBackward0"]
    assert _said(lists_of([path], "p"), lists_of([path, path], "p")) == [Say.RESULT_MORE]
    # the statement's own result shares those entries too (both inputs of w * w): not told as shared
    shorter = ["MulBackward0"]
    statement = lists_of([path, path, shorter], "p")
    assert statement[SHARED] == [[0, 1]]
    assert Say.ENTRIES_ONE_LIST not in _said(statement, lists_of([shorter, shorter, path], "p"))
    other = ["AddBackward0"]
    assert _said(statement, lists_of([other, other, other], "p")) == [Say.ENTRIES_ONE_LIST]  # 0, 1 and 2 shared


def test_a_result_a_fresh_import_does_not_return_is_told_as_state_not_as_its_entries():
    """A chain kept by id(y) is another y's where y took a freed y's id (on one run and not on the
    next): the call beside it in a fresh import returns its own, and the state is what is told."""
    label = "for y = c - w, grad_fn_chain(y)"
    want = [result_of(["SubBackward0"], label), check(Check.SAME_FRESH, True, label)]
    for kept in ([], ["SubBackward0", "ExpBackward0"], ["MulBackward0"]):
        assert _said(want, [result_of(kept, label), check(Check.SAME_FRESH, False, label)]) == [SayState.NOT_SAME_FRESH]
    assert _said(want, [result_of([], label), check(Check.SAME_FRESH, True, label)]) == [Say.RESULT_EMPTY]


def test_a_missing_key_is_told_as_missing_not_as_none():
    there, missing = entry_of(0.0, "backprop(g)", "w", True), entry_of(None, "backprop(g)", "w", False)
    told = find(there, missing)
    assert [d.say for d in told] == [Say.NO_ENTRY]
    assert told[0].sentence() == "backprop(g) has no entry for w, where the statement's has one."
    assert _said(missing, there) == [Say.EXTRA_ENTRY]
    assert _said(there, entry_of(None, "backprop(g)", "w", True)) == [Say.RESULT_NONE]  # a key that holds None


def test_a_difference_alike_on_several_graphs_is_told_once():
    def more(graph: str, call: str = "grad_fn_chain(y)") -> Difference:
        return difference(Say.RESULT_MORE, label=f"for y = {graph}, {call}")
    told = per_graph([more("c - w"), more("w * (w + 1)"), more("c - w", "paths(y, w)"),
                      difference(Say.RESULT_FEWER, label="for y = w * x, grad_fn_chain(y)")])
    assert [d.sentence() for d in told] == [
        "for y = c - w, grad_fn_chain(y) has more entries than the statement's; the same holds "
        "for y = w * (w + 1).",
        "for y = c - w, paths(y, w) has more entries than the statement's.",  # another call
        "for y = w * x, grad_fn_chain(y) has fewer entries than the statement's."]  # another kind


def test_a_judged_property_is_told_only_when_it_fails():
    want = check(Check.PARENTS_FIRST, True, "your order")
    assert _said(want, check(Check.PARENTS_FIRST, False, "your order")) == [SayWalk.CHILD_FIRST]
    assert _said(want, check(Check.PARENTS_FIRST, None, "your order")) == []  # not judged
    assert _said(want, {**want, "check": "forged"}) == []


def test_every_kind_is_told_before_one_kind_twice():
    many = [difference(Say.RETAINS, label=n) for n in ("a", "b", "y")]
    found = many + [difference(Say.GRAD_WRITTEN, label="b.grad")]
    assert [d.say for d in chosen(found, 2)] == [Say.RETAINS, Say.GRAD_WRITTEN]
    assert chosen(found, 4) == found


def test_a_context_retain_graph_sentence_only_explains():
    facts = {}
    for name, keep in (("kept", True), ("freed", False)):
        with watching(types.ModuleType("m"), "f") as call:
            w = Value(1.0, requires_grad=True)
            (w * w).backward(retain_graph=keep)
        facts[name] = call.fact
    assert _said(facts["freed"], facts["kept"]) == []  # kept a graph nobody runs again
    error = error_of(RuntimeError("x"), "the error returned")
    assert Say.KEPT_MORE in _said([facts["freed"], error], [facts["kept"], error_of(None, "e")])


def test_a_difference_is_told_for_the_first_entry_of_a_list_whatever_names_it():
    labels = ["vjp(x1, loss1, v1)[0]", "vjp(x1, loss1, v1)[1]", "x[0][0]", "x[0][1]", "losses[0]", "losses[1]"]
    want = [value_of(Value(1.0, requires_grad=True), label) for label in labels]
    got = [value_of(Value(1.0), label) for label in labels]
    told = [d.fields for d in find(want, got)]
    assert [dict(fields)["label"] for fields in told] == ["vjp(x1, loss1, v1)[0]", "each entry of x", "losses[0]"]


def test_a_difference_of_a_matrix_is_told_of_every_entry_it_holds_for_not_of_each_row_s_first():
    """Every entry of a matrix alike is told of the matrix; some entries, each by name: the first
    entry of each row alone ("x[0][0]; the same holds for x[1][0]") read as if the others agreed.
    A label two calls share is told of the whole only where both calls' entries differ."""
    labels = [f"x[{i}][{j}]" for i in range(2) for j in range(3)]
    want = [value_of(Value(1.0, requires_grad=True), label) for label in labels]
    every = find(want, [value_of(Value(1.0), label) for label in labels])
    assert [dict(d.fields)["label"] for d in every] == ["each entry of x"]
    first_row = find(want, [value_of(Value(1.0, requires_grad=label >= "x[1]"), label) for label in labels])
    assert [dict(d.fields)["label"] for d in first_row] == ["x[0][0]", "x[0][1]", "x[0][2]"]
    one_call = find(want + want, [value_of(Value(1.0), label) for label in labels] + want)
    assert [dict(d.fields)["label"] for d in one_call] == labels


def test_a_sentence_about_a_value_names_it_once():
    """A Value's label may be long ("w (first call; second call)"): a sentence about it says
    it once, and "it" or "the statement's" after that."""
    about_a_value = (Say.NOT_A_FLOAT, Say.NOT_A_VALUE, Say.IS_LEAF, Say.UNTRACKED, Say.NOT_LEAF, Say.OTHER_OP,
                     Say.REQUIRES_GRAD, Say.RETAINS, Say.NOT_RETAINED, SayInPlace.NEVER_IN_PLACE,
                     SayInPlace.NEVER_IN_PLACE_DATA, SayInPlace.IN_PLACE, SayInPlace.IN_PLACE_MORE,
                     SayInPlace.IN_PLACE_FEWER, Say.DATA)
    for language in ("en", "zh"):
        with using(language):
            for say in about_a_value:
                fields = {f for _, f, _, _ in string.Formatter().parse(say.value) if f}
                told = say(**{f: "LABEL" if f == "label" else f for f in fields})
                assert told.count("LABEL") == 1, told


def test_a_pass_that_never_started_walked_no_graph_and_its_call_says_why():
    """``graph_below`` of a call that ran no backward pass has no node: told as no graph walked
    (not as a Value of type None), and not at all beside the sentence that no pass ran."""
    from grader.judge.causes import follows
    from grader.spec.graph import graph_below

    w, x = _leaves()
    y = (x + w) * (w + 1)
    found = find(graph_below(y.grad_fn, label="f's backward"), graph_below(None, label="f's backward"))
    assert [d.say for d in found] == [Say.NO_PASS_GRAPH]
    assert follows(Say.NO_PASS_GRAPH, "f's backward", {(Say.NO_BACKWARD, "f")})
    assert not follows(Say.NOT_A_VALUE, "y", {(Say.NO_BACKWARD, "f")})


def test_a_graph_recorded_against_the_flags_is_not_told_again_as_reaching_another_leaf():
    """The flag sentence says why the backward's graph reaches another leaf: that graph
    difference is not told beside it."""
    from grader.judge.causes import follows

    for cause in (SayCheck.FLAGS_AGAINST, SayCheck.FLAGS_IGNORED, SayCheck.FLAGS_SWAPPED):
        assert follows(Say.OTHER_LEAF, "leaf_grads's backward", {(cause, "leaf_grads(w, x, False, True)")})
    assert not follows(Say.OTHER_LEAF, "leaf_grads's backward", {(Say.GRAD_NUMBER, "w.grad")})


def test_a_number_that_depends_on_an_earlier_call_is_not_told_as_a_local_factor_slip():
    """A memo kept between calls gives numbers that may match a slip's pattern by chance: the
    state sentence is their cause, and the local-factor sentences are not told beside it."""
    from grader.judge.causes import follows

    for state in (SayState.NOT_SAME_AGAIN, SayState.NOT_SAME_FRESH, SayState.FIRST_CHANGED):
        for slip in (SayCheck.PRODUCT_OWN_FACTOR, SayCheck.PRODUCT_FACTOR_ONE, SayCheck.LAST_INPUT_LEFT_OUT):
            assert follows(slip, "for y = w * x, grad_by_paths(y, x)", {(state, "grad_by_paths")})


def test_a_sentence_begun_by_a_value_named_a_keeps_its_name():
    """``a`` is a Value's name, not the article: neither a label after it nor another language
    makes it ``A``; a sentence begun by the article still takes a capital, in either track."""
    for words in (ENGLISH_WORDS, ANY_WORD):
        labelled = difference(Say.NOT_LEAF, label="a (neither leaf requires grad)", op="AddBackward0")
        assert capitalized(labelled.sentence(), words).startswith("a (neither leaf requires grad) is not a leaf")
        assert capitalized(difference(Say.NOT_LEAF, label="a", op="AddBackward0").sentence(), words).startswith("a is")
        with using("zh"):
            assert capitalized(difference(Say.NOT_LEAF, label="a", op="AddBackward0").sentence(), words).startswith("a")
        article = difference(Say.NOT_LEAF, label="a copy of w", op="AddBackward0")
        assert capitalized(article.sentence(), words).startswith("A copy of w")


def test_a_cause_told_for_a_whole_test_keeps_its_consequences_unsaid():
    """A pass that never called local_grads runs no node, so its counts differ; a call that left
    the leaves' .grad set makes a later call on the same graph add to them; a record read after
    the last pass holds other numbers: the cause is told, not each number it changed."""
    def told(*pairs: tuple[dict, dict]) -> list[Say]:
        return _said({str(n): want for n, (want, _) in enumerate(pairs)},
                     {str(n): got for n, (_, got) in enumerate(pairs)})

    count = (result_of(3, "the number of nodes backprop(diamond) ran local_grads on"),
             result_of(0, "the number of nodes backprop(diamond) ran local_grads on"))
    assert told(count) == [Say.RESULT_NUMBER]
    assert told(count, (check(Check.CALLS_LOCAL_GRADS, True, "backprop"),
                        check(Check.CALLS_LOCAL_GRADS, False, "backprop"))) == [SayWalk.NO_LOCAL_GRADS]
    again = (check(Check.SAME_AGAIN, True, "backprop"), check(Check.SAME_AGAIN, False, "backprop"))
    assert told(again) == [SayState.NOT_SAME_AGAIN]
    assert told(again, (check(Check.GRADS_UNTOUCHED, True, "backprop"),
                        check(Check.GRADS_UNTOUCHED, False, "backprop"))) == [SayCheck.GRADS_TOUCHED]
    record = (result_of(1.5, "f(x)[0][0]"), result_of(3.0, "f(x)[0][0]"))
    assert told(record, (check(Check.READ_IN_TURN, True, "f(x)[0]"),
                         check(Check.READ_IN_TURN, False, "f(x)[0]"))) == [SayCheck.READ_LATE]


def test_capitals_are_given_once_by_the_track_and_never_inside_a_quote():
    """Every sentence of a feedback is begun once, by its track's words: the build track's any
    plain word, elsewhere only the words never code (``backward`` may be the student's
    function); the student's own quoted text keeps its letters."""
    told = 'backward wrote x.grad. the hook raised ValueError: "bad input. the rest". reading y.grad warns.'
    assert capitalized(told, ENGLISH_WORDS) == ('backward wrote x.grad. The hook raised ValueError: '
                                                '"bad input. the rest". Reading y.grad warns.')
    assert capitalized(told, ANY_WORD).startswith("Backward wrote x.grad. The hook")
    assert '"bad input. the rest"' in capitalized(told, ANY_WORD)
    assert capitalized("y is None. w.grad is 0.", ANY_WORD) == "y is None. w.grad is 0."


def test_a_judged_cause_is_told_first_and_the_bare_sentence_it_explains_not_at_all():
    """A result's bare sentence (a different number) is told after the sentences that say how,
    and not at all where a failed CHECK on that result, or on another entry of its list, says
    how it came about; one about an entry of a judged call still names the entry, after it."""
    want = {"n": result_of([1.0], "f(x)"), "v": value_of(Value(2.0), "v"), "c": check(Check.FLAGS_KEPT, True, "f(x)")}
    got = {"n": result_of([3.0], "f(x)"), "v": value_of(Value(2.0, requires_grad=True), "v"),
           "c": check(Check.FLAGS_KEPT, True, "f(x)")}
    assert _said(want, got) == [Say.REQUIRES_GRAD, Say.RESULT_NUMBER]
    got["c"] = check(Check.FLAGS_KEPT, False, "f(x)")
    assert _said(want, got) == [SayCheck.FLAGS_IGNORED, Say.REQUIRES_GRAD, Say.RESULT_NUMBER]  # f(x)[0] named
    alike = {"a": result_of([1.0, 2.0], "f(x)"), "c": check(Check.READ_IN_TURN, True, "f(x)[0]")}
    assert _said(alike, {"a": result_of([2.0, 2.0], "f(x)"), "c": {**check(Check.READ_IN_TURN, False, "f(x)[0]"),
                                                                   "~first": True}}) == [SayCheck.FIRST_READ_LATE]
    losses = {"a": result_of(1.0, "losses[1]"), "c": check(Check.FIRST_LOSS, True, "losses[0]")}
    assert _said(losses, {"a": result_of(3.0, "losses[1]"), "c": check(Check.FIRST_LOSS, False, "losses[0]")}) == \
        [SayStep.OTHER_LOSS]


def test_gradients_cleared_before_each_backward_are_told_once_for_every_grad():
    """A loop that cleared before each backward, not after recording, leaves each .grad as the
    last backward wrote it: told once, not again as "still exactly what backward wrote" of a
    leaf the statement changed in place, nor as "holds a gradient" of one meant to be None."""
    w, x = _leaves()
    (w * x).backward()
    left = {"w": grad_of(w, "w.grad"), "x": grad_of(x, "x.grad")}
    want = {"w": {**left["w"], "by": "nobody", "grad": None}, "x": {**left["x"], "changed": True}}
    got = {"w": {**left["w"], "~cleared_before_backward": True}, "x": left["x"]}
    assert _said(want, got) == [SayClear.CLEARED_BEFORE_ONLY]
    assert _said(want, {**got, "w": left["w"]}) == [Say.GRAD_WRITTEN, Say.GRAD_NOT_CHANGED]


def test_an_object_an_earlier_call_returned_carries_what_later_calls_did_to_it():
    """A Value returned again from an earlier call is told as kept between calls; what the calls
    since did to it (changed in place, another number) is not told as this call's doing."""
    from grader.spec.repeat import Returned

    returned = Returned("the w f returned", "the w an earlier call of f returned")
    w = Value(1.0, requires_grad=True)
    assert returned.new(w)["same"] is False
    with micrograph.no_grad():
        w.add_(1.0)  # what a later call did to the Value it kept
    want = {"new": Returned("the w f returned", "the w an earlier call of f returned").new(Value(1.0)),
            "w": value_of(Value(1.0, requires_grad=True), "w")}
    assert _said(want, {"new": returned.new(w), "w": value_of(w, "w")}) == [SayState.KEPT_OBJECT]
    assert _said(want, {"new": same_object(w, w, "the w f returned", "the w"), "w": value_of(w, "w")}) == \
        [Say.SAME_OBJECT, SayInPlace.IN_PLACE]


def test_an_object_every_call_shares_is_no_earlier_calls_result():
    """None, a small int, an interned str or the empty tuple, returned by two calls, is one object
    in calls that kept nothing: only a Value (or a list, dict or exception) returned again is one kept."""
    from grader.spec.repeat import Returned

    returned = Returned("the y f returned", "the y an earlier call of f returned")
    for shared in (None, 3, "y", (), True, None, 3, "y", (), True):
        assert returned.new(shared)[CONTEXT + "earlier_call"] is False
    for made in (Value(1.0), [], {}, ValueError("kept")):
        assert [returned.new(made)[CONTEXT + "earlier_call"] for _ in range(2)] == [False, True]


def test_a_flag_read_the_other_way_round_and_grads_set_to_none_are_told_once():
    """jacobian_rows reading zero_between the other way round accounts for its rows and x's
    .grad; a .grad set to None by the student's code is told for its first leaf, not again for
    each leaf and call."""
    def told(*pairs: tuple[dict, dict]) -> list[Difference]:
        return find({str(n): want for n, (want, _) in enumerate(pairs)},
                    {str(n): got for n, (_, got) in enumerate(pairs)})

    row = (result_of(1.5, "jacobian_rows(x1, loss1, True)[1][0]"),
           result_of(3.0, "jacobian_rows(x1, loss1, True)[1][0]"))
    flag = (check(Check.ZERO_BETWEEN_READ, True, "jacobian_rows"),
            check(Check.ZERO_BETWEEN_READ, False, "jacobian_rows"))
    assert [d.say for d in told(row)] == [Say.RESULT_NUMBER]
    assert [d.say for d in told(row, flag)] == [SayCheck.ZERO_BETWEEN_SWAPPED]
    backward = {"fact": "grad", "type": "Value", "grad": 2.0, "by": "backward", "changed": False}
    cleared = {**backward, "grad": None, "by": "nobody", "~set_to_none": True}
    leaves = [({**backward, "label": f"x{n}[0][{k}].grad"}, {**cleared, "label": f"x{n}[0][{k}].grad"})
              for n in (1, 2) for k in (0, 1)]
    assert [(d.say, dict(d.fields)["label"]) for d in chosen(told(*leaves))] == [
        (SayClear.NONE_WHERE_WRITTEN, "x1[0][0].grad")]  # the statement's leaves what backward wrote
    assert [d.say for d in told(({**backward, "by": "hand"}, cleared))] == [Say.GRAD_NONE_BY_HAND]


def test_numbers_returned_as_values_where_floats_are_asked_are_told_once():
    """A Value where a float is asked for comes from one line of the student's code: told for
    the first entry it is true of, not again for every leaf and every graph."""
    labels = ("backprop(diamond_a)[a]", "backprop(documents_a)[w]", "backprop(documents_a)[x]")
    want = [float_of(0.5, label) for label in labels]
    got = [float_of(Value(0.5), label) for label in labels]
    told = [d.sentence() for d in chosen(per_graph(find(want, got)))]
    assert told == ["backprop(diamond_a)[a] is of type Value, not a Python float."]


def test_a_difference_alike_on_several_calls_and_entries_is_told_once_naming_them():
    """Calls named apart by a letter (x_a, x_b) and their entries: one sentence for the first,
    naming the others; another kind, or another name than the call's letter, stays apart."""
    def number(label: str) -> Difference:
        return difference(Say.RESULT_NUMBER, label=label)
    told = per_graph([number("vjp(x_a, loss_a, v_a)[0]"), number("vjp(x_a, loss_a, v_a)[1]"),
                      number("vjp(x_b, loss_b, v_b)[0]"), number("backprop(diamond_a)[a]"),
                      number("backprop(diamond_b)[w]"), difference(Say.RESULT_NONE, label="vjp(x_c, loss_c, v_c)[0]")])
    assert [d.sentence() for d in told] == [
        "vjp(x_a, loss_a, v_a)[0] is a different number from the statement's; the same holds for "
        "vjp(x_a, loss_a, v_a)[1], vjp(x_b, loss_b, v_b)[0].",
        "backprop(diamond_a)[a] is a different number from the statement's.",
        "backprop(diamond_b)[w] is a different number from the statement's.",  # another leaf
        "vjp(x_c, loss_c, v_c)[0] is None, where the statement's is not."]  # another kind


def test_a_first_loss_of_an_earlier_call_is_told_as_state_alone():
    want = {"apart": check(Check.FIRST_KEPT, True, "train"), "first": check(Check.FIRST_LOSS, True, "losses[0]")}
    got = {"apart": check(Check.FIRST_KEPT, False, "train"), "first": check(Check.FIRST_LOSS, False, "losses[0]")}
    assert _said(want, got) == [SayState.FIRST_CHANGED]  # the list kept starts with an earlier call's loss
    assert _said(want, {**want, "first": got["first"]}) == [SayStep.OTHER_LOSS]


def test_values_under_exchanged_names_are_told_as_an_exchange_and_nothing_else():
    w, x = _leaves()
    a, b = x + w, w + 1
    want = [value_of(a, "a"), value_of(b, "b")]
    assert _said(want, [value_of(b, "a"), value_of(a, "b")]) == [Say.NAMES_EXCHANGED]


def test_one_names_values_over_several_runs_or_one_alike_value_are_no_exchange():
    w, x = _leaves()
    a, b = x + w, w + 1
    runs = [value_of(a, "w"), value_of(b, "w")]  # one name's Value in two runs, as by_key lists them
    assert Say.NAMES_EXCHANGED not in _said(runs, runs[::-1])
    # b's Value under "a" while "b" holds its own: a number alike, not an exchange
    assert Say.NAMES_EXCHANGED not in _said([value_of(a, "a"), value_of(b, "b")], [value_of(b, "a"), value_of(b, "b")])


def test_a_number_the_tests_other_calls_move_is_told_only_where_nothing_else_differs() -> None:
    """A VALUE fact marked FOLLOWS_CALLS (a model the probe trains after the test's other calls):
    its other number is told alone, and left unsaid beside a difference of those calls, whose slip
    would move it too; its label plays no part."""
    moved = [{**value_of(Value(n), "any label"), FOLLOWS_CALLS: True} for n in (1.5, 2.5)]
    loss = [value_of(Value(n), "the loss train returned") for n in (0.5, 0.75)]
    assert [d.say for d in find([moved[0]], [moved[1]])] == [Say.DATA]
    said = find([moved[0], loss[0]], [moved[1], loss[1]])
    assert [(d.say, dict(d.fields)["label"]) for d in said] == [(Say.DATA, "the loss train returned")]
