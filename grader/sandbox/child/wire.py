"""The channel from the sandboxed child to the grader: JSON lines, parsed strictly.

The child writes one JSON object per line to a pipe the grader created (not stdout).  Everything
that arrives is untrusted: the parent parses it with ``json.loads`` (which only ever builds
dict/list/str/int/float/bool/None: nothing is unpickled or evaluated), then checks its shape and
sizes here.  A record that breaks the rules is dropped and counted, never half-trusted.

Records (exact keys; anything else is malformed):
    {"kind": "confined", "layers": [str, ...]}
    {"kind": "refused", "reason": str}          the child could not isolate itself
    {"kind": "import", "error": ERROR | null}
    {"kind": "diagram", "graph": {...} | null, "error": ERROR | null}
    {"kind": "test", "name": str, "obs": JSON, "error": ERROR | null}
    {"kind": "done"}
ERROR = {"type": str, "message": str, "function": str | null, "line": int | null}
"""

from __future__ import annotations

import json
from typing import Any

MAX_CHANNEL_BYTES = 16 << 20  # all records of one child together
MAX_DEPTH = 40
MAX_STRING = 100_000
MAX_NAME = 200  # a test name, an exception type, a function name, a layer
MAX_LAYERS = 16
KEYS = {
    "confined": {"kind", "layers"},
    "refused": {"kind", "reason"},
    "import": {"kind", "error"},
    "diagram": {"kind", "graph", "error"},
    "test": {"kind", "name", "obs", "error"},
    "done": {"kind"},
}
KINDS = tuple(KEYS)
_ERROR_KEYS = {"type", "message", "function", "line"}


class WireError(ValueError):
    """A record from the child that is not well-formed."""


def encode(record: dict[str, Any]) -> bytes:
    """One record as a JSON line (child side); NaN and infinities are kept as JSON extensions."""
    return json.dumps(record, separators=(",", ":"), allow_nan=True).encode() + b"\n"


def _check_plain(value: Any, depth: int = 0) -> None:
    if depth > MAX_DEPTH:
        raise WireError("nested too deeply")
    kind = type(value)
    if kind in (bool, int, float) or value is None:
        return
    if kind is str:
        if len(value) > MAX_STRING:
            raise WireError("string too long")
        return
    if kind is list:
        for item in value:
            _check_plain(item, depth + 1)
        return
    if kind is dict:
        for key, item in value.items():
            _check_plain(key, depth + 1)
            _check_plain(item, depth + 1)
        return
    raise WireError(f"not plain JSON: {kind.__name__}")


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
    if type(error["message"]) is not str:
        raise WireError("malformed error")
    line = error["line"]
    if line is not None and (type(line) is not int or not 0 <= line < 1 << 31):
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
    elif kind == "refused":
        if type(record["reason"]) is not str:
            raise WireError("malformed reason")
    elif kind == "diagram" and record["graph"] is not None and type(record["graph"]) is not dict:
        raise WireError("malformed diagram")


def decode(line: bytes) -> dict[str, Any]:
    """Parse and validate one record (parent side); raises WireError when it is malformed."""
    try:
        record = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise WireError(f"not JSON: {type(exc).__name__}") from None
    if type(record) is not dict or record.get("kind") not in KINDS:
        raise WireError("not a record")
    _check_plain(record)
    _check_fields(record)
    return record
