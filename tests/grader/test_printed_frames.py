"""What a stack printed in the child shows under "the submission printed": never the grader's frames
(a hidden test's module, functions and lines), always the student's own."""

from __future__ import annotations

from pathlib import Path

from grader.course.folder import Course
from grader.sandbox.child import wire
from grader.sandbox.child.located import GRADER_DIR
from grader.sandbox.text import ShownLines, without_graders_frames

REPO = Path(__file__).resolve().parents[2]


def test_the_graders_frames_are_taken_out_of_a_stack_and_the_students_kept() -> None:
    stack = ('Error detected in MulBackward0. Traceback of forward call that caused the error:\n'
             '  File "<string>", line 1, in <module>\n'
             f'  File "{GRADER_DIR}sandbox/child/main.py", line 208, in main\n'
             '    run(request)\n'
             f'  File "{wire.tests_file("grader.exercises.ex04")}", line 67, in _twice\n'
             '  File "/scratch/ex04_retain_graph.py", line 84, in backward_twice\n'
             '    g = build_graph(w, x)\n')
    assert without_graders_frames(stack) == (
        'Error detected in MulBackward0. Traceback of forward call that caused the error:\n'
        '  File "/scratch/ex04_retain_graph.py", line 84, in backward_twice\n'
        '    g = build_graph(w, x)\n')
    cut = stack + f'  File "{wire.tests_file("grader.exercises.e")}'  # where the output's cap fell
    assert without_graders_frames(cut) == without_graders_frames(stack)


def test_a_printed_stack_holds_no_frame_of_the_grader(answers: Path, tmp_path: Path) -> None:
    """A correct ex04 that leaves anomaly mode on at import (each failed second backward warns with
    the stack of the forward call, which ran through the hidden tests' probes) and prints the stack
    itself (``traceback.print_stack()``): its own frames are shown, none of the grader's."""
    solution = (REPO / "solutions" / "ex04_retain_graph.py").read_text(encoding="utf-8")
    start, call = "from __future__ import annotations\n", "    g = build_graph(w, x)\n"
    source = solution.replace(start, start + "import traceback\n\nimport micrograph\n\n"
                                             "micrograph.autograd.set_detect_anomaly(True)\n")
    path = tmp_path / "ex04_retain_graph.py"
    path.write_text(source.replace(call, "    traceback.print_stack()\n" + call, 1), encoding="utf-8")
    course = Course(REPO, cache_dir=answers)
    result = course.grade(course.load("ex04"), path)
    assert result.full_marks
    assert "Error detected in MulBackward0" in result.stdout and "traceback.print_stack()" in result.stdout
    assert f'File "{path}", line ' in result.stdout and ", in backward_twice" in result.stdout
    for graders in ("<tests", "grader.exercises", f'File "{GRADER_DIR}', 'File "<string>"'):
        assert graders not in result.stdout, graders


def test_the_lines_counted_are_those_left_once_the_graders_frames_are_out() -> None:
    """The count of "the submission printed N lines" is made as the output arrives, in chunks that
    end anywhere, past the cap too: the grader's frames (and the source line under each) are not
    counted, nor a frame's line the cap cut off, the student's frames are."""
    stack = ('Traceback of forward call:\n'
             '  File "<string>", line 1, in <module>\n'
             f'  File "{GRADER_DIR}sandbox/child/main.py", line 208, in main\n'
             '    run(request)\n'
             f'  File "{wire.tests_file("grader.exercises.ex04")}", line 67, in _twice\n'
             '  File "/scratch/ex04_retain_graph.py", line 84, in backward_twice\n'
             '    g = build_graph(w, x)\n'
             '    not a source line of the frame above\n'
             f'  File "{wire.tests_file("grader.exercises.e")}')
    for size in (1, 7, len(stack)):
        counted = ShownLines()
        for start in range(0, len(stack.encode()), size):
            counted.feed(stack.encode()[start:start + size])
        assert counted.total() == len(without_graders_frames(stack).splitlines()) == 4, size


def test_a_stack_printed_once_is_said_to_be_the_lines_shown(answers: Path, tmp_path: Path) -> None:
    """A correct ex04 that prints the stack once (``traceback.print_stack()``, through a test's probe):
    "printed N lines" counts the lines shown, not the grader's frames taken out of them."""
    solution = (REPO / "solutions" / "ex04_retain_graph.py").read_text(encoding="utf-8")
    start, call = "from __future__ import annotations\n", "    g = build_graph(w, x)\n"
    source = solution.replace(start, start + "import traceback\n\n_PRINTED = []\n")
    printing = "    if not _PRINTED:\n        _PRINTED.append(traceback.print_stack())\n"
    path = tmp_path / "ex04_retain_graph.py"
    path.write_text(source.replace(call, printing + call, 1), encoding="utf-8")
    course = Course(REPO, cache_dir=answers)
    result = course.grade(course.load("ex04"), path)
    assert result.full_marks and not result.stdout_dropped
    assert ", in backward_twice" in result.stdout and "grader.exercises" not in result.stdout
    assert result.stdout_lines == len(result.stdout.splitlines()) > 0
