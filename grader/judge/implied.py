"""Differences already implied by another one found beside them.

``differences.find`` collects every difference between two observations; some of them only
restate, one level down, what another already says of the whole: a part of something that is
None, a number standing for a missing gradient, an entry of a dict that gave two leaves one
entry.  ``implied`` names those, so that the sentence of the whole is told alone.
"""

from __future__ import annotations

from grader.judge.check_sentences import SayCheck
from grader.judge.explained import Difference
from grader.judge.leaf_sentences import SayLeaf
from grader.judge.sentences import Say
from grader.judge.torch_sentences import SayTorch
from grader.judge.walk_sentences import SayWalk

_NONE_SAYS = {Say.RESULT_NONE, Say.RESULT_NOT_NONE, Say.RESULT_TEXT_NOT_NONE, Say.RESULT_TYPED_NOT_NONE, Say.NO_ENTRY, Say.EXTRA_ENTRY, SayTorch.TORCH_NONE, SayTorch.TORCH_NOT_NONE}


def implied(d: Difference, found: list[Difference]) -> bool:
    """Whether another difference of ``found`` already tells ``d``."""
    return (_part_of_none(d, found) or _number_for_none(d, found) or _entry_of_merged(d, found)
            or _alias_of_one_leaf(d, found) or _number_following_calls(d, found) or _name_told(d, found)
            or _leaf_not_requiring_grad(d, found) or _flag_of_detach_dropped(d, found))


def _label(d: Difference) -> str:
    return dict(d.fields).get("label", "")


def _part_of_none(d: Difference, found: list[Difference]) -> bool:
    """Whether ``d`` says that a part of something (``y.grad_fn.next_functions``) is None or
    not, where another difference already says so of the whole (``y.grad_fn``): when y has no
    grad_fn there is no next_functions to be None."""
    if d.say not in _NONE_SAYS:
        return False
    label = _label(d)
    return any(e.say is d.say and label.startswith(dict(e.fields).get("label", "\0") + ".")
               for e in found)


def _number_for_none(d: Difference, found: list[Difference]) -> bool:
    """Whether ``d`` says that a number a call returned was not read from the engine, where
    another difference says that an entry of that result is not None (or is there at all) where
    the statement's is: a number standing for a missing gradient (0.0 for None) is no formula, and the entry's own
    sentence tells it."""
    if d.say is not SayCheck.NOT_READ_FROM_GRAD:
        return False
    label = _label(d)
    return any(e.say in (Say.RESULT_NOT_NONE, Say.RESULT_TEXT_NOT_NONE, Say.RESULT_TYPED_NOT_NONE, Say.EXTRA_ENTRY)
               and _label(e).startswith(label + "[") for e in found)


def _entry_of_merged(d: Difference, found: list[Difference]) -> bool:
    """Whether ``d`` tells an entry of a dict keyed by leaves (``backprop(g)[u]``) where another
    difference says that dict gave two leaves of one number one entry: the entry missing and the
    one holding both leaves' gradient follow from it."""
    label = _label(d)
    return any(e.say in (SayWalk.LEAVES_MERGED, SayWalk.LEAVES_SHARED) and label.startswith(dict(e.fields).get("label", "\0") + "[") for e in found)


def _alias_of_one_leaf(d: Difference, found: list[Difference]) -> bool:
    """Whether ``d`` says that the Value returned under one name is the one returned under another
    (``x`` and ``w``), where another difference says the call made one leaf for both of them: that
    sentence tells the same Value, and what the statement makes instead."""
    if d.say is not Say.NAME_ALIAS:
        return False
    name, alias = _label(d).partition(" (")[0], dict(d.fields).get("name", "")
    return any(e.say is SayLeaf.ONE_FOR_TWO and {dict(e.fields).get("name"), dict(e.fields).get("leaf")} == {name, alias}
               for e in found) or any(  # told of the same names with the calls' notes ("x (w without grad)")
        e.say is Say.NAME_ALIAS and _label(e).startswith(name + " (") and dict(e.fields).get("name") == alias
        for e in found if "(" not in _label(d))


def _number_following_calls(d: Difference, found: list[Difference]) -> bool:
    """Whether ``d`` says that a Value the test's other calls move (``facts.FOLLOWS_CALLS``: a
    parameter of the model ex15 gives train at a freed trained model's id) holds another number,
    where another difference of the test says how those calls differ (a loss, a step): their slip
    moves that number too, and its sentence would point at a state kept by id that the answer need
    not keep."""
    return d.say is Say.DATA and d.follows_calls and any(not e.context and not e.follows_calls for e in found)


def _names_a_node(label: str) -> bool:
    """Whether ``label`` reads a node's name(): a Value's grad_fn, or the node of an entry of a
    node's next_functions."""
    return label.endswith(".grad_fn") or ".next_functions[" in label and label.endswith("][0]")


def _name_told(d: Difference, found: list[Difference]) -> bool:
    """Whether ``d`` says that a node's name() is another text than PyTorch's (the build track),
    where an earlier difference of ``found`` says so of a node with the same name: the one slip of
    that node class's name(), which every node of it (as an entry of a later node's
    next_functions too) shows again."""
    if d.say is not SayTorch.TORCH_TEXT or not _names_a_node(_label(d)):
        return False
    text = dict(d.fields).get("text")
    return any(e.say is d.say and dict(e.fields).get("text") == text and _names_a_node(_label(e))
               for e in found[:found.index(d)])


def _leaf_not_requiring_grad(d: Difference, found: list[Difference]) -> bool:
    """Whether ``d`` says that a graph never reaches a leaf (``input[0][1]``) where another
    difference says that leaf has requires_grad=False: no graph records a Value that requires no
    grad, so that sentence tells why, and this one adds nothing."""
    leaf = dict(d.fields).get("leaf")
    return d.say is Say.NO_LEAF and any(e.say is Say.REQUIRES_GRAD and _label(e) == leaf
                                        and dict(e.fields).get("flag") in (False, "False") for e in found)


def _flag_of_detach_dropped(d: Difference, found: list[Difference]) -> bool:
    """Whether ``d`` says that a leaf requires grad (its flag True, a graph reaching it) where
    another difference says the call dropped the Value a detach() of that leaf returned: that
    sentence says the leaf was left requiring grad, and why; told of each leaf whose detach() was
    dropped, it is not crowded out by its own consequences."""
    fields = dict(d.fields)
    if d.say is Say.REQUIRES_GRAD and fields.get("flag") in (True, "True"):
        leaf = _label(d).partition(" (")[0]
    elif d.say is Say.EXTRA_LEAF:
        leaf = fields.get("leaf", "")
    else:
        return False
    return any(e.say is SayCheck.DETACH_DROPPED and dict(e.fields).get("leaf") == leaf for e in found)
