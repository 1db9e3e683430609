"""Forgeries that reach the real ``builtins`` (whose ``getattr`` looks any name up unguarded) or
``sys`` (whose ``audit`` every refusal is flagged through, whose ``setprofile`` the probes set
their hook with) without naming them, and ``str.format``'s field lookups by a computed name.

Each is the honest wrong ex01 plus one trick (``provenance_attacks``): it must score no more
than the honest wrong answer and be flagged for the instructor, by the parent's reading of the
source or, where the name is computed, by the child as it runs.
"""

from __future__ import annotations

from grader.sandbox.child.wire import Touch
from provenance_attacks import Forgery, _forge, _hide

# with the real getattr and setattr: the engine's pass count rewound in its closure, and the
# probe's observer told that no pass ran (11 of 15 where the honest wrong answer gets 7)
_REWIND = '''    from micrograph import observe
    cell = real.getattr(observe.passes, "__clo" + "sure__")[0]
    before = real.getattr(cell, "cell_" + "contents")
    result = run()
    real.setattr(cell, "cell_" + "contents", before)
    calls = real.getattr(observe, "_ob" + "servers")
    call = calls[-1] if calls else None  # the innermost: the probe's
    if call is not None:
        for name in ("engine_" + "walk", "kept_" + "graph", "roots", "by_backward", "reached", "cleared"):
            old = real.getattr(call, name)
            if isinstance(old, list):
                old.clear()
            elif isinstance(old, bool):
                real.setattr(call, name, False)
    return result
'''


# the same through object's generic __getattribute__ and __setattr__, which
# functools.update_wrapper copies (with the real getattr) into the function it wraps around
_REWIND_BY_SLOTS = _REWIND.replace(
    "    cell = real.getattr", '    read = vars(holder)["__getattri" + "bute__"]\n'
    '    write = vars(holder)["__set" + "attr__"]\n    cell = real.getattr').replace(
    "real.getattr(", "read(").replace("real.setattr(", "write(")
_WRAPPED = "import functools\n\n\ndef holder():\n    pass\n\n\nfunctools.update_wrapper(holder, object)\n\n\n"


def _rewound(prelude: str) -> str:
    return _hide(_REWIND, prelude + "\n\n")


def _printed(body: str) -> str:
    return _forge("    from micrograph import observe\n" + body)


LOOKUPS = [
    Forgery("real_builtins_through_sys_handed_on", Touch.MODULES.value,
            _rewound('import sys\nplace = sys\nreal = place.modules["built" + "ins"]\n'), runtime=False),
    Forgery("real_builtins_through_another_modules_sys", Touch.MODULES.value,
            _rewound('import traceback\nreal = traceback.sys.modules["built" + "ins"]\n'), runtime=False),
    Forgery("real_builtins_as_another_modules_attribute", Touch.MODULES.value,
            _rewound('import dataclasses\nreal = dataclasses.builtins\n'), runtime=False),
    Forgery("real_builtins_found_by_a_builtin_function", Touch.MODULES.value,
            _rewound('from inspect import *\nreal = getmodule(len)\n'), runtime=False),
    Forgery("real_builtins_loaded_again_by_a_finder", Touch.MODULES.value,
            _rewound('import pkgutil\nreal = pkgutil.get_loader("built" + "ins").load_module("built" + "ins")\n'),
            runtime=True),  # the loader's own code is refused as it runs, too
    Forgery("real_builtins_imported_by_another_modules_importlib", Touch.DYNAMIC.value,
            _rewound('import inspect\nreal = inspect.importlib.import_module("built" + "ins")\n'), runtime=False),
    Forgery("importlib_by_a_computed_name", Touch.DYNAMIC.value,
            _rewound('import pkgutil\nreal = getattr(pkgutil, "import" + "lib").import_module("built" + "ins")\n'),
            runtime=True),
    Forgery("sys_from_a_modules_namespace_by_a_computed_key", Touch.MODULES.value,
            _rewound('import typing\nreal = typing.__dict__["s" + "ys"].modules["built" + "ins"]\n'), runtime=True),
    Forgery("objects_slots_copied_by_update_wrapper", Touch.DYNAMIC.value, _hide(_REWIND_BY_SLOTS, _WRAPPED),
            runtime=True),
    Forgery("objects_slots_classified_by_inspect", Touch.DYNAMIC.value, _hide(_REWIND_BY_SLOTS.replace(
        "vars(holder)", "slots"), "import inspect\n\n\nslots = {a.name: a.object for a in inspect.classify_class_attrs(object)}\n\n\n"),
        runtime=False),
    # a refused name looked up while sys.audit says nothing: the refusal is flagged all the same
    Forgery("flags_silenced_by_rebinding_sys_audit", Touch.HOOKS.value, _printed(
        '    try:\n        getattr(observe, "_ob" + "servers")\n    except PermissionError:\n        pass\n'
    ).replace("def forge(", "import sys\nsys.audit = lambda *args: None\n\n\ndef forge(", 1), runtime=True),
    # the probes' profile hook never set: a frozen dataclass's __init__ writes sys past any name
    Forgery("the_profile_hook_unset_by_a_frozen_dataclass", Touch.HOOKS.value, _forge("    pass\n", '''import dataclasses
import sys


@dataclasses.dataclass(frozen=True)
class Hooks:
    setprofile: object
    getprofile: object


Hooks.__init__(sys, lambda hook: None, lambda: None)


'''), runtime=True),
    Forgery("format_fields_by_a_computed_string", Touch.OBSERVER.value,
            _printed('    print(("{m._ob" + "servers[0].he" + "ld}").format_map({"m": observe}))\n'), runtime=True),
    Forgery("format_of_str_from_its_namespace", Touch.OBSERVER.value,
            _printed('    print(vars(str)["for" + "mat"]("{0:{1._ob" + "servers!s:.0}}", 1, observe))\n'),
            runtime=True),
    Forgery("format_by_the_standard_librarys_formatter", Touch.DYNAMIC.value,
            _printed('    import string\n    print(string.Formatter().format("{0._ob" + "servers}", observe))\n'),
            runtime=False),
    Forgery("format_fields_written_for_logging", Touch.CODE.value, _forge(
        '    import logging\n    logging.basicConfig(format="{msg.__globals__}", style="{")\n'
        '    logging.warning(forge)\n'), runtime=False),
]
