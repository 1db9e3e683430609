"""Run one child: spawn it, enforce the wall clock, read its records (``run``); start children
as an unprivileged user (``launcher``).  ``child/`` is what runs inside the untrusted process.

Nothing is imported here: the child imports ``grader.sandbox.child`` and must not load the
parent side on the way.
"""
