"""The sentence about an engine error the student's code caught and went on from, in a watched call
where the statement's code catches none (``grader.spec.caught``: which engine function raised, and
which of the student's functions caught it).  What follows from it (a .grad the failed pass never
wrote, rows read after it that repeat the last pass that did) is told by the other sentences; this
one says why.  The rules of ``grader.judge.sentences`` hold: placeholders carry only what the
student's run shows.
"""

from __future__ import annotations

from typing import Any

from micrograph.i18n import N_

from grader.judge.explained import Difference, clean
from grader.judge.explained import difference as _diff
from grader.judge.sentences import Sentence
from grader.spec.facts import CONTEXT


class SayCaught(Sentence):
    """An engine error caught by the student's code, which went on."""

    CAUGHT = N_("{label} caught an error that the engine's {name}() raised when your code called it, and went on: "
                "that call of {name}() stopped at its error, without finishing its work.")
    CAUGHT_IN = N_("{function}, which ran during {label}, caught an error that the engine's {name}() raised when "
                   "your code called it, and went on: that call of {name}() stopped at its error, without "
                   "finishing its work.")
    CAUGHT_READ = N_("{label} caught an error that reading {name} (an attribute of the engine's) raised, and went "
                     "on: that read gave your code nothing.")
    CAUGHT_READ_IN = N_("{function}, which ran during {label}, caught an error that reading {name} (an attribute of "
                        "the engine's) raised, and went on: that read gave your code nothing.")


def caught_differences(want: dict[str, Any], got: dict[str, Any], label: str) -> list[Difference]:
    """The sentence of a CALL fact whose code caught an engine error (context ``~caught``: the
    engine function and the student's function), where the statement's caught none."""
    caught = got.get(CONTEXT + "caught")
    if CONTEXT + "caught" in want or type(caught) is not list or len(caught) != 2:
        return []
    name, function = (clean(part) if type(part) is str else "?" for part in caught)
    read = name.startswith(".")  # an attribute the code read (a property's getter raised), not a function it called
    if function == label:
        return [_diff(SayCaught.CAUGHT_READ if read else SayCaught.CAUGHT, label=label, name=name)]
    return [_diff(SayCaught.CAUGHT_READ_IN if read else SayCaught.CAUGHT_IN, label=label, name=name, function=function)]
