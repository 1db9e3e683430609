"""Draw the diagrams a child described, in a worker process with limits of its own.

The graph a child sends is untrusted data: at the schema's limits (tens of thousands of nodes
and edges, long labels) building the dot source and running the renderer can take gigabytes
and minutes.  So the grader never renders in its own process: a worker (``python -I``, this
interpreter, running ``grader.sandbox.draw_worker``, started once per grader process and
restarted when it dies) takes one request at a time under ``RLIMIT_AS`` and ``RLIMIT_CPU``,
which the renderer it runs (``dot``) inherits, and each request has a wall-clock limit after which the worker is killed.  A diagram that
passes a limit is missing, with a note saying which limit; the grade never changes.
A request identical to one answered before (every correct submission of a class draws the same
graph) gets the files written then, without the worker (``grader.sandbox.drawn``).

Each request names the language its labels are drawn in, so a worker started before the
command chose its language (``grade ex03`` starts it before it loads its commands:
``grader.cli.entry``) draws in the language chosen since.  Importing this module loads neither
the engine nor the catalogues, for that early start.
"""

from __future__ import annotations

import atexit
import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from grader.sandbox import drawn, isolation, pipes


MEMORY = 1 << 30  # address space of the worker and of each renderer it runs
CPU_SECONDS = 600  # the worker's whole life; each request also has a wall-clock limit
_SLACK = 5.0  # seconds on top of the renderer's own timeout before the worker is killed
_WORKER = (f"import sys; sys.path[:0] = {isolation.ROOTS!r}; "
           f"from grader.sandbox.draw_worker import main; main({MEMORY}, {CPU_SECONDS})")


def _setting() -> str:
    """What a worker started now draws with besides its requests: the PATH it finds ``dot`` on
    (part of a replayed request's key)."""
    return os.environ.get("PATH", "")


def _language() -> str:
    """The language the caller draws in now (a notebook's ``check(lang=...)`` may change it)."""
    from micrograph.i18n import language  # the engine is loaded by the time anything is drawn

    return language()


class RenderFailed(Exception):
    """The diagram could not be drawn within the limits; the message says why (one line)."""


class Renderer:
    """One worker process, one request at a time (see the module doc)."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen[str] | None = None
        self._lock = threading.Lock()
        self._drawn = drawn.Drawn()
        self._setting = _setting()

    def _worker(self) -> subprocess.Popen[str]:
        setting = _setting()
        if self._proc is not None and self._proc.poll() is None and setting != self._setting:
            self.close()  # PATH changed since it started: another dot may be found
        if self._proc is None or self._proc.poll() is not None:
            self._setting = setting  # the worker's: it reads PATH once
            self._proc = subprocess.Popen([sys.executable, "-I", "-c", _WORKER], text=True,
                                          stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          **pipes.session_options())
        return self._proc

    def start(self) -> None:
        """Start the worker now, before its first request (see ``start`` below)."""
        with self._lock:
            self._worker()

    def close(self) -> None:
        """End the worker and reap it.  It is killed, not waited for: every answer it gave was
        read with its files written, and one started early for a diagram that did not come
        may still be importing."""
        if self._proc is not None:
            for stream in (self._proc.stdin, self._proc.stdout):
                if stream is not None:
                    stream.close()
            self._kill()

    def _kill(self) -> None:
        if self._proc is not None:
            pipes.kill(self._proc)
            self._proc = None

    def render(self, graph: dict[str, Any], directory: Path, stem: str,
               formats: tuple[str, ...], timeout: float) -> list[str]:
        """The paths written (``render_json``'s answer); raises RenderFailed."""
        stale = (f"{stem}.en.gv", *(f"{stem}.{fmt}" for fmt in formats))  # what render.write removes
        return self.ask({"graph": graph, "directory": str(directory), "stem": stem,
                         "formats": list(formats), "timeout": timeout}, timeout, stale)

    def ask(self, fields: dict[str, Any], timeout: float, stale: tuple[str, ...] = ()) -> list[str]:
        """The paths written for one request (by the worker, or replayed: see the module doc);
        raises RenderFailed.  ``stale``: the names in the folder the worker removes first."""
        directory = Path(fields["directory"])
        fields = {**fields, "language": _language()}
        with self._lock:
            known = drawn.key(fields, _setting())  # what a worker draws with now (``_worker``)
            replayed = self._drawn.replay(known, directory, stale)
            if replayed is not None:
                return replayed
            # The worker keeps the folder it started in: a relative folder is sent absolute
            # (the grader's own folder may have changed since, as between tests).
            request = json.dumps({**fields, "directory": str(directory.absolute())}, allow_nan=True)
            proc = self._worker()
            assert proc.stdin is not None and proc.stdout is not None
            answer: list[str] = []
            timer = threading.Timer(timeout + _SLACK, self._kill)
            timer.start()
            try:
                proc.stdin.write(request + "\n")
                proc.stdin.flush()
                answer.append(proc.stdout.readline())
            except (OSError, ValueError):
                pass
            finally:
                timer.cancel()
            line = answer[0] if answer else ""
            if not line:
                self._kill()
                raise RenderFailed(f"the renderer passed its limits ({timeout + _SLACK:g} s, "
                                   f"{MEMORY >> 20} MiB)")
            data = json.loads(line)
            if "error" in data:
                raise RenderFailed(data["error"])
            paths = [str(directory / Path(p).name) for p in data["paths"]]  # as the folder was given
            self._drawn.keep(known, directory, paths)
        return paths


_shared = Renderer()
atexit.register(_shared.close)


def start() -> None:
    """Start this process's worker ahead of its first request: its start-up (an interpreter
    importing the drawing code) then overlaps with the submission's child instead of
    following it."""
    _shared.start()


def render(graph: dict[str, Any], directory: Path, stem: str, formats: tuple[str, ...],
           timeout: float) -> list[str]:
    """Render with this process's worker (started on first use)."""
    return _shared.render(graph, directory, stem, formats, timeout)


def render_trace(trace: dict[str, Any], directory: Path, stem: str, title: str, timeout: float) -> list[str]:
    """Write the backward trace page ``directory/stem.html`` with the worker (``BackwardTrace.save_html``)."""
    return _shared.ask({"trace": trace, "directory": str(directory), "stem": stem, "title": title,
                        "timeout": timeout}, timeout)
