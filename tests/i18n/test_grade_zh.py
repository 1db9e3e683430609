"""``grade --lang zh``: a stub, a wrong answer and a solution, Chinese throughout; tables in columns."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from leaks import english_sentences

from grader.report.width import pad, width, wrap

REPO = Path(__file__).resolve().parents[2]
GRADE = [sys.executable, "-c", "from grader.cli.app import main; main()"]
GALLERY = REPO / "tests" / "exercises" / "gallery"  # wrong answers as files: gallery/exNN/*.py


def grade(*args: str, cache: Path, cwd: Path = REPO, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("MICROGRAPH_LANG", "LC_ALL", "LC_MESSAGES", "LANG")}
    return subprocess.run([*GRADE, *args], cwd=cwd, capture_output=True, text=True, timeout=600,
                          env={**base, "GRADE_CACHE_DIR": str(cache), "COLUMNS": "100", **env})


def test_columns_count_wide_characters_twice() -> None:
    assert width("叶子节点 leaf") == 13
    assert pad("梯度", 6) == "梯度  "
    lines = wrap("a.grad 是 None：非叶子节点只有在 y.backward() 之前调用 a.retain_grad()，才会保留梯度。", 24)
    assert all(width(line) <= 24 for line in lines) and len(lines) > 2
    assert "".join(lines).replace(" ", "") == "a.grad是None：非叶子节点只有在y.backward()之前调用a.retain_grad()，才会保留梯度。"
    assert not any(line.startswith(("，", "。")) for line in lines)
    assert wrap("hello world this is a test", 11) == ["hello world", "this is a", "test"]


@pytest.mark.parametrize("kind", ["stub", "wrong", "solution"])
def test_grade_lang_zh_is_chinese_and_fits_the_terminal(kind: str, answers: Path, tmp_path: Path) -> None:
    args = {"stub": [], "wrong": ["--submission", str(GALLERY / "ex03" / "no_retain_grad.py")],
            "solution": ["--submission", str(REPO / "solutions" / "ex03_retain_grad.py")]}[kind]
    run = grade("ex03", "--lang", "zh", "--out", str(tmp_path), *args, cache=answers)
    assert run.returncode == (0 if kind == "solution" else 1), run.stderr
    out = run.stdout
    headings = ("还没开始", "NotImplementedError") if kind == "stub" else ("测试", "分数", "状态", "反馈", "总分")
    for heading in (*headings, "retain_grad 让非叶子节点保留梯度"):
        assert heading in out
    assert {"stub": "（0/14）", "wrong": "未通过", "solution": "通过"}[kind] in out
    table = [line for line in out.splitlines() if "示意图：" not in line]  # paths are not wrapped
    assert all(width(line) <= 100 for line in table), out
    assert english_sentences(out + run.stderr) == [], out + run.stderr
    if kind == "solution":
        svg = (tmp_path / "ex03" / "graph.svg").read_text(encoding="utf-8")
        assert "叶子节点" in svg and "Noto Sans CJK SC" in svg


def test_the_locale_chooses_chinese_and_a_bad_language_is_a_usage_error(answers: Path, tmp_path: Path) -> None:
    run = grade("list", cache=answers, LANG="zh_CN.UTF-8")
    assert run.returncode == 0 and run.stdout.startswith("练习  分数  公开  隐藏")
    assert "y = (x + w) * (w + 1) 的计算图" in run.stdout
    assert grade("list", cache=answers, LANG="zh_CN.UTF-8", MICROGRAPH_LANG="en").stdout.startswith("exercise")
    bad = grade("list", cache=answers, MICROGRAPH_LANG="klingon")
    assert bad.returncode == 2 and "klingon" in bad.stderr and "zh" in bad.stderr


def one_wrong_answer_each(folder: Path) -> Path:
    """A submission folder with one plausible wrong answer per exercise that has one."""
    folder.mkdir()
    found = [(p.parent.name, p) for p in sorted(GALLERY.glob("ex*/*.py")) if p.name != "cases.py"]
    for exercise, path in found:
        module = next(REPO.glob(f"exercises/{exercise}_*.py")).name
        if not (folder / module).exists() and path.read_text(encoding="utf-8").startswith('"""Wrong'):
            shutil.copyfile(path, folder / module)
    assert len(list(folder.iterdir())) >= 12
    return folder


@pytest.mark.parametrize("kind", ["stubs", "wrong answers", "solutions"])
def test_no_english_sentence_in_a_zh_run_of_the_whole_course(kind: str, answers: Path, tmp_path: Path) -> None:
    submission = {"stubs": REPO / "exercises", "solutions": REPO / "solutions",
                  "wrong answers": tmp_path / "wrong"}[kind]
    if kind == "wrong answers":
        one_wrong_answer_each(submission)
    run = grade("--lang", "zh", "--submission", str(submission), "--out", str(tmp_path / "g"),
                cache=answers, COLUMNS="1000")
    assert "汇总" in run.stdout, run.stderr
    assert english_sentences(run.stdout + run.stderr) == []


def test_pytorch_error_texts_stay_english_with_a_chinese_explanation_beside_them() -> None:
    from micrograph.i18n import using

    from grader.judge.explain import test_error
    from grader.spec.limits import Limits

    error = {"type": "RuntimeError", "function": "step", "caller": None, "line": 7,
             "message": "a leaf Variable that requires grad is being used in an in-place operation."}
    with using("zh"):
        text = test_error(error, "ex09_no_grad.py", Limits())
    assert text.startswith("你的代码在第 7 行（step 中）抛出了 RuntimeError: a leaf Variable that requires grad "
                           "is being used in an in-place operation.")
    assert "（这条报错说的是：需要梯度的叶子节点被用在了 in-place 操作里" in text
    assert english_sentences(text) == []
    assert test_error(error, "ex09_no_grad.py", Limits()) == (
        "your code raised RuntimeError at line 7 (in step): a leaf Variable that requires grad is being "
        "used in an in-place operation.")


@pytest.mark.parametrize("kind, message", [
    ("ThisStage", 'ex17: one backward through each of w * w + w, (x + w) * (w + 1), z = n * m, m = v + 1, n = k + v, and w * 3 + (w * w) * 2 + 2 | RuntimeError: "Trying to backward through the graph '
                  'a second time …" | ex20'),
    ("ThisStage", 'ex18: a.retain_grad() then one backward; reading r.grad after r.retain_grad(); a.grad of an a that did not call it, after a backward; two backward calls through a retained a | RuntimeError: "one of the variables needed for '
                  'gradient computation has been modified by an inplace operation | is at version 1" | ex21'),
    ("ThisStage", "ex19: two backward calls, then zero_() and one more; two through a retained non-leaf, then zero_() and one more"),
    ("EarlierStage", "ex18: a.grad after a.retain_grad() and a backward is not the gradient a's node receives"),
    ("EarlierStage", 'ex17: it raised RuntimeError: "a leaf Variable that requires grad is being used in an '
                     'in-place operation."'),
])
def test_another_stage_is_told_in_chinese(kind: str, message: str) -> None:
    """The build track's sentences about another stage translate the program that stage's check
    runs and what it found; the error the student's engine raised is quoted as it came (its type as
    Python names it, its message as the engine worded it, even one holding " | ")."""
    from micrograph.i18n import using

    from grader.judge.explain import test_error
    from grader.spec.limits import Limits

    error = {"type": kind, "function": "Node.unpack", "caller": None, "line": 68, "message": message}
    with using("zh"):
        text = test_error(error, "ex20_build_saved_values.py", Limits(), exercise="ex20")
    assert english_sentences(text.replace("Error: ", "Error：")) == [], text  # the words after a type too
    assert ("RuntimeError" in text) == ("RuntimeError" in message)  # PyTorch's type, searchable


def test_sentences_join_without_a_gap_after_a_chinese_full_stop() -> None:
    from grader.i18n import sentences

    assert sentences(["inference 返回时梯度模式仍是关闭的。", "在块里计算 y", ""]) == (
        "inference 返回时梯度模式仍是关闭的。在块里计算 y")
    assert sentences(["返回的错误 是 None：没有捕获到错误。", "a.grad 是 None"]) == "返回的错误是 None：没有捕获到错误。a.grad 是 None"
    assert sentences(["y is not recorded.", "", "compute y inside no_grad"]) == (
        "y is not recorded. compute y inside no_grad")


def test_a_message_cut_by_the_child_ends_at_a_word_with_an_ellipsis() -> None:
    from micrograph.i18n import using

    from grader.judge.messages import torch_explained
    from grader.spec.probe import MAX_TEXT, first_line

    cut = first_line("Trying to backward through the graph a second time " * 10)
    assert len(cut) == MAX_TEXT
    shown = torch_explained(cut)
    assert shown.endswith(" …") and shown[:-2] == cut.rsplit(" ", 1)[0]
    with using("zh"):
        assert " …（这条报错说的是：" in torch_explained(cut)
    assert torch_explained("short message") == "short message"


def test_the_sandboxs_refusal_of_a_reach_is_told_in_the_students_language() -> None:
    """A PermissionError the sandbox raised at a reach for grading's internals is the grader's own
    text, not the submission's: quoted in an import error, it is in Chinese too."""
    from micrograph.i18n import using

    from grader.judge import explain
    from grader.sandbox.child.wire import ErrorRecord, Touch
    from grader.spec.limits import Limits

    for refusal in (f"the grader does not let submitted code reach {Touch.OBSERVER.value}",
                    "the grader does not let submitted code change the module micrograph"):
        error = ErrorRecord(type="PermissionError", message=refusal, function=None, caller=None, line=50, step=None)
        assert explain.import_error(error, "ex09.py", Limits()).endswith(f": {refusal}")
        with using("zh"):
            said = explain.import_error(error, "ex09.py", Limits())
        assert "the grader" not in said and "评分程序不允许提交的代码" in said, said


def test_a_probe_label_worded_in_english_is_translated_around_its_code() -> None:
    """Feedback names the student's code by the probe's label: in Chinese the English words
    around it are translated, the code stays as written, and a plain code label is unchanged."""
    from grader.i18n import sentences
    from grader.judge.labels import shown_label
    from grader.judge.sentences import Say
    from micrograph.i18n import using

    with using("zh"):
        assert shown_label("for y = w * x + x (w == x), paths(y, w)[0]") == \
            "对 y = w * x + x (w == x)，paths(y, w)[0]"
        assert shown_label("the x returned") == "返回的 x"
        assert shown_label("the w given to forward(w, x, False)") == "传给 forward(w, x, False) 的 w"
        assert shown_label("(z * x + u).backward() after z.retain_grad(); z.zero_(), z = u * 3") == \
            "z.retain_grad(); z.zero_(), z = u * 3 之后的 (z * x + u).backward()"
        assert shown_label("p in model.parameters()") == "model.parameters() 中的 p"
        assert shown_label("w.grad after a second y.backward() after y.backward(), y = w * 3") == \
            "y.backward(), y = w * 3 之后的第二次 y.backward() 之后的 w.grad"  # the step read as one step
        assert shown_label("mse_loss(model(inputs), targets) after train()") == \
            "train() 之后的 mse_loss(model(inputs), targets)"
        assert shown_label("w.grad") == "w.grad"
        assert shown_label("the error for a second y.backward() after y.backward(retain_graph=True)") == \
            "y.backward(retain_graph=True) 之后的第二次 y.backward() 的错误"  # the program's words too
        assert shown_label("w.grad.zero_() is w.grad") == "w.grad.zero_() 返回的就是 w.grad"
        assert shown_label("after d = w.detach(); d.add_(1): d.requires_grad") == \
            "d = w.detach(); d.add_(1) 之后：d.requires_grad"  # a build-track program's note, as code
        assert shown_label("w.item() after adding through w.detach(), then through w.data") == \
            "先通过 w.detach()、再通过 w.data 加上一个数 之后的 w.item()"  # the steps worded in English
        assert shown_label("a.grad is g after (a * w).backward()") == "(a * w).backward() 之后的 a.grad 就是 g"
        assert shown_label("a2 (after a += 1)") == "a2（a += 1 之后）"  # the line that made it, as code
        assert shown_label("y.backward(), y = (d + d) + w, d = w + x (a second time, after a first backward)") == \
            "y.backward()，其中 y = (d + d) + w, d = w + x（第二次，在第一次反向传播之后）"  # the call, its program's note
        assert shown_label("a second y.backward() after y.backward(), y = c * x (c a constant)") == \
            "y.backward()，其中 y = c * x（c 是常量）之后的第二次 y.backward()"
        assert shown_label("c + 0 is c, c = Value(-2)") == "c + 0 就是 c，其中 c = Value(-2)"  # an object, its program
        assert shown_label("(a * w).backward() after a = w + x; a.retain_grad(); (a * x).backward() adds to a.grad") == \
            "在 a = w + x; a.retain_grad(); (a * x).backward() 之后，(a * w).backward() 会加到 a.grad 上"
        assert shown_label("x.grad through Softplus.backward (x far below 0)") == \
            "经由 Softplus.backward 得到的 x.grad（x 远小于 0）"  # a case note in words
        told = sentences([Say.NEW_OBJECT(label="the x returned", of="the leaf x you were given")])
        assert told == "返回的 x 是一个新对象，不是给你的叶子节点 x。"
    assert shown_label("the x returned") == "the x returned"  # English: as the probe wrote it


def test_the_cases_a_difference_was_seen_in_are_listed_as_a_sentence_lists_them() -> None:
    """A label that lists the cases one difference was seen in ("b (first call; second call)",
    merged by ``cases.cases_merged``) reads as a list: notes one word apart are said once with
    the words listed; conditions on a number with "or" (each case meets one of them, not both);
    other notes listed with "and"; in Chinese with 、 (conditions with 或); a note that is code
    (an assignment of the build track's probes) is left as written."""
    from grader.judge.labels import shown_label
    from micrograph.i18n import using

    assert shown_label("b (first call; second call)") == "b (first and second call)"
    assert shown_label("y (w at the limit; w above the limit)") == "y (w at and above the limit)"
    assert shown_label("y (x < 0; x = 0)") == "y (x < 0 or x = 0)"  # a sign is no word; two: no comma
    assert shown_label("x.grad through Clip.backward (x < low; x > high)") == \
        "x.grad through Clip.backward (x < low or x > high)"
    assert shown_label("x.grad through Clip.backward (x = low; x = high)") == \
        "x.grad through Clip.backward (x = low or x = high)"  # conditions one word apart: each said whole
    assert shown_label("y (w below the limit; a doubling lands on the limit; x = 0)") == \
        "y (w below the limit, a doubling lands on the limit, and x = 0)"
    assert shown_label("y (x = 0)") == "y (x = 0)"
    assert shown_label("b (x without grad; x without grad, w == x)") == \
        "b (x without grad; x without grad, w == x)"  # a note with a comma of its own: "and" would split it
    kept = "the third backward of y (w.grad = None; x.grad = None before the third)"
    assert shown_label(kept) == kept
    with using("zh"):
        assert shown_label("b (first call; second call)") == "b（第一次调用、第二次调用）"
        assert shown_label("y (x < 0; x = 0)") == "y（x < 0 或 x = 0）"
        assert shown_label("w (w without grad; x without grad, w == x)") == "w（w 不需要梯度；x 不需要梯度，w == x）"
        assert shown_label("jacobian_rows(x, loss, True) (y with two equal columns; two equal entries of loss)") == \
            "jacobian_rows(x, loss, True)（y 有两列相等、loss 有两个相等的条目）"  # a call's label: its notes too
        assert shown_label("jacobian_rows(x, loss, True) (y with two equal columns)[1][0]") == \
            "jacobian_rows(x, loss, True)（y 有两列相等）[1][0]"  # an entry of what it returned


def test_a_graphs_note_and_the_words_of_a_label_are_chinese() -> None:
    """A label's words are translated, its code kept: the note after a graph ("w at zero", in
    full-width brackets as any Chinese words in brackets; "(w == x)", code, as written), also
    where a sentence names the other graphs it holds for, and an "and" between two entries."""
    from micrograph.i18n import using

    from grader.judge.explained import Difference
    from grader.judge.labels import shown_label
    from grader.judge.per_graph import per_graph
    from grader.judge.sentences import Say

    labels = [f"for y = {graph}, grad_by_paths(y, w)" for graph in ("w * x", "w * w + x (w at zero)", "w * x + x (w == x)")]
    told = per_graph([Difference(Say.RESULT_NUMBER, (("label", label),)) for label in labels])
    with using("zh"):
        assert shown_label(labels[1]) == "对 y = w * w + x（w 为零），grad_by_paths(y, w)"
        assert shown_label("grads_after_backward(w, x)['w'] and ['x']") == "grads_after_backward(w, x)['w'] 和 ['x']"
        text = told[0].sentence()
    assert "y = w * w + x（w 为零）、y = w * x + x (w == x) 也是如此" in text, text
    assert english_sentences(text) == [] and "at zero" not in text


def test_the_other_labels_a_build_track_difference_holds_for_are_listed_with_the_chinese_comma() -> None:
    """A build-track difference told once for labels one name apart ("the same holds with a.grad_fn..., y.grad_fn...
    in place of b.grad_fn...") lists the other names as a Chinese list does, with 、."""
    from micrograph.i18n import using

    from grader.judge.build_feedback import Alike
    from grader.judge.explained import Difference
    from grader.judge.sentences import Say

    first = Difference(Say.RESULT_NUMBER, (("label", "b.grad_fn.next_functions"),))
    told = Alike(first, ("a.grad_fn.next_functions", "y.grad_fn.next_functions"), "b.grad_fn.next_functions")
    with using("zh"):
        text = told.sentence()
    assert "a.grad_fn.next_functions、y.grad_fn.next_functions" in text, text
    assert "a.grad_fn.next_functions, y.grad_fn.next_functions" in told.sentence()


def test_a_probe_label_the_catalogue_holds_whole_is_translated_whole() -> None:
    """A label that is a msgid of its own (ex22's hooks and steps under no_grad) is translated as
    a whole, never cut by a pattern that keeps its English words as code ("the gradient the hook
    {name} received", "{call} on a leaf that requires grad"); a program's note under no_grad and
    ex21's refused step are translated around their code."""
    from grader.judge.labels import shown_label
    from micrograph.i18n import using

    with using("zh"):
        assert shown_label("the gradient the hook on a registered before a.zero_() received") == \
            "在 a.zero_() 之前注册在 a 上的钩子收到的梯度"
        assert shown_label("the gradient w's second hook received") == "w 的第二个钩子收到的梯度"
        assert shown_label("w.zero_() under no_grad on a leaf that requires grad") == \
            "在 no_grad 下对需要梯度的叶子节点调用 w.zero_()"
        assert shown_label("w.item() after w.add_(w.grad * -0.1) under no_grad") == \
            "在 no_grad 下执行 w.add_(w.grad * -0.1) 之后的 w.item()"
        assert shown_label("after y = w * 2; y.zero_() under no_grad: y.grad_fn") == \
            "y = w * 2; 在 no_grad 下 y.zero_() 之后：y.grad_fn"
        assert shown_label("w.item() after w.add_(1) on a leaf that requires grad") == \
            "对需要梯度的叶子节点调用 w.add_(1) 之后的 w.item()"


def test_a_reach_told_of_a_notebook_takes_no_gap_after_its_chinese_name() -> None:
    """``{file} 在运行时试图访问…`` is written for a path: "这个笔记本" before the verb takes no space."""
    from micrograph.i18n import using

    from grader.i18n import _
    from grader.judge.reached import reached
    from grader.sandbox.child.wire import Touch
    from grader.sandbox.reach import Reach
    from grader.sandbox.run import ChildReport
    from grader.spec.limits import Limits

    ran = ChildReport(Limits(), touched=[Touch.OBSERVER])
    named = ChildReport(Limits(), reached=[Reach(Touch.CODE, 3, "pickle", True)])
    with using("zh"):
        notebook, path = _("this notebook"), "ex07_inplace.py"
        for report in (ran, named):
            assert reached(report, notebook).startswith(f"{notebook}在运行时" if report is ran else f"{notebook}导入了")
            assert reached(report, path).startswith(f"{path} ")  # a path keeps its space


def test_a_stage_begun_in_a_notebook_takes_no_gap_around_its_chinese_name() -> None:
    """``但 {file} 中…`` is written for a path: "这个笔记本" between Chinese words takes no space."""
    from micrograph.i18n import using

    from grader.i18n import _
    from grader.judge.stages import parts_left

    with using("zh"):
        notebook, path = _("this notebook"), "ex16_build_value.py"
        assert f"但{notebook}中" in parts_left(notebook, ["Value.is_leaf"])
        assert f"但 {path} 中" in parts_left(path, ["Value.is_leaf"])  # a path keeps its spaces


def test_a_reach_refused_with_an_error_is_told_at_the_place_it_was_refused() -> None:
    """The sandbox's refusal the submission let through names where: its function and line, or the
    line of its top level; one its code caught (no error record) leaves the sentence without a place."""
    from micrograph.i18n import using

    from grader.judge.reached import reached
    from grader.sandbox.child.wire import Touch
    from grader.sandbox.run import ChildReport
    from grader.spec.limits import Limits

    refusal = "the grader does not let submitted code reach " + Touch.OBSERVER.value
    error = {"type": "PermissionError", "message": refusal, "function": "backprop", "caller": None, "line": 9,
             "step": None, "fresh": None}
    in_test = ChildReport(Limits(), touched=[Touch.OBSERVER], tests={"t": {"name": "t", "obs": None, "error": error}})
    at_import = ChildReport(Limits(), touched=[Touch.OBSERVER], import_error={**error, "function": "<module>"})
    caught = ChildReport(Limits(), touched=[Touch.OBSERVER])
    assert "records while running (in backprop, line 9): the grader stopped it" in reached(in_test, "f.py")
    assert "records while running (line 9): the grader stopped it" in reached(at_import, "f.py")
    assert "records while running: the grader stopped it" in reached(caught, "f.py")
    with using("zh"):
        assert reached(in_test, "f.py").startswith("f.py 在运行时（在 backprop 中，第 9 行）试图访问")


def test_the_kind_of_result_a_probe_asked_for_is_told_in_the_students_language() -> None:
    """A probe's "not a number: NoneType" is told with its kind translated (no English word left in
    a Chinese sentence), None as None (the commonest slip: a function without a ``return``), and
    every kind a probe of the grader words so is one the catalogue translates."""
    import re
    from pathlib import Path

    from grader.i18n import sentences
    from grader.judge import labels
    from grader.judge.sentences import Say
    from micrograph.i18n import using

    def none() -> str:
        return Say.RESULT_TYPE(label="grad_by_paths(y, w)", type="not a number: NoneType")

    def tuple_() -> str:
        return Say.RESULT_TYPE(label="leaf_grads(w, x, True, True)", type="not a dict: tuple")

    assert sentences([none()]) == ("grad_by_paths(y, w) is not the kind of result the statement's is: yours is None, "
                                 "not a number.")
    assert sentences([tuple_()]).endswith("yours is of type tuple, not a dict.")
    with using("zh"):
        assert sentences([none()]) == "grad_by_paths(y, w) 和题目的结果不是同一种类型：你的是 None，不是数值。"
        assert sentences([tuple_()]).endswith("你的是 tuple，不是字典。")
    def item() -> str:  # the build track's Value whose item() gives no Python number
        return Say.RESULT_TYPE(label="w.item()", type="not a number: its item() returns Number")

    assert sentences([item()]).endswith("yours is not a number: its item() returns Number.")
    with using("zh"):
        assert sentences([item()]).endswith("你的是 item() 返回 Number 的值，不是数值。")
    grader = Path(labels.__file__).resolve().parents[1]
    written = {kind for path in grader.rglob("*.py")
               for kind in re.findall(r"f\"not (an? [\w ]+): \{type_name", path.read_text(encoding="utf-8"))}
    assert written and written <= set(labels._KINDS), written - set(labels._KINDS)


def test_a_line_of_a_kernel_s_history_is_said_with_its_cell_in_words() -> None:
    """``grader.check`` names a line of the kernel's history by its In [N] alone: in Chinese
    "单元格 In [7] 第 2 行", so that "你的代码在{line}" reads "在单元格 In [7] 第 2 行", not "在In [7]第 2 行"."""
    from micrograph.i18n import using

    from grader.course.notebook import Converted

    history = Converted("", starts=[1, 4], cells=["In [3]", "In [7]"], history=True)
    with using("zh"):
        assert history.where(5) == "单元格 In [7] 第 2 行"
    assert history.where(5) == "In [7], line 2"


def test_a_function_defined_in_two_cells_is_told_without_a_gap_before_the_cells() -> None:
    """The note on a function two cells define names the cells in Chinese words (第 3 个单元格…):
    no space between them and the Chinese around them, as a note is not joined as sentences are."""
    import json

    from micrograph.i18n import using

    from grader.course.notebook import convert

    def cell(count: int) -> dict[str, object]:
        return {"cell_type": "code", "execution_count": count, "metadata": {}, "outputs": [],
                "source": "def f():\n    return 1\n"}

    notebook = {"cells": [cell(2), cell(5)], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    with using("zh"):
        notes = convert(json.dumps(notebook).encode(), "ex05.ipynb").notes()
    told = next(n for n in notes if "都有定义" in n)
    assert told.startswith("f 在第 1 个单元格（In [2]）、第 2 个单元格（In [5]）里都有定义") and "是第 2 个单元格" in told, told
