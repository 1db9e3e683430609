"""The ERROR fact of an exception the student caught and returned: the exception as "Type:
first line", and who raised it: the engine, the student, nobody (made by hand), or the engine
during an earlier call (an error kept between calls and returned again).

    error_of(e, "the error returned")          told from the traceback alone
    error_raised(fn, "the error for y.backward()")  of what calling ``fn`` raised (None: nothing)
    error_of(e, "the error returned", call)    ... and from what earlier watched calls returned,
                                               and what their passes raised (``watching(...,
                                               errors=True)``)

An error kept from an earlier call has the engine's type and message, and its traceback ends in
the engine's ``raise``: only its object tells it apart, so every exception a watched pass raises
is kept (``remember_raised``), and every exception a watched call returned, and a returned one
is looked up by identity.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from typing import Any, Callable, Protocol

from grader.spec.facts import CONTEXT, FACT, LABEL, Kind, RaisedBy
from grader.spec.graph_again import in_pass
from grader.spec.probe import caught
from grader.spec.raise_site import ENGINE_DIR, engine_message, innermost


class Watched(Protocol):
    """What ``error_of`` reads of a watched call (``grader.spec.call.Call``)."""

    raised: Mapping[int, BaseException] | None  # its passes' exceptions (None: not recorded)
    past_listed: bool  # it ran more passes than it records
    engine_raised: list[str]  # the engine functions its code called that raised into it
    caught: Any  # ... and the frames they raised into (``grader.spec.caught.Caught``)


def _raised_by(e: BaseException) -> RaisedBy:
    """Who raised ``e``: the engine only when its traceback ends in the engine's ``raise``
    statement and its message is the one that statement makes (``raise_site``): an engine
    error whose message the submission rewrote afterwards is its own text."""
    where = innermost(e.__traceback__)
    if where is None:
        return RaisedBy.NOBODY
    if not where.tb_frame.f_code.co_filename.startswith(ENGINE_DIR):
        return RaisedBy.SUBMISSION
    return RaisedBy.ENGINE if engine_message(e) == str(e) else RaisedBy.SUBMISSION


def error_of(e: object, label: str, call: Watched | None = None) -> dict[str, Any]:
    """The ERROR fact of an exception the student caught and returned (None stays None).

    With the watched ``call`` that returned it: an exception an earlier watched call returned,
    or (watched with ``errors=True``) one a backward pass raised and none of this call's passes
    (a pass of an earlier watched call, or of a call no probe watched), is told as raised earlier
    (caught once, kept in a module-level name or a default argument, and returned again): its
    type and message are the engine's, its object is not this call's.  None, where an engine function the call's code called raised
    into it, says which (``~caught``): the code caught that error and returned None instead."""
    by = _raised_by(e) if isinstance(e, BaseException) else RaisedBy.NOBODY
    if call is not None and by is RaisedBy.ENGINE and isinstance(e, BaseException):
        returned = _RETURNED.get(id(e))
        earlier = returned is not None and returned[0] is e and returned[1]() is not call
        # an error raised in the engine's walk and by no pass of this call: an earlier call's, unless it went
        # through a frame this call's code met an engine error in (a backward refused before any pass began)
        if (earlier or (call.raised is not None and not call.past_listed and call.raised.get(id(e)) is not e
                        and (_RAISED.get(id(e)) is e or in_pass(e) and not call.caught.raised_here(e)))):
            by = RaisedBy.EARLIER
        elif returned is None or returned[0] is not e:
            _RETURNED[id(e)] = (e, weakref.ref(call))
    dropped = {CONTEXT + "caught": call.engine_raised[0]} if e is None and call is not None and call.engine_raised else {}
    return {FACT: Kind.ERROR.value, LABEL: label, "error": caught(e), "raised_by": by.value, **dropped}


def caught_in(raised: Mapping[int, BaseException] | None, filename: str) -> str | None:
    """The function of the file ``filename`` that caught the first of the exceptions a watched
    call's passes ``raised``: the outermost frame its traceback went through, where it stopped.
    None where no pass raised, or where no function of that file caught it."""
    first = next(iter((raised or {}).values()), None)
    tb = None if first is None else first.__traceback__
    code = None if tb is None else tb.tb_frame.f_code
    return code.co_name if code is not None and code.co_filename == filename else None


def remember_raised(raised: Mapping[int, BaseException]) -> None:
    """Keep the exceptions a watched call's passes raised (by id, kept alive so an id is never
    reused): one a later call returns was kept from that earlier call."""
    _RAISED.update(raised)


_RAISED: dict[int, BaseException] = {}
_RETURNED: dict[int, tuple[BaseException, weakref.ref[Any]]] = {}  # kept alive, with the call that returned it


def error_raised(fn: Callable[..., Any], label: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
    """The ERROR fact of what ``fn(*args, **kwargs)`` raised (None if it returned); a stub's
    NotImplementedError goes on, told as a stub."""
    try:
        fn(*args, **kwargs)
    except NotImplementedError:
        raise
    except Exception as exc:  # noqa: BLE001 - observing the error is the point
        return error_of(exc, label)
    return error_of(None, label)
