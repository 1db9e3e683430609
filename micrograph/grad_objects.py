"""Gradient objects as torch's engine hands them around: who holds each one, and its version.

A leaf's first ``.grad`` is not always a new tensor at version 0 in torch.  Its
engine sums the gradients that meet at a node *in place* when it holds the only
reference to the first one (``InputBuffer::accumulate``: ``old.add_(new)``, one
version each), and ``AccumulateGrad`` keeps the summed tensor itself as
``.grad`` when nobody else holds it, or else a copy (``copy_``: version 1).  A
gradient is held elsewhere when a node passed its incoming gradient through
unchanged to several edges (``+``, ``clone``), when it is a view (``sum``'s
expand, whose ``.grad`` then shares memory with its siblings), when it is the
root gradient (the caller holds it), or when a tensor hook kept it.

The engine's floats carry no identity, so this module keeps a record
(:class:`GradTensor`) for each gradient that is shared, a view, or was changed
in place; a gradient with no record is a new tensor with one holder, the common
case, which costs nothing.  A node class says how its gradients relate to the
one it received with ``Node.sends`` (``node.Sends``).  Under ``create_graph`` torch sums out of place
and copies into ``.grad``: no record is kept; nor in a pass where nothing can see a gradient object
(no tensor hook, no ``grad()``, no leaf getting its first ``.grad``: a training step that keeps its
``.grad`` objects), where the records would change nothing.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Collection, Mapping, Sequence

from micrograph.handles import needs_full_loop
from micrograph.node import AccumulateGrad, Sends
from micrograph.value import Value

if TYPE_CHECKING:
    from micrograph.node import Grad, Node

PINNED = 1 << 30  # the holders of a root gradient: the caller keeps it for the whole pass
# Sends' members as module constants: reading ``Sends.SAME`` goes through the enum's descriptor each time
SAME, EXPAND, SPREAD, MASKED = Sends.SAME, Sends.EXPAND, Sends.SPREAD, Sends.MASKED


class GradTensor:
    """One gradient tensor: its memory, its version counter, how many hold it."""

    __slots__ = ("storage", "vc", "refs", "alias", "base", "views", "user")

    def __init__(self, storage: list[float], vc: list[int], refs: int = 1,
                 alias: bool = False, base: GradTensor | None = None) -> None:
        self.storage = storage  # the memory: shared by views of one expanded gradient
        self.vc = vc  # the version counter: shared by every view of one tensor
        self.refs = refs  # buffers and pending outputs holding this very tensor
        self.alias = alias  # a view: torch never adds into it in place
        self.base = base  # the tensor a view shares its memory with
        self.views = 0  # live views of this tensor: while any lives, the memory is shared, no add_ into it
        self.user: weakref.ref[Value] | None = None  # the Value a tensor hook received, if kept: one more holder

    def holders(self) -> int:
        kept = self.user is not None and self.user() is not None
        return self.refs + kept

    def sole(self) -> bool:
        """torch's ``can_accumulate_inplace``: one holder, memory not shared with a view, not a view."""
        return self.holders() == 1 and not self.views and not self.alias

    def release(self) -> None:
        self.refs -= 1
        if self.refs == 0 and self.base is not None:
            self.base.views -= 1


def _first_grad_in(order: Sequence[Node]) -> bool:
    """Whether a leaf gets its first ``.grad`` in this pass (searched from the end, where the oldest
    leaves, the likeliest new ones, run)."""
    for node in reversed(order):
        if type(node) is AccumulateGrad and node.variable._grad is None and node.variable._requires_grad:
            return True
    return False


class Ledger:
    """The records of one backward pass: the gradient waiting in each node's buffer, if it needs one."""

    def __init__(self, buffers: dict[Node, Grad], roots: Sequence[tuple[Node, Grad]], order: Sequence[Node],
                 create_graph: bool, captured: Collection[Node] = (), seeds: Mapping[Node, Value] | None = None) -> None:
        self.buffers = buffers
        self.captured_nodes = captured  # grad()'s inputs: what it returns is their gradient object
        self.records: dict[Node, GradTensor] = {}  # the gradients in buffers that need one
        self.sums: dict[Node, int] = {}  # in-place sums into a buffer's gradient that has no record
        self.seeds = seeds or {}  # a root's gradient given by the caller: hooks receive (and change) that object
        self.hooks = bool(needs_full_loop)  # whether any node may have a tensor hook (else none is read)
        # Only a tensor hook, grad()'s capture and a leaf's first .grad show a gradient object: in a pass
        # with none of them (a training step that keeps its .grad objects) records would change nothing.
        self.active = not create_graph and (self.hooks or bool(captured) or _first_grad_in(order))
        if self.active:
            starts = [node for node, _ in roots]
            for node in starts:  # the caller holds each root gradient: never summed into, never kept as .grad
                count = starts.count(node)
                if count == 1:
                    seed = self.seeds.get(node)
                    memory = ([buffers[node]], [0]) if seed is None else (seed._storage, seed._shared_vc())
                    self.records[node] = GradTensor(*memory, refs=PINNED)
                elif count > 2:  # a root given k times: the first two summed into a new tensor, the rest in place
                    self.sums[node] = count - 2

    # -- summing in a buffer ----------------------------------------------------------------
    def seen(self, node: Node) -> bool:
        """Whether the gradient object in ``node``'s buffer can be observed: it becomes a leaf's
        ``.grad``, ``grad()`` returns it, a tensor hook receives it, or the node passes it on; for
        other nodes only the references they hold to shared gradients matter."""
        return node.sends is not None or self.hooks and node._hooks is not None or node in self.captured_nodes  # AccumulateGrad: KEEP

    def add(self, node: Node, old: Grad, new: Grad) -> Grad:
        """``old + new`` in ``node``'s buffer: in place into ``old`` if only the buffer holds it.

        The engine sums a gradient nobody else holds itself, counting in ``sums``.
        """
        total = old + new
        if not self.active:
            return total
        held = self.records.get(node)
        if held is None:  # a new tensor with one holder: add_ into it
            self.sums[node] = self.sums.get(node, 0) + 1
        elif not held.sole() or not self.seen(node):  # old + new is a new tensor
            held.release()
            del self.records[node]
            self.sums[node] = 0
        else:
            held.storage[0] = total
            held.vc[0] += 1
        return total

    def shows(self, nodes: Sequence[Node | None]) -> bool:
        """Whether one of ``nodes`` shows the gradient object it receives: :meth:`seen`'s test, written
        out because the short loop asks it for every ``+`` node."""
        hooks, captured = self.hooks, self.captured_nodes
        for n in nodes:
            if n is not None and (n.sends is not None or hooks and n._hooks is not None or n in captured):
                return True
        return False

    # -- a node passing its gradient on ---------------------------------------------------------
    def send(self, node: Node, g: Grad, grads: Sequence[Grad], held: GradTensor | None,
             needed: set[Node] | None) -> None:
        """Put ``grads`` into the buffers of ``node``'s edges, with the records of shared gradients.

        All of a node's outputs exist at once (torch sums them into buffers one by one), so the
        references they hold are counted before the first is summed anywhere.  When the node's
        gradients are new tensors, or its own gradient is not shared and no edge leads to a node
        that shows its gradient object, nothing it sends can be observed: no records of its own.
        """
        buffers, records, sums = self.buffers, self.records, self.sums
        if self.active and node.sends is not None and (
                held is not None and held.refs < PINNED and held.holders() != 1 or self.shows(node)):
            if node.sends is SAME and not self.hooks and needed is None:
                return self._send_same(node, g, grads, held)
            return self._send_shared(node, g, grads, held, needed)
        if held is not None:  # the shared gradient it received: one holder less
            held.release()
        for nxt, gi in zip(node, grads):  # gi None: no gradient along this edge (a custom Function may say so)
            if nxt is not None and gi is not None and (needed is None or nxt in needed):
                if nxt not in buffers:
                    buffers[nxt] = gi
                elif nxt in records:  # a gradient someone else may hold: in place or not
                    buffers[nxt] = self.add(nxt, buffers[nxt], gi)
                else:  # only this buffer holds it: torch sums into it in place
                    buffers[nxt], sums[nxt] = buffers[nxt] + gi, sums.get(nxt, 0) + 1

    def _send_shared(self, node: Node, g: Grad, grads: Sequence[Grad], held: GradTensor | None,
                     needed: set[Node] | None) -> None:
        """:meth:`send` when what the node sends can be observed: one record per shared output."""
        buffers, hooks, captured = self.buffers, self.hooks, self.captured_nodes
        kind = node.sends
        same = kind is SAME
        views = kind is EXPAND or kind is SPREAD
        edges: list[tuple[Node, Grad, bool]] = []
        shares = 0  # the outputs that hold the node's own gradient (SAME) or a view of it
        hooked = False  # an output goes to a node with tensor hooks
        for nxt, gi in zip(node, grads):
            if nxt is not None and gi is not None and (needed is None or nxt in needed):
                shared = views or same and gi is g
                shares += shared
                if hooks and nxt._hooks:
                    hooked = True
                edges.append((nxt, gi, shared))
        src = held if held is not None else GradTensor([g], [self.sums.get(node, 0)])  # summed into in place: its version
        if views:  # the node's input lets go; its views share the memory (SPREAD: of one new tensor)
            src.release()
            src = src if kind is EXPAND else GradTensor([g], [0], refs=0)
        else:  # the outputs hold the same tensor; the node's input lets go
            src.refs += shares
            src.release()
        records = self.records
        quiet = src.refs >= PINNED and not hooked  # no hook can change src here
        summed: list[GradTensor] = []
        plain_views: GradTensor | None = None
        for nxt, gi, shared in edges:
            if not shared:
                rec = GradTensor([gi], [1]) if kind is MASKED else None
            elif same:  # the caller holds a root gradient anyway: no record where nobody sees it
                shows = nxt.sends is not None or hooks and nxt._hooks is not None or nxt in captured
                rec = None if quiet and not shows else src
            elif not (nxt.sends is not None or hooks and nxt._hooks is not None or nxt in captured):  # views nobody sees: one record
                if plain_views is None:
                    plain_views = self._view(src, gi, kind)
                else:
                    plain_views.refs += 1
                rec = plain_views
            else:  # a view: it shares src's memory while it lives
                rec = self._view(src, gi, kind)
            if nxt not in buffers:  # moved into the buffer
                buffers[nxt] = gi
                if rec is not None:
                    records[nxt] = rec
            else:
                buffers[nxt] = self.add(nxt, buffers[nxt], gi)
                if rec is not None:  # summed, but the output itself lives until the node has sent all
                    summed.append(rec)
        for rec in summed:
            rec.release()

    def _send_same(self, node: Node, g: Grad, grads: Sequence[Grad], held: GradTensor | None) -> None:
        """:meth:`_send_shared` for a node passing on its gradient itself (``+``) when no tensor hook
        lives and every node runs: the outputs that are ``g`` hold one tensor, the others are new."""
        buffers, records, captured = self.buffers, self.records, self.captured_nodes
        shares = 0
        for nxt, gi in zip(node, grads):
            if nxt is not None and gi is g:
                shares += 1
        src = held if held is not None else GradTensor([g], [self.sums.get(node, 0)])  # summed into in place: its version
        src.refs += shares  # the outputs hold it; the node's input lets go
        src.release()
        quiet = src.refs >= PINNED  # the caller holds a root gradient anyway: no record where nobody sees it
        summed = 0
        for nxt, gi in zip(node, grads):
            if nxt is None or gi is None:
                continue
            shared = gi is g and not (quiet and nxt.sends is None and nxt not in captured)
            if (old := buffers.get(nxt)) is None:  # moved into the buffer
                buffers[nxt] = gi
                if shared:
                    records[nxt] = src
            else:
                buffers[nxt] = self.add(nxt, old, gi)
                summed += shared  # summed, but the output itself lives until the node has sent all
        for _ in range(summed):
            src.release()

    @staticmethod
    def _view(src: GradTensor, gi: Grad, kind: Sends | None) -> GradTensor:
        """A view of ``src``: its own tensor on src's memory (EXPAND) or on one element of it (SPREAD)."""
        base = src.base if src.base is not None else src  # a view of a view shares the first one's memory
        base.views += 1
        return GradTensor(src.storage if kind is EXPAND else [gi], src.vc, alias=True, base=base)

    # -- tensor hooks see the gradient object ---------------------------------------------------
    def wrap(self, node: Node, g: Grad) -> Value:
        """The Value a tensor hook receives: the gradient tensor itself, its memory and version."""
        if not self.active:
            return Value._shared([g], None)
        held = self.records.get(node)
        if held is None:
            held = self.records[node] = GradTensor([g], [self.sums.get(node, 0)])
        v = Value._shared(held.storage, held.vc)
        held.user = weakref.ref(v)
        return v

    def unwrap(self, node: Node, v: Value) -> Grad:
        """The gradient after the hooks: changed in place (every holder sees it), or replaced by a new one."""
        g = v._storage[0]
        held = self.records.get(node)
        if held is None or v._storage is not held.storage:  # a hook returned another Value: a new tensor
            if held is not None:
                held.release()
                del self.records[node]
            self.sums.pop(node, None)
            return g
        for other, rec in self.records.items():
            if rec.storage is held.storage and other is not node:
                self.buffers[other] = rec.storage[0]
        return g

    # -- the gradient a leaf gets --------------------------------------------------------------------
    def captured_before_hooks(self, node: Node, g: Grad) -> Grad:
        """``grad()``'s result for an input whose node runs on: the tensor its hooks then receive
        (an in-place change there shows in the result), as torch captures the object itself."""
        if not self.active:
            return g
        held = self.records.get(node)
        if held is None:
            held = self.records[node] = GradTensor([g], [self.sums.get(node, 0)])
        held.refs += 1  # the result holds it: never summed into in place, never kept as a .grad
        return self._object(node, held)

    def captured(self, node: Node, g: Grad, held: GradTensor | None) -> Grad:
        """What ``grad()`` returns for an input: the gradient tensor itself, as torch's capture."""
        if not self.active:
            return g
        if held is None:
            sums = self.sums.get(node, 0)
            return Value._shared([g], [sums]) if sums else g
        held.refs += 1  # the result holds it
        return self._object(node, held)

    def _object(self, node: Node, held: GradTensor) -> Value:
        """The Value for a gradient tensor: the caller's own object for its root gradient (torch's
        ``grad(c, c, grad_outputs=g)`` returns ``g`` itself), else a new Value on its memory."""
        seed = self.seeds.get(node)
        return seed if seed is not None and seed._storage is held.storage else Value._shared(held.storage, held.vc)

    def new_grad(self, node: Node, g: float, held: GradTensor | None) -> tuple[list[float], list[int] | None]:
        """Storage and version counter of a leaf's first ``.grad``: the gradient itself if only the buffer
        held it, else a copy (``new_empty().copy_()``: version 1)."""
        if held is None:
            sums = self.sums.get(node, 0)
            return [g], [sums] if sums else None
        if held.holders() == 1:
            return held.storage, held.vc
        held.release()
        return [g], [1]
