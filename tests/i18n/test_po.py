"""The .po reader: what msgfmt accepts, read the same way as polib (and msgfmt + gettext where installed)."""

from __future__ import annotations

import gettext
import shutil
import subprocess
from pathlib import Path

import pytest

from micrograph.i18n import extract
from micrograph.i18n.po import PoError, headers, load, parse

SAMPLE = r'''# a translator's comment
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=1; plural=0;\n"

#: a.py:1
msgid "leaf"
msgstr "叶子节点"

#, python-brace-format
msgid ""
"two\n"
"lines {n}"
msgstr "两行\n{n}"

msgctxt "legend"
msgid "leaf"
msgstr "叶子"

msgid "{n} line"
msgid_plural "{n} lines"
msgstr[0] "{n} 行"

#, fuzzy
msgid "guessed"
msgstr "猜的"

msgid "todo"
msgstr ""

msgid "quote \" back\\slash\ttab"
msgstr "引号 \" 反斜杠\\ 制表\t"

#~ msgid "gone"
#~ msgstr "旧的"
'''


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "x.po"
    path.write_text(text, encoding="utf-8")
    return path


def test_entries_strings_context_plural_and_escapes(tmp_path: Path) -> None:
    table, plural = load(write(tmp_path, SAMPLE))
    assert table == {
        "leaf": ("叶子节点",),
        "two\nlines {n}": ("两行\n{n}",),
        "legend\x04leaf": ("叶子",),
        "{n} line": ("{n} 行",),
        'quote " back\\slash\ttab': ('引号 " 反斜杠\\ 制表\t',),
    }  # fuzzy, empty and obsolete entries are left out, as msgfmt does
    assert plural == "nplurals=1; plural=0;"
    entries = parse(SAMPLE)
    assert headers(entries)["Plural-Forms"] == "nplurals=1; plural=0;"
    assert [e.flags for e in entries if e.msgid == "guessed"] == [frozenset({"fuzzy"})]


@pytest.mark.parametrize(
    "text, problem",
    [
        ('msgid "a"\n', "msgid without msgstr"),
        ('msgid "a"\nmsgstr "b\\q"\n', "unknown escape"),
        ('msgid "a"\nmsgstr "b"c"\n', 'a " inside a string'),
        ('msgid "a"\nmsgstr "b"\n"c\n', "expected a quoted string"),
        ('msgstr "b"\n', "an entry without msgid"),
        ('msgid "a"\nmsgid "b"\nmsgstr ""\n', "msgid appears twice"),
        ('msgid "a"\nmsgid_plural "as"\nmsgstr[1] "b"\n', r"msgstr\[0\], msgstr\[1\], \.\.\. in order"),
        ('msgid "a"\nmsgstr "b"\nnonsense\n', "expected msgctxt, msgid"),
        ('"floating"\n', "a continued string without a keyword"),
    ],
)
def test_malformed_catalogues_name_file_and_line(text: str, problem: str) -> None:
    with pytest.raises(PoError, match=problem) as info:
        parse(text, "zh.po")
    assert str(info.value).startswith("zh.po:")


def test_a_catalogue_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, 'msgid ""\nmsgstr "Content-Type: text/plain; charset=GBK\\n"\n')
    with pytest.raises(PoError, match="charset=UTF-8"):
        load(path)


def test_written_entries_read_back(tmp_path: Path) -> None:
    message = extract.Message('say "{x}"\n\tand a \\ slash\nend', None, "ctx", "f.py:3")
    text = extract.format_entry(extract.Message("", None, None, ""), (extract.HEADER,))
    text += "\n\n" + extract.format_entry(message, ("说\n“{x}”",), {"python-brace-format"})
    table, _ = load(write(tmp_path, text))
    assert table == {message.key: ("说\n“{x}”",)}


def catalogues() -> list[Path]:
    return sorted(p for d in extract.domains() for p in d.localedir.glob("*/LC_MESSAGES/*.po"))


@pytest.mark.parametrize("path", [*catalogues(), "sample"], ids=str)
def test_polib_reads_every_catalogue_the_same(path: Path | str, tmp_path: Path) -> None:
    polib = pytest.importorskip("polib")
    if path == "sample":
        path = write(tmp_path, SAMPLE)
    table, _ = load(path)
    expected = {}
    for e in polib.pofile(str(path)):
        if e.msgid and not e.obsolete and "fuzzy" not in e.flags:
            forms = tuple(e.msgstr_plural[i] for i in sorted(e.msgstr_plural)) if e.msgid_plural else (e.msgstr,)
            if all(forms):
                expected[e.msgid if e.msgctxt is None else f"{e.msgctxt}\x04{e.msgid}"] = forms
    assert table == expected


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext's msgfmt is not installed")
@pytest.mark.parametrize("path", catalogues(), ids=str)
def test_msgfmt_checks_and_compiles_every_catalogue_the_same(path: Path, tmp_path: Path) -> None:
    mo = tmp_path / "x.mo"
    subprocess.run(["msgfmt", "--check", "-o", str(mo), str(path)], check=True, capture_output=True)
    with mo.open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    table, _ = load(path)
    for key, forms in table.items():
        assert compiled._catalog.get(key, compiled._catalog.get((key, 0))) == forms[0]
