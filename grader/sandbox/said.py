"""The sandbox's sentences, kept in English and said in the student's language when shown.

``grader.i18n`` is imported only then: it loads the catalogues and, through
``micrograph.i18n``, the whole engine, which the isolation probe (started before anything else,
``grader.cli.probing``) and the early child (``grader.sandbox.warm``) must not wait for.
"""

from __future__ import annotations

from typing import NamedTuple


def _(message: str, **fields: object) -> str:
    """``grader.i18n``'s ``_``, imported on the first text shown."""
    from grader.i18n import _ as translate

    return translate(message, **fields)


def N_(message: str) -> str:  # noqa: N802 - gettext's name, which the catalogue's extractor reads
    """A text marked for the catalogue, translated where shown (``micrograph.i18n.N_``)."""
    return message


class Said(NamedTuple):
    """A sentence kept as its English text and fields, said in the language asked when shown:
    the mode is decided once per process, and a notebook may change language between checks."""

    text: str
    fields: tuple[tuple[str, object], ...] = ()  # a field that is a Said is said in that language too

    def __str__(self) -> str:
        return _(self.text, **dict(self.fields))

