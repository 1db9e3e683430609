"""``str.format`` as the submission gets it: a field's attribute looked up as ``getattr`` would.

A replacement field names attributes (``"{0.__class__.__mro__}".format(x)``, ``format_map``),
and the format string can be computed as the code runs: the same lookup by a computed name
that the submission's own ``getattr`` guards (``grader.sandbox.child.guard``), done by the
interpreter with the real one.  The result is only text, but text is what a probe's feedback
and the student's printed output carry.  So the submission's ``x.format`` and ``x.format_map``
(rewritten to go through ``FORMAT_GUARD`` when it is imported), ``getattr(x, "format")`` and
``vars(str)["format"]`` hand out, for ``str``'s own methods, ones that first walk each field's
attributes through ``check`` (what the guarded ``getattr`` refuses, it refuses and flags), then
format as ``str.format`` does.  A format string without a ``.`` names no attribute: it is
formatted at once.
"""

from __future__ import annotations

import _string
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

FORMATTING = ("format", "format_map")
"""The methods of ``str`` that look a replacement field's attributes up."""

FORMAT_GUARD = "<format>"
"""The builtin a submission's ``x.format`` read goes through: not a name any source can bind."""

Check = Callable[[object, str], None]  # refuses a name on an object, as the guarded getattr does
_REAL = {name: getattr(str, name) for name in FORMATTING}
_LOOKUP_ERRORS = (LookupError, AttributeError, TypeError, ValueError)  # str.format says these itself


def fields(text: str, depth: int = 0) -> Iterator[str]:
    """Each replacement field's name in ``text``, in the order ``str.format`` reaches them (a
    nested field of a format spec after its own); stops where the text is malformed (there
    ``str.format`` raises, after the fields before it)."""
    try:
        for _literal, field, spec, _conversion in _string.formatter_parser(text):
            if field is None:
                continue
            yield field
            if spec and depth < 2:  # str.format nests no deeper
                yield from fields(spec, depth + 1)
    except ValueError:
        return


def _walk(text: str, args: Sequence[Any], kwargs: Mapping[str, Any], check: Check) -> None:
    """Look up every field's attributes in ``text`` as ``str.format`` would, each through
    ``check`` first; a lookup that fails is left to ``str.format`` to report."""
    automatic = 0
    for field in fields(text):
        try:
            first, rest = _string.formatter_field_name_split(field)
        except ValueError:
            return
        if first == "":
            first, automatic = automatic, automatic + 1
        try:
            target = args[first] if isinstance(first, int) else kwargs[first]
        except _LOOKUP_ERRORS:
            continue
        for is_attribute, key in rest:
            if is_attribute:
                check(target, key)
            try:
                target = getattr(target, key) if is_attribute else target[key]
            except _LOOKUP_ERRORS:
                break


def _bound(text: str, name: str, check: Check) -> Callable[..., str]:
    """``text.format`` or ``text.format_map``, its fields' attributes checked first."""
    real = _REAL[name]
    if name == "format":
        def format(*args: Any, **kwargs: Any) -> str:
            if "." in text:
                _walk(text, args, kwargs, check)
            return real(text, *args, **kwargs)
        return format

    def format_map(mapping: Mapping[str, Any]) -> str:
        if "." in text:
            _walk(text, (), mapping, check)
        return real(text, mapping)
    return format_map


def _unbound(name: str, check: Check) -> Callable[..., str]:
    """``str.format`` or ``str.format_map``, the string given first."""
    real = _REAL[name]

    def method(text: Any, *args: Any, **kwargs: Any) -> str:
        if isinstance(text, str):
            return _bound(text, name, check)(*args, **kwargs)
        return real(text, *args, **kwargs)  # str's own error
    return method


def guarded(owner: object, name: str, found: Any, check: Check) -> Any:
    """What ``owner.<name>`` hands the submission, ``found`` being what it is: ``str``'s own
    ``format`` or ``format_map`` (bound to a string, or read from a class derived from ``str``)
    guarded; anything else (a class's own ``format`` method) as it is."""
    if name not in FORMATTING:
        return found
    if isinstance(owner, str) and getattr(type(owner), name, None) is _REAL[name]:
        return _bound(owner, name, check)
    if isinstance(owner, type) and issubclass(owner, str) and found is _REAL[name]:
        return _unbound(name, check)
    return found
