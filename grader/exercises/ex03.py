"""ex03 retain_grad: tests for non-leaf gradients, the warning on reading them, and retain_grad().

The first exercise most students grade, so every failed test says what the submission did:
who wrote each .grad (backward through retain_grad, or an assignment), whether retain_grad()
was called on a node, how many backward passes ran, and whether the non-leaf warnings happened
(so a None was read, not written down).  Every function has a public test; hidden tests
re-check on other inputs (zeros, a = b) and other choices of names.
``backward_retaining`` and ``grads_after_backward`` are called again on other inputs and on the
first ones once more (``grader.spec.repeat``): leaves or a graph kept between calls show.  The given ``build_graph`` is watched
where the functions tested call it (``grader.spec.given``): an edit made there is told as
build_graph's.
"""

from __future__ import annotations

import functools
from typing import Any

from micrograph import Value, enable_grad, mul
from micrograph.value import NONLEAF_GRAD_WARNING, shares_storage  # the engine's own text, by identity
from micrograph.i18n import N_  # a probe's message, translated where it is shown

from grader.spec import Exercise
from grader.spec.facts import ALIASED, CONTEXT, NOT_PLAIN, Check
from grader.spec.probe import (call_text, caught_warnings, dict_of, in_call, first_line, grad, num, plain_dict,
                               shape_error, type_name)
from grader.spec.raised_in_call import told_in_call
from grader.spec.origins import read_from_grad, read_written, returned_root, seeded_one
from grader.spec.caller_filters import caller_ignores
from grader.spec.caller_grads import hold, kept
from grader.spec.given_untracked import told_if_untracked
from grader.spec.given import NODES, documents_graph, given_calls, grad_itself, grad_left, left_whole, retained_after
from grader.spec.import_mode import filters_kept, import_warnings
from grader.spec.one_leaf import aliased, value_per_name
from grader.spec.helpers import arguments_of, passed_in_order
from grader.spec.made_from import operands
from grader.spec.mode_restored import called
from grader.spec.graph import graph_below
from grader.spec.provenance import check, grad_of, keys_asked, list_kept, result_of, value_of, watching
from grader.spec.repeat import calls_apart, fresh_copy
from grader.spec.retained_equal import retained_as_equal
from grader.spec.call import Call

EXERCISE = Exercise(
    "ex03", "retain_grad keeps a non-leaf's gradient", module="ex03_retain_grad"
)

NON_LEAF_SHOWN = "UserWarning: The .grad attribute of a Tensor that is not a leaf Tensor is being accessed"  # its start
READ_IT = "read v.grad itself and return the text of the warning that read raised"
FROM_WARNING = ("return the text of the warning reading v.grad raised, str(caught[0].message), "
                "not a text written down in your code")


def _nodes(g: object) -> dict[str, Any]:
    """The five Values of a returned graph dict."""
    g = dict_of(g, NODES, "backward_retaining",
                N_("backward_retaining must return the dict of the five Values w, x, a, b, y"))
    return {name: g[name] for name in NODES}


def _retaining(sub, w: float, x: float, names: list[str]) -> dict[str, Any]:
    """One call of backward_retaining: every node's .grad and who wrote it, the retain flags,
    and the backward passes the call ran, each labelled with the call (its names), as a test's
    calls with other names differ in what is true of them."""
    named = call_text("backward_retaining", "w", "x", names)
    passed = list(names)  # the caller's list: the statement's code only reads it
    with told_in_call(named), arguments_of(sub, "build_graph") as arguments, given_calls(sub) as given, \
            watching(sub, named) as call, told_if_untracked(given, "backward_retaining", "build_graph", call.offs):
        answer = sub.backward_retaining(w, x, passed)
    keys = keys_asked(answer, NODES, named, extra=True)
    if keys["holds"] is False:  # a dict without some of the five: told by its keys, nothing to look at
        return {"keys": keys}
    g = _nodes(answer)
    alias = aliased(g)  # one Value under two names ("b": a): told as that, nothing said through either name
    equal = retained_as_equal(sub, g, names)

    def of(name: str, fact: dict[str, Any]) -> dict[str, Any]:
        return {**fact, ALIASED: alias[name]} if name in alias else fact

    return {
        "keys": keys,
        "given": given.fact,
        "passed": passed_in_order(arguments, w, x, "backward_retaining", "build_graph"),
        "names": list_kept(passed, names, named, "names"),
        "one_per_name": value_per_name(g, named),
        "grads": [of(n, grad_of(g[n], in_call(f"{n}.grad", named))) for n in NODES],
        "retains_grad": [of(n, {**value_of(g[n], in_call(n, named)),  # retained for equalling a named node
                                **({CONTEXT + "equal_named": equal[n]} if n in equal else {})}) for n in ("a", "b", "y")],
        "backward": call.fact, "seed": seeded_one(call.root_grads, named),  # y.backward(Value(2.0)): every .grad scaled
        "root": of("y", returned_root(g["y"], call, call.label)),
    }


RETAIN_FEEDBACK = ("Call retain_grad() on each node named, and only those, before y.backward(); "
                   "the others keep .grad None.")


@EXERCISE.test("a.grad after retain_grad", points=2, public=True, feedback=RETAIN_FEEDBACK)
def retained_a(sub):
    return [_retaining(sub, w, x, ["a"]) for w, x in [(0.5, -3.0), (2.0, 4.0)]]


@EXERCISE.test("retain_grad on exactly the nodes named", points=2, public=True,
               feedback=RETAIN_FEEDBACK)
def retained_named_public(sub):
    # called again, and first in a fresh import: names kept from an earlier call (a test's) show as that
    return {"runs": [_retaining(sub, w, x, names) for names, w, x in [(["b", "y"], 1.5, -0.5), ([], -0.5, 1.0)]],
            "apart": calls_apart(sub, lambda m, case: m.backward_retaining(*case), _grads_held,
                                 (2.5, -1.0, ["b"]), (0.75, 1.25, ["a", "y"]), "backward_retaining")}


@EXERCISE.test("retained grads on other inputs", points=2, feedback=RETAIN_FEEDBACK)
def retained_varied(sub):
    cases = [(["y"], -3.0, 2.0), (["a", "y"], 0.25, 8.0), (["b", "a", "y"], 4.0, -4.5),
             (["a", "b"], -1.0, 0.0), (["b"], 0.0, 0.0), (["a", "b"], 3.25, -2.25)]
    return {"runs": [_retaining(sub, w, x, names) for names, w, x in cases],
            "apart": calls_apart(sub, lambda m, case: m.backward_retaining(*case), _grads_held,
                                 (1.5, -2.0, ["a", "b"]), (-0.5, 3.0, ["y"]), "backward_retaining")}


def _grads_held(g: object) -> list[Any] | str:
    """What each of the five nodes of a returned graph holds in .grad (None, a number), read
    without the non-leaf warning: a first call's result looked at again after another call (a
    dict without the five: its keys, which its KEYS_ASKED fact tells)."""
    g = plain_dict(g)
    if type(g) is dict and not set(NODES) <= set(g):
        return sorted(map(repr, g))
    return [grad(v) for v in _nodes(g).values()]


@EXERCISE.test("retain_grad on every choice of names", points=1, feedback=RETAIN_FEEDBACK)
def retained_every_choice(sub):
    choices = [[], ["a"], ["b"], ["y"], ["a", "b"], ["a", "y"], ["b", "y"], ["y", "b", "a"],
               ["a", "a"]]
    return [_retaining(sub, 1.25, -3.5, names) for names in choices]


def _grad_or_none(g: object) -> float | str | None:
    """What a student returned for a .grad: None, the number of a Value, or the kind of object
    it is instead.  The statement asks for exactly what .grad holds (a Value or None), as the
    documents print it: a float read from it with item() is another kind of result."""
    if g is None:
        return None
    return num(g) if isinstance(g, Value) else f"{NOT_PLAIN}{type_name(g)}"


def _without_retain(sub, w: float, x: float) -> dict[str, Any]:
    with caught_warnings() as seen, arguments_of(sub, "build_graph") as arguments, given_calls(sub) as given, \
            watching(sub, "grads_after_backward", grad_numbers=True, reads_grad=True) as call, \
            told_if_untracked(given, "grads_after_backward", "build_graph", call.offs):  # build_graph called inside no_grad
        answer = plain_dict(sub.grads_after_backward(w, x))
    keys = keys_asked(answer, NODES, "grads_after_backward(w, x)", extra=True)
    if keys["holds"] is False:  # a dict without some of the five: told by its keys, nothing to look at
        return {"keys": keys}
    if type(answer) is not dict:
        raise shape_error(N_("grads_after_backward must return a dict of the five .grad values"),
                          "grads_after_backward", answer)
    # a node read twice warns twice: what counts is that a, b and y were each read, and warned
    warned = min(3, sum(1 for text in seen if text.startswith(NON_LEAF_SHOWN)))
    return {
        "keys": keys, "given": given.fact,
        "passed": passed_in_order(arguments, w, x, "grads_after_backward", "build_graph"),
        "seed": seeded_one(call.root_grads, "grads_after_backward"),
        "leaves": [result_of(_grad_or_none(answer[n]), f"grads_after_backward(w, x)['{n}']")
                   for n in ("w", "x")],
        "itself": [grad_itself(answer[n], given.returned, n, f"grads_after_backward(w, x)['{n}']") for n in ("w", "x")],
        "left": [grad_left(answer[n], given.returned, n, f"grads_after_backward(w, x)['{n}']") for n in ("w", "x")],
        "read": read_from_grad([answer["w"], answer["x"]], call,
                               N_("grads_after_backward(w, x)['w'] and ['x']")),
        "read_written": read_written(call, "grads_after_backward", len(arguments)),
        "non_leaves": [result_of(_grad_or_none(answer[n]), f"grads_after_backward(w, x)['{n}']")
                       for n in ("a", "b", "y")],
        "read_non_leaves": len(call.warning_reads),
        "cut": left_whole(given.returned, "grads_after_backward(w, x)", len(call.warning_reads)),
        "retained": retained_after(given.returned, "grads_after_backward(w, x)"),
        "warnings": warned,
        "backward": call.fact,
        "walked": graph_below(call.first_root, label="grads_after_backward"),
    }


WITHOUT_FEEDBACK = "Call y.backward() without retain_grad and return what each node's .grad holds."
# A .grad not read raised no warning: that none reached the caller follows, and is not told.
UNREAD = {"warnings": ("read_non_leaves",)}
WITHOUT_KEYS = {
    "read": "return w.grad and x.grad as backward wrote them, not Values made from a formula",
    "read_non_leaves": "grads_after_backward did not read the .grad of each of a, b and y: that "
    "read is what raises the warning, and a None written down raises none",
    "warnings": "grads_after_backward read the .grad of each of a, b and y, but not every "
    "warning those reads raised reached its caller: your code silenced them",
    "walked": "call y.backward() on the y you built: w.grad and x.grad come from that graph, not "
    "from one built to carry other numbers",
}


# grads_after_backward may call the student's backward_retaining (with no names): a test of that
# helper alone that fails too is named first.  A public probe names public tests only.
WITH_RETAINING_PUBLIC = {"backward_retaining": ("a.grad after retain_grad", "retain_grad on exactly the nodes named")}
WITH_RETAINING = {"backward_retaining": (*WITH_RETAINING_PUBLIC["backward_retaining"], "retained grads on other inputs",
                                         "retain_grad on every choice of names")}


@EXERCISE.test("non-leaf grads are None after backward", points=2, public=True,
               feedback=WITHOUT_FEEDBACK, key_feedback=WITHOUT_KEYS, caused_by=UNREAD,
               runs_with=WITH_RETAINING_PUBLIC)
def without_retain_public(sub):
    return {**_without_retain(sub, 0.5, -3.0), "import": import_warnings(sub, IMPORTING)}


IMPORTING = N_("importing ex03_retain_grad.py")  # the file run again, as a notebook or script imports it


@EXERCISE.test("grads after backward on other inputs", points=2, feedback=WITHOUT_FEEDBACK,
               key_feedback=WITHOUT_KEYS, caused_by=UNREAD, runs_with=WITH_RETAINING)
def without_retain_hidden(sub):
    runs = [_without_retain(sub, w, x) for w, x in [(2.0, 4.0), (-1.25, 0.75), (0.0, 0.0)]]
    return {**{key: [r.get(key) for r in runs] for key in runs[0]},
            "apart": calls_apart(sub, _grads_after, _grads_returned, (1.5, -2.0), (-0.5, 3.0),
                                 "grads_after_backward")}


def _grads_after(sub, point: tuple[float, float]) -> object:
    """One call of grads_after_backward for ``calls_apart``, its non-leaf warnings caught."""
    with caught_warnings():
        return sub.grads_after_backward(*point)


def _grads_returned(answer: object) -> list[Any]:
    """The number of each .grad grads_after_backward returned (None where it returned None); of a
    dict without the five, its keys (which its KEYS_ASKED fact tells)."""
    answer = plain_dict(answer)
    if type(answer) is dict and not set(NODES) <= set(answer):
        return sorted(map(repr, answer))
    if type(answer) is not dict:
        raise shape_error(N_("grads_after_backward must return a dict of the five .grad values"),
                          "grads_after_backward", answer)
    return [None if answer[n] is None else num(answer[n]) for n in NODES]


def _text(t: object) -> str | None:
    """grad_warning's answer: None, or the first line of the warning text."""
    if t is None:
        return None
    return first_line(t) if type(t) is str else f"{NOT_PLAIN}{type_name(t)}"


def _warning(sub, v: Value, name: str, seen: dict[str, list[Any]], note: str = "") -> dict[str, Any]:
    """grad_warning(v): the text it returned.  Whether it read v.grad to get it goes to
    ``seen["calls"]``; whether a text it returned is the engine's warning's own message (the
    str object ``warnings.warn`` was given, which str(caught[0].message) hands back) to
    ``seen["from_warning"]``: a text written down that reproduces the engine's rule and words
    is another object."""
    label = f"grad_warning({name})" + (f" ({note})" if note else "")  # each call named: a leaf answered
    # without reading shows as that call's; the note (a retained) in words, translated as a label's note
    retained, held = v.retains_grad, grad(v)
    left = hold({name: v}, give=False)  # a leaf's .grad as the caller left it: only read, not cleared
    with told_in_call(label), caught_warnings() as escaped, watching(sub, label, reads_grad=True) as call:
        answer = sub.grad_warning(v)
    seen["grad_kept"].append(kept(left, label))
    seen["calls"].append(call.fact)
    # a None returned while the warning of the call's own read reached the caller: a read made unrecorded
    seen["recorded"].append(check(Check.WARNING_RECORDED, not (answer is None and call.read_grad and any(
        text.startswith(NON_LEAF_SHOWN) for text in escaped)), label))
    seen["unretained"].append(check(Check.LEFT_UNRETAINED, v.retains_grad == retained, label))
    if v.retains_grad == retained and grad(v) == held:  # v as it was: a fresh import's call is given the same
        seen["as_first"].append(_as_first(sub, v, answer, call.read_grad, label))
    seen["given_read"].append(_given_read(v, call, label))
    if type(answer) is str:
        seen["from_warning"].append(answer is NONLEAF_GRAD_WARNING)
    return result_of(_text(answer), label)


def _warnings_seen() -> dict[str, list[Any]]:
    """What ``_warning`` notes of a test's calls, beside their results."""
    return {"calls": [], "from_warning": [], "given_read": [], "unretained": [], "as_first": [], "recorded": [],
            "grad_kept": []}


def _as_first(sub, v: Value, answer: object, read: bool, label: str) -> dict[str, Any]:
    """The SAME_FRESH fact of grad_warning(v): its answer in the run against the same call's
    made first in a fresh import of the student's file, where no earlier call left anything (a
    warning's text kept in a module list and returned for a retained node, which warns no more).
    Context ``unread``: the run's call read no .grad, yet returned the engine's warning text,
    which only a read of a non-leaf's .grad raises: a read made in an earlier call."""
    fresh = fresh_copy(sub)
    try:  # grad mode on again after the call: the test's later graphs are recorded
        alike = fresh is None or _text(called("grad_warning", fresh.grad_warning, v)) == _text(answer)
    except Exception:  # noqa: BLE001 - the first call of a fresh import raised where the run's returned
        alike = False
    kept = not read and answer is NONLEAF_GRAD_WARNING
    return {**check(Check.SAME_FRESH, alike, label), **({CONTEXT + "unread": True} if kept else {})}


def _given_read(v: Value, call: Call, label: str) -> dict[str, Any]:
    """The CHECK fact that grad_warning read the .grad of the very Value it was given (where it
    read some .grad: a call that read none is told so by its CALL fact); where it did not, whether
    a Value it read instead is one sharing v's number: ``v.data`` where the code read v's .data,
    else another copy (``v.detach()``) (context)."""
    read = list(call.grad_reads.values())
    if not read:
        return check(Check.READ_GIVEN, None, label)
    if any(r is v for r in read):
        return check(Check.READ_GIVEN, True, label)
    shared, data = any(shares_storage(r, v) for r in read), call.through_data.get(id(v)) is v
    return {**check(Check.READ_GIVEN, False, label), CONTEXT + "data": shared and data, CONTEXT + "copy": shared and not data}


def _after_backward(name: str) -> Value:
    """The node ``name`` of a new documents' graph y.backward() ran through (a twin of
    ``warning_text``'s own, for ``caller_ignores``)."""
    g = documents_graph(1.5, -2.5)
    g["y"].backward()
    return g[name]


def _answer_after_retain(sub) -> dict[str, Any]:
    """grad_warning(a), then a.retain_grad(), then grad_warning(a) again: the ANSWER_ANEW fact that
    the second answer is not the first one again where a new a so retained gets another (an answer
    kept on a, or by its id, and returned without reading a.grad), context ``function``: the change."""
    a, twin = documents_graph(0.25, -1.5)["a"], documents_graph(0.25, -1.5)["a"]  # made before any call (grad mode it
    twin.retain_grad()  # leaves off would leave a later one unrecorded), and grad mode on after them
    with caught_warnings(), enable_grad():
        with told_in_call("grad_warning(a)"):
            first = _text(sub.grad_warning(a))
        a.retain_grad()  # a retained non-leaf warns no more
        with told_in_call("grad_warning(a) after a.retain_grad()"):
            again = _text(sub.grad_warning(a))
        with told_in_call(f"grad_warning(a) ({N_('a retained')})"):
            kept = again == first != _text(sub.grad_warning(twin))
    return {**check(Check.ANSWER_ANEW, not kept, "grad_warning(a)"), CONTEXT + "function": "a.retain_grad()"}


WARNING_FEEDBACK = ("Read v.grad inside warnings.catch_warnings(record=True) with "
                    "warnings.simplefilter('always'); return str(caught[0].message), or None if "
                    "nothing was caught.")


@EXERCISE.test("the warning on reading a non-leaf's .grad", points=1, public=True,
               feedback=WARNING_FEEDBACK,
               key_feedback={"leaf": "a leaf never warns: return None for it",
                             "calls": READ_IT,
                             "from_warning": FROM_WARNING})
def warning_public(sub):
    g = documents_graph(-2.0, 0.5)
    seen = _warnings_seen()
    return {"non_leaf": _warning(sub, g["b"], "b", seen), "leaf": _warning(sub, g["w"], "w", seen),
            "caller_ignores": caller_ignores(sub, lambda: documents_graph(-2.0, 0.5)["a"], "a", _text), **seen,
            "filters": filters_kept(lambda: sub.grad_warning(documents_graph(-2.0, 0.5)["a"]), "grad_warning(a)",
                                    getattr(sub, "__file__", None)),
            "apart": calls_apart(sub, lambda m, v: m.grad_warning(v), _text, g["b"], g["w"], "grad_warning")}


@EXERCISE.test(
    "the warning on every kind of Value",
    points=2,
    feedback=WARNING_FEEDBACK,
    key_feedback={
        "non_leaf": "reading .grad of a non-leaf warns, before and after backward",
        "leaf": "a leaf never warns, whether or not it requires grad",
        "no_grad_result": "a result of no-grad Values is a leaf, so it does not warn",
        "retained": "a retained non-leaf does not warn: its .grad is meant to be read",
        "calls": READ_IT,
        "from_warning": FROM_WARNING,
    },
)
def warning_text(sub):
    g, retained = documents_graph(1.5, -2.5), documents_graph(-0.5, 3.0)  # both made before any call
    seen = _warnings_seen()
    before = [_warning(sub, g["a"], "a", seen)]
    retained["a"].retain_grad()
    g["y"].backward()
    retained["y"].backward()
    data = Value(4.0)
    return {
        "anew": _answer_after_retain(sub),  # before the calls' own facts: the answer a call kept explains them
        "non_leaf": before + [_warning(sub, g[n], n, seen) for n in ("a", "b", "y")],
        "leaf": [_warning(sub, v, n, seen)
                 for v, n in ((g["w"], "w"), (g["x"], "x"), (data, "data"))],
        "no_grad_result": [_warning(sub, mul(data, 3.0), "data * 3", seen)],
        "retained": [_warning(sub, retained["a"], "a", seen, N_("a retained"))],
        **seen,
        "caller_ignores": [caller_ignores(sub, functools.partial(_after_backward, n), n, _text) for n in ("b", "y")],
        "apart": calls_apart(sub, lambda m, v: m.grad_warning(v), _text, g["b"], g["w"], "grad_warning"),
    }


@EXERCISE.diagram
def draw(sub):
    with watching(sub, "backward_retaining", made=True) as call:  # what each op was made from: a saved input
        answer = plain_dict(sub.backward_retaining(0.5, -3.0, ["a"]))  # backward freed is drawn as that Value
    if type(answer) is dict and not set(NODES) <= set(answer):  # some of the five: the Values it has, as they are
        named = {k: v for k, v in answer.items() if type(k) is str and isinstance(v, Value)}
        return list(named.values()), named
    g = _nodes(answer)
    return [g["y"]], g, operands(call)
