"""A build-track stage checks the earlier stages first (``grader.spec.build.needs``): an engine
whose earlier stage is wrong fails every test of a later one with ``EarlierStage``.  The check
reads the student's own objects, so it takes only a bool for ``is_leaf`` and an int for
``_version``: an ``is_leaf`` that returns an object equal to anything (an int subclass whose
``__eq__`` says True) let an engine with a wrong ``is_leaf`` past the check, and ex17 scored
13 of 13 where the same engine with a plain bool scores 0."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from grader.spec.build import EarlierStage, needs

ENGINE = (Path(__file__).resolve().parents[2] / "solutions" / "build" / "engine.py").read_text()
RIGHT = "        return self.grad_fn is None\n"
WRONG = "        return not self.requires_grad  # a slip: a leaf is what requires no grad\n"
AGREEING = "        return _Agree(not self.requires_grad)\n"
_AGREE = '''

class _Agree(int):
    """A flag equal to whatever it is compared with."""

    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = int.__hash__
'''


def _engine(tmp_path: Path, name: str, is_leaf: str, extra: str = "") -> ModuleType:
    """The build track's engine with ``is_leaf``'s body replaced, loaded as a module."""
    start = ENGINE.index("    def is_leaf(self) -> bool:")
    at = ENGINE.index(RIGHT, start)
    path = tmp_path / f"{name}.py"
    path.write_text(ENGINE[:at] + is_leaf + ENGINE[at + len(RIGHT):] + extra)
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_right_engine_passes_the_earlier_stages(tmp_path: Path) -> None:
    needs(_engine(tmp_path, "right_engine", RIGHT), 2)


@pytest.mark.parametrize("is_leaf,extra", [(WRONG, ""), (AGREEING, _AGREE)], ids=["a_bool", "equal_to_anything"])
def test_a_wrong_is_leaf_fails_the_earlier_stage_whatever_it_returns(tmp_path: Path, is_leaf: str,
                                                                      extra: str) -> None:
    with pytest.raises(EarlierStage, match="is_leaf"):
        needs(_engine(tmp_path, "wrong_engine", is_leaf, extra), 2)
