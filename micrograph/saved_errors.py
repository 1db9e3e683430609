"""PyTorch's texts for a saved value that cannot be used: freed by an earlier backward, changed
in place since it was saved, or detached in place.  One place for them because the nodes of ops
and of custom Functions raise them alike (``node.Node.unpack``), and tests compare them to the
letter with torch's."""

from __future__ import annotations

from micrograph import anomaly

SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors after "
    "they have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)


DETACHED_IN_PLACE = (
    "Trying to use a saved tensor that has been detached in-place, i.e. with .detach_().This is not "
    "supported, please use out-of-place `.detach()` instead"
)


def modified_inplace_error(owner: str | None, version: int, expected: int, output_nr: int = 0) -> RuntimeError:
    """PyTorch's error for a saved value changed in place after it was saved."""
    which = f", which is output {output_nr} of {owner}," if owner else ""
    return RuntimeError(
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [torch.DoubleTensor []]{which} is at version {version}; expected version "
        f"{expected} instead. Hint: " + (ANOMALY_HINT if anomaly.state.enabled else ENABLE_ANOMALY_HINT)
    )


ENABLE_ANOMALY_HINT = (
    "enable anomaly detection to find the operation that failed to compute its gradient, with "
    "torch.autograd.set_detect_anomaly(True, check_nan=False)."
)
ANOMALY_HINT = (  # anomaly mode has just warned with the forward stack of the failing node
    "the backtrace further above shows the operation that failed to compute its gradient. The variable in "
    "question was changed in there or anywhere later. Good luck!"
)
