"""``grade``'s console script: starts the isolation probe, then hands over to ``grader.cli.app``.

This module imports nothing of the grader but ``probing``, ``warm`` and ``renderer`` (and the
isolation module they need), so the probe's child starts before the commands, the judge and
click load (``grader.cli.probing`` says why), and for ``grade ex03`` so do the submission's
child, which imports what it trusts while the probe runs and waits for its request, which
carries the isolation the probe decided (``grader.sandbox.warm``), and the renderer's worker,
whose imports are then done when the child's diagram arrives (``grader.judge.diagram.Warming``
draws it while the tests run).

Once the command has ended, ``grade`` leaves without the interpreter's shutdown (``_leave``).
"""

from __future__ import annotations

import atexit
import os
import sys

from grader.cli import probing

_ended: list[int] = []  # the exit status the command ended with, once it has ended


def main() -> None:
    """The console script (its process ends when the command has: ``_leave``)."""
    atexit.register(_leave)  # the first registered runs last, after every other exit function
    args = sys.argv[1:]
    if probing.needed(args):
        probing.start()
        from grader.sandbox import warm  # after the probe started: its imports do not delay it

        if warm.one_exercise(args):
            warm.start()
            from grader.sandbox import renderer

            renderer.start()  # unused (no diagram to draw), it is killed at exit
    from grader.cli.app import main as run_grade

    try:
        run_grade()
    except SystemExit as done:
        if done.code is None or type(done.code) is int:
            _ended.append(done.code or 0)
        raise
    _ended.append(0)


def _leave() -> None:
    """The last exit function: once the threads are joined and the other exit functions have
    run (the children killed, their folders removed), end the process without freeing every
    module loaded, which cost ``grade ex03`` about 38 million instructions after its output.
    A command that did not end with a status (an uncaught exception, a message to print) and an
    output that cannot be flushed take the interpreter's own way out."""
    if not _ended:
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(_ended[0])
