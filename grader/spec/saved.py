"""What a node keeps for backward, read alike on a build-track engine's node and on PyTorch's,
so one probe compares the two: the engine's node keeps its operands in a ``saved`` dict
(``Node.save``, a given part of the stub), PyTorch's shows each as ``grad_fn._saved_self`` /
``_saved_other``."""

from __future__ import annotations

from grader.spec.probe import MAX_TEXT, type_name

SAVED_AS = ("self", "other")  # torch's names of what a node keeps: grad_fn._saved_self, _saved_other


def saved_operands(fn: object) -> list[str] | str | None:
    """The names of what a node keeps for backward, sorted: the engine's node keeps them in its
    ``saved`` dict (``Node.save``, a given part of the stub); torch's node shows each as
    ``grad_fn._saved_self`` / ``_saved_other``, None when it was not saved, and raises once
    backward freed it: the name is kept, as the engine's ``release`` keeps it."""
    if fn is None:
        return None
    held = getattr(fn, "saved", None)
    if held is None:
        return sorted(name for name in SAVED_AS if _torch_saved(fn, name))
    if type(held) is not dict:
        return f"saved is not a dict: {type_name(held)}"
    return sorted(name[:MAX_TEXT] if type(name) is str else type_name(name) for name in list(held)[:16])


def kept_apart(*values: object) -> bool:
    """Whether the nodes of ``values`` keep what they saved apart: an engine's nodes sharing one ``saved``
    dict (made on the class, not in ``__init__``) all show what any of them saved, and a product's "self"
    is a later one's.  PyTorch's nodes have no ``saved`` dict: theirs are apart.  One node found for two
    values (a node kept between calls) is one dict, not two shared: ``nodes_apart`` tells it."""
    nodes = {id(fn): fn for fn in (getattr(v, "grad_fn", None) for v in values)}.values()
    dicts = [d for d in (getattr(fn, "saved", None) for fn in nodes) if type(d) is dict]
    return len({id(d) for d in dicts}) == len(dicts)


def nodes_apart(*values: object) -> bool:
    """Whether each of ``values`` that has a node has one of its own, as each operation in PyTorch
    does: a node kept between calls (by its operation and its inputs' ids) is an earlier one's."""
    nodes = [fn for fn in (getattr(v, "grad_fn", None) for v in values) if fn is not None]
    return len({id(fn) for fn in nodes}) == len(nodes)


def _torch_saved(fn: object, name: str) -> bool:
    """Whether torch's node saved ``name``: its ``_saved_<name>`` is a tensor, or raises once freed."""
    try:
        return getattr(fn, f"_saved_{name}", None) is not None
    except RuntimeError:  # "... directly access saved tensors after they have already been freed"
        return True


def saved_as(fn: object, name: str) -> object:
    """What a node keeps for backward under torch's ``name`` ("self", "other"): the engine's
    node in its ``saved`` dict, torch's as ``grad_fn._saved_self`` / ``_saved_other`` (the input
    tensor itself, not a copy); None when nothing is kept so.  Only compared by identity."""
    held = getattr(fn, "saved", None)
    if held is None:
        return getattr(fn, f"_saved_{name}", None)
    return held.get(name) if type(held) is dict else None


def read_saved(fn: object, name: str) -> object:
    """What a node saved as ``name``, read as its backward reads it: through the engine's
    ``unpack`` (which refuses a freed value), torch's ``_saved_<name>`` (which raises then)."""
    unpack = getattr(fn, "unpack", None)
    return unpack(name) if callable(unpack) else getattr(fn, f"_saved_{name}")


def released(fn: object) -> bool | str | None:
    """Whether backward released a node that saved something (a product's: torch shows no
    release of a node that saved nothing): the engine's node set its ``released`` flag (a given
    part of the stub) or forgot its saved Values, whatever it holds in their place; torch's
    raises on reading a saved tensor once freed.  None for no node; a description of a
    ``saved`` that is not a dict."""
    if fn is None:
        return None
    held = getattr(fn, "saved", None)
    if held is None:
        return any(_freed(fn, name) for name in SAVED_AS)
    if type(held) is not dict:
        return f"saved is not a dict: {type_name(held)}"
    return getattr(fn, "released", None) is True or (bool(held) and not any(hasattr(v, "item") for v in held.values()))


def _freed(fn: object, name: str) -> bool:
    """Whether reading torch's ``_saved_<name>`` raises: freed by backward."""
    try:
        getattr(fn, f"_saved_{name}", None)
    except RuntimeError:  # "... directly access saved tensors after they have already been freed"
        return True
    return False


def with_zero(zero: list[str], label: str) -> str:
    """``label`` after the operand its product has at 0 (the program's: a = x + w at w = x = 0)."""
    return f"with {zero[0]} = 0: {label}" if zero else label
