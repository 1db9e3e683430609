"""Which of the project's files may leave the instructor's machine: the engine and the grader,
without any test module or expected answers (the release and the Gradescope bundle add their
own, chosen on purpose)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Iterator

import micrograph

import grader

_NEVER = ("__pycache__", ".pyc", ".pyo")


class ShippingError(Exception):
    """The project cannot be packed from here; one line for the user."""


def project_root() -> Path:
    """The folder holding ``pyproject.toml``, ``micrograph/`` and ``grader/``."""
    root = Path(grader.__file__).resolve().parents[1]
    engine_root = Path(micrograph.__file__).resolve().parents[1]
    if not (root / "pyproject.toml").is_file() or engine_root != root:
        raise ShippingError(f"no pyproject.toml beside grader/ and micrograph/ in {root}: "
                            "build from the project's source tree (pip install -e .)")
    return root


def _shippable(relative: Path) -> bool:
    if any(part in _NEVER or part.endswith(_NEVER) for part in relative.parts):
        return False
    if relative.parts[:2] == ("grader", "exercises") and relative.suffix in (".py", ".json"):
        return relative.name == "__init__.py"  # test modules and expected answers: hidden tests
    return True


def project_files() -> Iterator[tuple[Path, Path]]:
    """(path inside the project, path on disk) of every file that may ship."""
    root = project_root()
    yield Path("pyproject.toml"), root / "pyproject.toml"
    for package in ("micrograph", "grader"):
        for path in sorted((root / package).rglob("*")):
            relative = path.relative_to(root)
            if path.is_file() and not path.is_symlink() and _shippable(relative):
                yield relative, path


def project_texts() -> list[str]:
    """The text of every file that ships (what a student gets anyway)."""
    return [p.read_bytes().decode("utf-8", "replace") for _, p in project_files()]


def copy_project(dest: Path) -> None:
    """Copy the shippable files into ``dest`` (which keeps the project's layout)."""
    for relative, path in project_files():
        target = dest / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
