"""What kind of difference lies between a submission's observation and the reference's.

Both observations are plain JSON from a child (see ``grader.spec.facts``).  ``find`` walks them
side by side; wherever the reference holds a *fact* (a GRAD, VALUE, GRAPH, CALL or IDENTITY
dict) and the submission's differs, it names the first difference that matters, as a
``Difference``: a sentence kind and the fields that fill it.  Fields come from the submission's
side or from the probe's labels, never from the reference's numbers or ops, so a sentence never
gives an answer away.  Everything from the child is untrusted: strings are cut and cleaned.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from grader.i18n import _, sentences
from grader.judge import build_feedback
from grader.judge.causes import follows
from grader.judge.context_causes import explains
from grader.judge.once import told_once
from grader.judge.cases import cases_merged
from grader.judge.checks import JUDGED
from grader.judge.compare import mismatched_keys, not_its_shape
from grader.judge.exchanged import exchanges, follows_from_exchange, graph_explained, told
from grader.judge.explained import MAX_LABEL, Difference, clean
from grader.judge.explained import difference as _diff
from grader.judge.fact_differences import BY_KIND
from grader.judge.implied import implied
from grader.judge.per_graph import per_graph
from grader.judge.placed import placed
from grader.judge.sentences import Say
from grader.judge.told_order import bare_last, judged, order
from grader.judge.torch_sentences import SayTorch
from grader.judge.walk_sentences import SayWalk
from grader.spec import Test
from grader.spec.facts import ALIASED, FACT, FOLLOWS_CALLS, LABEL, Kind


def find(want: Any, got: Any) -> list[Difference]:
    """Every explained difference, causes first, each sentence once; a context sentence only
    where it explains another difference."""
    found: list[tuple[int, Difference]] = []
    _walk(want, got, found)
    unique: list[Difference] = []
    for _order, d in sorted(found, key=lambda pair: bare_last(pair[0], pair[1].say)):
        if d not in unique:
            unique.append(d)
    said, labelled = {d.say for d in unique}, {(d.say, _label(d)) for d in unique}
    kept = [d for d in unique if (not d.context or explains(d.say, said)) and not implied(d, unique)
            and not follows_from_exchange(d, unique)
            and not follows(d.say, _label(d), labelled)]
    judged_labels = {_label(d) for d in kept if d.say in JUDGED}
    return cases_merged([d for d in kept if not judged(d.say, _label(d), judged_labels)], want, got)


def _label(d: Difference) -> str:
    return dict(d.fields).get("label", "")


def _walk(want: Any, got: Any, found: list[tuple[int, Difference]]) -> None:
    if want == got or type(got) is dict and type(got.get(ALIASED)) is str:  # not ``same``: context keys (``~``)
        return  # are not compared, but they explain; a name holding another's Value: VALUE_PER_NAME tells it
    if not_its_shape(want, got):  # the whole result told once, by what it was instead
        found.append((order(got), _diff(Say.RESULT_TYPE, label=clean(got[LABEL], MAX_LABEL), type=clean(got["value"]))))
        return
    if type(want) is dict and type(want.get(FACT)) is str:
        explain = BY_KIND.get(want[FACT])
        if explain is not None and type(got) is dict and got.get(FACT) == want[FACT]:
            said = explain(want, got, clean(want.get("label", "the result"), MAX_LABEL))
            follows = want.get(FOLLOWS_CALLS) is True  # the probe's mark, the reference's side
            found.extend((order(want), replace(d, follows_calls=True) if follows else d) for d in said)
        return
    if type(want) is dict and type(got) is dict:
        pairs = exchanges(want.get("nodes") or [], got.get("nodes") or [])  # a built() dict's Values
        by_place, told_names = placed(want, got, {label.partition(" (")[0] for label in pairs})
        # what a name holds explains its Value's facts, as a CHECK the probe judged does
        found.extend((order({FACT: Kind.CHECK.value}), d) for d in told_names)
        for key, item in want.items():
            if key in got and not (pairs and graph_explained(item, got[key], pairs)) and not (
                    key == "graph" and by_place):
                _walk(item, got[key], found)
    elif type(want) is list and type(got) is list and len(want) == len(got):
        moved = exchanges(want, got)
        found.extend((order(want[0]), d) for d in told(moved))
        for a, b in zip(want, got):
            if type(b) is not dict or b.get(LABEL) not in moved:
                _walk(a, b, found)


# Sentences that tell all there is to their difference: PyTorch's error at other versions or
# with a constant's text where the engine's has its own, a warning's own text or category where
# PyTorch warns NON_LEAF_GRAD.  The rule of their key would only stand beside them, restating
# what the engine must do (or more than the difference implies: which nodes backward frees).
_TOLD_WHOLE = {SayTorch.TORCH_OTHER_VERSIONS, SayTorch.TORCH_OTHER_VERSIONS_IN, SayTorch.TORCH_OWN_TEXT,
               SayTorch.TORCH_OWN_TEXT_IN, SayTorch.TORCH_WARNS_OTHER_TEXT, SayTorch.TORCH_WARNS_OTHER,
               SayTorch.TORCH_WARNS_PRINTED, SayTorch.PRINTED_NOT_WARNED, SayTorch.TORCH_WARNS_LOGGED,
               SayTorch.LOGGED_NOT_WARNED, SayWalk.RAN_TWICE_IN_A_ROW,
               SayWalk.TWO_EDGES_WAITING, SayWalk.NOT_A_TUPLE, SayWalk.SWALLOWED, SayTorch.WRITTEN_BESIDE, SayTorch.LEAF_WITH_NODE,
               SayTorch.RETAINED_BESIDE, SayTorch.STORE_REPLACED, SayTorch.CLEARED_BEFORE_STORE,
               SayTorch.CLEARED_NOT_ADDED, SayTorch.REPLACED_NOT_ADDED, SayTorch.BESIDE_NOT_ADDED, SayTorch.OTHER_REFUSED, SayTorch.ONE_BUFFER, SayTorch.KEYED_BUFFER, SayTorch.BOTH_BUFFER, SayTorch.ZERO_DROPPED, SayTorch.COUNTER_KIND,
               SayTorch.PASSED_ON}


def _rules_left(test: Test, want: dict[str, Any], got: dict[str, Any], keys: list[str]) -> list[str]:
    """The rules a build-track test's differing ``keys`` bring (``Test.advice_for``), but those
    of keys whose every difference a ``_TOLD_WHOLE`` sentence tells, unless another key brings
    the same rule."""
    whole = {key for key in keys if key in got and (told := find(want[key], got[key]))
             and all(d.say in _TOLD_WHOLE for d in told)}
    kept = {test.key_feedback.get(key) for key in keys if key not in whole}
    dropped = {test.key_feedback.get(key) for key in whole} - kept
    return [text for text in test.advice_for(keys) if text not in dropped]


MAX_SENTENCES = 4


def chosen(found: Sequence[Difference | build_feedback.Told], most: int = MAX_SENTENCES
           ) -> list[Difference | build_feedback.Told]:
    """At most ``most`` differences, in their order (causes first), each *kind* told before
    any kind is told twice: "retain_grad() was called on b" for three nodes must not crowd
    out the one sentence about a gradient."""
    firsts = [i for i, d in enumerate(found) if all(e.say is not d.say for e in found[:i])]
    rest = [i for i in range(len(found)) if i not in firsts and not told_once(found[i].say)]
    return [found[i] for i in sorted((firsts + rest)[:most])]


def feedback(test: Test, want: Any, got: Any) -> str:
    """A failed test's feedback: what this submission did differently (at most a few
    sentences).  The test's advice for the observation keys that differ is given only when no
    sentence could say what differs: advice appended to an observed difference would stand in
    for an explanation it does not follow from.  The build track's rules follow its sentences,
    but for a difference its sentence tells whole (``_rules_left``).  Keys observed on the
    strength of another that differs (``Test.presumes``) are left out, sentences and rules."""
    keys = mismatched_keys(want, got)
    unsaid = test.unsaid(keys)
    if unsaid:  # keys is [] unless both are dicts
        want, got = ({k: v for k, v in side.items() if k not in unsaid} for side in (want, got))
        keys = [key for key in keys if key not in unsaid]
    found = find(want, got)
    if test.rules:  # the build track: its rules follow, as a sentence of their own, unless said already
        said = [d.sentence() for d in chosen(build_feedback.grouped(found))]
        rules = [_(text) for text in _rules_left(test, want, got, keys)]  # spec texts are msgids
        return sentences([*said, build_feedback.advice_sentence(rules)])
    advice = [_(text) for text in test.advice_for(keys)]
    said = [d.sentence() for d in chosen(per_graph(found))]
    return sentences(said) if said else build_feedback.advice_sentence(advice)  # one sentence, its full stop
