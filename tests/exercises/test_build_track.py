"""The build track (ex16-ex22): its stubs and solutions are the cut of one reference engine,
and the answers the grader expects of it are PyTorch's, fact by fact."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from grader.course import catalog
from grader.judge.compare import mismatched_keys, same

ROOT = Path(__file__).resolve().parents[2]
RECORDED = Path(__file__).with_name("build_track_torch.json")


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cut_build_track", ROOT / "scripts" / "cut_build_track.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


CUT = _script()
TRACK = [stage.id for stage in CUT.STAGES]


def _solution(exercise: str) -> ModuleType:
    """The reference solution of one stage, imported under a name of its own."""
    stage = next(s for s in CUT.STAGES if s.id == exercise)
    spec = importlib.util.spec_from_file_location(f"build_track_{stage.module}",
                                                  ROOT / "solutions" / f"{stage.module}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _points(exercise: str) -> int:
    """The points of all the exercise's tests, as a grade line counts them."""
    return sum(int(test.points) for test in catalog.load(exercise).spec.tests)


def test_the_committed_stubs_and_solutions_are_the_cut_of_the_reference():
    stale = [str(path.relative_to(ROOT)) for path, text in CUT.files().items()
             if not path.is_file() or path.read_text(encoding="utf-8") != text]
    assert not stale, f"run python scripts/cut_build_track.py: {stale}"


def test_every_stage_is_an_exercise_of_the_course():
    assert set(TRACK) <= set(catalog.exercise_ids())
    for stage in CUT.STAGES:
        assert catalog.load(stage.id).spec.module == stage.module


def test_a_stub_holds_no_body_of_its_stage_or_an_earlier_one():
    """Every function the student writes raises in the stub, whichever stage it belongs to: a
    later stage's stub gives away no earlier stage's answer."""
    reference = CUT.REFERENCE.read_text(encoding="utf-8")
    for stage in CUT.STAGES:
        stub = (ROOT / "exercises" / f"{stage.module}.py").read_text(encoding="utf-8")
        for line in CUT.cut(reference, "", stage.number, stub=False).splitlines():
            if line.strip().startswith(("self.saved = dict.fromkeys", "counts[child] += 1",
                                        "write_grad(self.variable, grad)", "heapq.heappush")):
                assert line not in stub, f"{stage.id}: {line.strip()}"


@pytest.mark.parametrize("exercise", TRACK)
def test_the_reference_answers_what_torch_answers(exercise):
    recorded = json.loads(RECORDED.read_text(encoding="utf-8"))["observations"][exercise]
    tests = catalog.load(exercise).spec.tests
    assert sorted(recorded) == sorted(t.name for t in tests), "run scripts/record_build_track_torch.py"
    solution = _solution(exercise)
    differing = {}
    for test in tests:
        got = test.probe(solution)
        if not same(recorded[test.name], got):
            differing[test.name] = mismatched_keys(recorded[test.name], got) or got
    assert not differing, differing


def test_an_untouched_later_stage_is_one_not_started_line(tmp_path: Path) -> None:
    """ex17's stub meets ex16's stub first: still not started, one line, as any untouched exercise."""
    import subprocess

    stub = ROOT / "exercises" / "ex17_build_backward.py"
    run = subprocess.run([sys.executable, "-c", "from grader.cli.app import main; main()", "ex17",
                          "--submission", str(stub), "--out", str(tmp_path / "grades")],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    said = " ".join(run.stdout.split())
    assert run.returncode == 1, run.stderr
    assert f"not started (0/{_points('ex17')}): every function the tests call still raises NotImplementedError" in said, said
    assert "total:" not in said and "paste your ex16 answer" not in said, said  # one line, no table


def test_a_begun_stage_missing_an_earlier_part_is_told_which_stage_to_paste(tmp_path: Path) -> None:
    """ex17 written but one ex16 body left a stub: every test meets ex16's stub, yet "not started"
    and "every function ... still raises" would be untrue: its one line names ex16's part."""
    import subprocess

    source = (ROOT / "solutions" / "ex17_build_backward.py").read_text(encoding="utf-8")
    body = '        """True for a value no recorded operation made: grad_fn is None."""\n        return self.grad_fn is None\n'
    assert body in source
    begun = tmp_path / "ex17_build_backward.py"
    begun.write_text(source.replace(body, '        raise NotImplementedError("ex16: Value.is_leaf")\n'), encoding="utf-8")
    run = subprocess.run([sys.executable, "-c", "from grader.cli.app import main; main()", "ex17",
                          "--submission", str(begun), "--out", str(tmp_path / "grades")],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    said = " ".join(run.stdout.split())
    assert run.returncode == 1, run.stderr
    assert f"0/{_points('ex17')}: This stage builds on ex16:" in said and "Value.is_leaf" in said, said
    assert "not started" not in said and "total:" not in said, said


def _functions(source: str) -> dict[str, tuple[int, int]]:
    """Each function of a stage's file by qualified name: its first and last line (1-based)."""
    import ast

    found: dict[str, tuple[int, int]] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef):
                first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                found[prefix + child.name] = (first, child.end_lineno or child.lineno)
            elif isinstance(child, ast.ClassDef):
                visit(child, prefix + child.name + ".")

    visit(ast.parse(source), "")
    return found


def test_a_stage_with_only_its_new_parts_left_names_them_not_not_started(tmp_path: Path, grading) -> None:
    """ex18 with ex16's and ex17's answers pasted and its own three parts still the stub's: every
    test meets one of them, yet the student began: the line names those parts."""
    from grader.report import terminal
    from grader.spec.build_parts import PARTS

    own = [name for name, owner in PARTS["ex18"].items() if owner == "ex18"]
    solution = (ROOT / "solutions" / "ex18_build_retain_grad.py").read_text(encoding="utf-8").splitlines()
    stub = (ROOT / "exercises" / "ex18_build_retain_grad.py").read_text(encoding="utf-8").splitlines()
    in_solution, in_stub = _functions("\n".join(solution)), _functions("\n".join(stub))
    for name in sorted(own, key=lambda n: -in_solution[n][0]):  # from the bottom: line numbers above hold
        (first, last), (stub_first, stub_last) = in_solution[name], in_stub[name]
        solution[first - 1:last] = stub[stub_first - 1:stub_last]
    begun = tmp_path / "ex18_build_retain_grad.py"
    begun.write_text("\n".join(solution) + "\n", encoding="utf-8")
    result = grading.grade("ex18", begun)
    assert result.outcome == "untouched stub" and result.untouched_parts == own, result.untouched_why
    line = " ".join(terminal.exercise(result, "ex18.py").split())
    assert "not started" not in line and "every function the tests call" not in line, line
    assert "still raises NotImplementedError in this stage's new parts" in line and ", ".join(own) in line, line
    assert terminal.summary([result]).count("new parts to write") == 1


def test_a_fact_recorded_from_torch_is_told_against_pytorch() -> None:
    """The expected answers are PyTorch's: a difference names PyTorch, not a statement."""
    from grader.judge.differences import find
    from grader.judge.torch_sentences import SayTorch
    from grader.spec.build import fact

    said = find(fact(1.5, "w.grad"), fact(None, "w.grad"))
    assert [d.say for d in said] == [SayTorch.TORCH_NONE]
    assert said[0].sentence() == "w.grad is None, where PyTorch's is not."
    assert [d.say for d in find(fact(["a", "b"], "calls"), fact(["b", "a"], "calls"))] == [SayTorch.TORCH_ORDER]


def test_a_call_that_may_fail_is_told_as_raising_or_not() -> None:
    """None is 'raised no error', never 'is None'; the student's own error is quoted as it was
    raised, never as the paraphrase it is compared by ("second backward"), with the function it
    was raised in."""
    from grader.judge.differences import find
    from grader.spec.raised import raised

    def fails() -> None:
        raise RuntimeError("Trying to backward through the graph a second time, and more")

    def other() -> None:
        raise ValueError("nope")

    fine, refused, wrong = (raised(fn, "y.backward()") for fn in (lambda: None, fails, other))
    assert find(refused, fine)[0].sentence() == "y.backward() raised no error, where PyTorch raises one."
    assert find(fine, refused)[0].sentence() == \
        'y.backward() raised RuntimeError: "Trying to backward through the graph a second time, and more" in ' \
        "fails, where PyTorch's runs without an error."
    assert find(refused, wrong)[0].sentence() == \
        'y.backward() raised ValueError: "nope" in other, ' \
        "where PyTorch raises another error."


def test_modified_at_other_versions_is_told_as_the_same_error() -> None:
    """MODIFIED with other versions than PyTorch's is PyTorch's error at other versions, not
    "another error", and PyTorch's versions are not said."""
    from grader.judge.differences import find
    from grader.spec.raised import raised

    def modified(version: int, expected: int) -> None:
        raise RuntimeError("one of the variables needed for gradient computation has been modified by an inplace "
                           f"operation: [torch.DoubleTensor []] is at version {version}; expected version {expected}")

    torch_says, swapped = (raised(lambda: modified(*pair), "z.backward()") for pair in ((1, 0), (0, 1)))
    sentence = find(torch_says, swapped)[0].sentence()
    assert sentence.endswith("where PyTorch raises that error at other versions.")
    assert "version 1; expected version 0" not in sentence
    assert find(torch_says, raised(lambda: modified(1, 0), "z.backward()")) == []


def test_an_error_of_that_type_with_a_text_of_its_own_names_the_statement_constant() -> None:
    """SECOND_BACKWARD's kind of error raised as a RuntimeError with the engine's own text: the
    text alone differs, so the sentence names the constant whose text PyTorch's has (never the
    text itself); another type, or another of the known kinds, is another error."""
    from grader.judge.differences import find
    from grader.spec.raised import raised

    def torch_error() -> None:
        raise RuntimeError("Trying to backward through the graph a second time, and more")

    def own(kind: type[Exception], text: str) -> dict[str, object]:
        def fails() -> None:
            raise kind(text)
        return raised(fails, "y.backward()")

    want = raised(torch_error, "y.backward()")
    sentence = find(want, own(RuntimeError, "freed already"))[0].sentence()
    assert sentence.startswith('y.backward() raised RuntimeError: "freed already" in ')
    assert sentence.endswith("; PyTorch raises a RuntimeError there too, with SECOND_BACKWARD's text instead.")
    assert find(want, own(ValueError, "freed already"))[0].sentence().endswith("where PyTorch raises another error.")
    leaf_error = own(RuntimeError, "a leaf Variable that requires grad is being used in an in-place operation")
    assert find(want, leaf_error)[0].sentence().endswith("where PyTorch raises another error.")


def test_the_whole_text_is_compared_only_where_asked() -> None:
    """ex20's statement names the error's text (RuntimeError(SECOND_BACKWARD)): with ``whole``,
    PyTorch's text with more before it is the engine's own text, told by the constant's name;
    without, the kind alone is compared, as every other exercise does."""
    from grader.judge.differences import find
    from micrograph.node import SECOND_BACKWARD
    from grader.spec.raised import raised

    def exact() -> None:
        raise RuntimeError(SECOND_BACKWARD)

    def prefixed() -> None:
        raise RuntimeError(f"MulBackward0: {SECOND_BACKWARD}")

    want = raised(exact, "y.backward()", whole=True)
    assert find(want, raised(exact, "y.backward()", whole=True)) == []
    sentence = find(want, raised(prefixed, "y.backward()", whole=True))[0].sentence()
    assert sentence.endswith("; PyTorch raises a RuntimeError there too, with SECOND_BACKWARD's text instead."), sentence
    assert find(raised(exact, "y.backward()"), raised(prefixed, "y.backward()")) == []


def test_a_sentence_that_tells_the_whole_difference_stands_without_its_rule() -> None:
    """ex21: MODIFIED at other versions is told by its sentence alone, the MODIFIED rule left
    out; a version that differs beside it still brings the versions' rule."""
    from grader.judge.differences import feedback
    from grader.spec.build import fact
    from grader.spec.raised import raised

    def modified(version: int, expected: int) -> None:
        raise RuntimeError("one of the variables needed for gradient computation has been modified by an inplace "
                           f"operation: [torch.DoubleTensor []] is at version {version}; expected version {expected}")

    test = next(t for t in catalog.load("ex21").spec.tests if t.public)
    torch_says, swapped = (raised(lambda: modified(*pair), "z.backward()") for pair in ((1, 0), (0, 1)))
    alone = feedback(test, {"modified": [torch_says]}, {"modified": [swapped]})
    assert alone.endswith("where PyTorch raises that error at other versions."), alone
    beside = feedback(test, {"modified": [torch_says], "versions": [fact(2, "w._version")]},
                      {"modified": [swapped], "versions": [fact(1, "w._version")]})
    assert "bumps the version counter once" in beside and "raises MODIFIED" not in beside, beside


def test_gradients_a_backward_left_bring_no_rule_while_its_error_differs() -> None:
    """ex20: gradients left by a backward that must fail follow from its error, whichever case it
    is (a second backward, one from another root); those of one that must run have a rule of their
    own, not the failing one's."""
    test = next(t for t in catalog.load("ex20").spec.tests if t.name.startswith("a backward from a root"))
    for error in ("second", "every_node"):
        assert test.advice_for([error, "grads_refused"]) == [test.key_feedback[error]]
    assert test.advice_for(["grads_added"]) == [test.key_feedback["grads_added"]]
    assert "refused" not in test.key_feedback["grads_added"]


def test_labels_apart_in_a_quoted_name_name_it_whole() -> None:
    """Labels that differ in one word are told once, naming the other words; a word that
    begins a quoted name ("'w" of "the hook 'w second'") is named with the whole name."""
    from grader.judge.build_feedback import Alike, grouped
    from grader.judge.capitals import ANY_WORD, capitalized
    from grader.judge.explained import Difference
    from grader.judge.torch_sentences import SayTorch

    def told(label: str) -> Difference:
        return Difference(SayTorch.TORCH_NUMBER, (("label", label),))

    quoted = grouped([told("the gradient the hook 'w second' received"), told("the gradient the hook 'x second' received")])
    assert capitalized(quoted[0].sentence(), ANY_WORD) == ("The gradient the hook 'w second' received is a different number from PyTorch's; "
                                    "the same holds with 'x second' in place of 'w second'.")
    plain = grouped([told("w.grad after y.backward()"), told("x.grad after y.backward()")])
    assert len(plain) == 1 and type(plain[0]) is Alike and plain[0].others == ("x.grad",)


def test_a_missing_grad_fn_is_said_once() -> None:
    """y.grad_fn is None: its next_functions are not said to be None as well."""
    from grader.judge.differences import find
    from grader.spec.build import described
    from micrograph import Value

    w = Value(0.5, requires_grad=True)
    want, got = described(w * 2, "y"), described(Value(1.0), "y")
    told = [d.sentence() for d in find(want, got)]
    assert "y.grad_fn is None, where PyTorch's is not." in told
    assert not any("next_functions" in sentence for sentence in told), told


def test_advice_for_a_consequence_is_left_out_while_its_cause_differs() -> None:
    """ex17: a wrong product rule is told with the product's rule, not the order nodes run in."""
    spec = catalog.load("ex17").spec
    test = next(t for t in spec.tests if t.public)
    assert test.advice_for(["mul", "grads"]) == [test.key_feedback["mul"]]
    assert test.advice_for(["grads"]) == [test.key_feedback["grads"]]


def _labels(observed: object) -> set[str]:
    """Every label in a stage's recorded observations (facts, claims, their entries)."""
    if type(observed) is dict:
        own = {observed["label"]} if type(observed.get("label")) is str else set()
        return own.union(*(_labels(v) for v in observed.values()))
    return set().union(*(_labels(v) for v in observed)) if type(observed) is list else set()


@pytest.mark.parametrize("exercise", TRACK)
def test_every_label_of_a_stage_is_said_whole_and_in_chinese(exercise):
    """A probe's label goes into a sentence whole (a label cut at a word reads half a program, and
    no Chinese form matches it), and in Chinese no English words are left around its code."""
    from micrograph.i18n import using

    from grader.judge.explained import MAX_LABEL
    from grader.judge.labels import shown_label

    labels = _labels(json.loads(RECORDED.read_text(encoding="utf-8"))["observations"][exercise])
    assert labels and not [label for label in labels if len(label) > MAX_LABEL]
    spec = importlib.util.spec_from_file_location("i18n_leaks", ROOT / "tests" / "i18n" / "leaks.py")
    assert spec is not None and spec.loader is not None
    leaks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(leaks)  # tests/i18n's finder of English left in Chinese output
    with using("zh"):
        shown = {label: _QUOTED.sub(" ", shown_label(label)) for label in labels}
    english = {label: zh for label, zh in shown.items() if leaks.english_sentences(zh)}
    assert not english, english


_QUOTED = re.compile(r'"[^"]*"')  # a node's name, a saved operand's ("self"): the engine's own words
