"""The Gradescope bundle, run locally: ``run_autograder`` against a stand-in for /autograder
(``AUTOGRADER_ROOT``) always leaves a valid results.json, whatever it is handed."""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

from coursekit import BUNDLED, REPO, by_name, hidden_texts, solution, stub, visible

from grader.course import catalog


def test_any_layout_and_what_students_see_when(standin) -> None:
    wrong = REPO / "tests" / "exercises" / "gallery" / "ex03" / "hardcoded.py"

    def setup(submission: Path, root: Path) -> None:
        nested = submission / "my work" / "exercises"
        nested.mkdir(parents=True)
        shutil.copy(solution("ex01"), nested / solution("ex01").name)
        with zipfile.ZipFile(submission / "upload.zip", "w") as archive:
            archive.write(wrong, "hw/ex03_retain_grad.py")

    data = standin(setup)
    tests = by_name(data)
    ex01 = catalog.load("ex01").spec
    assert all(tests[f"ex01: {t.name}"]["status"] == "passed" for t in ex01.tests)
    assert 0 < data["score"] < ex01.max_score + catalog.load("ex03").spec.max_score
    for exercise_id in BUNDLED:
        for number, test in enumerate(catalog.load(exercise_id).spec.tests, 1):
            entry = tests[f"{exercise_id}: {test.name}"]
            assert entry["number"] == f"{int(exercise_id[2:])}.{number}"
            assert entry["visibility"] == ("visible" if test.public else "after_published")
            assert entry["max_score"] == test.points
        for text in hidden_texts(exercise_id):
            assert text not in visible(data)
    assert "hidden tests" in data["output"] and "published" in data["output"]
    # a ``hidden`` test would leave the total (hidden points in it) shown before publication
    assert {t["visibility"] for t in data["tests"]} <= {"visible", "after_published"}
    failed = [t for t in data["tests"] if t["name"].startswith("ex03") and t["status"] == "failed"]
    assert failed and all(t["output"].startswith("**failed**") for t in failed)


def test_a_missing_file_and_a_foreign_encoding_score_zero_with_a_reason(standin) -> None:
    def setup(submission: Path, root: Path) -> None:
        (submission / "ex01_graph.py").write_bytes("x = 'café'\n".encode("latin-1"))

    data = standin(setup)
    assert data["score"] == 0
    assert "ex01\\_graph\\.py is not UTF\\-8 text" in data["output"]
    ex03 = [t for t in data["tests"] if t["name"].startswith("ex03")]
    assert ex03 and all("no ex03\\_retain\\_grad\\.py" in t["output"] for t in ex03)
    under_ex03 = data["output"].split("- **ex03**")[1].splitlines()[1]  # the summary's line under ex03
    assert under_ex03.startswith("  - **no test ran: no ex03\\_retain\\_grad\\.py"), under_ex03
    assert data["output"].count("not UTF\\-8 text") == 1  # said in the notes, not again under ex01


def test_an_empty_submission_still_gets_results(standin) -> None:
    data = standin(lambda submission, root: None)
    assert data["score"] == 0 and "the folder is empty" in data["output"]


def test_a_crash_of_the_grader_is_a_visible_autograder_error(standin) -> None:
    def setup(submission: Path, root: Path) -> None:
        shutil.copy(stub("ex01"), submission)
        (root / "source" / "secret" / "tests" / "ex01.py").write_text("this is not python\n")

    data = standin(setup)
    assert [t["name"] for t in data["tests"]] == ["autograder error"]
    assert data["tests"][0]["visibility"] == "visible" and data["score"] == 0
    assert "is broken" in data["tests"][0]["output"]
    assert "Traceback" in data["_stdout"]  # for the instructor, whose eyes only see stdout


def test_results_even_when_python_cannot_start(standin) -> None:
    data = standin(lambda submission, root: shutil.copy(stub("ex01"), submission),
                   GRADE_PYTHON="/bin/false")
    assert [t["name"] for t in data["tests"]] == ["autograder error"]
    assert "could not start the grader" in data["output"]


def test_the_bundle_holds_what_gradescope_needs(bundle: Path) -> None:
    with zipfile.ZipFile(bundle) as archive:
        names = set(archive.namelist())
        modes = {i.filename: i.external_attr >> 16 for i in archive.infolist()}
        setup_sh = archive.read("setup.sh").decode()
    assert {"setup.sh", "run_autograder", "project/pyproject.toml",
            "project/micrograph/__init__.py", "project/grader/publish/gradescope.py"} <= names
    for exercise_id in BUNDLED:
        assert f"secret/tests/{exercise_id}.py" in names
        assert f"secret/public/{exercise_id}.py" in names
        assert f"secret/solutions/{solution(exercise_id).name}" in names
    assert not any(re.fullmatch(r"project/grader/exercises/(expected/)?ex\d\d\.(py|json)", n)
                   for n in names)
    assert modes["run_autograder"] & 0o111 and modes["setup.sh"] & 0o111
    assert "pip install" in setup_sh and "useradd" in setup_sh and "go-rwx" in setup_sh


def test_a_syntax_error_is_said_once_to_staff_and_to_the_student(standin) -> None:
    def setup(submission: Path, root: Path) -> None:
        (submission / "ex01_graph.py").write_text("def f(:\n")
        walks = solution("ex03").read_text() + "\nimport inspect\nSTACK = inspect.stack()\n"
        (submission / "ex03_retain_grad.py").write_text(walks)  # reaches for the grader's frames

    data = standin(setup)
    staff = data["_stdout"]
    flag = "flagged for the instructor: reached for grading's internals"
    assert flag in staff and flag in data["extra_data"]["flagged"]["ex03"]
    assert list(data["extra_data"]["flagged"]) == ["ex03"] and flag not in data["output"]
    assert staff.count("the file has a syntax error, no test ran: SyntaxError at line 1") == 1
    assert "(error)" not in staff  # not the same error test by test
    summary = data["output"].split("- **ex03**")[0]
    assert r"**no test ran: ex01\_graph\.py has a syntax error, and no graph was drawn**" in summary
    assert "SyntaxError at line 1" in summary
    diagram = [t for t in data["tests"] if t["name"] == "ex01: the graph your code built"]
    assert [t["status"] for t in diagram] == ["failed"]
