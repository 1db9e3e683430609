"""Where a notebook cell's logical lines start, which is where IPython reads its own syntax.

IPython takes ``%magic``, ``!shell`` and ``x?`` only at the start of a logical line: a physical
line that continues a statement (inside brackets, a string, or after a backslash) is Python,
whatever it starts with, such as ``% (step, g))`` closing a %-format broken before its operator,
``!= other)`` or a docstring's line ``!!! note``.  Why ``tokenize``: it is the standard library's
own reading of where a logical line ends, strings and brackets included, so the grader cannot
disagree with Python about it.

A line magic that only times its statement (``%time x = f()``, ``%timeit f()``, ``%prun f()``)
becomes that statement, so that what it assigns exists in the cells below, as it did in the
notebook; its statement runs once, untimed, as the body of a ``%%time`` cell does.  A magic or a
shell line on the right of an assignment (``t = %timeit -o f()``, ``files = !ls``), which IPython
reads after a line's first ``=`` outside brackets, still binds its name, so that the cells below
that use it run: to what ``%time`` of an expression gives (that expression), an empty list for a
shell's output (no shell runs), None for any other magic (what ``%timeit`` gives without ``-o``).
"""

from __future__ import annotations

import ast
import re
import tokenize
from itertools import chain
from typing import Callable

from grader.i18n import _

# The line magics whose argument is a Python statement, with their options that take a value
# (IPython's option strings: timeit "n:r:tcp:qo", prun "D:l:rs:T:q"; time has none).
TIMING_MAGICS = {"time": None, "timeit": "nrp", "prun": "DlsT"}
RESULT_OPTIONS = {"timeit": "o", "prun": "r"}  # the option with which the magic gives a result object
TIMEIT_ONCE = "_timeit_once"
TIMEIT_STAND_IN = (
    "def {name}(run, clock=__import__('time').perf_counter): start = clock(); run(); took = clock() - start; "
    "return type('TimeitResult', (), {{'loops': 1, 'repeat': 1, 'best': took, 'worst': took, 'average': took, "
    "'stdev': 0.0, 'all_runs': [took], 'timings': [took], 'compile_time': 0.0, '__repr__': "
    "lambda self: '%.3g s per loop (1 run, 1 loop: its statement ran once when graded)' % took}})()")
"""What ``%timeit -o`` of an expression gives when graded, bound to ``TIMEIT_ONCE``: the
attributes of IPython's ``TimeitResult`` (``t.average``, ``t.best``, ``t.all_runs``), of one
run of the expression, timed, so that a cell that reads them runs, with true numbers."""
_RUN = re.compile(r"^[ \t]*%run[ \t]+(?:-\S+[ \t]+)*(\S+)")  # the file a %run line runs
_LINE_MAGIC = re.compile(r"^(\s*)%(\w+)(?:[ \t]+(.*))?$")
_OPTION = re.compile(r"^-(\w)(\S*)\s*")
_WORD = re.compile(r"^\S+\s*")
_OPENING, _CLOSING = "([{", ")]}"


def _statement(name: str, rest: str) -> tuple[set[str], str]:
    """The options given to timing magic ``name`` and its statement (``pass`` when none)."""
    valued, rest, flags = TIMING_MAGICS[name], rest.strip(), set()
    while valued is not None and (option := _OPTION.match(rest)):
        rest = rest[option.end():]
        flags.add(option.group(1))
        if option.group(1) in valued and not option.group(2) and (word := _WORD.match(rest)):
            rest = rest[word.end():]
    return flags, rest or "pass"


def timed_statement(line: str) -> tuple[str, str] | None:
    """(magic name, the line as its statement at the same indentation) for a timing line magic
    (``%timeit -n 3 f()`` gives ``("timeit", "f()")``); None for any other line."""
    found = _LINE_MAGIC.match(line)
    if found is None or found.group(2) not in TIMING_MAGICS:
        return None
    return found.group(2), found.group(1) + _statement(found.group(2), found.group(3) or "")[1]


def _assigned(line: str) -> tuple[str, str] | None:
    """(the line up to the right of its first ``=`` outside brackets, what follows it) where
    that is a magic or a shell line, as IPython finds an assignment from one; None otherwise."""
    start = len(line) - len(line.lstrip())
    source, depth = iter([line[start:] + "\n"]), 0
    try:
        for token in tokenize.generate_tokens(lambda: next(source, "")):
            if token.type == tokenize.OP and token.string in _OPENING + _CLOSING:
                depth = depth + 1 if token.string in _OPENING else max(depth - 1, 0)
            elif token.type == tokenize.OP and token.string == "=" and depth == 0:
                rest = line[start + token.end[1]:].lstrip()
                return (line[:start + token.end[1]] + " ", rest) if re.match(r"!|%\w", rest) else None
            elif token.type in (tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER):
                return None
    except (tokenize.TokenError, SyntaxError, ValueError):
        return None
    return None


def _parses(source: str, mode: str = "exec") -> bool:
    """Whether ``source`` is Python on its own (a statement that does not continue below)."""
    try:
        ast.parse(source, mode=mode)
    except (SyntaxError, ValueError):
        return False
    return True


def assigned_magic(line: str) -> tuple[str, list[str]] | None:
    """(the line as Python, the kinds of what it leaves out, for the notes) for an assignment
    from a magic or a shell line (``x = %timeit -o f()``); None for any other line.  A timing
    magic's statement runs once, untimed, on the line, before or as what is assigned; the
    expression of ``%timeit -o`` runs once, timed (``TIMEIT_STAND_IN``)."""
    found = _assigned(line)
    if found is None:
        return None
    target, rest = found
    if rest.startswith("!"):
        return target + "[]", [_("what a shell line (!) gives (an empty list when graded)")]
    magic = _LINE_MAGIC.match(rest)
    name, arguments = (magic.group(2), magic.group(3) or "") if magic else (re.match(r"%(\w+)", rest)[1], "")
    if magic is None or name not in TIMING_MAGICS:
        return target + "None", [_("magics (%)"), _("what %{name} gives (None when graded)", name=name)]
    flags, statement = _statement(name, arguments)
    ran = [_("%{name} (its statement runs once, untimed)", name=name)]
    lost = [_("what %{name} gives (None when graded)", name=f"{name} -{RESULT_OPTIONS[name]}")
            ] if RESULT_OPTIONS.get(name, "") in flags else []
    if name == "time" and _parses(statement, "eval"):  # %time gives its expression's value
        return target + statement, ran
    if name == "timeit" and lost and _parses(statement, "eval"):
        timed = ast.unparse(ast.parse(statement, mode="eval").body)  # without its comment, inside a lambda
        return f"{target}{TIMEIT_ONCE}(lambda: ({timed}))", [_(
            "%timeit -o (its statement runs once, timed: what it gives holds that one run)")]
    indent = target[:len(target) - len(target.lstrip())]
    both = f"{indent}{target.strip()} None; {statement}"
    if _parses(both.strip()):
        return both, ran + lost
    return target + "None", [_("magics (%)")] + lost  # a compound statement cannot follow on its line


_SPELLED = {"run_line_magic": "%", "magic": "%", "system": "!", "getoutput": "!"}  # get_ipython()'s, as IPython's
_SPELLING = {"run_line_magic": 2, "magic": 1, "system": 1, "getoutput": 1}  # how many strings each is given


def _get_ipython(node: ast.AST) -> bool:
    """Whether ``node`` is the call ``get_ipython()``."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "get_ipython"
            and not node.args and not node.keywords)


def ipython_spelled(lines: list[str]) -> str | None:
    """The IPython line that the logical line ``lines`` spells as a call of ``get_ipython()`` with
    its text written out, as Jupyter's "Download as .py" and some cells write a magic or a shell
    line: ``get_ipython().run_line_magic('timeit', 'f()')`` is ``%timeit f()``, ``files =
    get_ipython().getoutput('ls')`` is ``files = !ls``; None for any other line.  Read so, the
    call is graded as the line it stands for is (its name is a magic's, not an attribute's)."""
    if "get_ipython" not in lines[0]:
        return None
    try:
        body = ast.parse("\n".join([lines[0].lstrip()] + lines[1:])).body
    except (SyntaxError, ValueError):
        return None
    statement = body[0] if len(body) == 1 else None
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = ast.unparse(statement.targets[0]) + " = "
    elif isinstance(statement, ast.Expr):
        target = ""
    else:
        return None
    call = statement.value
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in _SPELLED
            and _get_ipython(call.func.value) and not call.keywords
            and len(call.args) == _SPELLING[call.func.attr]
            and all(isinstance(a, ast.Constant) and type(a.value) is str for a in call.args)):
        return None
    texts = [a.value for a in call.args]
    spelled = _SPELLED[call.func.attr] + " ".join(texts).lstrip("%").rstrip()
    if "\n" in spelled or "\r" in spelled or not spelled[1:]:
        return None
    return lines[0][:len(lines[0]) - len(lines[0].lstrip())] + target + spelled


def cell_magic_spelled(line: str) -> str | None:
    """The name of the cell magic a line runs as a call of ``get_ipython()``
    (``get_ipython().run_cell_magic('time', '', 'f()\\n')``, as "Download as .py" writes a ``%%time``
    cell), None for any other line: no line of the graded file can be that cell, whose code is one
    string, so the call is left to fail, and the notes name the magic it runs."""
    if "run_cell_magic" not in line:
        return None
    try:
        body = ast.parse(line.strip()).body
    except (SyntaxError, ValueError):
        return None
    value = body[0].value if len(body) == 1 and isinstance(body[0], (ast.Expr, ast.Assign)) else None
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
            and value.func.attr == "run_cell_magic" and _get_ipython(value.func.value) and value.args
            and isinstance(value.args[0], ast.Constant) and type(value.args[0].value) is str):
        return None
    return value.args[0].value.lstrip("%") or None


def run_lines(text: str) -> list[tuple[int, str]]:
    """The ``%run`` lines of a cell's ``text``: (the line's index in the cell, the file it runs), written
    out or spelled as a call of ``get_ipython()`` (``get_ipython().run_line_magic('run', 'helpers.py')``,
    as "Download as .py" writes it), which is graded as the line it spells."""
    found = []
    for offset, line in enumerate(text.splitlines()):
        spelled = ipython_spelled([line]) if "get_ipython" in line else None
        matched = _RUN.match(line if spelled is None else spelled)
        if matched is not None:
            found.append((offset, matched.group(1)))
    return found


def _length(lines: list[str], start: int) -> int:
    """How many physical lines the logical line starting at ``lines[start]`` spans: up to the
    line its statement ends on, all the lines left when a bracket or string is never closed."""
    # lazily: the lines after the statement are never copied, which made a long cell quadratic
    source = chain([lines[start].lstrip() + "\n"], (lines[i] + "\n" for i in range(start + 1, len(lines))))
    depth = 0
    try:
        for token in tokenize.generate_tokens(lambda: next(source, "")):
            if token.type == tokenize.OP and token.string in _OPENING:
                depth += 1
            elif token.type == tokenize.OP and token.string in _CLOSING:
                depth = max(depth - 1, 0)
            elif token.type == tokenize.NEWLINE or token.type == tokenize.NL and depth == 0:
                return token.start[0]
            elif token.type == tokenize.ENDMARKER:
                break
    except tokenize.TokenError:  # EOF inside a bracket or a string: Python will say where
        pass
    except (SyntaxError, ValueError):  # not Python the tokenizer reads: the line alone
        return 1
    return len(lines) - start


def by_logical_line(lines: list[str], rewrite: Callable[[list[str]], list[str] | None]) -> list[str]:
    """``lines`` with ``rewrite`` applied to each logical line (it is given the logical line's
    physical lines, and returns as many lines to put in their place, or None to keep them).  A
    replacement's first line is read as the logical line's start in its place (``%time f(a,``
    continues on the next line as ``f(a,`` does)."""
    out = list(lines)
    index = 0
    while index < len(out):
        length = max(_length(out, index), 1)
        replaced = rewrite(out[index:index + length])
        if replaced is not None and len(replaced) == length:
            out[index:index + length] = replaced
            length = max(_length(out, index), 1)
        index += length
    return out
