"""The Chinese feedback says what ``docs/glossary.md`` says, and lists as Chinese lists.

The glossary fixes "in-place 操作" for an in-place operation ("不译作原地操作"), as the statements
write it; the feedback said 原地 and 就地. It fixes 练习文件 for the stub; the feedback said 模板.
It fixes 独热梯度 for a one-hot gradient, as the statements write it; the feedback said one-hot 梯度.
Likewise 常量 (the feedback said 常数), 梯度模式 (grad mode) and 搭建 (构建).
A probe's label that lists names in English ("the order
the hooks of a, b, c, d and w ran in") kept its "and" inside the Chinese sentence, and a case's
note of a flag and a number ("x (both leaves require grad, w == x)") stayed English."""

from __future__ import annotations

import re

import pytest

from grader.judge.labels import shown_graph, shown_label
from micrograph.i18n import catalogue_path, extract, using
from micrograph.i18n.po import parse

# the glossary's term: words not said
_GLOSSARY = {"in-place 操作": ("原地", "就地"), "练习文件": ("模板",), "独热梯度": ("one-hot 梯度",),
             "常量": ("常数",), "梯度模式": ("grad mode",),
             "搭建": ("构建",)}


@pytest.mark.parametrize("term", _GLOSSARY)
@pytest.mark.parametrize("domain", extract.domains(), ids=lambda d: d.name)
def test_terms_are_said_as_the_glossary_says(domain: extract.Domain, term: str) -> None:
    path = catalogue_path(domain.name, domain.localedir, "zh")
    if not path.exists():
        pytest.skip(f"{domain.name} has no Chinese catalogue")
    not_said = _GLOSSARY[term]
    entries = parse(path.read_text(encoding="utf-8"), str(path))
    said = [f"line {e.line}: {form}" for e in entries for form in e.msgstr if any(w in form for w in not_said)]
    assert not said, f"{path} says {' or '.join(not_said)} where the glossary says {term}:\n" + "\n".join(said)


_HAN = "[\u4e00-\u9fff]"


@pytest.mark.parametrize("domain", extract.domains(), ids=lambda d: d.name)
def test_no_space_stands_between_two_chinese_characters(domain: extract.Domain) -> None:
    """Chinese words take no space between them (the feedback said "的 独热梯度", a space left where
    a term was replaced); a space goes only beside code and Latin words."""
    path = catalogue_path(domain.name, domain.localedir, "zh")
    if not path.exists():
        pytest.skip(f"{domain.name} has no Chinese catalogue")
    spaced = [f"line {e.line}: {form}" for e in parse(path.read_text(encoding="utf-8"), str(path))
              for form in e.msgstr if re.search(f"{_HAN} {_HAN}", form)]
    assert not spaced, f"{path}: a space between Chinese characters:\n" + "\n".join(spaced)


def _numbers(text: str) -> set[str]:
    """The numbers ``text`` writes in digits, its placeholders left out ("1,200" is one)."""
    return set(re.findall(r"\d+", re.sub(r"(?<=\d),(?=\d{3})", "", re.sub(r"\{[^{}]*\}", "", text))))


@pytest.mark.parametrize("domain", extract.domains(), ids=lambda d: d.name)
def test_no_digit_is_said_where_the_english_says_a_word(domain: extract.Domain) -> None:
    """A number the English says in words ("None or zero") is said in words in Chinese too
    ("None 或零"): a digit in feedback reads as a number the grader observed or expected."""
    path = catalogue_path(domain.name, domain.localedir, "zh")
    if not path.exists():
        pytest.skip(f"{domain.name} has no Chinese catalogue")
    added = [f"line {e.line}: {form}" for e in parse(path.read_text(encoding="utf-8"), str(path)) if e.msgid
             for form in e.msgstr if _numbers(form) - _numbers(e.msgid + (e.msgid_plural or ""))]
    assert not added, f"{path}: digits the English does not write:\n" + "\n".join(added)


@pytest.mark.parametrize(("label", "shown"), [
    ("the order the hooks of a, b, c, d and w ran in", "a、b、c、d、w 的钩子运行的先后"),
    ("the order the hooks of a and w ran in", "a、w 的钩子运行的先后"),
    ("x (both leaves require grad, w == x)", "x（两个叶子节点都需要梯度，w == x）"),
    ("y (x without grad, w == x)", "y（x 不需要梯度，w == x）"),
])
def test_a_label_s_list_and_note_are_said_in_chinese(label: str, shown: str) -> None:
    with using("zh"):
        assert shown_label(label) == shown


def test_labels_apart_in_an_english_word_are_not_told_once_in_chinese() -> None:
    """"w.grad after the first backward of ..." and "... the second ...": in English one sentence
    with "the same holds with second in place of first"; in Chinese the labels say 第一次 and 第二次,
    so the English words would name nothing the sentence says: each is told, translated."""
    from grader.judge.build_feedback import Alike, grouped
    from grader.judge.explained import Difference
    from grader.judge.torch_sentences import SayTorch

    def told(nth: str) -> Difference:
        label = f"w.grad after the {nth} backward of w * x + w (w.grad.zero_(); x.grad.zero_() before the third)"
        return Difference(SayTorch.TORCH_NUMBER, (("label", label),))

    assert [type(t) for t in grouped([told("first"), told("second")])] == [Alike]
    with using("zh"):
        said = [t.sentence() for t in grouped([told("first"), told("second")])]
    assert len(said) == 2 and "first" not in " ".join(said) and "第二次" in said[1], said
    with using("zh"):  # words of code stay alike: told once
        assert len(grouped([Difference(SayTorch.TORCH_NUMBER, (("label", f"{v}.grad after y.backward()"),))
                            for v in "wx"])) == 1


@pytest.mark.parametrize(("graph", "shown"), [
    ("y = w * w + x (w at zero)", "y = w * w + x（w 为零）"),
    ("y = c * x (c a constant)", "y = c * x（c 是常量）"),
    ("y = w * x + x (w == x)", "y = w * x + x (w == x)"),
])
def test_a_graph_s_note_in_words_is_in_full_width_brackets(graph: str, shown: str) -> None:
    """A graph's note in words ("w at zero") is Chinese: its brackets are a Chinese sentence's;
    a note of code ("w == x") stays as written."""
    with using("zh"):
        assert shown_graph(graph) == shown


def test_both_values_told_exchanged_are_labels_said_in_chinese() -> None:
    """"The Values returned as w (x without grad) and x (x without grad) are exchanged": the
    second is a label too, its note in words translated like the first's."""
    from grader.judge.explained import Difference
    from grader.judge.sentences import Say

    told = Difference(Say.NAMES_EXCHANGED, (("label", "w (x without grad)"), ("partner", "x (x without grad)")))
    with using("zh"):
        said = told.sentence()
    assert "without" not in said and "x（x 不需要梯度）返回的两个 Value 对调了" in said, said
