"""Making the engine's classes refuse every attribute write, before the submission runs.

A class made by a class statement takes any attribute it is given (``Value.item = ...``,
``GradWrite.by_engine = ...``), and such a write raises no audit event: the comparison after
each step (``seal.Snapshot``) sees one left in place, but not one swapped for the length of a
call and put back before the step ends (or by a finaliser once the probe has read what it
changed).  So each of the engine's classes is changed twice, through ctypes:

* it becomes an instance of a subclass of its metaclass (``_refusing``: named and shown as
  that metaclass) whose ``__setattr__`` and ``__delattr__`` refuse with the audit event a
  sealed module's refused write raises, so that the sentinel flags ``Value.item = ...``;
* its type carries ``Py_TPFLAGS_IMMUTABLETYPE``, the flag the interpreter's own classes (``int``)
  refuse writes by, so that ``type.__setattr__(Value, ...)`` is refused too (a ``TypeError``).

Subclasses the submission makes (a ``Function`` of its own) take attributes as usual.  The flag
lives in the type object's ``tp_flags``, the word ``type.__flags__`` reads: its offset is found
by looking for that value in two classes made here, so no layout is assumed; where it is not
found (or ctypes is missing) nothing is changed, and the comparison after each step is what
remains.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

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


def _refusing(meta: type, frozen: set[int], made: dict[type, type],
              refused: Callable[[str, str], None]) -> type:
    """A subclass of the metaclass ``meta`` whose ``__setattr__`` and ``__delattr__`` refuse,
    with the audit event a sealed module's refused write raises (so the sentinel flags it), a
    write to a class in ``frozen`` (ids); the classes the submission derives take theirs."""
    if meta not in made:
        def refuse(cls: type, name: str, *value: object) -> None:
            if id(cls) in frozen:
                refused(cls.__module__, name)
            (meta.__setattr__ if value else meta.__delattr__)(cls, name, *value)  # type: ignore[call-arg]
        made[meta] = type(meta)(meta.__name__, (meta,), {
            "__setattr__": refuse, "__delattr__": refuse,
            "__module__": meta.__module__, "__qualname__": meta.__qualname__})
    return made[meta]


def freeze(classes: Iterable[type], refused: Callable[[str, str], None]) -> bool:
    """Set ``IMMUTABLE`` on each of ``classes``, and make each an instance of a metaclass that
    calls ``refused(module, name)`` for a write (``_refusing``); whether it could be."""
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
    frozen, made = {id(cls) for cls in classes}, {}
    for cls in classes:
        meta = _refusing(type(cls), frozen, made, refused)
        ctypes.pythonapi.Py_IncRef(ctypes.py_object(meta))  # the reference the class holds
        ctypes.c_void_p.from_address(id(cls) + _WORD).value = id(meta)  # its ob_type
        ctypes.c_ulong.from_address(id(cls) + offset).value |= IMMUTABLE
    return all(cls.__flags__ & IMMUTABLE for cls in classes)
