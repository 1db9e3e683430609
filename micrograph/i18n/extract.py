"""Finding the texts to translate in the source, and keeping the ``.po`` catalogues in step.

``python -m micrograph.i18n.extract`` (from the repository's root) reads every
domain's sources, adds an empty entry to its Chinese catalogue for each text
that has none, and lists the entries no source uses any more (``--prune``
removes them).  Then fill in the empty ``msgstr`` lines, using the words of
``docs/glossary.md``.  Like ``xgettext``, it reads the code without running it:

* calls ``_("...")``, ``N_("...")``, ``_.p("context", "...")``,
  ``_.n("one", "many", n)`` and ``ngettext("one", "many", n)`` whose texts are string
  literals, and the titles, test names, feedback and hints of exercise declarations
  (``declared``);
* click's own texts (``Usage:``, ``No such option``...), read from the installed click the
  same way: the ``click`` catalogue in ``grader/locale`` translates them (see
  ``grader.i18n.tell_click``);
* for a domain of exercise stubs, the docstrings (module and functions) and the
  ``#`` comments, which ``micrograph.i18n.stubs`` replaces in a translated stub.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import io
import sys
import tokenize
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from micrograph.i18n import catalogue_path
from micrograph.i18n.po import Entry, parse

ROOT = Path(__file__).resolve().parents[2]
BRACE = "python-brace-format"  # the flag of a text with {fields}: msgfmt -c checks them
HEADER = (
    "Project-Id-Version: micrograph\nLanguage: zh_CN\nMIME-Version: 1.0\n"
    "Content-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n"
    "Plural-Forms: nplurals=1; plural=0;\n"
)


class Message(NamedTuple):
    msgid: str
    plural: str | None
    context: str | None
    where: str  # "path:line" of its first use

    @property
    def key(self) -> str:
        return self.msgid if self.context is None else f"{self.context}\x04{self.msgid}"


class Domain(NamedTuple):
    """A catalogue and the sources whose texts it translates."""

    name: str
    localedir: Path
    sources: tuple[Path, ...]
    stubs: bool  # docstrings and comments rather than _() calls
    base: Path | None = None  # what "#: path:line" comments are relative to (default: the repository)


CLICK_DYNAMIC = ("required",)  # click translates these with _(variable): "[required]" in an option's help
CLICK_MODULES = ("core", "exceptions", "parser", "types", "formatting", "decorators", "utils", "termui",
                 "_termui_impl", "shell_completion")  # click's modules whose texts a `grade` user can meet


def click_domain(root: Path = ROOT) -> Domain:
    """click's texts, translated in the grader's ``click`` catalogue (``python -m ... --domain click``)."""
    import click  # the grader's dependency: the engine alone never reads this domain

    package = Path(click.__file__).resolve().parent
    sources = tuple(package / f"{name}.py" for name in CLICK_MODULES if (package / f"{name}.py").is_file())
    return Domain("click", root / "grader" / "locale", sources, False, package.parent)


def domains(root: Path = ROOT) -> list[Domain]:
    """The project's catalogues; a domain whose folder is absent (a release without it) is skipped."""
    found = []
    for name, folder, pattern, stubs in (
        ("micrograph", root / "micrograph", "**/*.py", False),
        ("grader", root / "grader", "**/*.py", False),
        ("exercises", root / "exercises", "*.py", True),
    ):
        if folder.is_dir():
            sources = tuple(sorted(p for p in folder.glob(pattern) if "locale" not in p.parts))
            found.append(Domain(name, folder / "locale", sources, stubs))
    if (root / "grader").is_dir():
        found.append(click_domain(root))
    return found


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def calls(path: Path, root: Path = ROOT) -> list[Message]:
    """The texts of ``_``, ``N_``, ``_.p`` and ``_.n`` calls in one file."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    constants = {target.id: text for node in tree.body if isinstance(node, ast.Assign)
                 for target in node.targets if isinstance(target, ast.Name)
                 for text in [_literal(node.value)] if text is not None}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        where = f"{_relative(path, root)}:{node.lineno}"
        func, args = node.func, [_literal(a) for a in node.args[:3]]
        if isinstance(func, ast.Name) and func.id in ("_", "N_") and args[0] is not None:
            found.append(Message(args[0], None, None, where))
        elif isinstance(func, ast.Name) and func.id == "ngettext" and len(args) > 1 and None not in args[:2]:
            found.append(Message(args[0], args[1], None, where))
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "_":
            if func.attr == "p" and len(args) > 1 and args[0] is not None and args[1] is not None:
                found.append(Message(args[1], None, args[0], where))
            elif func.attr == "n" and len(args) > 1 and args[0] is not None and args[1] is not None:
                found.append(Message(args[0], args[1], None, where))
        found += [Message(text, None, None, where) for text in declared(node, constants)]
    return sorted(found, key=lambda m: int(m.where.rsplit(":", 1)[1]))  # source order, as xgettext


def declared(call: ast.Call, constants: dict[str, str]) -> list[str]:
    """The texts of an exercise declaration (``grader.spec``) that a student reads.

    ``Exercise("ex03", "title", ...)`` and ``@EXERCISE.test("name", feedback="...",
    key_feedback={"key": "..."})`` are plain data, translated where they are shown; a text
    may also be a module-level constant (``constants``: name -> string).
    """
    def text(node: ast.expr | None) -> str | None:
        if isinstance(node, ast.Name):
            return constants.get(node.id)
        return None if node is None else _literal(node)

    func = call.func
    if isinstance(func, ast.Name) and func.id == "Exercise" and len(call.args) > 1:
        return [t for t in (text(call.args[1]),) if t]
    if not (isinstance(func, ast.Attribute) and func.attr == "test" and call.args):
        return []
    texts = [text(call.args[0])]
    for keyword in call.keywords:
        if keyword.arg == "feedback":
            texts.append(text(keyword.value))
        elif keyword.arg == "key_feedback" and isinstance(keyword.value, ast.Dict):
            texts += [text(v) for v in keyword.value.values]
    return [t for t in texts if t]


def docstrings(path: Path, root: Path = ROOT) -> list[Message]:
    """The module's and each function's or class's docstring, then each comment's text."""
    source = path.read_text(encoding="utf-8")
    found = []
    for node in ast.walk(ast.parse(source, str(path))):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            text = ast.get_docstring(node, clean=True)
            if text:
                line = node.body[0].lineno
                found.append(Message(text, None, None, f"{_relative(path, root)}:{line}"))
    found.sort(key=lambda m: int(m.where.rsplit(":", 1)[1]))
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT and comment_text(token.string):
            found.append(Message(comment_text(token.string), None, None, f"{_relative(path, root)}:{token.start[0]}"))
    return found


def comment_text(comment: str) -> str:
    """``"# TODO: build y"`` -> ``"TODO: build y"``; pragma-like comments (``# noqa``, ``# type:``) give ""."""
    text = comment.lstrip("#").strip()
    return "" if text.startswith(("noqa", "type:", "pragma", "-*-")) else text


def messages(domain: Domain, root: Path = ROOT) -> list[Message]:
    """Every text of a domain, once each, in the order of first use."""
    seen: dict[str, Message] = {}
    base = domain.base or root
    for path in domain.sources:
        for message in docstrings(path, base) if domain.stubs else calls(path, base):
            seen.setdefault(message.key, message)
    if domain.name == "grader":
        for message in exercise_texts(root):
            seen.setdefault(message.key, message)
    if domain.name == "click":
        for text in CLICK_DYNAMIC:
            seen.setdefault(text, Message(text, None, None, "click/core.py"))
    return list(seen.values())


def exercise_texts(root: Path = ROOT) -> list[Message]:
    """The texts of every exercise declaration as loaded (titles, test names, feedback, hints).

    Reading the declarations' source (``declared``) misses a text built from pieces
    (``BASE + " one more sentence"``); loading them does not.  Only this tool and the tests
    import the grader from here: the engine itself never does.
    """
    catalog = importlib.import_module("grader.course.catalog")
    found = []
    for exercise_id in catalog.exercise_ids():
        spec = catalog.load(exercise_id).spec
        where = f"grader/exercises/{exercise_id}.py"
        texts = [spec.title] + [t for test in spec.tests
                                for t in (test.name, test.feedback, *test.key_feedback.values())]
        found += [Message(text, None, None, where) for text in texts if text]
    return found


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def quote(text: str) -> str:
    """A ``.po`` string: one quoted line, or ``""`` followed by one quoted line per source line."""
    def one(part: str) -> str:
        escaped = part.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t").replace("\r", "\\r")
        return '"' + escaped.replace("\n", "\\n") + '"'
    lines = text.splitlines(keepends=True)
    if len(lines) <= 1:
        return one(text)
    return '""\n' + "\n".join(one(line) for line in lines)


def format_entry(message: Message | Entry, msgstr: tuple[str, ...], flags: Iterable[str] = ()) -> str:
    """One entry of a catalogue, as msgfmt reads it; ``flags`` as given (see ``flags_for``)."""
    out = []
    where = getattr(message, "where", None)
    if where:
        out.append(f"#: {where}")
    flags = sorted(flags)
    if flags:
        out.append("#, " + ", ".join(flags))
    if message.context is not None:
        out.append(f"msgctxt {quote(message.context)}")
    out.append(f"msgid {quote(message.msgid)}")
    plural = getattr(message, "plural", None) or getattr(message, "msgid_plural", None)
    if plural is not None:
        out.append(f"msgid_plural {quote(plural)}")
        out.append(f"msgstr[0] {quote(msgstr[0] if msgstr else '')}")
    else:
        out.append(f"msgstr {quote(msgstr[0] if msgstr else '')}")
    return "\n".join(out)


def update(domain: Domain, lang: str = "zh", prune: bool = False, root: Path = ROOT) -> tuple[int, list[str]]:
    """Rewrite the catalogue in source order with an entry per text; (added, unused msgids)."""
    path = catalogue_path(domain.name, domain.localedir, lang)
    old = {e.key: e for e in parse(path.read_text(encoding="utf-8"), str(path))} if path.is_file() else {}
    wanted = messages(domain, root)
    keys = {m.key for m in wanted}
    blocks = [format_entry(Message("", None, None, ""), (HEADER,))]
    added = 0
    for message in wanted:
        kept = old.get(message.key)
        added += kept is None
        flags = (kept.flags - {BRACE} if kept else set()) | ({BRACE} if "{" in message.msgid and not domain.stubs else set())
        blocks.append(format_entry(message, kept.msgstr if kept else ("",), flags))
    unused = [key for key, e in old.items() if e.msgid and key not in keys]
    if not prune:
        blocks += [format_entry(old[key], old[key].msgstr, old[key].flags) for key in unused]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")
    return added, unused


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m micrograph.i18n.extract", description=__doc__.splitlines()[0])
    parser.add_argument("--prune", action="store_true", help="remove entries no source uses any more")
    parser.add_argument("--domain", action="append", help="only these domains (micrograph, grader, exercises, click)")
    args = parser.parse_args(argv)
    for domain in domains():
        if args.domain and domain.name not in args.domain:
            continue
        added, unused = update(domain, prune=args.prune)
        print(f"{domain.name}: {added} new entries to translate", file=sys.stderr)
        for key in unused:
            state = "removed" if args.prune else "unused (--prune removes it)"
            print(f"  {state}: {key.splitlines()[0][:70]!r}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
