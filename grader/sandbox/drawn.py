"""Diagrams already drawn in this process, replayed instead of drawn again.

In a class, every correct submission of an exercise draws the same graph, and its backward
page is the same page: the renderer worker would lay out the same DOT source again for each
student (about 0.4 s of CPU per student over fifteen exercises).  A request's answer depends
only on what it asks (the graph or trace, stem, formats, title, time limit) and on the worker's
setting (the variables it reads its language from, the PATH it finds ``dot`` on), never on the
folder it writes to; so the files the worker wrote are kept, keyed by a SHA-256 of the request
without its folder, and a request with the same key gets the same bytes written into its own
folder.  What a submission sends is untrusted: it is only ever part of the key, and a hit gives
exactly the files the worker made from identical input.
Only answers that succeeded are kept; the whole is capped at ``MAX_BYTES``, oldest out first.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from pathlib import Path
from typing import Any

MAX_BYTES = 32 << 20  # every drawing of a class of 15 exercises takes about 1 MiB


def key(fields: dict[str, Any], setting: str) -> str:
    """The request's identity: everything in it but the folder it writes to, and the worker's
    ``setting``."""
    asked = {name: value for name, value in fields.items() if name != "directory"}
    text = json.dumps([setting, asked], allow_nan=True)  # ASCII: json escapes the rest
    return hashlib.sha256(text.encode("ascii")).hexdigest()


class Drawn:
    """The files each answered request wrote, by ``key`` (not thread-safe: the caller locks)."""

    def __init__(self, max_bytes: int = MAX_BYTES) -> None:
        self._max_bytes = max_bytes
        self._bytes = 0
        self._files: OrderedDict[str, tuple[tuple[str, bytes], ...]] = OrderedDict()

    def keep(self, request: str, directory: Path, paths: list[str]) -> None:
        """Keep the files ``paths`` the worker just wrote into ``directory`` for ``request``
        (nothing if one is elsewhere or cannot be read: it is then simply drawn again)."""
        files = []
        try:
            for path in paths:
                written = Path(path)
                if written.parent != directory:
                    return
                files.append((written.name, written.read_bytes()))
        except OSError:
            return
        size = sum(len(data) for _, data in files)
        if size > self._max_bytes or request in self._files:
            return
        while self._bytes + size > self._max_bytes:
            _, dropped = self._files.popitem(last=False)
            self._bytes -= sum(len(data) for _, data in dropped)
        self._files[request] = tuple(files)
        self._bytes += size

    def replay(self, request: str, directory: Path, stale: tuple[str, ...]) -> list[str] | None:
        """Write the kept files of ``request`` into ``directory`` as the worker would (removing
        first the ``stale`` names it removes); their paths, or None if none are kept."""
        files = self._files.get(request)
        if files is None:
            return None
        self._files.move_to_end(request)
        directory.mkdir(parents=True, exist_ok=True)
        for name in stale:
            (directory / name).unlink(missing_ok=True)
        for name, data in files:
            (directory / name).write_bytes(data)
        return [str(directory / name) for name, _ in files]
