"""``grade``'s console script: starts the isolation probe, then hands over to ``grader.cli.app``.

This module imports nothing of the grader but ``probing``, ``warm`` and ``renderer`` (and the
isolation module they need), so the probe's child starts before the commands, the judge and
click load (``grader.cli.probing`` says why), and for ``grade ex03`` so do the submission's
child, which imports what it trusts while the probe runs and waits for its request, which
carries the isolation the probe decided (``grader.sandbox.warm``), and the renderer's worker,
whose imports are then done when the child's diagram arrives (``grader.judge.diagram.Warming``
draws it while the tests run).
"""

from __future__ import annotations

import sys

from grader.cli import probing


def main() -> None:
    args = sys.argv[1:]
    if probing.needed(args):
        probing.start()
        from grader.sandbox import warm  # after the probe started: its imports do not delay it

        if warm.one_exercise(args):
            warm.start()
            from grader.sandbox import renderer

            renderer.start()  # unused (no diagram to draw), it is killed at exit
    from grader.cli.app import main as run_grade

    run_grade()
