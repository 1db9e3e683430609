"""What exercise modules import: ``Exercise`` and ``Test`` (the declaration format) and the probe
helpers (``grader.spec.probe``).

The sandboxed child loads these too, so this package follows the child's rules: standard library
and ``micrograph`` only, nothing from the parent side of ``grader``, no side effects.
"""

from grader.spec.exercise import Exercise, HiddenElsewhere, Probe, SpecError, Test

__all__ = ["Exercise", "HiddenElsewhere", "Probe", "SpecError", "Test"]
