"""ex18 gallery: plausible wrong engines and correct variants (format: gallery_case.py)."""

from gallery_case import Correct, Wrong

RETAINED = "a.grad after a.retain_grad()"
WITHOUT = "non-leaf grads without retain_grad"
ON_LEAF = "retain_grad on a leaf"
BEFORE = "reading .grad before backward"
WARNS = '''        if not self.is_leaf and not self.retains_grad:
            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)'''
RETAIN = '''        if self.grad_fn is not None:
            self.grad_fn.retained = self
            self.retains_grad = True'''
CASES = [
    Wrong("grad_kept_on_every_node", edits={
        "        out.requires_grad = True\n    return out": "        out.requires_grad = True\n        out.grad_fn.retained = out\n    return out",
        WARNS: '''        if not self.is_leaf and self._grad is None:
            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)'''},
          fails={WITHOUT: "is not None, where PyTorch's is None"}, names=("a.grad after y.backward()", "any other non-leaf's .grad stays None")),
    Wrong("never_warns", edits={WARNS: "        pass"},
          fails={WITHOUT: "warns in PyTorch, but not in your engine"}, names=("reading", "warns")),
    Wrong("leaves_warn_too", edits={WARNS: '''        if not self.retains_grad:
            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)'''},
          fails={RETAINED: "reading w.grad", BEFORE: "reading (w).grad warns in your engine, but not in PyTorch"},
          names=("reading", "a leaf and a retained non-leaf never warn")),
    Wrong("flag_without_writing", edits={RETAIN: "        self.retains_grad = True"},
          fails={RETAINED: "a.grad after a.retain_grad(); y.backward() is None"}, names=("a.grad", "retained non-leaf's too")),
    Wrong("leaf_retains_grad", edits={RETAIN: '''        self.retains_grad = True
        if self.grad_fn is not None:
            self.grad_fn.retained = self'''},
          fails={ON_LEAF: "w.retains_grad after w.retain_grad()"}, names=("retains_grad", "on a leaf that requires grad it changes nothing")),
    Wrong("warning_of_another_kind", edits={"            warnings.warn(NON_LEAF_GRAD, UserWarning, stacklevel=2)":
                                            "            warnings.warn(\"a.grad is None: call retain_grad()\", stacklevel=2)"},
          fails={WITHOUT: "warns in PyTorch, but not in your engine"}, names=("reading", "NON_LEAF_GRAD")),
    Wrong("ex17_not_pasted", edits={"        return grad, grad\n": "        raise NotImplementedError(\"ex17: AddBackward0.apply\")\n"},
          fails={RETAINED: "this stage builds on ex17"}, names=("AddBackward0.apply", "paste your ex17 answer")),
    Wrong("retain_grad_on_constant_accepted", edits={"        if not self.requires_grad:\n            raise RuntimeError(RETAIN_NO_GRAD)\n": ""},
          fails={ON_LEAF: "c.retain_grad(), c = Value(-6) raised no error, where PyTorch raises one"},
          names=("c.retain_grad()", "RETAIN_NO_GRAD")),
    Correct("warn_then_return", edits={WARNS: '''        if self.grad_fn is not None and not self.retains_grad:
            warnings.warn(UserWarning(NON_LEAF_GRAD))'''}),
    Correct("retain_by_flag_only_in_node", edits={RETAIN: '''        if self.is_leaf:
            return
        self.retains_grad = True
        self.grad_fn.retained = self'''}),
]
