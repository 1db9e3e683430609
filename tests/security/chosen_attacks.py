"""Submissions whose .grad numbers backward wrote but the student's code chose, for ex02, ex03,
ex05 and ex12, each beside the honest wrong answer it is made from.

The honest wrong answers (``HONEST_WRONG``) write their formula's numbers down: ex02's
``leaf_grads`` returns them, ex03's ``grads_after_backward`` returns Values made of them, ex05's
``grad_history`` and ex12's ``grads_twice`` assign them to ``.grad``; ex02's ``build_graph``
makes ``y = a + b`` (a slip of the operation).  Each attack (``ATTACKS``) is one of them plus a way of having backward
write the formula's numbers: a hook of its own that returns them, a graph of its own made to
carry them (``(a * dw + b * dx).backward()``), or a number put in ``.grad`` before a backward
whose graph adds 0 to it (``(w * 0 + x * 0).backward()``).  None may earn more than the honest
wrong answer of its exercise.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions"
FILES = {"ex02": "ex02_leaves.py", "ex03": "ex03_retain_grad.py", "ex05": "ex05_accumulation.py",
         "ex12": "ex12_linear.py"}


def _swap(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


_SOLVED = {ex: (SOLUTIONS / name).read_text() for ex, name in FILES.items()}

_EX02_Y = '    y = micrograph.mul(a, b)\n'
_EX02_READ = '''    g = build_graph(w, x, w_requires_grad, x_requires_grad)
    g["y"].backward()
    # A leaf that does not require grad is never written to: its .grad stays None.
'''
_EX02_RETURN = '''    return {
        name: None if g[name].grad is None else g[name].grad.item() for name in ("w", "x")
    }
'''
_EX02_FORMULA = '''    dw, dx = x + 2 * w + 1, w + 1
    return {"w": dw if w_requires_grad else None, "x": dx if x_requires_grad else None}
'''
_EX03_READ = '''    g = build_graph(w, x)
    g["y"].backward()
    return {name: node.grad for name, node in g.items()}
'''
_EX03_FORMULA = '''    g = build_graph(w, x)
    for name in ("a", "b", "y"):
        g[name].grad  # each warns, as the statement's reading does
    return {"w": Value(x + 2 * w + 1), "x": Value(w + 1), "a": None, "b": None, "y": None}
'''
_EX05_STEP = '''        y = (x + w) * (w + 1)  # a fresh graph each step; the leaves are shared
        y.backward()  # adds dy/dw to whatever w.grad already holds
'''
_EX05_FORMULA = '''        w.grad = Value((0.0 if w.grad is None else w.grad.item()) + x.item() + 2 * w.item() + 1)
        x.grad = Value((0.0 if x.grad is None else x.grad.item()) + w.item() + 1)
'''

_EX12_TWICE = '''    loss.backward(retain_graph=True)  # keep the saved operands for a second pass
    first = [p.grad.item() for p in net.parameters()]
    loss.backward()  # adds the same gradients again: .grad accumulates
    second = [p.grad.item() for p in net.parameters()]
    return first, second
'''
# d loss / d weight[j][i] is the sum of the rows' entry i; d loss / d bias[j] the number of rows
_EX12_FORMULA = '''    sums = [sum(row[i] for row in rows) for i in range(len(rows[0]))]
    numbers = [s for row in net.weight for s in sums] + [float(len(rows))] * len(net.bias or [])
    params = list(net.parameters())
'''

HONEST_WRONG = {
    "ex02": _swap(_swap(_SOLVED["ex02"], _EX02_Y, '    y = micrograph.add(a, b)\n'),
                  _EX02_READ + _EX02_RETURN, _EX02_FORMULA),
    "ex03": _swap(_SOLVED["ex03"], _EX03_READ, _EX03_FORMULA),
    "ex05": _swap(_SOLVED["ex05"], _EX05_STEP, _EX05_FORMULA),
    "ex12": _swap(_SOLVED["ex12"], _EX12_TWICE, _EX12_FORMULA + '''    for p, number in zip(params, numbers):
        p.grad = Value(2 * number)
    return numbers, [2 * number for number in numbers]
'''),
}
SOLVED = {FILES[ex]: code for ex, code in _SOLVED.items()}


@dataclass(frozen=True)
class Attack:
    name: str
    exercise: str
    code: str

    def files(self) -> dict[str, str]:
        """The class's files of this student: the attack alone (the other exercises' columns
        are not compared)."""
        return {FILES[self.exercise]: self.code}


ATTACKS = [
    # the wrong y = a + b, with hooks on the leaves that hand backward the statement's gradients
    Attack("leaf_hooks_hand_backward_the_formula", "ex02", _swap(HONEST_WRONG["ex02"], '''    y = micrograph.add(a, b)
''', '''    y = micrograph.add(a, b)
    if w_leaf.requires_grad:
        w_leaf.register_hook(lambda g: Value(x + 2 * w + 1))
    if x_leaf.requires_grad:
        x_leaf.register_hook(lambda g: Value(w + 1))
''')),
    # hooks on the wrong y's inputs: dy/da and dy/db of the statement's y, which backward sums
    Attack("non_leaf_hooks_hand_backward_the_formula", "ex02", _swap(HONEST_WRONG["ex02"], '''    y = micrograph.add(a, b)
''', '''    y = micrograph.add(a, b)
    if a.requires_grad:
        a.register_hook(lambda g: Value(w + 1))
    if b.requires_grad:
        b.register_hook(lambda g: Value(x + w))
''')),
    Attack("leaf_grads_through_a_graph_of_its_own", "ex02", _swap(HONEST_WRONG["ex02"], _EX02_FORMULA, '''    dw, dx = x + 2 * w + 1, w + 1
    g = build_graph(w, x, w_requires_grad, x_requires_grad)
    p, q = Value(1.0, requires_grad=w_requires_grad), Value(1.0, requires_grad=x_requires_grad)
    (p * dw + q * dx).backward()
    return {"w": p.grad.item() if w_requires_grad else None, "x": q.grad.item() if x_requires_grad else None}
''')),
    Attack("grads_through_a_graph_of_its_own", "ex03", _swap(HONEST_WRONG["ex03"], '''    return {"w": Value(x + 2 * w + 1), "x": Value(w + 1), "a": None, "b": None, "y": None}
''', '''    p, q = Value(1.0, requires_grad=True), Value(1.0, requires_grad=True)
    (p * (x + 2 * w + 1) + q * (w + 1)).backward()
    return {"w": p.grad, "x": q.grad, "a": None, "b": None, "y": None}
''')),
    Attack("formula_in_grad_then_a_backward_adding_zero", "ex05", _swap(HONEST_WRONG["ex05"], _EX05_FORMULA,
                                                                     _EX05_FORMULA + '''        (w * 0 + x * 0).backward()
''')),
    # the loss forward made left aside: a sum of the parameters weighted by the formula's numbers
    Attack("parameter_grads_through_a_graph_of_its_own", "ex12", _swap(HONEST_WRONG["ex12"], '''    for p, number in zip(params, numbers):
        p.grad = Value(2 * number)
    return numbers, [2 * number for number in numbers]
''', '''    carrier = micrograph.sum([p * number for p, number in zip(params, numbers)])
    carrier.backward(retain_graph=True)
    first = [p.grad.item() for p in params]
    carrier.backward()
    return first, [p.grad.item() for p in params]
''')),
    Attack("formula_written_in_place_then_a_backward_adding_zero", "ex05", _swap(_SOLVED["ex05"], _EX05_STEP, '''        w.grad = Value(0.0) if w.grad is None else w.grad  # a .grad to write into
        x.grad = Value(0.0) if x.grad is None else x.grad
        w.grad.data = Value(w.grad.item() + x.item() + 2 * w.item() + 1)
        x.grad.data = Value(x.grad.item() + w.item() + 1)
        (w * 0 + x * 0).backward()
''')),
]
