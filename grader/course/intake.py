"""What a student handed in, as one file per exercise: a folder, a single ``.py`` or a ``.zip``,
in whatever layout, checked before anything runs.

Batch grading calls ``collect`` once per student entry; Gradescope's ``run_autograder`` calls it
on the submission folder.  Nothing here runs student code.  It finds ``exNN_*.py`` files at any
depth (also inside a zip), refuses archives that would escape their folder or explode, and checks
that each chosen file is source text Python can decode, so that a malformed entry becomes one
clear sentence and a zero instead of a crash or a confusing traceback from the sandbox.
"""

from __future__ import annotations

import os
import re
import stat
import tempfile
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from grader.course import notebook
from grader.course.source_text import MAX_SOURCE_BYTES, text_problem
from grader.i18n import _
from grader.spec.limits import size

MAX_ZIP_MEMBERS = 2_000
MAX_ZIP_BYTES = 64 << 20  # declared uncompressed total, checked before anything is read
MAX_FILES_WALKED = 10_000
MAX_DEPTH = 12
MAX_ZIPS = 8  # zips opened inside one folder entry

_EXERCISE_FILE = re.compile(r"ex0*(\d{1,2})(?:[_ \-.][^/]*)?\.(?:py|ipynb)", re.IGNORECASE)
_EXERCISE_IN_NAME = re.compile(r"(?:^|[^a-z0-9])ex0*(\d{1,2})(?![0-9])", re.IGNORECASE)
# a student release's own packages, handed in with the repository: grader/exercises/ex05.py is
# its public tests, not the student's ex05
_SKIPPED_DIRS = {"__MACOSX", "__pycache__", "node_modules", "venv", "grader", "micrograph"}


class EntryError(Exception):
    """The entry as a whole cannot be graded; the message is one line for the report."""


@dataclass
class Intake:
    """The file to grade for each exercise, and everything worth telling about the entry.

    ``files`` maps an exercise id to the file to grade; ``shown`` says how to name each such
    file in feedback (its path inside the entry, not a temporary path); ``problems`` maps an
    exercise id to why its file cannot be graded (it scores zero); ``error`` is set when the
    entry as a whole is unusable (every exercise scores zero).
    """

    files: dict[str, Path] = field(default_factory=dict)
    shown: dict[Path, str] = field(default_factory=dict)
    problems: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    error: str | None = None
    one_file: bool = False  # the entry is a single file: one exercise, the others not handed in


@dataclass
class _Candidate:
    exercise: str
    path: Path | None
    shown: str
    depth: int
    problem: str | None = None


def printable(name: str) -> str:
    """A file name as text: bytes that are not UTF-8 (kept by Python as surrogates) become �."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def exercise_of(file_name: str) -> str | None:
    """``ex03_retain_grad.py``, ``EX3 retain.py`` -> ``"ex03"``; None for other names."""
    if file_name.startswith("._"):  # macOS resource forks next to the real file
        return None
    match = _EXERCISE_FILE.fullmatch(file_name)
    return f"ex{int(match.group(1)):02d}" if match and int(match.group(1)) > 0 else None


def exercise_named_in(name: str) -> str | None:
    """An ``exNN`` anywhere in a name (``alice_ex03.py`` -> ``"ex03"``), or None."""
    match = _EXERCISE_IN_NAME.search(name)
    return f"ex{int(match.group(1)):02d}" if match and int(match.group(1)) > 0 else None


def _join(prefix: str, *parts: str) -> str:
    return "/".join(p for p in (prefix, *parts) if p)


def _cap(name: str) -> int:
    """The largest file accepted under this name (a notebook carries its outputs)."""
    return notebook.MAX_NOTEBOOK_BYTES if notebook.is_notebook(Path(name)) else MAX_SOURCE_BYTES


def _escapes(member: str) -> bool:
    """A zip member name that would land outside the folder it is extracted to."""
    name = member.replace("\\", "/")
    return (name.startswith("/") or bool(re.match(r"[A-Za-z]:", name))
            or ".." in PurePosixPath(name).parts)


def _skipped(part: str) -> bool:
    return part.startswith(".") or part in _SKIPPED_DIRS


def link_in(path: Path) -> Path | None:
    """The first component of ``path`` (as written, or below the course folder) that is a
    symbolic link, or None.  Links are refused at every level: a link can point a grader at a
    file the student did not write (the solutions, ``/proc/self/cwd/...``)."""
    absolute = Path(os.path.abspath(path))
    here = Path(os.path.abspath(os.getcwd()))
    start = here if absolute.is_relative_to(here) else Path(absolute.anchor) / absolute.parts[1]
    current = start
    for part in absolute.relative_to(start).parts if absolute != start else ():
        current = current / part
        if current.is_symlink():
            return current
    return absolute if absolute.is_symlink() else None


def refuse_link(path: Path, shown: str) -> str | None:
    """One sentence refusing ``path`` (named ``shown``) when a link is on its way, or None."""
    link = link_in(path)
    if link is None:
        return None
    if link == Path(os.path.abspath(path)):
        return _("{file} is a symbolic link: links are refused, hand in the file itself", file=shown)
    return _("{file} goes through a symbolic link ({link}): links are refused, hand in the file itself",
             file=shown, link=link.name)


def _zip_candidates(archive_path: Path, shown: str, workdir: Path) -> list[_Candidate]:
    """The exercise files of a zip, extracted into ``workdir``; the limits are checked on the
    declared sizes first, then again on the bytes actually read."""
    try:
        with zipfile.ZipFile(archive_path) as archive:
            infos = archive.infolist()
            if len(infos) > MAX_ZIP_MEMBERS:
                raise EntryError(_("{file} holds {count} files (more than {limit}): refused",
                                   file=shown, count=len(infos), limit=MAX_ZIP_MEMBERS))
            declared = sum(info.file_size for info in infos)
            if declared > MAX_ZIP_BYTES:
                raise EntryError(_("{file} would expand to {size} (more than {limit}): refused as a zip bomb",
                                   file=shown, size=size(declared), limit=size(MAX_ZIP_BYTES)))
            for info in infos:
                if _escapes(info.filename):
                    raise EntryError(_("{file} holds a path outside the archive ({path}): refused",
                                       file=shown, path=repr(printable(info.filename)[:80])))
            found = []
            for info in infos:
                parts = PurePosixPath(info.filename.replace("\\", "/")).parts
                exercise = exercise_of(parts[-1]) if parts and not info.is_dir() else None
                if exercise is None or any(_skipped(p) for p in parts[:-1]):
                    continue
                inner = _join(shown, *parts)
                if stat.S_ISLNK(info.external_attr >> 16):
                    found.append(_Candidate(exercise, None, inner, len(parts),
                                            _("{file} is a symbolic link, not a file: links are refused, "
                                              "hand in the file itself", file=inner)))
                    continue
                if info.flag_bits & 0x1:
                    found.append(_Candidate(exercise, None, inner, len(parts),
                                            _("{file} is encrypted: hand in a plain zip", file=inner)))
                    continue
                cap = _cap(parts[-1])
                with archive.open(info) as member:
                    data = member.read(cap + 1)
                if len(data) > cap:
                    found.append(_Candidate(exercise, None, inner, len(parts),
                                            _("{file} is larger than {size}: not graded", file=inner,
                                              size=size(cap))))
                    continue
                target = (Path(tempfile.mkdtemp(dir=workdir))
                          / f"{exercise}{PurePosixPath(parts[-1]).suffix.lower()}")
                target.write_bytes(data)
                found.append(_Candidate(exercise, target, inner, len(parts)))
            return found
    except EntryError:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError,
            ValueError, OSError) as exc:
        raise EntryError(_("{file} is not a readable zip ({why})", file=shown,
                           why=f"{type(exc).__name__}: {str(exc)[:80]}")) from None


def _folder_candidates(folder: Path, shown: str, workdir: Path,
                       notes: list[str]) -> list[_Candidate]:
    """Exercise files anywhere under ``folder`` (hidden folders and macOS debris skipped,
    symbolic links never followed: each linked folder gets a note), plus those inside the
    zips it holds."""
    found: list[_Candidate] = []
    walked = zips = 0
    for dirpath, dirnames, filenames in os.walk(folder):
        relative = Path(dirpath).relative_to(folder).parts
        keep = len(relative) < MAX_DEPTH
        dirnames[:] = sorted(d for d in dirnames if keep and not _skipped(d))
        for name in [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            dirnames.remove(name)
            notes.append(_("{path} is a symbolic link: links are refused, its files were not graded",
                           path=_join(shown, *map(printable, relative), printable(name))))
        for name in sorted(filenames):
            walked += 1
            if walked > MAX_FILES_WALKED:
                raise EntryError(_("{file} holds more than {limit} files: refused",
                                   file=shown or _("the submission"), limit=MAX_FILES_WALKED))
            path = Path(dirpath) / name
            inner = _join(shown, *map(printable, relative), printable(name))
            if name.lower().endswith(".zip") and not path.is_symlink() and zips < MAX_ZIPS:
                zips += 1
                found += _zip_candidates(path, inner, workdir)
                continue
            exercise = exercise_of(name)
            if exercise is None:
                continue
            if path.is_symlink() or not path.is_file():
                found.append(_Candidate(exercise, None, inner, len(relative) + 1,
                                        _("{file} is a symbolic link, not a file: links are refused, "
                                          "hand in the file itself", file=inner)))
            else:
                found.append(_Candidate(exercise, path, inner, len(relative) + 1))
    return found


def _stubs_left(candidate: _Candidate) -> int:
    """How many of the exercise's stub raises (``NotImplementedError("ex05: ...")``) the file
    still holds: a repository handed in with its untouched ``exercises/ex05_*.py`` and the
    notebook the student filled in is graded on the notebook."""
    if candidate.path is None:
        return 0
    marker = f'NotImplementedError("{candidate.exercise}:'
    try:
        if notebook.is_notebook(candidate.path):
            return notebook.convert_file(candidate.path, candidate.shown).source.count(marker)
        with open(candidate.path, "rb") as handle:  # no more than a file graded may hold
            return handle.read(MAX_SOURCE_BYTES).decode("utf-8", errors="replace").count(marker)
    except (OSError, notebook.NotebookError):
        return 0


def _choose(candidates: list[_Candidate], modules: dict[str, str], intake: Intake) -> None:
    """One file per exercise: the one with the fewest stub parts left, then the one named
    exactly like the stub, else the shallowest."""
    for exercise in modules:
        group = [c for c in candidates if c.exercise == exercise]
        if not group:
            continue
        several = len(group) > 1  # a file alone is read once, when it is checked below
        group.sort(key=lambda c: (_stubs_left(c) if several else 0, Path(c.shown).name != f"{modules[exercise]}.py",
                                  c.depth, notebook.is_notebook(Path(c.shown)), c.shown))
        best = group[0]
        if len(group) > 1:
            others = ", ".join(c.shown for c in group[1:4]) + (", ..." if len(group) > 4 else "")
            intake.notes.append(_("{id}: {count} files, graded {file} (not {others})", id=exercise,
                                  count=len(group), file=best.shown, others=others))
        problem = best.problem or (text_problem(best.path, best.shown) if best.path else None)
        if problem is not None or best.path is None:
            intake.problems[exercise] = problem or _("cannot read {file}", file=best.shown)
        else:
            intake.files[exercise] = best.path
            intake.shown[best.path] = best.shown


def notepad_named(folder: Path) -> list[Path]:
    """The files of ``folder`` named for an exercise with ``.txt`` after ``.py`` or ``.ipynb``
    (``ex02_leaves.py.txt``): Windows Notepad saves a file so, and Explorer hides the ending."""
    return [path for path in sorted(folder.iterdir()) if path.suffix.lower() == ".txt"
            and Path(path.stem).suffix.lower() in (".py", notebook.SUFFIX)
            and exercise_of(path.stem) is not None and path.is_file()]


def collect(entry: Path, modules: dict[str, str], workdir: Path, *, shown: str,
            single: str | None = None) -> Intake:
    """Find the file for each exercise in ``modules`` (id -> the stub's file stem) in ``entry``.

    ``shown`` names the entry in messages ("alice.zip"; "" for Gradescope's submission folder).
    A single ``.py`` entry is the exercise named in its file name, else ``single`` (when one
    exercise is graded).  Zips are extracted (only their exercise files) into ``workdir``.
    Never raises for anything about the entry.
    """
    intake = Intake()
    try:
        if entry.is_symlink():
            raise EntryError(_("{file} is a symbolic link: links are refused, hand in the folder, .py "
                               "or .zip itself", file=shown or _("the submission")))
        if entry.is_dir():
            candidates = _folder_candidates(entry, shown, workdir, intake.notes)
            if not candidates and not any(entry.iterdir()):
                raise EntryError(_("{file}: the folder is empty", file=shown or _("the submission")))
        elif entry.suffix.lower() == ".zip" and entry.is_file():
            candidates = _zip_candidates(entry, shown, workdir)
        elif entry.suffix.lower() in (".py", notebook.SUFFIX) and entry.is_file():
            exercise = exercise_named_in(entry.stem) or single
            if exercise is None:
                raise EntryError(_("{file}: cannot tell which exercise this file is: name it "
                                   "exNN_<topic>.py, or grade one exercise with --exercises", file=shown))
            candidates = [_Candidate(exercise, entry, shown, 0)]
            intake.one_file = True
        elif entry.exists():
            raise EntryError(_("{file} is not a folder, a .py or .ipynb file or a .zip", file=shown))
        else:
            raise EntryError(_("{file} does not exist", file=shown or _("the submission")))
        near = notepad_named(entry) if not candidates and entry.is_dir() else []
        if near:  # ex02_leaves.py.txt: the one file there, as Notepad saved it
            raise EntryError(_("{file} holds no exercise file (exNN_<topic>.py): {name} ends in .txt after {inner} "
                               "(Notepad adds .txt, and Windows hides it): rename it {right}",
                               file=shown or _("the submission"), name=printable(near[0].name),
                               inner=Path(near[0].stem).suffix, right=printable(near[0].stem)))
        if not candidates:
            raise EntryError(_("{file} holds no exercise file (exNN_<topic>.py)",
                               file=shown or _("the submission")))
        if not any(c.exercise in modules for c in candidates):
            raise EntryError(_("{file} holds no file for {modules}", file=shown or _("the submission"),
                               modules=", ".join(modules)))
    except EntryError as exc:
        intake.error = str(exc)
        return intake
    except OSError as exc:
        intake.error = _("cannot read {file}: {why}", file=shown or _("the submission"), why=exc.strerror or exc)
        return intake
    _choose(candidates, modules, intake)
    return intake
