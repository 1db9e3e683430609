"""Answers a submission makes up where the statement asks for what the engine did, each beside
the honest wrong answer it is made from.  Graded in the strongest mode here: they act on
Python's objects alone.

* A text written down: ex03's ``grad_warning`` returns the engine's warning text by a rule of
  its own (a non-leaf that does not retain its grad), the words copied into the file, after
  reading ``v.grad`` with the warning silenced.  It answers every call as the engine's warning
  would, so its results alone cannot tell it; it is judged by the object it returns, which is
  not the message the engine warned with.  The honest slip records without
  ``simplefilter("always")`` (and so misses a warning the caller's filters had already shown):
  the text written down scored 14 of 14 where the slip gets 11.
* A node class of its own: ex14's honest slip keeps x as a note on ctx (``ctx.x = x``) and
  reads ``ctx.saved_tensors`` only to have a second backward refused; its forgery also sets
  ``Softplus._backward_cls`` and ``Clip._backward_cls`` to a subclass of the engine's node
  whose ``saves`` names an operand and whose ``release`` empties the node's saved slot, so that
  the node reads as one that saved x and had it freed: 14 of 16 where the slip gets 12.
* The course's engine as one's own: a build-track stage whose file is ``from micrograph import
  Value`` scored all of ex16, where the stub it replaces scores nothing.  The parent refuses
  the import in the build track, and flags it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from batches import MODES, REPO, graded_class
from modes import strongest_here

from micrograph.value import NONLEAF_GRAD_WARNING


def _swapped(text: str, *pairs: tuple[str, str]) -> str:
    for old, new in pairs:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


SOLVED_EX03 = (REPO / "solutions" / "ex03_retain_grad.py").read_text()
RECORDED = '''    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _ = v.grad  # reading is enough: a non-leaf that does not retain its grad warns
    return str(caught[0].message) if caught else None
'''
NO_FILTER = _swapped(SOLVED_EX03, (RECORDED, '''    with warnings.catch_warnings(record=True) as caught:
        _ = v.grad  # no simplefilter: a warning shown once before is not caught again
    return str(caught[0].message) if caught else None
'''))
WRITTEN = _swapped(SOLVED_EX03, (RECORDED, f'''    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        held = v.grad  # read, as the statement asks; the text is written down
    if held is None and not v.is_leaf and not v.retains_grad:
        return {NONLEAF_GRAD_WARNING!r}
    return None
'''))

SOLVED_EX14 = (REPO / "solutions" / "ex14_custom_function.py").read_text()
NOTED = _swapped(
    SOLVED_EX14,
    ("ctx.save_for_backward(x)  # freed by backward, version-checked like any saved operand", "ctx.x = x"),
    ("(x,) = ctx.saved_tensors  # raises once a backward without retain_graph freed it",
     "ctx.saved_tensors  # read only to refuse a second backward\n        x = ctx.x"),
    ("\n        ctx.save_for_backward(x)\n", "\n        ctx.x = x\n"),
    ("\n        (x,) = ctx.saved_tensors\n", "\n        ctx.saved_tensors\n        x = ctx.x\n"))
OWN_NODE_CLASS = _swapped(NOTED, ("from micrograph import Function, Value\n",
                                  "from micrograph import Function, Value\n"
                                  "from micrograph.function import BackwardCFunction\n")) + '''

class _Says(BackwardCFunction):
    saves = ("self",)

    def __init__(self, *args):
        super().__init__(*args)
        self.saves = ("self",)

    def release(self):
        super().release()
        self._saved = None
        self._freed_buffers = True


for _op in (Softplus, Clip):
    _op._backward_cls = type(_op.__name__ + "Backward", (_Says,), {"_forward_cls": _op, "__module__": __name__})
'''


SOLVED_EX16 = (REPO / "solutions" / "ex16_build_value.py").read_text()
STUB_EX16 = (REPO / "exercises" / "ex16_build_value.py").read_text()
BORROWED = "from micrograph import Value  # the course's engine, as this stage's\n"


@pytest.fixture(scope="module")
def rows(tmp_path_factory: pytest.TempPathFactory, answers: Path) -> dict[str, dict[str, Any]]:
    strongest = next((mode for mode in MODES if strongest_here(mode)), None)
    if strongest is None:
        pytest.skip("children run in no mode here")
    files = {"honest_right": {"ex03_retain_grad.py": SOLVED_EX03, "ex14_custom_function.py": SOLVED_EX14,
                              "ex16_build_value.py": SOLVED_EX16},
             "honest_wrong": {"ex03_retain_grad.py": NO_FILTER, "ex14_custom_function.py": NOTED,
                              "ex16_build_value.py": STUB_EX16},
             "borrowed_engine": {"ex16_build_value.py": BORROWED},
             "written": {"ex03_retain_grad.py": WRITTEN},
             "own_node_class": {"ex14_custom_function.py": OWN_NODE_CLASS}}
    return graded_class(strongest, tmp_path_factory, "own", files, answers, ("ex03", "ex14", "ex16"))


def test_the_honest_answers_are_told_apart(rows: dict[str, dict[str, Any]]) -> None:
    for exercise in ("ex03", "ex14", "ex16"):
        assert float(rows["honest_wrong"][exercise]) < float(rows["honest_right"][exercise]), rows


def test_a_text_written_down_earns_no_more_than_the_honest_wrong_answer(rows: dict[str, dict[str, Any]]) -> None:
    assert float(rows["written"]["ex03"]) <= float(rows["honest_wrong"]["ex03"]), rows["written"]
    assert "not a text written down" in rows["written"]["text"], rows["written"]["text"][:3000]


def test_a_node_class_of_its_own_earns_no_more_than_the_honest_wrong_answer(rows: dict[str, dict[str, Any]]) -> None:
    assert float(rows["own_node_class"]["ex14"]) <= float(rows["honest_wrong"]["ex14"]), rows["own_node_class"]
    assert "a node of a class your code made" in rows["own_node_class"]["text"], rows["own_node_class"]["text"][:3000]


def test_the_course_engine_earns_a_build_stage_nothing_and_is_flagged(rows: dict[str, dict[str, Any]]) -> None:
    assert float(rows["borrowed_engine"]["ex16"]) <= float(rows["honest_wrong"]["ex16"]), rows["borrowed_engine"]
    assert "imports a module a submission may not import: micrograph" in rows["borrowed_engine"]["text"]
