"""The grader's texts in the student's language: ``_`` for this package (see ``micrograph.i18n``).

Wrap every text a student or an instructor reads: ``_("no such file or folder: {path}",
path=p)``.  The exercise declarations (``grader/exercises/exNN.py``) stay plain English data:
their titles, test names, feedback and hints are msgids too, translated with ``_(text)`` where
they are shown, and ``python -m micrograph.i18n.extract`` collects them from the
declarations' source.  Translations: ``grader/locale/zh_CN/LC_MESSAGES/grader.po``.

``--lang`` on ``grade`` calls ``choose``, which sets ``MICROGRAPH_LANG`` for the whole process,
since grading runs in worker threads (a context variable would not reach them) and the
renderer draws the diagram's labels in the same language.
"""

from __future__ import annotations

import functools
import gettext
import hashlib
import os
import re
from pathlib import Path

from micrograph.i18n import CATALOGUE_LOCALE, ENV_VAR, N_, SOURCE_LANGUAGE, Translator, catalogue_path, check, language
from micrograph.i18n.mo import compile_mo
from micrograph.i18n.po import parse

_ = Translator("grader", Path(__file__).resolve().parent / "locale")


COURSE_LANGUAGE_FILE = "locale/course-language"  # in the grader package; written by a release or bundle
COURSE_LANGUAGE = Path(__file__).resolve().parent / COURSE_LANGUAGE_FILE


_PLACEHOLDER = re.compile(r"(\d+) hidden tests?: graded on the course autograder")  # grading._elsewhere names it


def test_name(name: str) -> str:
    """A test's name as shown: translated, the release's placeholder for hidden tests included."""
    found = _PLACEHOLDER.fullmatch(name)
    if found is None:
        return _(name)
    count = int(found.group(1))
    return _.n("{count} hidden test: graded on the course autograder",
               "{count} hidden tests: graded on the course autograder", count, count=count)


def status_word(status: str) -> str:
    """A test's status (passed, failed, error, timeout) or a student's (ok) as shown."""
    words = {"passed": lambda: _.p("status", "passed"), "failed": lambda: _.p("status", "failed"),
             "error": lambda: _.p("status", "error"), "timeout": lambda: _.p("status", "timeout"),
             "ok": lambda: _.p("status", "ok"), "autograder": lambda: _.p("status", "autograder")}
    word = words.get(status)  # only the word asked is looked up: a class's results ask thousands
    return status if word is None else word()


def outcome_word(outcome: str) -> str:
    """How a submission's code fared on an exercise (``grading``'s outcomes) as shown."""
    words = {"ran": _("ran"), "syntax error": _("syntax error"), "import error": _("import error"),
             "untouched stub": _("untouched stub"), "timeout": _.p("status", "timeout"),
             "not graded": _("not graded")}
    return words.get(outcome, outcome)


def visibility(public: bool) -> str:
    return _("public") if public else _("hidden")


_WIDE_END = tuple("。！？；：）")  # a Chinese sentence's end: the next one follows without a space


_HAN_GAP = r"(?<=[\u4e00-\u9fff]) (?=[\u4e00-\u9fff])"  # a space between two Chinese characters


@functools.cache
def _han_gap() -> re.Pattern[str]:
    """``_HAN_GAP`` compiled on first use: its class of 20,992 characters costs every ``grade``
    19 M instructions to compile, and a grade with nothing to explain joins no sentences."""
    return re.compile(_HAN_GAP)


def sentences(parts: list[str]) -> str:
    """Sentences joined as the language writes them: a space between English ones, none after
    a Chinese full stop (``"。 在"`` would show a gap in the middle of a paragraph), nor between
    two Chinese characters (a Chinese label in a template written for code: ``"{label} 是 None"``)."""
    text = ""
    for part in (p for p in parts if p):
        text += part if not text or text.endswith(_WIDE_END) else " " + part
    return _han_gap().sub("", text)


def choose(lang: str | None) -> str:
    """Fix the language of this process and return it.

    ``--lang`` first, then ``MICROGRAPH_LANG``, then the course's language (a release or a
    Gradescope bundle built with ``--lang zh`` says so in ``COURSE_LANGUAGE``: one language
    per course, chosen by the instructor), then the locale, then English.
    """
    if lang is not None:
        os.environ[ENV_VAR] = check(lang, "--lang")
    elif not os.environ.get(ENV_VAR) and COURSE_LANGUAGE.is_file():
        os.environ[ENV_VAR] = check(COURSE_LANGUAGE.read_text(encoding="utf-8").strip(), str(COURSE_LANGUAGE))
    return language()


CLICK_DOMAIN = "click"  # grader/locale/zh_CN/LC_MESSAGES/click.po: click's own texts ("Usage:", "No such option")
_DEFAULT_DOMAIN = "messages"  # gettext's global domain before anyone sets one


def tell_click(lang: str, cache_dir: Path) -> bool:
    """Make click's own texts speak ``lang``; True when they will.

    click translates through the ``gettext`` module's global domain (its supported way),
    which reads compiled ``.mo`` files and takes the language from ``LANGUAGE``/``LANG``:
    so for Chinese the ``click`` catalogue is compiled into the grader's cache folder
    (``cache_dir``, named by its content's hash: never stale) and bound as the global domain, and
    ``LANGUAGE`` names it.  For English the default domain comes back.  A cache folder
    that cannot be written leaves click's texts English; ours stay translated.
    """
    if lang == SOURCE_LANGUAGE:
        gettext.textdomain(_DEFAULT_DOMAIN)
        return True
    source = catalogue_path(CLICK_DOMAIN, _.localedir, lang)
    text = source.read_text(encoding="utf-8")
    domain = f"{CLICK_DOMAIN}-{hashlib.sha256(text.encode()).hexdigest()[:16]}"
    localedir = cache_dir / "locale"
    target = catalogue_path(domain, localedir, lang).with_suffix(".mo")
    try:
        if not target.is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            partial = target.with_name(f".{target.name}.{os.getpid()}")
            partial.write_bytes(compile_mo(parse(text, str(source))))
            partial.replace(target)
    except OSError:
        return False
    gettext.bindtextdomain(domain, str(localedir))
    gettext.textdomain(domain)
    os.environ["LANGUAGE"] = CATALOGUE_LOCALE.get(lang, lang)  # gettext's first choice of language
    return True


def fix_course_language(grader_dir: Path, lang: str) -> None:
    """Make a shipped copy of the grader (``grader_dir``) speak ``lang`` by default.

    An English course fixes nothing: each student's locale still chooses (a Chinese one gives
    Chinese), as the release's README promises; a Chinese course speaks Chinese everywhere.
    """
    target, lang = grader_dir / COURSE_LANGUAGE_FILE, check(lang, "--lang")
    if lang == SOURCE_LANGUAGE:
        target.unlink(missing_ok=True)
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(lang + "\n", encoding="utf-8")


__all__ = ["N_", "_", "choose", "sentences", "tell_click", "fix_course_language", "language", "outcome_word", "status_word", "test_name", "visibility"]
