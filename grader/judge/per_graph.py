"""One difference told once for every graph of a test it is true of.

Some probes read one function on several graphs, each label naming its graph ("for y = c - w,
grad_fn_chain(y)"), or call it several times, each call's inputs named by a letter (``x_a``,
``loss_b``, ``backprop(diamond_c)``).  A function with one mistake differs the same way on most
of them, and on every entry, and one sentence per graph or entry said the same thing again and
again, crowding out the rest.  Differences of one kind whose fields are the same but for the
graph their label names, or for its call letters and entry indices, or for the call a label ends
with (``x.grad in f(w, x, 2)``), or, for what a call read of .grad, the grad mode a call left and a
call that returned something else than in a fresh import, for the call of one function (``grad_warning(w)``, ``grad_warning(x)``; ``sgd_step on a new w`` and
``sgd_step``), or for the graph an error was returned for (``the error for v * 3``: one error text said
once, not once a graph), are told once, whole for the first, then naming the others.  A graph
every call of one function kept where the statement's passes free it (``sgd_step on a new w`` and
``sgd_step``: its first call and its later ones), or grad mode every call of it never turned off, is
one slip of its code, told once naming the function alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from grader.i18n import _
from grader.judge.once import told_once
from grader.judge.explained import Difference, ToldOnce
from grader.judge.labels import shown_graph, shown_label
from grader.judge.read_sentences import SayRead
from grader.judge.sentences import Say
from grader.judge.state_sentences import SayState

_FOR_GRAPH = re.compile(r"for (y = .+), ([A-Za-z_][\w.]*\(.*)$")  # "for y = <graph>, <call>"
_CALL_LETTER = re.compile(r"(?<=[a-z])_[a-g]\b")  # x_a, loss_b, diamond_c: which call or graph
_INDEX = re.compile(r"\[\d+\]")  # [0][1]: which entry
_IN_CALL = re.compile(r"(?P<value>\S+) in [A-Za-z_]\w*\(.*\)")  # "x.grad in f(w, x, 2)": which call (``probe.in_call``)
_A_CALL = re.compile(r"(?P<function>[A-Za-z_]\w*)\(.*\)")  # "grad_warning(w)": one call of a function, by its arguments
# what a call read (or gave backward as inputs=), that it returned something else than in a fresh import, or one
# text or type where the statement's is None: told once, naming the other calls of the function that show it (one
# slip or one state of the function's code, not one a call)
_OF_A_CALL = frozenset({*SayRead, Say.INPUTS_GIVEN, SayState.NOT_SAME_FRESH, Say.RESULT_TYPED_NOT_NONE,
                        Say.RESULT_TEXT_NOT_NONE})
_MODE_LEFT = frozenset({Say.LEFT_OFF, Say.LEFT_ON})  # the grad mode calls of one function left: one slip of its code
_ERROR_FOR = re.compile(r"the error for .+")  # "the error for v * 3": the error of one graph a function was handed
_OF_FUNCTION = re.compile(r"(?P<function>[A-Za-z_]\w*)(?:\(.*\)| on .*)?")  # "sgd_step on a new w (...)", "forward(w, x, True)"
_KEPT = frozenset({Say.KEPT_MORE, Say.KEPT_ON_LAST, Say.KEPT_BY_CREATE, Say.KEPT_AGAINST_GIVEN})  # what the passes of a call kept: one slip of the function's code
_EVERY_CALL = _KEPT | {Say.GRAD_MODE_ON, Say.GRAD_MODE_FLAG}  # ... or a call never turning grad mode off: the same
_ON_A_CALL = re.compile(r"(?P<function>[A-Za-z_]\w*)(?: on .*)?")  # "sgd_step on a new w (...)", "sgd_step": calls of one function


@dataclass(frozen=True)
class SameForGraphs(ToldOnce):
    """``first`` whole, and the same difference for the graphs ``others`` (``y = c - w``), or
    for the labels ``others`` (``x_b[0][1].grad``, shown in the student's language) where
    ``labels``."""

    labels: bool = False

    def sentence(self) -> str:
        others = [shown_label(o) if self.labels else shown_graph(o) for o in self.others]
        return _("{sentence}; the same holds for {others}.", sentence=self.first_said(),
                 others=_(", ").join(others))  # a list as the language writes one (、 in Chinese)


def per_graph(found: list[Difference]) -> list[Difference | SameForGraphs]:
    """``found`` in its order, where differences alike but for the graph their label names are
    one ``SameForGraphs``, at the place of the first."""
    groups: list[tuple[Difference, tuple[object, ...] | None, list[str]]] = []
    for d in _told_of_a_call(found):
        key, graph = _alike_key(d)
        match = next((others for first, known, others in groups if key is not None and known == key), None)
        if match is not None and graph is not None:
            match.append(graph)
        else:
            groups.append((d, key, []))
    return [_of_function(first) if others and _calls_of(first) is not None
            else SameForGraphs(first, tuple(others), labels=_FOR_GRAPH.match(_label(first)) is None or first.say is Say.NO_LEAF)
            if others else first for first, _key, others in groups]


def _told_of_a_call(found: list[Difference]) -> list[Difference]:
    """``found`` without a difference labelled by a function's bare name (``grad_warning``) where
    the same difference is told of one of its calls (``grad_warning(w)``): two probes saw one slip
    (state kept between calls), said once, of the call that shows it."""
    def rest(d: Difference) -> tuple[tuple[str, str], ...]:
        return tuple((k, v) for k, v in d.fields if k != "label")

    calls = {(d.say, call.group("function"), rest(d)) for d in found
             if (call := _A_CALL.fullmatch(_label(d))) is not None}
    return [d for d in found if (d.say, _label(d), rest(d)) not in calls]


def _calls_of(d: Difference) -> str | None:
    """The function whose calls ``d``'s label names (``sgd_step`` of ``sgd_step on a new w
    (...)``), where ``d`` tells a graph the passes of a call kept, or that it never turned grad
    mode off; None otherwise, and for a
    label naming a call by its letter (``loss_a``: grouped with the other calls' as before)."""
    found = _ON_A_CALL.fullmatch(_label(d)) if d.say in _EVERY_CALL else None
    return None if found is None or _CALL_LETTER.search(_label(d)) is not None else found.group("function")


def _of_function(d: Difference) -> Difference:
    """``d``, a graph kept by the passes of several calls of one function, told of the function:
    "sgd_step kept the graph", where "sgd_step on a new w ... kept the graph; the same holds for
    sgd_step" said one slip twice."""
    return replace(d, fields=tuple((k, _calls_of(d) if k == "label" else v) for k, v in d.fields))


def _label(d: Difference) -> str:
    return dict(d.fields).get("label", "")


def _alike_key(d: Difference) -> tuple[tuple[object, ...] | None, str | None]:
    """What two differences alike but for their graph share (their kind, the call their label
    names, their other fields), and the graph this one's label names; for a label naming a call
    by its letter or an entry by its index (``y[1][0]``, a row ``cases`` does not take for an
    entry of the first), what it shares with the same difference of another call or entry (the
    label without letters and indices), and the label.  (None, None) for a label that names
    none of these, and for a sentence told once for its first label (``once.told_once``)."""
    label = _label(d)
    leaf = dict(d.fields).get("leaf", "")
    if d.say is Say.NO_LEAF and _INDEX.search(leaf) is not None:  # entries of a matrix a graph never reaches
        return (d.say, label, _INDEX.sub("[*]", leaf)), leaf
    rest = tuple((k, _CALL_LETTER.sub("_*", v)) for k, v in d.fields if k != "label")  # "of" names the call too
    found = _FOR_GRAPH.match(label)
    if found is not None:
        return (d.say, found.group(2), rest), found.group(1)
    if told_once(d.say):
        return None, None
    if _ERROR_FOR.fullmatch(label) is not None:
        return (d.say, "the error for", rest), label
    of_function = _OF_FUNCTION.fullmatch(label) if d.say in _MODE_LEFT else None
    function = of_function.group("function") if of_function is not None else _calls_of(d)
    if function is not None:
        return (d.say, function, rest), label
    in_call = _IN_CALL.fullmatch(label)
    if in_call is not None:
        return (d.say, in_call.group("value"), rest), label
    a_call = _A_CALL.fullmatch(label)
    if a_call is not None and d.say in _OF_A_CALL:
        return (d.say, a_call.group("function"), rest), label
    if _CALL_LETTER.search(label) is None and _INDEX.search(label) is None:
        return None, None
    return (d.say, _INDEX.sub("[*]", _CALL_LETTER.sub("_*", label)), rest), label
