"""The import's share of the time (``Limits.import_share``), as the grader tells it: of CPU, or
of the clock, said to have waited only when the import used at most 1% of that time on the CPU
(a sleep); a loop on a busy machine that reached the clock first is told only the numbers.  The
child's own stopping is test_hostile.py's."""

from __future__ import annotations

from micrograph.i18n import using

from grader.judge import explain
from grader.sandbox.child import wire
from grader.sandbox.child.wire import ErrorRecord
from grader.spec.limits import Limits


def _stopped(message: str, function: str | None = "<module>", line: int | None = 4) -> ErrorRecord:
    return ErrorRecord(type=wire.IMPORT_TIMEOUT, message=message, function=function, caller=None,
                       line=line, step=None)


def test_a_loop_at_import_is_told_its_cpu_share_and_line() -> None:
    said = explain.import_error(_stopped("the import used more than 5 s of CPU time"), "ex01.py", Limits())
    assert said == "ex01.py used more than 5 s of CPU time while being imported (line 4)"


def test_an_import_that_used_next_to_no_cpu_waited() -> None:
    said = explain.import_error(_stopped("the import ran more than 20 s, at most 0.01 s of it on the CPU",
                                         function="demo"), "ex01.py", Limits())
    assert said == ("ex01.py was still being imported after 20 s (in demo, line 4), having used at most "
                    "0.01 s of CPU time: it waited for the rest of that time")


def test_an_import_that_computed_on_a_busy_machine_is_not_said_to_wait() -> None:
    said = explain.import_error(_stopped("the import ran more than 20 s, at most 2.58 s of it on the CPU"),
                                "ex01.py", Limits())
    assert said == ("ex01.py was still being imported after 20 s (line 4), having used at most 2.58 s of CPU "
                    "time by then")


def test_a_stop_worded_otherwise_is_told_in_the_students_language() -> None:
    """A message the grader does not know how to read is not shown as it came (English text in a
    Chinese table): the import ran out of its share of the time, at its line, is all that is said."""
    stopped = _stopped("the import was stopped")
    assert explain.import_error(stopped, "ex01.py", Limits()) == (
        "ex01.py ran out of its share of the time while being imported (line 4)")
    with using("zh"):
        said = explain.import_error(stopped, "ex01.py", Limits())
    assert "stopped" not in said and "ex01.py" in said and "导入" in said, said


def test_a_probe_timed_out_in_a_call_of_the_top_level_names_it() -> None:
    # the grader's fresh copy of the file ran its demo again: the time went to the top level's call
    stopped = ErrorRecord(type=wire.PROBE_TIMEOUT, message="timed out after 7.12 s", function="train",
                          caller="<module>", line=18, step=None)
    said = explain.test_error(stopped, "ex15_train.py", Limits())
    assert said.startswith("timed out after 7.12 s (in train, line 18): train was called by your file's top level")
    assert 'if __name__ == "__main__":' in said
    stopped = ErrorRecord(type=wire.PROBE_TIMEOUT, message="timed out after 7.12 s", function="train",
                          caller="fit", line=18, step=None)
    assert explain.test_error(stopped, "ex15_train.py", Limits()) == "timed out after 7.12 s (in train, line 18)"


def test_a_probe_timed_out_in_a_call_of_a_notebooks_cells_names_the_cells() -> None:
    """A notebook has no top level to the student: the call is said to be a cell's own code, which
    runs again with the cells, not "your file's top level"."""
    stopped = ErrorRecord(type=wire.PROBE_TIMEOUT, message="timed out after 7.12 s", function="train",
                          caller="<module>", line=18, step=None)
    said = explain.test_error(stopped, "ex15_train.ipynb", Limits(), lambda line: f"cell 2 (In [1]), line {line - 2}")
    assert said.startswith("timed out after 7.12 s (in train, cell 2 (In [1]), line 16): train was called by a "
                           "cell's own code, outside any function, which runs again each time the grader runs the cells")
    assert "your file's top level" not in said
