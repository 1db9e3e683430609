"""Names a student types from PyTorch's tutorials and the source documents: ``named_parameters()`` and
``named_modules()`` of a module of one-element parameters with a child (the "Build the Neural Network"
tutorial's loop over names), ``ones_like``/``zeros_like`` (the autograd tutorial's explicit seed,
``out.backward(torch.ones_like(out))``), ``torch.nn.functional`` (``F.mse_loss``, ``F.relu``) and the
documents' ``Variable(tensor, requires_grad=True)``; ``torch.autograd.inference_mode``, the name the
``torch.autograd`` docs list it under."""


def run(B, rec):
    nn = B.nn

    class Scale(nn.Module):
        def __init__(self):
            super().__init__()
            self.k = nn.Parameter(B.value(1.5))

        def forward(self, x):
            return self.k * x

    class Outer(nn.Module):
        def __init__(self):
            super().__init__()
            self.shift = nn.Parameter(B.value(-0.25))
            self.inner = Scale()
            self.again = self.inner  # the same child twice: named once, by its first name

        def forward(self, x):
            return self.inner(x) + self.shift

    m = Outer()
    rec("named_parameters", [(name, p.item()) for name, p in m.named_parameters()])
    rec("named_parameters(prefix)", [name for name, _ in m.named_parameters(prefix="model")])
    rec("named_parameters(recurse=False)", [name for name, _ in m.named_parameters(recurse=False)])
    rec("named_modules", [(name, type(c).__name__) for name, c in m.named_modules()])
    rec("a generator", type(m.named_parameters()).__name__)

    w = B.value(2.0, requires_grad=True)
    out = (w * 3).exp()
    seed = B.ones_like(out)
    rec("ones_like", (seed, seed.requires_grad, seed.is_leaf))
    out.backward(seed)
    rec("seeded backward", w.grad)
    rec("zeros_like(w)", B.zeros_like(w))
    rec("ones_like(w, requires_grad=True)", B.ones_like(w, requires_grad=True))
    rec("ones_like(2.0)", lambda: B.ones_like(2.0))

    F = nn.functional
    rec("F.mse_loss", F.mse_loss(w * 1.0, B.value(0.5)))
    rec("F.relu", F.relu(w - 3.0))
    rec("F.sigmoid, F.tanh", (F.sigmoid(w), F.tanh(w)))

    Variable = B.autograd.Variable
    t = B.value(2.0)
    v = Variable(t, requires_grad=True)
    rec("Variable(t, requires_grad=True)", (v, v is t, v.is_leaf, t.requires_grad))
    rec("Variable(t)", (Variable(t), Variable(t).requires_grad))
    y = w * 2
    rec("Variable(non-leaf)", (Variable(y), Variable(y).grad_fn, Variable(y).is_leaf))
    rec("Variable(leaf requiring grad)", (Variable(w).requires_grad, Variable(w) is w))
    rec("Variable(2.0)", lambda: Variable(2.0))
    t.add_(1)
    rec("Variable shares data and version", (v.item(), v._version))
    rec("isinstance", (isinstance(t, Variable), isinstance(2.0, Variable)))

    with B.autograd.inference_mode():
        made = w * 2
    rec("autograd.inference_mode", (made.is_inference(), made.requires_grad))
