"""A Chinese exercise stub: the English stub with its docstrings and comments taken from the catalogue.

The stubs in ``exercises/`` are written in English, the source language; their
statements (module docstring, each function's docstring, the ``# TODO``
comments) are translated in the ``exercises`` catalogue, one entry per
docstring, so a translator can rewrite a whole statement the way a Chinese
teacher would instead of sentence by sentence.  The code itself is not touched:
names, signatures and ``NotImplementedError`` stay as they are, so a zh stub is
graded exactly like an English one.

``translate_source(text, _)`` returns the translated source; ``python -m
micrograph.i18n.stubs --lang zh -o DIR`` writes every translated stub into DIR.
A text the catalogue does not translate stays English.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import io
import sys
import tokenize
from pathlib import Path

from micrograph.i18n import Translator, using
from micrograph.i18n.extract import ROOT, comment_text

EXERCISES = ROOT / "exercises"


def exercises_translator(folder: Path = EXERCISES) -> Translator:
    return Translator("exercises", folder / "locale")


def _docstring_nodes(tree: ast.Module) -> list[ast.Constant]:
    nodes = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                nodes.append(first.value)
    return nodes


def literal(text: str, indent: str) -> str:
    """A triple-quoted docstring literal holding ``text``, its later lines indented by ``indent``."""
    body = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    lines = body.split("\n")
    if len(lines) == 1:
        return f'"""{body}"""'
    rest = [f"{indent}{line}" if line else "" for line in lines[1:]]
    return '"""' + "\n".join([lines[0], *rest]) + f'\n{indent}"""'


def translate_source(source: str, _: Translator) -> str:
    """``source`` with each docstring and comment replaced by its translation (in the current language)."""
    lines = source.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))

    def at(line: int, col: int) -> int:  # tokenize counts characters
        return offsets[line - 1] + col

    def at_byte(line: int, col: int) -> int:  # ast counts UTF-8 bytes
        return offsets[line - 1] + len(lines[line - 1].encode("utf-8")[:col].decode("utf-8"))

    edits: list[tuple[int, int, str]] = []
    for node in _docstring_nodes(ast.parse(source)):
        clean = inspect.cleandoc(node.value)
        translated = _(clean)
        if translated != clean:
            end = at_byte(node.end_lineno or node.lineno, node.end_col_offset or 0)
            edits.append((at_byte(node.lineno, node.col_offset), end, literal(translated, " " * node.col_offset)))
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        text = comment_text(token.string) if token.type == tokenize.COMMENT else ""
        if text and _(text) != text:
            edits.append((at(*token.start), at(*token.end), "# " + _(text).replace("\n", " ")))
    for start, end, new in sorted(edits, reverse=True):
        source = source[:start] + new + source[end:]
    return source


def write_stubs(target: Path, lang: str, folder: Path = EXERCISES) -> list[Path]:
    """Every ``exN_*.py`` stub of ``folder`` translated into ``target``; the paths written."""
    _ = exercises_translator(folder)
    written = []
    target.mkdir(parents=True, exist_ok=True)
    with using(lang):
        for path in sorted(folder.glob("ex[0-9][0-9]_*.py")):
            out = target / path.name
            out.write_text(translate_source(path.read_text(encoding="utf-8"), _), encoding="utf-8")
            written.append(out)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m micrograph.i18n.stubs", description=__doc__.splitlines()[0])
    parser.add_argument("--lang", default="zh", choices=("zh", "en"))
    parser.add_argument("-o", "--out", type=Path, required=True, help="folder to write the stubs into")
    args = parser.parse_args(argv)
    for path in write_stubs(args.out, args.lang):
        print(path, file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
