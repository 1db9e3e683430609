"""Finding a student's files in any layout, and refusing malformed entries with one clear
sentence (nothing here runs student code)."""

from __future__ import annotations

import codecs
import os
import zipfile
from pathlib import Path

import pytest

from grader.course.intake import MAX_SOURCE_BYTES, collect, exercise_named_in, exercise_of

MODULES = {"ex01": "ex01_graph", "ex03": "ex03_retain_grad"}
GOOD = "def f():\n    return 1\n"


def take(entry: Path, tmp_path: Path, **kw: object):
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    return collect(entry, MODULES, work, shown=entry.name, **kw)


@pytest.mark.parametrize("name, exercise", [
    ("ex03_retain_grad.py", "ex03"), ("ex3_retain.py", "ex03"), ("EX03 retain grad.py", "ex03"),
    ("ex03.py", "ex03"), ("ex03_retain_grad (1).py", "ex03"), ("._ex03_retain_grad.py", None),
    ("retain_grad.py", None), ("ex03_retain_grad.pyc", None), ("ex00_x.py", None),
])
def test_exercise_files_are_known_by_name(name: str, exercise: str | None) -> None:
    assert exercise_of(name) == exercise


def test_exercise_named_anywhere_in_a_single_file_name() -> None:
    assert exercise_named_in("alice_ex03") == "ex03"
    assert exercise_named_in("alice") is None
    assert exercise_named_in("index03") is None


def test_any_layout_prefers_the_stub_name_then_the_shallowest(tmp_path: Path) -> None:
    entry = tmp_path / "alice"
    for rel in ["deep/er/ex01_graph.py", "ex01_old.py", "src/ex01_graph.py",
                "__MACOSX/ex03_retain_grad.py", ".git/ex03_retain_grad.py",
                "hw/exercises/ex03_retain_grad.py"]:
        (entry / rel).parent.mkdir(parents=True, exist_ok=True)
        (entry / rel).write_text(GOOD)
    found = take(entry, tmp_path)
    assert found.error is None and not found.problems
    assert found.shown[found.files["ex01"]] == "alice/src/ex01_graph.py"
    assert found.shown[found.files["ex03"]] == "alice/hw/exercises/ex03_retain_grad.py"
    assert any("ex01: 3 files, graded alice/src/ex01_graph.py" in n for n in found.notes)


def test_a_handed_in_release_is_graded_on_the_files_the_student_filled_in(tmp_path: Path) -> None:
    import json

    entry = tmp_path / "bob"  # a student release, handed in as the whole repository
    stub = 'def paths(y, leaf):\n    raise NotImplementedError("ex01: paths")\n'
    cells = [{"cell_type": "code", "source": GOOD, "metadata": {}, "outputs": [], "execution_count": 1}]
    files = {"exercises/ex01_graph.py": stub, "exercises/ex03_retain_grad.py": GOOD,
             "notebooks/ex01_graph.ipynb": json.dumps({"cells": cells, "metadata": {}, "nbformat": 4,
                                                       "nbformat_minor": 5}),
             "grader/exercises/ex01.py": GOOD, "grader/exercises/ex03.py": GOOD, "micrograph/ex03_x.py": GOOD}
    for rel, text in files.items():
        (entry / rel).parent.mkdir(parents=True, exist_ok=True)
        (entry / rel).write_text(text)
    found = take(entry, tmp_path)
    assert found.shown[found.files["ex01"]] == "bob/notebooks/ex01_graph.ipynb"  # not the untouched stub
    assert found.shown[found.files["ex03"]] == "bob/exercises/ex03_retain_grad.py"
    assert found.notes == ["ex01: 2 files, graded bob/notebooks/ex01_graph.ipynb (not bob/exercises/ex01_graph.py)"]


def test_a_zip_nested_in_folders_and_a_zip_inside_a_folder(tmp_path: Path) -> None:
    archive = tmp_path / "bob.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("homework/exercises/ex01_graph.py", GOOD)
        z.writestr("homework/notes.txt", "hello")
    found = take(archive, tmp_path)
    assert found.error is None
    assert found.files["ex01"].read_text() == GOOD
    assert found.shown[found.files["ex01"]] == "bob.zip/homework/exercises/ex01_graph.py"
    folder = tmp_path / "carol"
    folder.mkdir()
    os.replace(archive, folder / "upload.zip")
    assert take(folder, tmp_path).files["ex01"].read_text() == GOOD


def test_a_single_file_is_the_exercise_its_name_says_or_the_only_one(tmp_path: Path) -> None:
    named = tmp_path / "dave_ex03.py"
    named.write_text(GOOD)
    assert take(named, tmp_path).files == {"ex03": named}
    anonymous = tmp_path / "erin.py"
    anonymous.write_text(GOOD)
    assert "cannot tell which exercise" in take(anonymous, tmp_path).error
    assert take(anonymous, tmp_path, single="ex01").files == {"ex01": anonymous}


def test_names_with_spaces_and_unicode_are_graded_normally(tmp_path: Path) -> None:
    entry = tmp_path / "José García 李"
    entry.mkdir()
    (entry / "ex01 graph.py").write_text(GOOD)
    found = take(entry, tmp_path)
    assert found.error is None and found.shown[found.files["ex01"]] == "José García 李/ex01 graph.py"


def test_a_file_name_that_is_not_utf8_is_shown_readably(tmp_path: Path) -> None:
    entry = tmp_path / "frank"
    entry.mkdir()
    name = os.fsdecode(b"ex01_caf\xe9.py")
    (entry / name).write_text(GOOD)
    found = take(entry, tmp_path)
    assert found.shown[found.files["ex01"]] == "frank/ex01_caf\ufffd.py"


@pytest.mark.parametrize("make, message", [
    (lambda p: p.mkdir(), "the folder is empty"),
    (lambda p: (p.mkdir(), (p / "readme.txt").write_text("hi")), "holds no exercise file"),
    (lambda p: (p.mkdir(), (p / "ex01_graph.py.txt").write_text(GOOD)),
     "holds no exercise file (exNN_<topic>.py): ex01_graph.py.txt ends in .txt after .py (Notepad adds .txt, and "
     "Windows hides it): rename it ex01_graph.py"),
    (lambda p: (p.mkdir(), (p / "ex07_x.py").write_text(GOOD)), "holds no file for ex01, ex03"),
    (lambda p: p.write_bytes(b"PK\x03\x04 not really a zip"), "is not a readable zip"),
])
def test_unusable_entries_say_why(tmp_path: Path, make, message: str) -> None:
    entry = tmp_path / ("entry.zip" if "zip" in message else "entry")
    make(entry)
    assert message in take(entry, tmp_path).error


def test_a_file_that_is_not_an_entry(tmp_path: Path) -> None:
    entry = tmp_path / "roster.csv"
    entry.write_text("a,b\n")
    assert take(entry, tmp_path).error == ("roster.csv is not a folder, a .py or .ipynb file "
                                           "or a .zip")


@pytest.mark.parametrize("member", ["../ex01_graph.py", "/etc/ex01_graph.py",
                                    "a/../../ex01_graph.py", "C:/ex01_graph.py",
                                    "..\\..\\ex01_graph.py"])
def test_a_zip_with_a_path_outside_it_is_refused(tmp_path: Path, member: str) -> None:
    archive = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("ex03_retain_grad.py", GOOD)
        z.writestr(member, GOOD)
    found = take(archive, tmp_path)
    assert "holds a path outside the archive" in found.error and not found.files
    assert not (tmp_path / "ex01_graph.py").exists()
    assert not (tmp_path.parent / "ex01_graph.py").exists()


def test_a_zip_bomb_is_refused_before_anything_is_extracted(tmp_path: Path) -> None:
    archive = tmp_path / "bomb.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        for i in range(3):
            z.writestr(f"ex01_graph{i}.py", bytes(30 << 20))
    assert archive.stat().st_size < 1 << 20
    found = take(archive, tmp_path)
    assert "refused as a zip bomb" in found.error
    assert not any((tmp_path / "work").iterdir())


def test_a_zip_of_too_many_files_is_refused(tmp_path: Path) -> None:
    archive = tmp_path / "many.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for i in range(2_001):
            z.writestr(f"f{i}.txt", "")
    assert "more than 2000" in take(archive, tmp_path).error


def test_a_huge_source_file_is_not_graded(tmp_path: Path) -> None:
    archive = tmp_path / "big.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("ex01_graph.py", b"#" * (MAX_SOURCE_BYTES + 1))
        z.writestr("ex03_retain_grad.py", GOOD)
    found = take(archive, tmp_path)
    assert "larger than 1 MiB" in found.problems["ex01"] and "ex03" in found.files


def test_a_foreign_encoding_is_a_clear_problem_for_that_file_only(tmp_path: Path) -> None:
    entry = tmp_path / "gina"
    entry.mkdir()
    (entry / "ex01_graph.py").write_bytes("x = 'café'\n".encode("latin-1"))
    (entry / "ex03_retain_grad.py").write_bytes("# -*- coding: latin-1 -*-\nx = 'café'\n"
                                                 .encode("latin-1"))
    found = take(entry, tmp_path)
    assert found.problems["ex01"] == ("gina/ex01_graph.py is not UTF-8 text (byte 0xE9 on line 1): "
                                      "save it as UTF-8, the encoding Python reads source files in")
    assert "ex03" in found.files  # declared encodings are Python's own business
    (entry / "ex03_retain_grad.py").write_bytes("\ufeffx = 1\n".encode("utf-16"))
    assert "not UTF-8 text" in take(entry, tmp_path).problems["ex03"]


def test_a_coding_line_that_does_not_fit_the_bytes_is_told_by_what_is_wrong(tmp_path: Path) -> None:
    """gbk is an encoding Python uses: a template's gbk coding line on a file saved as UTF-8 is
    told as bytes that are not gbk, one beside a UTF-8 byte order mark as the mark contradicting it."""
    entry = tmp_path / "hu"
    entry.mkdir()
    chinese = "# -*- coding: gbk -*-\n# 计算图\nx = 1\n"
    said = {}
    for name, data in (("utf8", chinese.encode("utf-8")), ("bom", codecs.BOM_UTF8 + chinese.encode("utf-8")),
                       ("unknown", b"# -*- coding: utf8mb4 -*-\nx = 1\n"), ("gbk", chinese.encode("gbk"))):
        (entry / "ex01_graph.py").write_bytes(data)
        said[name] = take(entry, tmp_path).problems.get("ex01")
    assert said == {"utf8": "hu/ex01_graph.py declares gbk in its coding line, but its bytes are not gbk text: "
                            "they are UTF-8. Remove the coding line",
                    "bom": "hu/ex01_graph.py starts with a UTF-8 byte order mark, which says it is UTF-8, but its "
                           "coding line declares gbk: remove the coding line",
                    "unknown": "hu/ex01_graph.py declares an encoding Python does not know (utf8mb4): remove the "
                               "coding line",
                    "gbk": None}  # gbk text under a gbk coding line is read


def test_a_symbolic_link_is_not_followed(tmp_path: Path) -> None:
    entry = tmp_path / "hal"
    entry.mkdir()
    secret = tmp_path / "secret.py"
    secret.write_text("SOLUTION = 42\n")
    (entry / "ex01_graph.py").symlink_to(secret)
    found = take(entry, tmp_path)
    assert "is a symbolic link" in found.problems["ex01"] and not found.files
