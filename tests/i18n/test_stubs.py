"""A translated stub: docstrings and comments from the catalogue, the code untouched."""

from __future__ import annotations

import ast
from pathlib import Path

from micrograph.i18n import extract
from micrograph.i18n.stubs import write_stubs

STUB = '''"""ex99 demo: the idea.

Two paragraphs, with ``code`` and a "quote".
"""

from micrograph import Value


def f(w: float) -> Value:
    """Make a leaf.

    Return it.
    """
    # TODO: create the leaf
    raise NotImplementedError("ex99: f")  # noqa: keep


class K:
    """One line."""

    def g(self):
        """Nested: indented deeper."""
        return 1
'''

ZH = {
    "ex99 demo: the idea.\n\nTwo paragraphs, with ``code`` and a \"quote\".": "ex99 演示：思路。\n\n两段，带 ``code`` 和 \"引号\"，还有一个 \\ 反斜杠。",
    "Make a leaf.\n\nReturn it.": "创建一个叶子节点。\n\n返回它。",
    "TODO: create the leaf": "TODO：创建叶子节点",
    "Nested: indented deeper.": "嵌套：缩进更深。\n\n第二行。",
}


def catalogue(folder: Path) -> None:
    """Extract the stub's texts into a catalogue, then translate the ones in ZH."""
    (folder / "ex99_demo.py").write_text(STUB, encoding="utf-8")
    domain = extract.Domain("exercises", folder / "locale", (folder / "ex99_demo.py",), True)
    assert extract.update(domain, root=folder) == (5, [])  # 4 docstrings, 1 comment ("# noqa" is not one)
    found = extract.messages(domain, root=folder)
    assert set(ZH) <= {m.msgid for m in found}
    blocks = [extract.format_entry(extract.Message("", None, None, ""), (extract.HEADER,))]
    blocks += [extract.format_entry(m, (ZH.get(m.msgid, ""),)) for m in found]
    path = folder / "locale" / "zh_CN" / "LC_MESSAGES" / "exercises.po"
    path.write_text("\n\n".join(blocks) + "\n", encoding="utf-8")


def strip_docstrings(tree: ast.AST) -> str:
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body[0].value.value = ""
    return ast.dump(tree)


def test_a_zh_stub_has_chinese_docstrings_and_the_same_code(tmp_path: Path) -> None:
    catalogue(tmp_path)
    [out] = write_stubs(tmp_path / "zh", "zh", folder=tmp_path)
    text = out.read_text(encoding="utf-8")
    tree = ast.parse(text)
    assert strip_docstrings(ast.parse(text)) == strip_docstrings(ast.parse(STUB))
    assert ast.get_docstring(tree) == ZH["ex99 demo: the idea.\n\nTwo paragraphs, with ``code`` and a \"quote\"."]
    functions = {n.name: n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    assert ast.get_docstring(functions["f"]) == "创建一个叶子节点。\n\n返回它。"
    assert ast.get_docstring(functions["g"]) == "嵌套：缩进更深。\n\n第二行。"
    assert ast.get_docstring(functions["K"]) == "One line."  # untranslated stays English
    assert "    # TODO：创建叶子节点\n" in text and "# noqa: keep" in text
    assert '        """嵌套：缩进更深。\n\n        第二行。\n        """' in text


def test_english_is_the_stub_unchanged(tmp_path: Path) -> None:
    catalogue(tmp_path)
    [out] = write_stubs(tmp_path / "en", "en", folder=tmp_path)
    assert out.read_text(encoding="utf-8") == STUB
