"""Which language: --lang (set_language), else MICROGRAPH_LANG, else the locale, else English."""

from __future__ import annotations

import threading

import pytest

from micrograph import i18n
from micrograph.i18n import Translator, from_environment, language, set_language, using


@pytest.mark.parametrize(
    "environ, expected",
    [
        ({}, "en"),
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "zh_TW.UTF-8"}, "zh"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}, "en"),  # LC_ALL wins, as POSIX says
        ({"LC_ALL": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),
        ({"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),
        ({"MICROGRAPH_LANG": "en", "LC_ALL": "zh_CN.UTF-8"}, "en"),
        ({"MICROGRAPH_LANG": "zh", "LANG": "en_US.UTF-8"}, "zh"),
        ({"MICROGRAPH_LANG": "zh-CN"}, "zh"),
        ({"MICROGRAPH_LANG": "", "LANG": "zh_CN"}, "zh"),  # empty means unset
    ],
)
def test_environment_order(environ: dict[str, str], expected: str) -> None:
    assert from_environment(environ) == expected


def test_an_unknown_micrograph_lang_is_an_error_naming_the_choices() -> None:
    with pytest.raises(i18n.LanguageError, match=r"MICROGRAPH_LANG: unknown language 'fr'; choose one of en, zh"):
        from_environment({"MICROGRAPH_LANG": "fr"})


def test_set_language_wins_over_the_environment_and_none_gives_it_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MICROGRAPH_LANG", "zh")
    assert language() == "zh"
    set_language("en")
    assert language() == "en"
    set_language(None)
    assert language() == "zh"
    with pytest.raises(i18n.LanguageError):
        set_language("klingon")


def test_using_is_scoped_and_per_thread() -> None:
    seen = []
    with using("zh"):
        worker = threading.Thread(target=lambda: seen.append(language()))
        worker.start()
        worker.join()
        assert language() == "zh"
    assert language() == "en" and seen == ["en"]


def test_translator_fills_fields_and_falls_back_to_english(tmp_path) -> None:
    folder = tmp_path / "zh_CN" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "demo.po").write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\nPlural-Forms: nplurals=1; plural=0;\\n"\n\n'
        'msgid "{n} leaf"\nmsgid_plural "{n} leaves"\nmsgstr[0] "{n} 个叶子节点"\n\n'
        'msgid "hello {name}"\nmsgstr "你好 {nom}"\n\n'
        'msgctxt "legend"\nmsgid "leaf"\nmsgstr "叶子节点"\n\n'
        'msgid "braces {}"\nmsgstr "括号 {}"\n',
        encoding="utf-8",
    )
    _ = Translator("demo", tmp_path)
    assert _("untranslated {x}", x=1) == "untranslated 1"
    assert _.n("{n} leaf", "{n} leaves", 3, n=3) == "3 leaves"
    with using("zh"):
        assert _.n("{n} leaf", "{n} leaves", 3, n=3) == "3 个叶子节点"
        assert _.p("legend", "leaf") == "叶子节点" and _("leaf") == "leaf"
        assert _("braces {}") == "括号 {}"  # no fields: no formatting
        assert _("hello {name}", name="w") == "hello w"  # a broken translation shows the English
        assert _.has("{n} leaf") and not _.has("leaf")


def test_a_label_ending_in_a_full_width_parenthesis_takes_no_space_after_it(tmp_path) -> None:
    folder = tmp_path / "zh_CN" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "demo.po").write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\nPlural-Forms: nplurals=1; plural=0;\\n"\n\n'
        'msgid "{label} differs"\nmsgstr "{label} 不同"\n',
        encoding="utf-8",
    )
    _ = Translator("demo", tmp_path)
    assert _("{label} differs", label="y (x > 0)") == "y (x > 0) differs"
    with using("zh"):
        assert _("{label} differs", label="y（x > 0）") == "y（x > 0）不同"
        assert _("{label} differs", label="w.grad") == "w.grad 不同"
