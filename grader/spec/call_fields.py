"""The fields of a CALL fact that ``grader.spec.provenance.watching`` reads off what its ``Call``
recorded once the block ended: what a probe asked for (``asked_fields``), and the context told beside
a difference (how grad mode was turned off, which pass freed the graph a later one needed, what kept
a graph, Values given that the call detached).  Kept apart from ``watching``, which runs the block
and observes; these only read what it observed.
"""

from __future__ import annotations

from typing import Any

from grader.spec.call import Call
from grader.spec.call_records import is_value
from grader.spec.facts import CONTEXT


def kept_why(call: Call) -> dict[str, Any]:
    """Context of a call's passes, told beside a count or a kept graph that differs: each pass's
    create_graph (which keeps the graph as retain_graph=True does), where one asked it, and
    whether the student's code called detach() or detach_() after a pass began (``made`` only)."""
    return {**({CONTEXT + "created_graph": call.created_graph} if any(call.created_graph) else {}),
            **({CONTEXT + "detached_after": True} if call.detached_first else {})}


def switched_off(call: Call) -> dict[str, Any]:
    """Context of a call that ran with grad mode off: how its code turned the mode off (``~mode_off_by``:
    ``no_grad``, ``set_grad_enabled``, ``inference_mode``, ``decorated``), and the function decorated (``~mode_off_in``)."""
    if not call.grad_mode_off or call.switched_off is None:
        return {}
    by, name = call.switched_off
    return {CONTEXT + "mode_off_by": by, **({CONTEXT + "mode_off_in": name} if name else {})}


def freed_then_raised(call: Call) -> dict[str, Any]:
    """Context ``~freed_at``: the number of the first pass that let backward free the graph (no
    retain_graph=True) where the next pass, started from a node that pass started from too, raised:
    the graph that pass needed is the one the earlier pass freed.  Told where the counts of passes
    differ too (a pass run again after the error was caught), where the passes are not compared one
    by one."""
    passes = zip(call.kept_graph, call.raised_in, call.raised_in[1:], call.roots, call.roots[1:])
    freed = next((k for k, (kept, raised, next_raised, roots, next_roots) in enumerate(passes)
                  if not kept and not raised and next_raised and roots & next_roots), None)
    return {} if freed is None else {CONTEXT + "freed_at": freed}


def nodes_of(started_from: list[Any] | None) -> frozenset[int] | None:
    """The ids of the grad_fn nodes of the Values ``started_from`` (None when not asked)."""
    if started_from is None:
        return None
    return frozenset(id(v.grad_fn) for v in started_from if is_value(v) and v.grad_fn is not None)


def detached_given(started_from: list[Any] | None, given: frozenset[int] | None) -> dict[str, Any]:
    """The ``detached_given`` field: how many of the Values ``started_from`` had a grad_fn when
    the call began and none when it ended (``loss.detach_()`` after its backward), present only
    when some did.  The caller's Values are cut from their graph: what the call's passes started
    from is still told as given (their nodes as they were given)."""
    if started_from is None or not given:
        return {}
    return {"detached_given": True} if len(nodes_of(started_from) or ()) < len(given) else {}


def asked_fields(call: Call, reads_grad: bool, given: frozenset[int] | None, one_graph: bool,
           engine_walk: bool) -> dict[str, Any]:
    """The CALL fact's fields a probe asked ``provenance.watching`` for (see its docstring); ``given`` are
    the nodes of the Values it started from, taken as the call began."""
    fact = {}
    if reads_grad:
        fact["read_grad"] = call.read_grad
        fact["read_after_last_pass"] = call.read_since_pass
    if given is not None:
        fact["from_given"] = all(roots <= given for roots in call.roots)
    if one_graph:
        fact["one_graph"] = all(roots == call.roots[0] for roots in call.roots)
        fact.update(_roots_of_one_graph(call) if not fact["one_graph"] else {})
    if engine_walk:
        fact["engine_walk"] = call.engine_walk
    if call.nodes_read is not None:
        fact[CONTEXT + "read_edges"] = bool(call.nodes_read)
    return fact


def _roots_of_one_graph(call: Call) -> dict[str, Any]:
    """Context where a call's passes started from different roots of one graph (a later pass's
    roots inside the first pass's graph, or the first's inside the later one's: ``output[0][0]``
    beside ``loss``): the ops of the first pass's root and of the first later root that differs,
    so that nothing is said of a graph built again."""
    if not (call.overlaps and all(call.overlaps)):
        return {}
    later = next(nodes for roots, nodes in zip(call.roots, call.root_nodes) if roots != call.roots[0])
    return {CONTEXT + "roots_of_one_graph": [str(call.root_nodes[0][0].name()), str(later[0].name())]}
