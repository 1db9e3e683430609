"""The gallery's table format: plausible answers to an exercise and what grading must say.

Each exercise has a folder ``gallery/exNN/`` with a ``cases.py`` listing its cases: a whole
submission in ``gallery/exNN/<name>.py``, or the reference solution with one mistake made in it
(``edits``: each old text of the solution, which must occur, replaced by the new one):

    CASES = [
        Wrong("formula_backprop",                      # gallery/ex01/formula_backprop.py
              fails={"backprop gives dy/dw and dy/dx":  # a test it must fail ...
                     "ran no backward pass"}),          # ... with these words in its feedback
        Wrong("new_leaf_b",                             # the solution, with b made a new leaf
              edits={"b = micrograph.add(w_leaf, 1)": "b = Value(w + 1, requires_grad=True)"},
              fails={...}),
        Correct("operators_swapped"),                   # must score full marks
    ]

``fails`` maps a test name to a fragment of the feedback that names the real mistake (the kind
of difference, not the test's advice); a Wrong answer may fail other tests too.  Every failed
test of every case must have feedback, and no feedback may contain a number that any test of
the exercise (hidden ones included) expects.

Each fragment and each ``names`` entry is one phrase, said on every run: a slip of state kept by
``id()`` is met where a probe puts an object at a freed id on purpose (``grader.spec.freed``), the
tests' other objects kept alive meanwhile (``grader.spec.held``), never where CPython happened to.

``passes`` names tests a wrong answer must still pass: a function of it that is right, graded
after the one whose mistake left state behind (grad mode switched off, and never back on).

``names`` are the words any true explanation of the mistake must use (the function it is in,
what it got wrong): every wrong answer has them, and each must occur in the feedback of the
tests the answer fails.  A whole
submission says them in a line of its own, beside the code::

    # names: backprop, no backward pass

``unsaid`` are words of a sentence untrue of the answer (one the grader once told it): no
feedback on it may hold them, nor, on the build track, the note beside its ``difference.svg``.
``drawn`` are words that note must hold: a build-track answer whose graph's shape differs from
PyTorch's gets a ``difference.svg`` that says how.
"""

from __future__ import annotations

import importlib.util
import re
from dataclasses import dataclass, field
from pathlib import Path

GALLERY = Path(__file__).resolve().parent / "gallery"


NAMES = re.compile(r"^# names: (.+)$", re.MULTILINE)


@dataclass(frozen=True)
class Wrong:
    """A plausible wrong answer: it loses points, with feedback naming its mistake."""

    name: str
    fails: dict[str, str] = field(default_factory=dict)
    edits: dict[str, str] = field(default_factory=dict)
    names: tuple[str, ...] = ()
    passes: tuple[str, ...] = ()  # tests it must pass: its mistake is not charged to them
    unsaid: tuple[str, ...] = ()  # words of an untrue sentence: said of no test
    drawn: tuple[str, ...] = ()  # words the note beside difference.svg must hold (the build track)


LEAVES_KEPT_IN_A_GLOBAL = {  # edits of a solution whose build_graph makes w_leaf and x_leaf
    "    w_leaf = Value(w, requires_grad=True)\n    x_leaf = Value(x, requires_grad=True)\n":
    "    w_leaf, x_leaf = _LEAVES\n    w_leaf.data.fill_(w)\n    x_leaf.data.fill_(x)\n",
    "def build_graph(": "_LEAVES = (Value(0.0, requires_grad=True), Value(0.0, requires_grad=True))\n\n\n"
                       "def build_graph(",
}
"""State kept between calls: the two leaves made once, their numbers overwritten by every call
(shared by the exercises whose given build_graph is the documents')."""

BUFFERS_KEPT_IN_A_DICT = {  # edits of a build-track solution from ex17 on (its backward)
    "    buffers = {first: 1.0}\n": "    buffers = _BUFFERS\n    buffers[first] = buffers.get(first, 0.0) + 1.0\n",
    "        grad = buffers.pop(node)\n": "        grad = buffers[node]\n",
    "def backward(root: Value, retain_graph: bool = False) -> None:\n":
    "_BUFFERS: dict = {}\n\n\ndef backward(root: Value, retain_graph: bool = False) -> None:\n",
}
"""ex17's backward with its buffers of gradients kept in a module-level dict, never popped: a later backward
through a node an earlier one ran (a leaf's AccumulateGrad) hands it what that one sent too."""
SENT_KEPT = "had the nodes' apply calls return other gradients than the first"  # ex19's gate tells it so

RETAIN_ON_A_LEAF_NODE = {  # edits of a build-track solution from ex19 on (its retain_grad)
    "        if self.grad_fn is not None:\n            self.grad_fn.retained = self\n            self.retains_grad = True\n":
    "        node, _ = gradient_edge(self)\n        node.retained = self\n        self.retains_grad = True\n",
}
"""An ex18 retain_grad that tells a leaf's AccumulateGrad to keep the leaf's gradient too: from
ex19 on (store_grad adds) backward stores that gradient twice."""
RETAINED_LEAF_DOUBLED = "w.grad after w.retain_grad(); (w * x + w).backward() is a different number"


def names_of(exercise_id: str, case: Wrong) -> tuple[str, ...]:
    """The words the feedback on ``case`` must use: its ``names``, or its file's ``# names:``
    line (comma-separated)."""
    if case.names or case.edits:
        return case.names
    found = NAMES.search((GALLERY / exercise_id / f"{case.name}.py").read_text(encoding="utf-8"))
    return tuple(word.strip() for word in found.group(1).split(",")) if found else ()


@dataclass(frozen=True)
class Correct:
    """A correct answer written differently from the reference: full marks."""

    name: str
    edits: dict[str, str] = field(default_factory=dict)


Case = Wrong | Correct


def load_cases() -> list[tuple[str, Case]]:
    """Every (exercise id, case) of every ``gallery/exNN/cases.py``, in order."""
    found = []
    for table in sorted(GALLERY.glob("ex*/cases.py")):
        spec = importlib.util.spec_from_file_location(f"gallery_{table.parent.name}", table)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        found += [(table.parent.name, case) for case in module.CASES]
    return found


def write_case(exercise_id: str, case: Case, solution: Path, folder: Path) -> Path:
    """The case's submission: its gallery file, or the solution with its edits made."""
    if not case.edits:
        return GALLERY / exercise_id / f"{case.name}.py"
    source = solution.read_text(encoding="utf-8")
    for old, new in case.edits.items():
        assert source.count(old) == 1, f"{case.name}: {old!r} is not once in {solution.name}"
        source = source.replace(old, new)
    path = folder / solution.name
    path.write_text(source, encoding="utf-8")
    return path
