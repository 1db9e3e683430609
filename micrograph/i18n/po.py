"""Reading gettext ``.po`` catalogues with the standard library only.

Why read ``.po`` and not compiled ``.mo``: the ``.po`` file is what translators
edit and reviewers read, so loading it directly means there is no build step to
forget (an editable ``pip install -e .`` has none), no binary file in git for
parallel branches to conflict on, and no stale ``.mo`` that disagrees with its
source.  The format is small; this reader covers what GNU ``msgfmt`` accepts for
our catalogues (``msgctxt``, plurals, escapes, multi-line strings, flags,
obsolete ``#~`` entries) and the tests compare its result with polib's and, where
it is installed, with ``msgfmt`` + ``gettext.GNUTranslations``.

As ``msgfmt`` does, entries marked ``fuzzy`` and entries with an empty
translation are left out: the caller then shows the English source text.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

CONTEXT_SEPARATOR = "\x04"  # gettext's key for a message with a msgctxt: ctxt + EOT + msgid
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
_KEYWORD = re.compile(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(".*)$')


class PoError(ValueError):
    """A malformed catalogue: names the file and line."""


class Entry(NamedTuple):
    """One message of a catalogue, as written in it."""

    context: str | None
    msgid: str
    msgid_plural: str | None
    msgstr: tuple[str, ...]  # one string, or one per plural form
    flags: frozenset[str]
    line: int  # where its msgid stands, for error messages

    @property
    def key(self) -> str:
        return self.msgid if self.context is None else f"{self.context}{CONTEXT_SEPARATOR}{self.msgid}"

    @property
    def translated(self) -> bool:
        return "fuzzy" not in self.flags and all(self.msgstr) and bool(self.msgstr)


class _Builder:
    """The entry being read: fields filled keyword by keyword."""

    def __init__(self) -> None:
        self.fields: dict[str, list[str]] = {}
        self.flags: set[str] = set()
        self.line = 0
        self.last: str | None = None

    def entry(self, where: str) -> Entry | None:
        if "msgid" not in self.fields:
            if self.fields:
                raise PoError(f"{where}:{self.line}: an entry without msgid")
            return None
        plural = sorted(k for k in self.fields if k.startswith("msgstr["))
        if "msgid_plural" in self.fields:
            if not plural or "msgstr" in self.fields:
                raise PoError(f"{where}:{self.line}: msgid_plural needs msgstr[0], msgstr[1], ...")
            if [int(k[7:-1]) for k in plural] != list(range(len(plural))):
                raise PoError(f"{where}:{self.line}: plural forms must be msgstr[0], msgstr[1], ... in order")
            msgstr = tuple("".join(self.fields[k]) for k in plural)
        elif plural or "msgstr" not in self.fields:
            raise PoError(f"{where}:{self.line}: msgid without msgstr")
        else:
            msgstr = ("".join(self.fields["msgstr"]),)
        ctx = self.fields.get("msgctxt")
        plural_id = self.fields.get("msgid_plural")
        return Entry(
            None if ctx is None else "".join(ctx), "".join(self.fields["msgid"]),
            None if plural_id is None else "".join(plural_id), msgstr, frozenset(self.flags), self.line,
        )


def unquote(text: str, where: str) -> str:
    """The value of one C-style quoted string ``"..."`` (the quotes included in ``text``)."""
    text = text.strip()
    if len(text) < 2 or text[0] != '"' or text[-1] != '"':
        raise PoError(f"{where}: expected a quoted string, got {text[:40]!r}")
    body, out, i = text[1:-1], [], 0
    while i < len(body):
        ch = body[i]
        if ch == '"':
            raise PoError(f'{where}: a " inside a string must be written \\"')
        if ch != "\\":
            out.append(ch)
            i += 1
            continue
        if i + 1 >= len(body) or body[i + 1] not in _ESCAPES:
            raise PoError(f"{where}: unknown escape {body[i:i + 2]!r}")
        out.append(_ESCAPES[body[i + 1]])
        i += 2
    return "".join(out)


def parse(text: str, where: str = "<po>") -> list[Entry]:
    """Every entry of a catalogue's text, header (msgid "") included, obsolete ones left out."""
    entries: list[Entry] = []
    current = _Builder()

    def close() -> None:
        nonlocal current
        entry = current.entry(where)
        if entry is not None:
            entries.append(entry)
        current = _Builder()

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        at = f"{where}:{number}"
        if not line or line.startswith("#~"):  # blank line or an obsolete entry
            continue
        if line.startswith("#"):
            if current.fields:  # a comment starts the next entry
                close()
            if line.startswith("#,"):
                current.flags.update(f.strip() for f in line[2:].split(",") if f.strip())
            continue
        if line.startswith('"'):
            if current.last is None:
                raise PoError(f"{at}: a continued string without a keyword before it")
            current.fields[current.last].append(unquote(line, at))
            continue
        match = _KEYWORD.match(line)
        if match is None:
            raise PoError(f"{at}: expected msgctxt, msgid, msgid_plural or msgstr, got {line[:40]!r}")
        keyword = match.group(1)
        if keyword in ("msgctxt", "msgid") and any(k.startswith("msgstr") for k in current.fields):
            close()  # an entry ends where the next one's msgctxt/msgid begins
        if keyword in current.fields:
            raise PoError(f"{at}: {keyword} appears twice in one entry")
        if keyword == "msgid":
            current.line = number
        current.fields[keyword] = [unquote(match.group(3), at)]
        current.last = keyword
    close()
    return entries


def headers(entries: list[Entry]) -> dict[str, str]:
    """The header entry's ``Name: value`` lines (msgid "")."""
    for entry in entries:
        if entry.msgid == "" and entry.context is None:
            pairs = (line.split(":", 1) for line in entry.msgstr[0].splitlines() if ":" in line)
            return {name.strip(): value.strip() for name, value in pairs}
    return {}


def load(path: Path) -> tuple[dict[str, tuple[str, ...]], str | None]:
    """(translations by key, the Plural-Forms header) of the ``.po`` file at ``path``.

    Only translated entries are kept (not fuzzy, no empty msgstr); a catalogue
    whose charset is not UTF-8 is refused, since every file we ship is UTF-8.
    """
    entries = parse(path.read_text(encoding="utf-8"), str(path))
    head = headers(entries)
    charset = re.search(r"charset=([\w-]+)", head.get("Content-Type", "charset=UTF-8"))
    if charset is None or charset.group(1).upper() != "UTF-8":
        raise PoError(f"{path}: the catalogue must declare charset=UTF-8")
    table = {e.key: e.msgstr for e in entries if e.msgid and e.translated}
    return table, head.get("Plural-Forms")
