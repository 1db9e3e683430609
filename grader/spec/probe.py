"""Helpers for probes: turn what a submission returns into plain observations.

Probes run in the sandboxed child and must return JSON types only (None, bool, int, float, str,
lists, dicts with str keys).  These helpers make that easy and safe: they never trust an
object's ``__eq__`` and never let a student's object through, so an object that "compares equal
to everything" just becomes the string ``"not a Value: AlwaysEqual"``.

    num(x)            a float from a float/int/Value, else "not a number: <type>"
    grad(v)           v.grad as a float or None, without the non-leaf warning
    grad_fn(v)        the grad_fn's name ("MulBackward0") or None
    value(v)          {"data", "grad", "is_leaf", "requires_grad", "grad_fn"} of a Value
    plain_dict(r)     r as a plain dict when it is a dict of any kind (an OrderedDict too), else r
    dict_of(r, names, f)  r, a dict of the Values named, returned by f (else shape_error's TypeError)
    shape_error(m, f, r)  the TypeError of a result r of f of the wrong shape (which says a None)
    raised(f, *args)  None if f(*args) returns, else "RuntimeError: <first line of the message>"
    raised_again_as(kind, words)  a context manager raising an error again as kind, told with words
    caught_warnings() a context manager collecting the engine's warnings as "UserWarning: <first line>"
    printed()         a context manager: what the block printed, as a StringIO (still printed too)
    show(roots, names) in a diagram probe: draw this graph if the probe fails later on
    default_recursion_limit()  a context manager: Python's own recursion limit while it runs
    call_text(f, *args), in_call(label, call)  a call as code, and a label of a fact of that call
    close(a, b)       two numbers one up to float rounding (how the probes compare numbers they computed)
    rounded_to(x, exact)  x is exact rounded to 1-15 digits after the point, and no whole number

``raised`` and ``caught_warnings`` let NotImplementedError through on purpose: a stub that is not
filled in must be reported as such, not observed as "an error was raised".
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import warnings
from math import isclose  # bound now: a submission may rebind math's names (math.isclose = ...)
from typing import Any, Callable, Iterator

import micrograph

from grader.spec.raise_site import engine_warning

_caller = sys._getframe
_WARNINGS_FILE = warnings.__file__  # the machinery between a warnings.warn call and showwarning
DEFAULT_RECURSION_LIMIT = 1000  # Python's own, the depth a recursive walk meets unless raised
MAX_TEXT = 300  # characters of an observed message: a longer one is cut here (explain.shown says so)

shown: list[tuple[Any, Any]] = []
"""What the diagram probe last asked to ``show`` (read by the child when the probe fails)."""


def type_name(x: object) -> str:
    """The name of ``x``'s class as the student wrote or met it.  micrograph's value classes
    call themselves ``Tensor`` in ``__name__`` (so Python's own messages read as torch's do);
    the grader's descriptions say ``Value``, the name the student imports."""
    return type(x).__qualname__.rpartition(".")[2]


STR_FAILED = "<exception str() failed>"
"""A message whose ``str()`` raised or gave no str (a class of the student's), as Python prints it."""


def first_line(text: object) -> str:
    """The first line of a message, cut to a bounded length; Python's own words where its
    ``str()`` raises or gives no str (an exception of the student's whose ``__str__`` does), which
    the worker that reports it must survive."""
    try:
        said = str(text)
    except Exception:  # noqa: BLE001 - any error of the student's __str__
        return STR_FAILED
    if type(said) is not str:  # a str subclass of the student's: its methods are the student's too
        return STR_FAILED
    line = said.strip().splitlines()[0] if said.strip() else ""
    return line[:MAX_TEXT]


def exit_text(code: object) -> str:
    """``SystemExit(3)`` for ``sys.exit(3)``, ``exit(3)`` and ``raise SystemExit(3)`` alike; Python's
    own words where the code's ``repr()`` raises or gives no str (an object of the student's)."""
    try:
        shown = repr(code)
    except Exception:  # noqa: BLE001 - any error of the student's __repr__
        return "SystemExit(<repr() failed>)"
    return f"SystemExit({shown[:MAX_TEXT]})" if type(shown) is str else "SystemExit(<repr() failed>)"


def error_text(exc: BaseException) -> str:
    """``"RuntimeError: <first line>"``: how errors are observed and reported."""
    message = first_line(exc)
    name = type_name(exc)
    return f"{name}: {message}" if message else name


@contextlib.contextmanager
def raised_again_as(kind: type[Exception], words: Callable[[Exception], str | None]) -> Iterator[None]:
    """While the block runs: an error it raises for which ``words(error)`` gives the facts that
    tell it is raised again as ``kind("<words> <error's text>")``, with the error's traceback, so
    that the grader sees the line it came from, and no chained cause; an error for which it gives
    None, and a stub's NotImplementedError (told as a stub), are raised as they were."""
    try:
        yield
    except NotImplementedError:
        raise
    except Exception as exc:
        told = words(exc)
        if told is None:
            raise
        raise kind(f"{told} {error_text(exc)}").with_traceback(exc.__traceback__) from None


def close(a: float, b: float) -> bool:
    """Whether two numbers are one up to the rounding of float arithmetic: a sum the probe makes
    again (``math.fsum``) and the student's sum of the same numbers in another order differ in
    their last digits, which is no difference of what the code did."""
    return isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def rounded_to(number: object, exact: float) -> bool:
    """Whether ``number`` is ``exact`` rounded to 1 to 15 digits after the point (past 15 a float holds
    no digit more to round away), and has a fraction: a whole number is never told as rounded, since
    a literal 0.0 or 1.0 the code wrote is one too (a loss or a gradient rounded to an int cannot be
    told from it).  ``exact`` itself is one where rounding keeps it: a caller that tells a number as
    rounded checks that it differs."""
    return (type(number) is float and not number.is_integer()
            and any(number == round(exact, digits) for digits in range(1, 16)))


def _is_value(v: object) -> bool:
    return isinstance(v, micrograph.Value)


def shape_error(message: str, function: str, result: object) -> TypeError:
    """A probe's error for what ``function`` returned, when it is not the shape asked for:
    ``message``, after the fact that the call returned None when it did (a function that ends
    without a return statement), so the student reads which call gave nothing back."""
    if result is None:
        return TypeError(f"{function} returned None; {message}")
    return TypeError(message)


def plain_dict(result: object) -> object:
    """``result`` as a plain dict when it is a dict of any kind, else ``result`` itself.

    A dict subclass (an ``OrderedDict``) holding the Values asked for is the dict the statement
    asks for, so every probe reads a student's result through this one place: its entries are
    read with dict's own methods (``dict.items``), so a subclass's ``__getitem__``, ``keys`` or
    ``__iter__`` cannot change what a probe sees.  A plain dict is returned as it is (its
    identity tells a result kept and returned again by a later call)."""
    if type(result) is dict or not issubclass(type(result), dict):  # type(): no __class__ can feign it
        return result
    return dict(dict.items(result))


def dict_of(values: object, names: tuple[str, ...], function: str,
            message: str | None = None) -> dict[str, Any]:
    """``values``, the dict of Values ``function`` returned (a dict of any kind, read as a plain
    one: ``plain_dict``), checked for the ``names`` asked for; ``message`` says what is asked
    where it is not ``return the dict of the Values <names>``."""
    checked = plain_dict(values)
    if type(checked) is not dict or not set(names) <= set(checked):
        raise shape_error(message or f"return the dict of the Values {', '.join(names)}", function, values)
    return checked


def num(x: object) -> float | str:
    """A float for a Python number or a Value; a description of anything else."""
    if type(x) in (int, float):
        return float(x)  # type: ignore[arg-type]
    if _is_value(x):
        return float(x.item())  # type: ignore[attr-defined]
    return f"not a number: {type_name(x)}"


def grad(v: object) -> float | None | str:
    """``v.grad`` as a float or None, read without the non-leaf UserWarning."""
    if not _is_value(v):
        return f"not a Value: {type_name(v)}"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        g = v.grad  # type: ignore[attr-defined]
    return None if g is None else num(g)


def stepped_grad(v: object) -> float | None | str:
    """``grad(v)``, or, where the student's code zeroed ``v.grad`` in place after backward wrote it
    (``w.grad.zero_()`` after an update, "for the next step"), the number backward wrote: the
    gradient a step made before that zeroing moved ``v`` by."""
    g = grad(v)
    record = micrograph.observe.grad_write(v) if g == 0.0 and _is_value(v) else None  # type: ignore[arg-type]
    if record is not None and record.by_engine and not record.intact(v) and type(record.data) is float:  # type: ignore[arg-type]
        return record.data
    return g


def grad_fn(v: object) -> str | None:
    """The name of ``v.grad_fn`` (``"AddBackward0"``), or None for a leaf."""
    if not _is_value(v):
        return f"not a Value: {type_name(v)}"
    node = v.grad_fn  # type: ignore[attr-defined]
    return None if node is None else str(node.name())


def value(v: object) -> dict[str, Any] | str:
    """Everything a student can see on a Value, as plain data."""
    if not _is_value(v):
        return f"not a Value: {type_name(v)}"
    return {
        "data": num(v),
        "grad": grad(v),
        "is_leaf": bool(v.is_leaf),  # type: ignore[attr-defined]
        "requires_grad": bool(v.requires_grad),  # type: ignore[attr-defined]
        "grad_fn": grad_fn(v),
    }


def caught(e: object) -> str | None:
    """An error the submission caught and *returned*, as ``"Type: first line"`` (None stays None)."""
    if e is None:
        return None
    if isinstance(e, type) and issubclass(e, BaseException):  # ``return RuntimeError``: the class
        return f"an exception class: {e.__name__}"
    if not isinstance(e, BaseException):
        return f"not an exception: {type_name(e)}"
    return error_text(e)


def failure(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Exception | None:
    """Call ``fn``; None if it returns, else the exception it raised (NotImplementedError goes
    through: a stub is reported as such)."""
    try:
        fn(*args, **kwargs)
    except NotImplementedError:
        raise
    except Exception as exc:  # noqa: BLE001 - observing the error is the point
        return exc
    return None


def raised(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> str | None:
    """Call ``fn``; None if it returns, else the error as ``"Type: first line"``."""
    exc = failure(fn, *args, **kwargs)
    return None if exc is None else error_text(exc)


class _Tee(io.StringIO):
    """What is printed, kept and passed on to the stream it was bound for."""

    def __init__(self, stream: Any) -> None:
        super().__init__()
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(text)
        return super().write(text)


@contextlib.contextmanager
def printed() -> Iterator[io.StringIO]:
    """What the block printed to sys.stdout (a warning's text printed, not warned, shows), printed
    all the same: the submission's output is shown as it wrote it."""
    with contextlib.redirect_stdout(_Tee(sys.stdout)) as out:
        yield out


@contextlib.contextmanager
def caught_warnings() -> Iterator[list[str]]:
    """Collect every warning the engine raised in the block as ``"UserWarning: <first line>"``:
    one whose message its ``warnings.warn`` call makes again in the frame it ran in
    (``raise_site.engine_warning``), not one the submission wrote, whatever its text."""
    seen: list[str] = []

    def shown(message: Warning | str, category: type[Warning], *_: object) -> None:
        frame = _caller(1)
        while frame is not None and frame.f_code.co_filename == _WARNINGS_FILE:
            frame = frame.f_back
        if engine_warning(message, category, frame):
            seen.append(f"{category.__name__}: {first_line(message)}")

    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.showwarning = shown
        yield seen


def show(roots: Any, names: Any = None, operands: Any = None) -> None:
    """In a diagram probe: if a later step fails (a stub, an error in backward), draw this
    (``operands``: what each op was made from, ``grader.spec.made_from``).

    A broken submission still gets the graph it managed to build, e.g. the forward graph when
    its backward raises.
    """
    shown.append((roots, names, operands))


def by_key(runs: list[dict[str, Any]]) -> dict[str, list[Any]]:
    """Observations of several inputs, one dict per input, regrouped as one list per key: a
    test's top-level keys then name its ideas, so a mismatch brings that key's advice."""
    return {key: [run[key] for run in runs] for key in runs[0]} if runs else {}


def entries(rows: object, name: str, observe: Callable[[Any, str], Any]) -> list[list[Any]] | str:
    """``observe(v, "name[i][j]")`` for each entry of a matrix (a list of rows): labels a
    student reads as code, in any language."""
    if type(rows) is not list or not all(type(row) is list for row in rows):
        return f"not a list of rows: {type_name(rows)}"
    return [[observe(v, f"{name}[{i}][{j}]") for j, v in enumerate(row)] for i, row in enumerate(rows)]


@contextlib.contextmanager
def default_recursion_limit() -> Iterator[list[bool]]:
    """Python's default recursion limit while the block runs, whatever the submission set when it
    was imported (``sys.setrecursionlimit`` at the top of a file lets a recursive walk through
    any graph a probe could afford to build), and the limit from before afterwards.  When the
    block ends, the list holds whether the block set another limit."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(DEFAULT_RECURSION_LIMIT)
    moved: list[bool] = []
    try:
        yield moved
    finally:
        moved.append(sys.getrecursionlimit() != DEFAULT_RECURSION_LIMIT)
        sys.setrecursionlimit(before)


def call_text(function: str, *args: object) -> str:
    """One call a test makes, as code (``backward_retaining(w, x, ["a"])``): each argument a
    name as written (``"w"``) or a list of names, shown as the list of strings it is."""
    shown = [json.dumps(a) if type(a) is list else str(a) for a in args]
    return f"{function}({', '.join(shown)})"


def in_call(label: str, call: str) -> str:
    """The label of a fact of one of a test's several calls (``a.grad in backward_retaining(w,
    x, ["a"])``): sentences true of one call only name it, so that what one call did does not
    read as said of another."""
    return f"{label} in {call}"
