"""gradgradcheck: second derivatives against finite differences (right formulas pass, wrong ones fail)."""

from parity.helpers import saving_square


def run(B, rec):
    A = B.autograd

    Square = saving_square(A, "Square", lambda x, g: g * 2 * x)
    DetachedSquare = saving_square(A, "DetachedSquare", lambda x, g: g * 2 * x.detach())  # no second derivative

    def leaf(v):
        return B.value(v, requires_grad=True)

    rec("tanh * x", A.gradgradcheck(lambda a: a.tanh() * a, (leaf(0.3),)))
    rec("exp * sin", A.gradgradcheck(lambda a, b: a.exp() * b.sin(), (leaf(0.3), leaf(0.7))))
    rec("sigmoid of product", A.gradgradcheck(lambda a, b: (a * b).sigmoid(), (leaf(-0.4), leaf(1.1))))
    rec("custom square", A.gradgradcheck(Square.apply, (leaf(0.8),)))
    rec("detached square", A.gradgradcheck(DetachedSquare.apply, (leaf(0.8),), raise_exception=False))
    rec("detached square raises", lambda: A.gradgradcheck(DetachedSquare.apply, (leaf(0.8),)))
    rec("with grad_outputs", A.gradgradcheck(lambda a: a.log() * a, (leaf(1.7),), (leaf(0.5),)))
    rec("gradcheck still passes", A.gradcheck(DetachedSquare.apply, (leaf(0.8),)))
    rec("no input requires grad", lambda: A.gradgradcheck(lambda a: a * a, (B.value(1.0),)))
