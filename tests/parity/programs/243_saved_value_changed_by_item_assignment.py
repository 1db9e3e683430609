"""A value a node saved, changed afterwards by item assignment (``y[()] = 5``) or by ``copy_``:
backward's error names the node that made the changed value.  The name is torch's kernel name
(``Mul`` for ``MulBackward0``); a node whose name has no number after "Backward" keeps its whole
name (``CopyBackwards``), as ``Node::forward_op_name`` leaves it."""


def run(B, rec):
    for start in (2.0, -0.5):
        x = B.value(start, requires_grad=True)
        y = x * 1
        z = y * y
        y[()] = 5.0
        rec(f"x = {start}: y = x * 1; z = y * y; y[()] = 5; z.backward()", lambda: z.backward())
        y = x * 3
        y[()] = 1.5
        z = y * y
        y.copy_(B.value(0.25))
        rec(f"x = {start}: y = x * 3; y[()] = 1.5; z = y * y; y.copy_(0.25); z.backward()", lambda: z.backward())
        y = x * 2
        z = y * y
        y.add_(1.0)
        rec(f"x = {start}: y = x * 2; z = y * y; y.add_(1); z.backward()", lambda: z.backward())
