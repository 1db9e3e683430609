"""Submissions that return an error the engine did not raise for the mistake asked about, with
the engine's words: each exercise whose tests check an error the engine raises, one case each.

For each exercise, ``HONEST_WRONG`` is its solution with the line that makes the engine raise
replaced by ``raise RuntimeError(<the engine's message, copied>)``: the right text, made by
hand. Each forgery replaces the same line by a real engine error of *another* mistake
(``Value(1.0).backward()`` and the like: its traceback ends in the engine) whose message it
then rewrites to the copied text, in one of the ways an exception lets its message be
rewritten. Whatever the way, a forgery must score no more than ``HONEST_WRONG`` beside it.
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


def students() -> dict[str, dict[str, str]]:
    """Every student's files: the right answers, the honest wrong ones, each forgery."""
    entries = {"honest_right": {r.file: (SOLUTIONS / r.file).read_text() for r in RAISING},
               "honest_wrong": {r.file: honest_wrong(r) for r in RAISING}}
    for rewrite in REWRITES:
        entries[rewrite] = {r.file: forged(r, rewrite) for r in RAISING}
    return entries
