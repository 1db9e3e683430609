"""next_functions: names, None for constant operands, one shared AccumulateGrad per leaf."""


def walk(rec, path, node, names):
    """Record a node, the leaf behind an AccumulateGrad, and its inputs, recursively."""
    rec(path, node)
    if node is None:
        return
    if hasattr(node, "variable"):
        rec(f"{path}.variable", next((n for n, v in names.items() if v is node.variable), "?"))
    rec(f"len({path}.next_functions)", len(node.next_functions))
    for i, (nxt, input_nr) in enumerate(node.next_functions):
        rec(f"{path}[{i}].input_nr", input_nr)
        walk(rec, f"{path}[{i}]", nxt, names)


def run(B, rec):
    w = B.value(1.5, requires_grad=True)
    x = B.value(-0.75, requires_grad=True)
    c = B.value(3.25)
    names = {"w": w, "x": x}
    a = x + w
    b = w * 2.5
    y = a * b
    walk(rec, "y", y.grad_fn, names)
    rec("next_functions is a tuple", isinstance(y.grad_fn.next_functions, tuple))
    rec("entries are tuples", all(isinstance(e, tuple) for e in y.grad_fn.next_functions))
    rec("a.grad_fn is y's first input", a.grad_fn is y.grad_fn.next_functions[0][0])
    acc_a = a.grad_fn.next_functions[1][0]
    acc_b = b.grad_fn.next_functions[0][0]
    rec("w's AccumulateGrad shared by a and b", acc_a is acc_b)
    rec("AccumulateGrad.variable is w", acc_a.variable is w)
    rec("w and x have different AccumulateGrad", a.grad_fn.next_functions[0][0] is not acc_a)
    rec("grad_fn is the same object on each access", y.grad_fn is y.grad_fn)
    forms = {
        "w * 3": lambda: w * 3,
        "3 * w": lambda: 3 * w,
        "c * w": lambda: c * w,
        "w * c": lambda: w * c,
        "w - c": lambda: w - c,
        "c - w": lambda: c - w,
        "1 - w": lambda: 1 - w,
        "2 / w": lambda: 2 / w,
        "c / w": lambda: c / w,
        "w ** 2": lambda: w ** 2,
        "2 ** w": lambda: 2 ** w,
        "w ** x": lambda: w ** x,
        "w ** c": lambda: w ** c,
        "c ** w": lambda: c ** w,
        "-w": lambda: -w,
        "w.exp()": lambda: w.exp(),
        "w * w": lambda: w * w,
        "(w * c).exp() * x": lambda: (w * c).exp() * x,
    }
    for text, make in forms.items():
        walk(rec, f"({text})", make().grad_fn, names)
    rec("leaf grad_fn", w.grad_fn)
    rec("constant grad_fn", c.grad_fn)
