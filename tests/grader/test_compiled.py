"""The test module goes to the child compiled (``wire.compiled``): a child whose interpreter
reads that bytecode runs it as sent, any other compiles the source, with the same result."""

from __future__ import annotations

import base64
import marshal

from grader.sandbox.child import wire

SOURCE = "def f(x: Later) -> int:\n    return x + 1\n\nANSWER = f(41)\n"  # Later: never defined


def _run(code) -> dict:
    space: dict = {}
    exec(code, space)
    return space


def test_the_childs_code_is_the_graders_compilation() -> None:
    sent = wire.compiled("grader.exercises.ex99", SOURCE)
    code = wire.loaded("grader.exercises.ex99", SOURCE, sent)
    assert code.co_filename == "<tests grader.exercises.ex99>"
    assert code == marshal.loads(base64.b64decode(sent["marshal"]))
    assert _run(code)["ANSWER"] == 42  # annotations stay unevaluated, as the child compiled them


def test_another_interpreter_or_another_module_compiles_the_source() -> None:
    sent = wire.compiled("grader.exercises.ex99", SOURCE)
    other_python = {"magic": "00000000", "marshal": sent["marshal"]}
    for code in (wire.loaded("grader.exercises.ex99", SOURCE, other_python),
                 wire.loaded("grader.exercises.ex98", SOURCE, sent)):
        assert _run(code)["ANSWER"] == 42
    assert wire.loaded("grader.exercises.ex98", SOURCE, sent).co_filename == "<tests grader.exercises.ex98>"
