"""Counting with comparisons: bool and int Values (b + 1, sum of bools, i ** 2, -b), their mixing with float Values (recorded, operands in order), max(dim)/min(dim)'s (values, indices) and argmax/argmin."""

from parity.helpers import echo


def run(B, rec0):
    rec = echo(rec0)
    A = B.autograd

    w = B.value(2.5, requires_grad=True)
    x = B.value(-1.0)
    b = w > 1
    f = x > 0
    i = b + 1
    rec("types", (b, f, i))
    exprs = {
        "b+True": lambda: b + True, "b+b": lambda: b + b, "b*f": lambda: b * f, "b+f": lambda: b + f, "b-b": lambda: b - b,
        "b-1": lambda: b - 1, "1-b": lambda: 1 - b, "b+1": lambda: b + 1, "b*3": lambda: b * 3, "3*b": lambda: 3 * b,
        "b//2": lambda: b // 2, "b%2": lambda: b % 2, "i+1": lambda: i + 1, "i*b": lambda: i * b, "b*i": lambda: b * i,
        "i-5": lambda: i - 5, "5-i": lambda: 5 - i, "i+w": lambda: i + w, "w+i": lambda: w + i, "w*b": lambda: w * b,
        "b*w": lambda: b * w, "w-i": lambda: w - i, "i-w": lambda: i - w, "w/i": lambda: w / i, "w**i": lambda: w ** i,
        "i**2": lambda: i ** 2, "2**i": lambda: 2 ** i, "b**2": lambda: b ** 2, "i**-1": lambda: i ** -1,
        "i//3": lambda: i // 3, "7//i": lambda: 7 // i, "i%3": lambda: i % 3, "-i": lambda: -i, "-b": lambda: -b,
        "abs(i)": lambda: abs(i), "i.sum()": lambda: i.sum(), "b.sum()": lambda: b.sum(), "f.sum()": lambda: f.sum(),
        "b.prod()": lambda: b.prod(), "i.mean()": lambda: i.mean(), "b.mean()": lambda: b.mean(), "i.max()": lambda: i.max(),
        "b.max()": lambda: b.max(), "i.max(0)": lambda: i.max(0), "b.min(0)": lambda: b.min(0),
        "i.requires_grad_()": lambda: i.requires_grad_(), "int(i)": lambda: int(i), "float(i)": lambda: float(i),
        "i.item()": lambda: i.item(), "type i.item": lambda: type(i.item()).__name__, "i==2": lambda: i == 2,
        "i>1.5": lambda: i > 1.5, "i.tolist()": lambda: i.tolist(), "sum([b,b,f])": lambda: sum([b, b, f]),
        "sum([b,i])": lambda: sum([b, i]), "i.grad_fn": lambda: i.grad_fn, "i.requires_grad": lambda: i.requires_grad,
        "i.is_leaf": lambda: i.is_leaf, "(w*i).grad_fn": lambda: (w * i).grad_fn, "(i*w).grad_fn": lambda: (i * w).grad_fn,
        "(w+b).grad_fn next": lambda: [n for n, _ in (w + b).grad_fn.next_functions],
        "(b+w).grad_fn next": lambda: [n for n, _ in (b + w).grad_fn.next_functions],
        "(i-w) next": lambda: [n for n, _ in (i - w).grad_fn.next_functions],
        "max(i, 2)": lambda: max(i, 2), "i.is_floating_point()": lambda: i.is_floating_point(),
        "b.is_floating_point()": lambda: b.is_floating_point(), "w.is_floating_point()": lambda: w.is_floating_point(),
        "w.argmax()": lambda: w.argmax(), "w.argmin(0)": lambda: w.argmin(0), "w.argmax(dim=0, keepdim=True)": lambda: w.argmax(dim=0, keepdim=True),
        "w.argmax(1)": lambda: w.argmax(1), "w.max(1)": lambda: w.max(1), "w.max('a')": lambda: w.max("a"),
        "w.max(0) type": lambda: type(w.max(0)).__name__, "w.max(0) values": lambda: w.max(0).values,
        "w.max(0) indices": lambda: w.max(0).indices, "w.min(0, True)": lambda: w.min(0, True),
        "w.max(dim=-1)": lambda: w.max(dim=-1), "w.max(0) node": lambda: w.max(0)[0].grad_fn,
        "w.max(0) saved": lambda: (w.max(0)[0].grad_fn._saved_dim, w.max(0)[0].grad_fn._saved_keepdim, w.max(0)[0].grad_fn._saved_indices, w.max(0)[0].grad_fn._saved_self_sym_sizes),
        "w.max(0) grad": lambda: B.grad(w.max(0)[0] * w, w),
        "w.max(0) cg": lambda: B.grad(w.max(0)[0] * w, w, create_graph=True)[0].grad_fn.next_functions[1][0],
        "w.min(0) backward": lambda: w.min(0).values.backward(),
        "w.grad": lambda: w.grad,
        "i.add(2, alpha=3)": lambda: i.add(2, alpha=3),
        "correct/total": lambda: (b + f + b) / 2,
        "b.float-ish": lambda: b * 1.0,
        "i format": lambda: f"{i}",
        "b format": lambda: f"{b}",
        "i hash": lambda: hash(i) == id(i),
        "bool(i)": lambda: bool(i),
        "bool(i - 2)": lambda: bool(i - 2),
        "i in set": lambda: len({i, i + 0}),
        "i.clone()": lambda: i.clone(),
        "i.detach()": lambda: i.detach(),
        "range(i)": lambda: list(range(i)),
        "[1,2,3][i]": lambda: [1, 2, 3][i],
    }
    for k, fn in exprs.items():
        rec(k, fn)
