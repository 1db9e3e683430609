"""Record PyTorch's observations of every parity program into ``expected/``.

Run with the torch venv (the only place torch is imported)::

    ~/.venvs/torch-ref/bin/python tests/parity/record.py [program ...]

It rewrites ``expected/<program>.json`` for the named programs (default: all),
and refuses to write a program that aborted or recorded something that has no
stable text, because such an expectation could never be met honestly.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from parity.backends import TorchBackend  # noqa: E402
from parity.harness import ABORTED, dump_entries, expected_path, program_names, run_program  # noqa: E402


def main(argv: list[str]) -> int:
    backend = TorchBackend()
    names = argv or program_names()
    unknown = sorted(set(names) - set(program_names()))
    if unknown:
        print(f"record.py: no such program: {', '.join(unknown)}", file=sys.stderr)
        return 2
    failed = 0
    for name in names:
        entries = run_program(name, backend)
        bad = [f"{k} = {v}" for k, v in entries if k == ABORTED or v.startswith("<unrecordable")]
        if bad:
            print(f"{name}: not recorded: {'; '.join(bad)}", file=sys.stderr)
            failed += 1
            continue
        expected_path(name).write_text(dump_entries(entries))
        print(f"{name}: {len(entries)} observations")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
