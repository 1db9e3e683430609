"""``getattr`` and ``hasattr`` given a private name written out in the call read what the same
name written as an attribute reads (``getattr(a, "_version", None)`` is ``a._version``), while a
name computed as the code runs, one of grading's internals, or a ``getattr`` the source binds
itself keep the guarded lookup (``grader.sandbox.child.guard``)."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

from grader.sandbox.child.guard import import_submission
from micrograph import Value

WRITTEN = '''from micrograph import observe


def version(v):
    return getattr(v, "_version", None), hasattr(v, "_version")


def marked(v):
    return getattr(v, "_walked", False)


def computed(v):
    return getattr(v, "_ver" + "sion")


def starred(v):
    rest = ("_version",)
    return getattr(v, *rest)


def internals():
    return getattr(observe, "_observers")
'''
OWN_GETATTR = '''def getattr(owner, name, *default):
    return "own"


def version(v):
    return getattr(v, "_version", None)
'''


def _imported(tmp_path: Path, name: str, source: str) -> ModuleType:
    path = tmp_path / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    return import_submission(str(path), name)


@pytest.fixture
def written(tmp_path: Path):
    try:
        yield _imported(tmp_path, "written_lookups", WRITTEN)
    finally:
        sys.modules.pop("written_lookups", None)


def test_a_private_name_written_out_reads_as_the_attribute_does(written: ModuleType) -> None:
    a = Value(1.0, requires_grad=True) * 2
    assert written.version(a) == (a._version, True)
    assert written.marked(a) is False


@pytest.mark.parametrize("function", ["computed", "starred", "internals"])
def test_a_computed_name_or_one_of_gradings_internals_is_still_refused(written: ModuleType, function: str) -> None:
    with pytest.raises(PermissionError, match="the grader does not let submitted code reach"):
        getattr(written, function)(*([Value(1.0)] if function != "internals" else []))


def test_a_getattr_the_source_binds_itself_is_its_own(tmp_path: Path) -> None:
    try:
        own = _imported(tmp_path, "own_getattr", OWN_GETATTR)
        assert own.version(Value(1.0)) == "own"
    finally:
        sys.modules.pop("own_getattr", None)
