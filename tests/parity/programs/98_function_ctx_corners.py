"""Function ctx corners: needs_input_grad in forward and backward, save_for_backward twice, saved_tensors read in forward, mark_dirty on a non-leaf and on an input not returned, an input changed without mark_dirty, mark_non_differentiable of the input, set_materialize_grads, a saved output under create_graph, keyword arguments to apply."""

from parity.helpers import echo


def run(B, rec0):
    rec = echo(rec0)
    A = B.autograd

    w = B.value(1.5, requires_grad=True)
    c = B.value(2.0)

    class Needs(A.Function):
        @staticmethod
        def forward(ctx, a, b, k):
            rec(f"needs_input_grad {a.requires_grad} {b.requires_grad}", ctx.needs_input_grad)
            return a * b * k

        @staticmethod
        def backward(ctx, g):
            rec("needs in backward", ctx.needs_input_grad)
            return g * 2, (g * 3 if ctx.needs_input_grad[1] else None), None

    Needs.apply(w, c, 3).backward()
    rec("w.grad needs", w.grad)
    with B.no_grad():
        rec("needs under no_grad", lambda: Needs.apply(w, c, 3).requires_grad)

    class SavedInForward(A.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            rec("saved_tensors inside forward", lambda: ctx.saved_tensors)
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    rec("saved in forward", lambda: SavedInForward.apply(w))

    class TwiceSave(A.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            ctx.save_for_backward(a, a)
            return a * 2

        @staticmethod
        def backward(ctx, g):
            rec("twice save count", len(ctx.saved_tensors))
            return g * 2

    TwiceSave.apply(w).backward()

    class DirtyNonLeaf(A.Function):
        @staticmethod
        def forward(ctx, a):
            a.mul_(2)
            ctx.mark_dirty(a)
            ctx.save_for_backward(a)
            return a

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return g * 2

    w.grad = None
    a = w * 1
    out = DirtyNonLeaf.apply(a)
    rec("dirty: is a", out is a)
    rec("dirty: value and version", (a, a._version))
    rec("dirty: grad_fn", a.grad_fn)
    rec("dirty: next", [n for n, _ in a.grad_fn.next_functions])
    a.backward()
    rec("dirty: w.grad", w.grad)
    with B.no_grad():
        b = w * 1
    rec("dirty on const", lambda: DirtyNonLeaf.apply(b).grad_fn)

    class DirtyNotReturned(A.Function):
        @staticmethod
        def forward(ctx, a):
            a.add_(1)
            ctx.mark_dirty(a)
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    rec("dirty not returned", lambda: DirtyNotReturned.apply(w * 1))

    class NotDirty(A.Function):
        @staticmethod
        def forward(ctx, a):
            a.add_(1)
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    a = w * 1
    rec("modified without mark_dirty", lambda: NotDirty.apply(a))
    rec("modified without mark_dirty: version", a._version)

    class NonDiffInput(A.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.mark_non_differentiable(a)
            return a

        @staticmethod
        def backward(ctx, g):
            return g

    rec("non-diff input returned", lambda: NonDiffInput.apply(w * 1).requires_grad)

    class NoMat(A.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.set_materialize_grads(False)
            return a * 2

        @staticmethod
        def backward(ctx, g):
            rec("nomat g", g)
            return None if g is None else g * 2

    w.grad = None
    y = NoMat.apply(w)
    (y * 0 + y).backward()
    rec("nomat w.grad", w.grad)
    rec("set_materialize_grads non-bool", lambda: None)

    class Keep(A.Function):
        @staticmethod
        def forward(ctx, a):
            y = a.exp()
            ctx.save_for_backward(y)
            return y

        @staticmethod
        def backward(ctx, g):
            (y,) = ctx.saved_tensors
            seen.append((y.grad_fn, y.requires_grad))
            return g * y

    seen = []
    w.grad = None
    Keep.apply(w).backward()
    rec("keep w.grad", w.grad)
    (gk,) = B.grad(Keep.apply(w), w, create_graph=True)
    rec("keep cg grad_fn", gk.grad_fn)
    rec("keep cg next", [n for n, _ in gk.grad_fn.next_functions])
    rec("keep: saved output as backward saw it", seen)

    class Mark(A.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.mark_non_differentiable(a * 1)
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    rec("mark unrelated", lambda: Mark.apply(w).requires_grad)
    rec("apply kwargs", lambda: Mark.apply(a=w))
    rec("ctx attribute error", lambda: Mark.apply(w).grad_fn.nothing)
    y = Mark.apply(w)
    rec("node type name", type(y.grad_fn).__name__)
    rec("node next_functions", y.grad_fn.next_functions)
    rec("node name", y.grad_fn.name())
    rec("dirty grad", lambda: (DirtyNonLeaf.apply(w * 1) * 1).grad_fn.next_functions[0][0].name())
