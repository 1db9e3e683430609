"""Forgeries that keep the sentinel's flags from the relay: the honest wrong ex01 that first
moves the flag pipe out of the sentinel's way, then reaches for a frame by a computed name
(refused, and flagged: to the file in the pipe's place).

The flag pipe's descriptor is found among the worker's (the last pipe it writes), copied to
another number (``fcntl``'s ``F_DUPFD``: the pipe stays open, so the relay never sees it end)
and closed; the next file opened takes its number, and the sentinel writes there.  Closed with
``posix.close`` (``os``'s own, by another name: the parent reads it) or ``socket.close`` (which
the parent's reading does not know): the step's nonce, which the worker writes on the flag pipe
after each step, then never reaches the relay, and the run is flagged for the grader's pipes.
"""

from __future__ import annotations

from provenance_attacks import HONEST_WRONG, Forgery

from grader.sandbox.child.wire import Touch

_MOVED = '''
import fcntl, os, stat, sys
import {module}


def _writing_pipes():
    found = []
    for fd in range(3, 64):
        try:
            if (stat.S_ISFIFO(os.stat(fd).st_mode)
                    and fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE == os.O_WRONLY):
                found.append(fd)
        except OSError:
            pass
    return found


FLAGS = max(_writing_pipes())
KEPT = fcntl.fcntl(FLAGS, fcntl.F_DUPFD, 20)
{module}.close(FLAGS)
SINKS = [open("sink0", "w")]
while SINKS[-1].fileno() < FLAGS:
    SINKS.append(open("sink%d" % len(SINKS), "w"))
try:
    getattr(sys, "_get" + "frame")
except PermissionError:
    pass
'''
_HEAD = "import micrograph\nfrom micrograph import Value\n"
assert HONEST_WRONG.count(_HEAD) == 1

SUPPRESSED = [
    Forgery(f"the_flag_pipe_moved_by_{module}_close", Touch.WIRE.value,
            HONEST_WRONG.replace(_HEAD, _HEAD + _MOVED.format(module=module)), runtime=True)
    for module in ("posix", "socket")
]
