"""``grade release --lang zh`` and ``grade gradescope --lang zh``: one language per course."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from leaks import english_sentences

from micrograph.i18n import using
from micrograph.i18n.po import parse

from grader.course import catalog
from grader.course.folder import Course
from grader.publish.gradescope import build_bundle
from grader.publish.release import build_release

# One pytest-xdist worker builds the releases of test_release, test_release_zh and
# test_release_notebooks one after the other: the solutions' answers to the public tests, which
# each computes into the run's cache, are computed once (two workers computed them side by side).
pytestmark = pytest.mark.xdist_group("releases")

REPO = Path(__file__).resolve().parents[2]
WRONG_EX03 = REPO / "tests" / "exercises" / "gallery" / "ex03" / "no_retain_grad.py"  # a table to show


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory, answers: Path) -> Path:
    out = tmp_path_factory.mktemp("release-zh") / "course"
    course = Course(REPO, cache_dir=answers)
    with using("zh"):  # the whole course: a hidden test's Chinese name in any shipped text refuses it
        build_release(course, [course.load(i) for i in course.ids()], out, notebooks=True)
    return out


def test_the_zh_release_has_chinese_stubs_and_readme(release: Path) -> None:
    stub = (release / "exercises" / "ex03_retain_grad.py").read_text(encoding="utf-8")
    module = ast.parse(stub)
    assert "非叶子节点只有在你要求时才保留梯度" in ast.get_docstring(module)
    functions = {n.name: ast.get_docstring(n) for n in module.body if isinstance(n, ast.FunctionDef)}
    assert functions["grad_warning"].startswith("一边记录警告")
    assert "# TODO：build_graph" in stub and 'raise NotImplementedError("ex03: grad_warning")' in stub
    readme = (release / "README.md").read_text(encoding="utf-8")
    assert readme.startswith("# micrograph：你的练习") and "retain_grad 让非叶子节点保留梯度" in readme
    assert english_sentences(readme.split("## 提交")[0].replace("NotImplementedError", "")) == []
    assert (release / "grader" / "locale" / "course-language").read_text().strip() == "zh"


def test_the_release_catalogue_holds_no_hidden_text(release: Path) -> None:
    from grader.course import catalog
    from grader.publish.localize import hidden_texts

    path = release / "grader" / "locale" / "zh_CN" / "LC_MESSAGES" / "grader.po"
    shipped = {e.msgid for e in parse(path.read_text(encoding="utf-8"))}
    text = path.read_text(encoding="utf-8")
    exercises = [catalog.load("ex03"), catalog.load("ex07")]
    secret = hidden_texts(exercises)  # what only hidden tests say (names, hints)
    assert secret and not secret & shipped
    with using("zh"):
        from grader.i18n import _
        assert all(_(t) not in text for t in secret if _(t) != t)  # nor their Chinese
    assert exercises[0].spec.title in shipped and "test" in shipped  # what students see stays translated


def test_grade_in_the_zh_release_speaks_chinese_without_being_asked(release: Path, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("MICROGRAPH_LANG", "LC_ALL", "LC_MESSAGES")}
    env.update(PYTHONPATH=str(release), LANG="C.UTF-8", COLUMNS="120", GRADE_CACHE_DIR=str(tmp_path))
    wrong = ["ex03", "--submission", str(WRONG_EX03), "--out", str(tmp_path / "grades")]
    run = subprocess.run([sys.executable, "-c", "from grader.cli.app import main; main()", *wrong],
                         cwd=release, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1, run.stderr
    assert "测试" in run.stdout and "个隐藏测试：由课程的自动评分系统评分" in run.stdout
    assert english_sentences(run.stdout) == [], run.stdout
    en = subprocess.run([sys.executable, "-c", "from grader.cli.app import main; main()", *wrong, "--lang", "en"],
                        cwd=release, env=env, capture_output=True, text=True, timeout=300)
    assert "hidden tests: graded on the course autograder" in en.stdout  # --lang still wins


def test_the_gradescope_bundle_carries_the_course_language(tmp_path: Path) -> None:
    course = Course(REPO, cache_dir=tmp_path / "cache")
    with using("zh"):
        build_bundle(course, [course.load("ex03")], tmp_path / "autograder.zip")
    with zipfile.ZipFile(tmp_path / "autograder.zip") as archive:
        assert archive.read("project/grader/locale/course-language").decode().strip() == "zh"
        assert "project/grader/locale/zh_CN/LC_MESSAGES/grader.po" in archive.namelist()


def test_the_zh_release_notebooks_are_chinese_around_the_code(release: Path) -> None:
    import json

    notebooks = sorted((release / "notebooks").glob("ex*.ipynb"))
    assert len(notebooks) == len(catalog.exercise_ids())
    for path in notebooks:
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        markdown = ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]
        assert markdown[0].startswith(f"# {path.name[:4]}：") and "把每个还在抛出" in markdown[-1]
        prose = [line for text in markdown for line in text.splitlines() if not line.startswith("    ")]  # no code
        joined = " ".join(" ".join(prose).split())  # PyTorch's quoted texts on one line: allowed
        assert english_sentences(joined.replace("NotImplementedError", "")) == [], markdown
        broken = re.findall(r"[\u4e00-\u9fff，。：；）]\n[\u4e00-\u9fff（]", markdown[0])
        assert broken == [], broken  # a line break inside a Chinese sentence shows as a stray space
        code = "".join(cells[-1]["source"])
        assert code.startswith("import grader\ngrader.check(")


def test_notebook_lines_and_notes_are_named_in_chinese() -> None:
    import json

    from grader.course.notebook import convert

    document = {"nbformat": 4, "nbformat_minor": 4, "metadata": {}, "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# title"]},
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": ["%matplotlib inline\n", "x = 1\n", "!pip list"]},
    ]}
    with using("zh"):
        converted = convert(json.dumps(document).encode(), "work.ipynb")
        assert converted.where(2) == "第 2 个单元格第 2 行"
        assert converted.notes()[0] == "没有评分（不是 Python 代码，或是评分语句本身）：shell 命令（!）、魔法命令（%）"
    assert convert(json.dumps(document).encode(), "work.ipynb").where(2) == "cell 2, line 2"


def test_grader_check_in_a_notebook_speaks_the_language_asked(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("MICROGRAPH_LANG", "LC_ALL", "LC_MESSAGES", "LANG")}
    env.update(GRADE_CACHE_DIR=str(tmp_path))
    course = tmp_path / "course"  # a course folder of its own: grader.check draws into its grades/
    for folder in ("exercises", "solutions"):
        (course / folder).mkdir(parents=True)
    (course / "solutions" / "ex03_retain_grad.py").write_bytes((REPO / "solutions" / "ex03_retain_grad.py").read_bytes())
    (course / "exercises" / "ex03_retain_grad.py").write_text(WRONG_EX03.read_text(encoding="utf-8"),
                                                             encoding="utf-8")
    code = "import grader; c = grader.check('ex03', lang='zh'); print('=====' + c._repr_html_())"
    run = subprocess.run([sys.executable, "-c", code], cwd=course, env=env, capture_output=True, text=True, timeout=300)
    text, page = run.stdout.split("=====", 1)
    assert "<th>测试</th>" in page and "<th>反馈</th>" in page and "总分：" in page, page
    shown = re.sub(r"<svg.*?</svg>|<code>.*?</code>", " ", page, flags=re.S)  # code: the sandbox's terms
    assert english_sentences(re.sub(r"<[^>]+>", "\n", shown)) == [] and english_sentences(text) == []


def test_an_english_course_leaves_the_language_to_the_students_locale(tmp_path: Path) -> None:
    from grader.i18n import COURSE_LANGUAGE_FILE, fix_course_language

    fix_course_language(tmp_path, "zh_CN.UTF-8")
    assert (tmp_path / COURSE_LANGUAGE_FILE).read_text(encoding="utf-8") == "zh\n"
    fix_course_language(tmp_path, "en")  # a Chinese locale must still choose Chinese in it
    assert not (tmp_path / COURSE_LANGUAGE_FILE).exists()
