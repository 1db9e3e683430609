"""The renderer's worker process: draws the requests on its stdin, one JSON line each, and
answers each with one line, the paths written or the error (``grader.sandbox.renderer``
starts it, ``python -I``, and says why it is a process of its own).

It loads the drawing modules (``micrograph.viz.drawing`` and the ones it loads) without running
the ``__init__`` of ``micrograph`` and ``micrograph.viz`` (``load``): those import the whole
engine, about half of what the worker loaded before its first request, and drawing plain data
needs none of it.  The package objects are made from their own specs, so the submodules import
from the package's folder as usual.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import sys
from typing import Any

_PACKAGES = ("micrograph", "micrograph.viz")  # their __init__ imports the engine: not run here
_DRAWING = ("micrograph.i18n", "micrograph.viz.drawing", "micrograph.viz.trace_page",
            "micrograph.viz.trace_schema")  # what a request loads, loaded before the first


def main(memory: int, cpu_seconds: int) -> None:
    """Limit this process (``memory`` bytes of address space, ``cpu_seconds`` in all: the
    renderer it runs inherits them), load the drawing code, then serve until stdin closes."""
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds))
    except (ImportError, ValueError, OSError):
        pass  # no rlimits on this platform (Windows): the grader's wall-clock limit still holds
    reply = os.fdopen(os.dup(1), "w")
    sys.stdout = sys.stderr  # what the drawing code prints must not mix with the answers
    load()
    for line in sys.stdin:
        reply.write(json.dumps(answer(json.loads(line), memory)) + "\n")
        reply.flush()


def load() -> None:
    """Import the drawing code, none of the engine (see the module doc)."""
    for name in _PACKAGES:
        spec = importlib.util.find_spec(name)
        assert spec is not None, name
        sys.modules[name] = importlib.util.module_from_spec(spec)
    for name in _DRAWING:
        importlib.import_module(name)


def answer(request: dict[str, Any], memory: int) -> dict[str, Any]:
    """The answer to one request: ``{"paths": [...]}`` or ``{"error": "one line"}``."""
    from micrograph.i18n import using
    from micrograph.viz import drawing

    try:
        with using(request["language"]):
            if "trace" in request:  # the backward trace page: checked, then drawn
                page = os.path.join(request["directory"], request["stem"] + ".html")
                paths = [drawing.save_trace_json(request["trace"], page, request["title"],
                                                 request["timeout"])]
            else:
                paths = drawing.render_json(request["graph"], request["directory"], request["stem"],
                                            formats=tuple(request["formats"]), timeout=request["timeout"])
    except MemoryError:
        return {"error": f"the renderer needed more than {memory >> 20} MiB"}
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {str(exc)[:200]}"}
    return {"paths": [str(p) for p in paths]}
