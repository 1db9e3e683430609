"""``grade``'s console script: starts the isolation probe, then hands over to ``grader.cli.app``.

This module imports nothing of the grader but ``probing`` (and the isolation module it needs),
so the probe's child starts before the commands, the judge and click load
(``grader.cli.probing`` says why).
"""

from __future__ import annotations

import sys

from grader.cli import probing


def main() -> None:
    if probing.needed(sys.argv[1:]):
        probing.start()
    from grader.cli.app import main as run_grade

    run_grade()
