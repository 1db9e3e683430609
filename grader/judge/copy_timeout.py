"""A test's time that ran out in the top level of the fresh copy the test made of the student's
file (run again, to tell state kept between calls; ``grader.sandbox.child.copies``): the demo kept
there took the time, not the functions the test calls, and the sentence names its line."""

from __future__ import annotations

from grader.i18n import _


def copy_timed_out(limit: str, line: str, called: str | None, notebook: bool) -> str:
    """``limit`` (the time that ran out, in words) at ``line`` of the top level, in its call of the
    file's function ``called`` if any; a notebook's cells are run again, a file imported again."""
    said = (_("{limit} ({line}, in the top level's call of {function}): ", limit=limit, line=line,
              function=called) if called else _("{limit} ({line}): ", limit=limit, line=line))
    if notebook:
        return said + _("the grader runs the notebook's code cells again in this test (to tell state kept between "
                        "calls), and that cell was still running there: a cell that runs a demo runs again each "
                        "time; delete it, or make it quick, before handing the notebook in")
    return said + _("the grader imports your file again in this test (to tell state kept between calls), and its "
                    "top level was still running there: code kept at the top level, such as a demo, runs again at "
                    "each import and belongs under if __name__ == \"__main__\":")
