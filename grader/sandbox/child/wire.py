"""The channel from the sandboxed child to the grader: JSON lines, parsed strictly.

The child writes one JSON object per line to a pipe the grader created (not stdout).  Everything
that arrives is untrusted: the parent parses it with ``json.loads`` (which only ever builds
dict/list/str/int/float/bool/None: nothing is unpickled or evaluated), then checks its shape and
sizes here.  A record that breaks the rules is dropped and counted, never half-trusted.

Records:
    {"kind": "confined", "layers": [str, ...]}
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
KINDS = ("confined", "import", "diagram", "test", "done")


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


def _check_error(error: Any) -> None:
    if error is None:
        return
    if type(error) is not dict or set(error) != {"type", "message", "function", "line"}:
        raise WireError("malformed error")
    if type(error["type"]) is not str or type(error["message"]) is not str:
        raise WireError("malformed error")
    if error["function"] is not None and type(error["function"]) is not str:
        raise WireError("malformed error")
    if error["line"] is not None and type(error["line"]) is not int:
        raise WireError("malformed error")


def decode(line: bytes) -> dict[str, Any]:
    """Parse and validate one record (parent side); raises WireError when it is malformed."""
    try:
        record = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise WireError(f"not JSON: {type(exc).__name__}") from None
    if type(record) is not dict or record.get("kind") not in KINDS:
        raise WireError("not a record")
    _check_plain(record)
    _check_error(record.get("error"))
    if record["kind"] == "test" and type(record.get("name")) is not str:
        raise WireError("test record without a name")
    return record
