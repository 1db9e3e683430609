"""The ``grade`` command: naming exercises, exit codes, --json, usage errors, list, check,
expected observations for a release."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from toycourse import GOOD, STUB, WRONG, ToyCourse

from grader.cli.app import main
from grader.course import catalog
from grader.course.catalog import CatalogError, parse_id

REPO = Path(__file__).resolve().parents[2]


@dataclass
class Run:
    code: int
    out: str
    err: str


@pytest.fixture
def grade(toy: ToyCourse, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    """``grade(*args)`` in the toy course folder (or ``cwd=...``), returning code and output."""
    monkeypatch.setenv("GRADE_TESTS_DIR", str(toy.course.tests_dir))
    monkeypatch.setenv("GRADE_CACHE_DIR", str(toy.course.cache_dir))

    def run(*args: str, cwd: Path | None = None) -> Run:
        monkeypatch.chdir(cwd or toy.course.root)
        capsys.readouterr()
        with pytest.raises(SystemExit) as exit_info:
            main(list(args))
        captured = capsys.readouterr()
        return Run(exit_info.value.code, captured.out, captured.err)

    return run


@pytest.mark.parametrize("text", ["3", "03", "ex3", "ex03", "EX3", " ex003 "])
def test_three_spellings_of_exercise_three(text: str) -> None:
    assert parse_id(text) == "ex03"


@pytest.mark.parametrize("text", ["", "ex", "x3", "ex-1", "0", "ex100", "retain_grad"])
def test_not_an_exercise(text: str) -> None:
    with pytest.raises(CatalogError):
        parse_id(text)


def test_exit_codes(grade, toy: ToyCourse) -> None:
    solution = str(toy.course.solutions_dir / "ex41_fine.py")
    assert grade("ex41", "--submission", solution).code == 0
    assert grade("41").code == 1  # the untouched stub
    assert grade("ex041", "--submission", str(toy.write("w/ex41_fine.py", WRONG))).code == 1


@pytest.mark.parametrize("args, phrase", [
    (["ex99"], "no exercise ex99"),
    (["exx"], "is not an exercise"),
    (["ex41", "--submission", "/nonexistent/file.py"], "no such file or folder"),
    (["--nope"], "No such option"),
    (["ex41", "ex42", "--submission", "solutions/ex41_fine.py"], "grades one exercise"),
    (["--submission", "solutions/../tests/ex41.py"], "cannot tell the exercise"),
    (["ex41", "--out", "solutions/ex41_fine.py"], "is a file, not a folder"),
    (["ex41", "--out", "/proc/no/such/folder"], "No such file or directory: /proc/no"),
    (["batch", "solutions", "--out", "solutions/ex41_fine.py"], "is a file, not a folder"),
    (["batch", "solutions", "--out", "solutions"], "is the submissions folder"),
    (["batch", "solutions", "--out", "solutions/a/b"], "inside a student's entry"),
    (["batch", "solutions/ex41_fine.py", "--out", "graded"], "is a file"),
    (["batch", "nowhere", "--out", "graded"], "does not exist"),
    (["release", "-o", "solutions/ex41_fine.py"], "is a file, not a folder"),
    (["gradescope", "-o", "solutions"], "is a folder: give the name of the file"),
    (["check", "--out", "solutions/ex41_fine.py"], "is a file, not a folder"),
    (["expected", "--to", "solutions/ex41_fine.py"], "is a file, not a folder"),
])
def test_usage_errors_are_one_line(grade, args: list[str], phrase: str) -> None:
    run = grade(*args)
    assert run.code == 2
    assert run.out == ""
    message = message_of(run.err)
    assert message.startswith("grade: ") and phrase in message


HINT = re.compile(r"Try 'grade( \w+)? --help' for help\.")


def message_of(err: str) -> str:
    """A usage error's one line, checking that click's help hint, if any, stands on its own line
    after it."""
    lines = err.splitlines()
    assert err.endswith("\n") and len(lines) in (1, 2), err
    assert len(lines) == 1 or HINT.fullmatch(lines[1]), err
    return lines[0]


@pytest.mark.parametrize("args, typed", [
    (["--bogus"], "grade"), (["ex41", "--bogus"], "grade"), (["run", "ex41", "--bogus"], "grade run"),
    (["batch", "--bogus"], "grade batch"),
])
def test_the_help_hint_names_the_command_typed(grade, args: list[str], typed: str) -> None:
    assert grade(*args).err.splitlines()[1] == f"Try '{typed} --help' for help."


def test_a_file_that_is_not_utf8_is_named_with_the_encoding_expected(grade, toy: ToyCourse) -> None:
    latin = toy.submissions / "latin" / "ex41_fine.py"
    latin.parent.mkdir(parents=True)
    latin.write_bytes(("# café\n" + GOOD).encode("latin-1"))
    run = grade("ex41", "--submission", str(latin))
    assert run.code == 1
    said = " ".join(run.out.split())
    assert "no test ran (0/3): " in said and "ex41_fine.py is not UTF-8 text (byte 0xE9 on line 1): save it as UTF-8" in said
    assert "codec" not in run.out


def test_a_file_the_autograder_refuses_in_a_folder_handed_in_scores_zero_with_its_reason(
        grade, toy: ToyCourse) -> None:
    """A file the course's autograder finds in a hand-in but refuses to grade (not UTF-8, in a
    subfolder) scores zero here too, told with the autograder's reason, not as a missing file."""
    latin = toy.submissions / "refused" / "work" / "ex41_fine.py"
    latin.parent.mkdir(parents=True)
    latin.write_bytes(("# café\n" + GOOD).encode("latin-1"))
    run = grade("ex41", "--submission", str(latin.parents[1]))
    assert run.code == 1, run.err
    reason = "ex41_fine.py is not UTF-8 text (byte 0xE9 on line 1): save it as UTF-8"
    assert reason.replace(" ", "") in "".join(run.out.split())  # the table wraps it, a long path anywhere
    assert reason in run.err
    assert "missing file" not in run.err


def test_an_option_that_is_no_typo_gets_no_suggestion(grade) -> None:
    assert "Did you mean" not in grade("ex41", "--bogus").err
    assert "Did you mean '--json'?" in grade("ex41", "--jsn").err


def test_outside_a_course_folder(grade, tmp_path: Path) -> None:
    run = grade("ex41", cwd=tmp_path)
    assert run.code == 2 and "no exercises/ folder" in run.err and "--submission" in run.err


def test_from_a_folder_inside_the_course(grade, toy: ToyCourse) -> None:
    run = grade("ex41", cwd=toy.course.exercises_dir)
    assert run.code == 1 and "not started" in run.out
    assert "(ex41_fine.py)" in run.out, run.out  # the path that opens the file from exercises/
    assert "(exercises/ex41_fine.py)" in grade("ex41").out
    solved = grade("ex41", "--submission", str(toy.course.solutions_dir / "ex41_fine.py"),
                   cwd=toy.course.exercises_dir)
    assert solved.code == 0


@pytest.mark.parametrize("command", [["check"], ["batch", ".", "--out", "graded"], ["release", "-o", "out"],
                                     ["gradescope", "-o", "out.zip"]])
def test_an_instructor_command_outside_a_course_folder_names_the_folders_it_needs(
        grade, tmp_path: Path, command: list[str]) -> None:
    run = grade(*command, cwd=tmp_path)
    assert run.code == 2 and run.out == ""
    said = message_of(run.err)
    assert "no exercises/ or solutions/ folder" in said, said
    assert f"run grade {command[0]} from the course folder" in said, said
    assert not (tmp_path / command[-1]).exists()


def test_missing_file_for_the_named_exercise(grade, tmp_path: Path) -> None:
    (tmp_path / "exercises").mkdir()
    run = grade("ex41", cwd=tmp_path)
    assert run.code == 2 and "missing file exercises/ex41_fine.py" in run.err


def test_a_file_beside_the_one_graded_is_named_as_not_graded(grade, toy: ToyCourse) -> None:
    toy.write("beside/ex41_fine.py", GOOD)
    folder = toy.write("beside/ex41_fine.ipynb", "{}").parent
    run = grade("ex41", "--submission", str(folder))
    assert run.code == 0
    assert f"ex41: 2 files, graded {folder / 'ex41_fine.py'} (not {folder / 'ex41_fine.ipynb'})" in run.err
    assert "grading ex41_fine.py; not graded" not in run.err


def test_grade_in_the_course_folder_names_a_file_beside_the_one_graded(grade, toy: ToyCourse) -> None:
    (toy.course.exercises_dir / "ex41_fine.ipynb").write_text("{}")
    run = grade("ex41")
    assert "ex41: grading ex41_fine.py; not graded: ex41_fine.ipynb" in run.err


@pytest.mark.parametrize("files, graded", [
    ({"ex42_hostile.py": STUB, "ex42_hostile.ipynb": None}, "ex42_hostile.ipynb"),
    ({"作业/第42题/ex42_hostile.py": GOOD}, "作业/第42题/ex42_hostile.py"),
    ({"ex42 (1).py": GOOD}, "ex42 (1).py"),
    ({"ex42.py": GOOD}, "ex42.py"),
])
def test_a_folder_handed_in_is_graded_on_the_file_the_autograder_chooses(
        grade, toy: ToyCourse, files: dict[str, str | None], graded: str) -> None:
    """The untouched stub beside the notebook the student filled in, a file in a subfolder, a
    near-miss name: graded here as the course's autograder grades the hand-in, not "missing"
    nor "not started"."""
    notebook = json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "code", "metadata": {}, "source": GOOD, "outputs": [], "execution_count": 1}]})
    for name, text in files.items():
        folder = toy.write(f"handed-{re.sub(r'[^a-z0-9]', '_', graded)}/{name}", text or notebook
                           ).parents[name.count("/")]  # a folder of each case's own: the toy is shared
    run = grade("ex42", "--submission", str(folder))
    assert run.code == 0, run.err
    assert f"({folder / graded})" in run.out


@pytest.mark.parametrize("name, said", [
    ("ex42_hostile.py", "ex42_hostile.py is exercise ex42's file, not ex41's"),
    ("ex41_fine.py.txt", "ex41_fine.py.txt ends in .txt after .py, so it is not looked at (Notepad adds .txt, and "
                         "Windows hides it): rename it ex41_fine.py"),
])
def test_a_missing_file_names_the_file_the_folder_holds(grade, toy: ToyCourse, name: str, said: str) -> None:
    folder = toy.write(f"misnamed/{name}", GOOD).parent
    run = grade("ex41", "--submission", str(folder))
    assert run.code == 2 and run.out == ""
    assert said in message_of(run.err)


def test_another_exercises_file_is_not_graded(grade, toy: ToyCourse) -> None:
    run = grade("ex41", "--submission", str(toy.write("other/ex42_hostile.py", GOOD)))
    assert run.code == 2 and "ex42_hostile.py is exercise ex42's file, not ex41's" in message_of(run.err)


@pytest.mark.parametrize("args", [["ex41"], []])
def test_two_candidate_files_handed_in_are_graded_as_the_autograder_chooses(
        grade, toy: ToyCourse, args: list[str]) -> None:
    toy.write("twice/ex41_one.py", GOOD)
    folder = toy.write("twice/ex41_two.py", WRONG).parent
    run = grade(*args, "--submission", str(folder))
    assert f"ex41: 2 files, graded {folder / 'ex41_one.py'} (not {folder / 'ex41_two.py'})" in run.err



def test_json_for_one_exercise(grade, toy: ToyCourse) -> None:
    run = grade("ex42", "--json", "--submission", str(toy.write("j/ex42_hostile.py",
                                                               "print('hi')\n" + WRONG)))
    payload = json.loads(run.out)  # stdout is the JSON object and nothing else
    assert set(payload) == {"format_version", "score", "max_score", "graded_here", "full_marks",
                            "exercises", "isolation"}
    assert payload["format_version"] == 2 and len(payload["exercises"]) == 1
    assert payload["graded_here"] == {"score": 0, "max_score": 3, "all_passed": False}
    assert payload["full_marks"] is False
    data = payload["exercises"][0]
    assert set(data) == {"exercise", "title", "score", "max_score", "graded_here", "outcome",
                         "tests", "diagrams", "stdout", "stdout_lines", "stdout_dropped", "notes", "untouched_why"}
    assert payload["isolation"] in ("namespaces", "uid+seccomp", "limits only")
    assert (data["exercise"], data["score"], data["max_score"]) == ("ex42", 0, 3)
    assert data["stdout"] == "hi\n"
    assert [set(t) for t in data["tests"]] == [{"name", "score", "max_score", "status",
                                                "feedback", "visibility"}] * 3
    assert [t["visibility"] for t in data["tests"]] == ["public", "hidden", "hidden"]
    assert run.code == 1


def test_json_for_all_and_grading_carries_on_past_a_crash(grade, toy: ToyCourse) -> None:
    toy.write("class/ex41_fine.py", GOOD)
    folder = toy.write("class/ex42_hostile.py", "import os\nos._exit(9)\n").parent
    run = grade("all", "--json", "--submission", str(folder))
    data = json.loads(run.out)
    assert data["format_version"] == 2  # the same shape as for one exercise
    assert set(data) == set(json.loads(grade("ex41", "--json", "--submission", str(folder)).out))
    scores = {e["exercise"]: e["score"] for e in data["exercises"]}
    assert scores == {"ex41": 3, "ex42": 0} and data["score"] == 3 and run.code == 1
    ex42 = data["exercises"][1]["tests"]
    assert {t["feedback"] for t in ex42} == {"your code exited with status 9 while being imported (os._exit, for instance), before any test ran"}


def test_an_exit_in_one_test_of_several_exercises_costs_that_test_alone(grade, toy: ToyCourse) -> None:
    """``grade all``'s exercises share one child: ex42's worker ending itself in its second test leaves
    its third to a fresh child, and ex41 after it is graded as ever."""
    toy.write("exits/ex41_fine.py", GOOD)
    folder = toy.write("exits/ex42_hostile.py", "import os\ndef double(x):\n    if x < 0:\n        os._exit(4)\n"
                                                "    return 2 * x\n").parent
    data = json.loads(grade("all", "--json", "--submission", str(folder)).out)
    scores = {e["exercise"]: e["score"] for e in data["exercises"]}
    assert scores == {"ex41": 3, "ex42": 2}
    ex42 = data["exercises"][1]["tests"]
    assert [t["status"] for t in ex42] == ["passed", "error", "passed"]
    assert ex42[1]["feedback"] == "your code exited with status 4 (os._exit, for instance) during this test"


def test_human_output(grade, toy: ToyCourse) -> None:
    folder = toy.write("human/ex41_fine.py", GOOD).parent
    run = grade("--submission", str(folder))
    assert "ex41  Doubling, graded normally" in run.out
    assert "public  1/1" in run.out and "hidden  1/1" in run.out and "total: 3/3" in run.out
    assert "no file" in run.out  # ex42 is missing from this folder: zero, not a crash
    rows = [line.split() for line in run.out.splitlines() if line.startswith("  ex42")]
    assert rows == [["ex42", "0/3", "not", "graded", "Doubling,", "under", "attack"]]  # nothing raised
    assert run.out.rstrip().splitlines()[-1] == "  total: 3/6"
    assert run.code == 1


def test_an_untouched_exercise_among_several_is_one_row_of_the_summary(grade, toy: ToyCourse) -> None:
    folder = toy.write("started/ex41_fine.py", GOOD).parent
    toy.write("started/ex42_hostile.py", STUB)
    run = grade("--submission", str(folder))
    assert "ex41  Doubling, graded normally" in run.out  # a started exercise keeps its table
    assert "ex42  Doubling, under attack" not in run.out and "not started (" not in run.out
    rows = [line.split() for line in run.out.splitlines() if line.startswith("  ex42")]
    assert rows == [["ex42", "0/3", "not", "started", "Doubling,", "under", "attack"]]
    assert run.out.rstrip().splitlines()[-1] == ("  not started: every function the tests call "
                                                  "still raises NotImplementedError")


def test_a_file_that_does_not_load_is_one_sentence_naming_its_error(grade, toy: ToyCourse) -> None:
    folder = toy.write("broken/ex41_fine.py", "def double(x)\n    return 2 * x\n").parent
    toy.write("broken/ex42_hostile.py", GOOD)
    run = grade("--submission", str(folder))
    table = run.out.split("ex41  Doubling, graded normally")[1].split("\n\n")[0]
    assert table.count("SyntaxError at line 1") == 1, table  # not once per test, nor again for the diagram
    assert "no test ran (0/3): SyntaxError at line 1" in table and "feedback" not in table
    rows = [line.split() for line in run.out.splitlines() if line.startswith("  ex41")]
    assert rows == [["ex41", "0/3", "syntax", "error", "Doubling,", "graded", "normally"]]


def test_an_import_the_grader_refuses_is_one_sentence_naming_it(grade, toy: ToyCourse) -> None:
    folder = toy.write("debugged/ex41_fine.py", GOOD + "import pdb\n").parent
    run = grade("ex41", "--submission", str(folder / "ex41_fine.py"))
    said = " ".join(run.out.split())  # the sentence wraps to the terminal's width
    assert "every test met the same error (0/3): " in said and said.count("which a submission may not import") == 1
    assert "Remove the import" in said and "feedback" not in said
    assert "Remove the import (a debugger or a doctest run left in counts too)." in said
    assert "flagged for the instructor: imports a module a submission may not import: pdb (line" in said
    assert "grading's internals" not in said  # a debugger left in reached for nothing


def test_list(grade) -> None:
    run = grade("list")
    assert run.code == 0
    lines = run.out.splitlines()
    assert lines[0].split()[:4] == ["exercise", "points", "public", "hidden"]
    assert [line.split()[:4] for line in lines[1:]] == [["ex41", "3", "1", "2"],
                                                        ["ex42", "3", "1", "2"]]


def test_check_passes_on_the_toy_course(grade) -> None:
    run = grade("check")
    assert run.code == 0, run.out
    assert "2 exercises, 0 problems" in run.out


def test_check_fails_when_a_stub_is_already_solved(grade, toy: ToyCourse, tmp_path: Path) -> None:
    shutil.copytree(toy.course.root / "solutions", tmp_path / "solutions")
    shutil.copytree(toy.course.root / "solutions", tmp_path / "exercises")  # "stubs" solved
    run = grade("check", "ex41", cwd=tmp_path)
    assert run.code == 1 and "untouched stub scores 3/3" in run.out


def test_hidden_expected_answers_go_only_to_a_folder_outside_the_course(
        grade, toy: ToyCourse, tmp_path: Path) -> None:
    assert "--to FOLDER" in message_of(grade("expected", "ex41").err)
    inside = toy.course.root / "grader" / "exercises" / "expected"
    assert "is inside" in message_of(grade("expected", "ex41", "--to", str(inside)).err)
    assert not inside.exists()
    secret = tmp_path / "secret"
    assert grade("expected", "ex41", "--to", str(secret)).code == 0
    written = json.loads((secret / "ex41.json").read_text())
    assert len(written["observations"]) == 3  # the hidden tests' too
    assert stat.S_IMODE(secret.stat().st_mode) & 0o077 == 0
    assert stat.S_IMODE((secret / "ex41.json").stat().st_mode) & 0o077 == 0


def test_release_grades_public_tests_from_shipped_expectations(
    grade, toy: ToyCourse, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = tmp_path / "expected"
    assert grade("expected", "ex41", "--public-only", "--to", str(shipped)).code == 0
    release = tmp_path / "release"
    (release / "exercises").mkdir(parents=True)
    (release / "exercises" / "ex41_fine.py").write_text(GOOD)
    monkeypatch.setenv("GRADE_EXPECTED_DIR", str(shipped))
    data = json.loads(grade("ex41", "--json", cwd=release).out)["exercises"][0]
    assert [t["status"] for t in data["tests"]] == ["passed", "error", "error"]
    assert "course autograder" in data["tests"][1]["feedback"]
    monkeypatch.setenv("GRADE_EXPECTED_DIR", str(tmp_path / "nowhere"))
    data = json.loads(grade("ex41", "--json", cwd=release).out)["exercises"][0]
    assert "no solutions/ex41_fine.py" in data["tests"][0]["feedback"]


def test_grade_check_on_the_real_exercises(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """ex01 ships complete: its solution scores full marks and its stub zero."""
    monkeypatch.chdir(REPO)
    monkeypatch.delenv("GRADE_TESTS_DIR", raising=False)
    monkeypatch.setenv("GRADE_CACHE_DIR", str(tmp_path / "cache"))
    with pytest.raises(SystemExit) as exit_info:
        main(["check", "ex01", "--out", str(tmp_path / "grades")])
    out = capsys.readouterr().out
    assert exit_info.value.code == 0, out
    total = catalog.load("ex01").spec.max_score
    assert out.split()[:6] == ["ex01", "ok", "solution", f"{total}/{total}", "stub", f"0/{total}"]


def test_version_says_how_submissions_are_isolated(grade) -> None:
    run = grade("--version")
    assert run.code == 0 and run.out.startswith("grade (micrograph ")
    assert re.search(r"isolation: (namespaces|uid\+seccomp|limits only)", run.out)


def test_printed_lines_are_counted_before_the_cap_and_the_cut_is_stated(grade,
                                                                        toy: ToyCourse) -> None:
    printing = "for i in range(3000):\n    print(f'line {i}')\n" + GOOD
    path = toy.write("chatty/ex41_fine.py", printing)
    printed = sum(len(f"line {i}\n") for i in range(3000))
    run = grade("ex41", "--submission", str(path), "--json")
    data = json.loads(run.out)["exercises"][0]
    assert data["stdout_lines"] == 3000 and data["stdout_dropped"] == printed - 10_000
    text = grade("ex41", "--submission", str(path)).out
    assert "the submission's output, 3000 lines:" in text
    assert (f"| ... 2985 more lines; the grader kept the first 10000 bytes and dropped "
            f"{printed - 10_000} bytes") in text
    quiet = toy.write("quiet/ex41_fine.py", "print('hi', end='')\n" + GOOD)
    assert "the submission's output, 1 line:\n  | hi" in grade("ex41", "--submission",
                                                              str(quiet)).out



def test_a_printed_warning_names_the_students_file_not_the_sandboxs_copy(grade, toy: ToyCourse) -> None:
    warning = "import warnings\nwarnings.warn('careful')\n" + GOOD
    path = toy.write("warned/ex41_fine.py", warning)
    text = grade("ex41", "--submission", str(path)).out
    assert f"| {path}:2: UserWarning: careful" in text, text

@pytest.mark.parametrize("words, cword, want, not_want", [
    ("grade ", 1, {"batch", "release", "list", "ex01", "ex15", "all"}, set()),
    ("grade ex1", 1, {"ex10", "ex15"}, {"ex01", "batch"}),
    ("grade ex03 ex1", 2, {"ex10", "ex15"}, {"ex03", "batch"}),
    ("grade check ex0", 2, {"ex01", "ex09"}, {"batch"}),
    ("grade batch --exercises ex01,ex1", 3, {"ex01,ex10", "ex01,ex15"}, {"ex10"}),
    ("grade ex03 --", 2, {"--json", "--submission", "--out"}, set()),
])
def test_shell_completion_of_commands_and_exercises(words: str, cword: int, want: set[str],
                                                     not_want: set[str]) -> None:
    env = {**os.environ, "_GRADE_COMPLETE": "bash_complete", "COMP_WORDS": words,
           "COMP_CWORD": str(cword)}
    env.pop("GRADE_TESTS_DIR", None)
    proc = subprocess.run([sys.executable, "-c", "from grader.cli.app import main; main()"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    got = {line.split(",", 1)[1] for line in proc.stdout.splitlines() if "," in line}
    assert want <= got and not (not_want & got), (proc.stdout, proc.stderr)


def test_check_fails_when_a_stub_holds_a_line_of_its_solution(grade, toy: ToyCourse,
                                                             tmp_path: Path) -> None:
    shutil.copytree(toy.course.root / "solutions", tmp_path / "solutions")
    (tmp_path / "exercises").mkdir()
    (tmp_path / "exercises" / "ex41_fine.py").write_text(
        'def double(x):\n    raise NotImplementedError("ex41: double")\n    return 2 * x\n')
    run = grade("check", "ex41", cwd=tmp_path)
    assert run.code == 1 and "untouched stub scores" not in run.out
    assert "the stub holds 1 line of its solution, such as 'return 2 * x'" in run.out


def test_help_puts_the_instructor_commands_under_their_own_heading(grade) -> None:
    run = grade("--help")
    students, instructors = run.out.split("Instructor commands (in the course folder, beside solutions/):")
    listed = lambda text: set(re.findall(r"^  (\w+)  ", text, re.MULTILINE))  # noqa: E731
    assert {"list", "run"} <= listed(students) and not listed(students) & {"batch", "check", "release"}
    assert listed(instructors) == {"batch", "check", "expected", "gradescope", "release"}


def test_grade_ends_its_process_only_after_its_exit_functions(tmp_path: Path) -> None:
    """The console script leaves without the interpreter's shutdown, after every exit function:
    the child started early for a named exercise and the renderer's worker, both unused when
    the exercise does not exist, are killed and their scratch folders removed, and the status
    is the command's."""
    temp = tmp_path / "temp"
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp)}
    proc = subprocess.run([sys.executable, "-c", "from grader.cli.entry import main; main()", "ex99"],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "no exercise ex99" in proc.stderr, proc.stderr
    assert sorted(p.name for p in temp.iterdir()) == []
