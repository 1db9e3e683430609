"""A submission that writes its own process's memory through ``/proc/self/mem``: where no
Landlock keeps a child out of ``/proc`` (an older kernel, a container profile that refuses it),
a worker that could open that file could rewrite any object of its process as ``ctypes`` would,
the probes' counters among them.  It reaches the file by a relative path from ``/proc/self``
(``os.chdir`` first), which names nothing the sentinel judges as outside the scratch folder:
only the kernel can refuse it, and does, because the worker is not dumpable (its ``/proc``
files belong to root).

``FORGER`` is the honest wrong ex01 (``provenance_attacks.HONEST_WRONG``: ``grad_by_paths``
asks the engine) whose ``hide`` puts the engine's pass count back where it was after the call,
in the closure of ``micrograph.observe``, by writing the cell's pointer: the call then shows no
backward pass.  It must earn no more than the honest wrong answer."""

from __future__ import annotations

from provenance_attacks import HONEST_WRONG

_UNHIDDEN = "def hide(run):\n    return run()\n"
_MEMORY = '''import os
import struct

from micrograph import observe

FUNCTION_CLOSURE, TUPLE_ITEMS, CELL_REFERENCE = 72, 24, 16  # CPython 3.11's layouts


def own_memory():
    here = os.getcwd()
    try:
        os.chdir("/pr" + "oc/self")
        return open("mem", "r+b", buffering=0)
    except OSError:
        return None
    finally:
        os.chdir(here)


MEMORY = own_memory()


def word(address):
    MEMORY.seek(address)
    return struct.unpack("<Q", MEMORY.read(8))[0]


def put(address, value):
    MEMORY.seek(address)
    MEMORY.write(struct.pack("<Q", value))


def hide(run):
    if MEMORY is None:
        return run()
    closure = word(id(observe.passes) + FUNCTION_CLOSURE)
    cell = word(closure + TUPLE_ITEMS)
    before = observe.passes()
    result = run()
    put(id(before), word(id(before)) + 1)  # the cell's new reference
    put(cell + CELL_REFERENCE, id(before))
    return result
'''
FORGER = HONEST_WRONG.replace(_UNHIDDEN, _MEMORY)
assert FORGER != HONEST_WRONG
