"""JSON in and out of the worker, through the interpreter's C codec bound before the submission
is imported.

``json.dumps`` and ``json.loads`` look up what they run as they run: the module's functions, the
``JSONEncoder`` and ``JSONDecoder`` classes' methods (``encode``, ``iterencode``, ``decode``).
A class takes any attribute it is given, so a submission could rewrite every answer after the
probes made it (``json.JSONEncoder.encode = ...``) or misread the relay's requests.  The C
encoder and scanner made here keep what they need inside themselves: an answer is plain data
(exact JSON types, ``grader.sandbox.child.main._plain``), so nothing of the submission's runs
while it is encoded.
"""

from __future__ import annotations

import json
import json.decoder
import json.encoder
import json.scanner
from typing import Any

_make_encoder = json.encoder.c_make_encoder
_make_scanner = json.scanner.c_make_scanner
if _make_encoder is None or _make_scanner is None:  # a Python built without _json
    raise ImportError("the grader's child needs the interpreter's C JSON codec (_json)")


def _not_plain(value: object) -> Any:
    raise TypeError(f"not plain JSON: {type(value).__name__}")


# markers None: no cycle check (plain data is a tree); keys unsorted, none skipped, NaN allowed
_encode = _make_encoder(None, _not_plain, json.encoder.c_encode_basestring_ascii, None, ":", ",",
                        False, False, True)
_scan = _make_scanner(json.decoder.JSONDecoder())
_join = "".join


def dumps(value: Any) -> bytes:
    """``value`` (plain data) as one line of JSON, ASCII-only."""
    return _join(_encode(value, 0)).encode()


def loads(line: bytes) -> Any:
    """The JSON value that ``line`` holds (nothing after it but white space)."""
    text = line.decode()
    value, end = _scan(text, 0)
    if text[end:].strip():
        raise ValueError("extra data after the JSON value")
    return value
