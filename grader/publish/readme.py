"""The student's README in a release (``grader.publish.release``): how to set up, run ``grade``,
read its feedback and diagrams, use the notebooks, and hand in; its examples and pictures are
those of the exercises the release holds (micrograph's engine, the build track, or both).
"""

from __future__ import annotations

from grader.course.catalog import LoadedExercise
from grader.i18n import N_, _
from grader.publish.rules import rules_section
from grader.spec.build_checks import STAGE_IDS

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

Hand in your `exercises/exNN_<topic>.py` files, or notebooks named `exNN_<topic>.ipynb`, the way
your course asks (upload the files, a zip, or your repository: the autograder finds them by name, in
any folder). In a notebook handed in, the code cells run from the top as *Run All* runs them (a cell
that raises stops them all; of a function defined in two cells, the lower one is graded), as plain
Python with micrograph and the standard library only. A statement starting with `%` or `!` (not a
line inside brackets or a string) and help lines (`Value?`) are not graded; the statement after
`%time`, `%timeit` or `%prun`, and a `%%time`, `%%timeit` or `%%prun` cell (with its `%%timeit`
setup line), run once; a `%%writefile` cell whose file the notebook `%run`s runs where the cell is;
a name given what a magic or `!` gives (`t = %timeit -o f()`, `files = !ls`) is still bound:
`%time`'s value, one timed run for `%timeit -o`, an empty list for `!`, no output for a `%%capture`
cell's name, None for any other magic, and the feedback says where Jupyter gave something else;
`grader.check(...)` does nothing; `display(...)` prints the repr of what it is given; `Markdown`,
`HTML`, `Latex`, `Math` hold their text; `clear_output()` does nothing (each of them also as
`ipd.display(...)` after `import IPython.display as ipd`); a magic or `!` line
written as a call of `get_ipython()` with its text written out
(`get_ipython().run_line_magic('timeit', 'f()')`, `get_ipython().system('ls')`) is read as the
line it spells; any other IPython name (`get_ipython()`, `Audio`) is not there, and the feedback
names it. Feedback names a line as
`cell 4 (In [7]), line 2`: the fourth cell from the top, Markdown included.

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
differs from the statement's, `grades/exNN/difference.svg` marks where yours parts from it: of
the nodes where it differs, the one your code made first, the first you meet reading your code.

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
    (the guides' example) or, in a release without it, the release's first exercise, and its
    pictures are those of the release's exercises: micrograph's engine drawn, or a student's own
    engine (the build track), or both."""
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
