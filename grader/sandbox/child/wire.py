"""The contract between the grader and the sandboxed child: the request, the records, the error
kinds; and the channel back: JSON lines, parsed strictly.

The parent sends one ``Request`` on the child's stdin.  The child writes one JSON object per line
to a pipe the grader created (not stdout); where the child can fork, only its relay holds that
pipe, never the process that runs the submission (``grader.sandbox.child.relay``).  Everything that arrives is untrusted: the parent
parses it with ``json.loads`` (which only ever builds dict/list/str/int/float/bool/None: nothing
is unpickled or evaluated), then checks its shape and sizes here.  A record that breaks the rules
is dropped and counted, never half-trusted.  The ``TypedDict``s below are the records' shapes
(exact keys; anything else is malformed); ``decode`` is what makes a parsed line deserve one.
"""

from __future__ import annotations

import base64
import enum
import functools
import importlib.util
import json
import marshal
import types
from typing import Any, Final, Literal, TypedDict, Union

MAX_CHANNEL_BYTES = 16 << 20  # all records of one child together
MAX_DEPTH = 40
MAX_STRING = 100_000
MAX_NAME = 200  # a test name, an exception type, a function name, a layer
MAX_LAYERS = 16

# ``ErrorRecord.type`` is the name of the exception the submission raised ("ZeroDivisionError"),
# or one of these, which the child reports for its own reasons:
PROBE_TIMEOUT: Final = "ProbeTimeout"  # a test's probe overran its share of the time limit
DIAGRAM_TIMEOUT: Final = "DiagramTimeout"  # the diagram probe overran its share
IMPORT_TIMEOUT: Final = "ImportTimeout"  # importing the submission overran its share
PROBE_ERROR: Final = "ProbeError"  # the probe (not the submission) failed: it returned non-JSON
NOT_DRAWN: Final = "NotDrawn"  # what the diagram probe was to draw holds no Value (message: its type)
TIMEOUTS: Final = frozenset({PROBE_TIMEOUT, DIAGRAM_TIMEOUT})  # a probe's: the import's is told apart


class Touch(str, enum.Enum):
    """What of grading's internals a submission reached for (``grader.sandbox.reach`` finds it
    in the source, ``grader.sandbox.child.sentinel`` when it runs); the value names it for the
    instructor."""

    FRAMES = "stack frames"  # where the probes' locals and the test module's helpers live
    HOOKS = "profile or trace hooks"  # how a watched call samples grad mode and what it returns
    SYS = "a name of the sys module"  # sys.path = ...: sys holds what grading calls, compared name by name
    SIGNALS = "signal handlers"  # a handler is called with the frame it interrupted: the probes' below it
    OBSERVER = "the engine's code or its observation records"  # a change of its modules or classes; who wrote .grad, passes counted
    CODE = "code objects, globals or closures"  # code under another file's name, others' globals
    MEMORY = "memory or the garbage collector"  # ctypes, gc: every object of the process
    MODULES = "modules loaded or handed on without an import statement"  # sys.modules, a loader: the real builtins
    DYNAMIC = "attributes by a computed name"  # getattr(x, name), __dict__, eval: any of the above
    WIRE = "the grader's pipes"  # file descriptors the probes' answers leave by
    TESTS = "the test module or the grader's modules"
    ENGINE = "the course's engine, in a stage that builds one"  # micrograph: the answer itself
    MACHINE = "the machine outside the sandbox"  # shared files' locks, other processes, files outside


TOUCHES: Final = {t.value: t for t in Touch}


class Compiled(TypedDict):
    """A test module's code as the grader compiled it: ``marshal`` bytes (base64) and the
    bytecode's magic number, which says which interpreters can load them."""

    magic: str
    marshal: str


TESTS_FILE_PREFIX: Final = "<tests "


def tests_file(name: str) -> str:
    """The file name a test module's code is compiled under (no file: its source comes on stdin)."""
    return f"{TESTS_FILE_PREFIX}{name}>"


def compile_tests(name: str, source: str) -> types.CodeType:
    """The test module's code, compiled the one way the parent and the child both compile it
    (with this module's ``annotations`` future, as the child always compiled it)."""
    return compile(source, tests_file(name), "exec")


@functools.lru_cache(maxsize=64)
def compiled(name: str, source: str) -> Compiled:
    """The test module compiled once per grader process: each child would otherwise compile it
    again (5-10 ms a module, more than most exercises' probes), a class's children thousands of
    times; the child loads it with ``loaded`` where its interpreter reads this bytecode."""
    code = marshal.dumps(compile_tests(name, source))
    return {"magic": importlib.util.MAGIC_NUMBER.hex(), "marshal": base64.b64encode(code).decode("ascii")}


def loaded(name: str, source: str, code: Compiled) -> types.CodeType:
    """The test module's code in the child: the grader's compilation when this interpreter reads
    its bytecode (the same magic number), else compiled here from the source."""
    if code["magic"] == importlib.util.MAGIC_NUMBER.hex():
        found = marshal.loads(base64.b64decode(code["marshal"]))
        if isinstance(found, types.CodeType) and found.co_filename == tests_file(name):
            return found
    return compile_tests(name, source)


class Request(TypedDict):
    """What the child is asked to do (parent -> child, on stdin)."""

    fd: int  # the pipe the records go to; -1: none (Windows), they go to stdout, prints to stderr
    isolation: dict[str, Any]  # ``grader.sandbox.child.isolate.Plan``, as plain data
    submission: str  # the copy of the submission in the scratch folder
    tests_module: str  # the test module's name and source
    tests_source: str
    tests_code: Compiled  # the same source compiled by the grader (``compiled``)
    tests: list[str]  # the tests to run, in order
    diagram: bool  # run the diagram probe first
    limits: dict[str, Any]  # ``grader.spec.limits.Limits.to_json()``


class ErrorRecord(TypedDict):
    type: str
    message: str
    function: str | None  # where in the submission's file, when it was there
    caller: str | None  # the submission's function that called ``function``, when one did
    line: int | None
    step: str | None  # the test's line of code that called into the submission, when one did
    fresh: bool  # the test, run again on fresh imports of the submission, raised nothing (``child.again``)


class ConfinedRecord(TypedDict):
    kind: Literal["confined"]
    layers: list[str]  # the isolation and confinement layers applied ("seccomp", ...)


class RefusedRecord(TypedDict):
    """The child could not isolate itself as the grader announced: it ran nothing."""

    kind: Literal["refused"]
    reason: str


class ImportRecord(TypedDict):
    kind: Literal["import"]
    error: ErrorRecord | None


class DiagramRecord(TypedDict):
    kind: Literal["diagram"]
    graph: dict[str, Any] | None  # ``micrograph.viz.graph_json`` of what the probe drew
    trace: dict[str, Any] | None  # the first backward pass the probe ran (``viz.first_backward``)
    error: ErrorRecord | None


class ProbeRecord(TypedDict):
    """One test's probe: what it observed, or why it observed nothing."""

    kind: Literal["test"]
    name: str
    obs: Any  # plain JSON: the probe's observations
    error: ErrorRecord | None


class DoneRecord(TypedDict):
    kind: Literal["done"]


class TamperedRecord(TypedDict):
    """The relay (``grader.sandbox.child.relay``) got an answer the worker's probes did not
    write for the step it asked: the run forfeits its tests."""

    kind: Literal["tampered"]
    reason: str


class FlaggedRecord(TypedDict):
    """What the worker's sentinel blocked (``grader.sandbox.child.sentinel``), said by the
    relay after the step it happened in: the run forfeits its tests."""

    kind: Literal["flagged"]
    touched: list[str]  # ``Touch`` values


class EndedRecord(TypedDict):
    """How the worker that ran the submission ended, said by the relay that waited for it:
    its exit status (negative: the signal that killed it)."""

    kind: Literal["ended"]
    code: int


Record = Union[ConfinedRecord, RefusedRecord, ImportRecord, DiagramRecord, ProbeRecord,
               DoneRecord, TamperedRecord, FlaggedRecord, EndedRecord]
_SHAPES: Final[dict[str, Any]] = {
    "confined": ConfinedRecord, "refused": RefusedRecord, "import": ImportRecord,
    "diagram": DiagramRecord, "test": ProbeRecord, "done": DoneRecord,
    "tampered": TamperedRecord, "flagged": FlaggedRecord, "ended": EndedRecord,
}
KEYS: Final = {kind: set(shape.__required_keys__) for kind, shape in _SHAPES.items()}
KINDS: Final = tuple(KEYS)
_ERROR_KEYS: Final = set(ErrorRecord.__required_keys__)


class WireError(ValueError):
    """A record from the child that is not well-formed."""


def encode(record: Record) -> bytes:
    """One record as a JSON line (child side); NaN and infinities are kept as JSON extensions."""
    return json.dumps(record, separators=(",", ":"), allow_nan=True).encode() + b"\n"


def _check_plain(value: Any) -> None:
    """Only JSON's own types, nested at most ``MAX_DEPTH`` deep, no string over ``MAX_STRING``.

    Walked a level at a time in one loop, not by a call per value: a class's records hold some
    70,000 values per submission, and a call each was most of the time the parent spent reading
    them."""
    level, depth = [value], 0
    while level:
        if depth > MAX_DEPTH:
            raise WireError("nested too deeply")
        nested: list[Any] = []
        for item in level:
            kind = type(item)
            if kind is str:
                if len(item) > MAX_STRING:
                    raise WireError("string too long")
            elif kind is list:
                nested += item
            elif kind is dict:
                nested += item  # its keys
                nested += item.values()
            elif not (kind is float or kind is int or kind is bool or item is None):
                raise WireError(f"not plain JSON: {kind.__name__}")
        level, depth = nested, depth + 1


def _name(value: Any, what: str, optional: bool = False) -> None:
    if optional and value is None:
        return
    if type(value) is not str or len(value) > MAX_NAME:
        raise WireError(f"malformed {what}")


def _check_error(error: Any) -> None:
    if error is None:
        return
    if type(error) is not dict or set(error) != _ERROR_KEYS:
        raise WireError("malformed error")
    _name(error["type"], "error")
    _name(error["function"], "error", optional=True)
    _name(error["caller"], "error", optional=True)
    _name(error["step"], "error", optional=True)
    if type(error["message"]) is not str:
        raise WireError("malformed error")
    line = error["line"]
    if line is not None and (type(line) is not int or not 0 <= line < 1 << 31):
        raise WireError("malformed error")
    if type(error["fresh"]) is not bool:
        raise WireError("malformed error")


def _check_fields(record: dict[str, Any]) -> None:
    kind = record["kind"]
    if set(record) != KEYS[kind]:
        raise WireError(f"{kind} record with the wrong keys")
    if "error" in record:
        _check_error(record["error"])
    if kind == "test":
        _name(record["name"], "test name")
    elif kind == "confined":
        layers = record["layers"]
        if type(layers) is not list or len(layers) > MAX_LAYERS:
            raise WireError("malformed layers")
        for layer in layers:
            _name(layer, "layer")
    elif kind in ("refused", "tampered"):
        if type(record["reason"]) is not str:
            raise WireError("malformed reason")
    elif kind == "flagged":
        touched = record["touched"]
        if (type(touched) is not list or not touched
                or not all(type(t) is str and t in TOUCHES for t in touched)):
            raise WireError("malformed flag")
    elif kind == "ended":
        code = record["code"]
        if type(code) is not int or not -256 < code < 256:
            raise WireError("malformed exit status")
    elif kind == "diagram" and any(record[k] is not None and type(record[k]) is not dict for k in ("graph", "trace")):
        raise WireError("malformed diagram")


def decode(line: bytes) -> Record:
    """Parse and validate one record (parent side); raises WireError when it is malformed."""
    try:
        record = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise WireError(f"not JSON: {type(exc).__name__}") from None
    if type(record) is not dict or record.get("kind") not in KINDS:
        raise WireError("not a record")
    _check_plain(record)
    _check_fields(record)
    return record  # type: ignore[no-any-return]
