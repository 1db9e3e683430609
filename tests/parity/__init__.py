"""PyTorch parity suite: the same programs run on torch (recorded) and micrograph (tested)."""
