"""The grader's figures (``python -m benchmarks.grading``; ``--quick``: 40 submissions): ``grade all``
on the solutions, and a batch over a generated class, in submissions per minute and peak memory.

The class mixes correct submissions (the solutions), partly wrong ones (a whole-file wrong
answer from tests/exercises/gallery/exNN/, an untouched stub or a missing file for one to three
exercises) and hostile ones (one exercise that loops, sleeps, floods stdout, allocates without
bound, exits, forks or snoops for the hidden tests), handed in as folders, zips and nested zips.
Everything runs through the ``grade`` command in a child process, as an instructor would run it;
memory is the resident size of that process and all its descendants, sampled every 200 ms.
"""

from __future__ import annotations

import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GRADE = [sys.executable, "-c", "from grader.cli.app import main; main()"]

HOSTILE = {
    "loop": "while True:\n    pass\n",
    "sleep": "import time\ntime.sleep(600)\n",
    "flood": "while True:\n    print('spam' * 250)\n",
    "memory": "hog = bytearray(1 << 36)\n",
    "exit": "import os\nos._exit(3)\n",
    "fork": "import os\nos.fork()\n",
    "snoop": ("import os, micrograph\n"
              "home = os.path.dirname(os.path.dirname(micrograph.__file__))\n"
              "for name in ('grader/exercises/ex01.py', 'solutions/ex01_graph.py'):\n"
              "    try:\n        print(open(os.path.join(home, name)).read())\n"
              "    except OSError as e:\n        print(name, e)\n"),
}


def _exercises() -> dict[str, tuple[str, Path, Path]]:
    """id -> (module, solution, stub) for every exercise of the course."""
    from grader.course import catalog

    found = {}
    for exercise_id in catalog.exercise_ids():
        module = catalog.load(exercise_id).spec.module
        found[exercise_id] = (module, ROOT / "solutions" / f"{module}.py",
                              ROOT / "exercises" / f"{module}.py")
    return found


def make_class(folder: Path, n: int, seed: int = 2024) -> Counter[str]:
    """Write ``n`` student entries into ``folder``; returns how many of each kind."""
    rng = random.Random(seed)
    exercises = _exercises()
    wrong = [p for p in sorted((ROOT / "tests" / "exercises" / "gallery").glob("ex*/*.py"))
             if p.read_text(encoding="utf-8").startswith('"""Wrong')]  # whole files, not edits
    kinds: Counter[str] = Counter()
    for i in range(n):
        files = {f"{m}.py": s.read_text() for m, s, _ in exercises.values()}
        roll = rng.random()
        if roll < 0.55:
            kind = "correct"
        elif roll < 0.85:
            kind = "partly wrong"
            for exercise_id in rng.sample(sorted(exercises), rng.randint(1, 3)):
                module, _, stub = exercises[exercise_id]
                variants = [w for w in wrong if w.parent.name == exercise_id]
                choice = rng.choice(["wrong", "wrong", "stub", "missing"])
                if choice == "wrong" and variants:
                    files[f"{module}.py"] = rng.choice(variants).read_text()
                elif choice == "missing":
                    del files[f"{module}.py"]
                else:
                    files[f"{module}.py"] = stub.read_text()
        else:
            attack = rng.choice(sorted(HOSTILE))
            kind = f"hostile ({attack})"
            module = exercises[rng.choice(sorted(exercises))][0]
            files[f"{module}.py"] += "\n" + HOSTILE[attack]
        kinds[kind] += 1
        _write_entry(folder, f"student{i:04d}", files, rng.choice(["folder", "zip", "nested"]))
    return kinds


def _write_entry(folder: Path, name: str, files: dict[str, str], form: str) -> None:
    if form == "folder":
        (folder / name).mkdir()
        for file, text in files.items():
            (folder / name / file).write_text(text)
        return
    prefix = "homework/exercises/" if form == "nested" else ""
    with zipfile.ZipFile(folder / f"{name}.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        for file, text in files.items():
            archive.writestr(prefix + file, text)


# --- measuring ----------------------------------------------------------------------------


def _tree_rss(pid: int) -> int:
    """Resident bytes of ``pid`` and all its descendants (Linux /proc)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as handle:
                    fields = handle.read().rsplit(b")", 1)[1].split()
                parents[int(entry)] = int(fields[1])
            except (OSError, IndexError, ValueError):
                continue
    tree, frontier = {pid}, [pid]
    while frontier:
        parent = frontier.pop()
        children = [p for p, pp in parents.items() if pp == parent and p not in tree]
        tree.update(children)
        frontier += children
    total = 0
    for member in tree:
        try:
            with open(f"/proc/{member}/statm", "rb") as handle:
                total += int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, IndexError, ValueError):
            continue
    return total


def _cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run(args: list[str], env: dict[str, str], cwd: Path) -> tuple[float, int, str, float]:
    """(wall seconds, peak tree RSS in bytes, stdout, CPU seconds of the whole tree) of one
    ``grade`` command; CPU time does not depend on what else the machine is doing."""
    peak = 0
    cpu = _cpu_of_children()
    start = time.perf_counter()
    proc = subprocess.Popen([*GRADE, *args], cwd=cwd, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, _tree_rss(proc.pid))
            done.wait(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    out, _ = proc.communicate()
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"grade {' '.join(args)} exited with {proc.returncode}")
    return wall, peak, out, _cpu_of_children() - cpu


def grader_figures(quick: bool) -> str:
    """Markdown: ``grade all`` on the solutions, then a batch of generated submissions."""
    from grader.course.batch import default_jobs

    n = 40 if quick else 300
    jobs = default_jobs()
    with tempfile.TemporaryDirectory(prefix="grade-bench-") as tmp:
        work = Path(tmp)
        env = {**os.environ, "GRADE_CACHE_DIR": str(work / "cache")}
        cold = _run(["all", "--submission", "solutions", "--out", str(work / "g")], env, ROOT)[0]
        warm, warm_peak, _, warm_cpu = _run(["all", "--submission", "solutions", "--out",
                                             str(work / "g")], env, ROOT)
        classroom = work / "class"
        classroom.mkdir()
        kinds = make_class(classroom, n)
        out = work / "out"
        wall, peak, summary, cpu = _run(["batch", str(classroom), "--out", str(out)], env, ROOT)
        rerun = _run(["batch", str(classroom), "--out", str(out)], env, ROOT)[0]
        report = (out / "report.html").stat().st_size
        per_student = sum(f.stat().st_size for f in out.rglob("*") if f.is_file()) / n
        shutil.rmtree(out, ignore_errors=True)
    exercises = len(_exercises())
    cores = os.cpu_count() or 1
    mix = ", ".join(f"{count} {kind}" for kind, count in sorted(kinds.items()))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (
        f"\n### grader\n\n"
        f"`grade all` on the solutions ({exercises} exercises, one sandboxed child each, "
        f"diagrams drawn): **{warm:.2f} s** wall, {warm_cpu:.2f} s of CPU, with the expected "
        f"answers cached ({cold:.2f} s on a cold cache, which also runs every solution); "
        f"peak memory {warm_peak / 2**20:.0f} MiB.\n\n"
        f"`grade batch` over {n} generated submissions × {exercises} exercises "
        f"({jobs} children at a time on {cores} cores; {mix}): **{wall:.1f} s**, "
        f"i.e. **{n / wall * 60:.0f} submissions per minute**; **{cpu / n:.2f} s of CPU per "
        f"submission** (all processes), i.e. {60 * cores * n / cpu:.0f} per minute on "
        f"{cores} idle cores; peak memory of the whole process tree **{peak / 2**20:.0f} MiB**; "
        f"report.html {report / 2**20:.1f} MiB, {per_student / 1024:.0f} KiB on disk per "
        f"student ({summary.splitlines()[0]}). Rerun with nothing changed: {rerun:.2f} s. "
        f"Load average at the end: {load:.1f} (the machine is shared).\n"
    )


if __name__ == "__main__":
    print(grader_figures(quick="--quick" in sys.argv))
