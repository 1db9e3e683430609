"""Translations: English in the source code, Chinese (zh-CN) in gettext ``.po`` catalogues.

Every text a student reads is written in English in the code and wrapped, so
that a catalogue can give its Chinese form.  How to wrap a new text::

    from pathlib import Path
    from micrograph.i18n import N_, Translator

    _ = Translator("grader", Path(__file__).parent / "locale")   # once per package

    _("a.grad is None: call a.retain_grad() before y.backward()")   # translated now
    _("{name} still raises NotImplementedError", name=fn)           # fields: str.format
    _.n("{count} more line", "{count} more lines", count, count=count)  # plurals
    HINT = N_("call y.backward() once")   # marked only (a constant); translate at use: _(HINT)

Rules:

* The English text is the key (gettext's msgid); placeholders are named
  ``{fields}`` (``python-brace-format``), filled by the keyword arguments.  Without
  keyword arguments the text is returned as is (braces untouched).
* Identifiers stay as PyTorch spells them (``is_leaf``, ``grad_fn``,
  ``retain_grad()``), and error texts copied from PyTorch stay English: do not
  wrap those; wrap the explanation you put beside them.
* Each wrapped text needs a Chinese ``msgstr`` in ``<package>/locale/zh_CN/LC_MESSAGES/<domain>.po``:
  ``python -m micrograph.i18n.extract`` adds the missing entries (empty, to
  fill in; ``docs/glossary.md`` fixes the words to use), and
  ``tests/i18n/test_catalogues.py`` fails while one is missing or its
  placeholders differ from the English.

The language: ``set_language("zh")`` (what ``--lang`` does), or for one block
``with using("zh"): ...``; else ``MICROGRAPH_LANG``; else the locale (``LC_ALL``,
``LC_MESSAGES``, ``LANG``: a value starting with ``zh`` means Chinese); else
English.  It is read at each call, so a text translated at import time would be
stuck in one language: mark constants with ``N_`` and translate them where they
are shown.
"""

from __future__ import annotations

import contextlib
import contextvars
import gettext
import os
from collections.abc import Iterator, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Callable

from micrograph.i18n.po import load

LANGUAGES = ("en", "zh")
SOURCE_LANGUAGE = "en"
ENV_VAR = "MICROGRAPH_LANG"
LOCALE_VARS = ("LC_ALL", "LC_MESSAGES", "LANG")  # POSIX precedence: the first one set wins
CATALOGUE_LOCALE = {"zh": "zh_CN"}  # our language code -> the gettext folder name
_chosen: contextvars.ContextVar[str | None] = contextvars.ContextVar("micrograph_language", default=None)


class LanguageError(ValueError):
    """A language name we have no catalogue for; the message lists the supported ones."""


def normalize(name: str) -> str | None:
    """``"zh_CN.UTF-8"`` -> ``"zh"``, ``"en-US"`` -> ``"en"``, ``"C"`` -> ``"en"``; None if unknown."""
    base = name.strip().split(".")[0].split("@")[0].replace("-", "_").lower()
    if base.startswith("zh"):
        return "zh"
    if base in ("c", "posix") or base == "en" or base.startswith("en_"):
        return "en"
    return None


def check(name: str, where: str = "language") -> str:
    """``name`` as one of LANGUAGES, or LanguageError naming the problem."""
    found = normalize(name) if isinstance(name, str) else None
    if found is None:
        raise LanguageError(f"{where}: unknown language {name!r}; choose one of {', '.join(LANGUAGES)}")
    return found


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for: MICROGRAPH_LANG, else the locale, else English."""
    env = os.environ if environ is None else environ
    if env.get(ENV_VAR):
        return check(env[ENV_VAR], ENV_VAR)
    for var in LOCALE_VARS:
        if env.get(var):
            return "zh" if normalize(env[var]) == "zh" else SOURCE_LANGUAGE
    return SOURCE_LANGUAGE


def language() -> str:
    """The language texts are shown in now (see the module docstring for the order)."""
    chosen = _chosen.get()
    return chosen if chosen is not None else from_environment()


def set_language(name: str | None) -> None:
    """Fix the language for this context (``--lang``); None goes back to the environment's."""
    _chosen.set(None if name is None else check(name))


@contextlib.contextmanager
def using(name: str) -> Iterator[str]:
    """``with using("zh"):`` texts are Chinese inside the block."""
    token = _chosen.set(check(name))
    try:
        yield _chosen.get() or SOURCE_LANGUAGE
    finally:
        _chosen.reset(token)


def N_(message: str) -> str:  # noqa: N802 - gettext's conventional name
    """Mark a text for the catalogue without translating it (a constant translated where shown)."""
    return message


def catalogue_path(domain: str, localedir: Path, lang: str) -> Path:
    """Where a language's catalogue of a domain lives (gettext's folder layout)."""
    return Path(localedir) / CATALOGUE_LOCALE.get(lang, lang) / "LC_MESSAGES" / f"{domain}.po"


@lru_cache(maxsize=32)
def _catalogue(path: Path) -> tuple[dict[str, tuple[str, ...]], Callable[[int], int]]:
    if not path.is_file():
        return {}, lambda n: 0
    table, plural_forms = load(path)
    expression = (plural_forms or "plural=0").split("plural=", 1)[-1].rstrip(";").strip()
    return table, gettext.c2py(expression)


class Translator:
    """``_`` for one domain: ``_(text, **fields)``, ``_.n(one, many, n, **fields)``, ``_.p(ctx, text)``."""

    def __init__(self, domain: str, localedir: str | Path) -> None:
        self.domain = domain
        self.localedir = Path(localedir)

    def _lookup(self, key: str) -> tuple[tuple[str, ...], Callable[[int], int]] | None:
        lang = language()
        if lang == SOURCE_LANGUAGE:
            return None
        table, plural = _catalogue(catalogue_path(self.domain, self.localedir, lang))
        found = table.get(key)
        return None if found is None else (found, plural)

    def __call__(self, message: str, /, **fields: object) -> str:
        found = self._lookup(message)
        return _fill(found[0][0] if found else message, message, fields)

    def p(self, context: str, message: str, /, **fields: object) -> str:
        """A text whose translation depends on where it is used (gettext's msgctxt)."""
        found = self._lookup(f"{context}\x04{message}")
        return _fill(found[0][0] if found else message, message, fields)

    def n(self, singular: str, plural: str, count: int, /, **fields: object) -> str:
        """The singular or plural text for ``count`` (Chinese has one form)."""
        english = singular if count == 1 else plural
        found = self._lookup(singular)
        if found is None:
            return _fill(english, english, fields)
        forms, choose = found
        index = choose(count)
        return _fill(forms[index] if index < len(forms) else forms[-1], english, fields)

    def has(self, message: str, lang: str = "zh") -> bool:
        """Whether the catalogue of ``lang`` translates ``message`` (for fallbacks such as PNG fonts)."""
        table, _ = _catalogue(catalogue_path(self.domain, self.localedir, check(lang)))
        return message in table


def _fill(text: str, english: str, fields: Mapping[str, object]) -> str:
    """``text.format(**fields)``; the English form if a translation's placeholders are broken.
    In a translation, a field that ends in a full-width parenthesis (a label's note, "y（x > 0）")
    is not followed by the space the text keeps between code and Chinese words."""
    if not fields:
        return text
    try:
        filled = text.format(**fields)
    except (KeyError, IndexError, ValueError):
        return english.format(**fields)
    return filled if text == english else filled.replace("\uff09 ", "\uff09")


__all__ = [
    "ENV_VAR", "LANGUAGES", "SOURCE_LANGUAGE", "LanguageError", "N_", "Translator", "catalogue_path", "check",
    "from_environment",
    "language", "normalize", "set_language", "using",
]
