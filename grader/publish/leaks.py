"""Which lines of a solution may not reach students, and whether a stub already holds some.

A stub and its solution legitimately share a *skeleton*: the module docstring, imports,
signatures and docstrings, and the functions the stub gives whole (``build_graph``: the same
body in both).  Everything else a solution has is its answer.  The stub is not trusted to say
what is shared: an instructor who tried an exercise in the course folder, or copied a solution
there, has a stub that shares everything.  So the skeleton is computed from the syntax of both
files: a function belongs to it only when its body is the same in the stub and the solution;
the lines of every other function body in the stub are the student's to write, and any of them
that is a line of the solution is a copied answer.

A file whose every function is the solution's is no stub at all (a copied solution): nothing
of it counts as given.  (One function filled in exactly as the solution has it, beside others
still to write, looks given here; grading the stub, which then scores points, catches that.)
"""

from __future__ import annotations

import ast

MIN_COPIED = 8  # shorter lines ("pass", "else:", "return x") say nothing about the answer


def _docstring_free(body: list[ast.stmt]) -> list[ast.stmt]:
    first = body[0] if body else None
    if (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)):
        return body[1:]
    return body


def _body_rows(source: str) -> dict[str, list[int]]:
    """Qualified function name -> the indices of its body's code lines (no docstring, no
    comments, no blank lines); a nested function's lines count in its parent too."""
    lines = source.splitlines()
    bodies: dict[str, list[int]] = {}
    todo: list[tuple[ast.AST, str]] = [(ast.parse(source), "")]
    while todo:
        node, prefix = todo.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + child.name
                rows = [row for stmt in _docstring_free(child.body)
                        for row in range(stmt.lineno - 1, stmt.end_lineno or stmt.lineno)]
                bodies[name] = [r for r in rows
                                if lines[r].strip() and not lines[r].strip().startswith("#")]
                todo.append((child, name + "."))
            elif isinstance(child, ast.ClassDef):
                todo.append((child, prefix + child.name + "."))
    return bodies


def _split(stub: str, solution: str) -> tuple[set[str], set[str]]:
    """(the stub's skeleton lines, the lines of the bodies the student writes), stripped."""
    stub_lines, solution_lines = stub.splitlines(), solution.splitlines()
    stub_rows, solution_rows = _body_rows(stub), _body_rows(solution)

    def text(lines: list[str], rows: list[int]) -> list[str]:
        return [lines[r].strip() for r in rows]

    to_write_rows = {r for name, rows in stub_rows.items()
                     if text(stub_lines, rows) != text(solution_lines, solution_rows.get(name, []))
                     for r in rows}
    if not to_write_rows:  # a "stub" with nothing left to write is its solution: nothing is given
        to_write_rows = {r for rows in stub_rows.values() for r in rows}
    skeleton = {line.strip() for r, line in enumerate(stub_lines) if r not in to_write_rows}
    return skeleton, {stub_lines[r].strip() for r in to_write_rows}


def skeleton(stub: str, solution: str) -> set[str]:
    """The stub's stripped lines that legitimately ship: all but the bodies to write."""
    return _split(stub, solution)[0]


def solution_only(solution: str, stub: str) -> list[str]:
    """The solution's stripped lines that its stub's skeleton does not have (its answer)."""
    skeleton, _ = _split(stub, solution)
    lines = (line.strip() for line in solution.splitlines())
    return [line for line in dict.fromkeys(lines)
            if line and not line.startswith("#") and line not in skeleton]


def copied_lines(stub: str, solution: str, elsewhere: list[str]) -> list[str]:
    """Lines of the stub's bodies to write that only the solution has (not the engine, the
    grader or the public tests, passed as ``elsewhere``)."""
    _, to_write = _split(stub, solution)
    answer = set(solution_only(solution, stub))
    return [line for line in sorted(to_write & answer)
            if len(line) >= MIN_COPIED and not any(line in text for text in elsewhere)]
