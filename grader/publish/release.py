"""``grade release -o DIR``: the folder students get.

It holds the engine, the grader, the stubs, the public tests and a README: no solution, no
hidden test.  A release of the build track alone (ex16-ex22) holds micrograph's core without its
code (``grader.publish.core_cut``): the student is writing that engine.  The test modules are rewritten to their public tests (``grader.publish.public_tests``),
each with one placeholder line standing for the hidden tests; the expected answers of the public
tests are computed here from the solutions and shipped (``grade expected --public-only``'s
format), so the release grades without solutions.  In the release, ``grade ex03`` runs the public
tests and its table says that the hidden tests run only on the course autograder, with their
points counted as not earned: passing the public tests never looks like full marks.

Before writing anything, every stub is graded with all the tests and compared with its
solution: a stub that scores points, or holds a line of its solution's answer
(``grader.publish.leaks``), stops the release (``UnsafeStubs``, one sentence per exercise);
there is no way to force it.  After writing, the builder checks its own output: no hidden
test's name or feedback and no line of a solution's answer may appear in any file of DIR.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from grader.course import catalog
from grader.course.catalog import LoadedExercise, find_submission
from grader.course.folder import Course
from grader.i18n import N_, _, language
from grader.judge.reference import from_solutions, write_shipped
from grader.judge.replayed import write_references
from grader.publish.core_cut import CUT_FROM, cut_core
from grader.publish.leaks import copied_lines, skeleton, solution_only
from grader.publish.localize import hidden_texts, ship_catalogue, stub_source, translations
from grader.publish.notebooks import write_notebooks
from grader.publish.public_tests import public_source
from grader.publish.rules import rules_section
from grader.publish.shipping import copy_project, project_files, project_texts
from grader.spec.build_checks import STAGE_IDS

MIN_LEAK_TEXT = 24  # shorter strings could appear in a stub by coincidence


class ReleaseError(Exception):
    """The release cannot be built; one line for the user."""


class UnsafeStubs(Exception):
    """Some stubs are not safe to hand out: one sentence per offending exercise."""

    def __init__(self, sentences: list[str]) -> None:
        super().__init__("\n".join(sentences))
        self.sentences = sentences


README = N_("""# micrograph: your exercises

{intro} Each exercise is a file in `exercises/`: read its docstring, then fill in every
function that still raises `NotImplementedError`.

## Set up

```bash
python3 -m venv .venv && .venv/bin/pip install -e .
source .venv/bin/activate
```

On Windows, in PowerShell:

```powershell
py -m venv .venv; .venv\\Scripts\\pip install -e .
.venv\\Scripts\\Activate.ps1
```

## Check your work

Run `grade` from this folder (the one with `exercises/`), with the virtual environment active:

```bash
grade {example}              # one exercise (also: grade {number}): a table of tests, feedback, a diagram
grade                   # every exercise, then a summary
grade {example} --json       # the same as JSON, for scripts ("graded_here": the public tests' score)
grade list              # the exercises, their points, how many tests are public and hidden
```

`grade {example}` runs the public tests of exercise {number} on `exercises/{example}_*.py` in a sandbox and
prints one row per test: its points, its status (`passed`, `failed`, `error`, `timeout`) and,
for a test you missed, feedback about what your code did. Diagrams of the graph your code
builds go to `grades/exNN/graph.svg`; open them in a browser.

## Reading feedback

A test you missed says what your code did differently: which of your functions, which call,
what differs (a number, a node's name, a `.grad` that backward did not write), never the
expected value. `error` means your code raised (the feedback names the exception), `timeout`
that it ran out of time, and an exercise whose file still raises `NotImplementedError` is one
you have not started. Under the table, notes say what was not graded, and what your code
printed is shown (its first lines, and how many lines it printed in all).

{diagrams}## In a notebook (Jupyter, VS Code, Colab)

{notebooks}In a notebook whose Python has this folder installed (the set-up above), make this the
last line of a cell:

```python
import grader
grader.check("{example}")
```

It grades exercise {number} with the same public tests, in the same sandbox, as `grade {example}`, and shows
the table, the feedback and the diagram under the cell; {page}. It grades the code cells you ran in this
notebook, in the order you ran them, when they define the exercise's functions; else
`exercises/{example}_*.py` (start the notebook in this folder or a folder below it). A cell that
raised when you ran it raises again when graded: run *Restart & Run All* first. Feedback names a
line as `In [7], line 2`: `In [7]` is the number Jupyter and Colab show left of the cell once it
ran, and lines count from 1 in each cell. In Colab, upload this folder as a zip and run
`!pip install -q micrograph.zip` (your zip's name) in a first cell.

## What the grade here means

Each exercise has **public tests**, which run here, and **hidden tests**, which run only on the
course autograder, on inputs you have not seen. Here they show as one row, such as
`4 hidden tests: graded on the course autograder`, with the status `autograder`, and the total
reads `public 7/7`: the public tests are all this folder can grade. The exit status is 0 when
every public test passes. Write code that is right for any input, not for the numbers in the
public tests: the table says what share of each exercise's points the hidden tests are worth.

| exercise | file | topic | public points | hidden points (share) |
|---|---|---|---|---|
{table}

{rules}## Hand in

Hand in your `exercises/exNN_<topic>.py` files, or notebooks named `exNN_<topic>.ipynb`, the way your course asks (upload the files,
a zip, or your repository: the autograder finds them by name, in any folder). In a notebook handed in, the code cells run from the
top as *Run All* runs them (a cell that raises stops them all; of a function defined in two cells, the lower one is graded), as
plain Python with micrograph and the standard library only. A statement starting with `%` or `!` (not a line inside brackets or a
string) and help lines (`Value?`) are not graded; the statement after `%time`, `%timeit` or `%prun`, and a `%%time`, `%%timeit` or
`%%prun` cell (with its `%%timeit` setup line), run once; a name given what a magic or `!` gives (`t = %timeit -o f()`,
`files = !ls`) is still bound: `%time`'s value, an empty list for `!`, None for any other magic, and the feedback says where Jupyter
gave something else; `grader.check(...)` does nothing; `display(...)` prints the repr of what it is given; `Markdown`, `HTML`,
`Latex`, `Math` hold their text; `clear_output()` does nothing; any other IPython name (`get_ipython()`, `Audio`) is not there, and
the feedback names it. Feedback names a line as `cell 4 (In [7]), line 2`: the fourth cell from the top, Markdown included.

## 中文

Everything `grade` says exists in Chinese: the tables, the feedback, the diagrams' labels, the
backward page, the help. Ask for it with `--lang zh` (`grade {example} --lang zh`, `grade --lang zh
--help`), for every command with the environment variable `MICROGRAPH_LANG=zh`, and in a
notebook with `grader.check("{example}", lang="zh")`; a Chinese locale (`LANG=zh_CN.UTF-8`) chooses it
too. PyTorch's own error texts stay English: search for them as they are.
""")
INTRO_ENGINE = N_("A small autograd engine that behaves like PyTorch's, and exercises that take its "
                  "computational graph apart.")
INTRO_BUILD = N_("Exercises in which you write a small autograd engine of your own, stage by stage, "
                 "checked against what PyTorch does.")
INTRO_BOTH = N_("A small autograd engine that behaves like PyTorch's, exercises that take its "
                "computational graph apart, and a track (ex16-ex22) in which you write an engine of "
                "your own, stage by stage, checked against what PyTorch does.")
DIAGRAMS_ENGINE = N_("""## The diagrams and the backward page

`grades/exNN/graph.svg` is the computational graph your code built, as the documents draw it:
leaves at the bottom, the output at the top, every value with its data and grad, every op with
its `grad_fn` name. Light blue: leaves that require grad; green: outputs; grey: ops; white:
non-leaves; yellow: non-leaves that `retain_grad()`; dashed grey: values that do not require
grad. A non-leaf's grad that was not kept reads *grad None*, never 0. When a public test's graph
differs from the statement's, `grades/exNN/difference.svg` marks the first node where yours
parts from it.

`grades/exNN/backward.html` is the backward pass step by step: open it in a browser and use
next / previous / play, the slider or the arrow keys. The running node is outlined in orange,
gradients appear on the edges they flow along, `grad` lines fill in as backward writes them, and
an op's saved values grey out when backward frees them. The page is one file: nothing is fetched.
""")
DIAGRAMS_BUILD = N_("""## The diagrams{of_the_track}

`grades/exNN/graph.svg` is the graph your engine recorded for the documents' program
`y = (x + w) * (w + 1)`, read only through what PyTorch shows: `grad_fn`, `next_functions`,
`name()`, an `AccumulateGrad` node's `variable`, `data` and `grad`. So it shows the op names, the
edges, and the data and grad of the values the program names; another intermediate reads
*data ?*, and nothing is drawn saved, freed or versioned.

Beside it, the same program runs on the grader's own engine, which follows PyTorch (in a
release of ex16-ex22 alone, that run was made when the release was built and came with it),
and a note under the table says which of these the grader drew.
`grades/exNN/difference.svg`, when your graph's shape differs from PyTorch's: the first node
that differs has a thick blue border. `grades/exNN/backward_replayed.html`, from ex17 on, once
your graph has PyTorch's nodes, edges and numbers: PyTorch's backward through that graph, step
by step, replayed by that engine. It is the order your engine must follow, not a record of
what yours did; before your numbers are PyTorch's it is not drawn, since its numbers would be
the answers.

""")
PAGE_ENGINE = N_("the backward page opens under the diagram, at *watch this backward run, step by step* "
                 "(drag its lower right corner to make it taller)")
PAGE_BUILD = N_("once drawn, the replayed backward page opens under the diagram, at *PyTorch's backward "
                "through your graph, replayed step by step* (drag its lower right corner to make it taller)")
EXAMPLE = "ex03"  # the guides' running example, used by the README when the release holds it
OF_THE_TRACK = N_(" of the build track (ex16-ex22)")
NOTEBOOKS = N_("""`notebooks/` holds one notebook per exercise (such as `notebooks/{example}`): the
statement, the code to fill in, and a last cell that checks it. Open them in Jupyter
(`pip install notebook`, then `jupyter notebook notebooks`), in VS Code, or upload one to Colab.

""")


def student_readme(exercises: list[LoadedExercise], notebooks: bool) -> str:
    """The student's README; with ``notebooks``, it says where they are.  Its examples use ex03
    (the guides' example) or, in a release without it, the release's first exercise, and its pictures are those of the release's exercises: micrograph's
    engine drawn, or a student's own engine (the build track), or both."""
    rows = []
    for ex in exercises:
        spec = ex.spec
        public = sum(t.points for t in spec.tests if t.public)
        hidden = spec.max_score - public
        share = round(100 * hidden / spec.max_score) if spec.max_score else 0
        rows.append(f"| {spec.id} | `exercises/{spec.module}.py` | {_(spec.title)} | "
                    f"{public:g} | {hidden:g} ({share}%) |")
    example = f"{exercises[0].spec.module}.ipynb" if exercises else "ex01_graph.ipynb"
    where = _(NOTEBOOKS, example=example) if notebooks else ""
    ids = [ex.spec.id for ex in exercises]
    first = EXAMPLE if EXAMPLE in ids else ids[0] if ids else "ex01"
    builds = [ex.spec.id in STAGE_IDS for ex in exercises]
    only_build, some_build = bool(builds) and all(builds), any(builds)
    intro = INTRO_BUILD if only_build else INTRO_BOTH if some_build else INTRO_ENGINE
    diagrams = "" if only_build else _(DIAGRAMS_ENGINE) + "\n"  # a blank line before the next section
    diagrams += _(DIAGRAMS_BUILD, of_the_track="" if only_build else _(OF_THE_TRACK)) if some_build else ""
    return _(README, table="\n".join(rows), notebooks=where, intro=_(intro), diagrams=diagrams,
             rules=rules_section(),
             page=_(PAGE_BUILD if only_build else PAGE_ENGINE), example=first, number=int(first[2:]))


def build_only(exercises: list[LoadedExercise]) -> bool:
    """Whether the release holds build-track stages alone, whose engine is the student's to write."""
    return bool(exercises) and all(ex.spec.id in STAGE_IDS for ex in exercises)


def shipped_engine(cut: bool) -> list[str]:
    """The engine's and grader's texts a student gets anyway; with ``cut``, without the core
    modules a build-only release ships cut, whose lines are then the answers they were."""
    left_out = {Path("micrograph", f"{module}.py") for module in CUT_FROM} if cut else set()
    return [path.read_bytes().decode("utf-8", "replace")
            for relative, path in project_files() if relative not in left_out]


def _texts(folder: Path) -> list[tuple[Path, str]]:
    texts = []
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            texts.append((path, path.read_bytes().decode("utf-8", "replace")))
    return texts


def secret_strings(exercises: list[tuple[LoadedExercise, Path, Path]], engine: list[str],
                   public_modules: list[str]) -> list[str]:
    """Texts that must never ship, for (exercise, solution, stub) triples, each long enough
    not to occur by chance: hidden tests' names and feedback (unless a stub, a public test or
    the engine and grader say the same), and the lines of a solution's answer, which the
    stub's skeleton does not have (unless a public test module or the engine has them too:
    the engine implements what some exercises rebuild)."""
    hidden, solution_lines, stubs, public_words = [], [], [], []
    skeletons: list[str] = []
    for ex, solution, stub in exercises:
        stubs.append(stub.read_text(encoding="utf-8"))
        for test in ex.spec.tests:
            texts = [test.name, test.feedback, *test.key_feedback.values()]
            (public_words if test.public else hidden).extend(texts)
        answer = solution.read_text(encoding="utf-8")
        solution_lines += solution_only(answer, stubs[-1])
        skeletons.append("\n".join(skeleton(stubs[-1], answer)))

    def secret(text: str, known: list[str]) -> bool:
        return len(text) >= MIN_LEAK_TEXT and not any(text in k for k in known)

    return ([t for t in dict.fromkeys(hidden) if secret(t, stubs + public_words + engine)]
            + [t for t in dict.fromkeys(solution_lines)
               if secret(t, skeletons + public_modules + engine)])


def check_no_leak(folder: Path, secrets: list[str]) -> None:
    """Raise ReleaseError naming the first secret found in a file under ``folder``."""
    for path, text in _texts(folder):
        for secret in secrets:
            if secret in text:
                raise ReleaseError(_("{path} contains hidden text ({secret}): not releasing",
                                     path=path, secret=repr(secret[:60])))


def check_stubs(course: Course, exercises: list[LoadedExercise],
                found: dict[str, tuple[Path, Path]]) -> None:
    """Grade every stub with all its tests and compare it with its solution; raise UnsafeStubs
    unless each scores zero and holds no line of its solution's answer."""
    results = course.grade_spread([(ex, found[ex.spec.id][1], None) for ex in exercises])
    engine = project_texts()
    sentences = []
    for ex, result in zip(exercises, results):
        solution, stub = found[ex.spec.id]
        shown = course.display(stub)
        copied = copied_lines(stub.read_text(encoding="utf-8"),
                              solution.read_text(encoding="utf-8"), engine)
        scored = result.score != 0
        fields = {"id": ex.spec.id, "file": shown, "points": f"{result.score:g}/{result.max_score:g}",
                  "count": len(copied), "line": repr(copied[0]) if copied else ""}
        if scored and copied:
            sentences.append(_.n("{id}: {file} scores {points} and has {count} line of its solution (such as "
                                 "{line}): put the untouched stub back.",
                                 "{id}: {file} scores {points} and has {count} lines of its solution (such as "
                                 "{line}): put the untouched stub back.", len(copied), **fields))
        elif scored:
            sentences.append(_("{id}: {file} scores {points} where an untouched stub scores 0: put the "
                               "untouched stub back.", **fields))
        elif copied:
            sentences.append(_.n("{id}: {file} has {count} line of its solution (such as {line}): put the "
                                 "untouched stub back.",
                                 "{id}: {file} has {count} lines of its solution (such as {line}): put the "
                                 "untouched stub back.", len(copied), **fields))
    if sentences:
        raise UnsafeStubs(sentences)


def build_release(course: Course, exercises: list[LoadedExercise], out: Path, *,
                  notebooks: bool = False) -> list[str]:
    """Write the release into ``out`` (absent or empty); one line per exercise for the user.
    ``notebooks``: also ``notebooks/exNN_<topic>.ipynb`` (``grader.publish.notebooks``)."""
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise ReleaseError(_("{path} exists and is not empty: choose a new folder", path=out))
    found = {}
    for ex in exercises:
        solution = find_submission(course.solutions_dir, ex.spec)
        stub = find_submission(course.exercises_dir, ex.spec)
        if solution is None or stub is None:
            missing = _("solution") if solution is None else _("stub")
            raise ReleaseError(_("no {missing} for {id} ({file})", missing=missing, id=ex.spec.id,
                                 file=f"{ex.spec.module}.py"))
        found[ex.spec.id] = (solution, stub)
    check_stubs(course, exercises, found)
    out.mkdir(parents=True, exist_ok=True)
    try:
        lines = _write_release(course, exercises, found, out, notebooks)
        if notebooks:
            written = write_notebooks(out, exercises)
            lines.append(_("notebooks: {paths}", paths=", ".join(written)))
        public_modules = [p.read_text(encoding="utf-8")
                          for p in (out / "grader" / "exercises").glob("ex*.py")]
        engine = shipped_engine(build_only(exercises))
        secrets = secret_strings([(ex, *found[ex.spec.id]) for ex in exercises], engine,
                                 public_modules)
        check_no_leak(out, secrets + translations(hidden_texts(exercises), "zh"))
    except BaseException:
        shutil.rmtree(out, ignore_errors=True)
        raise
    return lines


def _public_module(ex: LoadedExercise, tests_dir: Path) -> LoadedExercise:
    """``ex``'s public tests, written into ``tests_dir`` and loaded from there (the course's
    own module stays the one imported under its name)."""
    (tests_dir / f"{ex.spec.id}.py").write_text(public_source(ex, placeholder=True), encoding="utf-8")
    previous = sys.modules.get(ex.module_name)
    try:
        return catalog.load(ex.spec.id, tests_dir)
    finally:
        if previous is not None:
            sys.modules[ex.module_name] = previous


def _write_release(course: Course, exercises: list[LoadedExercise],
                   found: dict[str, tuple[Path, Path]], out: Path, notebooks: bool) -> list[str]:
    copy_project(out)
    if build_only(exercises):
        cut_core(out / "micrograph")
    ship_catalogue(out / "grader", hidden_texts(exercises), language())
    tests_dir = out / "grader" / "exercises"
    expected_dir = tests_dir / "expected"
    lines = []
    publics = [_public_module(ex, tests_dir) for ex in exercises]
    solved = from_solutions([(public, found[public.spec.id][0]) for public in publics],
                            course.cache_dir, spawn=course.spawn)
    for ex, public, answers in zip(exercises, publics, solved):
        spec = ex.spec
        stub = found[spec.id][1]
        broken = {k: v for k, v in answers.broken.items() if k in {t.name for t in spec.tests}}
        if broken:
            raise ReleaseError(_("{id}: the solution fails public tests: {broken}", id=spec.id, broken=broken))
        write_shipped(public, answers, expected_dir, public_only=True)
        (out / "exercises").mkdir(exist_ok=True)
        (out / "exercises" / stub.name).write_text(
            stub_source(stub, course.exercises_dir, language()), encoding="utf-8")
        public_tests = [t for t in spec.tests if t.public]
        lines.append(_.n("{id}: {count} public test ({points} of {total} points), stub {stub}",
                         "{id}: {count} public tests ({points} of {total} points), stub {stub}",
                         len(public_tests), id=spec.id, count=len(public_tests),
                         points=f"{sum(t.points for t in public_tests):g}",
                         total=f"{spec.max_score:g}", stub=stub.name))
    if build_only(exercises):
        write_references([ex.spec.id for ex in exercises], expected_dir)
    # Loading the public modules above compiled them into tests_dir/__pycache__ (where Python
    # writes bytecode): a release ships sources only, as copy_project does.
    shutil.rmtree(tests_dir / "__pycache__", ignore_errors=True)
    (out / "README.md").write_text(student_readme(exercises, notebooks), encoding="utf-8")
    return lines
