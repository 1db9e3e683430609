"""Every text the code wraps has a Chinese translation whose placeholders are the English ones.

When this fails after you wrapped a new text: run ``python -m micrograph.i18n.extract``
and fill in the empty ``msgstr`` it added (words from ``docs/glossary.md``).
"""

from __future__ import annotations

import string

import pytest

from micrograph.i18n import catalogue_path, extract
from micrograph.i18n.po import parse

DOMAINS = {d.name: d for d in extract.domains()}
TRANSLATED = ("micrograph", "exercises", "grader", "click")  # domains whose every text must be translated


def fields(text: str) -> set[str]:
    """The ``{names}`` of a brace-format text (``{{`` is a literal brace)."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.mark.parametrize("name", TRANSLATED)
def test_every_message_has_a_chinese_translation(name: str) -> None:
    domain = DOMAINS[name]
    path = catalogue_path(domain.name, domain.localedir, "zh")
    entries = {e.key: e for e in parse(path.read_text(encoding="utf-8"), str(path))}
    missing = [f"{m.where}: {m.msgid[:70]!r}" for m in extract.messages(domain)
               if m.key not in entries or not entries[m.key].translated]
    assert not missing, f"{len(missing)} texts without a Chinese translation in {path}:\n" + "\n".join(missing)


@pytest.mark.parametrize("name", TRANSLATED)
def test_placeholders_match_the_english(name: str) -> None:
    domain = DOMAINS[name]
    path = catalogue_path(domain.name, domain.localedir, "zh")
    wrong = []
    for entry in parse(path.read_text(encoding="utf-8"), str(path)):
        if not entry.msgid or not entry.translated or domain.stubs:
            continue
        english = fields(entry.msgid) | fields(entry.msgid_plural or "")
        # Chinese has one plural form for both English ones: it needs the fields they share, and may
        # use either one's (click's "Did you mean {possibility}?" / "... one of: {possibilities}?").
        shared = fields(entry.msgid) & fields(entry.msgid_plural) if entry.msgid_plural else english
        if ("{" in entry.msgid) != ("python-brace-format" in entry.flags):
            wrong.append(f"line {entry.line}: the python-brace-format flag does not match the text")
        for form in entry.msgstr:
            if not shared <= fields(form) <= english:
                wrong.append(f"line {entry.line}: {sorted(fields(form))} where the English has {sorted(english)}")
    assert not wrong, f"{path}:\n" + "\n".join(wrong)


def test_the_compiled_click_catalogue_reads_as_the_po_does() -> None:
    """click translates through ``gettext``, from the ``.mo`` we compile: the same texts."""
    import gettext
    import io

    from micrograph.i18n.mo import compile_mo

    path = catalogue_path("click", DOMAINS["click"].localedir, "zh")
    mo = gettext.GNUTranslations(io.BytesIO(compile_mo(parse(path.read_text(encoding="utf-8")))))
    assert mo.gettext("Usage:") == "用法："
    assert mo.ngettext("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)", 2) == (
        "你是不是想用 {possibilities}？")
    assert mo.gettext("not in the catalogue") == "not in the catalogue"


def test_a_placeholder_mismatch_is_seen() -> None:
    assert fields("saved {slot} = {data}") != fields("保存值 {slot} = {数据}")
    assert fields("{{literal}} {n}") == {"n"}
