"""The errors the build track's probes raise themselves, inside a ``no_grad`` block and from a
hook, to see each go on out of the student's engine as it goes on out of PyTorch's.

An engine may swallow some types: an ``__exit__`` that returns True for a RuntimeError (by
``issubclass`` or by ``is``), a ``try`` around a hook's call that catches ``(KeyError,
AttributeError)``.  Types picked by hand miss the next one an engine catches, so the probes raise
first one of their own, which no engine names (only an engine that swallows every error, or every
error but some types, swallows it), then every built-in exception class in turn, as itself (an
``is`` test meets its own class only), told only where their own went on.  Left out: NotImplementedError, which the probes let through as a stub's (``probe.failure``),
MemoryError and RecursionError, which a child may read as its own state, warnings, and the
classes that need more than a message to be made (UnicodeDecodeError ...)."""

from __future__ import annotations

import builtins


class ProbeError(Exception):
    """An error class of the probes' own: raised by a probe's code, never by an engine."""


_LEFT_OUT = (NotImplementedError, MemoryError, RecursionError, Warning)


def _made(kind: type[Exception]) -> bool:
    """Whether ``kind`` is made from a message alone, as the probes raise it."""
    try:
        kind("raised by the test")
    except Exception:  # noqa: BLE001 - a class that needs other arguments is left out
        return False
    return True


BUILTIN_KINDS: tuple[type[Exception], ...] = tuple(sorted(
    {kind for kind in vars(builtins).values() if isinstance(kind, type) and issubclass(kind, Exception)
     and not issubclass(kind, _LEFT_OUT) and _made(kind)}, key=lambda kind: kind.__name__))
"""Each built-in error class the probes raise, by name."""
