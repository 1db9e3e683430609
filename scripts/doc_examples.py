"""Regenerate the example outputs of the guides from real runs, and the student guide's copy of
the release README.

A guide shows a command's output in a block like this one, the commands after ``$ ``::

    <!-- example: release:solved-ex03 -->
    ```console
    $ grade ex03
    ...its output...
    ```

Everything runs from a fresh clone of this checkout (``git clone`` of HEAD, with the changes
to tracked files not committed yet applied: a file git does not track is missing, as from a
clone), whose ``grader`` and ``micrograph`` the commands import. The marker names where the
commands run: ``course`` (a copy of the clone's ``exercises/`` and ``solutions/``) or ``release``
(a fresh student release of ex01 and ex03, built by the clone's ``grade release``), and
optionally a set-up step (``SETUPS``). Each block runs in a folder of its own under a temporary
folder; ``/tmp/ag`` in a command is a folder there too.
``docs/student.md`` also holds the release README between ``<!-- release README -->`` and
``<!-- end of release README -->``: the text ``grade release`` writes for the whole course.

    python scripts/doc_examples.py            # rewrite the blocks and the README copy in place
    python scripts/doc_examples.py --check    # exit 1, naming the block, when a doc is stale

``tests/test_doc_examples.py`` runs the same blocks and compares their output's shape (times,
uids and folders masked) with the docs.  It also runs every command the guides list without an
output (``grade ...`` and ``python -m ...`` lines of their ``bash`` blocks, and the notebook's
``python`` cells) as a reader would type it, in a fresh release (the student guide) or a fresh
course of two exercises with a class handed in (the instructor guide): each must end with a
documented exit status (0 or 1) and without a traceback.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
DOCS = (ROOT / "docs" / "student.md", ROOT / "docs" / "instructor.md")
STUDENT_GUIDE = ROOT / "docs" / "student.md"
RELEASE_README_START = "<!-- release README -->\n"
RELEASE_README_END = "<!-- end of release README -->\n"
RELEASE_EXERCISES = "ex01,ex03"
TRIAL_FOLDER = "/tmp/ag"  # the Gradescope trial's folder as the guide writes it
PROMPT = "$ "
COLUMNS = "100"  # the width tables wrap at, whatever the terminal
COMMAND_TIMEOUT = 300

BLOCK = re.compile(r"<!-- example: (?P<where>course|release)(?::(?P<setup>[\w-]+))? -->\n"
                   r"```console\n(?P<body>.*?)```\n", re.S)
MASKS = (  # what differs from run to run or machine to machine: compared as a shape
    (re.compile(r"\d+(\.\d+)? ?(s|ms)\b"), "<time>"),
    (re.compile(r"uid:\d+"), "uid:<n>"),
    (re.compile(r"Python \d+\.\d+\.\d+"), "Python <version>"),
    (re.compile(r"\b(namespaces|uid\+seccomp|limits only)\b[^\n]*"), "<isolation>"),
)


@dataclass(frozen=True)
class Step:
    """One ``$ command`` of a block and the output the doc shows under it."""

    command: str
    output: str


@dataclass(frozen=True)
class Block:
    """One example block of a guide."""

    doc: Path
    where: str
    setup: str | None
    steps: tuple[Step, ...]
    span: tuple[int, int]  # of the block's body in the doc's text

    @property
    def name(self) -> str:
        return f"{self.doc.name}: {self.where}{':' + self.setup if self.setup else ''}: " + \
            " && ".join(s.command for s in self.steps)


def blocks(doc: Path, text: str | None = None) -> list[Block]:
    """Every example block of ``doc`` (whose text is ``text`` when given), in order."""
    text = doc.read_text(encoding="utf-8") if text is None else text
    found = []
    for match in BLOCK.finditer(text):
        steps: list[list[str]] = []
        for line in match["body"].splitlines():
            if line.startswith(PROMPT):
                steps.append([line[len(PROMPT):]])
            elif steps:
                steps[-1].append(line)
        found.append(Block(doc, match["where"], match["setup"],
                           tuple(Step(s[0], "\n".join(s[1:])) for s in steps), match.span("body")))
    return found


def mask(text: str) -> str:
    """``text`` with times, uids, versions and the isolation mode replaced by placeholders."""
    for pattern, placeholder in MASKS:
        text = pattern.sub(placeholder, text)
    return text.rstrip()


# ---- the commands the guides list without their output -----------------------------------

LISTING = re.compile(r"```(?P<language>bash|python)\n(?P<body>.*?)```\n", re.S)
RUNNABLE = ("grade", "python -m ", "_GRADE_COMPLETE=")
LISTED_EXERCISES = ("ex01", "ex03")
DOCUMENTED_EXITS = (0, 1)  # full marks, not full marks (2 is a usage error)
COMMENT = re.compile(r"\s+#\s.*$")


@dataclass(frozen=True)
class Listed:
    """One command a guide lists (a ``bash`` line, or a ``python`` block run as one script)."""

    doc: Path
    command: str

    @property
    def where(self) -> str:
        return "release" if self.doc == STUDENT_GUIDE else "course"

    @property
    def name(self) -> str:
        return f"{self.doc.name}: {self.command}"


def _shell_line(line: str) -> str | None:
    """The command a listed line runs, without its comment: ``eval "$(X)"`` and ``X | source``
    (shell completion) run ``X``; None for what is not a ``grade`` or ``python -m`` command
    (setting up a venv, activating it)."""
    line = COMMENT.sub("", line).strip()
    if line.startswith('eval "$(') and line.endswith(')"'):
        line = line[len('eval "$('):-2]
    line = line.removesuffix(" | source")
    return line if line.startswith(RUNNABLE) else None


def listed(doc: Path) -> list[Listed]:
    """The commands ``doc`` lists outside its example blocks."""
    text = BLOCK.sub("", doc.read_text(encoding="utf-8"))
    found = []
    for match in LISTING.finditer(text):
        if match["language"] == "python":
            found.append(Listed(doc, "python -c " + shlex.quote(match["body"])))
            continue
        found += [Listed(doc, c) for c in map(_shell_line, match["body"].splitlines()) if c]
    return found


# ---- where a block runs ------------------------------------------------------------------

def fresh_clone(dest: Path) -> Path:
    """This checkout as a clone gives it (see the module doc): ``dest``."""
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(dest)], check=True,
                   timeout=COMMAND_TIMEOUT)
    diff = subprocess.run(["git", "-C", str(ROOT), "diff", "HEAD", "--binary"], check=True,
                          capture_output=True, timeout=COMMAND_TIMEOUT).stdout
    if diff:
        subprocess.run(["git", "-C", str(dest), "apply", "--whitespace=nowarn"], input=diff,
                       check=True, timeout=COMMAND_TIMEOUT)
    return dest


def _copy_course(source: Path, dest: Path) -> None:
    for folder in ("exercises", "solutions"):
        shutil.copytree(source / folder, dest / folder, ignore=shutil.ignore_patterns("__pycache__"))
    (dest / ".venv").symlink_to(Path(sys.prefix))  # the course's own venv, as the guide has it


def _module(exercise: str, folder: Path) -> Path:
    """The file of ``exercise`` in ``folder`` (exercises/ or solutions/)."""
    return next(folder.glob(f"{exercise}_*.py"))


def _class(ws: Path, source: Path) -> None:
    """alice hands in a folder with a correct ex03, bob one file with a mistake, carol nothing."""
    submissions = ws / "submissions"
    (submissions / "alice").mkdir(parents=True)
    (submissions / "carol").mkdir()
    shutil.copy(_module("ex03", ws / "solutions"), submissions / "alice")
    shutil.copy(source / "tests" / "exercises" / "gallery" / "ex03" / "no_retain_grad.py",
                submissions / "bob_ex03.py")


def _filled_stub(ws: Path, source: Path) -> None:
    """The instructor overwrote ex03's stub with its solution."""
    shutil.copy(_module("ex03", ws / "solutions"), _module("ex03", ws / "exercises"))


def _solved(ws: Path, source: Path) -> None:
    """The student wrote a correct ex03 (this course's solution)."""
    shutil.copy(_module("ex03", source / "solutions"), _module("ex03", ws / "exercises"))


def _mistake(ws: Path, source: Path) -> None:
    """The student's ex03 never calls retain_grad (a wrong answer of the tests' gallery)."""
    shutil.copy(source / "tests" / "exercises" / "gallery" / "ex03" / "no_retain_grad.py",
                _module("ex03", ws / "exercises"))


def _walk(ws: Path, source: Path) -> None:
    """A course of ex01 and ex03 only (their test modules in ``tests/``, named by
    ``$GRADE_TESTS_DIR``), a class handed in (``submissions/``), and ``my.py``, a submission
    of ex03: what the instructor guide's commands name."""
    for folder in ("exercises", "solutions"):
        for path in (ws / folder).glob("ex*.py"):
            if not path.name.startswith(LISTED_EXERCISES):
                path.unlink()
    (ws / "tests").mkdir()
    for exercise in LISTED_EXERCISES:
        shutil.copy(source / "grader" / "exercises" / f"{exercise}.py", ws / "tests")
    _class(ws, source)
    shutil.copy(_module("ex03", ws / "solutions"), ws / "my.py")


SETUPS: dict[str, Callable[[Path, Path], None]] = {
    "class": _class, "filled-stub": _filled_stub, "solved-ex03": _solved, "mistake-ex03": _mistake,
    "walk": _walk,
}


def environment(ws: Path, cache: Path, code: Path) -> dict[str, str]:
    """What a block's commands run with: this Python's ``grade`` first on PATH, English, a fixed
    width, a shared answer cache, and the ``grader`` and ``micrograph`` of ``code`` (the clone's,
    or a release's own, as the release's venv would give them)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("MICROGRAPH_LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE", "PYTHONPATH")}
    env.update(PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
               LANG="C.UTF-8", COLUMNS=COLUMNS, GRADE_CACHE_DIR=str(cache), PYTHONPATH=str(code))
    return env


class Runner:
    """Runs blocks, each in a fresh folder under ``scratch``; clones the checkout and builds the
    release once."""

    def __init__(self, scratch: Path, cache: Path | None = None) -> None:
        self.scratch = scratch
        self.cache = cache or scratch / "cache"
        self.cache.mkdir(exist_ok=True)
        self.source = fresh_clone(scratch / "clone")
        self._release: Path | None = None
        self._count = 0
        self._first: dict[tuple[str, str | None, str], subprocess.CompletedProcess[str]] = {}

    def release(self) -> Path:
        if self._release is None:
            course = self.scratch / "release-course"
            _copy_course(self.source, course)
            proc = subprocess.run(["grade", "release", "--exercises", RELEASE_EXERCISES, "-o", "release"],
                                  cwd=course, env=environment(course, self.cache, self.source),
                                  capture_output=True, text=True, timeout=COMMAND_TIMEOUT)
            if proc.returncode != 0:
                raise RuntimeError(f"grade release failed:\n{proc.stdout}{proc.stderr}")
            self._release = course / "release"
        return self._release

    def workspace(self, block: Block) -> Path:
        self._count += 1
        ws = self.scratch / f"block{self._count}"
        if block.where == "release":
            shutil.copytree(self.release(), ws)
        else:
            _copy_course(self.source, ws)
        if block.setup is not None:
            SETUPS[block.setup](ws, self.source)
        return ws

    def environment(self, ws: Path, block: Block) -> dict[str, str]:
        return environment(ws, self.cache, ws if block.where == "release" else self.source)

    def run_listed(self, listed: Listed) -> subprocess.CompletedProcess[str]:
        """A listed command, run once in a fresh release or walk course (``_walk``)."""
        block = Block(listed.doc, listed.where, None if listed.where == "release" else "walk",
                      (Step(listed.command, ""),), (0, 0))
        done = self._first.get((block.where, block.setup, listed.command))
        if done is not None:  # a block ran the same command first in the same fresh folder
            return done
        ws = self.workspace(block)
        env = self.environment(ws, block)
        if block.where == "course":
            env["GRADE_TESTS_DIR"] = str(ws / "tests")
        return subprocess.run(["bash", "-c", listed.command], cwd=ws, env=env, capture_output=True,
                              text=True, timeout=COMMAND_TIMEOUT)

    def run(self, block: Block) -> list[str]:
        """The output of each of the block's commands, as the doc should show it.  The run of
        the first command is kept: a listed command that is the same, in the same kind of
        fresh folder, is not run again (``run_listed``)."""
        ws = self.workspace(block)
        trial = str(ws / "ag")
        env = self.environment(ws, block)
        outputs = []
        for step in block.steps:
            proc = subprocess.run(["bash", "-c", step.command.replace(TRIAL_FOLDER, trial)], cwd=ws,
                                  env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, timeout=COMMAND_TIMEOUT)
            if step is block.steps[0]:  # its output and errors as one text, as a reader reads them
                said = subprocess.CompletedProcess(proc.args, proc.returncode, proc.stdout, "")
                self._first.setdefault((block.where, block.setup, step.command), said)
            outputs.append(proc.stdout.replace(trial, TRIAL_FOLDER).replace(f"{ws}/", "")
                           .replace(str(ws), ".").rstrip())
        return outputs


def render(block: Block, outputs: list[str]) -> str:
    """The block's body with these outputs under its commands."""
    parts = []
    for step, output in zip(block.steps, outputs):
        parts.append(PROMPT + step.command + "\n" + (output + "\n" if output else ""))
    return "".join(parts)


# ---- the student guide's copy of the release README ----------------------------------------

def release_readme() -> str:
    """The README ``grade release --notebooks`` writes for the whole course, in English."""
    os.environ["MICROGRAPH_LANG"] = "en"
    from grader.course.folder import Course
    from grader.course.catalog import exercise_ids
    from grader.publish.readme import student_readme

    course = Course(ROOT)
    return student_readme([course.load(i) for i in exercise_ids()], notebooks=True)


def with_release_readme(text: str, readme: str) -> str:
    """The student guide ``text`` with ``readme`` between its markers, one heading level down:
    in the guide the README is a section under the guide's own title."""
    start = text.index(RELEASE_README_START) + len(RELEASE_README_START)
    end = text.index(RELEASE_README_END)
    return text[:start] + nested(readme).rstrip("\n") + "\n" + text[end:]


def nested(markdown: str) -> str:
    """``markdown`` with each heading one level deeper (``#`` lines in code blocks stay)."""
    lines, fenced = [], False
    for line in markdown.splitlines(keepends=True):
        if line.startswith("```"):
            fenced = not fenced
        lines.append("#" + line if line.startswith("#") and not fenced else line)
    return "".join(lines)


def refreshed(doc: Path, runner: Runner, stale: list[str]) -> str:
    """``doc``'s text with each block whose output's shape changed (and the release README)
    from a real run now; the name of each such block is added to ``stale``."""
    text = doc.read_text(encoding="utf-8")
    if doc == STUDENT_GUIDE:
        updated = with_release_readme(text, release_readme())
        if updated != text:
            stale.append(f"{doc.name}: the release README")
        text = updated
    for block in reversed(blocks(doc, text)):
        outputs = runner.run(block)
        if [mask(o) for o in outputs] != [mask(s.output) for s in block.steps]:
            stale.append(block.name)  # only then rewritten: a new time or uid alone is no change
            start, end = block.span
            text = text[:start] + render(block, outputs) + text[end:]
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="report stale docs, change nothing")
    args = parser.parse_args()
    stale: list[str] = []
    with tempfile.TemporaryDirectory(prefix="doc-examples-") as scratch:
        runner = Runner(Path(scratch))
        for doc in DOCS:
            text = refreshed(doc, runner, stale)
            if not args.check:
                doc.write_text(text, encoding="utf-8")
    for name in stale:
        print(("stale: " if args.check else "updated: ") + name)
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
