"""What SUBMISSIONS holds for ``grade batch``: one entry per student (a folder, a ``.py`` or a
``.zip``), the student's name and output folder for each, and a hash of each entry's content."""

from __future__ import annotations

import hashlib
import os
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from grader.course.intake import printable
from grader.i18n import _


class BatchError(Exception):
    """The batch cannot start; one line for the user."""


@dataclass(frozen=True)
class Entry:
    """One student's entry: where it is, how the student is named, their folder in OUT."""

    path: Path
    label: str
    student: str
    slug: str


def slugify(name: str) -> str:
    """A folder name for ``name``: ASCII letters, digits, ``._-``; a hash of the name is added
    whenever anything had to change, so that different names keep different folders."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    slug = "".join(c if c.isalnum() or c in "._-" else "_" for c in ascii_name).strip("._-")
    slug = slug[:60] or "student"
    if slug != name:
        slug += "-" + hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:6]
    return slug


def find_entries(submissions: Path, out: Path) -> list[Entry]:
    """Every entry in ``submissions`` (hidden files and ``OUT`` itself skipped), sorted."""
    if not submissions.is_dir():
        raise BatchError(_("{path} is not a folder of submissions", path=submissions))
    skip = out.resolve()
    found = []
    for path in sorted(submissions.iterdir(), key=lambda p: p.name):
        if path.name.startswith(".") or path.name == "__MACOSX" or path.resolve() == skip:
            continue
        label = unicodedata.normalize("NFC", printable(path.name))
        stem = label
        for suffix in (".zip", ".py"):
            if path.is_file() and label.lower().endswith(suffix) and len(label) > len(suffix):
                stem = label[: -len(suffix)]
        found.append((path, label, stem))
    stems = Counter(stem for _, _, stem in found)
    entries, used, named = [], set(), Counter()
    for path, label, stem in found:
        student = stem if stems[stem] == 1 else label
        named[student] += 1
        if named[student] > 1:  # names equal once normalised: one row each, told apart
            student = f"{student} ({named[student]})"
        slug = slugify(student)
        while slug in used:
            slug += "-" + hashlib.sha256(slug.encode()).hexdigest()[:4]
        used.add(slug)
        entries.append(Entry(path, label, student, slug))
    return entries


def entry_hash(path: Path) -> str:
    """The hash of an entry's content (names and bytes; very large files by size)."""
    digest = hashlib.sha256()

    def add_file(file: Path, name: str) -> None:
        digest.update(name.encode("utf-8", "surrogateescape") + b"\0")
        if file.is_symlink():
            digest.update(b"link:" + os.readlink(file).encode("utf-8", "surrogateescape"))
        elif file.stat().st_size > 64 << 20:
            digest.update(f"size:{file.stat().st_size}".encode())
        else:
            digest.update(file.read_bytes())
        digest.update(b"\0")

    try:
        if path.is_dir():
            for folder, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    file = Path(folder) / name
                    add_file(file, str(file.relative_to(path)))
        else:
            add_file(path, path.name)
    except OSError as exc:
        digest.update(f"unreadable:{exc}".encode())
    return digest.hexdigest()
