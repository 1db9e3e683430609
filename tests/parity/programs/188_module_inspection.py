"""What a student prints about their own module, on values of our own: repr of a module and of a module
holding a layer, parameters() as a generator (len, indexing, used twice), children(), modules(),
training flags through a tree, and zero_grad over a tree."""


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
            self.inner = Scale()
            self.shift = nn.Parameter(B.value(-0.25))

        def forward(self, x):
            return self.inner(x) + self.shift

    m = Outer()
    rec("repr(Scale())", repr(Scale()))
    rec("repr(Outer())", repr(m))
    gen = m.parameters()
    rec("len(parameters())", lambda: len(m.parameters()))
    rec("parameters()[0]", lambda: m.parameters()[0])
    rec("parameters() once", list(gen))
    rec("parameters() used again", list(gen))
    rec("own before children's", [p.item() for p in m.parameters()])
    rec("children", [type(c).__name__ for c in m.children()])
    rec("modules", [type(c).__name__ for c in m.modules()])
    m.eval()
    rec("eval reaches the inner", (m.training, m.inner.training))
    m.inner.train()
    rec("inner train alone", (m.training, m.inner.training))
    out = m(B.value(2.0))
    out.backward()
    rec("grads", [p.grad for p in m.parameters()])
    m.zero_grad()
    rec("zero_grad over the tree", [p.grad for p in m.parameters()])
    m.inner = Scale()
    rec("inner replaced: parameters", [p.item() for p in m.parameters()])
    rec("m.inner = 3", lambda: setattr(m, "inner", 3))
    rec("m.inner = None", lambda: setattr(m, "inner", None))
    rec("parameters after inner = None", [p.item() for p in m.parameters()])
