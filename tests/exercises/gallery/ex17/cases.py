"""ex17 gallery: plausible wrong backward passes and correct variants (format: gallery_case.py)."""

from gallery_case import Correct, Wrong

DOCS = "backward through the documents' graph"
DIAMONDS = "shared nodes and diamonds"
CHAIN = "a chain of 5000 operations"
START = '''    first, _ = gradient_edge(root)
    waiting = dependencies(first)'''
RECURSIVE = '''    def visit(node, grad):
        for (child, _), g in zip(node.next_functions, node.apply(grad)):
            if child is not None:
                visit(child, g)
    visit(gradient_edge(root)[0], 1.0)
    return
'''
CASES = [
    Wrong("recursive_every_path", edits={START: RECURSIVE + START},
          fails={DOCS: "w.grad for y = (x + w) * (w + 1) is a different number",
                 CHAIN: "RecursionError"}, names=("w.grad", "run each node once")),
    Wrong("recursive_accumulating", edits={START: RECURSIVE + START,
                                           "    v._grad = Value(grad)\n": "    v._grad = Value(grad + (v._grad.item() if v._grad is not None else 0.0))\n"},
          fails={CHAIN: "RecursionError"}, names=("RecursionError",)),
    Wrong("buffers_overwritten", edits={"buffers[child] = buffers.get(child, 0.0) + g": "buffers[child] = g"},
          fails={DOCS: "w.grad for y = (x + w) * (w + 1) is a different number"}, names=("w.grad", "summed")),
    Wrong("mul_gradients_swapped", edits={'''        return (grad * self.unpack("other").item() if "other" in self.saved else 0.0,
                grad * self.unpack("self").item() if "self" in self.saved else 0.0)''': '''        return (grad * self.unpack("self").item() if "self" in self.saved else 0.0,
                grad * self.unpack("other").item() if "other" in self.saved else 0.0)'''},
          fails={DOCS: "is a different number"}, names=("w.grad", "x.grad")),
    Wrong("counts_nodes_not_edges", edits={'''            if child not in counts:
                counts[child] = 0
                stack.append(child)
            counts[child] += 1''': '''            if child not in counts:
                counts[child] = 1
                stack.append(child)'''},
          fails={DIAMONDS: "is a different number"}, names=("w.grad", "every gradient for it has arrived")),
    Wrong("add_sends_one_gradient", edits={"        return grad, grad\n": "        return (grad,)\n"},
          fails={DOCS: "for y = (x + w) * (w + 1) is"}, names=("w.grad", "run each node once")),
    Correct("fifo_queue", edits={"heapq.heappush(ready, (-child.sequence_nr, next(pushed), child))":
                                 "heapq.heappush(ready, (0, next(pushed), child))"}),
    Correct("accumulating_write", edits={"    v._grad = Value(grad)\n": '''    if v._grad is None:
        v._grad = Value(grad)
    else:
        v._grad = Value(v._grad.item() + grad)
'''}),
]
