"""``exit()`` and ``quit()`` where the submission runs, as Python's ``site`` gives them.

The child runs without ``site`` (``python -S``), which is what puts ``exit`` and ``quit`` among
the builtins: a script's habit, ``exit()`` at the end of the file or in a function, raised
``NameError: name 'exit' is not defined``, an error the student's own Python never gives.  With
these, it raises ``SystemExit`` as it does there, and is told as an exit (``exiting ends the
import``).  Unlike ``site``'s, calling one leaves ``sys.stdin`` open: the child may still read
its request there.
"""

from __future__ import annotations

import builtins
from typing import NoReturn


class Quitter:
    """``exit`` or ``quit``: raises ``SystemExit(code)`` when called, as ``site``'s does."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"Use {self.name}() or Ctrl-D (i.e. EOF) to exit"

    def __call__(self, code: object = None) -> NoReturn:
        raise SystemExit(code)


def install() -> None:
    """Put ``exit`` and ``quit`` among the builtins where ``site`` did not (once, before any
    submission or test module is loaded, and before the builtins are sealed)."""
    for name in ("exit", "quit"):
        if not hasattr(builtins, name):
            setattr(builtins, name, Quitter(name))
