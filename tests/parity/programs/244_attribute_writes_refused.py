"""Writing or deleting a tensor attribute torch gives a getter only (``grad_fn``, ``is_leaf``, ``output_nr``,
``_version``, ``retains_grad``, ``name``, ``shape``, ``ndim``): the AttributeError Python raises for such an attribute,
naming the class that defines it; ``requires_grad`` of a non-leaf, deleted flags and ``del .data``: torch's
RuntimeErrors; ``_grad_fn = None`` is ``detach_()``, any other ``_grad_fn`` refused; a node's ``next_functions``,
``metadata``, saved values and ``variable`` alike.  A refused write leaves the value as it was."""

from parity.helpers import attempt_statement


def run(B, rec):
    class Double(B.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    for stmt in ["y.grad_fn = None", "x.grad_fn = y.grad_fn", "x.grad_fn = None", "c.grad_fn = None", "del y.grad_fn",
                 "y._grad_fn = None", "x._grad_fn = None", "y._grad_fn = y.grad_fn", "del y._grad_fn",
                 "y.requires_grad = False", "y.requires_grad = True", "y.requires_grad_(False)", "y.requires_grad_(True)",
                 "del y.requires_grad", "del x.requires_grad", "x.requires_grad = False", "c.requires_grad = True",
                 "d.requires_grad = True", "y.output_nr = 1", "x.output_nr = 0", "del y.output_nr",
                 "x.is_leaf = True", "y.is_leaf = True", "d.is_leaf = False", "del x.is_leaf",
                 "x._version = 3", "del x._version", "y.retains_grad = True", "x.retains_grad = False",
                 "del y.retains_grad", "x.name = 'w'", "y.name = 'y'", "x.shape = ()", "x.ndim = 0",
                 "del x.data", "x.data = c", "y.grad = c", "x.label = 'w'", "p.grad_fn = None", "p.is_leaf = False",
                 "y.grad_fn.next_functions = ()", "del y.grad_fn.next_functions", "y.grad_fn.metadata = {}",
                 "y.grad_fn._saved_self = c", "del y.grad_fn._saved_other", "s.grad_fn._saved_alpha = 2",
                 "a.next_functions = ()", "a.metadata = {}", "a.variable = c", "del a.variable",
                 "f.grad_fn.next_functions = ()", "f.grad_fn.metadata = {}",
                 "f.grad_fn.memo = 1"]:
        x = B.value(2.0, requires_grad=True)
        y = x * 3.0
        names = {"x": x, "y": y, "c": B.value(1.5), "d": y.detach(), "p": B.nn.Parameter(B.value(0.5)),
                 "s": B.add(x, y, alpha=2), "a": y.grad_fn.next_functions[0][0], "f": Double.apply(x)}
        rec(stmt, attempt_statement(stmt, names))
        rec(f"{stmt}: then x, y, y.grad_fn, is_leaf, requires_grad", (x, y, y.grad_fn, x.is_leaf, y.is_leaf, y.requires_grad))
        rec(f"{stmt}: then y.output_nr, x._version, retains_grad, name", (y.output_nr, x._version, y.retains_grad, x.name))
        rec(f"{stmt}: then y.backward()", lambda: y.backward())
        rec(f"{stmt}: then x.grad", x.grad)
