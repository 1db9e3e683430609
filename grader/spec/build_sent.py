"""Which leaf got which gradient after one backward through one operation (ex17's rules): the
gradients a node's apply returns are handed out by place, the first to the node of the first
entry of next_functions, the second to the second's, an input that requires no grad keeping
its place with the entry (None, 0).  A leaf's .grad that differs is told by where it came from,
where the engine's own apply shows that."""

from __future__ import annotations

from typing import Any, Callable

from grader.spec.build import fact
from grader.spec.build_backward_checks import sent_by_product, zero_dropped
from grader.spec.buffer_keys import keys_looked_up, shared_lookup
from grader.spec.build_reads import edge_node, grad_quiet
from grader.spec.facts import CONTEXT


def leaf_grad(sub: Any, held: Any, label: str) -> dict[str, Any]:
    """``held.grad`` (a leaf's) after a backward, as PyTorch shows it; where it is None, the function
    of the engine that writes nothing for a gradient of 0, if one does (``~zero_dropped``): a
    program whose gradient is 0 then shows None, told with that function."""
    seen = fact(grad_quiet(held), label)
    dropped = zero_dropped(sub) if seen["value"] is None else None
    return {**seen, CONTEXT + "zero_dropped": dropped} if dropped is not None else seen


def one_op(sub: Any, w: float, x: float, op: Callable[[Any, Any], Any], said: str,
           sent: tuple[float, float]) -> list[Any]:
    """The gradients of backward through one operation on two leaves, whose node sends them
    ``sent``: one leaf given both, summed, and the other 0 where they differ from ``sent`` is two
    AccumulateGrad nodes' gradients kept in one buffer (``~one_buffer``), under a key the nodes
    share (their name(), one for every AccumulateGrad), told as that, with the function that looked it
    up and which of the two it was where a dict it held shows (``buffer_keys``); each given both, summed,
    is that buffer read by both nodes (``~both_buffer``), told where that key shows; each given the other's
    (``~swapped``), where the two differ, is a gradient handed to another entry's node."""
    wl, xl = sub.Value(w, requires_grad=True), sub.Value(x, requires_grad=True)
    y = op(wl, xl)
    looked_up = keys_looked_up(sub, y.backward)
    got = [grad_quiet(wl), grad_quiet(xl)]
    merged = sorted(got, key=repr) == sorted([sent[0] + sent[1], 0.0], key=repr) != sorted(sent, key=repr)
    swapped = got == [sent[1], sent[0]] != list(sent)
    both = got == [sent[0] + sent[1]] * 2 != list(sent)  # one buffer, read by each node and never emptied
    keyed = shared_lookup(looked_up, [edge_node(y.grad_fn, 0), edge_node(y.grad_fn, 1)]) if merged or both else None
    seen = {CONTEXT + "one_buffer": " ".join(keyed) if keyed else True} if merged \
        else {CONTEXT + "both_buffer": " ".join(keyed)} if both and keyed else {CONTEXT + "swapped": True} if swapped else {}
    return [{**leaf_grad(sub, held, f"{name}.grad for y = {said}"), **seen} for held, name in ((wl, "w"), (xl, "x"))]


def past_constant(sub: Any) -> list[Any]:
    """w.grad after backward through c * w, c a Value that requires no grad, its entry (None, 0)
    first: w given the gradient the engine's own apply returns first, for c, where the two
    differ, is a gradient paired with the entries that hold a node alone, skipping (None, 0)
    (``~past_constant``).  Nothing where c * w or its backward raises: the rules of recording
    and of the edges tell that."""
    c, w = sub.Value(3.0), sub.Value(0.75, requires_grad=True)
    try:
        y = c * w
        sent = sent_by_product(sub)
        y.backward()
    except Exception:  # noqa: BLE001 - an engine that records no node for c * w is told by ex16's rules
        return []
    seen = leaf_grad(sub, w, "w.grad for y = c * w")
    first = sent is not None and seen["value"] == sent[0] != sent[1]
    return [{**seen, CONTEXT + "past_constant": True} if first else seen]
