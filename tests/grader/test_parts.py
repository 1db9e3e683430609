"""The pieces the verdict rests on: comparing observations, parsing the child's records, the
probes' time budgets, the cache of expected observations."""

from __future__ import annotations

import dataclasses
import math
import signal
import time
from collections.abc import Callable

import pytest
from toycourse import ToyCourse

from grader.judge.compare import mismatched_keys, same
from grader.judge.reference import from_solution
from grader.sandbox.child import wire
from grader.sandbox.child.located import located
from grader.sandbox.child.alarm import Overrun, Share, alarm, probe_seconds


@pytest.mark.parametrize("a, b", [
    (5.0, 5.0), (5, 5.0), (0.1 + 0.2, 0.3), (1e-13, 0.0), (math.nan, math.nan),
    (math.inf, math.inf), (None, None), ("AddBackward0", "AddBackward0"), (True, True),
    ([1.0, [2.0, None]], [1.0, [2.0, None]]), ({"a": 1.0}, {"a": 1.0 + 1e-12}),
])
def test_same(a: object, b: object) -> None:
    assert same(a, b) and same(b, a)


@pytest.mark.parametrize("a, b", [
    (5.0, 5.1), (1.0, True), (0, False), (None, 0.0), (math.nan, 0.0), (math.inf, -math.inf),
    (math.inf, 1e308), ("1.0", 1.0), ([1.0], [1.0, 1.0]), ([1.0], (1.0,)), ({"a": 1}, {"b": 1}),
    ({"a": 1}, {"a": 1, "b": 2}), (10 ** 400, 1.0), (1.0 + 1e-8, 1.0),
])
def test_different(a: object, b: object) -> None:
    assert not same(a, b) and not same(b, a)


def test_mismatched_keys() -> None:
    assert mismatched_keys({"a": 1.0, "b": 2.0, "c": 3.0}, {"a": 1.0, "b": 0.0}) == ["b", "c"]
    assert mismatched_keys([1.0], [2.0]) == []


@pytest.mark.parametrize("line", [
    b"", b"not json", b"[1, 2]", b'{"kind": "passed"}', b'{"kind": "test", "obs": 1}',
    b'{"kind": "test", "name": "t", "error": {"type": "X"}}', b"\xff\xfe",
    b'{"kind": "test", "name": "t", "obs": ' + b"[" * 100 + b"]" * 100 + b"}",
    b'{"kind": "test", "name": "t", "obs": ' + b"9" * 5000 + b"}",
    b'{"kind": "test", "name": "t", "obs": "' + b"x" * (wire.MAX_STRING + 1) + b'"}',
])
def test_malformed_records_are_rejected(line: bytes) -> None:
    with pytest.raises(wire.WireError):
        wire.decode(line)


def _test_line(obs: bytes) -> bytes:
    return b'{"kind": "test", "name": "t", "error": null, "obs": ' + obs + b"}"


def test_records_at_the_limits_are_read_and_past_them_rejected() -> None:
    deepest = wire.MAX_DEPTH  # lists nested in obs, the outermost one level inside the record
    assert wire.decode(_test_line(b"[" * deepest + b"]" * deepest))["obs"] is not None
    long = b'"' + b"x" * wire.MAX_STRING + b'"'
    assert wire.decode(_test_line(b"{" + long + b": [" + long + b"]}"))["obs"]
    for obs in (b"[" * (deepest + 1) + b"]" * (deepest + 1),
                b'{"' + b"x" * (wire.MAX_STRING + 1) + b'": 1}',
                b'[1, {"a": [true, null, "' + b"x" * (wire.MAX_STRING + 1) + b'"]}]'):
        with pytest.raises(wire.WireError):
            wire.decode(_test_line(obs))


def test_records_round_trip() -> None:
    record = {"kind": "test", "name": "t", "obs": {"x": [math.inf, None, True]}, "error": None}
    assert wire.decode(wire.encode(record)) == record


def test_probe_budgets() -> None:
    """Probes that all loop fit in the time left between them; a late probe inherits the time
    earlier ones did not use; no probe gets less than a second."""
    left, budgets = 10.0, []
    for probes_left in range(6, 0, -1):
        budgets.append(probe_seconds(left, probes_left))
        left -= budgets[-1]
    assert budgets == pytest.approx([10.0 / 7] * 6) and left == pytest.approx(10.0 / 7)
    assert probe_seconds(28.0, 1) == 14.0
    assert probe_seconds(0.5, 3) == 1.0


def _overrun_of(block: Callable[[], object], cpu: float, wall: float) -> str:
    """Which of a share's overruns a block met: its CPU's or its clock's."""
    share = Share(cpu, wall, Overrun(wire.PROBE_TIMEOUT, "cpu"), Overrun(wire.PROBE_TIMEOUT, "wall"))
    try:
        with alarm(share):
            block()
    except Overrun as rung:
        return str(rung)
    return "none"


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="no interval timers: the clock alone")
def test_a_share_counts_cpu_for_a_loop_and_the_clock_for_a_wait() -> None:
    """A loop is stopped by its CPU share, however long the clock allows; a sleep, which spends
    no CPU, by its share of the clock."""
    def spin() -> None:
        while True:
            pass

    assert _overrun_of(spin, cpu=0.05, wall=600) == "cpu"
    assert _overrun_of(lambda: time.sleep(600), cpu=600, wall=0.05) == "wall"
    assert _overrun_of(lambda: None, cpu=0.05, wall=0.05) == "none"


SUBMISSION_WITH_A_HELPER = """
class Node:
    def unpack(self, name):
        return {}[name]

    def apply(self):
        return self.unpack("other")

def twice(n):
    return twice(n - 1) if n else {}["x"]
"""


def _raised_in(call: str) -> tuple[str | None, str | None, int | None]:
    """Where ``call``, run on SUBMISSION_WITH_A_HELPER compiled as ``sub.py``, raised."""
    space: dict[str, object] = {}
    exec(compile(SUBMISSION_WITH_A_HELPER, "sub.py", "exec"), space)
    with pytest.raises(KeyError) as raised:
        eval(call, space)
    return located(raised.value, "sub.py")


def test_an_error_in_a_helper_names_the_function_that_called_it() -> None:
    """A helper's error names the submission's function in the frame above it (a build-track
    stub's unpack, called from the student's apply); a recursion names no caller."""
    function, caller, line = _raised_in("Node().apply()")
    assert function in ("Node.unpack", "unpack") and line == 4  # Python 3.10 has no qualname
    assert caller in ("Node.apply", "apply")
    assert _raised_in("Node().unpack('x')")[1] is None  # the probe called it directly
    assert _raised_in("twice(3)")[1] is None


FUNCTION_RETURNING_A_FLOAT = """
from micrograph import Function, Value

class Half(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 0.5

    @staticmethod
    def backward(ctx, grad):
        return 0.5
"""


def test_a_result_the_engine_refuses_names_the_backward_that_returned_it() -> None:
    """The engine refuses a custom Function's float gradient after its backward returned: no
    frame of the submission is left, and the node names the Function whose backward it was."""
    space: dict[str, object] = {}
    exec(compile(FUNCTION_RETURNING_A_FLOAT, "sub.py", "exec"), space)
    with pytest.raises(RuntimeError, match="expected Variable or None") as raised:
        eval("Half.apply(Value(2.0, requires_grad=True)).backward()", space)
    assert located(raised.value, "sub.py") == ("Half.backward", None, None)


def test_expected_observations_are_cached_by_content(toy: ToyCourse) -> None:
    ex = toy.course.load("ex41")
    solution = toy.course.solutions_dir / "ex41_fine.py"
    first = from_solution(ex, solution, toy.course.cache_dir)
    again = from_solution(ex, solution, toy.course.cache_dir)
    assert again.origin == "cache" and again.observations == first.observations
    edited = dataclasses.replace(ex, source=ex.source + "\n# edited\n")
    assert from_solution(edited, solution, toy.course.cache_dir).origin == "solution"
    assert first.observations["positives"][:2] == [3.0, 4.0]  # then the first public test's import fact


def test_a_probe_that_fails_on_the_solution_is_reported_broken(toy: ToyCourse) -> None:
    ex = toy.course.load("ex41")
    broken = toy.write("broken-solution/ex41_fine.py", "def double(x):\n    return 2 * x\n"
                       "if True:\n    double = None\n")
    expected = from_solution(ex, broken, toy.course.cache_dir)
    assert set(expected.broken) == {"positives", "negatives", "larger"}
    result = toy.course.grade(ex, toy.course.solutions_dir / "ex41_fine.py")
    assert result.full_marks  # the real solution is unaffected (keyed by content)
