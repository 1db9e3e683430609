"""A line an observation names (a fact's ``~line``: where importing the file switched grad mode
off or set a warnings filter, where a function changed the filters) as feedback names a line of
the graded file: "line 24", or in a notebook "cell 5 (In [3]), line 1".  A notebook is graded as
its code cells made into one module, whose line 24 the student never saw; a label naming that
module's import ("importing ex15_train.py", a file the student never handed in) names the
notebook's cells instead."""

from __future__ import annotations

import re
from typing import Any

from grader.judge.explain import LineNames, line_named
from grader.spec.facts import CONTEXT

_LINE = CONTEXT + "line"  # a line of the graded file, as the probe wrote it (``import_mode._at``)
_IMPORTING = re.compile(r"importing (?P<module>\w+)\.py")  # ``import_mode.imported``'s label


def lines_named(observed: Any, names: LineNames | None) -> Any:
    """``observed`` (a test's observations, plain JSON) with each fact's ``~line`` named as feedback
    names a line (``names``: a notebook's cells, None for a file), and, in a notebook, a label of
    the converted module's import naming the notebook's cells."""
    if type(observed) is list:
        return [lines_named(entry, names) for entry in observed]
    if type(observed) is not dict:
        return observed
    named = {key: lines_named(value, names) for key, value in observed.items()}
    line = named.get(_LINE)
    if type(line) is str and line.isdigit():
        named[_LINE] = line_named(int(line), names)
    label = named.get("label")
    importing = _IMPORTING.fullmatch(label) if names is not None and type(label) is str else None
    if importing is not None:
        named["label"] = f"running the cells of {importing['module']}.ipynb"
    return named
