"""The student's guide's section on what a submission may not use, with the modules the
parent's reading of the source refuses (``grader.sandbox.reach``) listed from the same table,
so that the guide never names fewer than the grader refuses."""

from __future__ import annotations

from grader.i18n import N_, _
from grader.sandbox.refused_modules import refused_imports

RULES = N_("""## What your file may not use

Your code runs in the same process as the tests that watch it, so a file that reaches into
that process could change what they see. A file that imports one of these modules scores no
test, and its feedback names the line: {modules}. So does one that uses stack frames
(`sys._getframe`, `inspect.stack()`), a profile or trace hook (`sys.setprofile`), a signal
handler (`signal.signal`), `eval`, `exec`, `compile`, `globals()`, `sys.modules`, `setattr` with a
name that is not written out,
`__import__` other than as `__import__("math")` (a module's name written out, and not `os`, `sys`
or `inspect`), `operator.attrgetter` or `methodcaller` other than with attribute names written out
that do not start with `_`, or a write through `__dict__` or `vars()` (but a method's
`self.__dict__['name'] = ...` or `self.__dict__.setdefault('_name', ...)`, the name
written out and not a special `__name__`).
No exercise needs any of them: take out a `pdb` or `doctest` import left from debugging before
you hand in (a notebook may import `grader`: `grader.check` does nothing when graded). `getattr`,
`hasattr`, reading `vars(x)`, `print` and `traceback.print_exc()` are fine, and a
`breakpoint()` left in does nothing while graded.

Each exercise file is graded on its own, with `micrograph` and the standard library only: a
module of your own beside it (`from myhelpers import build`) cannot be imported when it is
graded, so keep what an exercise needs in its own file.

""")


def rules_section() -> str:
    """The section, in the student's language, ending in a blank line before the next one."""
    return _(RULES, modules=", ".join(f"`{m}`" for m in refused_imports()))
