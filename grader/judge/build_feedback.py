"""How a build-track test's feedback reads (ex16-ex22, whose tests state rules: ``rules=True``).

A build-track probe checks the same fact on several names of one program ("reading b.grad
after y.backward() warns", then y.grad, then a.grad): a wrong engine differs on all of them the
same way, and one sentence per name said the same thing four times.  Differences of one kind
whose labels differ in a single word are told once, naming the other words after it, and the
advice, the rules the engine must follow, is one sentence of its own (its capital, as every
sentence's, comes from ``grader.judge.capitals``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from micrograph.i18n import SOURCE_LANGUAGE, language

from grader.i18n import _
from grader.judge.explained import Difference, ToldOnce
from grader.judge.labels import shown_label
from grader.judge.sentences import Sentence
from grader.judge.torch_sentences import SayTorch

_END = tuple(".。")


@dataclass(frozen=True)
class Alike(ToldOnce):
    """A difference told once for several labels that differ in one word: ``first`` with
    ``name`` in it, and the same with each of ``others`` in its place."""

    name: str = ""

    def sentence(self) -> str:
        return _("{sentence}; the same holds with {others} in place of {name}.",
                 sentence=self.first_said(), others=_(", ").join(self.others), name=self.name)


@dataclass(frozen=True)
class SameWarning(ToldOnce):
    """A warning of the engine's own (its text, or its category) told once for every read of
    ``.grad`` that warned it where PyTorch warns NON_LEAF_GRAD: ``first`` whole, then the test's
    other reads of it, each program's once, with the names it reads (``y.grad after
    a.retain_grad(); y.backward()``, then ``a.grad, b.grad after y.backward()``): ``others``
    holds the programs (``""``: the read of a program of its own) and ``names`` their names."""

    names: tuple[tuple[str, ...], ...] = ()

    def sentence(self) -> str:
        reads = [_("{names} after {steps}", names=_(", ").join(names), steps=steps) if steps else _(", ").join(names)
                 for steps, names in zip(self.others, self.names)]
        others = reads[0] + "".join(_(", and where it reads {reads}", reads=read) for read in reads[1:])
        return _("{sentence}; the same holds where this test reads {others}.", sentence=self.first_said(), others=others)


# A read of .grad that warns otherwise than PyTorch: the same warning on every read of a test
_OWN_WARNING = (SayTorch.TORCH_WARNS_OTHER_TEXT, SayTorch.TORCH_WARNS_OTHER, SayTorch.TORCH_WARNS_PRINTED,
                SayTorch.PRINTED_NOT_WARNED, SayTorch.TORCH_WARNS_LOGGED, SayTorch.LOGGED_NOT_WARNED)
_READING = "reading "  # how the label of a read of .grad begins ("reading b.grad after ... warns")


def _warning_read(d: Difference) -> tuple[tuple[tuple[str, str], ...], tuple[str, str]] | None:
    """For a read of .grad that warned otherwise than PyTorch, the warning (its fields but the
    label) and the read: the name read and the program it was read after (``""``: none said);
    None for any other difference."""
    label = dict(d.fields).get("label", "")
    if d.say not in _OWN_WARNING or not label.startswith(_READING):
        return None
    name, _after, steps = label[len(_READING):].removesuffix(" warns").partition(" after ")  # "reading y.grad after ... warns"
    return tuple(f for f in d.fields if f[0] != "label"), (name, steps)


def _same_warnings(found: list[Difference]) -> list[Difference | SameWarning]:
    """``found``, where reads that warned the same warning otherwise than PyTorch are one
    ``SameWarning``, at the place of the first: the engine's text said once, not once per read,
    and the other reads named with their programs."""
    reads: dict[tuple[Sentence, tuple[tuple[str, str], ...]], list[tuple[str, str]]] = {}
    for d in found:
        read = _warning_read(d)
        if read is not None:
            reads.setdefault((d.say, read[0]), []).append(read[1])
    out: list[Difference | SameWarning] = []
    told: set[tuple[Sentence, tuple[tuple[str, str], ...]]] = set()
    for d in found:
        read = _warning_read(d)
        if read is None:
            out.append(d)
            continue
        key = (d.say, read[0])
        if key not in told:
            told.add(key)
            programs: dict[str, list[str]] = {}
            for name, steps in dict.fromkeys(r for r in reads[key] if r != read[1]):
                programs.setdefault(steps, []).append(name)
            out.append(SameWarning(d, tuple(programs), tuple(map(tuple, programs.values()))) if programs else d)
    return out


def _label_words(d: Difference) -> list[str] | None:
    """The words of ``d``'s label, when the label is its only field."""
    fields = dict(d.fields)
    return fields["label"].split(" ") if list(fields) == ["label"] else None


def _shown(d: Difference | SameWarning, word: str) -> bool:
    """Whether ``word`` of ``d``'s label is in the label as the student reads it: a word of code
    is, an English word ("first" of "the first backward") is not in a Chinese label, where "the
    same holds with second in place of first" would name words the sentence never says."""
    return isinstance(d, Difference) and (language() == SOURCE_LANGUAGE or word in shown_label(dict(d.fields)["label"]))


def _alike(a: str, b: str) -> bool:
    """Whether two words of labels name the same thing of other values (``w.grad``, ``x.grad``;
    ``a``, ``b``), not another thing (``w.grad``, ``y.grad_fn.apply(grad)[0]``), nor a piece of
    an expression (``(3`` of ``(3 * w).grad_fn``)."""
    whole = all(w.count("(") == w.count(")") and w.count("[") == w.count("]") for w in (a, b))
    return whole and a.partition(".")[2] == b.partition(".")[2]


Told = Difference | Alike | SameWarning  # what one sentence of a build-track test's feedback tells


def grouped(found: list[Difference]) -> list[Told]:
    """``found`` in its order, where differences of one kind whose labels differ in the same single
    word, naming the same thing of another value (and in the words that word's name is in:
    ``_one_change``), are one ``Alike``, at the place of the first,
    and reads of .grad that warned the same warning otherwise than PyTorch one ``SameWarning``."""
    groups: list[tuple[Difference | SameWarning, list[str] | None, int | None, list[str]]] = []
    for d in _same_warnings(found):
        words = _label_words(d) if isinstance(d, Difference) else None
        for i, (first, known, where, others) in enumerate(groups):
            if words is None or known is None or first.say is not d.say or len(known) != len(words):
                continue
            apart = [n for n, (a, b) in enumerate(zip(known, words)) if a != b]
            if (apart and _one_change(known, words, apart) and where in (None, apart[0])
                    and _alike(known[apart[0]], words[apart[0]]) and _shown(first, known[apart[0]]) and _shown(d, words[apart[0]])):
                groups[i] = (first, known, apart[0], [*others, words[apart[0]]])
                break
        else:
            groups.append((d, words, None, []))
    return [Alike(first, *_quoted(known, where, others))
            if others and known and where is not None and isinstance(first, Difference) else first
            for first, known, where, others in groups]


def _one_change(known: list[str], words: list[str], apart: list[int]) -> bool:
    """Whether two labels' words differ by one change: the word at ``apart[0]`` replaced, and each
    other word that differs (``apart``) that same name replaced in it (``w.grad after w.grad.zero_()``,
    ``x.grad after x.grad.zero_()``), the name in no word left as it was: "the same holds with
    x.grad in place of w.grad" then reads true of every place it is in.  One word apart is one change."""
    name = re.compile(rf"(?<![\w.]){re.escape(known[apart[0]])}(?!\w)")  # the name, not letters of a longer one
    new = words[apart[0]]
    return len(apart) == 1 or all(name.sub(lambda _m: new, known[n]) == words[n] for n in apart[1:]) \
        and not any(name.search(word) for n, word in enumerate(known) if n not in apart)


def _quoted(words: list[str], where: int, others: list[str]) -> tuple[tuple[str, ...], str]:
    """The ``others`` in the place of the word at ``where``, and that word, each with the rest
    of the quoted name it begins (``'w second'``, not ``'w``), which the labels share."""
    end = where
    if words[where].startswith("'") and words[where].count("'") == 1:
        end = next((i for i in range(where + 1, len(words)) if "'" in words[i]), where)
    rest = "".join(" " + word for word in words[where + 1:end + 1])
    return tuple(other + rest for other in others), words[where] + rest


def advice_sentence(advice: list[str]) -> str:
    """The rules a test's differing facts follow, as one sentence ("...; ...")."""
    parts = [text.rstrip("".join(_END)) for text in advice if text]
    return _("{rules}.", rules=_("; ").join(parts)) if parts else ""
