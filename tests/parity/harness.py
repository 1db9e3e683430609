"""Run a parity program on a backend, turn what it saw into text, compare texts.

An observation is one ``(key, text)`` pair. The text is what both libraries
must agree on, so it never contains addresses or ids:

* ``None``, bools, ints as ``str``; floats as ``repr`` (``-0.0``, ``nan`` and
  ``inf`` survive); strings as they are;
* a value (tensor / ``Value``) as ``Value(<item>)``, with
  ``, requires_grad=True`` when it requires grad;
* a graph node as its ``name()``, without torch's C++ namespace
  (``torch::autograd::AccumulateGrad`` -> ``AccumulateGrad``);
* tuples and lists element-wise;
* a callable is called: ``ok``, or ``error: <ExcType>: <first line>``.

Warnings are recorded too, ``always`` (PyTorch warns on every access to a
non-leaf ``.grad``): each one becomes ``(<key> -> warning[i], "<Category>:
<first line>")`` after the first observation recorded once it was raised.
"""

from __future__ import annotations

import importlib.util
import json
import math
import re
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

from .backends import Backend

HERE = Path(__file__).resolve().parent
PROGRAMS_DIR = HERE / "programs"
EXPECTED_DIR = HERE / "expected"
REL_TOL = 1e-12
ABORTED = "<program aborted>"

_TORCH_PREFIX = "torch::autograd::"
_TORCH_WARNING_SUFFIX = " (Triggered internally at"
# A float as repr() writes it, standing alone (not inside a word or a number).
_FLOAT = re.compile(r"(?<![\w.])-?(?:inf|nan|\d+\.\d*(?:e[-+]?\d+)?|\d+e[-+]?\d+)(?![\w.])")

Entry = tuple[str, str]


def first_line(text: object) -> str:
    lines = str(text).splitlines()
    return lines[0] if lines else ""


def _is_node(obj: object) -> bool:
    return hasattr(obj, "next_functions") and hasattr(obj, "name")


def node_name(node: Any) -> str:
    name = node.name()
    return name[len(_TORCH_PREFIX):] if name.startswith(_TORCH_PREFIX) else name


def describe_error(exc: BaseException) -> str:
    return f"error: {type(exc).__name__}: {first_line(exc)}"


def fmt(v: Any, backend: Backend) -> str:
    """The text of one observed value (see the module docstring)."""
    if v is None or isinstance(v, (bool, int)):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    if isinstance(v, str):
        return v
    if isinstance(v, backend.value_type):
        flag = ", requires_grad=True" if v.requires_grad else ""
        return f"Value({fmt(v.item(), backend)}{flag})"
    if _is_node(v):
        return node_name(v)
    if isinstance(v, tuple):
        inner = ", ".join(fmt(x, backend) for x in v)
        return f"({inner},)" if len(v) == 1 else f"({inner})"
    if isinstance(v, list):
        return "[" + ", ".join(fmt(x, backend) for x in v) + "]"
    return f"<unrecordable {type(v).__name__}>"


class Recorder:
    """The ``rec(key, value_or_callable)`` a program receives.

    It returns what it observed (a callable's result, None if it raised), so a
    program can go on with a value it obtained through a guarded call.
    """

    def __init__(self, backend: Backend, caught: list[warnings.WarningMessage]) -> None:
        self.backend = backend
        self.entries: list[Entry] = []
        self._caught = caught

    def __call__(self, key: str, obs: Any) -> Any:
        if any(k == key for k, _ in self.entries):
            raise ValueError(f"duplicate observation key {key!r}")
        result = obs
        if callable(obs) and not _is_node(obs) and not isinstance(obs, self.backend.value_type):
            try:
                result = obs()
            except Exception as exc:  # noqa: BLE001 - every error is an observation
                result, text = None, describe_error(exc)
            else:
                text = "ok"
        else:
            text = fmt(obs, self.backend)
        self.entries.append((key, text))
        self.flush_warnings(key)
        return result

    def flush_warnings(self, key: str) -> None:
        for i, w in enumerate(self._caught):
            message = str(w.message)
            cut = message.find(_TORCH_WARNING_SUFFIX)
            message = first_line(message if cut < 0 else message[:cut])
            self.entries.append((f"{key} -> warning[{i}]", f"{w.category.__name__}: {message}"))
        del self._caught[:]


def program_names() -> list[str]:
    """Every program, in the order of its number (``99_...`` before ``100_...``).

    The order matters: torch warns once per process (``create_graph``'s
    warning), so a program may observe that warning only in its place.
    """
    names = (p.stem for p in PROGRAMS_DIR.glob("[0-9]*_*.py"))
    return sorted(names, key=lambda name: (int(name.split("_", 1)[0]), name))


def load_program(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"parity_program_{name}", PROGRAMS_DIR / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_program(name: str, backend: Backend) -> list[Entry]:
    """All observations of one program; an escaping exception ends it as one."""
    program = load_program(name)
    grad_mode = backend.is_grad_enabled()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rec = Recorder(backend, caught)
        try:
            program.run(backend, rec)
        except Exception as exc:  # noqa: BLE001 - reported as a mismatch, not a crash
            rec.entries.append((ABORTED, describe_error(exc)))
        rec.flush_warnings("<end>")
    backend.set_grad_enabled(grad_mode)  # a program may switch grad mode off for good
    return rec.entries


def expected_path(name: str) -> Path:
    return EXPECTED_DIR / f"{name}.json"


def dump_entries(entries: list[Entry]) -> str:
    """JSON, one observation per line, so a re-recording diffs readably."""
    lines = ",\n".join(" " + json.dumps(list(e), ensure_ascii=False) for e in entries)
    return f"[\n{lines}\n]\n"


def load_expected(name: str) -> list[Entry]:
    path = expected_path(name)
    if not path.exists():
        raise FileNotFoundError(f"{path} is missing: run tests/parity/record.py with torch installed")
    return [(k, v) for k, v in json.loads(path.read_text())]


def _floats_close(a: str, b: str) -> bool:
    if a == b:
        return True
    x, y = float(a), float(b)
    # Zeros keep their sign and nan/inf must match exactly: only finite,
    # non-zero numbers get the tolerance.
    if not (math.isfinite(x) and math.isfinite(y)) or x == 0.0 or y == 0.0:
        return False
    return math.isclose(x, y, rel_tol=REL_TOL, abs_tol=0.0)


def same_text(expected: str, actual: str) -> tuple[bool, str]:
    """Equal, and how it was decided: exactly, or floats within REL_TOL."""
    if expected == actual:
        return True, "exact"
    if expected.startswith("error:"):
        return False, "error message compared exactly"
    exp_floats, act_floats = _FLOAT.findall(expected), _FLOAT.findall(actual)
    same_shape = _FLOAT.sub("#", expected) == _FLOAT.sub("#", actual) and len(exp_floats) == len(act_floats)
    if same_shape and exp_floats and all(map(_floats_close, exp_floats, act_floats)):
        return True, f"floats within rel tol {REL_TOL:g}"
    if same_shape and exp_floats:
        return False, f"floats differ beyond rel tol {REL_TOL:g} (repr differs)"
    return False, "compared exactly"


def compare(expected: list[Entry], actual: list[Entry]) -> list[str]:
    """One line per disagreement: missing, unexpected, or different observations."""
    got = dict(actual)
    lines = []
    for key, want in expected:
        if key not in got:
            lines.append(f"{key}: torch {want!r}, micrograph <missing>")
            continue
        ok, how = same_text(want, got[key])
        if not ok:
            lines.append(f"{key}: torch {want!r}, micrograph {got[key]!r} [{how}]")
    known = {k for k, _ in expected}
    lines += [f"{key}: torch <nothing>, micrograph {text!r}" for key, text in actual if key not in known]
    return lines
