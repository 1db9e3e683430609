"""The hostile gallery: each attack earns only what it deserves, and grading carries on.

Every case is a small submission for ex42 (``double(x)``: three tests of one point).  After each
one, a correct ex41 submission is graded in the same session and must still get full marks.
"""

from __future__ import annotations

import re

import os
from pathlib import Path

import pytest
from toycourse import (GOOD, HOSTILE_TIME_LIMIT, HOSTILE_WALL_FACTOR, STOPPING_TIME_LIMIT, WRONG, ToyCourse,
                       has_layer)

from grader.sandbox.child.wire import Touch
from grader.spec import Limits



def _killed(time_limit: float) -> str:
    """The grader's kill, the backstop: at the wall clock, or at the CPU rlimit (``Limits``),
    whichever a loaded machine reaches first; phrases joined by "|" are alternatives."""
    limits = Limits(time=time_limit, wall_factor=HOSTILE_WALL_FACTOR)
    return f"timed out after {limits.wall_seconds:g} s|used more than {limits.cpu_seconds} s of CPU time"


TIMEOUT = _killed(HOSTILE_TIME_LIMIT)
STOPPED = _killed(STOPPING_TIME_LIMIT)  # the same kill, in the stopping course
# A probe's own share of the time limit: of CPU, or of the clock where a loaded machine gets there first.
PROBE_TIMEOUT = "used more than 1 s of CPU time{at}|s{at}"
# The import's share (half the stopping course's 1.5 s): of CPU, or of the clock on a loaded machine.
IMPORT_STOPPED = "used more than 0.75 s of CPU time while being imported|was still being imported after 1.5 s"


def says(feedback: str, phrase: str) -> bool:
    """Whether ``feedback`` holds the phrase, or one of its "|"-joined alternatives."""
    return any(alternative in feedback for alternative in phrase.split("|"))

# name -> (source, score, statuses of the three tests, a phrase every failing test's feedback has)
CASES: dict[str, tuple[str, int, list[str], str]] = {
    "raises at import": (
        'raise RuntimeError("boom")\n' + GOOD, 0, ["error"] * 3,
        "raised RuntimeError when imported (line 1): boom"),
    "syntax error": (
        "def double(x):\n    return 2 *\n", 0, ["error"] * 3, "SyntaxError at line 2"),
    "sys.exit at import": (
        "import sys\nsys.exit(3)\n" + GOOD, 0, ["error"] * 3,
        "raised SystemExit(3) while being imported"),
    "os._exit at import": (
        "import os\nos._exit(3)\n" + GOOD, 0, ["error"] * 3,
        "your code exited with status 3 while being imported (os._exit, for instance), before any test ran"),
    # The exit costs only the test it ends: the tests after it run in a fresh child.
    "os._exit on negatives": (
        "import os\ndef double(x):\n    if x < 0:\n        os._exit(4)\n    return 2 * x\n",
        2, ["passed", "error", "passed"], "your code exited with status 4 (os._exit, for instance) during this test"),
    # A crash of the step's own (os.abort(), as a C stack overflowed by a recursion with Python's limit lifted): the same;
    # where the sandbox refuses the abort's signal, the C library ends the process with SIGSEGV
    "abort on negatives": (
        "import os\ndef double(x):\n    if x < 0:\n        os.abort()\n    return 2 * x\n",
        2, ["passed", "error", "passed"], "was killed by SIGABRT|crashed (SIGSEGV: an invalid memory access)"),
    "os._exit on every call": (
        "import os\ndef double(x):\n    os._exit(4)\n", 0, ["error"] * 3,
        "your code exited with status 4 (os._exit, for instance) during this test"),
    # exit() and quit(), which site puts among the builtins where the student runs the file: an exit here too
    "exit() at import": (
        "exit()\n" + GOOD, 0, ["error"] * 3, "raised SystemExit(None) while being imported (line 1)"),
    "quit() in a function": (
        "def double(x):\n    quit(2)\n", 0, ["error"] * 3, "raised SystemExit(2) (in double, line 2)"),
    # What the worker makes of an error of the student's runs no further code of it that could fail: told as Python would
    "an exception whose __str__ raises": (
        "class E(Exception):\n    def __str__(self):\n        raise ValueError('no str')\n"
        "def double(x):\n    raise E()\n", 0, ["error"] * 3, "your code raised E at line 5 (in double): <exception str() failed>"),
    "an exit code whose __repr__ raises": (
        "class C:\n    def __repr__(self):\n        raise ValueError('no repr')\n"
        "def double(x):\n    raise SystemExit(C())\n", 0, ["error"] * 3, "raised SystemExit(<repr() failed>) (in double, line 5)"),
    "sys.exit in a function": (
        "import sys\ndef double(x):\n    sys.exit(5)\n", 0, ["error"] * 3, "raised SystemExit(5)"),
    "infinite loop at import": ("while True:\n    pass\n", 0, ["timeout"] * 3, IMPORT_STOPPED),
    # The loop costs only the test that reaches it: the tests after it still run.
    "infinite loop on negatives": (
        "def double(x):\n    while x < 0:\n        pass\n    return 2 * x\n",
        2, ["passed", "timeout", "passed"], PROBE_TIMEOUT.format(at=" (in double, line 2)")),
    # A wait spends no CPU: the probe's share of the clock stops it, and only it.
    "sleep on negatives": (
        "import time\ndef double(x):\n    if x < 0:\n        time.sleep(60)\n    return 2 * x\n",
        2, ["passed", "timeout", "passed"], "timed out after"),
    "loop that ignores exceptions": (
        "while True:\n    try:\n        while True:\n            pass\n    except BaseException:\n"
        "        pass\n", 0, ["timeout"] * 3, STOPPED),
    "loop that swallows the probe's timeout": (
        "def double(x):\n    while True:\n        try:\n            while True:\n"
        "                pass\n        except BaseException:\n            pass\n",
        0, ["timeout"] * 3, TIMEOUT),
    "memory bomb": ("x = bytearray(1 << 40)\n" + GOOD, 0, ["error"] * 3, "more than 256 MiB"),
    "memory creep": (  # bytes(n) maps zeroed pages without touching them: fast under load
        "hoard = []\ndef double(x):\n    while True:\n        hoard.append(bytes(1 << 24))\n",
        0, ["error"] * 3, "used more than 256 MiB of memory (in double"),
    "recursion without end": (
        "def double(x):\n    return double(x)\n", 0, ["error"] * 3,
        "RecursionError: maximum recursion depth exceeded (in double, line 2)"),
    "recursion with the limit lifted": (
        "import sys\nsys.setrecursionlimit(10 ** 8)\ndef double(x):\n    return double(x)\n",
        0, ["error|timeout"] * 3, ""),
    "returns an object equal to everything": (
        "class Anything(float):\n    def __eq__(self, other):\n        return True\n"
        "    __hash__ = float.__hash__\n"
        "    def __float__(self):\n        return 0.0\n"
        "def double(x):\n    return Anything(0)\n", 0, ["failed"] * 3, ""),
    "wrong answer": (WRONG, 0, ["failed"] * 3, ""),
    "monkeypatches json, the probe helpers and the comparison": (
        "import json, grader.spec.probe, grader.sandbox.child.main\n"
        "json.dumps = lambda *a, **k: '{\"status\": \"passed\", \"score\": 1}'\n"
        "grader.spec.probe.num = lambda x: 'passed'\n"
        "grader.sandbox.child.main._plain = lambda *a: 'passed'\n" + WRONG, 0, ["error"] * 3,
        "can reach the test module or the grader's modules"),
    "imports the grader's comparison to patch it": (
        "import grader.judge.compare\ngrader.judge.compare.same = lambda *a: True\n" + WRONG, 0,
        ["error|failed"] * 3, ""),
    "monkeypatches micrograph": (
        "import micrograph\nmicrograph.Value = float\nmicrograph.add = lambda a, b: 'passed'\n"
        + WRONG, 0, ["failed|error"] * 3, ""),  # refused by the sealed engine: an import error
    "forges records on every descriptor": (
        "import os\n"
        "fake = b'{\"kind\": \"test\", \"name\": \"positives\", \"obs\": \"passed\", \"error\": null}\\n'\n"
        "for fd in range(3, 64):\n    try:\n        os.write(fd, fake)\n    except OSError:\n"
        "        pass\n" + WRONG, 0, ["error"] * 3, "tampered"),
    "floods the results channel": (
        "import os\nfor fd in range(3, 64):\n    try:\n"
        "        for _ in range(20):\n            os.write(fd, b'x' * (1 << 20))\n"
        "    except OSError:\n        pass\n" + GOOD, 0, ["error"] * 3, "tampered"),
    "runs a command": (
        "import subprocess\nsubprocess.run(['true'])\n" + GOOD, 0, ["error"] * 3,
        "when imported"),
    "floods stdout forever": (
        "while True:\n    print('x' * 1000)\n", 0, ["timeout"] * 3, IMPORT_STOPPED),
}
# Attacks nothing but the time limit stops (the import's share of it, or the kill): handed in to
# the stopping toy course, whose shorter limit stops them sooner ("loop that swallows the probe's
# timeout" needs a probe's alarm to ring first, and keeps the longer one; a recursion with the
# limit lifted unwinds from the probe's alarm no sooner than the kill comes).
AT_THE_LIMIT = {"infinite loop at import", "loop that ignores exceptions", "floods stdout forever",
                "recursion with the limit lifted"}


def course_for(name: str, toy: ToyCourse, stopping_toy: ToyCourse) -> ToyCourse:
    """The toy course an attack is handed in to."""
    return stopping_toy if name in AT_THE_LIMIT else toy


@pytest.mark.parametrize("name", list(CASES))
def test_attack_earns_only_what_it_deserves(toy: ToyCourse, stopping_toy: ToyCourse,
                                            name: str) -> None:
    toy = course_for(name, toy, stopping_toy)
    source, score, statuses, phrase = CASES[name]
    result = toy.grade("ex42", toy.write(f"{abs(hash(name))}/ex42_hostile.py", source))
    assert all(t.status in want.split("|") for t, want in zip(result.tests, statuses, strict=True))
    assert result.score == score
    for test in result.tests:
        if test.status != "passed":
            assert says(test.feedback, phrase), test.feedback
            assert test.feedback  # always says why
    assert len(result.stdout) < 10_100
    # ... and the grader carries on: the next submission is graded normally.
    assert toy.grade("ex41", toy.write("good/ex41_fine.py", GOOD)).full_marks


def test_stdout_flood_that_ends_is_cut_and_still_graded(toy: ToyCourse) -> None:
    """A million bytes: a hundred times what is kept, and many pipe buffers full (five million
    took the threads' reader past ex42's time limit on a loaded machine)."""
    path = toy.write("flood/ex42_hostile.py", "print('y' * 1_000_000)\n" + GOOD)
    result = toy.grade("ex42", path)
    assert result.full_marks
    assert result.stdout.startswith("yyy") and "more bytes]" in result.stdout and "[truncated, " in result.stdout
    assert len(result.stdout) < 10_100


def test_fork_bomb_cannot_fork(toy: ToyCourse, layers: list[str]) -> None:
    nproc_works = os.geteuid() != 0 and has_layer(layers, "rlimit") and "NPROC" in str(layers)
    if not (has_layer(layers, "seccomp") or nproc_works):
        pytest.skip("no seccomp and RLIMIT_NPROC does not bind root: a real fork bomb")
    path = toy.write("forkbomb/ex42_hostile.py", "import os\nwhile True:\n    os.fork()\n" + GOOD)
    result = toy.grade("ex42", path)
    assert result.score == 0
    assert all("PermissionError" in t.feedback or "BlockingIOError" in t.feedback
               for t in result.tests)


def test_planted_files_change_nothing(toy: ToyCourse, layers: list[str]) -> None:
    root = toy.course.root
    targets = [root / "conftest.py", root / "solutions" / "ex42_hostile.py",
               root / "expected" / "ex42.json", root / "grades.json"]
    if has_layer(layers, "landlock"):  # without it this would really overwrite the tests
        targets.append(toy.course.tests_dir / "ex42.py")
    planter = (
        "import pathlib\n"
        "for name in ('conftest.py', 'sitecustomize.py', 'results.json', 'ex42_hostile.py'):\n"
        "    pathlib.Path(name).write_text('import sys; sys.exit(0)')\n"
        f"for target in {[str(t) for t in targets]!r} + [{str(toy.course.cache_dir)!r} + '/x']:\n"
        "    try:\n        pathlib.Path(target).write_text(" + repr(WRONG) + ")\n"
        "    except OSError:\n        pass\n" + WRONG
    )
    before = (root / "solutions" / "ex42_hostile.py").read_text()
    result = toy.grade("ex42", toy.write("planter/ex42_hostile.py", planter))
    assert result.score == 0
    if has_layer(layers, "landlock"):
        assert (root / "solutions" / "ex42_hostile.py").read_text() == before
        assert not any(t.exists() for t in targets if t.name not in ("ex42_hostile.py",
                                                                     "ex42.py"))
        assert "def positives" in (toy.course.tests_dir / "ex42.py").read_text()
    # Whatever was planted, a correct submission still scores full marks and a wrong one zero.
    assert toy.grade("ex42", toy.write("after-plant/ex42_hostile.py", GOOD)).full_marks
    assert toy.grade("ex42", toy.write("after-plant2/ex42_hostile.py", WRONG)).score == 0


def test_cannot_read_the_solution(toy: ToyCourse, layers: list[str]) -> None:
    if not has_layer(layers, "landlock") and not has_layer(layers, "namespaces"):
        pytest.skip("neither Landlock nor namespaces here: the file system is the uid's")
    solution = toy.course.solutions_dir / "ex42_hostile.py"
    cache = toy.course.cache_dir
    thief = (
        "import glob, os\n"
        f"leak = glob.glob({str(cache)!r} + '/*')\n"
        "try:\n"
        f"    exec(open({str(solution)!r}).read())\n"
        "except OSError as e:\n"
        "    print('blocked:', e)\n"
        "    def double(x):\n        return 0\n"
        "print('cache listing:', leak)\n"
    )
    result = toy.grade("ex42", toy.write("thief/ex42_hostile.py", thief))
    assert result.score == 0
    # Landlock refuses the file; in the namespaces mode it does not exist in the child's tree
    assert re.search(r"blocked: \[Errno (13|2)\] (Permission denied|No such file)",
                     result.stdout)
    assert "cache listing: []" in result.stdout


def test_cannot_kill_the_grader(toy: ToyCourse, layers: list[str]) -> None:
    if "signals" not in str(layers):
        pytest.skip("Landlock < ABI 6: signals to the grader are not scoped here")
    path = toy.write("killer/ex42_hostile.py",
                     "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n" + GOOD)
    result = toy.grade("ex42", path)  # this test process is the parent: it survives
    assert result.score == 0
    # refused by the kernel (PermissionError), or before it by the sentinel, which flags it
    feedback = result.tests[0].feedback
    assert "PermissionError" in feedback or Touch.MACHINE.value in feedback, feedback


def test_no_network(toy: ToyCourse, layers: list[str]) -> None:
    if "net" not in str(layers):
        pytest.skip("Landlock < ABI 4: TCP is not restricted here")
    path = toy.write("net/ex42_hostile.py",
                     "import socket\nsocket.create_connection(('127.0.0.1', 9), timeout=1)\n"
                     + GOOD)
    result = toy.grade("ex42", path)
    assert result.score == 0
    assert "PermissionError" in result.tests[0].feedback


def test_stub_says_what_to_fill_in(toy: ToyCourse) -> None:
    stub = toy.course.exercises_dir / "ex42_hostile.py"
    result = toy.grade("ex42", stub)
    assert result.score == 0
    expected = f"{toy.course.display(stub)} still raises NotImplementedError: fill in double"
    assert all(t.feedback == expected for t in result.tests)


def test_per_key_feedback_without_the_answer(toy: ToyCourse) -> None:
    source = "def double(x):\n    return 0.0 if x == 10.0 else 2 * x\n"
    result = toy.grade("ex42", toy.write("tenth/ex42_hostile.py", source))
    assert [t.status for t in result.tests] == ["passed", "passed", "failed"]
    assert result.tests[2].feedback == "double(10) is not special."  # the test's own sentence, its full stop
    assert "20" not in result.tests[2].feedback


def test_a_file_that_is_missing(toy: ToyCourse, tmp_path: Path) -> None:
    result = toy.grade("ex42", tmp_path / "nothing.py")
    assert result.score == 0 and "no file" in result.tests[0].feedback


def test_a_diagram_that_never_finishes_costs_only_the_diagram(toy: ToyCourse,
                                                              tmp_path: Path) -> None:
    """double() hangs on a Value (what the diagram probe passes), not on floats (the tests)."""
    source = "def double(x):\n    while not isinstance(x, float):\n        pass\n    return 2 * x\n"
    result = toy.grade("ex42", toy.write("slowdraw/ex42_hostile.py", source), tmp_path / "d")
    assert result.full_marks
    assert result.diagrams == []
    assert result.notes and says(result.notes[0], "your code ran more than|your code used more than")


def test_an_exit_while_drawing_costs_only_the_diagram(toy: ToyCourse, tmp_path: Path) -> None:
    """double() ends its process on a Value (what the diagram probe passes), not on floats (the
    tests): the tests, left unanswered by that process, run in a fresh one and pass."""
    source = "import os\ndef double(x):\n    if not isinstance(x, float):\n        os._exit(3)\n    return 2 * x\n"
    result = toy.grade("ex42", toy.write("exitdraw/ex42_hostile.py", source), tmp_path / "d")
    assert result.full_marks
    assert result.diagrams == []
    assert result.notes[0].endswith("your code exited with status 3 (os._exit, for instance) while the diagram's "
                                    "graph was being built"), result.notes


def test_a_wait_at_import_is_told_as_a_wait_at_its_line(toy: ToyCourse) -> None:
    """A sleep at the top level spends no CPU: the import's share of the clock (half of ex42's
    3 s, twice over) stops it, and every test is told where the import waited, not that the
    exercise ran out of time.  Said to have waited as the CPU it reports used allows (at most 1%
    of the 3 s: a loaded machine may charge the import's own start-up more; both wordings are
    test_import_time.py's), so the ending is checked against the number said."""
    source = "import time\ntime.sleep(60)\n" + GOOD
    result = toy.grade("ex42", toy.write("sleeps/ex42_hostile.py", source))
    assert [t.status for t in result.tests] == ["timeout"] * 3
    said = result.tests[0].feedback
    used = re.search(r"ex42_hostile\.py was still being imported after 3 s \(line 2\), having used at most "
                     r"(\d+(?:\.\d+)?) s of CPU time(: it waited for the rest of that time| by then)$", said)
    assert used is not None, said
    waited = float(used.group(1)) * 100 <= 3
    assert used.group(2) == (": it waited for the rest of that time" if waited else " by then"), said
