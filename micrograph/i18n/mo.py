"""Compiling a ``.po`` catalogue to gettext's binary ``.mo`` form, with the standard library only.

Our own texts are read from the ``.po`` files directly (``micrograph.i18n.po``).  A
library that translates through the ``gettext`` module's global functions (click does:
``from gettext import gettext as _``) can only read ``.mo`` files, so the grader
compiles the catalogue it gives such a library when it is first needed
(``grader.i18n.tell_click``), instead of keeping a binary file in git that could fall
out of step with its ``.po``.  The layout is GNU gettext's (the one
``gettext.GNUTranslations`` reads): a header, two tables of (length, offset) pairs for
the sorted keys and their translations, then the strings, each NUL-terminated.
"""

from __future__ import annotations

import struct

from micrograph.i18n.po import CONTEXT_SEPARATOR, Entry

MAGIC = 0x950412DE
_HEADER_SIZE = 7 * 4  # magic, revision, count, keys' table, values' table, hash size, hash offset


def mo_pairs(entries: list[Entry]) -> dict[bytes, bytes]:
    """The key -> translation pairs a ``.mo`` holds: translated entries and the header.

    A plural entry's key is ``msgid NUL msgid_plural`` and its value the forms joined by
    NUL; a context goes before the msgid with gettext's separator.
    """
    pairs = {}
    for entry in entries:
        if entry.msgid and not entry.translated:
            continue  # untranslated or fuzzy: gettext then gives the English
        key = entry.msgid if entry.msgid_plural is None else f"{entry.msgid}\0{entry.msgid_plural}"
        if entry.context is not None:
            key = f"{entry.context}{CONTEXT_SEPARATOR}{key}"
        pairs[key.encode("utf-8")] = "\0".join(entry.msgstr).encode("utf-8")
    return pairs


def compile_mo(entries: list[Entry]) -> bytes:
    """The ``.mo`` file of a parsed catalogue (no hash table: gettext does not need one)."""
    pairs = sorted(mo_pairs(entries).items())
    keys_at = _HEADER_SIZE
    values_at = keys_at + 8 * len(pairs)
    strings_at = values_at + 8 * len(pairs)
    key_table, value_table, blob = [], [], bytearray()
    for key, _ in pairs:
        key_table.append((len(key), strings_at + len(blob)))
        blob += key + b"\0"
    for _, value in pairs:
        value_table.append((len(value), strings_at + len(blob)))
        blob += value + b"\0"
    head = struct.pack("<7I", MAGIC, 0, len(pairs), keys_at, values_at, 0, 0)
    tables = b"".join(struct.pack("<2I", *pair) for pair in key_table + value_table)
    return head + tables + bytes(blob)


__all__ = ["MAGIC", "compile_mo", "mo_pairs"]
