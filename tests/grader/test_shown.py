"""What of a warning reaches "the submission printed": never the grader's frames (a hidden test's
module and lines), always the student's own."""

from __future__ import annotations

from pathlib import Path

from grader.course.folder import Course
from grader.sandbox.child.located import GRADER_DIR
from grader.sandbox.child.shown import without_graders_frames
from grader.sandbox.child import wire

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


def test_anomaly_mode_left_on_at_import_prints_no_frame_of_the_grader(answers: Path, tmp_path: Path) -> None:
    """set_detect_anomaly(True) at the top of a correct ex04: each failed second backward warns
    with the stack of the forward call, which ran through the hidden tests' probes."""
    solution = (REPO / "solutions" / "ex04_retain_graph.py").read_text(encoding="utf-8")
    start = "from __future__ import annotations\n"
    path = tmp_path / "ex04_retain_graph.py"
    path.write_text(solution.replace(start, start + "import micrograph\nmicrograph.autograd.set_detect_anomaly(True)\n"),
                    encoding="utf-8")
    course = Course(REPO, cache_dir=answers)
    result = course.grade(course.load("ex04"), path)
    assert result.full_marks
    assert "Error detected in MulBackward0" in result.stdout
    assert f'File "{path}", line ' in result.stdout and ", in backward_twice" in result.stdout
    for graders in ("<tests", "grader.exercises", f'File "{GRADER_DIR}', 'File "<string>"'):
        assert graders not in result.stdout, graders
