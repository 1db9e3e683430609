"""Reading a chain of node names back against the graph it was read from (ex10's
``grad_fn_chain``): which edge the walk that gave those names went down where it left the
statement's (the first entry of ``next_functions`` that is not None), and whether its entries
are names at all or the nodes' own ``name`` methods, appended without their call.  A name alone
does not say which node it came from, so a walk is found by its names, the statement's path
tried first: a chain the statement's walk gives is never said to leave it.
"""

from __future__ import annotations

from types import MethodType, ModuleType
from typing import Any

from micrograph import Node, Value  # bound now, before the submission is imported

from grader.spec.facts import CONTEXT, Check
from grader.spec.mode_restored import called
from grader.spec.probe import type_name
from grader.spec.provenance import check, result_of
from grader.spec.repeat import each_as_if_first
from grader.spec.seen import Seen


def names_of(names: object) -> list | str:
    """A returned list of names, checked to be plain strings."""
    if type(names) is not list or not all(type(n) is str for n in names):
        return f"not a list of str: {type_name(names)}"
    return names


def read_chains(sub: ModuleType, graphs: list[tuple[str, Value]]) -> list[list[dict[str, Any]]]:
    """grad_fn_chain(y) of each graph (its label, y), beside how a chain that is not the statement's
    was walked, and whether it is what the same call returns first in a fresh import of the
    student's code: a chain kept by id(y) is another y's where y took a freed y's id."""
    facts, made, labels = [], [], []
    for label, y in graphs:
        names, full = called("grad_fn_chain", sub.grad_fn_chain, y), f"for y = {label}, grad_fn_chain(y)"
        facts.append([result_of(names_of(names), full), names_called(names, full, y), first_entries(y, names, full),
                      names_repeated(y, names, full)])
        made.append((y, Seen(names_of(names))))
        labels.append(full)
    fresh = each_as_if_first(sub, lambda m, y: m.grad_fn_chain(y), names_of, made, labels, "grad_fn_chain")
    return [[*own, same] for own, same in zip(facts, fresh)]


def names_called(names: object, label: str, y: Value | None = None) -> dict[str, Any]:
    """The CHECK fact that no entry of a returned chain is a node's own ``name`` method (the
    ``node.name`` appended without its call), nor, read from ``y``, a letter of the names (context
    ``~letters``: every entry one character, the first of them spelling y.grad_fn's name, as
    ``names += node.name()`` adds a str letter by letter); None where the chain is no list."""
    if type(names) is not list:
        return check(Check.NAME_CALLED, None, label)
    uncalled = any(type(n) is MethodType and isinstance(n.__self__, Node) and n.__func__ is type(n.__self__).name
                   for n in names)
    root = None if y is None or y.grad_fn is None else y.grad_fn.name()
    letters = root is not None and len(names) > 1 and all(type(n) is str and len(n) == 1 for n in names) and (
        "".join(names).startswith(root))
    return {**check(Check.NAME_CALLED, not (uncalled or letters), label), **({CONTEXT + "letters": True} if letters else {})}


def first_entries(y: Value, names: object, label: str) -> dict[str, Any]:
    """The CHECK fact that a chain of names is no walk's that left a node other than through the
    first entry of its next_functions that is not None: False, with the node as context ``~op``,
    where the names are those of a walk that went on from it through a later entry, or (context
    ``~none_first``) of one that ended there, at a first entry that is None, where a later
    entry leads on.  None where the chain is no list of str."""
    if type(names) is not list or not all(type(n) is str for n in names):
        return check(Check.FIRST_NOT_NONE, None, label)
    left = _left_at(y.grad_fn, names) if names else True
    if type(left) is not tuple:
        return check(Check.FIRST_NOT_NONE, True, label)
    return {**check(Check.FIRST_NOT_NONE, False, label), CONTEXT + "op": left[0],
            **({CONTEXT + "none_first": True} if left[1] else {})}


def _left_at(node: Any, names: list[str], at: int = 0) -> tuple[str, bool] | bool:
    """How a walk down next_functions from ``node`` whose names are ``names[at:]`` differs from
    the statement's: (the name of the first node it left otherwise than through the first entry
    that is not None, whether it ended there at a first entry None); True where the statement's
    walk gives these names, or names that end where the node the walk goes on to bears a name the
    chain holds already (a walk that lists each name once went on); False where no walk does (the
    names read no path of this graph)."""
    if node is None or hasattr(node, "variable") or node.name() != names[at]:
        return False
    entries = [child for child, _ in node.next_functions]
    onward = [child for child in entries if child is not None]
    if at == len(names) - 1:  # the walk ended at this node
        if not onward or hasattr(onward[0], "variable") or onward[0].name() in names:
            return True  # a name met again on: the walk may have gone on, dropping names already listed
        ended_at_leaf = any(hasattr(child, "variable") for child in onward[1:])
        return (node.name(), entries[0] is None) if entries[0] is None or ended_at_leaf else False
    for place, child in enumerate(onward):
        found = _left_at(child, names, at + 1)
        if found is not False:
            return found if place == 0 else (node.name(), False)
    return False


def names_repeated(y: Value, names: object, label: str) -> dict[str, Any]:
    """The CHECK fact that a chain of names is not the statement's walk with every name it meets again left
    out (``list(dict.fromkeys(names))``, or a set of names seen): False, with the first name the walk meets
    more than once as context ``~op``, where the chain is that and the walk meets a name twice.  A walk that
    stopped early may give the same names: the sentence says only which name the chain holds once, and where
    the chain's last node has a first entry None (``~none_first``, the node as ``~name``), that it ends there.  None
    where the chain is no list of str."""
    if type(names) is not list or not all(type(n) is str for n in names):
        return check(Check.NAMES_REPEATED, None, label)
    nodes, node = [], y.grad_fn
    while node is not None and not hasattr(node, "variable"):  # the statement's walk
        nodes.append(node)
        node = next((child for child, _ in node.next_functions if child is not None), None)
    walk = [n.name() for n in nodes]
    dropped = names == list(dict.fromkeys(walk)) != walk
    fact = check(Check.NAMES_REPEATED, not dropped, label)
    if not dropped:
        return fact
    end = nodes[len(names) - 1]  # where a walk that stopped early, not one that dropped names, ended
    stopped = bool(end.next_functions) and end.next_functions[0][0] is None  # at a first entry None
    return {**fact, CONTEXT + "op": next(n for n in walk if walk.count(n) > 1),
            **({CONTEXT + "none_first": True, CONTEXT + "name": end.name()} if stopped else {})}
