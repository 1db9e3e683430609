"""``python -m benchmarks``: micrograph's speed against micrograd 0.1.0, beside the engine's targets.

Both engines run every workload in this one process, taking turns (``turns.py``);
instruction counts come from callgrind children (``callgrind.py``).  torch is
never imported here: its objects would slow every full collection.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import sys

from benchmarks import callgrind, workloads
from benchmarks.engines import available
from benchmarks.report import REFERENCE, growth_table, memory_table, times_table
from benchmarks.turns import take_turns
from benchmarks.workloads import TRAINING_ROWS, WORKLOADS

ROUNDS, QUICK_ROUNDS = 7, 3
# Under callgrind the workloads take 15-40 times longer: chain and sum about a minute of CPU per
# engine, every workload about 8 minutes for both engines; the others are counted when asked for.
DEFAULT_CALLGRIND = f"{workloads.CHAIN},{workloads.SUM}"


def _workloads(parser: argparse.ArgumentParser, listed: str, keys: list[str]) -> list[str]:
    """The workload keys of a comma-separated list, 'all' or 'none', in the report's order."""
    if listed in ("all", "none"):
        return keys if listed == "all" else []
    named = listed.split(",")
    unknown = sorted(set(named) - set(keys))
    if unknown:
        parser.error(f"unknown workload(s) {', '.join(unknown)}; choose from {', '.join(keys)}, all or none")
    return [k for k in keys if k in named]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__)
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_ROUNDS} rounds instead of {ROUNDS}")
    parser.add_argument("--rounds", type=int, help=f"rounds of turns (default {ROUNDS}, {QUICK_ROUNDS} with --quick)")
    parser.add_argument("--only", help="comma-separated workloads: " + ",".join(w.key for w in WORKLOADS))
    parser.add_argument("--callgrind", default=DEFAULT_CALLGRIND, metavar="WORKLOADS",
                        help=f"workloads whose instructions to count (default {DEFAULT_CALLGRIND}), 'all' or 'none'")
    args = parser.parse_args(argv)
    keys = [w.key for w in WORKLOADS]
    wanted = _workloads(parser, args.only or "all", keys)
    counted = [k for k in _workloads(parser, args.callgrind, keys) if k in wanted]
    rounds = args.rounds or (QUICK_ROUNDS if args.quick else ROUNDS)
    if rounds < 1:
        parser.error("--rounds must be at least 1")
    engines = available()
    names = [e.name for e in engines]
    load = os.getloadavg()[0]

    measured = []
    for workload in WORKLOADS:
        if workload.key in wanted:
            print(f"timing {workload.key} ...", file=sys.stderr, flush=True)
            measured.append((workload, take_turns(engines, workload, rounds)))
    memory = {e.name: workloads.bytes_per_node(e) for e in engines}

    if not counted:
        counts = callgrind.Instructions({}, f"not counted (--callgrind {args.callgrind})")
    else:
        print(f"counting instructions under callgrind: {', '.join(counted)} (minutes) ...", file=sys.stderr, flush=True)
        counts = callgrind.count(names, counted, shutil.which("valgrind"))

    command = " ".join(["python -m benchmarks", *(argv if argv is not None else sys.argv[1:])])
    out = [
        "## Engine speed\n",
        f"`{command}`: Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores, "
        f"load average {load:.1f} at the start. Engines: {', '.join(names)}, in one process, taking turns "
        f"({rounds} rounds), `gc.collect()` before each run, CPU time of the process; "
        + ("torch not imported.\n" if "torch" not in sys.modules else "TORCH WAS IMPORTED: these times are not valid.\n"),
    ]
    if REFERENCE not in names:
        out.append(f"{REFERENCE} is not installed (`pip install -e '.[bench]'`): no ratios.\n")
    out.append(times_table(measured, counts, rounds))
    training = next((turns for w, turns in measured if w.key == workloads.TRAINING), None)
    if training is not None:
        out.append(f"nn.MLP training step's backward from {TRAINING_ROWS[0]} to {TRAINING_ROWS[-1]} rows:\n\n"
                   + growth_table(training, counts))
    out.append("Memory:\n\n" + memory_table(memory))
    if counts.unavailable:
        out.append(f"Instruction counts: {counts.unavailable}.\n")
    elif counted != wanted:
        out.append(f"Instruction counts (valgrind --tool=callgrind) of {', '.join(counted)} only: "
                   "`--callgrind all` counts every workload (about 8 minutes of CPU).\n")
    print("\n".join(out))


if __name__ == "__main__":
    main()
