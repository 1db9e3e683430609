"""Submissions that pass off where an error or a Value came from: the engine's error of
another mistake with its message rewritten, and a Python formula passed through one engine
operation. One case per exercise whose tests check it.

Errors: for each exercise whose tests check an error the engine raises, ``honest_wrong`` is its
solution with the line that makes the engine raise replaced by ``raise RuntimeError(<the
engine's message, copied>)``: the right text, made by hand. Each forgery replaces the same line
by a real engine error of *another* mistake (``Value(1.0).backward()`` and the like: its
traceback ends in the engine) whose message it then rewrites to the copied text, in one of the
ways an exception lets its message be rewritten.

Values: for each exercise whose tests check that a Value was computed by the engine's
operations, ``honest_wrong`` computes it as ``Value(<a Python formula>)`` and the forgery as
``Value(<the same formula>) * 1``: an operation, but on a number computed in Python, or as
``w * 0 + Value(<the same formula>)``: operations that reach a Value given, but compute nothing
from it.

Warnings: ex03 counts the warnings reading a, b and y raises. ``honest_wrong_warning`` returns
None for them without reading; each forgery does the same and raises (or shows) the engine's
text three times by hand.

Whatever the way, a forgery must score no more than the honest wrong answer beside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions"

LEAF_IN_PLACE = "a leaf Variable that requires grad is being used in an in-place operation."
NO_GRAD_FN = "element 0 of tensors does not require grad and does not have a grad_fn"


@dataclass(frozen=True)
class Raising:
    """One exercise's line that makes the engine raise, in its solution, and the message."""

    exercise: str
    file: str  # the solution's (and the submission's) file name
    line: str  # the solution's statement the engine raises in (indented as in the file)
    message: str  # the engine's message for it
    other: str  # a statement making the engine raise for another mistake

    def replaced(self, statement: str) -> str:
        source = (SOLUTIONS / self.file).read_text()
        assert source.count(self.line) == 1, (self.file, self.line)
        indent = self.line[:len(self.line) - len(self.line.lstrip())]
        return source.replace(self.line, "\n".join(indent + part for part in statement.split("\n")))


RAISING = (
    Raising("ex07", "ex07_inplace.py", "        w.add_(amount)  # refused: a leaf that requires grad, with grad mode on",
            LEAF_IN_PLACE, "Value(1.0).backward()"),
    Raising("ex08", "ex08_detach.py", "        z.backward()", NO_GRAD_FN,
            "Value(1.0, requires_grad=True).add_(1)"),
    Raising("ex09", "ex09_no_grad.py",
            "        w -= lr * w.grad  # an in-place change of a leaf that requires grad: refused",
            LEAF_IN_PLACE, "Value(1.0).backward()"),
)

# how each forgery rewrites the message of ``e``, a real engine error of another mistake
REWRITES = {
    "args_assigned": "e.args = ({message!r},)",
    "init_called_again": "e.__init__({message!r})",
    "base_init": "RuntimeError.__init__(e, {message!r})",
}


def honest_wrong(raising: Raising) -> str:
    return raising.replaced(f"raise RuntimeError({raising.message!r})")


def forged(raising: Raising, rewrite: str) -> str:
    """The solution with the raising line replaced by another engine error, rewritten."""
    statement = REWRITES[rewrite].format(message=raising.message)
    return raising.replaced(f"try:\n    {raising.other}\nexcept RuntimeError as e:\n"
                            f"    {statement}\n    raise e")


@dataclass(frozen=True)
class Computing:
    """One exercise's line that computes a Value with the engine's operations, in its solution,
    and the same Value as a Python formula of the inputs' numbers."""

    exercise: str
    file: str
    line: str
    formula: str  # the replacement's right-hand side: a float expression
    target: str  # the name the line assigns
    given: str  # a Value given, in scope at the line

    def replaced(self, expression: str) -> str:
        source = (SOLUTIONS / self.file).read_text()
        assert source.count(self.line) == 1, (self.file, self.line)
        indent = self.line[:len(self.line) - len(self.line.lstrip())]
        return source.replace(self.line, f"{indent}{self.target} = {expression}")


COMPUTING = (
    Computing("ex07", "ex07_inplace.py", "    a = a + 1  # a new Value; the name a moves to it, a0 is untouched",
              "a.item() + 1", "a", "a"),
    Computing("ex09", "ex09_no_grad.py", "        y = _graph(w, x)  # computed, not recorded: y is a plain leaf",
              "(x.item() + w.item()) * (w.item() + 1)", "y", "w"),
)

WARNING_FILE = "ex03_retain_grad.py"
_READ_ALL = '    return {name: node.grad for name, node in g.items()}\n'
_UNREAD = '    answer = {"w": g["w"].grad, "x": g["x"].grad, "a": None, "b": None, "y": None}\n'
_ENGINE_TEXT = ("The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
                "attribute won't be populated during autograd.backward().")
# how each forgery makes the three warnings reading a, b and y would have raised, without reading
WARNINGS = {
    "warnings_raised_by_hand": f"    for _ in range(3):\n        warnings.warn({_ENGINE_TEXT!r}, UserWarning)\n",
    "warnings_shown_by_hand": (f"    for _ in range(3):\n        warnings.showwarning({_ENGINE_TEXT!r}, UserWarning, "
                               "__file__, 1)\n"),
}


def _unread(extra: str) -> str:
    """ex03's solution whose grads_after_backward returns None for a, b and y, read or not."""
    source = (SOLUTIONS / WARNING_FILE).read_text()
    assert source.count(_READ_ALL) == 1
    return source.replace(_READ_ALL, _UNREAD + extra + "    return answer\n")


EXERCISES = tuple(dict.fromkeys([r.exercise for r in RAISING] + [c.exercise for c in COMPUTING] + ["ex03"]))


def students() -> dict[str, dict[str, str]]:
    """Every student's files: the right answers, the honest wrong ones, each forgery. An
    exercise with both an error and a Value to forge gets one forgery per student."""
    files = dict.fromkeys([*(r.file for r in RAISING), *(c.file for c in COMPUTING), WARNING_FILE])
    right = {f: (SOLUTIONS / f).read_text() for f in files}
    entries = {"honest_right": right,
               "honest_wrong": {**right, **{r.file: honest_wrong(r) for r in RAISING}},
               "honest_wrong_value": {**right, **{c.file: c.replaced(f"Value({c.formula})") for c in COMPUTING}},
               "formula_through_an_op": {**right, **{c.file: c.replaced(f"Value({c.formula}) * 1") for c in COMPUTING}},
               "formula_added_to_a_given_value": {
                   **right, **{c.file: c.replaced(f"{c.given} * 0 + Value({c.formula})") for c in COMPUTING}}}
    for rewrite in REWRITES:
        entries[rewrite] = {**right, **{r.file: forged(r, rewrite) for r in RAISING}}
    entries["honest_wrong_warning"] = {WARNING_FILE: _unread("")}
    for name, statement in WARNINGS.items():
        entries[name] = {WARNING_FILE: _unread(statement)}
    return entries
