"""ex01 gallery: plausible wrong answers and correct variants (format: gallery_case.py)."""

from gallery_case import Correct, Wrong

GRAPH = "build_graph records y = (x + w) * (w + 1)"
BACKPROP = "backprop gives dy/dw and dy/dx"
CHAIN = "chain rule by paths on the documents' graph"

CASES = [
    Wrong("formula_backprop", fails={BACKPROP: "backprop ran no backward pass"}),
    Wrong("floats_graph", fails={GRAPH: "y does not depend on w"}),
    Wrong("new_leaf_b", fails={GRAPH: "b is a leaf (no grad_fn)"}),
    Wrong("b_under_no_grad", fails={GRAPH: "grad mode was off (no_grad) while build_graph ran"}),
    Wrong("backward_in_build", fails={GRAPH: "build_graph started a backward pass"}),
    Wrong("hardcoded_paths", fails={"paths in other graphs": "Walk next_functions"}),
    Wrong("first_input_only", fails={"paths from y to w and to x": "Walk next_functions",
                                     CHAIN: "Sum over the paths"}),
    Wrong("backward_in_grad_by_paths",
          fails={CHAIN: "grad_by_paths started a backward pass"}),
    Wrong("own_factor", fails={"chain rule by paths in other graphs": "the other factor's data"}),
    Correct("operators_and_grad"),
    Correct("recursive_memo"),
]
