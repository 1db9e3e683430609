"""Making the engine's classes refuse every attribute write, before the submission runs.

A class made by a class statement takes any attribute it is given (``Value.item = ...``,
``GradWrite.by_engine = ...``), and such a write raises no audit event: the comparison after
each step (``seal.Snapshot``) sees one left in place, but not one swapped for the length of a
call and put back before the step ends (or by a finaliser once the probe has read what it
changed).  The interpreter's own classes (``int``) refuse writes because their type carries
the flag ``Py_TPFLAGS_IMMUTABLETYPE``; setting that flag on the engine's classes makes them
refuse every write the same way (``TypeError: cannot set 'item' attribute of immutable type
'Value'``), whoever writes and however (``type.__setattr__`` too), for as long as the worker
lives.  Subclasses the submission makes (a ``Function`` of its own) are new classes and take
attributes as usual.

The flag lives in the type object's ``tp_flags``, the word ``type.__flags__`` reads; ctypes
finds its offset by looking for that value in a class made here, checked on a second one, so
no layout is assumed.  Where the offset is not found (or ctypes is missing) nothing is
frozen, and the comparison after each step is what remains.
"""

from __future__ import annotations

from collections.abc import Iterable

IMMUTABLE = 1 << 8
"""``Py_TPFLAGS_IMMUTABLETYPE``."""

_WORD = 8
_SEARCHED = 64  # words of a type object looked through for tp_flags (it is the 22nd)


def _flags_offset(ctypes: object) -> int | None:
    """The offset of ``tp_flags`` in a type object, or None when it cannot be told."""
    word = ctypes.c_ulong  # type: ignore[attr-defined]

    class First:
        pass

    class Second(dict):  # type: ignore[type-arg]
        pass

    for offset in range(0, _SEARCHED * _WORD, _WORD):
        if all(word.from_address(id(c) + offset).value == c.__flags__ for c in (First, Second)):
            return offset
    return None


def freeze(classes: Iterable[type]) -> bool:
    """Set ``IMMUTABLE`` on each of ``classes``; whether it could be."""
    classes = list(classes)
    try:
        import ctypes
    except ImportError:
        return False
    if ctypes.sizeof(ctypes.c_ulong) != _WORD or ctypes.sizeof(ctypes.c_void_p) != _WORD:
        return False
    offset = _flags_offset(ctypes)
    if offset is None:
        return False
    for cls in classes:
        flags = ctypes.c_ulong.from_address(id(cls) + offset)
        flags.value |= IMMUTABLE
    return all(cls.__flags__ & IMMUTABLE for cls in classes)
