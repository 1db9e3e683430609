"""What a message carried by an error says, in the student's language: an engine's PyTorch text
(kept as it is, students search for it, with what it says after it in another language) and a
probe's own message about a result of the wrong shape (``probe.shape_error``)."""

from __future__ import annotations

import re

from micrograph.i18n import SOURCE_LANGUAGE

from grader.i18n import N_, _, language
from grader.spec.probe import MAX_TEXT

_TORCH_MESSAGES = (  # the start of a message the engine copies from PyTorch, and what it says:
    # a translation of the message, never a cause (the code that raised it may be wrong itself)
    ("Trying to backward through the graph a second time",
     N_("backward went through a graph a second time, or read its saved values after they were "
        "freed; a backward frees them unless it is given retain_graph=True")),
    ("a leaf Variable that requires grad is being used in an in-place operation",
     N_("a leaf that requires grad is used in an in-place operation")),
    ("one of the variables needed for gradient computation has been modified by an inplace",
     N_("a value needed to compute a gradient was changed by an in-place operation")),
    ("does not require grad and does not have a grad_fn",
     N_("backward from a value that does not require grad and has no grad_fn")),
    ("One of the differentiated Tensors does not require grad",
     N_("grad() was asked for the gradient of an input that does not require grad")),
    ("expected Variable or None",
     N_("a custom Function's backward returned, for an input of forward, something that is "
        "neither a Value nor None")),
    ("grad can be implicitly created only for scalar outputs",
     N_("backward from several outputs needs a gradient for each of them")),
    ("The .grad attribute of a Tensor that is not a leaf Tensor is being accessed",
     N_("the .grad of a non-leaf is read: backward fills it in only after retain_grad() was "
        "called on it")),
)


def _whole_words(message: str) -> str:
    """A message the child cut at ``probe.MAX_TEXT`` characters ends at a word, with "…"."""
    if len(message) < MAX_TEXT or " " not in message:
        return message
    return message.rsplit(" ", 1)[0] + " …"


# ``probe.shape_error``'s message for a call that returned None: the function, then the shape.
_RETURNED_NONE = re.compile(r"(?P<function>\w+) returned None; (?P<rest>.+)", re.DOTALL)
# A probe's message about a result of the wrong shape, when it names the shape in code (a
# dict or tuple literal) or the type returned: the words around them translated.
_PROBE_FORMS = (
    (re.compile(r"(?P<function>\w+) must return the nn\.MLP it builds, not (?P<type>[\w.]+)"),
     N_("{function} must return the nn.MLP it builds, not {type}")),
    (re.compile(r"(?P<function>\w+) must return (?P<what>[\[{(].*)"), N_("{function} must return {what}")),
)


def probe_said(message: str) -> str:
    """A probe's message in the student's language (``grader/exercises`` marks a fixed one with
    ``N_``; one that names code is worded as a ``_PROBE_FORMS`` pattern), or an engine's
    PyTorch text as ``torch_explained`` gives it."""
    translated = _(message)
    if translated != message:
        return translated
    none = _RETURNED_NONE.fullmatch(message)
    if none is not None:
        return _("{function} returned None; {rest}", function=none.group("function"),
                 rest=probe_said(none.group("rest")))
    for pattern, msgid in _PROBE_FORMS:
        found = pattern.fullmatch(message)
        if found is not None:
            return _(msgid, **found.groupdict())
    return torch_explained(message)


def torch_explained(message: str) -> str:
    """A PyTorch error text as the engine gives it (students search for it), followed in a
    language other than English by what the message says, in that language: a translation,
    not a diagnosis of the code that raised it."""
    message = _whole_words(message)
    if language() == SOURCE_LANGUAGE:
        return message
    for start, meaning in _TORCH_MESSAGES:
        if start in message:
            return _("{message} (the message says: {meaning})", message=message, meaning=_(meaning))
    return message
