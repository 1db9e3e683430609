"""ex02 gallery: plausible wrong answers and correct variants (format: gallery_case.py)."""

from gallery_case import Correct, Wrong

DOCS = "the documents' graph"
W_OFF = "a leaf that does not require grad"
LEAF_GRADS = "which leaves get a gradient"

CASES = [
    Wrong("flags_ignored", fails={W_OFF: "w has requires_grad=True"}),
    Wrong("leaf_means_requires_grad", fails={"node_info reads the attributes": "v.is_leaf"}),
    Wrong("hardcoded", fails={LEAF_GRADS: "leaf_grads ran no backward pass"}),
    Wrong("formula_leaf_grads", fails={LEAF_GRADS: "leaf_grads ran no backward pass"}),
    Wrong("no_grad_when_flag_off",
          fails={W_OFF: "grad mode was off (no_grad) while build_graph ran"}),
    Wrong("zero_for_no_grad", fails={LEAF_GRADS: "return None for it"}),
    Wrong("new_leaf_b", fails={DOCS: "b is a leaf (no grad_fn)"}),
    Wrong("backward_in_build", fails={DOCS: "build_graph started a backward pass"}),
    Correct("attributes_differently"),
    Correct("grad_function"),
]
