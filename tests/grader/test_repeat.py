"""Probes that call a function again (``grader.spec.repeat``), on modules imported from files
written here: state set by the very first call of a run is seen in a fresh copy of the file."""

from __future__ import annotations

import importlib.util
import sys
import types
from pathlib import Path

import pytest

from grader.judge.differences import find
from grader.sandbox.child.again import Started, runs_when_fresh
from grader.sandbox.child.alarm import Overrun, Share
from grader.sandbox.child.guard import import_submission
from grader.judge.state_sentences import SayState
from grader.spec import repeat
from grader.spec.repeat import calls_apart, fresh_copy

PLAIN = "def scaled(x, factor):\n    return x * factor\n"
FIRST_FACTOR_KEPT = ("def scaled(x, factor, _seen=[]):\n    _seen.append(factor)\n"
                     "    return x * _seen[0]\n")
CACHED_BY_X = "_made = {}\n\ndef scaled(x, factor):\n    return _made.setdefault(x, x * factor)\n"
ONCE_PER_X = ("_used = set()\n\ndef scaled(x, factor):\n    if x in _used:\n"
              "        raise RuntimeError('used up')\n    _used.add(x)\n    return x * factor\n")


def _module(folder: Path, name: str, source: str) -> types.ModuleType:
    path = folder / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def modules(tmp_path: Path):
    made = {name: _module(tmp_path, name, source)
            for name, source in (("plain_scaled", PLAIN), ("kept_scaled", FIRST_FACTOR_KEPT),
                                 ("cached_scaled", CACHED_BY_X), ("once_scaled", ONCE_PER_X))}
    yield made
    for name in made:
        sys.modules.pop(name, None)


def _facts(module: types.ModuleType) -> list[dict]:
    module.scaled(1.0, 10.0)  # an earlier test's call: the first of the run
    return calls_apart(module, lambda m, case: m.scaled(*case), repr, (2.0, 3.0), (5.0, 7.0),
                       "scaled")


def test_state_set_by_the_first_call_of_a_run_is_seen_in_a_fresh_copy(modules):
    want, got = _facts(modules["plain_scaled"]), _facts(modules["kept_scaled"])
    assert all(fact["holds"] is True for fact in want)
    assert [fact["holds"] for fact in got] == [True, True, False]  # every call agrees but one
    assert [d.say for d in find(want, got)] == [SayState.NOT_SAME_FRESH]


def test_state_an_earlier_test_left_for_the_first_inputs_is_seen_in_a_fresh_copy(modules):
    """A result cached by a call before the probe's first: all three calls agree with one
    another, but the first is not what a first call returns."""
    def facts(module: types.ModuleType) -> list[dict]:
        module.scaled(2.0, 10.0)  # an earlier test's call, on the probe's first x
        return calls_apart(module, lambda m, case: m.scaled(*case), repr, (2.0, 3.0), (5.0, 7.0),
                           "scaled")
    want, got = facts(modules["plain_scaled"]), facts(modules["cached_scaled"])
    assert [fact["holds"] for fact in got] == [True, True, False]
    assert [d.say for d in find(want, got)] == [SayState.NOT_SAME_FRESH]


def test_a_call_that_raises_on_inputs_an_earlier_call_returned_for_is_told_as_raising(modules):
    """A graph cached per inputs and backpropagated through again raises on the repeated call:
    that call is told as raising where the first returned, not as returning something else."""
    def facts(module: types.ModuleType) -> list[dict]:
        return calls_apart(module, lambda m, case: m.scaled(*case), repr, (2.0, 3.0), (5.0, 7.0),
                           "scaled")
    want, got = facts(modules["plain_scaled"]), facts(modules["once_scaled"])
    assert [fact["holds"] for fact in got] == [True, False, True]
    assert [d.say for d in find(want, got)] == [SayState.RAISED_AGAIN]


def test_a_fresh_copy_is_a_module_of_its_own_and_leaves_sys_modules_as_it_was(modules):
    kept = modules["kept_scaled"]
    kept.scaled(1.0, 10.0)
    fresh = fresh_copy(kept)
    assert fresh is not None and fresh is not kept and sys.modules["kept_scaled"] is kept
    assert fresh.scaled(1.0, 4.0) == 4.0 and kept.scaled(1.0, 4.0) == 10.0


def test_what_a_file_prints_at_its_top_is_shown_by_its_import_alone(tmp_path: Path, capsys):
    """The grader runs a file again for its state probes: the student's top-level demo, shown once
    by the import, is not printed again for each copy."""
    demo = _module(tmp_path, "demo_scaled", "import sys\nprint('demo')\nprint('oops', file=sys.stderr)\n" + PLAIN)
    try:
        assert capsys.readouterr() == ("demo\n", "oops\n")
        fresh = fresh_copy(demo)
        assert fresh is not None and fresh.scaled(2.0, 3.0) == 6.0
        assert capsys.readouterr() == ("", "")
    finally:
        sys.modules.pop("demo_scaled", None)


def test_a_fresh_copy_runs_the_guarded_code_its_import_ran(tmp_path: Path):
    """A namespace read in a fresh copy goes through the guarded ``vars`` as in the module the
    submission's import made: a copy compiled by the plain loader would hand out the real dict
    (or run a ``.pyc`` left beside the file)."""
    path = tmp_path / "reads_namespace.py"
    path.write_text("import types\n\ndef namespace(module):\n    return module.__dict__\n", encoding="utf-8")
    imported = import_submission(str(path), "reads_namespace")
    try:
        fresh = fresh_copy(imported)
        assert fresh is not None
        for module in (imported, fresh):
            assert type(module.namespace(types)) is not dict
    finally:
        sys.modules.pop("reads_namespace", None)


def test_a_copy_of_a_fresh_copy_runs_the_code_the_import_ran(tmp_path: Path):
    """A test run again on a fresh copy (``grader.sandbox.child.again``) makes copies of that copy: they run
    the code the import ran, never the file read again, which the submission may have rewritten since."""
    path = tmp_path / "rewritten.py"
    path.write_text("def answer():\n    return 'imported'\n", encoding="utf-8")
    imported = import_submission(str(path), "rewritten", repeat.imported)
    try:
        path.write_text("def answer():\n    return 'rewritten'\n", encoding="utf-8")
        copy = fresh_copy(imported)
        assert copy is not None
        again = fresh_copy(copy)
        assert again is not None and copy.answer() == again.answer() == "imported"
    finally:
        sys.modules.pop("rewritten", None)


ROWS_KEPT = ("_rows = None\n\ndef fit(rows):\n    global _rows\n    if _rows is None:\n        _rows = rows\n"
             "    if len(_rows) != len(rows):\n        raise ValueError('shapes differ')\n    return len(rows)\n")


@pytest.mark.parametrize(("source", "runs"), [(ROWS_KEPT, True), (ROWS_KEPT.replace("!=", "=="), False)])
def test_a_test_that_raises_only_after_earlier_calls_runs_on_fresh_imports(tmp_path: Path, source: str, runs: bool):
    """The first inputs kept in a module-level name: a test that calls on one batch, then on another, raises
    on the module and on one fresh copy alike, and runs with each call in a copy of its own; an error of
    the code itself (the test raised wherever it runs) does not."""
    module = _module(tmp_path, "rows_kept", source)
    share = Share(10.0, 60.0, Overrun("ProbeTimeout", "cpu"), Overrun("ProbeTimeout", "wall"))

    def probe(sub: types.ModuleType) -> None:
        sub.fit([1.0, 2.0])
        sub.fit([1.0, 2.0, 3.0])
    try:
        with pytest.raises(ValueError) as raised:
            probe(module)
        assert runs_when_fresh(probe, module, raised.value, share, Started(), lambda: None) is runs
    finally:
        sys.modules.pop("rows_kept", None)


HELPER_KEEPS = ("_kept = []\n\ndef factor_of(f):\n    _kept.append(f)\n    return _kept[0]\n\n"
                "def scaled(x, factor):\n    return x * factor_of(factor)\n")
CALLER_KEEPS = ("_kept = []\n\ndef factor_of(f):\n    return f\n\n"
                "def scaled(x, factor):\n    _kept.append(factor_of(factor))\n    return x * _kept[0]\n")


@pytest.mark.parametrize(("source", "kept_by"), [(HELPER_KEEPS, "factor_of"), (CALLER_KEEPS, None)])
def test_state_a_helper_keeps_is_told_as_the_helpers(tmp_path: Path, source: str, kept_by: str | None):
    """With each call of the helper made in a fresh copy of the module, a function whose state
    is the helper's returns the same every time: the failed facts name the helper; a function
    that keeps state itself still differs, and no helper is named."""
    from grader.spec.helpers import apart_from

    module = _module(tmp_path, "helped_scaled", source)
    try:
        module.scaled(1.0, 10.0)  # an earlier test's call
        got = apart_from(module, "factor_of", lambda m, case: m.scaled(*case), repr, (2.0, 3.0), (5.0, 7.0),
                         "scaled")
    finally:
        sys.modules.pop("helped_scaled", None)
    assert any(fact["holds"] is False for fact in got)
    assert {fact.get("~kept_by") for fact in got if fact["holds"] is False} == {kept_by}
    want = [{**{key: item for key, item in fact.items() if not key.startswith("~")}, "holds": True} for fact in got]
    said = [d.say for d in find(want, got)]
    assert (SayState.STATE_IN_HELPER in said) is (kept_by is not None)


CLIP_INSIDE_BY_ID = ("from micrograph import Function, Value\n\n_INSIDE = {}\n\n\nclass Clip(Function):\n"
                     "    @staticmethod\n    def forward(ctx, x, low, high):\n        ctx.save_for_backward(x)\n"
                     "        ctx.low, ctx.high = low, high\n        return Value(min(max(x.item(), low), high))\n\n"
                     "    @staticmethod\n    def backward(ctx, grad):\n        (x,) = ctx.saved_tensors\n"
                     "        if id(x) not in _INSIDE:\n            _INSIDE[id(x)] = ctx.low <= x.item() <= ctx.high\n"
                     "        return grad * (1.0 if _INSIDE[id(x)] else 0.0), None, None\n")



def test_a_function_kept_by_id_fails_the_same_facts_whatever_the_heap_before(tmp_path: Path):
    """Clip.backward keeping whether x is inside by id(x), its test run after heaps left
    otherwise (Values made, some kept, by an earlier test; the same test run before): each
    probe's own leaves and results are as they were, and only the probe that puts a leaf at a
    freed id on purpose tells the mistake, so the feedback does not depend on what ran before."""
    from grader.exercises.ex14 import clip_values
    from micrograph import Value

    module = _module(tmp_path, "clip_by_id", CLIP_INSIDE_BY_ID)
    kept: list[Value] = []
    try:
        runs = []
        for made in (0, 3, 8, 64):
            kept += [Value(float(k), requires_grad=True) * 2.0 for k in range(made)][::3]  # an earlier test's
            runs.append(clip_values(module))
    finally:
        sys.modules.pop("clip_by_id", None)
    assert all(run == runs[0] for run in runs)
    assert [fact["holds"] for fact in runs[0]["apart"]] == [True] * 6 + [False]
    assert [fact["grad"] for fact in runs[0]["grad"]] == [1.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0]
