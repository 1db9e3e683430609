"""What a reach for grading's internals is called, and the sandbox's refusal of one, in the
student's language.

The child names what a submission reached for by a ``wire.Touch``; the sentences of
``grader.judge.reached`` (no test scored, the instructor's flag) name it by these labels.  The
child's own refusal (``PermissionError``, raised by ``grader.sandbox.child.guard`` and ``seal``)
is English text of the grader's, which an error quoted as the submission's would leave English.
"""

from __future__ import annotations

import re

from grader.i18n import N_, _
from grader.sandbox.child import wire

TOUCHED = {  # each Touch, as the sentences name it
    wire.Touch.FRAMES: N_("stack frames"),
    wire.Touch.HOOKS: N_("profile or trace hooks"),
    wire.Touch.SYS: N_("a name of the sys module"),
    wire.Touch.SIGNALS: N_("signal handlers"),
    wire.Touch.OBSERVER: N_("the engine's code or its observation records"),
    wire.Touch.CODE: N_("code objects, globals or closures"),
    wire.Touch.MEMORY: N_("memory or the garbage collector"),
    wire.Touch.MODULES: N_("modules loaded or handed on without an import statement"),
    wire.Touch.DYNAMIC: N_("attributes by a computed name"),
    wire.Touch.WIRE: N_("the grader's pipes"),
    wire.Touch.TESTS: N_("the test module or the grader's modules"),
    wire.Touch.ENGINE: N_("the course's engine, in a stage that builds one"),
    wire.Touch.MACHINE: N_("the machine outside the sandbox: locks on shared files, other processes, "
                           "files outside its folder"),
}


_REFUSED = re.compile(r"the grader does not let submitted code (?:reach (?P<touch>.+)|change the module (?P<module>\S+))")


def refused_touch(message: str | None) -> wire.Touch | None:
    """What the sandbox's refusal ``message`` (``grader.sandbox.child.guard``, the sentinel) says
    the code reached for; None for any other message, a sealed module's refusal among them."""
    found = _REFUSED.fullmatch(message or "")
    return None if found is None or found["touch"] is None else wire.TOUCHES.get(found["touch"])


def refusal_said(message: str) -> str:
    """The sandbox's refusal of a reach (``grader.sandbox.child.guard``, ``seal``) in the student's
    language: the grader's own text, which a quote of the error would leave in English."""
    found = _REFUSED.fullmatch(message or "")
    if found is None:
        return message
    if found["module"] is not None:
        return _("the grader does not let submitted code change the module {module}", module=found["module"])
    touch = wire.TOUCHES.get(found["touch"])
    return message if touch is None else _("the grader does not let submitted code reach {what}",
                                           what=_(TOUCHED[touch]))
