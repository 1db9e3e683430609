"""backward(inputs=[non-leaf]): the non-leaf's gradient is computed but not kept (it does not retain grad),
and the leaf behind it gets nothing."""

from parity.helpers import attempt


def run(B, rec):
    k = B.value(1.0, requires_grad=True)
    m = k * 2
    (m * m).backward(inputs=[m])
    rec("inputs=[non-leaf]", (attempt(lambda: m.grad), k.grad, m.retains_grad))
