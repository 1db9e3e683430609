"""``grade --help``, every subcommand's ``--help``, click's usage errors and ``grade check`` in
Chinese: however Chinese is chosen (``--lang zh`` anywhere, ``MICROGRAPH_LANG``, the locale),
no English sentence, lines that fit the terminal; English stays English.

``grade`` runs in this process (``grader.cli.app.main``, as ``tests/grader/test_cli.py`` does):
a Python start and the grader's imports cost more than the command itself.  The language
variables are cleared before each run and given back after it, with gettext's domain, since
``main`` sets them for its whole process; one test runs the command in a process of its own,
the locale alone choosing Chinese.
"""

from __future__ import annotations

import gettext
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from leaks import english_sentences

from grader.cli.app import language_on, main
from grader.report.width import width

REPO = Path(__file__).resolve().parents[2]
GRADE = [sys.executable, "-c", "from grader.cli.entry import main; main()"]  # the console script
COMMANDS = ["", "run", "list", "check", "expected", "batch", "gradescope", "release"]
COLUMNS = 80
LANGUAGE_VARIABLES = ("MICROGRAPH_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str


Grade = Callable[..., Run]


@pytest.fixture
def grade(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
          answers: Path) -> Iterator[Grade]:
    """``grade(*args, **env)``: the command in this process, from the checkout, with no language
    variable but those given; returns its exit status and output."""
    domain = gettext.textdomain()

    def run(*args: str, **env: str) -> Run:
        monkeypatch.chdir(REPO)
        for name in LANGUAGE_VARIABLES:
            monkeypatch.delenv(name, raising=False)
        for name, value in {"COLUMNS": str(COLUMNS), "GRADE_CACHE_DIR": str(answers), **env}.items():
            monkeypatch.setenv(name, value)
        gettext.textdomain(domain)
        capsys.readouterr()
        with pytest.raises(SystemExit) as exit_info:
            main([a for a in args if a])
        captured = capsys.readouterr()
        return Run(exit_info.value.code, captured.out, captured.err)

    yield run
    gettext.textdomain(domain)  # main binds click's Chinese catalogue for the whole process


OPTION_SPEC = re.compile(r"^\s+-.*?(?:\s{2,}|$)", re.MULTILINE)  # "  --jobs INTEGER RANGE  ": names and metavars


def assert_chinese_help(text: str) -> None:
    assert text.startswith("用法：grade"), text
    assert "选项：" in text and "显示本帮助后退出。" in text, text
    assert english_sentences(OPTION_SPEC.sub(" ", text)) == [], text
    too_wide = [line for line in text.splitlines() if width(line) > COLUMNS]
    assert not too_wide, too_wide


@pytest.mark.parametrize("command", COMMANDS)
def test_every_help_is_chinese_with_lang_zh(grade: Grade, command: str) -> None:
    run = grade(command, "--help", "--lang", "zh")
    assert run.returncode == 0, run.stderr
    assert_chinese_help(run.stdout)


@pytest.mark.parametrize("how", [("--lang", "zh", "--help"), ("--lang=zh", "--help"), ("--help", "--lang", "zh")])
def test_lang_before_or_after_help_of_the_group(grade: Grade, how: tuple[str, ...]) -> None:
    run = grade(*how)
    assert_chinese_help(run.stdout)
    assert "命令：" in run.stdout and "给全班评分" in run.stdout


@pytest.mark.parametrize("env", [{"MICROGRAPH_LANG": "zh"}, {"LANG": "zh_CN.UTF-8"}, {"LC_ALL": "zh_TW.UTF-8"}])
def test_the_environment_chooses_chinese_help(grade: Grade, env: dict[str, str]) -> None:
    assert_chinese_help(grade("batch", "--help", **env).stdout)


def test_english_help_stays_english(grade: Grade) -> None:
    run = grade("--help", LANG="zh_CN.UTF-8", MICROGRAPH_LANG="en")
    assert run.stdout.startswith("Usage: grade [OPTIONS] COMMAND [ARGS]...")
    assert "Show this message and exit." in run.stdout and "Grade a class" in run.stdout


@pytest.mark.parametrize("args, phrase", [
    (["ex03", "--nope", "--lang", "zh"], "没有 '--nope' 这个选项。"),
    (["--lang", "zh", "run", "--jsn"], "没有 '--jsn' 这个选项。你是不是想用 '--json'？"),
    (["--lang", "zh", "batch"], "缺少参数 'SUBMISSIONS'"),
    (["--lang", "zh", "list", "extra"], "多了一个参数：extra"),
    (["--lang", "zh", "batch", ".", "--out", "g", "--jobs", "0"], "不在范围"),
    (["--lang", "zh", "batch", "nowhere", "--out", "g"], "不存在"),
    (["--lang", "zh", "release"], "缺少选项 '-o'"),
])
def test_click_usage_errors_are_chinese_and_one_line(grade: Grade, args: list[str], phrase: str) -> None:
    run = grade(*args)
    assert run.returncode == 2 and run.stdout == ""
    message, hint = run.stderr.splitlines()  # the message, then click's hint on its own line
    assert message.startswith("grade: ") and hint.endswith("查看用法。"), run.stderr
    assert phrase in message, run.stderr
    assert english_sentences(run.stderr) == [], run.stderr


def test_an_option_without_its_value(grade: Grade) -> None:
    run = grade("--lang", "zh", "run", "--out")
    assert run.returncode == 2 and run.stderr == "grade: 选项 '--out' 后面要跟 1 个值。\n"


def test_a_bad_language_value_is_told_in_the_language_of_the_environment(grade: Grade) -> None:
    run = grade("list", "--lang", "klingon", MICROGRAPH_LANG="zh")
    assert run.returncode == 2 and "'klingon' 不是可选值之一：'en', 'zh'" in run.stderr, run.stderr


def test_english_usage_errors_keep_clicks_words(grade: Grade) -> None:
    run = grade("ex03", "--nope", LANG="C")
    assert run.stderr == "grade: No such option '--nope'.\nTry 'grade --help' for help.\n"


def test_grade_lang_zh_routes_exercises_and_commands_after_the_group_option(grade: Grade) -> None:
    listing = grade("--lang", "zh", "list")
    assert listing.returncode == 0 and listing.stdout.startswith("练习")
    unknown = grade("--lang", "zh", "ex99")
    assert unknown.returncode == 2 and unknown.stderr.startswith("grade: 没有练习 ex99（现有：ex01, ")
    assert unknown.stderr.rstrip().endswith("）。\n运行 'grade --help' 查看用法。")
    assert english_sentences(unknown.stderr) == [] and english_sentences(grade("--lang", "zh", "exx").stderr) == []


@pytest.mark.parametrize("args, found", [
    (["ex03", "--lang", "zh"], "zh"), (["--lang=zh_CN", "ex03"], "zh_CN"), (["--lang", "en", "--lang", "zh"], "zh"),
    (["--lang", "klingon"], None), (["--lang"], None), (["ex03"], None),
])
def test_the_language_is_read_anywhere_on_the_command_line(args: list[str], found: str | None) -> None:
    assert language_on(args) == found


def test_grade_check_and_expected_speak_chinese(grade: Grade, tmp_path: Path) -> None:
    check = grade("check", "ex01", "--lang", "zh", "--out", str(tmp_path / "g"))
    assert check.returncode == 0, check.stdout + check.stderr
    first = check.stdout.split()
    assert first[:3] == ["ex01", "正常", "答案"] and "练习文件" in first
    assert "1 个练习，0 个问题" in check.stdout
    assert english_sentences(check.stdout + check.stderr) == [], check.stdout
    expected = grade("expected", "ex01", "--public-only", "--to", str(tmp_path / "e"), "--lang", "zh")
    assert expected.returncode == 0 and expected.stdout.startswith("ex01：") and "个测试 ->" in expected.stdout


@pytest.mark.parametrize("env", [{}, {"GRADE_ISOLATION": "limits-only"}, {"GRADE_LANDLOCK": "off"}],
                         ids=["detected", "lowered", "no-landlock"])
def test_version_names_the_isolation_in_chinese(grade: Grade, env: dict[str, str]) -> None:
    english = grade("--version", **env)
    chinese = grade("--version", "--lang", "zh", **env)
    assert chinese.returncode == english.returncode == 0, chinese.stderr
    assert chinese.stdout.startswith("grade（micrograph ") and "隔离方式：" in chinese.stdout, chinese.stdout
    assert "isolation: " in english.stdout and "isolation" not in chinese.stdout
    assert english_sentences(chinese.stdout) == [], chinese.stdout


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("command", COMMANDS)
def test_help_holds_no_control_character(grade: Grade, lang: str, command: str) -> None:
    """click's no-rewrap mark (a backspace) is its own paragraph's first line, never printed."""
    shown = grade(command, "--help", "--lang", lang).stdout
    assert not [c for c in shown if c < " " and c != "\n"], repr(shown)


def test_the_locale_alone_chooses_chinese_in_a_process_of_its_own(tmp_path: Path) -> None:
    """The console script's function in a fresh Python started under a Chinese locale."""
    base = {k: v for k, v in os.environ.items() if k not in LANGUAGE_VARIABLES}
    run = subprocess.run([*GRADE, "--help"], cwd=REPO, capture_output=True, text=True, timeout=300,
                         env={**base, "COLUMNS": str(COLUMNS), "LANG": "zh_CN.UTF-8",
                              "GRADE_CACHE_DIR": str(tmp_path)})
    assert run.returncode == 0, run.stderr
    assert_chinese_help(run.stdout)
