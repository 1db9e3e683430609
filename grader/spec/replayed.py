"""Whether a Value the student's code made with the engine's operations depends on the Values
it was given: its operations made again, from fresh leaves in their place, with grad on.

A watched call (``provenance.watching(made=True)``) keeps, for each Value an engine operation
returned to the student's code, the engine function and its arguments.  Following the inputs
back tells that ``w`` took part (``w * 0 + Value(formula)``), not that the result was computed
from it.  Made again in the probe, where the student's code does not run (grad on, the given
Values replaced by leaves that require grad, every other Value by a constant of its number), the
operations give the result's gradient with respect to those leaves: none, or zero for every
one, when the number came from elsewhere.  Under no_grad nothing was recorded, so this is the
only graph there is to ask.  A gradient can be zero at the one point a call was given and not
elsewhere (``(x + w) * w + 1`` at w = x = 0): where every one is, the leaves are made once more
at other numbers (``SHIFT`` added), where a result computed from them has one that is not.
"""

from __future__ import annotations

from typing import Any

import micrograph
from micrograph.value import shares_storage

MAX_REPLAYED = 300
"""Operations made again at most: a longer chain is not judged (None)."""


class _NotReplayable(Exception):
    """An argument or function the probe does not call again (the student's own object)."""


def alias_of(x: Any, sources: tuple[Any, ...]) -> Any:
    """The one of ``sources`` whose number ``x`` shares (``x`` is its ``detach()`` or ``.data``),
    or None: an operation on it computes from that source's number, recorded or not."""
    return next((s for s in sources if isinstance(s, micrograph.Value) and s is not x
                 and shares_storage(x, s)), None)


SHIFT = 0.6180339887
"""Added to each given number for the second replay: no point a probe gives is moved onto another."""


def depends(v: Any, sources: tuple[Any, ...], call: Any) -> bool | None:
    """Whether ``v``'s operations, made again from leaves in place of ``sources``, give any of
    them a nonzero gradient, at the sources' numbers or, where each is zero there, at numbers
    ``SHIFT`` away; None when they cannot be made again."""
    found = _depends_at(v, sources, call, 0.0)
    return _depends_at(v, sources, call, SHIFT) if found is False else found


def _depends_at(v: Any, sources: tuple[Any, ...], call: Any, shift: float) -> bool | None:
    """``depends`` with the leaves made at the sources' numbers plus ``shift``."""
    leaves = {id(s): micrograph.Value(s.item() + shift, requires_grad=True) for s in sources
              if isinstance(s, micrograph.Value)}
    done: dict[int, Any] = {}

    def again(x: Any) -> Any:
        if isinstance(x, micrograph.Value):
            if id(x) in leaves:
                return leaves[id(x)]
            if id(x) in done:
                return done[id(x)]
            made = call.probe_made is not None and call.probe_made.get(id(x)) is x
            op = call.ops.get(id(x)) if made else None
            if op is None:  # an alias of what it was made from (detach, clone...), or a constant
                kept = call.inputs.get(id(x)) if made else None
                shared = None if made else alias_of(x, sources)
                if kept or shared is not None:
                    return again(kept[0] if kept else shared)
                return micrograph.Value(x.item())
            function, given = op
            if function is None or len(done) >= MAX_REPLAYED:
                raise _NotReplayable
            done[id(x)] = function(*[again(a) for a in given])
            return done[id(x)]
        if x is None or type(x) in (bool, int, float):
            return x
        if type(x) in (list, tuple):
            return type(x)(again(a) for a in x)
        raise _NotReplayable

    try:
        with micrograph.enable_grad():
            out = again(v)
        if not isinstance(out, micrograph.Value) or not out.requires_grad or not leaves:
            return False
        grads = micrograph.grad(out, list(leaves.values()), allow_unused=True)
    except Exception:  # noqa: BLE001 - what cannot be made again proves nothing either way
        return None
    return any(g is not None and g.item() != 0.0 for g in grads)
