"""How a build-track probe observes an error a call raised: compared by PyTorch's kind of it
(``describe_error``), or by PyTorch's whole text where the statement names that text (``WHOLE``),
and told by the engine's own message, quoted (``quoted``), with the
function of the engine that raised it (``raised_in``): never by the paraphrase it is compared
with, which is no one's text."""

from __future__ import annotations

import functools
import re
import traceback
from typing import Any, Callable

from micrograph import node

from grader.sandbox.child.located import qualified
from grader.spec.facts import CONTEXT, PYTORCH, RAISES, REFERENCE
from grader.spec.probe import MAX_TEXT, failure, first_line, type_name
from grader.spec.provenance import result_of

SECOND_BACKWARD = "Trying to backward through the graph a second time"
MODIFIED = "has been modified by an inplace operation"
LEAF_IN_PLACE = "a leaf Variable that requires grad is being used in an in-place operation"
NO_GRAD_FN = "does not require grad and does not have a grad_fn"
HOOK_ON_CONSTANT = "cannot register a hook on a tensor that doesn't require gradient"
_VERSIONS = re.compile(r"is at version (\d+)(?:\.0+)?; expected version (\d+)(?:\.0+)?")  # a float counter's 1.0: 1
# PyTorch's errors by kind, as compared (never shown: a sentence quotes the student's own message)
_KNOWN = {SECOND_BACKWARD: "second backward", LEAF_IN_PLACE: "leaf in place", NO_GRAD_FN: "no grad_fn",
          HOOK_ON_CONSTANT: "hook on a value without grad"}
# PyTorch's whole text of a kind, compared where a statement asks for the error with that text
# (ex20: RuntimeError(SECOND_BACKWARD)); elsewhere the kind alone is compared
WHOLE = {SECOND_BACKWARD: node.SECOND_BACKWARD}
IN_PLACE = "modified in place"
IN_PLACE_AT = "modified in place, at version {version}, expected {expected}"
QUOTED = 90  # characters of an error's message quoted in a sentence: a longer one ends at a word, with "…"
SAID = CONTEXT + "said"  # a raised fact's context: the error as the student's engine worded it
RAISED_IN = CONTEXT + "in"  # ... and the function of the engine's file that raised it
REFUSED = CONTEXT + "refused"  # ... and the other operand of an in-place op, where check_in_place refused it
CHECK = "check_in_place"  # the build track's leaf check, whose argument is the Value refused


def error(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> str | None:
    """None if ``fn`` returns, else the error as PyTorch's kind of it (``describe_error``).
    NotImplementedError goes through: a stub is reported as such."""
    exc = failure(fn, *args, **kwargs)
    return None if exc is None else describe_error(exc)


def describe_error(exc: BaseException, whole: bool = False) -> str:
    """The error as compared with PyTorch's: its kind ("RuntimeError: second backward",
    "RuntimeError: modified in place, at version 1, expected 0"), or its type and first line when
    it is none of those.  With ``whole``, a kind whose whole text PyTorch's is (``WHOLE``) is that
    kind only when the text is all of it, nothing before or after: another text is the engine's
    own (``own_text``).  A sentence never shows this paraphrase as if it were the message: it
    quotes the real one (``quoted``)."""
    text = str(exc)
    kind = type_name(exc)
    for phrase, said in _KNOWN.items():
        if phrase in text and (not whole or WHOLE.get(phrase, text) == text):
            return f"{kind}: {said}"
    if MODIFIED in text:
        found = _VERSIONS.search(text)
        said = IN_PLACE_AT.format(version=found.group(1), expected=found.group(2)) if found else IN_PLACE
        return f"{kind}: {said}"
    line = first_line(text)[:80]
    return f"{kind}: {line}" if line else kind


def other_versions(want: Any, got: Any) -> bool:
    """Whether two errors as ``describe_error`` tells them are both MODIFIED, at other versions:
    the same error, so a sentence says the versions differ, never that PyTorch raises another
    one (nor PyTorch's versions, the answer)."""
    prefix = f": {IN_PLACE}, at version "
    return type(want) is str and type(got) is str and want != got and prefix in want \
        and want.split(prefix)[0] == got.split(prefix)[0] and prefix in got


# the statements' constant for each of PyTorch's errors compared by kind (the stubs define them)
CONSTANT_OF = {"second backward": "SECOND_BACKWARD", "leaf in place": "LEAF_IN_PLACE", "no grad_fn": "NO_GRAD_FN",
               "hook on a value without grad": "HOOK_ON_CONSTANT", IN_PLACE: "MODIFIED"}


def own_text(want: Any, got: Any) -> str | None:
    """The statement's constant whose text PyTorch's error has (``CONSTANT_OF``), where the
    engine raised an error of the same type with a text of its own, none of those kinds: the
    text is all that differs, so the sentence names the constant (never PyTorch's text)."""
    if type(want) is not str or type(got) is not str:
        return None
    kind, _, said = want.partition(": ")
    got_kind, _, got_said = got.partition(": ")
    if kind != got_kind or got_said in _KNOWN.values() or got_said.startswith(IN_PLACE):
        return None
    return CONSTANT_OF.get(said.split(", at version")[0])


def quoted(exc: BaseException, whole: bool = False) -> str:
    """The error as the engine raised it, for a sentence: its type and the first line of its own
    message in quotes (``excerpt``): real text, never a paraphrase.  With ``whole``, a message
    compared with PyTorch's whole text (``WHOLE``) is quoted around the first character where
    the two part, read in the uncut line: that place may lie past ``MAX_TEXT``."""
    text = str(exc).strip()
    against = next((full for phrase, full in WHOLE.items() if phrase in text), None) if whole else None
    line = excerpt(text.splitlines()[0] if against is not None else first_line(exc), against)
    return f'{type_name(exc)}: "{line}"' if line else type_name(exc)


def _parted(line: str, against: str | None) -> int | None:
    """The first place where ``line`` and ``against`` differ (the end of the shorter one), or None."""
    if against is None or line == against:
        return None
    return next((i for i, (a, b) in enumerate(zip(line, against)) if a != b), min(len(line), len(against)))


def excerpt(line: str, against: str | None = None) -> str:
    """A long message cut to about ``QUOTED`` characters at words, with "…": from its start, or,
    when it tells versions (MODIFIED's "is at version 2; expected version 0") or parts from
    ``against`` (PyTorch's whole text) further on, from a few words before that place, the part
    a student compares with PyTorch's: a quote cut before it reads as PyTorch's own words."""
    if len(line) <= QUOTED:
        return line
    found = _VERSIONS.search(line)
    parted = _parted(line, against)
    if found is not None and found.end() > QUOTED:
        parted = found.start()
    elif parted is not None and parted + QUOTED // 4 <= QUOTED:  # the words that part are quoted from the start
        parted = None
    start = 0 if parted is None else line.rfind(" ", 0, max(0, parted - QUOTED // 2)) + 1
    part = line[start:start + QUOTED]
    if start + QUOTED < len(line):
        part = part.rsplit(" ", 1)[0] + " …"
    return ("… " if start else "") + part


def raised(fn: Callable[..., Any], label: str, *args: Any, whole: bool = False,
           other: tuple[str, object] | None = None) -> dict[str, Any]:
    """Whether ``fn(*args)`` raised, as ``error`` tells it (PyTorch's whole text compared with
    ``whole``, ``describe_error``), as a fact told as an error: "raised no error, where PyTorch
    raises one", never "is None"; the message quoted beside it (``SAID``, context, never
    compared) is what a sentence shows.  ``other`` names an in-place op's other operand: where
    the engine's check_in_place raised while handed it (``_checked``), its name is told (``REFUSED``)."""
    return _told(failure(fn, *args), label, fn, whole, other)


def _told(exc: Exception | None, label: str, fn: Callable[..., Any] | None, whole: bool = False,
          other: tuple[str, object] | None = None) -> dict[str, Any]:
    """``raised``'s fact of ``exc`` (None: no error), the function that raised it read in ``fn``'s file."""
    seen = {**result_of(None if exc is None else describe_error(exc, whole), label), REFERENCE: PYTORCH, RAISES: True,
            SAID: None if exc is None else quoted(exc, whole), RAISED_IN: None if exc is None else raised_in(exc, fn)}
    if other is not None and exc is not None and _checked(exc) is other[1]:
        seen[REFUSED] = other[0]
    return seen


def iadd(v: Any, other: Any, label: str, name: str) -> tuple[Any, dict[str, Any]]:
    """``v += other`` as a step of its own: what += bound to v (v itself where it raised), and
    ``raised``'s fact of it, the function that raised read in the file of v's ``__iadd__`` (the
    engine's), ``other`` told by ``name`` where check_in_place refused it."""
    bound = [v]

    def add() -> None:
        bound[0] += other
    exc = failure(add)
    site = getattr(type(v), "__iadd__", None) or getattr(type(v), "__add__", None)
    return bound[0], _told(exc, label, site, other=(name, other))


def returns_itself(fn: Callable[..., Any], v: Any, label: str, *args: Any) -> tuple[bool, dict[str, Any]]:
    """``fn(*args)``, an in-place op on ``v``, as a step of its own: whether it returned ``v``, as
    PyTorch's returns the tensor it changed (True where it raised: that error is the step's fact,
    told alone), and ``raised``'s fact of it."""
    got: list[Any] = [v]

    def call() -> None:
        got[0] = fn(*args)
    exc = failure(call)
    return got[0] is v, _told(exc, label, fn)


def _checked(exc: BaseException) -> object:
    """The Value the engine's ``check_in_place`` was handed (its first parameter) in the frame
    ``exc`` went through last, read at the raise site (the submission cannot reach frames);
    None where no ``check_in_place`` frame raised it."""
    frames = [frame for frame, _ in traceback.walk_tb(exc.__traceback__) if frame.f_code.co_name == CHECK]
    code = frames[-1].f_code if frames else None
    if code is None or code.co_argcount < 1:
        return None
    return frames[-1].f_locals.get(code.co_varnames[0])


def raised_in(exc: BaseException, fn: Callable[..., Any] | None) -> str | None:
    """The function of ``fn``'s own file that ``exc`` was raised in (its deepest frame there:
    ``MulBackward0.apply`` for a ``y.backward`` of the student's engine), or None (PyTorch's
    methods are not Python); a ``functools.partial`` (a call given keywords) by the function it calls."""
    fn = fn.func if isinstance(fn, functools.partial) else fn
    code = getattr(getattr(fn, "__func__", fn), "__code__", None)
    if code is None:
        return None
    found = [frame for frame, _ in traceback.walk_tb(exc.__traceback__)
             if frame.f_code.co_filename == code.co_filename]
    return qualified(found[-1])[:MAX_TEXT] if found else None

