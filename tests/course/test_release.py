"""``grade release``: what students get holds the public tests and none of the hidden ones, no
solution, and grades there say plainly that hidden tests run only on the course autograder."""

from __future__ import annotations

import ast
import inspect
import json
import shutil
import textwrap
from pathlib import Path

import pytest
from coursekit import REPO, grade, solution, stub

from grader.course import catalog
from grader.course.folder import Course
from grader.publish.public_tests import StripError, public_source
from grader.publish.release import ReleaseError, build_release, check_no_leak, secret_strings

# One pytest-xdist worker builds the releases of test_release, test_release_zh and
# test_release_notebooks one after the other: the solutions' answers to the public tests, which
# each computes into the run's cache, are computed once (two workers computed them side by side).
pytestmark = pytest.mark.xdist_group("releases")


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory, cache: Path) -> Path:
    out = tmp_path_factory.mktemp("release") / "course"
    course = Course(REPO, cache_dir=cache)
    build_release(course, [course.load(i) for i in course.ids()], out)
    return out


def _release_text(folder: Path, pattern: str = "*") -> str:
    return "\n".join(p.read_bytes().decode("utf-8", "replace")
                     for p in sorted(folder.rglob(pattern)) if p.is_file())


def _probe_texts(function: object) -> list[str]:
    """A probe as written and as ``ast.unparse`` writes it (decorators dropped)."""
    source = textwrap.dedent(inspect.getsource(function))
    node = ast.parse(source).body[0]
    node.decorator_list = []  # type: ignore[attr-defined]
    body = source[source.index("def "):]
    return [body, ast.unparse(node), f"def {node.name}("]  # type: ignore[attr-defined]


def test_the_release_has_what_students_need(release: Path) -> None:
    for exercise_id in catalog.exercise_ids():
        assert (release / "exercises" / stub(exercise_id).name).read_text() == \
            stub(exercise_id).read_text()
        assert (release / "grader" / "exercises" / f"{exercise_id}.py").is_file()
        assert (release / "grader" / "exercises" / "expected" / f"{exercise_id}.json").is_file()
    assert (release / "micrograph" / "__init__.py").is_file()
    assert (release / "grader" / "cli" / "app.py").is_file()
    assert (release / "pyproject.toml").is_file()
    readme = (release / "README.md").read_text()
    assert "hidden tests" in readme and "grade ex03" in readme
    assert 'grader.check("ex03")' in readme and "`notebooks/` holds" not in readme
    assert "most of the points" not in readme
    for exercise_id in catalog.exercise_ids():  # each exercise's share, as its tests give it
        spec = catalog.load(exercise_id).spec
        hidden = sum(t.points for t in spec.tests if not t.public)
        assert f"| {hidden:g} ({round(100 * hidden / spec.max_score)}%) |" in readme
    assert not any(p.name == "__pycache__" or p.suffix == ".pyc" for p in release.rglob("*"))
    assert not (release / "solutions").exists() and not (release / "tests").exists()


def test_no_hidden_test_and_no_solution_is_in_the_release(release: Path) -> None:
    text = _release_text(release)
    tests_text = _release_text(release / "grader" / "exercises", "*.py")
    public_tests = [t for i in catalog.exercise_ids() for t in catalog.load(i).spec.tests
                    if t.public]
    public_words = "\n".join([w for t in public_tests
                              for w in (t.feedback, *t.key_feedback.values())]
                             + [stub(i).read_text() for i in catalog.exercise_ids()])
    checked = 0
    for exercise_id in catalog.exercise_ids():
        spec = catalog.load(exercise_id).spec
        for test in spec.tests:
            if test.public:
                continue
            assert test.name not in text
            for words in [test.feedback, *test.key_feedback.values()]:
                if len(words) >= 20 and words not in public_words:
                    assert words not in text, (exercise_id, words)
            body, unparsed, header = _probe_texts(test.probe)
            assert body not in text and unparsed not in text and header not in tests_text
            checked += 1
        stub_lines = set(stub(exercise_id).read_text().splitlines())
        for line in solution(exercise_id).read_text().splitlines():
            if len(line.strip()) >= 30 and line not in stub_lines and line.strip() not in text:
                checked += 1
    assert checked > 100
    assert "def _other_graphs" not in (release / "grader" / "exercises" / "ex01.py").read_text()


def test_solution_lines_appear_only_where_students_get_them_anyway(release: Path) -> None:
    """A line of a solution appears in the release only if a stub or a public test (or the
    engine, not searched here) has it too."""
    text = (_release_text(release / "exercises") + _release_text(release / "grader" / "exercises")
            + (release / "README.md").read_text())
    given = (_release_text(release / "exercises")
             + _release_text(release / "grader" / "exercises", "*.py"))
    for exercise_id in catalog.exercise_ids():
        for line in solution(exercise_id).read_text().splitlines():
            line = line.strip()
            if len(line) >= 30 and line not in given:
                assert line not in text, (exercise_id, line)


def test_grade_in_the_release_shows_correct_work_as_correct(release: Path, cache: Path,
                                                           tmp_path: Path) -> None:
    own_cache = tmp_path / "cache"  # a student's machine: nothing cached, no solutions
    stub_run = grade("ex03", cache=own_cache, cwd=release, PYTHONPATH=str(release), COLUMNS="250")
    assert stub_run.returncode == 1
    assert "NotImplementedError" in stub_run.stdout
    solved = tmp_path / stub("ex03").name
    solved.write_text(solution("ex03").read_text())
    run = grade("ex03", "--submission", str(solved), cache=own_cache, cwd=release,
                PYTHONPATH=str(release), COLUMNS="250")
    assert run.returncode == 0, run.stdout  # every public test passes
    lines = run.stdout.splitlines()
    public = [l for l in lines if " public " in l and "total:" not in l]
    assert public and all("passed" in l for l in public)
    hidden = [l for l in lines if " hidden " in l]
    hidden_count = sum(1 for t in catalog.load("ex03").spec.tests if not t.public)
    assert len(hidden) == 1 and "error" not in hidden[0]
    assert hidden[0].split()[:8] == [str(hidden_count), "hidden", "tests:", "graded", "on",
                                     "the", "course", "autograder"]
    assert hidden[0].split()[-1] == "autograder"  # a status of its own
    public_points = sum(t.points for t in catalog.load("ex03").spec.tests if t.public)
    assert f"total: public {public_points}/{public_points} " in run.stdout
    data = json.loads(grade("ex03", "--json", "--submission", str(solved), cache=own_cache,
                            cwd=release, PYTHONPATH=str(release)).stdout)
    assert data["graded_here"]["all_passed"] and not data["full_marks"]  # the hidden points are not here
    ex03 = next(e for e in data["exercises"] if e["exercise"] == "ex03")
    public = [t for t in catalog.load("ex03").spec.tests if t.public]
    assert [t["status"] for t in ex03["tests"]] == ["passed"] * len(public) + ["autograder"]
    assert ex03["graded_here"] == {"score": public_points, "max_score": public_points,
                                   "tests": len(public)}


def test_grade_list_in_the_release_counts_hidden_tests(release: Path, cache: Path) -> None:
    here = grade("list", cache=cache).stdout.splitlines()
    there = grade("list", cache=cache, cwd=release, PYTHONPATH=str(release)).stdout.splitlines()
    assert here == there  # the same points, public and hidden counts in the course and the release
    spec = catalog.load("ex03").spec
    row = next(l for l in there if l.startswith("ex03")).split()
    public = sum(1 for t in spec.tests if t.public)
    assert row[1:4] == [f"{spec.max_score:g}", str(public), str(len(spec.tests) - public)]


def test_stripping_keeps_exactly_the_public_tests() -> None:
    for exercise_id in catalog.exercise_ids():
        ex = catalog.load(exercise_id)
        source = public_source(ex, placeholder=False)  # checks its own result when it loads
        tree = ast.parse(source)
        names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        hidden = {t.probe.__name__ for t in ex.spec.tests if not t.public}
        assert not names & hidden


def test_a_parameter_named_like_a_hidden_probe_does_not_ship_it(tmp_path: Path) -> None:
    """A helper's own parameter or local is no use of the module-level name it shares with a hidden
    probe; a name the helper reads from the module still keeps what defines it."""
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "ex41.py").write_text(textwrap.dedent('''
        from grader.spec import Exercise
        EXERCISE = Exercise("ex41", "t", module="ex41_x")
        SCALE = 2

        def helper(leaf):
            inner = [leaf for leaf in range(leaf)]
            return len(inner) * SCALE

        @EXERCISE.test("one", points=1, public=True, feedback="f")
        def one(sub):
            return helper(3)

        @EXERCISE.test("two", points=1, feedback="f")
        def leaf(sub):
            return 2
    '''))
    source = public_source(catalog.load("ex41", tests), placeholder=True)
    names = {n.name for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)}
    assert names == {"helper", "one"} and "SCALE = 2" in source


def test_a_test_module_that_cannot_be_split_is_refused(tmp_path: Path) -> None:
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "ex41.py").write_text(textwrap.dedent('''
        from grader.spec import Exercise
        EXERCISE = Exercise("ex41", "t", module="ex41_x")
        SHOW = False

        @EXERCISE.test("one", points=1, public=SHOW, feedback="f")
        def one(sub):
            return 1
    '''))
    with pytest.raises(StripError, match="public= must be written True or False"):
        public_source(catalog.load("ex41", tests), placeholder=True)
    (tests / "ex41.py").write_text(textwrap.dedent('''
        from grader.spec import Exercise
        EXERCISE = Exercise("ex41", "t", module="ex41_x")
        for n in range(2):
            EXERCISE.test(f"t{n}", points=1, public=n == 0, feedback="f")(lambda sub: n)
    '''))
    with pytest.raises(StripError, match="only imports, assignments and definitions"):
        public_source(catalog.load("ex41", tests), placeholder=True)


def test_a_release_never_overwrites_a_folder(tmp_path: Path, cache: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine")
    course = Course(REPO, cache_dir=cache)
    with pytest.raises(ReleaseError, match="not empty"):
        build_release(course, [course.load("ex01")], tmp_path)
    assert (tmp_path / "keep.txt").read_text() == "mine"


def test_the_builder_refuses_to_ship_a_hidden_test(release: Path, tmp_path: Path) -> None:
    ex = catalog.load("ex03")
    copy = tmp_path / "copy"
    copy.mkdir()
    (copy / "notes.md").write_text(next(t.name for t in ex.spec.tests if not t.public) * 2)
    secrets = secret_strings([(ex, solution("ex03"), stub("ex03"))], [], [])
    with pytest.raises(ReleaseError, match="contains hidden text"):
        check_no_leak(copy, secrets)
    check_no_leak(release, secrets)


@pytest.fixture
def course_copy(tmp_path: Path) -> Path:
    """A course folder of one's own: the stubs and solutions of ex03 and ex05."""
    for folder in ("exercises", "solutions"):
        (tmp_path / folder).mkdir()
        for exercise_id in ("ex03", "ex05"):
            source = REPO / folder / stub(exercise_id).name
            shutil.copyfile(source, tmp_path / folder / source.name)
    return tmp_path


def test_a_release_with_a_filled_in_stub_is_refused(course_copy: Path, cache: Path) -> None:
    shutil.copyfile(solution("ex03"), course_copy / "exercises" / stub("ex03").name)
    partly = course_copy / "exercises" / stub("ex05").name  # one solution line, still raising
    partly.write_text(partly.read_text().replace(
        '    raise NotImplementedError("ex05: grad_history")',
        '    history: list[float] = []\n    raise NotImplementedError("ex05: grad_history")'))
    out = course_copy / "release"
    run = grade("release", "-o", str(out), "--exercises", "ex03,ex05", "--force",
                cache=cache, cwd=course_copy)
    assert run.returncode == 2 and "--force" in run.stderr  # there is no way to force it
    run = grade("release", "-o", str(out), "--exercises", "ex03,ex05", cache=cache,
                cwd=course_copy)
    assert run.returncode == 1 and not out.exists()
    sentences = run.stderr.strip().splitlines()
    assert len(sentences) == 2
    total = catalog.load("ex03").spec.max_score
    assert sentences[0].startswith("grade: not releasing: ex03:")
    assert f"scores {total}/{total}" in sentences[0]
    assert sentences[1].startswith("grade: not releasing: ex05:")
    assert "history: list[float] = []" in sentences[1]


def test_untouched_stubs_are_released(course_copy: Path, cache: Path) -> None:
    out = course_copy / "release"
    run = grade("release", "-o", str(out), "--exercises", "ex03,ex05", cache=cache,
                cwd=course_copy)
    assert run.returncode == 0, run.stderr
    readme = (out / "README.md").read_text()
    assert "grade ex03" in readme and "graded on the course autograder" in readme


def test_lines_shared_with_a_filled_in_stub_are_still_secret() -> None:
    """The leak check does not take the stub's word for what is shared."""
    from grader.publish.leaks import copied_lines, solution_only

    sol, st = solution("ex03").read_text(), stub("ex03").read_text()
    answer = solution_only(sol, st)
    assert 'g["y"].backward()' in answer
    assert not any("build_graph(w: float" in line or "w_leaf = Value" in line
                   for line in answer)  # the given function and the signatures are shared
    assert copied_lines(st, sol, []) == []
    half = st.replace('    raise NotImplementedError("ex03: grads_after_backward")',
                      '    g = build_graph(w, x)\n    g["y"].backward()\n    raise '
                      'NotImplementedError("ex03: grads_after_backward")')
    assert copied_lines(half, sol, []) == ['g = build_graph(w, x)', 'g["y"].backward()']


def test_a_copied_solution_is_no_stub_for_the_leak_check(tmp_path: Path) -> None:
    from grader.publish.leaks import copied_lines

    ex = catalog.load("ex03")
    copy = tmp_path / stub("ex03").name
    copy.write_text(solution("ex03").read_text())
    assert 'g["y"].backward()' in copied_lines(copy.read_text(), solution("ex03").read_text(), [])
    secrets = secret_strings([(ex, solution("ex03"), copy)], [], [])
    shipped = tmp_path / "release"
    shipped.mkdir()
    shutil.copyfile(copy, shipped / copy.name)
    with pytest.raises(ReleaseError, match="contains hidden text"):
        check_no_leak(shipped, secrets)
