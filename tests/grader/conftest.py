"""Fixtures for the grader's tests (defined in toycourse.py, shared with the test modules)."""

from toycourse import layers, stopping_toy, toy  # noqa: F401 - pytest finds fixtures by name here
