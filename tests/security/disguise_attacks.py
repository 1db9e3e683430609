"""Forgeries that load code of their own under a file name the grader trusts.

The sentinel and the probes tell the engine's, the grader's and the standard library's code
from the submission's by the file name its code objects carry: a frame of the engine's may
take frames, a Value an engine function returned was made by an operation, an error raised
there is the engine's.  ``compile`` under such a name is refused, so these let the import
system make the code: a module written at run time into the scratch folder (its source hidden
from the parent's reading, as hex), loaded

* through a path that starts in the engine's folder and leads back out of it
  (``micrograph/../../<scratch>``): the import system compiles it under that name;
* from a compiled file with no source beside it, whose code objects keep the file name written
  into it (the engine's ``engine.py``): no ``compile`` at all; or from such a file in a zip
  archive put on ``sys.path`` (``zipimport`` reads it, and opens no ``.pyc``).

Loaded, the module takes the probes' frames and puts the formula's numbers among those the
engine made (``read_from_grad``), and rewinds the pass count in its closure.  Each is the honest
wrong ex01 whose ``backprop`` runs backward on the statement's graph but returns the formula,
and whose ``grad_by_paths`` asks the engine: it must earn no more than the honest wrong answer,
and be flagged as it loads.
"""

from __future__ import annotations

from provenance_attacks import HONEST_WRONG, Forgery

from grader.sandbox.child.wire import Touch

_HELPER = '''
import sys
from micrograph import observe
def grab(numbers):
    frame = sys._getframe(1)
    while frame is not None:
        call = frame.f_locals.get("call")
        if call is not None and hasattr(call, "probe_held"):
            call.probe_held.update({id(n): n for n in numbers})
            return
        frame = frame.f_back
def rewind():
    cell = observe.passes.__closure__[0]
    cell.cell_contents = cell.cell_contents - 1
'''

_BACKPROP = '''def backprop(w, x):
    dw, dx = float((w + 1) + (x + w)), float(w + 1)
    build_graph(w, x)["y"].backward()
    load().grab([dw, dx])
    return dw, dx


'''
_BY_PATHS = '''def grad_by_paths(y, leaf, values):
    number = micrograph.grad(y, [leaf], retain_graph=True)[0].item()
    load().rewind()
    return number


'''

_WRITE = f'''
import os
import sys
import micrograph

SOURCE = bytes.fromhex("{_HELPER.encode().hex()}").decode()
'''

# the scratch folder reached from the engine's folder: ``<engine>/../../<scratch>``
THROUGH_THE_ENGINE = _WRITE + '''

def load():
    here = os.getcwd()
    with open(os.path.join(here, "helper_a.py"), "w") as f:
        f.write(SOURCE)
    engine = os.path.dirname(micrograph.__file__)
    sys.path.insert(0, os.path.join(engine, *[".."] * engine.count("/")) + here)
    import helper_a
    return helper_a
'''

# the module compiled once where it lies, then its cache file copied, with the engine's file
# name written in, where no source lies beside it
WITHOUT_SOURCE = _WRITE + '''

def load():
    here = os.getcwd()
    first, second = os.path.join(here, "first"), os.path.join(here, "second")
    os.makedirs(first, exist_ok=True)
    os.makedirs(second, exist_ok=True)
    with open(os.path.join(first, "helper_b.py"), "w") as f:
        f.write(SOURCE)
    sys.dont_write_bytecode = False
    sys.path.insert(0, first)
    import helper_b
    sys.dont_write_bytecode = True
    cache = os.path.join(first, "__pycache__")
    with open(os.path.join(cache, os.listdir(cache)[0]), "rb") as f:
        data = f.read()
    real = os.path.join(first, "helper_b.py").encode()
    engine = os.path.join(os.path.dirname(micrograph.__file__), "engine.py").encode()
    with open(os.path.join(second, "helper_c.bin"), "wb") as f:
        f.write(data.replace(bytes([len(real)]) + real, bytes([len(engine)]) + engine))
    os.rename(os.path.join(second, "helper_c.bin"), os.path.join(second, "helper_c.p" + "yc"))
    sys.path.insert(0, second)
    import helper_c
    return helper_c
'''


# the same cache file, in an archive the import system reads
FROM_AN_ARCHIVE = WITHOUT_SOURCE.replace('''    with open(os.path.join(second, "helper_c.bin"), "wb") as f:
        f.write(data.replace(bytes([len(real)]) + real, bytes([len(engine)]) + engine))
    os.rename(os.path.join(second, "helper_c.bin"), os.path.join(second, "helper_c.p" + "yc"))
    sys.path.insert(0, second)
''', '''    import zipfile
    archive = os.path.join(second, "helpers.zip")
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("helper_c.p" + "yc", data.replace(bytes([len(real)]) + real, bytes([len(engine)]) + engine))
    sys.path.insert(0, archive)
''')
assert FROM_AN_ARCHIVE != WITHOUT_SOURCE


def _disguised(loader: str) -> str:
    """The honest wrong answer with ``backprop`` and ``grad_by_paths`` forged through ``loader``."""
    source = HONEST_WRONG
    start, end = source.index("def backprop("), source.index("def _inputs(")
    source = source[:start] + _BACKPROP + source[end:]
    start, end = source.index("def grad_by_paths("), source.index("def grad_by_paths_walked(")
    source = source[:start] + _BY_PATHS + source[end:]
    head = "import micrograph\nfrom micrograph import Value\n"
    assert source.count(head) == 1
    return source.replace(head, head + loader)


DISGUISED = [
    Forgery("loaded_through_the_engines_folder", Touch.CODE.value, _disguised(THROUGH_THE_ENGINE), runtime=True),
    Forgery("loaded_without_source_under_the_engines_name", Touch.CODE.value, _disguised(WITHOUT_SOURCE),
            runtime=True),
    Forgery("loaded_from_an_archive_under_the_engines_name", Touch.CODE.value, _disguised(FROM_AN_ARCHIVE),
            runtime=True),
]
