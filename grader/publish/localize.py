"""A release or a bundle in the course's language: stubs, catalogue, default language.

The instructor picks one language per course (``grade release --lang zh``).  The shipped copy:

* of a Chinese course says so in ``grader/locale/course-language``, so ``grade`` there speaks it by
  default (an English one leaves it to each student's locale);
* has stubs whose statements (docstrings, comments) come from the exercises catalogue;
* carries the grader's catalogue *without* the hidden tests' texts: their English is a secret
  the release must not hold, and so is their Chinese (``hidden_texts`` lists both).
"""

from __future__ import annotations

from pathlib import Path

from micrograph.i18n import extract, using
from micrograph.i18n.po import parse
from micrograph.i18n.stubs import exercises_translator, translate_source

from grader.course.catalog import LoadedExercise
from grader.i18n import _, fix_course_language


def hidden_texts(exercises: list[LoadedExercise]) -> set[str]:
    """Names, feedback and hints of hidden tests that no public test shares."""
    hidden, public = set(), set()
    for ex in exercises:
        public.add(ex.spec.title)
        for test in ex.spec.tests:
            (public if test.public else hidden).update([test.name, test.feedback, *test.key_feedback.values()])
    return hidden - public


def translations(texts: set[str], lang: str) -> list[str]:
    """What the catalogue says for each of ``texts`` in ``lang`` (the ones it translates)."""
    with using(lang):
        return [t for t in (_(text) for text in texts) if t not in texts]


def ship_catalogue(grader_dir: Path, secrets: set[str], lang: str) -> None:
    """Rewrite the shipped grader catalogues without the entries of ``secrets``; set the language."""
    for path in sorted((grader_dir / "locale").glob("*/LC_MESSAGES/grader.po")):
        entries = parse(path.read_text(encoding="utf-8"), str(path))
        kept = [e for e in entries if e.msgid not in secrets]
        blocks = [extract.format_entry(e, e.msgstr, e.flags) for e in kept]
        path.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
    fix_course_language(grader_dir, lang)


def stub_source(stub: Path, exercises_dir: Path, lang: str) -> str:
    """The stub's source with its statement in ``lang`` (English: the file as it is)."""
    with using(lang):
        return translate_source(stub.read_text(encoding="utf-8"), exercises_translator(exercises_dir))

