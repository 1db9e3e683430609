"""The ``grade`` command's package; ``grader.check("ex03")`` grades from a notebook."""

from grader.notebook_check import check

__all__ = ["check"]
