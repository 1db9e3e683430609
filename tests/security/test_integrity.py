"""A grade that cannot be forged from inside the submission, in every isolation mode this
machine gives (``integrity_attacks.py`` holds the attacks).

* the wire: only the relay writes it; records written to any pipe, answers written ahead with
  a guessed nonce, the relay's pipe through ``/proc``, signals to the relay: all score what the
  untouched stub scores, and each attempt is refused;
* no channel between runs: every lock and watch call is refused, two runs alive at once see
  nothing of each other's attempts, and on Gradescope every public run ends before the first
  run holding hidden tests starts;
* fail closed without Landlock (``GRADE_LANDLOCK=off`` simulates a kernel without it): the
  course folder is off the child's ``sys.path``; a course autograder refuses, with one
  sentence, a course whose solutions or tests a child's uid could read, and grades one it
  cannot read with every read refused, and no child writing its own memory through
  ``/proc/self/mem`` (``memory_attacks.py``);
* ``limits only`` keeps no root: the child has its own uid, no capabilities, ``no_new_privs``,
  and every privileged call fails;
* a course autograder never takes an expected answer from a shipped file.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

import pytest

import integrity_attacks as attacks
import batches
import memory_attacks
import provenance_attacks
from batches import GRADE, MODES, REPO, batch
from integrity_attacks import ATTACKS, Attack
from modes import DROPPING, one_class_per_mode, skip_unless

from grader.course.folder import Course
from grader.judge.reference import Expected, write_shipped
from grader.publish.gradescope import build_bundle
from grader.sandbox import isolation

STUB = REPO / "exercises" / "ex01_graph.py"
EX01_TESTS = [t.name for t in Course(REPO).load("ex01").spec.tests]
REFUSED = {"EPERM", "EACCES", "ENOENT", "EROFS"}


def _graded(work: Path) -> dict[str, dict[str, Any]]:
    """Per student: what ``batches.graded`` reads, and the ``INTEGRITY`` lines it printed."""
    rows = batches.graded(work)
    for row in rows.values():
        row["said"] = attacks.said(row.get("text", ""))
    return rows


@pytest.fixture(scope="module", params=one_class_per_mode("integrity-class", MODES))
def graded(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
           answers: Path) -> dict[str, Any]:
    """Every attack and the untouched stub, graded as one class in the repository's course."""
    mode = request.param
    skip_unless(mode)
    work = tmp_path_factory.mktemp(f"integrity-{mode.replace(' ', '-').replace('+', '-')}")
    cache = batches.own_cache(answers, work)
    entries = {a.name: attacks.code(a, str(REPO / "solutions"), str(REPO / "grader" / "exercises"),
                                    str(cache), EX01_TESTS) for a in ATTACKS}
    entries["honest_wrong"] = STUB.read_text()
    proc = batch(REPO, entries, work, GRADE_ISOLATION=mode, GRADE_CACHE_DIR=str(cache),
                 GRADE_SENTINEL="off")
    assert proc.returncode == 0, proc.stderr[-2000:]
    return {"mode": mode, "rows": _graded(work)}


@pytest.mark.parametrize("attack", ATTACKS, ids=lambda a: a.name)
def test_an_attack_earns_what_the_honest_wrong_answer_earns(graded: dict[str, Any],
                                                            attack: Attack) -> None:
    rows = graded["rows"]
    assert rows["honest_wrong"]["ex01"] == "0"
    assert rows[attack.name]["ex01"] == rows["honest_wrong"]["ex01"], rows[attack.name]


@pytest.mark.parametrize("attack", ATTACKS, ids=lambda a: a.name)
def test_every_attempt_is_refused(graded: dict[str, Any], attack: Attack) -> None:
    said = graded["rows"][attack.name]["said"]
    allowed = {name: outcome for name, outcome in said.items()
               if outcome in ("ALLOWED", "ROOT", "SOME", "UNSET")}
    assert not allowed, allowed
    if attack.name == "locks_and_watches":
        assert set(said.values()) == {"EPERM"} and len(said) == 8, said
    if attack.name == "privileged_calls":
        assert said["uid"] == "UNPRIVILEGED" and said["capabilities"] == "NONE", said
        assert set(said) - {"uid", "capabilities", "no_new_privs"} and all(
            said[k] in REFUSED for k in said if k not in ("uid", "capabilities", "no_new_privs"))
    if attack.name == "the_course_folder_on_sys_path":
        assert said["course_on_path"] == "EABSENT", said
        assert said["import_solutions.ex01_graph"] in ("ModuleNotFoundError", "ImportError")


def test_records_on_the_wire_are_refused_as_tampering(graded: dict[str, Any]) -> None:
    for name in ("forged_records_on_every_pipe", "answers_written_ahead"):
        assert "tampered with" in graded["rows"][name]["text"], graded["rows"][name]["text"][:2000]


# --- two runs alive at once ------------------------------------------------------------------

WINDOW = re.compile(r"INTEGRITY window ([0-9.]+)")
SEEN = re.compile(r"SEEN (\[.*\])")


@pytest.fixture(scope="module", params=one_class_per_mode("integrity-concurrent", MODES))
def concurrent(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
               answers: Path) -> dict[str, Any]:
    """A sender and a receiver graded at once (``grade batch`` runs them side by side), below
    the sentinel: what each printed."""
    mode = request.param
    skip_unless(mode)
    work = tmp_path_factory.mktemp(f"concurrent-{mode.replace(' ', '-').replace('+', '-')}")
    seconds = repr(attacks.CONCURRENT_SECONDS)
    entries = {"sender": attacks.SENDER.replace("@SECONDS@", seconds).replace("@NAMES@", "[]"),
               "receiver": attacks.RECEIVER.replace("@SECONDS@", seconds).replace("@NAMES@", "[]")}
    proc = batch(REPO, entries, work, GRADE_ISOLATION=mode, GRADE_SENTINEL="off",
                 GRADE_CACHE_DIR=str(batches.own_cache(answers, work)))
    assert proc.returncode == 0, proc.stderr[-2000:]
    return _graded(work)


def test_two_runs_alive_at_once_share_no_lock_or_watch(concurrent: dict[str, Any]) -> None:
    """The channel a full run would send a hidden probe's code on to a public run beside it:
    every lock the sender tries on the standard library's inodes both read is refused, and the
    receiver, looking over the same while, sees no lock and can set no watch."""
    sender, receiver = concurrent["sender"], concurrent["receiver"]
    # its printed output is in results.json more than once: each run's two times, in order
    windows = [sorted({float(t) for t in WINDOW.findall(row["text"])}) for row in (sender, receiver)]
    assert all(len(w) == 2 for w in windows), windows
    (sent_from, sent_to), (looked_from, looked_to) = windows
    assert looked_from < sent_to and sent_from < looked_to, windows  # alive at once
    tried = {k: v for k, v in sender["said"].items() if k not in ("window", "open_again")}
    assert len(tried) == 5 and set(tried.values()) == {"EPERM"}, tried
    assert receiver["said"]["inotify_init1"] == "EPERM", receiver["said"]
    seen = SEEN.search(receiver["text"])
    assert seen is not None, receiver["text"][-2000:]
    assert not any(word in seen.group(1) for word in ("LOCKED", "EVENT", "EWOULDBLOCK", "EAGAIN")), seen.group(1)
    assert "flock EPERM" in seen.group(1) and "getlk EPERM" in seen.group(1), seen.group(1)
    assert sender["ex01"] == receiver["ex01"] == "0"


# --- without Landlock ----------------------------------------------------------------------

def _private_course(root: Path) -> list[str]:
    """A copy of the course, the grader and the engine in a folder only root can reach (the
    way the refusal says to fix it: nothing there is readable by other users); the command
    that runs that copy's ``grade``."""
    skip = shutil.ignore_patterns("__pycache__")
    for name in ("grader", "micrograph"):
        shutil.copytree(REPO / name, root / "project" / name, ignore=skip)
    for name in ("solutions", "exercises"):
        shutil.copytree(REPO / name, root / name, ignore=skip)
    (root / "cache").mkdir()
    os.chmod(root, 0o700)
    project = str(root / "project")
    return [sys.executable, "-c",
            f"import sys; sys.path.insert(0, {project!r}); from grader.cli.app import main; main()"]


@pytest.mark.parametrize("mode", DROPPING)
def test_without_landlock_a_course_a_child_could_read_is_refused(tmp_path: Path,
                                                                 mode: str) -> None:
    skip_unless(mode)
    root = Path(tempfile.mkdtemp(prefix="readable-course-"))  # others may cross /tmp
    try:
        os.chmod(root, 0o755)
        shutil.copytree(REPO / "solutions", root / "solutions")
        shutil.copytree(REPO / "exercises", root / "exercises")
        proc = batch(root, {"honest_wrong": STUB.read_text()}, tmp_path, GRADE_ISOLATION=mode,
                      GRADE_LANDLOCK="off", GRADE_CACHE_DIR=str(tmp_path / "cache"))
    finally:
        shutil.rmtree(root)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    message = proc.stderr.strip()
    assert message.startswith("grade: Landlock is not available here") and "\n" not in message
    assert "chmod -R o-rwx" in message and not (tmp_path / "out" / "grades.csv").exists()


@pytest.mark.parametrize("mode", MODES)
def test_without_landlock_a_course_no_child_can_read_is_graded_safely(tmp_path: Path,
                                                                      mode: str) -> None:
    skip_unless(mode)
    course = tmp_path / "course"
    command = _private_course(course)
    reading = next(a for a in ATTACKS if a.name == "read_solutions_tests_and_cache")
    on_path = next(a for a in ATTACKS if a.name == "the_course_folder_on_sys_path")
    aimed = (str(course / "solutions"), str(course / "project" / "grader" / "exercises"),
             str(course / "cache"), EX01_TESTS)
    entries = {"reader": attacks.code(reading, *aimed), "importer": attacks.code(on_path, *aimed),
               "honest_wrong": STUB.read_text(), "memory_writer": memory_attacks.FORGER,
               "graph_honest_wrong": provenance_attacks.HONEST_WRONG}
    proc = batch(course, entries, tmp_path, GRADE_ISOLATION=mode, GRADE_LANDLOCK="off",
                 GRADE_CACHE_DIR=str(course / "cache"), GRADE_SENTINEL="off", command=command)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = _graded(tmp_path)
    assert rows["reader"]["ex01"] == rows["importer"]["ex01"] == rows["honest_wrong"]["ex01"] == "0"
    said = {**rows["reader"]["said"], **rows["importer"]["said"]}
    assert {"read_solution", "read_tests", "read_cache", "course_on_path"} <= set(said)
    assert "ALLOWED" not in said.values(), said
    # its own memory through /proc/self/mem: the pass count put back earns nothing
    assert 0 < float(rows["memory_writer"]["ex01"]) <= float(rows["graph_honest_wrong"]["ex01"]), rows["memory_writer"]


LEAVER = '''
import os
for folder in @FOLDERS@:
    try:
        with open(os.path.join(folder, @MARK@), "w") as handle:
            handle.write("left by a child")
    except OSError:
        pass
'''


# from a descriptor of the shared folder: a name relative to it is judged as one in the scratch
FILLER = '''
import os
import time
shared = os.open(@FOLDER@, os.O_RDONLY)
block = b"x" * (1 << 20)
for number in range(12):
    with open(@MARK@ + str(number), "wb", opener=lambda name, flags: os.open(name, flags, dir_fd=shared)) as handle:
        for _ in range(8):
            handle.write(block)
time.sleep(2)
'''
SHARED_BUDGET = "filled its scratch folder and the shared writable folders"


@pytest.mark.parametrize("mode", DROPPING)
def test_without_landlock_nothing_a_child_leaves_in_a_shared_folder_stays(tmp_path: Path,
                                                                          mode: str) -> None:
    """Without Landlock a child of its own uid may write where everyone may (``/run/lock`` as
    well as ``/tmp``): the grader removes what it left, once it has ended; and what it writes
    there counts against its scratch budget while it runs (96 MB into ``/dev/shm``, memory,
    past a budget of 32 MB, stops it)."""
    skip_unless(mode)
    mark = f"mg-left-{os.getpid()}"
    folders = [f for f in ("/tmp", "/var/tmp", "/dev/shm", "/run/lock") if os.path.isdir(f)]
    course = tmp_path / "course"
    command = _private_course(course)
    leaver = LEAVER.replace("@FOLDERS@", repr(folders)).replace("@MARK@", repr(mark))
    memory = "/dev/shm" if "/dev/shm" in folders else folders[0]
    filler = FILLER.replace("@FOLDER@", repr(memory)).replace("@MARK@", repr(mark))
    proc = batch(course, {"leaver": leaver, "filler": filler}, tmp_path, GRADE_ISOLATION=mode,
                 GRADE_LANDLOCK="off", GRADE_CACHE_DIR=str(course / "cache"), command=command)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert [f for f in folders if os.path.lexists(os.path.join(f, mark))] == []
    assert not [n for f in folders for n in os.listdir(f) if n.startswith(mark)]
    rows = _graded(tmp_path)
    assert SHARED_BUDGET in rows["filler"]["text"] and SHARED_BUDGET not in rows["leaver"]["text"]


def test_grade_version_says_when_landlock_is_missing() -> None:
    skip_unless(isolation.available().mode)
    done = subprocess.run([*GRADE, "--version"], cwd=REPO, capture_output=True, text=True,
                          env={**os.environ, "GRADE_LANDLOCK": "off"}, timeout=120)
    assert "layers: " in done.stdout and "no landlock" in done.stdout, done.stdout + done.stderr


# --- expected answers never from what a child can read ---------------------------------------

def test_a_course_autograder_takes_no_shipped_answer(tmp_path: Path) -> None:
    """A release-shaped course (shipped answers, no solutions): grade batch grades nothing
    against the shipped file, and says why in one sentence."""
    course = Course(REPO, cache_dir=tmp_path / "cache")
    ex01 = course.load("ex01")
    shipped = tmp_path / "expected"
    write_shipped(ex01, Expected({t.name: None for t in ex01.spec.tests}), shipped,
                  public_only=False)
    release = tmp_path / "release"
    shutil.copytree(REPO / "exercises", release / "exercises")
    proc = batch(release, {"empty": ""}, tmp_path / "work", GRADE_EXPECTED_DIR=str(shipped),
                  GRADE_CACHE_DIR=str(tmp_path / "cache"))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "no solutions/ folder" in proc.stderr  # a course folder has one: refused before grading
    assert not (tmp_path / "work" / "out" / "grades.csv").exists()
    (release / "solutions").mkdir()  # a solutions/ folder without ex01's solution
    proc = batch(release, {"empty": ""}, tmp_path / "work2", GRADE_EXPECTED_DIR=str(shipped),
                  GRADE_CACHE_DIR=str(tmp_path / "cache"))
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "expected answers from the solutions only" in proc.stderr
    assert not (tmp_path / "work2" / "out" / "grades.csv").exists()


# --- Gradescope: the public runs end before a hidden test loads ------------------------------

TIMED = '''
import time
print("RUN", repr(time.monotonic()), flush=True)
time.sleep(1.0)
print("RUN", repr(time.monotonic()), flush=True)
'''
RUN = re.compile(r"RUN ([0-9.]+)")


def _runs(data: dict[str, Any]) -> dict[str, list[float]]:
    """When each run printed: the public runs' output is the top-level one students see at
    once, the full runs' the ``output`` entries shown after publication."""
    full = [t for t in data["tests"] if "output" in t.get("tags", [])]
    return {"public": [float(t) for t in RUN.findall(data["output"])],
            "full": [float(t) for entry in full for t in RUN.findall(entry["output"])]}


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory, answers: Path) -> Path:
    out = tmp_path_factory.mktemp("integrity-bundle") / "autograder.zip"
    course = Course(REPO, cache_dir=answers)  # built before any submission runs: the run's cache
    build_bundle(course, [course.load("ex01"), course.load("ex02")], out)
    return out


@pytest.mark.parametrize("mode", MODES)
def test_no_public_run_is_alive_beside_a_hidden_one(bundle: Path, mode: str) -> None:
    skip_unless(mode)
    root = Path(tempfile.mkdtemp(prefix="autograder-"))
    try:
        os.chmod(root, 0o755)
        for name in ("source", "submission", "results"):
            (root / name).mkdir()
        with zipfile.ZipFile(bundle) as archive:
            archive.extractall(root / "source")
        (root / "submission" / "ex01_graph.py").write_text(TIMED)
        (root / "submission" / "ex02_leaves.py").write_text(TIMED)
        proc = subprocess.run(["bash", str(root / "source" / "run_autograder")],
                              env={**os.environ, "AUTOGRADER_ROOT": str(root),
                                   "GRADE_PYTHON": sys.executable, "GRADE_ISOLATION": mode},
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0
        data = json.loads((root / "results" / "results.json").read_text())
    finally:
        shutil.rmtree(root)
    runs = _runs(data)
    assert len(runs["public"]) == len(runs["full"]) == 4, (runs, proc.stdout[-2000:])
    assert max(runs["public"]) < min(runs["full"]), runs
