"""What exercise modules import: ``Exercise`` and ``Test`` (the declaration format) and the probe
helpers (``grader.spec.probe``), and the ``Limits`` of the sandbox that runs them.

The sandboxed child loads these too, so this package follows the child's rules: standard library
and ``micrograph`` only, nothing from the parent side of ``grader``, no side effects.
"""

from grader.spec.exercise import Exercise, HiddenElsewhere, Probe, SpecError, Test
from grader.spec.limits import Limits

__all__ = ["Exercise", "HiddenElsewhere", "Limits", "Probe", "SpecError", "Test"]
