"""The Chinese feedback says what ``docs/glossary.md`` says, and lists as Chinese lists.

The glossary fixes "in-place 操作" for an in-place operation ("不译作原地操作"), as the statements
write it; the feedback said 原地 and 就地.  A probe's label that lists names in English ("the order
the hooks of a, b, c, d and w ran in") kept its "and" inside the Chinese sentence, and a case's
note of a flag and a number ("x (both leaves require grad, w == x)") stayed English."""

from __future__ import annotations

import pytest

from grader.judge.labels import shown_label
from micrograph.i18n import catalogue_path, extract, using
from micrograph.i18n.po import parse

_GLOSSARY_IN_PLACE = "in-place 操作"
_NOT_SAID = ("原地", "就地")


@pytest.mark.parametrize("domain", extract.domains(), ids=lambda d: d.name)
def test_in_place_is_said_as_the_glossary_says(domain: extract.Domain) -> None:
    path = catalogue_path(domain.name, domain.localedir, "zh")
    if not path.exists():
        pytest.skip(f"{domain.name} has no Chinese catalogue")
    entries = parse(path.read_text(encoding="utf-8"), str(path))
    said = [f"line {e.line}: {form}" for e in entries for form in e.msgstr if any(w in form for w in _NOT_SAID)]
    assert not said, f"{path} says {' or '.join(_NOT_SAID)} where the glossary says {_GLOSSARY_IN_PLACE}:\n" + \
        "\n".join(said)


@pytest.mark.parametrize(("label", "shown"), [
    ("the order the hooks of a, b, c, d and w ran in", "a、b、c、d、w 的钩子运行的先后"),
    ("the order the hooks of a and w ran in", "a、w 的钩子运行的先后"),
    ("x (both leaves require grad, w == x)", "x（两个叶子节点都需要梯度，w == x）"),
    ("y (x without grad, w == x)", "y（x 不需要梯度，w == x）"),
])
def test_a_label_s_list_and_note_are_said_in_chinese(label: str, shown: str) -> None:
    with using("zh"):
        assert shown_label(label) == shown
